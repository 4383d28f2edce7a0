"""The Qt table model of the page of cards on screen.

A plain table over what it is given (`show_page()`); which page that is, and when, is
decided by `CardPages` and its `PageLoader`. The model asks the avatar loader for the
pictures of the page it shows and repaints their cells as they arrive.

A view asks `data()` for every visible cell in seven or so roles on each repaint. The
text of a cell (what it shows, its tooltip, its sort value) is made once per page, on
first request, and then looked up; pictures are looked up live, since they arrive later.

A screen reader reads a cell by its text; where a cell shows none (a picture, a value
not set) `Qt.AccessibleTextRole` says what it holds instead.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

from cardviewer.api.models import Card, CardPage
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.card_columns import Column, ValueKind, build_columns
from cardviewer.services.page_loader import PageRequest
from cardviewer.ui.cards.columns import alignment, column_titles, display_text, tooltip_text
from cardviewer.ui.plain_text import plain_tooltip

log = logging.getLogger(__name__)

ModelIndex = QModelIndex | QPersistentModelIndex

CARD_ROLE = int(Qt.ItemDataRole.UserRole) + 1
SORT_ROLE = int(Qt.ItemDataRole.UserRole) + 2

# Roles as plain integers: comparing with the enum members costs more than the lookups.
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
_DECORATION = int(Qt.ItemDataRole.DecorationRole)
_ACCESSIBLE_TEXT = int(Qt.ItemDataRole.AccessibleTextRole)
_TEXT_ROLES = frozenset((_DISPLAY, _TOOLTIP, SORT_ROLE, _ACCESSIBLE_TEXT))
_HORIZONTAL = Qt.Orientation.Horizontal
_CELL_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_NOT_YET = object()
"""A cell whose text has not been made yet (None is a tooltip's proper value)."""


def avatar_url(card: Card) -> str | None:
    """The card's own picture; the platform's default image is shown as our placeholder."""
    if card.avatar is None or card.avatar.is_default:
        return None
    return card.avatar.src


def picture_text(card: Card) -> str:
    """What a screen reader says for the card's picture: whose it is, or that it has none."""
    name = card.display_name if "display_name" not in card.invalid_fields else None
    if avatar_url(card) is None:
        if name:
            text = QCoreApplication.translate("CardColumns", "%1 has no picture")
            return text.replace("%1", name)
        return QCoreApplication.translate("CardColumns", "No picture")
    if name:
        return QCoreApplication.translate("CardColumns", "Picture of %1").replace("%1", name)
    return QCoreApplication.translate("CardColumns", "Picture")


def not_set_text() -> str:
    """What a screen reader says for a cell or field without a value."""
    return QCoreApplication.translate("CardColumns", "Not set", "a field without a value")


def accessible_text(column: Column, card: Card) -> str | None:
    """What a screen reader says for a cell that shows no text; None: the text it shows."""
    if column.kind is ValueKind.AVATAR:
        return picture_text(card)
    if not display_text(column, card):
        return not_set_text()
    return None


def avatar_cell(avatars: AvatarLoader | None, card: Card) -> Any:
    """The picture an avatar cell shows: the card's, or the placeholder while it comes."""
    if avatars is None:
        return None
    url = avatar_url(card)
    pixmap = avatars.pixmap(url)
    if pixmap is not None:
        return pixmap
    # Evicted from the cache or cleared: ask again (a no-op while on its way or failed).
    avatars.request(url)
    return avatars.placeholder()


def role_text(role: int, column: Column, card: Card) -> Any:
    """A cell's value in a text role: what it shows, its tooltip, its sort value, or what
    a screen reader says for it."""
    if role == _DISPLAY:
        return display_text(column, card)
    if role == _TOOLTIP:
        tooltip = tooltip_text(column, card)
        return None if tooltip is None else plain_tooltip(tooltip)
    if role == _ACCESSIBLE_TEXT:
        return accessible_text(column, card)
    return column.sort_value(card)


def heading_data(columns: list[Column], section: int, role: int) -> Any:
    """A column heading's value in `role`."""
    if not 0 <= section < len(columns):
        return None
    column = columns[section]
    if role == _DISPLAY:
        # The avatar column is as narrow as a picture; its title lives in the tooltip.
        return "" if column.kind is ValueKind.AVATAR else column.title
    if role == _TOOLTIP:
        # A field the app does not know is titled from its key, which the server chose.
        return plain_tooltip(column.title) if column.extra else column.title
    if role == _ALIGNMENT:
        return alignment(column)
    if role == _ACCESSIBLE_TEXT and column.kind is ValueKind.AVATAR:
        return column.title  # read aloud, as the tooltip shows it
    return None


class CardTableModel(QAbstractTableModel):
    """Rows are the cards of the page on screen; columns come from `build_columns`."""

    CardRole = CARD_ROLE
    SortRole = SORT_ROLE

    def __init__(
        self,
        avatars: AvatarLoader | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._avatars = avatars
        self._page: CardPage | None = None
        self._cards: tuple[Card, ...] = ()
        self._columns: list[Column] = []
        self._alignments: list[Qt.AlignmentFlag] = []
        self._avatar_column: int | None = None
        self._texts: dict[int, list[list[Any]]] = {}
        self._set_columns(build_columns((), with_emails=False, titles=column_titles()))
        self._avatar_rows: dict[str, list[int]] = {}
        self._current: PageRequest | None = None
        if avatars is not None:
            avatars.avatarReady.connect(self._on_avatar_ready)

    # State

    @property
    def page(self) -> CardPage | None:
        """The page on screen."""
        return self._page

    @property
    def current_request(self) -> PageRequest | None:
        """The request whose page is on screen."""
        return self._current

    @property
    def columns(self) -> list[Column]:
        return list(self._columns)

    def column_of(self, key: str) -> int | None:
        """The index of the column showing the field `key`, if shown."""
        return next((n for n, column in enumerate(self._columns) if column.key == key), None)

    def card(self, row: int) -> Card | None:
        return self._cards[row] if 0 <= row < len(self._cards) else None

    # What is shown

    def show_page(self, request: PageRequest, page: CardPage) -> None:
        """Show `page`, the answer to `request`, instead of the page shown so far."""
        self.beginResetModel()
        self._page = page
        self._current = request
        self._cards = page.cards
        self._set_columns(
            build_columns(page.cards, with_emails=request.with_emails, titles=column_titles())
        )
        self._avatar_rows = {}
        for row, card in enumerate(page.cards):
            url = avatar_url(card)
            if url is not None:
                self._avatar_rows.setdefault(url, []).append(row)
        self.endResetModel()
        if self._avatars is not None:
            for url in self._avatar_rows:
                self._avatars.request(url)

    def clear(self) -> None:
        """Show nothing."""
        self.beginResetModel()
        self._page = None
        self._current = None
        self._cards = ()
        self._set_columns(build_columns((), with_emails=False, titles=column_titles()))
        self._avatar_rows = {}
        self.endResetModel()

    def _set_columns(self, columns: list[Column]) -> None:
        """New columns (with a new page): the cells' texts are made again when asked for."""
        self._columns = columns
        self._alignments = [alignment(column) for column in columns]
        self._avatar_column = next(
            (n for n, column in enumerate(columns) if column.kind is ValueKind.AVATAR), None
        )
        self._texts = {}

    def _on_avatar_ready(self, url: str) -> None:
        """Repaint the avatar cells of the page on screen that show this picture."""
        column = self._avatar_column
        if column is None:
            return
        for row in self._avatar_rows.get(url, ()):
            cell = self.index(row, column)
            self.dataChanged.emit(cell, cell, [Qt.ItemDataRole.DecorationRole])

    # Qt model interface

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._cards)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # A table's valid index has no parent: no need to ask for it on every call.
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        if not (0 <= row < len(self._cards) and 0 <= col < len(self._columns)):
            return None
        if role in _TEXT_ROLES:
            return self._text(role, row, col)
        if role == _ALIGNMENT:
            return self._alignments[col]
        if role == _DECORATION:
            return (
                avatar_cell(self._avatars, self._cards[row]) if col == self._avatar_column else None
            )
        if role == CARD_ROLE:
            return self._cards[row]
        return None

    def _text(self, role: int, row: int, col: int) -> Any:
        """A cell's text in `role`, made on first request and kept while the page is shown."""
        texts = self._texts.get(role)
        if texts is None:
            texts = self._texts[role] = [[_NOT_YET] * len(self._columns) for _ in self._cards]
        text = texts[row][col]
        if text is _NOT_YET:
            text = texts[row][col] = role_text(role, self._columns[col], self._cards[row])
        return text

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != _HORIZONTAL:
            return super().headerData(section, orientation, role)
        return heading_data(self._columns, section, role)

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return _CELL_FLAGS
