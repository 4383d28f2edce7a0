"""Exporting every card of a space: fetch all its pages, then write them in one file.

The window's Export All and `cardviewer export --all` both run this. Each page's cards
become cells as the page arrives and wait on disk (`ExportSpool`), so a space of
100,000 cards is never in memory at once. Nothing is written until every page is in,
so the columns cover every card, and a cancelled or failed fetch leaves no partial
file behind (an earlier file stays as it was).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from cardviewer.api.models import CardPage
from cardviewer.services.card_columns import ENGLISH_TITLES, ColumnTitles
from cardviewer.services.card_export import ExportFormat, write_table
from cardviewer.services.export_spool import ExportSpool
from cardviewer.services.space_fetch import (
    DEFAULT_CONCURRENCY,
    PageFetch,
    ProgressCallback,
    fetch_pages_in_order,
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
    export_format = export_format or ExportFormat.of(path)
    typed = export_format is ExportFormat.XLSX
    spool = ExportSpool(with_emails=with_emails, typed=typed, titles=titles)

    def keep(page: CardPage) -> None:
        spool.add(page.cards)

    try:
        await fetch_pages_in_order(fetch, keep, concurrency=concurrency, on_progress=on_progress)
    except BaseException:
        spool.close()
        raise
    if on_writing is not None:
        on_writing(spool.count)

    def write() -> int:
        # Closed by the thread that reads it: a file being written is finished even
        # when the export is abandoned meanwhile.
        with spool:
            return write_table(
                path,
                spool.columns(),
                spool.rows(),
                export_format=export_format,
                title=title,
                delimiter=delimiter,
                titles=titles,
            )

    return await asyncio.to_thread(write)
