"""Pages from the server, or the whole space from its local copy: which one the table shows.

Once a space is synced, a switch over the table offers "Pages from the server" and
"Whole space (synced 25.11.26, 14:02)", and after a second sync the cards it added,
removed (as the sync before had them) or changed. The whole space is a `SpaceTableModel`
over the local copy: sorting and filtering cover every card, and it opens with no
network and while signed out. The page bar is the server's; it is hidden while the whole space
is shown. A copy that cannot be opened is explained in the error bar, and the pages stay.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Protocol

import shiboken6
from PySide6.QtCore import (
    QCoreApplication,
    QItemSelection,
    QItemSelectionModel,
    QLocale,
    QObject,
    QSize,
    Qt,
    QTime,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QFontMetrics, QPaintEvent
from PySide6.QtWidgets import (
    QComboBox,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
    QWidget,
)

from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.card_store import (
    CardStore,
    account_folder,
    holds_copies,
    remove_copies,
    store_path,
)
from cardviewer.services.store_copies import Change
from cardviewer.services.store_schema import Generation, StoreError, StoreProblem, refused_copy
from cardviewer.ui.card_area import CardStack, CurrentCardDetails
from cardviewer.ui.cards.card_filter_model import CardFilterModel
from cardviewer.ui.cards.card_table_view import CardTableView
from cardviewer.ui.cards.column_layout import TableColumns
from cardviewer.ui.cards.space_table_model import SpaceTableModel
from cardviewer.ui.cards.value_text import format_local_time
from cardviewer.ui.error_text import store_error_text
from cardviewer.ui.filter_row import FilterRow
from cardviewer.ui.page_messages import PageMessages, StateText
from cardviewer.ui.removal_question import confirm_removal
from cardviewer.ui.session_state import AccountLabel

log = logging.getLogger(__name__)

PAGES = 0
WHOLE_SPACE = 1
ADDED = 2
REMOVED = 3
CHANGED = 4
"""The switch's choices: the pages, the whole space, and what its last sync changed (in
the order a sync's note counts them: added, removed, changed)."""
_CHANGE_OF = {
    WHOLE_SPACE: None,
    ADDED: Change.ADDED,
    REMOVED: Change.REMOVED,
    CHANGED: Change.CHANGED,
}
_CHOICE_OF = {change: choice for choice, change in _CHANGE_OF.items()}
NOTE_MS = 5000
MINIMUM_SWITCH_LENGTH = 13
"""Characters the switch shows at the least; its texts are cut beyond that when narrow.
With 16, the German window, a large space's count beside the filter, was 811 pixels
wide at the least: more than a screen of 800."""
FITTED_ROWS = 30
"""The rows a column of the whole space is fitted to: about a screenful."""
KEPT_SELECTION = 500
"""Selected cards kept across a new order or filter, at most; of more, only the current."""
NEWER_COPY_CHECK_MS = 3000
"""How often the whole space shown looks for a newer copy another sync made current (a
query of a few microseconds): a nightly `cardviewer sync` shows in a window left open."""


def synced_label(generation: Generation | None) -> str:
    """ "Whole space (synced 14:02)", or with the date when it was not today."""
    text = QCoreApplication.translate("MainWindow", "Whole space (synced %1)")
    return text.replace("%1", synced_when(generation))


def synced_when(generation: Generation | None) -> str:
    """When the copy was synced: "14:02", with the date when it was not today."""
    if generation is None:
        return "…"
    when = generation.synced_at.astimezone()
    if when.date() == datetime.now().astimezone().date():
        short = QLocale.FormatType.ShortFormat
        return QLocale().toString(QTime(when.hour, when.minute), short)
    return format_local_time(generation.synced_at)


def fitted_choice(text: str, metrics: QFontMetrics, width: int) -> str:
    """`text` cut short with "…" to `width` pixels; its closing "(…)", the copy's sync
    time, stays whole while the words before it give way, to nothing if need be."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    words, opening, rest = text.rpartition(" (")
    if words and text.endswith(")"):
        kept = opening + rest
        short = metrics.elidedText(
            words, Qt.TextElideMode.ElideRight, width - metrics.horizontalAdvance(kept)
        )
        if short:
            return short + kept
        if metrics.horizontalAdvance(rest) <= width:
            return f"({rest}"
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)


def change_texts(change: Change) -> tuple[str, str, str]:
    """What a view of the last sync's changes says: where it is empty (a title and a
    sentence), and its count (`%1`) in the status bar."""
    if change is Change.ADDED:
        return (
            QCoreApplication.translate("MainWindow", "No cards added in the last sync"),
            QCoreApplication.translate("MainWindow", "The last sync brought no new cards."),
            QCoreApplication.translate("MainWindow", "Cards added by the last sync: %1."),
        )
    if change is Change.CHANGED:
        return (
            QCoreApplication.translate("MainWindow", "No cards changed in the last sync"),
            QCoreApplication.translate("MainWindow", "Every card is as it was at the sync before."),
            QCoreApplication.translate("MainWindow", "Cards changed by the last sync: %1."),
        )
    return (
        QCoreApplication.translate("MainWindow", "No cards removed in the last sync"),
        QCoreApplication.translate(
            "MainWindow", "Every card of the sync before is still in the space."
        ),
        QCoreApplication.translate(
            "MainWindow", "Cards removed by the last sync: %1, as the sync before had them."
        ),
    )


Chosen = tuple[int | None, list[int] | None]
"""The table's current card and selected cards, as places in a copy (`_chosen_places`)."""


class SourceSwitch(QComboBox):
    """Chooses the pages from the server, the whole synced space, or what its sync changed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # As wide as its texts where there is room; in a narrow window the text is cut
        # with "…", and said whole by the list and the tooltip (of the first one too).
        self.currentTextChanged.connect(self.setToolTip)
        self.addItem(QCoreApplication.translate("MainWindow", "Pages from the server"))
        self.setAccessibleName(QCoreApplication.translate("MainWindow", "Cards shown"))
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.setVisible(False)

    def minimumSizeHint(self) -> QSize:
        """Room for `MINIMUM_SWITCH_LENGTH` characters of the longest choice."""
        hint = self.sizeHint()
        metrics = self.fontMetrics()
        longest = max(
            (metrics.horizontalAdvance(self.itemText(index)) for index in range(self.count())),
            default=0,
        )
        least = metrics.horizontalAdvance("x") * MINIMUM_SWITCH_LENGTH
        return QSize(hint.width() - max(longest - least, 0), hint.height())

    def paintEvent(self, event: QPaintEvent) -> None:
        """The current choice, cut short with "…" where it does not fit."""
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, self
        )
        option.currentText = fitted_choice(option.currentText, self.fontMetrics(), field.width())
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)

    def offer(self, label: str | None, *, changes: bool = False) -> None:
        """Offer the whole space under `label` (None: no copy), and its `changes` if any."""
        while self.count() > 1:
            self.removeItem(self.count() - 1)
        if label is not None:
            self.addItem(label)
            if changes:
                self.addItem(QCoreApplication.translate("MainWindow", "Added by the last sync"))
                self.addItem(QCoreApplication.translate("MainWindow", "Removed by the last sync"))
                self.addItem(QCoreApplication.translate("MainWindow", "Changed by the last sync"))
        self.setVisible(self.count() > 1)


class SyncState(Protocol):
    """Whether the window's own sync (or export of all pages) is under way."""

    @property
    def fetching_whole_space(self) -> bool: ...


class WindowParts(Protocol):
    """The parts of the main window the whole space is shown in (its parent)."""

    table: CardTableView
    proxy: CardFilterModel
    filter_row: FilterRow
    details: CurrentCardDetails
    stack: CardStack
    account_label: AccountLabel
    export_action: QAction
    columns: TableColumns

    @property
    def jobs(self) -> SyncState: ...

    def window(self) -> QWidget: ...


class WholeSpaceView(QObject):
    """Puts the whole space's model into the table, or the page's back."""

    changed = Signal()
    """What is shown changed (the pages or the whole space, the cards of it shown), or
    the synced spaces kept did."""
    failed = Signal(str, str)
    """A copy could not be opened: the sentence for the person, the detail for the log."""
    shown = Signal()
    """The whole space is on screen from its copy: a failure said before is over."""
    statusMessage = Signal(str, int)
    """A passing note (text, milliseconds): which copy is shown."""
    notesOver = Signal()
    """Another view was chosen: the notes of the one left no longer hold."""
    pagesShown = Signal()
    """The table is back on the pages: the centre is to say what they hold."""

    def __init__(
        self,
        window: WindowParts,
        *,
        avatars: AvatarLoader | None = None,
        store: Path | None = None,
    ) -> None:
        super().__init__(window.window())
        self._window = window
        self._table, self._proxy = window.table, window.proxy
        self._filter_row, self._details = window.filter_row, window.details
        self._avatars = avatars
        self._store_folder = store
        self.confirm_sign_out: Callable[[], bool] = partial(
            confirm_removal, self._table, signing_out=True
        )
        """Asks whether to sign out, the account's synced spaces removed with the sign-in."""
        self.model: SpaceTableModel | None = None
        """The whole space on screen; None while the pages are."""
        self._offered: Path | None = None
        self._current: int | None = None
        """The current card's place in the copy, kept across a new order or filter."""
        self._selected: list[int] = []
        """The selected cards' places in the copy, kept likewise."""
        self._missing = False
        """Some of them were not among the rows of the answer so far."""
        self._restored: Chosen = (None, None)
        """The table's current and selected cards as `_restore_current` left them: while
        they are so, the cards still missing are looked for; once the person chooses
        others, those are."""
        self.switch = SourceSwitch(window.filter_row)
        window.filter_row.add_leading(self.switch)
        self.switch.activated.connect(self._on_switched)
        self._newer_copy = QTimer(self)  # while the whole space is shown
        self._newer_copy.setInterval(NEWER_COPY_CHECK_MS)
        self._newer_copy.timeout.connect(self.follow_newer_copy)

    @property
    def shows_whole_space(self) -> bool:
        return self.model is not None

    @property
    def offers_copy(self) -> bool:
        """A synced copy of the space is offered beside its pages (the switch)."""
        return self._offered is not None

    @property
    def has_cards(self) -> bool:
        """The whole space is shown, and its copy has cards (or the change shown has)."""
        return self.model is not None and self.model.total_count() > 0

    @property
    def shows_cards(self) -> bool:
        """The whole space is shown, and a filter leaves cards of it to export."""
        return self.has_cards and self.model is not None and self.model.shown_count() > 0

    def store_path(self, space_id: str) -> Path | None:
        """Where the copy of `space_id` is kept for the account signed in; None: nowhere."""
        if self._store_folder is None:
            return None
        email, server_url = self._window.account_label.account
        return store_path(self._store_folder, server_url, email, space_id)

    def offer(self, space_id: str | None, *, otherwise: str | None = None) -> None:
        """Offer the copy of `space_id` (if it holds a complete sync) beside the pages;
        where it has none, that of `otherwise`: the space of the page still on screen
        when `space_id` could not be opened (offline, its own copy is still there).
        None: no space is open, and no copy is offered.

        The copy shown stays offered whatever its file says meanwhile (removed, or held
        by another program): the table shows it, and the switch is the way back.
        """
        self._offer(None if space_id is None else self.store_path(space_id))
        if self._offered is None and otherwise not in (None, space_id):
            self._offer(self.store_path(otherwise))

    def _offer(self, path: Path | None) -> None:
        label, changes = None, False
        shown = self.model
        if shown is not None and path == shown.path:
            label, changes = synced_label(shown.generation), shown.has_changes
        elif path is not None and path.exists():
            try:
                with CardStore.open(path, create=False) as store:
                    label = synced_label(store.current) if store.current is not None else None
                    changes = store.previous is not None
            except StoreError as error:
                log.warning("the local copy %s cannot be offered: %s", path, error)
                if error.problem is StoreProblem.DAMAGED:  # set aside now: said once
                    self.failed.emit(store_error_text(error), str(error))
        self._offered = path if label is not None else None
        self.switch.offer(label, changes=changes)
        self._show_choice()

    def _show_choice(self) -> None:
        """The switch says what the table shows."""
        if self.model is None:
            self.switch.setCurrentIndex(PAGES)
        else:
            self.switch.setCurrentIndex(_CHOICE_OF[self.model.change])

    @property
    def shows_changes(self) -> bool:
        """The table shows the cards the last sync added, changed or removed."""
        return self.model is not None and self.model.change is not None

    def show_copy(self, path: Path, change: Change | None = None) -> bool:
        """Show the whole space from the copy at `path`, or only the cards its last sync
        made a `change` to; False (and `failed`) if it cannot."""
        try:
            model = SpaceTableModel(path, self._avatars, self, change=change)
        except StoreError as error:
            log.warning("the local copy %s cannot be opened: %s", path, error)
            self.failed.emit(store_error_text(error), str(error))
            return False
        previous, self.model = self.model, model
        self._current, self._selected = self._carried_over(previous, model)
        self._missing = False
        self._table.setModel(model)
        self._show_rows(model)
        model.modelAboutToBeReset.connect(self._remember_current)
        model.modelReset.connect(self._restore_current)
        model.rowsInserted.connect(self._restore_missing)
        self._filter_row.set_target(model)
        model.queryStarted.connect(self._filter_row.sorting_started)
        model.queryFinished.connect(self._filter_row.sorting_finished)
        model.countsChanged.connect(self._counted)  # a change's cards counted: any to export?
        model.queryFailed.connect(self._unreadable)
        self._details.follow_space(model)
        self._window.columns.follow(model, fit_rows=FITTED_ROWS)
        self._restore_current()  # cards carried over from the copy before, in its order
        if previous is not None:
            _let_go(previous)
        label = synced_label(model.generation)
        self._offered = path
        self._name_export(whole_space=True)
        self.switch.offer(label, changes=model.has_changes)
        self._show_choice()
        if change is None:
            note = QCoreApplication.translate(
                "MainWindow", "Showing the whole space from its local copy, synced %1."
            )
            self.statusMessage.emit(note.replace("%1", synced_when(model.generation)), NOTE_MS)
        else:
            model.queryFinished.connect(self._say_changed, Qt.ConnectionType.SingleShotConnection)
        self._newer_copy.start()
        self.changed.emit()
        self.shown.emit()
        return True

    @property
    def follows_newer_copies(self) -> bool:
        """It looks for a newer copy now and then (while the whole space is shown)."""
        return self._newer_copy.isActive()

    def follow_newer_copy(self) -> None:
        """Show the copy another sync made current (a scheduled `cardviewer sync`, another
        window's), with the cards chosen kept; the copy shown stays whole until then."""
        model = self.model
        if self._window.jobs.fetching_whole_space:
            return  # the window's own sync shows its copy when it is done, and says so
        try:
            superseded = model is not None and model.is_superseded()
        except (sqlite3.Error, StoreError) as error:
            log.debug("whether the local copy was synced again is not known: %s", error)
            return
        if model is None or not superseded:
            return
        log.info("the local copy %s was synced again elsewhere; showing the new copy", model.path)
        if not self.show_copy(model.path, model.change):
            self._newer_copy.stop()  # the copy shown stays; the failure was said once
            return
        if self.model is not None:
            note = QCoreApplication.translate("MainWindow", "Synced again meanwhile, at %1.")
            when = synced_when(self.model.generation)
            self.statusMessage.emit(note.replace("%1", when), NOTE_MS)

    def show_pages(self, *, offer_shown: bool = True) -> None:
        """Back to the pages from the server; the copy shown stays offered unless
        `offer_shown` is false (the caller offers another)."""
        model, self.model = self.model, None
        self._newer_copy.stop()
        if model is None:
            return
        self._table.setModel(self._proxy)
        self._window.columns.follow(None)
        self._name_export(whole_space=False)
        self._filter_row.set_target(self._proxy)
        self._details.follow_space(None)
        _let_go(model)
        if offer_shown:
            self._offer(model.path)  # as its file is now: it may be gone meanwhile
        self.pagesShown.emit()
        self.changed.emit()

    def has_copies(self, *, account: bool = False) -> bool:
        """Whether a synced space is kept on this computer (of the account signed in)."""
        folder = self._store_folder
        if folder is not None and account:
            email, server_url = self._window.account_label.account
            folder = account_folder(folder, server_url, email)
        return folder is not None and holds_copies(folder)

    def may_sign_out(self) -> bool:
        """Whether to sign out: the person agrees that the account's synced spaces go
        too (`confirm_sign_out`), or it has none."""
        return not self.has_copies(account=True) or self.confirm_sign_out()

    def remove_copies(self) -> None:
        """Take every synced space off this computer (Preferences); the pages stay."""
        self.show_pages()
        if self._store_folder is None:
            return
        removed = remove_copies(self._store_folder)
        log.info("%d local copies of spaces removed", removed)
        self._offered = None
        self.switch.offer(None)
        if holds_copies(self._store_folder):  # a file in use (Windows), or not ours to delete
            text = QCoreApplication.translate(
                "MainWindow",
                "Some synced spaces could not be removed from this computer; the log says "
                "which, and why.",
            )
        elif removed == 1:
            text = QCoreApplication.translate(
                "MainWindow", "Removed the synced space from this computer."
            )
        elif removed:
            text = QCoreApplication.translate(
                "MainWindow", "Removed %1 synced spaces from this computer."
            ).replace("%1", QLocale().toString(removed))  # two or more
        else:
            text = QCoreApplication.translate(
                "MainWindow", "No synced space was left on this computer to remove."
            )
        self.statusMessage.emit(text, NOTE_MS)
        self.changed.emit()  # Preferences: any left to remove?

    def _remember_current(self) -> None:
        """The current and selected cards, by place in the copy, before a new order or filter.

        Those looked for are kept while the table shows them as restored, lacking some:
        the first rows of an answer may not hold them, the whole answer will. Cards the
        person chose (or took out of the selection) meanwhile are theirs. A selection of
        more than `KEPT_SELECTION` cards (say, every card) is not kept; the current card is.
        """
        if self.model is None:
            return
        chosen = self._chosen_places(self.model)
        if self._missing and chosen == self._restored:
            return  # still looking for the cards chosen before
        current, selected = chosen
        self._current, self._selected = current, selected or []

    def _chosen_places(self, model: SpaceTableModel) -> Chosen:
        """The table's current card and selected cards, as places in `model`'s copy.

        None for either where the table has none; no selected cards for a selection too
        large to keep.
        """
        index = self._table.currentIndex()
        current = model.position(index.row()) if index.isValid() else None
        ranges = self._table.selectionModel().selection()
        if ranges.isEmpty():
            return current, None
        rows = [(part.top(), part.bottom()) for part in ranges.toList()]
        if sum(bottom - top + 1 for top, bottom in rows) > KEPT_SELECTION:
            return current, []
        places = (model.position(row) for top, bottom in rows for row in range(top, bottom + 1))
        return current, [place for place in places if place is not None]

    def _carried_over(
        self, previous: SpaceTableModel | None, model: SpaceTableModel
    ) -> tuple[int | None, list[int]]:
        """The cards chosen in `previous`, found by id in `model`, a new sync of its copy.

        A sync renumbers the cards; a person who synced while looking at a card should
        not lose it. Cards the sync removed are left out.
        """
        if previous is None or previous.path != model.path:
            return None, []
        current, selected = self._chosen_places(previous)
        chosen = [place for place in [current, *(selected or [])] if place is not None]
        try:
            ids = previous.ids_at(chosen)
            places = model.positions_of(set(ids.values()))
        except (sqlite3.Error, StoreError, ValueError) as error:  # not worth a message
            log.warning("the chosen cards were not found in the new copy: %s", error)
            return None, []
        carried = {old: places[ids[old]] for old in chosen if ids.get(old) in places}
        kept = [carried[place] for place in selected or [] if place in carried]
        return carried.get(current) if current is not None else None, kept

    def _restore_current(self) -> None:
        """The same cards current and selected again, where the new order put them.

        Cards the filter now hides are left out; the rest are selected in runs of rows.
        """
        model = self.model
        if model is None:
            return
        wanted = set(self._selected)
        if self._current is not None:
            wanted.add(self._current)
        rows = model.rows_of(wanted)
        self._missing = len(rows) < len(wanted)  # the rest of the answer may hold them
        row = rows.get(self._current) if self._current is not None else None
        column = self._shown_column()
        if row is not None:
            self._table.setCurrentIndex(model.index(row, column))
            self._table.scrollTo(model.index(row, column))
        selected = sorted(rows[place] for place in self._selected if place in rows)
        if selected:
            self._select_rows(model, selected)
        self._restored = self._chosen_places(model)

    def _select_rows(self, model: SpaceTableModel, selected: list[int]) -> None:
        """Select these rows (in order), in runs of rows."""
        selection = QItemSelection()
        last_column = model.columnCount() - 1
        start = previous = selected[0]
        for row in [*selected[1:], None]:
            if row is not None and row == previous + 1:
                previous = row
                continue
            selection.select(model.index(start, 0), model.index(previous, last_column))
            if row is not None:
                start = previous = row
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect
        self._table.selectionModel().select(selection, flags)

    def _restore_missing(self) -> None:
        """The rest of an answer came: look again for the cards its first rows lacked,
        unless the person chose other cards among the first rows meanwhile."""
        if not self._missing or self.model is None:
            return
        if self._chosen_places(self.model) != self._restored:
            self._missing = False
            return
        self._restore_current()

    def _shown_column(self) -> int:
        """The current cell's column, else the first column shown (the id is hidden).

        Qt neither scrolls to nor paints a cell of a hidden column.
        """
        header = self._table.horizontalHeader()
        column = self._table.currentIndex().column()
        if column >= 0 and not header.isSectionHidden(column):
            return column
        shown = (header.logicalIndex(place) for place in range(header.count()))
        return next((logical for logical in shown if not header.isSectionHidden(logical)), 0)

    def _name_export(self, *, whole_space: bool) -> None:
        """Export Page saves the cards shown while the whole space is shown: say so."""
        action = self._window.export_action
        if whole_space:
            action.setText(QCoreApplication.translate("MainWindow", "&Export Cards Shown…"))
            tip = QCoreApplication.translate(
                "MainWindow",
                "Save the cards shown, in their order, as a CSV or Excel file (Ctrl+E)",
            )
        else:
            action.setText(QCoreApplication.translate("MainWindow", "&Export Page…"))
            tip = QCoreApplication.translate(
                "MainWindow", "Save the cards of this page as a CSV or Excel file (Ctrl+E)"
            )
        action.setToolTip(tip)

    def close(self) -> None:
        """Close the copy shown, if any (its worker thread and its file)."""
        if shiboken6.isValid(self._newer_copy):  # gone with a window already destroyed
            self._newer_copy.stop()
        if self.model is not None:
            self.model.close()

    def _on_switched(self, index: int) -> None:
        self.notesOver.emit()
        if index == PAGES:
            self.show_pages()
            return
        change, model = _CHANGE_OF[index], self.model
        if model is None or (change is Change.REMOVED) != (model.change is Change.REMOVED):
            # Removed cards are read from the copy before, the rest from the current one.
            path = model.path if model is not None else self._offered
            if path is None or not self.show_copy(path, change):
                if model is None and path is not None and refused_copy(path) is not None:
                    self._offer(None)  # set aside, or too new: offered no more
                self._show_choice()  # what is still shown
            return
        if change == model.change:
            return  # chosen again: what it shows stays, or the page saying it is empty
        model.set_change(change)
        self._show_rows(model)
        self._show_choice()
        if change is not None:
            model.queryFinished.connect(self._say_changed, Qt.ConnectionType.SingleShotConnection)
        self.changed.emit()

    def _show_rows(self, model: SpaceTableModel) -> None:
        """The table, or the page saying that the space has no cards (of a change, the
        page saying so comes with its count, `_say_changed`)."""
        if model.change is None and model.total_count() == 0:
            self._window.stack.show_empty(PageMessages.empty_space())
        else:
            self._window.stack.show_table()

    def _say_changed(self) -> None:
        """How many cards the last sync changed so; the page saying so where it is none."""
        if self.model is None or self.model.change is None:
            return
        count = self.model.total_count()  # filtered or not: a filter's count is beside it
        title, text, note = change_texts(self.model.change)
        if count == 0:
            self._window.stack.show_empty(StateText(title, text))  # says it in the middle
        else:
            self._window.stack.show_table()
            self.statusMessage.emit(note.replace("%1", QLocale().toString(count)), NOTE_MS)

    def _unreadable(self, detail: str) -> None:
        """The copy shown could not be read to sort, filter or show its rows."""
        text = QCoreApplication.translate(
            "MainWindow",
            "The local copy could not be read, so the cards shown may be incomplete or "
            "not in the order asked for. Sync Space makes a new copy.",
        )
        self.failed.emit(text, detail)

    def _counted(self, _shown: int, _total: int) -> None:
        self.changed.emit()


def _let_go(model: SpaceTableModel) -> None:
    """Close a model no longer shown. An answer its worker sent before may still wait in
    the queue: from now on it says nothing, of a view it no longer is."""
    model.blockSignals(True)
    model.close()
    model.deleteLater()
