"""Quick search and value-aware sorting between the card table model and its view.

Typing in a search field filters the cards of the page on screen at once: every
word typed must occur in the card's name, username, position or e-mail addresses,
regardless of case and accents ("zoe" finds "Zoë"). Each card's searchable text is
folded once and cached, so every key stroke only does substring tests, even with
thousands of rows.

Sorting compares what the values are, not how they read: counts as numbers (2
before 10), times as instants, text as people in the user's language sort it
(numbers inside text by value, case ignored). Empty cells go last in both
directions, so a descending sort still starts with real values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QDateTime,
    QLocale,
    QMetaObject,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
    Slot,
)

from cardviewer.api.models import Card
from cardviewer.services.card_order import EMPTY, OTHER, TEXT, TIME, SortKey
from cardviewer.services.card_order import sort_key as card_sort_key
from cardviewer.services.card_search import card_search_text, search_terms
from cardviewer.services.text_collation import text_collator
from cardviewer.ui.cards.card_table_model import CARD_ROLE, SORT_ROLE, CardTableModel

ModelIndex = QModelIndex | QPersistentModelIndex


def sort_key(value: Any) -> SortKey:
    """`card_order.sort_key`, which also reads a `QDateTime` (another source model's)."""
    if isinstance(value, QDateTime):
        return (TIME, value.toMSecsSinceEpoch() / 1000) if value.isValid() else (EMPTY, None)
    return card_sort_key(value)


class CardFilterModel(QSortFilterProxyModel):
    """Filters the cards by search words and sorts them by their real values.

    Meant to sit on a `CardTableModel`; another source model works too, as long as
    it offers a card under `CARD_ROLE` and sort values under the sort role. The search
    is `set_filter_text`, not Qt's filter properties (`setFilterFixedString` and the
    like are ignored); text sorting follows the collator, not `setSortLocaleAware`
    or `setSortCaseSensitivity`.
    """

    countsChanged = Signal(int, int)
    """Rows shown and rows in total, after the search changed or the source did."""

    def __init__(self, parent: QObject | None = None, *, locale: QLocale | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self._collator = text_collator(locale)
        self._text = ""
        self._terms: tuple[str, ...] = ()
        # id(card) -> (card, folded text). The card is kept so that its id cannot be
        # reused by another card while the entry exists; cards are immutable.
        self._search_texts: dict[int, tuple[Card, str]] = {}
        # (column, role) -> one sort key per source row.
        self._sort_keys: dict[tuple[int, int], list[SortKey]] = {}
        self._connections: list[QMetaObject.Connection] = []

    # Search

    def filter_text(self) -> str:
        """The search as typed."""
        return self._text

    def filter_terms(self) -> tuple[str, ...]:
        """The folded words every shown card contains."""
        return self._terms

    @Slot(str)
    def set_filter_text(self, text: str) -> None:
        """Show only the cards containing every word of `text`; empty shows all.

        Text that folds to the same words (another case, an extra space) changes
        nothing and emits nothing.
        """
        self._text = text
        terms = search_terms(text)
        if terms == self._terms:
            return
        self.beginFilterChange()
        self._terms = terms
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        self._emit_counts()

    def filterAcceptsRow(self, source_row: int, source_parent: ModelIndex) -> bool:
        if not self._terms:
            return True
        text = self._search_text(source_row, source_parent)
        return all(term in text for term in self._terms)

    def _search_text(self, source_row: int, source_parent: ModelIndex) -> str:
        card = self._source_card(source_row, source_parent)
        if card is None:
            return ""
        cached = self._search_texts.get(id(card))
        if cached is not None and cached[0] is card:
            return cached[1]
        text = card_search_text(card)
        self._search_texts[id(card)] = (card, text)
        return text

    # Counts

    def shown_count(self) -> int:
        """Rows the search lets through."""
        return self.rowCount()

    def total_count(self) -> int:
        """Rows of the source, shown or not."""
        source: QAbstractItemModel | None = self.sourceModel()
        return source.rowCount() if source is not None else 0

    def _emit_counts(self) -> None:
        self.countsChanged.emit(self.shown_count(), self.total_count())

    # Cards

    def card(self, proxy_row: int) -> Card | None:
        """The card shown in row `proxy_row` of this model."""
        if not 0 <= proxy_row < self.rowCount():
            return None
        source_index = self.mapToSource(self.index(proxy_row, 0))
        return self._source_card(source_index.row(), source_index.parent())

    def _source_card(self, source_row: int, source_parent: ModelIndex) -> Card | None:
        source: QAbstractItemModel | None = self.sourceModel()
        if isinstance(source, CardTableModel):
            return source.card(source_row)
        if source is None:
            return None
        card = source.data(source.index(source_row, 0, source_parent), CARD_ROLE)
        return card if isinstance(card, Card) else None

    # Sorting

    def lessThan(self, source_left: ModelIndex, source_right: ModelIndex) -> bool:
        """Orders by kind of value, then value; empty values last in either order;
        equal values in the order the server sent them, whatever was sorted before."""
        left_rank, left = self._sort_key(source_left)
        right_rank, right = self._sort_key(source_right)
        # Qt sorts descending by asking lessThan(right, left).
        descending = self.sortOrder() == Qt.SortOrder.DescendingOrder
        if left_rank == EMPTY or right_rank == EMPTY:
            if left_rank == right_rank:
                return self._sent_first(source_left, source_right, descending)
            # An empty value is "greater" in ascending order and "less" in descending.
            return descending if left_rank == EMPTY else not descending
        if left_rank != right_rank:
            return left_rank < right_rank
        if left_rank in (TEXT, OTHER):
            compared = self._collator.compare(left, right)
            if compared:
                return compared < 0
        elif left != right:
            result: bool = left < right
            return result
        return self._sent_first(source_left, source_right, descending)

    @staticmethod
    def _sent_first(left: ModelIndex, right: ModelIndex, descending: bool) -> bool:
        """Of two equal values, the one sent first comes first in either order.

        Qt's sort is stable over the rows as they were shown, so without this equal
        values kept the order of the column sorted before; the local copy's sort
        keeps the space's order.
        """
        return left.row() > right.row() if descending else left.row() < right.row()

    def _sort_key(self, index: ModelIndex) -> SortKey:
        keys = self._column_sort_keys(index.column(), index.parent())
        row = index.row()
        if 0 <= row < len(keys):
            return keys[row]
        source: QAbstractItemModel | None = self.sourceModel()
        return sort_key(source.data(index, self.sortRole()) if source is not None else None)

    def _column_sort_keys(self, column: int, parent: ModelIndex) -> Sequence[SortKey]:
        """The column's sort keys, worked out once per column instead of per comparison."""
        source: QAbstractItemModel | None = self.sourceModel()
        if source is None or parent.isValid():
            return ()
        role = self.sortRole()
        keys = self._sort_keys.get((column, role))
        rows = source.rowCount()
        if keys is None or len(keys) != rows:
            keys = [sort_key(source.data(source.index(row, column), role)) for row in range(rows)]
            self._sort_keys[(column, role)] = keys
        return keys

    # Following the source

    def setSourceModel(self, source: QAbstractItemModel) -> None:
        """Follow `source`: forget what was cached about the previous one.

        The caches are dropped on the source's "about to change" signals, which are
        connected before the proxy's own handlers; so the proxy never re-sorts or
        re-filters with values of rows that are gone.
        """
        for connection in self._connections:
            QObject.disconnect(connection)
        self._connections = []
        self._forget()
        before: list[tuple[Any, Callable[..., None]]] = [
            (source.modelAboutToBeReset, self._forget),
            (source.rowsAboutToBeInserted, self._forget),
            (source.rowsAboutToBeRemoved, self._forget),
            (source.rowsAboutToBeMoved, self._forget),
            (source.columnsAboutToBeInserted, self._forget),
            (source.columnsAboutToBeRemoved, self._forget),
            (source.columnsAboutToBeMoved, self._forget),
            (source.layoutAboutToBeChanged, self._forget),
            (source.dataChanged, self._on_source_data_changed),
        ]
        self._connections.extend(signal.connect(slot) for signal, slot in before)
        super().setSourceModel(source)
        # After the proxy's handlers, so that the counts are those of the new rows.
        after: list[tuple[Any, Callable[..., None]]] = [
            (source.modelReset, self._emit_counts),
            (source.rowsInserted, self._emit_counts),
            (source.rowsRemoved, self._emit_counts),
        ]
        self._connections.extend(signal.connect(slot) for signal, slot in after)
        self._emit_counts()

    def _forget(self, *_args: object) -> None:
        self._search_texts.clear()
        self._sort_keys.clear()

    def _on_source_data_changed(
        self, _top_left: QModelIndex, _bottom_right: QModelIndex, roles: Sequence[int] = ()
    ) -> None:
        # Cards are immutable, so their search text stays; sort values may change.
        if not roles or self.sortRole() in roles:
            self._sort_keys.clear()
