"""Exporting every card of a space: fetch all its pages, then write them in one file.

The window's Export All and `cardviewer export --all` both run this. Nothing is
written until every page is in, so the columns cover every card, and a cancelled or
failed fetch leaves no partial file behind (an earlier file stays as it was).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cardviewer.services.card_columns import ENGLISH_TITLES, ColumnTitles
from cardviewer.services.card_export import ExportFormat, write_cards
from cardviewer.services.space_fetch import (
    DEFAULT_CONCURRENCY,
    PageFetch,
    ProgressCallback,
    fetch_all_pages,
)

WritingCallback = Callable[[int], None]
"""Hears the number of cards when writing starts; from then on it cannot be cancelled."""


async def export_space(
    fetch: PageFetch,
    path: Path,
    *,
    with_emails: bool,
    title: str = "",
    delimiter: str = ",",
    titles: ColumnTitles = ENGLISH_TITLES,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_progress: ProgressCallback | None = None,
    on_writing: WritingCallback | None = None,
    export_format: ExportFormat | None = None,
) -> int:
    """Fetch every page through `fetch` and write all their cards to `path`.

    The format is `export_format`, else the one `path`'s suffix names.

    Returns the number of cards written. Raises the client's errors while fetching and
    `OSError` when the file cannot be written (see `write_cards`).
    """
    pages = await fetch_all_pages(fetch, concurrency=concurrency, on_progress=on_progress)
    cards = [card for page in pages for card in page.cards]
    if on_writing is not None:
        on_writing(len(cards))
    return await write_cards(
        path,
        cards,
        with_emails=with_emails,
        title=title,
        delimiter=delimiter,
        titles=titles,
        export_format=export_format,
    )
