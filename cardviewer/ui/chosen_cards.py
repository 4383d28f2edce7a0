"""The cards an export of the selection or of what is shown works on.

Two or more selected cards, else every card shown: the cards of the page on screen,
or the places of the whole space's cards in its local copy (filtered, in their order),
read a block at a time when written, so that a whole space is never held at once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from cardviewer.api.models import Card
from cardviewer.services.card_export import stored_cards
from cardviewer.services.card_store import CardStore
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.store_schema import Generation


@dataclass(frozen=True)
class ChosenCards:
    """The cards of a page (`cards`), or of a local copy (`store_path`, `positions`)."""

    request: PageRequest
    """The space they belong to."""
    stem: str
    """The file name an export suggests, without its suffix."""
    cards: list[Card] = field(default_factory=list)
    store_path: Path | None = None
    positions: list[int] = field(default_factory=list)
    generation: Generation | None = None
    """The copy shown at `store_path` (None: its current one)."""

    @property
    def count(self) -> int:
        return len(self.positions) if self.store_path is not None else len(self.cards)


@contextlib.contextmanager
def chosen_card_stream(chosen: ChosenCards) -> Iterator[Iterable[Card]]:
    """The chosen cards in order, read from the local copy as they are taken."""
    if chosen.store_path is None:
        yield chosen.cards
        return
    with CardStore.open(chosen.store_path, create=False) as store:
        yield stored_cards(store, chosen.positions, generation=chosen.generation)
