"""The Qt table model of a whole synced space, read from its local copy as it is shown.

Memory does not grow with the space: the model holds the ordered positions of the
cards that pass the filter (one integer each) and the cards of the rows painted lately
(`CACHED_CARDS`), read from the store a block at a time. Sorting (`sort`, which the
view calls when a heading is clicked) and filtering (`set_filter_text`) run in SQLite on
a worker thread (`SpaceQueries`); the rows shown stay until the answer comes, and an
answer to anything but the last sort or filter is dropped. A card's position in the
store is its id while the copy is shown (`position`, `rows_of`): the window keeps the
current card current across a new order by it.
"""

from __future__ import annotations

import logging
import sqlite3
from collections import OrderedDict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QLocale,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QGuiApplication

from cardviewer.api.models import Card
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.card_columns import Column, build_columns
from cardviewer.services.card_search import search_terms
from cardviewer.services.card_store import CardStore
from cardviewer.services.space_queries import SpaceAnswer, SpaceQueries, SpaceQuery
from cardviewer.services.store_copies import Change
from cardviewer.services.text_collation import collation_of
from cardviewer.ui.cards.card_table_model import (
    CARD_ROLE,
    avatar_cell,
    heading_data,
    role_text,
)
from cardviewer.ui.cards.change_marks import change_tint, changed_columns, with_before
from cardviewer.ui.cards.columns import alignment, column_titles

log = logging.getLogger(__name__)

ModelIndex = QModelIndex | QPersistentModelIndex

BLOCK = 32
"""Cards read from the store at once around a row that is painted and not cached: a
screenful and a little more. Reading is most of a repaint of rows not shown before
(some 45 µs a card, scattered through the copy when sorted), so a jump to any place in
the space reads no more than it shows; scrolling reads as rows come."""
CACHED_CARDS = 8 * BLOCK
SAMPLE = BLOCK
"""Cards whose values decide the kind of a field the specification does not list."""

_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
_DECORATION = int(Qt.ItemDataRole.DecorationRole)
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
_TEXT_ROLES = frozenset((_DISPLAY, _TOOLTIP, int(Qt.ItemDataRole.AccessibleTextRole)))
_NOT_YET = object()
_NO_TEXTS: Mapping[tuple[int, int], Any] = MappingProxyType({})


class SpaceTableModel(QAbstractTableModel):
    """Rows are the cards of a synced space that pass the filter, in the order asked for.

    Open with the path of the space's store (`CardStore.open` may raise `StoreError`);
    `close()` when done. With `change`, only the cards the last sync added or changed,
    or removed: these are read from the copy before it, where they still are.
    """

    countsChanged = Signal(int, int)
    """Cards shown and cards in the copy, once every row of a sort or filter is in."""
    queryStarted = Signal()
    """A sort or filter was asked for; its rows come later, on `queryFinished`."""
    queryFinished = Signal()
    """Every row of the last sort or filter is in (also after a failure)."""
    queryFailed = Signal(str)
    """The copy could not be read to sort, filter or show rows; the detail, for the log
    (the rows shown stay). Said once for rows that cannot be read, however many."""
    _answered = Signal(object)

    def __init__(
        self,
        path: Path,
        avatars: AvatarLoader | None = None,
        parent: QObject | None = None,
        *,
        locale: QLocale | None = None,
        change: Change | None = None,
    ) -> None:
        super().__init__(parent)
        self._store = CardStore.open(path, create=False)
        self.path = path
        """The local copy shown."""
        current = self._store.current
        self._current_id = current.id if current is not None else None
        # Removed cards are no longer in the current copy: they are read from the one before.
        self.generation = self._store.previous if change is Change.REMOVED else current
        self.has_changes = self._store.previous is not None
        """The copy has a sync before it to compare with (`set_change`)."""
        self._avatars = avatars
        self._cards: OrderedDict[int, Card] = OrderedDict()
        self._texts: dict[int, dict[tuple[int, int], Any]] = {}
        """The texts made of each cached card, by role and column."""
        self._before: dict[int, Card | None] = {}
        """Of the cached changed cards shown: each as the copy before had it."""
        self._changed: dict[int, frozenset[int]] = {}
        """Of the cached changed cards shown: the columns whose value the sync changed."""
        self._marks_changes = change is Change.CHANGED
        """The rows shown are the changed cards: their changed cells are marked."""
        self._text = ""
        self._query = SpaceQuery(change=change, generation=self.generation)  # whatever comes
        self._asked = 0
        self._complete = True
        self._change_count: int | None = None
        """How many cards the change shown picks, once the worker said (`total_count`)."""
        self._unreadable = False
        """Rows could not be read (a copy damaged while shown): said once, shown empty."""
        # The space's order until the first answer; of a change, nothing until it says.
        self._positions: Sequence[int] = range(self.card_count()) if change is None else ()
        # The copy's first cards decide the kinds of unknown fields, whatever is shown.
        sample = list(self._read(range(min(SAMPLE, self.card_count()))).values())
        with_emails = self.generation.with_emails if self.generation is not None else False
        self.with_emails = with_emails
        """The copy holds the cards' e-mail addresses."""
        self._columns = build_columns(
            sample,
            with_emails=with_emails,
            titles=column_titles(),
            more_fields=self._store.extra_fields(self.generation),
        )
        # As numbers: Qt reads an alignment from an int as from a flag, and converts an
        # int for the view faster than it converts a Python enum, every cell of a paint.
        self._alignments = [alignment(column).value for column in self._columns]
        self._avatar_column = self.column_of("avatar")
        reader_locale = locale if locale is not None else QLocale()
        self._queries = SpaceQueries(
            path,
            self._answered.emit,
            collation=collation_of(reader_locale),
            shown=self.generation,
        )
        self._answered.connect(self._on_answer, Qt.ConnectionType.QueuedConnection)
        if avatars is not None:
            avatars.avatarReady.connect(self._on_avatar_ready)
        self._ask(self._query)

    def close(self) -> None:
        """Stop the worker and close the store; the model shows what it had."""
        self._queries.close()
        self._store.close()

    # State

    @property
    def synced_at(self) -> datetime | None:
        """When the copy shown was synced."""
        return self.generation.synced_at if self.generation is not None else None

    def is_superseded(self) -> bool:
        """Another sync (another window's, a scheduled one) has made a newer copy current.

        The model goes on showing its own copy, whole and unmixed, until it is closed.
        """
        current = self._store.current
        return current is not None and current.id != self._current_id

    @property
    def columns(self) -> list[Column]:
        return list(self._columns)

    @property
    def is_sorting(self) -> bool:
        """A sort or filter is under way: the rows shown are not yet its answer."""
        return not self._complete

    def column_of(self, key: str) -> int | None:
        """The index of the column showing the field `key`, if shown."""
        return next((n for n, column in enumerate(self._columns) if column.key == key), None)

    def card(self, row: int) -> Card | None:
        """The card in row `row`, read from the store if it is not cached."""
        if not 0 <= row < len(self._positions):
            return None
        position = self._positions[row]
        card = self._cards.get(position)
        if card is None:
            start = max(0, row - BLOCK // 4)  # more below: a view is mostly scrolled down
            self._read(self._positions[start : start + BLOCK])
            card = self._cards.get(position)
        else:
            self._cards.move_to_end(position)
        return card

    def positions(self) -> list[int]:
        """The cards shown, as positions in the copy, in the order shown (a copy)."""
        return list(self._positions)

    def cached_cards(self) -> int:
        """How many cards are held in memory (at most `CACHED_CARDS`)."""
        return len(self._cards)

    def position(self, row: int) -> int | None:
        """The card's place in the copy (its id while the copy is shown)."""
        return self._positions[row] if 0 <= row < len(self._positions) else None

    def rows_of(self, positions: Collection[int]) -> dict[int, int]:
        """The rows showing the cards at these positions in the copy, of those that pass."""
        if isinstance(self._positions, range):  # the space's order: the row is the place
            return {place: place for place in positions if place in self._positions}
        wanted = set(positions)
        return {place: row for row, place in enumerate(self._positions) if place in wanted}

    def ids_at(self, positions: Sequence[int]) -> dict[int, str]:
        """The ids of the cards at these positions in the copy shown (`CardStore.ids_at`),
        also once a newer sync has made another copy current."""
        return self._store.ids_at(positions, self.generation)

    def positions_of(self, ids: Collection[str]) -> dict[str, int]:
        """Where the cards with these ids are in the copy (`CardStore.positions_of`)."""
        return self._store.positions_of(ids, self.generation)

    # Sort and filter

    def filter_text(self) -> str:
        """The filter as typed."""
        return self._text

    def filter_terms(self) -> tuple[str, ...]:
        """The folded words every card shown contains."""
        return self._query.terms

    def set_filter_text(self, text: str) -> None:
        """Show only the cards containing every word of `text` (the page's rule)."""
        self._text = text
        terms = search_terms(text)
        if terms != self._query.terms:
            self._ask(replace(self._query, terms=terms))

    @property
    def change(self) -> Change | None:
        """Which of the last sync's changes are shown; None: every card."""
        return self._query.change

    def set_change(self, change: Change | None) -> None:
        """Show only the cards the last sync added or changed, or every card again.

        Removed cards are of the copy before: a model opened with `change=REMOVED` shows
        them, and only them.
        """
        if (change is Change.REMOVED) != (self._query.change is Change.REMOVED):
            raise ValueError("removed cards are read from the copy before: open a model of it")
        if change != self._query.change:
            self._change_count = None
            self._ask(replace(self._query, change=change))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by `column` (-1: the space's order), empty values last either way."""
        field = self._columns[column].key if 0 <= column < len(self._columns) else None
        descending = order == Qt.SortOrder.DescendingOrder and field is not None
        self._ask(replace(self._query, field=field, descending=descending))

    def _ask(self, query: SpaceQuery) -> None:
        self._query = query
        self._complete = False
        self._asked = self._queries.ask(query)
        self.queryStarted.emit()

    def _on_answer(self, answer: SpaceAnswer) -> None:
        if answer.number != self._asked:
            return  # a newer sort or filter was asked for meanwhile
        if answer.failure is not None:
            log.warning("the local copy could not be sorted or filtered: %s", answer.failure)
            self._complete = True
            self.queryFailed.emit(answer.failure)
            self.queryFinished.emit()
            return
        self._keep(answer.cards)  # the first rows' cards, read on the worker
        # Cells marked or no longer: every row shown is painted again, and the details of
        # the current card say it, even where the rows are the same.
        marks_toggled = self._mark_changes(self._query.change is Change.CHANGED)
        if answer.change_count is not None:
            self._change_count = answer.change_count
        if not marks_toggled and self._continues(answer):
            # The whole answer after its first rows: only rows below them come, so the
            # rows on screen stay as they are, with no repaint and no new selection.
            shown = len(self._positions)
            self.beginInsertRows(QModelIndex(), shown, len(answer.positions) - 1)
            self._positions = answer.positions
            self.endInsertRows()
        elif marks_toggled or answer.positions != self._positions:
            self.beginResetModel()
            self._positions = answer.positions
            self.endResetModel()
        self._complete = answer.complete
        if answer.complete:
            self.countsChanged.emit(len(self._positions), self.total_count())
            self.queryFinished.emit()

    def _continues(self, answer: SpaceAnswer) -> bool:
        """`answer` is the rest of the first rows shown: the same rows, and more after them."""
        shown = self._positions
        return (
            not self._complete
            and len(answer.positions) > len(shown)
            and list(answer.positions[: len(shown)]) == list(shown)
        )

    def shown_count(self) -> int:
        return len(self._positions)

    def total_count(self) -> int:
        """The cards a filter chooses among: the copy's, or those the change shown picks
        (none until the worker has counted them)."""
        if self._query.change is not None:
            return self._change_count or 0
        return self.card_count()

    def card_count(self) -> int:
        """The cards of the copy shown."""
        return self.generation.card_count if self.generation is not None else 0

    # Reading cards

    def _read(self, positions: Sequence[int]) -> dict[int, Card]:
        missing = [position for position in positions if position not in self._cards]
        try:
            found = self._store.cards_at(missing, self.generation)
        except (sqlite3.Error, ValueError) as error:  # damaged while shown, say
            self._read_failed(error)
            return {}
        self._keep(found)
        return found

    def _read_failed(self, error: Exception) -> None:
        """Rows that cannot be read are shown empty; the first failure is said."""
        if not self._unreadable:
            self._unreadable = True
            log.warning("rows of the local copy %s could not be read: %s", self.path, error)
            self.queryFailed.emit(str(error))

    def _keep(self, cards: Mapping[int, Card]) -> None:
        """Cache `cards` (by position) as the latest read, their texts not yet made."""
        for position, card in cards.items():
            if position not in self._cards:
                self._cards[position] = card
                self._texts[position] = {}
        while len(self._cards) > CACHED_CARDS:
            position, _card = self._cards.popitem(last=False)
            self._texts.pop(position, None)
            self._before.pop(position, None)
            self._changed.pop(position, None)

    # What the last sync changed

    @property
    def marks_changes(self) -> bool:
        """The changed cells are marked (`change_tint`): the view of changed cards."""
        return self._marks_changes

    def _mark_changes(self, marks: bool) -> bool:
        """Mark the changed cells of the rows shown from now on, or stop marking them;
        True if that is a change."""
        if marks == self._marks_changes:
            return False
        self._marks_changes = marks
        for texts in self._texts.values():
            texts.clear()  # tooltips made with or without what the cell was before
        return True

    def card_before(self, row: int) -> Card | None:
        """Of the changed cards shown: the card in `row` as the copy before had it."""
        if not self._marks_changes or self.card(row) is None:
            return None
        position = self._positions[row]
        if position not in self._before:
            # With the cached cards around it: one read for a screenful, no more.
            start = max(0, row - BLOCK // 4)
            around = self._positions[start : start + BLOCK]
            missing = [
                place for place in around if place in self._cards and place not in self._before
            ]
            try:
                found = self._store.before_last_sync(missing, self.generation)
            except (sqlite3.Error, ValueError) as error:
                self._read_failed(error)
                found = {}
            self._before.update((place, found.get(place)) for place in missing)
        return self._before.get(position)

    def changed_columns(self, row: int) -> frozenset[int]:
        """Of the changed cards shown: the columns whose value the last sync changed."""
        position = self.position(row)
        if position is None or not self._marks_changes:
            return frozenset()
        changed = self._changed.get(position)
        if changed is None:
            card, before = self.card(row), self.card_before(row)
            if card is None or before is None:
                return frozenset()
            changed = self._changed[position] = changed_columns(self._columns, card, before)
        return changed

    def _on_avatar_ready(self, _url: str) -> None:
        """Repaint the avatar column: the view repaints only the rows on screen."""
        column = self._avatar_column
        if column is not None and self._positions:
            self.dataChanged.emit(
                self.index(0, column),
                self.index(len(self._positions) - 1, column),
                [Qt.ItemDataRole.DecorationRole],
            )

    # Qt model interface

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._positions)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # A view asks for seven roles of every cell it paints, then for its place twice
        # (`rowCount`, `columnCount`): the roles that show come first, and a cell's text
        # is made once per card and found without touching the card.
        if role == _DISPLAY:
            return self._text_at(index.row(), index.column(), _DISPLAY)  # -1: invalid
        if role == _ALIGNMENT:
            col = index.column()
            return self._alignments[col] if 0 <= col < len(self._alignments) else None
        if role == _DECORATION:
            if self._avatar_column is None or index.column() != self._avatar_column:
                return None
            card = self.card(index.row())
            return avatar_cell(self._avatars, card) if card is not None else None
        if role in _TEXT_ROLES:
            return self._text_at(index.row(), index.column(), role)
        if role == CARD_ROLE:
            return self.card(index.row()) if 0 <= index.column() < len(self._columns) else None
        if (
            role == _BACKGROUND
            and self._marks_changes
            and index.column() in self.changed_columns(index.row())
        ):
            return change_tint(QGuiApplication.palette())
        return None

    def display_texts(self, column: int, rows: int) -> list[Any]:
        """The texts shown in `column` of the first `rows` rows (for fitting its width).

        As `data()` gives them, without a model index and three calls through Qt for
        each: fitting the columns in view measured 30 rows of each on the way to a
        synced space's first paint.
        """
        return [self._text_at(row, column, _DISPLAY) for row in range(min(rows, self.rowCount()))]

    def _text_at(self, row: int, col: int, role: int) -> Any:
        """The cell's value in a text role, made once per cached card."""
        if not (0 <= row < len(self._positions) and 0 <= col < len(self._columns)):
            return None
        position, key = self._positions[row], (role, col)
        text = self._texts.get(position, _NO_TEXTS).get(key, _NOT_YET)
        if text is not _NOT_YET:
            return text
        card = self.card(row)  # read with its block if need be, its texts then kept too
        if card is None:
            return None
        column = self._columns[col]
        text = role_text(role, column, card)
        if role != _DISPLAY and self._marks_changes and col in self.changed_columns(row):
            before = self.card_before(row)
            assert before is not None  # compared with it
            text = with_before(role, text, column, card, before)
        self._texts[position][key] = text
        return text

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return super().headerData(section, orientation, role)
        return heading_data(self._columns, section, role)
