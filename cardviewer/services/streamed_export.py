"""Writing a file of cards page by page, as the pages arrive: JSON lines, vCards.

Formats that need no columns worked out over every card (unlike CSV and Excel, see
`space_export`) are written as each page arrives, so a whole space is never in memory.
The file takes its name only when every page is in: a failed fetch leaves an earlier
file as it was, and nothing half-written behind.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from cardviewer.api.models import CardPage
from cardviewer.services.atomic_file import open_atomically
from cardviewer.services.file_errors import in_plain_words
from cardviewer.services.space_fetch import (
    DEFAULT_CONCURRENCY,
    PageFetch,
    ProgressCallback,
    fetch_pages_in_order,
)

PageEncoder = Callable[[CardPage], Iterable[bytes]]
"""The bytes of each card of a page, in the file's format."""
AsyncPageEncoder = Callable[[CardPage], Awaitable[Iterable[bytes]]]
"""The same, for a format that first fetches something for the page (vCards' photos);
the pages after it wait meanwhile."""


class _Written:
    """Writes the cards of each page handed to it; counts them."""

    def __init__(self, file: BinaryIO, encode: PageEncoder | AsyncPageEncoder) -> None:
        self._file = file
        self._encode = encode
        self.count = 0

    def add(self, page: CardPage) -> Awaitable[None] | None:
        encoded = self._encode(page)
        if isinstance(encoded, Awaitable):
            return self._add_when(encoded)
        self._write(encoded)
        return None

    async def _add_when(self, encoded: Awaitable[Iterable[bytes]]) -> None:
        self._write(await encoded)

    def _write(self, cards: Iterable[bytes]) -> None:
        for card in cards:
            self._file.write(card)
            self.count += 1


def write_page(path: Path, page: CardPage, encode: PageEncoder) -> int:
    """Write the cards of `page` to `path`; returns how many. Raises `OSError` in plain words."""
    return write_stream(path, encode(page))


def write_stream(path: Path, cards: Iterable[bytes]) -> int:
    """Write each card's bytes to `path` as they come; returns how many.

    Raises `OSError` in plain words; the file `path` named before stays as it was.
    """
    count = 0
    try:
        with open_atomically(path) as file:
            for card in cards:
                file.write(card)
                count += 1
    except OSError as error:
        raise in_plain_words(error, path) from error
    return count


async def export_space_stream(
    fetch: PageFetch,
    path: Path,
    encode: PageEncoder | AsyncPageEncoder,
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
            written = _Written(file, encode)
            await fetch_pages_in_order(
                fetch, written.add, concurrency=concurrency, on_progress=on_progress
            )
    except OSError as error:
        raise in_plain_words(error, path) from error
    return written.count
