"""The Qt table model of one page of a space's cards, loaded in the background.

`request_page()` is a plain slot: it starts the load as a task and returns at once.
Only the most recent request may change what the table shows; the page on screen stays
until its successor has arrived, so a failed or slow load never empties the table.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from cardviewer.api.errors import CardViewerError
from cardviewer.api.models import Card, CardPage
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.tasks import TaskSet
from cardviewer.ui.cards.columns import Column, ValueKind, build_columns

log = logging.getLogger(__name__)

ModelIndex = QModelIndex | QPersistentModelIndex

CARD_ROLE = int(Qt.ItemDataRole.UserRole) + 1
SORT_ROLE = int(Qt.ItemDataRole.UserRole) + 2
AVATAR_KEY = "avatar"


@dataclass(frozen=True)
class PageRequest:
    """Which page of which space, and whether the cards' e-mail addresses come along."""

    space_id: str
    page: int
    with_emails: bool


PageSource = Callable[[PageRequest], Awaitable[CardPage]]
"""Fetches a page, e.g. `lambda r: client.list_cards(r.space_id, r.page, with_emails=…)`."""


def avatar_url(card: Card) -> str | None:
    """The card's own picture; the platform's default image is shown as our placeholder."""
    if card.avatar is None or card.avatar.is_default:
        return None
    return card.avatar.src


class CardTableModel(QAbstractTableModel):
    """Rows are the cards of the page on screen; columns come from `build_columns`."""

    CardRole = CARD_ROLE
    SortRole = SORT_ROLE

    loadingChanged = Signal(bool)
    pageLoaded = Signal(object)
    """The `CardPage` now shown."""
    loadFailed = Signal(object, object)
    """The `PageRequest` that failed and the `CardViewerError` saying why."""

    def __init__(self, avatars: AvatarLoader | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._avatars = avatars
        self._source: PageSource | None = None
        self._page: CardPage | None = None
        self._cards: tuple[Card, ...] = ()
        self._columns: list[Column] = build_columns((), with_emails=False)
        self._avatar_rows: dict[str, list[int]] = {}
        self._current: PageRequest | None = None
        self._pending: PageRequest | None = None
        self._last: PageRequest | None = None
        self._generation = 0
        self._loading = False
        self._closed = False
        self._tasks = TaskSet()
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
    def pending_request(self) -> PageRequest | None:
        """The request being loaded, if any."""
        return self._pending

    @property
    def is_loading(self) -> bool:
        return self._loading

    @property
    def columns(self) -> list[Column]:
        return list(self._columns)

    def column_of(self, key: str) -> int | None:
        """The index of the column showing the field `key`, if shown."""
        return next((n for n, column in enumerate(self._columns) if column.key == key), None)

    def card(self, row: int) -> Card | None:
        return self._cards[row] if 0 <= row < len(self._cards) else None

    # Loading

    def set_source(self, source: PageSource | None) -> None:
        """Fetch pages from `source` from now on; a load from the previous one is dropped."""
        self._source = source
        self._abandon_load()

    def request_page(self, space_id: str, page: int, with_emails: bool) -> None:
        """Load a page in the background; a load still running is cancelled and ignored."""
        request = PageRequest(space_id, page, with_emails)
        self._last = request
        if self._closed:
            log.debug("page %s not requested: the model is closed", request)
            return
        self._generation += 1
        self._pending = request
        self._tasks.start(self._load(request, self._generation), name="page")
        self._set_loading(True)

    def retry(self) -> None:
        """Request the most recent page again (after a failure, or to refresh)."""
        if self._last is not None:
            self.request_page(self._last.space_id, self._last.page, self._last.with_emails)

    def clear(self) -> None:
        """Show nothing and stop any load."""
        self._abandon_load()
        self._last = None
        self.beginResetModel()
        self._page = None
        self._current = None
        self._cards = ()
        self._columns = build_columns((), with_emails=False)
        self._avatar_rows = {}
        self.endResetModel()

    async def aclose(self) -> None:
        """Cancel the load under way and wait until it has ended."""
        self._closed = True
        self._generation += 1
        self._pending = None
        await self._tasks.aclose()
        self._set_loading(False)

    def _abandon_load(self) -> None:
        self._generation += 1
        self._tasks.cancel("page")
        self._pending = None
        self._set_loading(False)

    async def _load(self, request: PageRequest, generation: int) -> None:
        try:
            if self._source is None:
                raise CardViewerError(
                    QCoreApplication.translate("CardTableModel", "Please sign in first."),
                    detail="the card table has no page source",
                )
            page = await self._source(request)
        except asyncio.CancelledError:
            # A newer request (or closing) replaced this one. End quietly instead of
            # cancelled: a cancelled task keeps its CancelledError, whose traceback holds
            # this frame and so the model, in a reference cycle that only the garbage
            # collector frees, in whichever thread it runs; Qt objects must not be
            # destroyed outside the GUI thread.
            return
        except CardViewerError as exc:
            if generation == self._generation:
                log.info("page %d of space %s not loaded: %s", request.page, request.space_id, exc)
                self._fail(request, exc)
            return
        except Exception as exc:
            if generation == self._generation:
                log.exception("page %d of space %s not loaded", request.page, request.space_id)
                error = CardViewerError(
                    QCoreApplication.translate(
                        "CardTableModel",
                        "Something went wrong while loading the page. Please try again.",
                    ),
                    detail=f"{type(exc).__name__}: {exc}",
                )
                self._fail(request, error)
            return
        # No await from this check to the end of the reset: a newer request cannot slip in.
        if generation != self._generation:
            return
        self._show(request, page)

    def _show(self, request: PageRequest, page: CardPage) -> None:
        self.beginResetModel()
        self._page = page
        self._current = request
        self._cards = page.cards
        self._columns = build_columns(page.cards, with_emails=request.with_emails)
        self._avatar_rows = {}
        for row, card in enumerate(page.cards):
            url = avatar_url(card)
            if url is not None:
                self._avatar_rows.setdefault(url, []).append(row)
        self.endResetModel()
        self._pending = None
        if self._avatars is not None:
            for url in self._avatar_rows:
                self._avatars.request(url)
        self._set_loading(False)
        self.pageLoaded.emit(page)

    def _fail(self, request: PageRequest, error: CardViewerError) -> None:
        self._pending = None
        self._set_loading(False)
        self.loadFailed.emit(request, error)

    def _set_loading(self, loading: bool) -> None:
        if loading != self._loading:
            self._loading = loading
            self.loadingChanged.emit(loading)

    def _on_avatar_ready(self, url: str) -> None:
        """Repaint the avatar cells of the page on screen that show this picture."""
        column = self.column_of(AVATAR_KEY)
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
        if not index.isValid() or index.parent().isValid():
            return None
        row, col = index.row(), index.column()
        if not (0 <= row < len(self._cards) and 0 <= col < len(self._columns)):
            return None
        card, column = self._cards[row], self._columns[col]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.display(card)
        if role == Qt.ItemDataRole.ToolTipRole:
            return column.tooltip(card)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return column.alignment
        if role == Qt.ItemDataRole.DecorationRole and column.kind is ValueKind.AVATAR:
            return self._avatar(card)
        if role == CARD_ROLE:
            return card
        if role == SORT_ROLE:
            return column.sort_value(card)
        return None

    def _avatar(self, card: Card) -> Any:
        if self._avatars is None:
            return None
        url = avatar_url(card)
        pixmap = self._avatars.pixmap(url)
        if pixmap is not None:
            return pixmap
        # Evicted from the cache or cleared: ask again (a no-op while on its way or failed).
        self._avatars.request(url)
        return self._avatars.placeholder()

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return super().headerData(section, orientation, role)
        if not 0 <= section < len(self._columns):
            return None
        column = self._columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            # The avatar column is as narrow as a picture; its title lives in the tooltip.
            return "" if column.kind is ValueKind.AVATAR else column.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return column.title
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return column.alignment
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # Export

    def export_rows(self) -> tuple[list[str], list[list[str]]]:
        """Header and rows of the page as text; the avatar column exports its image URL."""
        header = [
            QCoreApplication.translate("CardTableModel", "Avatar URL")
            if column.kind is ValueKind.AVATAR
            else column.title
            for column in self._columns
        ]
        rows = [[column.export(card) for column in self._columns] for card in self._cards]
        return header, rows
