"""The card table's column layout, remembered by column key rather than by position.

Qt's own `QHeaderView.saveState()` remembers sections by number. The card table's
columns are not fixed: "Include e-mails" adds one, and a field only some spaces have
adds others. So the order, width and visibility a person chose are kept per column
key, and applied to whichever of those columns the page on screen has; a column never
seen before keeps its natural place and a width that fits its content.

`TableColumns` applies that to the card table: it fits new columns to their content,
remembers what the person arranges (not the table's own fitting), and offers the
header's menu to show or hide columns. A width fitted while the filter hid every row
fits only the heading, so it is fitted again once rows are shown.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from PySide6.QtCore import QAbstractItemModel, QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QFontMetricsF
from PySide6.QtWidgets import QHeaderView, QMenu, QStyle, QTableView, QWidget

from cardviewer.services.card_columns import ID_KEY, Column
from cardviewer.services.local_file import DamagedFile, parse_json_object
from cardviewer.ui.cards.avatar_delegate import AvatarDelegate
from cardviewer.ui.cards.change_delegate import ChangeMarksOnSelection
from cardviewer.ui.plain_text import plain_action_text

log = logging.getLogger(__name__)

MAX_REMEMBERED_COLUMNS = 200
"""Keys of columns from other spaces are kept, but not without end."""
MAX_COLUMN_WIDTH = 280
"""A column fitted to its content is never wider than this."""
COLUMN_PADDING = 16
"""Room beside a column's widest text, so neighbouring headers never touch."""
FIT_ROWS = 100
"""Fitting a column to its content looks at this many rows from the top at most."""
AVATAR_COLUMN_KEY = "avatar"
FIT_REST_AFTER_MS = 200
"""Columns out of view are fitted this long after the first paint, before a scroll finds
them still narrow (and their widening moves the table's right end away)."""
HIDDEN_UNTIL_SHOWN = frozenset({ID_KEY})
"""Columns hidden until the person shows them from the header menu (then remembered)."""


class ColumnSource(Protocol):
    """A model whose columns are arranged: the page's, or the whole space's."""

    @property
    def columns(self) -> list[Column]: ...

    def column_of(self, key: str) -> int | None: ...


@dataclass(frozen=True)
class ColumnPlace:
    """Where one column was shown, how wide, and whether it was hidden."""

    position: int
    width: int
    hidden: bool = False


class ColumnLayout:
    """Column places by key; `capture()` reads a header, `apply()` arranges one."""

    def __init__(self, places: dict[str, ColumnPlace] | None = None) -> None:
        self.places: dict[str, ColumnPlace] = dict(places or {})

    # Saving as text

    def to_json(self) -> str:
        return json.dumps(
            {key: [p.position, p.width, p.hidden] for key, p in self.places.items()},
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> ColumnLayout:
        """The layout `to_json()` wrote; anything unreadable gives an empty layout."""
        if not text:
            return cls()
        try:
            document = parse_json_object(text.encode("utf-8", "surrogatepass"))
        except DamagedFile as damage:
            log.warning("ignoring a damaged column layout: %s", damage)
            return cls()
        places: dict[str, ColumnPlace] = {}
        for key, value in list(document.items())[:MAX_REMEMBERED_COLUMNS]:
            if (
                isinstance(value, list)
                and len(value) == 3
                and all(type(v) is int for v in value[:2])
                and isinstance(value[2], bool)
                and value[0] >= 0
                and value[1] > 0
            ):
                places[key] = ColumnPlace(value[0], value[1], value[2])
        return cls(places)

    # Reading and arranging a header

    def capture(self, header: QHeaderView, keys: Sequence[str], only: int | None = None) -> None:
        """Remember how `header`, whose logical sections are `keys`, is arranged now.

        With `only`, just that section is remembered (a width the person dragged).
        """
        for logical, key in enumerate(keys):
            if only is not None and logical != only:
                continue
            size = header.sectionSize(logical)
            if header.isSectionHidden(logical):
                # A hidden section reports 0; keep the width it had when shown.
                previous = self.places.get(key)
                size = previous.width if previous is not None else header.defaultSectionSize()
            self.places[key] = ColumnPlace(
                header.visualIndex(logical), max(size, 1), header.isSectionHidden(logical)
            )
        if len(self.places) > MAX_REMEMBERED_COLUMNS:
            current = set(keys)
            for key in [k for k in self.places if k not in current]:
                del self.places[key]
                if len(self.places) <= MAX_REMEMBERED_COLUMNS:
                    break

    def apply(self, header: QHeaderView, keys: Sequence[str]) -> set[int]:
        """Arrange `header` as remembered; returns the logical sections it knew nothing of.

        Known columns get their width and visibility, and are ordered among themselves
        as they were; unknown ones keep their natural place (the caller sizes them).
        """
        known = [
            (self.places[key].position, logical)
            for logical, key in enumerate(keys)
            if key in self.places
        ]
        # Visual slots the known columns occupy now, refilled in their remembered order.
        slots = sorted(header.visualIndex(logical) for _, logical in known)
        for slot, (_, logical) in zip(slots, sorted(known), strict=True):
            header.moveSection(header.visualIndex(logical), slot)
        for _, logical in known:
            place = self.places[keys[logical]]
            header.resizeSection(logical, place.width)
            header.setSectionHidden(logical, place.hidden)
        unknown = {logical for logical, key in enumerate(keys) if key not in self.places}
        for logical in unknown:
            header.setSectionHidden(logical, keys[logical] in HIDDEN_UNTIL_SHOWN)
        if keys and all(header.isSectionHidden(i) for i in range(len(keys))):
            # Never an empty table: the first column shown unasked comes back.
            usual = (i for i, key in enumerate(keys) if key not in HIDDEN_UNTIL_SHOWN)
            header.setSectionHidden(next(usual, 0), False)
        return unknown

    def clear(self) -> None:
        self.places.clear()


def _row_changes(rows: QAbstractItemModel) -> tuple[Any, ...]:
    """The signals of a model whose rows came, went or were replaced."""
    return (rows.rowsInserted, rows.modelReset, rows.layoutChanged)


def reset_header(header: QHeaderView) -> None:
    """Every section shown, in its natural order."""
    for logical in range(header.count()):
        header.setSectionHidden(logical, False)
        header.moveSection(header.visualIndex(logical), logical)


class TableColumns:
    """The card table's columns: fitted to their content, or as the person left them.

    The window forwards the header's signals (`remember_columns`,
    `remember_column_width`); what the person arranges is kept in `layout`. Rows are
    watched in the table's own model (the filter's), as that is what the fitting measures.
    """

    def __init__(
        self,
        table: QTableView,
        model: ColumnSource,
        layout: ColumnLayout,
        *,
        avatar_size: int,
    ) -> None:
        self.table = table
        self.model = model
        """Whose columns are arranged: the page's model, or the one `follow()` gave."""
        self._pages = model
        self._fit_rows = FIT_ROWS
        self.layout = layout
        self.open_menu: QMenu | None = None
        """The header menu, once opened (it deletes itself when closed)."""
        self.avatar_delegate = AvatarDelegate(table)
        self.change_marks = ChangeMarksOnSelection(table)
        self._avatar_size = avatar_size
        self._avatar_column: int | None = None
        self._keys: tuple[str, ...] = ()
        self._arranging = False  # the table's own changes are not the person's choice
        # Keys of columns the table fitted while it showed no rows, and the person has
        # not sized since: fitted again when rows are shown (`_fit_unfitted`).
        self._unfitted: set[str] = set()
        # The widest each column was fitted to on rows, so that switching between the
        # pages and the whole space's views never narrows a column the person read.
        self._widest_fitted: dict[str, int] = {}
        self._rows: QAbstractItemModel | None = None
        self._watch_rows()
        bar = table.horizontalScrollBar()
        bar.valueChanged.connect(self._fit_unfitted)
        # The range follows the table's width: columns that were beyond a table not
        # yet laid out (or narrower) are fitted once they are in view.
        bar.rangeChanged.connect(self._fit_unfitted)
        self._fit_rest = QTimer(table, singleShot=True, interval=FIT_REST_AFTER_MS)
        self._fit_rest.timeout.connect(self._fit_out_of_view)

    def _watch_rows(self) -> None:
        """Fit again when the rows the table shows change (its current model's)."""
        rows = self.table.model()
        if rows is self._rows:
            return
        if self._rows is not None:
            for signal in _row_changes(self._rows):
                signal.disconnect(self._fit_unfitted)
        self._rows = rows
        for signal in _row_changes(rows):
            signal.connect(self._fit_unfitted)

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys of the columns arranged last, by logical index."""
        return self._keys

    def follow(self, model: ColumnSource | None, *, fit_rows: int = FIT_ROWS) -> None:
        """Arrange the columns of `model` from now on (the whole space's); None: the page's.

        Call once the table shows it. The person's arrangement is kept by key, so a
        column hidden or moved on the pages is hidden or moved in the whole space too,
        and the header menu lists the columns shown. The table stays sorted by the same
        field, if `model` has it (the heading's arrow would otherwise point at a column
        the rows are not sorted by). Columns are fitted to their first `fit_rows` rows,
        never narrower than they were fitted before: a view of a few cards and back
        leaves the names that were read whole still whole.
        """
        header = self.table.horizontalHeader()
        section, order = header.sortIndicatorSection(), header.sortIndicatorOrder()
        before = self.model.columns
        key = before[section].key if 0 <= section < len(before) else None
        self.model = model if model is not None else self._pages
        self.change_marks.follow(model)
        self._fit_rows = fit_rows if model is not None else FIT_ROWS
        self._watch_rows()
        self._unfitted.clear()
        self.fit(force=True)
        column = self.model.column_of(key) if key is not None else None
        sorted_by = -1 if column is None else column
        blocked = header.blockSignals(True)  # sorted once, here
        header.setSortIndicator(sorted_by, order)
        header.blockSignals(blocked)
        self.table.model().sort(sorted_by, order)

    def fit(self, *, force: bool = False) -> None:
        """Arrange the columns when the set of columns changes, not on every page.

        Columns the person arranged before come back as they left them (`ColumnLayout`);
        the others are sized to their content, within reason.
        """
        keys = tuple(column.key for column in self.model.columns)
        if keys == self._keys and not force:
            self._fit_unfitted()
            return
        self._keys = keys
        if self._avatar_column is not None:
            self.table.setItemDelegateForColumn(self._avatar_column, None)  # type: ignore[arg-type]
        avatar = self._avatar_column = self.model.column_of(AVATAR_COLUMN_KEY)
        if avatar is not None:
            self.table.setItemDelegateForColumn(avatar, self.avatar_delegate)
        header = self.table.horizontalHeader()
        self._arranging = True
        try:
            unknown = self.layout.apply(header, keys)
            fitted: list[int] = []
            for index in range(len(keys)):
                if index == avatar:
                    header.setSectionResizeMode(index, QHeaderView.ResizeMode.Fixed)
                    header.resizeSection(index, self._avatar_size + 16)
                    continue
                header.setSectionResizeMode(index, QHeaderView.ResizeMode.Interactive)
                if index in unknown or keys[index] in self._unfitted:
                    fitted.append(index)
            self._fit_to_content(fitted)
        finally:
            self._arranging = False

    def _fit_to_content(self, columns: Sequence[int], *, out_of_view: bool = False) -> None:
        """Size `columns` to their content, and note those sized on no rows at all.

        A column fitted on no rows is as narrow as its heading; it is fitted again when
        rows are shown, or names stay cut on every later page with the same columns.
        Columns beyond the right edge of the table wait, unless `out_of_view`, until just
        after the first paint (`FIT_REST_AFTER_MS`) or a scroll there: a whole space's
        table then paints sooner (each column measures 30 rows' texts).
        """
        header = self.table.horizontalHeader()
        shows_rows = self.table.model().rowCount() > 0
        edge = self.table.viewport().width()
        for index in columns:
            key = self._keys[index]
            if shows_rows and not out_of_view and header.sectionViewportPosition(index) > edge > 0:
                self._unfitted.add(key)  # fitted soon, or once the table is scrolled to it
                self._fit_rest.start()
                continue
            width = min(self.content_width(index) + COLUMN_PADDING, MAX_COLUMN_WIDTH)
            if shows_rows:
                width = self._widest_fitted[key] = max(width, self._widest_fitted.get(key, 0))
            header.resizeSection(index, width)
            place = self.layout.places.get(key)
            if place is not None:
                # Captured along with a move or a hidden column: still the table's choice.
                self.layout.places[key] = replace(place, width=width)
            if shows_rows:
                self._unfitted.discard(key)
            else:
                self._unfitted.add(key)

    def _fit_unfitted(self, *_args: object, out_of_view: bool = False) -> None:
        """Fit again the columns fitted on no rows or out of view, now that they can be.

        A table scrolled to its right end stays there: the columns fitted as they came
        into view would otherwise push the end further right, scroll after scroll.
        """
        if self._arranging or not self._unfitted or self.table.model().rowCount() == 0:
            return
        keys = tuple(column.key for column in self.model.columns)
        header = self.table.horizontalHeader()
        if keys != self._keys or header.count() != len(keys):
            return  # a page with other columns: `fit()` arranges it
        bar = self.table.horizontalScrollBar()
        at_end = 0 < bar.maximum() == bar.value()
        self._arranging = True
        try:
            unfitted = [i for i, key in enumerate(keys) if key in self._unfitted]
            self._fit_to_content(unfitted, out_of_view=out_of_view)
        finally:
            self._arranging = False
        if at_end:
            self.table.updateGeometries()  # the new range now, not after the view's timer
            bar.setValue(bar.maximum())

    def _fit_out_of_view(self) -> None:
        self._fit_unfitted(out_of_view=True)

    def content_width(self, column: int) -> int:
        """The width `resizeColumnToContents()` gives a text column, found more cheaply.

        The view asks the delegate for each cell's size hint, which asks the model for
        about eight roles per cell, on the way to a new page's first paint; measuring the
        display texts gives the same widths and lets that page paint sooner.
        """
        table, header, rows = self.table, self.table.horizontalHeader(), self.table.model()
        metrics = QFontMetricsF(table.font())
        widest = 0.0
        display_texts = getattr(rows, "display_texts", None)  # the whole space's, quicker
        if display_texts is not None:
            texts = display_texts(column, self._fit_rows)
        else:
            texts = [
                rows.index(r, column).data() for r in range(min(rows.rowCount(), self._fit_rows))
            ]
        for text in texts:
            if text:
                widest = max(widest, *map(metrics.horizontalAdvance, str(text).split("\n")))
        # The style's item margins on both sides, and the grid line, as the view adds them.
        margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table)
        cells = math.ceil(widest) + 2 * (margin + 1) + (1 if table.showGrid() else 0)
        return max(cells, header.sectionSizeHint(column))

    def remember_columns(self) -> None:
        """Keep the person's column order and widths (not the table's own fitting)."""
        header = self.table.horizontalHeader()
        # During a model reset the header already has the new page's columns.
        if self._arranging or header.count() != len(self._keys):
            return
        self.layout.capture(header, self._keys)

    def remember_column_width(self, logical: int) -> None:
        """Keep a width the person chose, not the stretch of the last column."""
        header = self.table.horizontalHeader()
        if self._arranging or header.count() != len(self._keys):
            return
        last_shown = max(
            (i for i in range(header.count()) if not header.isSectionHidden(i)),
            key=header.visualIndex,
            default=None,
        )
        if logical == last_shown or header.isSectionHidden(logical):
            return
        self._unfitted.discard(self._keys[logical])
        self.layout.capture(header, self._keys, only=logical)

    def follow_header(self, parent: QWidget, *extra: QAction) -> None:
        """Remember the order and widths the person gives the columns; offer the header menu.

        The menu (`header_menu`, then `extra` actions) opens over `parent`.
        """
        header = self.table.horizontalHeader()
        header.sectionResized.connect(self.remember_column_width)
        header.sectionMoved.connect(self.remember_columns)
        header.customContextMenuRequested.connect(
            lambda position: self._popup_header_menu(parent, position, extra)
        )

    def _popup_header_menu(
        self, parent: QWidget, position: QPoint, extra: tuple[QAction, ...]
    ) -> None:
        menu = self.open_menu = self.header_menu(parent)
        menu.addSeparator()
        menu.addActions(list(extra))
        menu.popup(self.table.horizontalHeader().mapToGlobal(position))

    def header_menu(self, parent: QWidget) -> QMenu:
        """A menu of the columns, in their order, to show or hide each one.

        The last column shown cannot be hidden. The menu deletes itself once closed.
        """
        header = self.table.horizontalHeader()
        menu = QMenu(parent)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        shown = [i for i in range(header.count()) if not header.isSectionHidden(i)]
        titles = [column.title for column in self.model.columns]
        for logical in sorted(range(len(self._keys)), key=header.visualIndex):
            title = titles[logical] if logical < len(titles) else ""
            action = menu.addAction(plain_action_text(title))
            action.setCheckable(True)
            action.setChecked(not header.isSectionHidden(logical))
            action.setEnabled(shown != [logical])
            action.toggled.connect(
                lambda visible, logical=logical: self.set_visible(logical, visible)
            )
        return menu

    def set_visible(self, logical: int, visible: bool) -> None:
        """Show or hide a column, and remember that."""
        header = self.table.horizontalHeader()
        header.setSectionHidden(logical, not visible)
        if visible and header.sectionSize(logical) == 0:
            self.table.resizeColumnToContents(logical)
        self.remember_columns()

    def reset(self) -> None:
        """Forget the person's arrangement: every column shown, in order, fitted again."""
        self.layout.clear()
        self._unfitted.clear()
        self._widest_fitted.clear()
        self._arranging = True
        try:
            reset_header(self.table.horizontalHeader())
        finally:
            self._arranging = False
        self.fit(force=True)
