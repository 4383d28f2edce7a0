"""Cards as JSON lines: one card a line, as the server sent it, for scripts and programs.

`cardviewer export --format jsonl` writes this (through `streamed_export`). Every field
stays as it came, unknown ones and values of the wrong type included, so another
program sees what the platform holds, not what CardViewer makes of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from cardviewer.api.models import CardPage

SUFFIX = ".jsonl"


def card_line(card: Mapping[str, Any]) -> bytes:
    """One card as a line of UTF-8 JSON; text UTF-8 cannot carry stays escaped, as sent."""
    try:
        text = json.dumps(card, ensure_ascii=False, separators=(",", ":"))
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate the server escaped
        return (json.dumps(card, separators=(",", ":")) + "\n").encode("ascii")


def page_lines(page: CardPage) -> Iterator[bytes]:
    """The cards of `page` as they came, a line each."""
    return (card_line(card) for card in page.sent_cards())
