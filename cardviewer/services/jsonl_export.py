"""Cards as JSON lines: one card a line, as the server sent it, for scripts and programs.

`cardviewer export --format jsonl` writes this. Every field stays as it came, unknown
ones and values of the wrong type included, so another program sees what the platform
holds, not what CardViewer makes of it. Lines are written as the pages arrive and the
file takes its name only when every page is in: a failed fetch leaves an earlier file
as it was, and a whole space is never in memory.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

from cardviewer.api.models import CardPage
from cardviewer.services.atomic_file import open_atomically
from cardviewer.services.file_errors import in_plain_words
from cardviewer.services.space_fetch import (
    DEFAULT_CONCURRENCY,
    PageFetch,
    ProgressCallback,
    fetch_pages_in_order,
)

SUFFIX = ".jsonl"


def card_line(card: Mapping[str, Any]) -> bytes:
    """One card as a line of UTF-8 JSON; text UTF-8 cannot carry stays escaped, as sent."""
    try:
        text = json.dumps(card, ensure_ascii=False, separators=(",", ":"))
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate the server escaped
        return (json.dumps(card, separators=(",", ":")) + "\n").encode("ascii")


class _Lines:
    """Writes the cards of each page handed to it; counts them."""

    def __init__(self, file: BinaryIO) -> None:
        self._file = file
        self.count = 0

    def add(self, page: CardPage) -> None:
        cards = page.sent_cards()
        self._file.write(b"".join(card_line(card) for card in cards))
        self.count += len(cards)


def write_page_lines(path: Path, page: CardPage) -> int:
    """Write the cards of `page` to `path`; returns how many. Raises `OSError` in plain words."""
    try:
        with open_atomically(path) as file:
            lines = _Lines(file)
            lines.add(page)
    except OSError as error:
        raise in_plain_words(error, path) from error
    return lines.count


async def export_space_lines(
    fetch: PageFetch,
    path: Path,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_progress: ProgressCallback | None = None,
) -> int:
    """Fetch every page through `fetch` and write all their cards to `path`, page by page.

    Returns the number of cards written. Raises the client's errors while fetching, and
    `OSError` in plain words when the file cannot be written; either way the file
    `path` named before is left as it was.
    """
    try:
        with open_atomically(path) as file:
            lines = _Lines(file)
            await fetch_pages_in_order(
                fetch, lines.add, concurrency=concurrency, on_progress=on_progress
            )
    except OSError as error:
        raise in_plain_words(error, path) from error
    return lines.count
