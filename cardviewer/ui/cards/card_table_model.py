"""The Qt table model of one page of a space's cards, loaded in the background.

`request_page()` is a plain slot: it starts the load as a task and returns at once.
Only the most recent request may change what the table shows; the page on screen stays
until its successor has arrived, so a failed or slow load never empties the table.

With `prefetch`, the pages before and after the one shown are fetched quietly in the
background and kept in a small `PageCache`, so paging on paints at once. The cache is
dropped on `retry()` (refresh really asks the server again), on a new source (another
sign-in) and when another space is opened.

A view asks `data()` for every visible cell in seven or so roles on each repaint. The
text of a cell (what it shows, its tooltip, its sort value) is made once per page, on
first request, and then looked up; pictures are looked up live, since they arrive later.
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
from cardviewer.api.models import Card, CardPage, PageLinks, PageMeta
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.card_columns import Column, ValueKind, build_columns
from cardviewer.services.page_cache import PageCache, PageKey
from cardviewer.tasks import TaskSet
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
_TEXT_ROLES = frozenset((_DISPLAY, _TOOLTIP, SORT_ROLE))
_HORIZONTAL = Qt.Orientation.Horizontal
_CELL_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_NOT_YET = object()
"""A cell whose text has not been made yet (None is a tooltip's proper value)."""


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

    def __init__(
        self,
        avatars: AvatarLoader | None = None,
        parent: QObject | None = None,
        *,
        prefetch: bool = False,
    ) -> None:
        super().__init__(parent)
        self._avatars = avatars
        self._prefetch = prefetch
        self._cache = PageCache()
        self._prefetching: dict[PageKey, asyncio.Task[CardPage | None]] = {}
        self._scope = ""
        self._space: str | None = None
        self._source: PageSource | None = None
        self._page: CardPage | None = None
        self._cards: tuple[Card, ...] = ()
        self._columns: list[Column] = build_columns((), with_emails=False, titles=column_titles())
        self._alignments: list[Qt.AlignmentFlag] = []
        self._avatar_column: int | None = None
        self._texts: dict[int, list[list[Any]]] = {}
        self._avatar_rows: dict[str, list[int]] = {}
        self._current: PageRequest | None = None
        self._pending: PageRequest | None = None
        self._last: PageRequest | None = None
        self._whole_space = False
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
    def shows_whole_space(self) -> bool:
        """True while every card of the space is shown as one page (`show_whole_space()`)."""
        return self._whole_space

    @property
    def is_prefetching(self) -> bool:
        """Neighbouring pages are being fetched in the background."""
        return bool(self._prefetching)

    @property
    def columns(self) -> list[Column]:
        return list(self._columns)

    def column_of(self, key: str) -> int | None:
        """The index of the column showing the field `key`, if shown."""
        return next((n for n, column in enumerate(self._columns) if column.key == key), None)

    def card(self, row: int) -> Card | None:
        return self._cards[row] if 0 <= row < len(self._cards) else None

    # Loading

    def set_source(self, source: PageSource | None, scope: str = "") -> None:
        """Fetch pages from `source` from now on; a load from the previous one is dropped.

        `scope` names where the pages come from (the server), for the page cache.
        """
        self._source = source
        self._scope = scope
        self._drop_cache()
        self._abandon_load()

    def request_page(self, space_id: str, page: int, with_emails: bool) -> None:
        """Show a page: at once if it was fetched already, else once it has arrived.

        A load still running is cancelled and its result ignored.
        """
        request = PageRequest(space_id, page, with_emails)
        self._last = request
        self._whole_space = False
        if self._closed:
            log.debug("page %s not requested: the model is closed", request)
            return
        if space_id != self._space:
            self._drop_cache()
            self._space = space_id
        self._generation += 1
        cached = self._cache.get(self._key(request))
        if cached is not None:
            self._tasks.cancel("page")
            self._pending = None
            self._show(request, cached)
            return
        self._pending = request
        self._tasks.start(self._load(request, self._generation), name="page")
        self._set_loading(True)

    def show_whole_space(self, space_id: str, with_emails: bool, pages: list[CardPage]) -> None:
        """Show the cards of every page of the space at once, as one page.

        Filtering and sorting then cover the whole space. The one page is page 1 of 1;
        it is not cached, and Refresh or any other page returns to paging.
        """
        cards = tuple(card for page in pages for card in page.cards)
        count = len(cards)
        meta = PageMeta(
            current_page=1,
            last_page=1,
            per_page=max(count, 1),
            total=count,
            from_=1 if count else None,
            to=count or None,
        )
        whole = CardPage(
            cards=cards, meta=meta, links=PageLinks(), skipped=sum(p.skipped for p in pages)
        )
        if space_id != self._space:
            self._drop_cache()
            self._space = space_id
        self._abandon_load()
        request = PageRequest(space_id, 1, with_emails)
        self._last = request
        self._whole_space = True
        self._show(request, whole)

    def retry(self) -> None:
        """Request the most recent page again from the server (after a failure, or F5)."""
        self._drop_cache()
        if self._last is not None:
            self.request_page(self._last.space_id, self._last.page, self._last.with_emails)

    def clear(self) -> None:
        """Show nothing and stop any load."""
        self._drop_cache()
        self._abandon_load()
        self._last = None
        self._whole_space = False
        self.beginResetModel()
        self._page = None
        self._current = None
        self._cards = ()
        self._set_columns(build_columns((), with_emails=False, titles=column_titles()))
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
            page = await self._fetch(request)
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
        self._set_columns(
            build_columns(page.cards, with_emails=request.with_emails, titles=column_titles())
        )
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
        if self._prefetch:
            self._prefetch_neighbours(request, page)

    def _set_columns(self, columns: list[Column]) -> None:
        """New columns (with a new page): the cells' texts are made again when asked for."""
        self._columns = columns
        self._alignments = [alignment(column) for column in columns]
        self._avatar_column = next(
            (n for n, column in enumerate(columns) if column.kind is ValueKind.AVATAR), None
        )
        self._texts = {}

    def refresh_texts(self) -> None:
        """Make every cell's text again, e.g. after the locale or the translations changed.

        The app sets both before it shows a window (a new language takes effect after
        a restart), so only a caller that changes them while a page is shown needs this.
        """
        self._texts = {}
        if self._cards and self._columns:
            self.dataChanged.emit(
                self.index(0, 0),
                self.index(len(self._cards) - 1, len(self._columns) - 1),
                [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, SORT_ROLE],
            )

    # The page cache

    def _key(self, request: PageRequest) -> PageKey:
        return PageKey(self._scope, request.space_id, request.page, request.with_emails)

    def _drop_cache(self) -> None:
        self._cache.clear()
        for task in self._prefetching.values():
            task.cancel()
        self._prefetching.clear()

    async def _fetch(self, request: PageRequest) -> CardPage:
        """The page from the server, sharing a prefetch of it that is under way."""
        assert self._source is not None
        key = self._key(request)
        prefetching = self._prefetching.get(key)
        page = await asyncio.shield(prefetching) if prefetching is not None else None
        if page is None:
            page = await self._source(request)
        if self._prefetch:
            self._cache.put(key, page)
        return page

    def _prefetch_neighbours(self, request: PageRequest, page: CardPage) -> None:
        if self._source is None or self._closed:
            return
        for number in (request.page + 1, request.page - 1):
            if not 1 <= number <= page.meta.last_page:
                continue
            neighbour = PageRequest(request.space_id, number, request.with_emails)
            key = self._key(neighbour)
            if key not in self._cache and key not in self._prefetching:
                self._prefetching[key] = self._tasks.start(self._prefetch_page(neighbour, key))

    async def _prefetch_page(self, request: PageRequest, key: PageKey) -> CardPage | None:
        """Fetch a neighbouring page into the cache; a failure here is nobody's concern yet."""
        source = self._source
        try:
            if source is None:
                return None
            page = await source(request)
        except asyncio.CancelledError:
            return None  # quietly, as `_load` explains
        except Exception as exc:
            log.debug("page %d of %s not prefetched: %s", request.page, request.space_id, exc)
            return None
        finally:
            if self._prefetching.get(key) is asyncio.current_task():
                del self._prefetching[key]
        if source is self._source and request.space_id == self._space:
            self._cache.put(key, page)
        return page

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
            return self._avatar(self._cards[row]) if col == self._avatar_column else None
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
            column, card = self._columns[col], self._cards[row]
            if role == _DISPLAY:
                text = display_text(column, card)
            elif role == _TOOLTIP:
                tooltip = tooltip_text(column, card)
                text = None if tooltip is None else plain_tooltip(tooltip)
            else:
                text = column.sort_value(card)
            texts[row][col] = text
        return text

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
        if orientation != _HORIZONTAL:
            return super().headerData(section, orientation, role)
        if not 0 <= section < len(self._columns):
            return None
        if role == _DISPLAY:
            # The avatar column is as narrow as a picture; its title lives in the tooltip.
            return "" if section == self._avatar_column else self._columns[section].title
        if role == _TOOLTIP:
            column = self._columns[section]
            # A field the app does not know is titled from its key, which the server chose.
            return plain_tooltip(column.title) if column.extra else column.title
        if role == _ALIGNMENT:
            return self._alignments[section]
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return _CELL_FLAGS

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
