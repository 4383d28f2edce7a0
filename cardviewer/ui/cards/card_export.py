"""Writing cards as the window exports them: headed as the table heads its columns.

The writing itself is `services.card_export`, shared with `cardviewer export`; the
window's files differ only in their headings, which are in the reader's language.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from cardviewer.services import card_export
from cardviewer.ui.cards.columns import column_titles

if TYPE_CHECKING:
    from cardviewer.api.models import Card
    from cardviewer.services.store_schema import Generation


async def write_cards(
    path: Path, cards: list[Card], *, with_emails: bool, title: str = "", delimiter: str = ","
) -> int:
    """Write `cards` in a worker thread with the table's headings; see `card_export.write_cards`."""
    return await card_export.write_cards(
        path,
        cards,
        with_emails=with_emails,
        title=title,
        delimiter=delimiter,
        titles=column_titles(),
    )


def stored_cards_writer(
    *,
    store_path: Path,
    positions: list[int],
    title: str = "",
    delimiter: str = ",",
    generation: Generation | None = None,
) -> partial[int]:
    """Writes cards of a local copy with the table's headings, given its file, `stop` and
    `painted` (`card_export.write_stored_cards_now`).

    Run it in a process of its own (`run_in_process`): a whole space's cards are Python
    from end to end, and on a thread beside the window's they held up its every paint.
    """
    return partial(
        card_export.write_stored_cards_now,
        store_path=store_path,
        positions=positions,
        title=title,
        delimiter=delimiter,
        titles=column_titles(),
        generation=generation,
    )
