"""The main window: pick a space, page through its cards, export the page shown.

The window owns no network code. It asks `CardPages` for pages and shows
what comes back: the table, an empty state, or a message in the error bar while the
last good page stays on screen. Signing out and closing are signals; the app decides
what follows.

When the server ends the session (401, or a saved session past its expiry) the window
stays and keeps its page: it turns "signed out", asks for a sign-in with
`signInRequested`, and `signed_in_again()` repeats the request that failed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from pathlib import Path

import shiboken6
from PySide6.QtCore import Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QMainWindow, QMenu, QVBoxLayout, QWidget

from cardviewer import APP_NAME
from cardviewer.api import (
    CardPage,
    CardViewerError,
    NotAuthenticated,
)
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.page_loader import PageRequest, PageSource
from cardviewer.services.settings import Settings, decode_view_state
from cardviewer.ui.busy_indicator import BusyIndicator
from cardviewer.ui.card_area import CardArea, CardStack, CurrentCardDetails
from cardviewer.ui.cards.card_details import CardDetailsPane
from cardviewer.ui.cards.card_filter_model import CardFilterModel
from cardviewer.ui.cards.card_pages import CardPages
from cardviewer.ui.cards.card_table_view import CardTableView
from cardviewer.ui.cards.column_layout import ColumnLayout, TableColumns
from cardviewer.ui.cards.space_table_model import SpaceTableModel
from cardviewer.ui.command_keys import CommandKeys
from cardviewer.ui.copy_in_view import CopyInView
from cardviewer.ui.eliding_status_bar import ElidingStatusBar
from cardviewer.ui.error_bar import ErrorBar
from cardviewer.ui.export_all_dialog import ExportAllDialog
from cardviewer.ui.export_commands import AskPath, ExportCommands
from cardviewer.ui.export_path import ask_export_path
from cardviewer.ui.filter_row import FilterRow
from cardviewer.ui.help_and_settings import HelpAndSettings
from cardviewer.ui.job_reports import JobPlurals, JobReports
from cardviewer.ui.loading_state import LoadingState
from cardviewer.ui.overview_window import OverviewCommand
from cardviewer.ui.page_bar import PageBar
from cardviewer.ui.page_messages import PageMessages, Plurals
from cardviewer.ui.preferences_dialog import PreferencesDialog
from cardviewer.ui.session_state import AccountLabel, session_ended_message
from cardviewer.ui.settings_saving import save_settings
from cardviewer.ui.space_toolbar import SpaceToolbar
from cardviewer.ui.view_switches import ViewSwitches
from cardviewer.ui.whole_space_jobs import WholeSpaceJobs, photo_source_like
from cardviewer.ui.whole_space_view import WholeSpaceView
from cardviewer.ui.window_announcements import WindowAnnouncements, announcing_progress
from cardviewer.ui.window_commands import (
    CommandActions,
    Need,
    ToolbarPlace,
    WindowCommands,
    WindowState,
    command_table,
    needs_met,
)
from cardviewer.ui.window_layout import WindowLayout

log = logging.getLogger(__name__)


class MainWindow(QMainWindow, CommandActions):
    """Browses the cards of one space at a time, a page at a time.

    Its commands' actions (`CommandActions`) are built from the rows of `command_table()`.
    """

    signOutRequested = Signal()
    signInRequested = Signal()
    """The session has ended and a sign-in is needed (asked at once, or by the person)."""
    closed = Signal()
    whole_space: WholeSpaceView

    def __init__(
        self,
        pages: CardPages,
        settings: Settings,
        parent: QWidget | None = None,
        *,
        email: str = "",
        server_url: str = "",
        avatar_size: int = 32,
        source: PageSource | None = None,
        avatars: AvatarLoader | None = None,
        details_avatars: AvatarLoader | None = None,
        server_locked: bool = False,
        store_folder: Path | None = None,
    ) -> None:
        super().__init__(parent)
        self.status_bar = ElidingStatusBar(self)
        self.setStatusBar(self.status_bar)  # before anything shows a message in it
        self.pages, self.model = pages, pages.model
        self._avatars, self._store_folder = avatars, store_folder
        self.messages = PageMessages(self._plurals())
        progress = announcing_progress(partial(ExportAllDialog, parent=self))
        self.jobs = WholeSpaceJobs(
            source,
            settings,
            progress,
            server_wait=self.messages.server_wait,
            photo_source=partial(photo_source_like, avatars) if avatars is not None else None,
        )
        # Looked up when called: the file dialog is the window's to show.
        ask_path: AskPath = lambda *a, **kw: self.ask_export_path(*a, **kw)  # noqa: E731
        shown: Callable[[], SpaceTableModel | None] = lambda: self.whole_space.model  # noqa: E731
        self.exports = ExportCommands(
            self.model, self.jobs, settings, ask_path, self, shown, table=lambda: self.table
        )
        self.settings, self._avatar_size = settings, avatar_size
        self.setWindowTitle(APP_NAME)

        self.commands = WindowCommands(self, command_table(self))
        self.command_keys = CommandKeys(self, self.commands.actions.values())
        for name, action in self.commands.actions.items():
            setattr(self, f"{name}_action", action)
        self._create_toolbar()
        self._create_central(details_avatars)
        self._create_status_bar()
        self.account_label.set_account(email, server_url)
        self.window_layout = WindowLayout(
            self, self.splitter, self.details_pane, self.columns, settings
        )
        self.window_layout.first()
        self.window_layout.restore()
        self.help = HelpAndSettings(
            self,
            settings,
            signed_in=lambda: not self.is_signed_out,
            copies=self.whole_space,
            server_locked=server_locked,
            avatars=avatars,
            details_avatars=details_avatars,
        )

        self._connect_toolbar()
        self._connect_model()
        self._connect_table()
        self.columns.follow_header(self, self.reset_view_action)  # layout kept, header menu
        self._connect_jobs()
        self._connect_help()
        self._update_actions()
        self.announcements = WindowAnnouncements(
            pages,
            self.page_bar,
            self.error_bar,
            self.statusBar(),
            [pages.loadFailed, self.jobs.failed, self.jobs.signInNeeded, self.whole_space.failed],
        )

    # Wiring, one topic at a time

    def _connect_toolbar(self) -> None:
        """A space chosen or typed opens it; the e-mails check loads the page again."""
        self.space_combo.activated.connect(lambda _index: self.open_space())
        self.include_emails_check.toggled.connect(self._include_emails_toggled)
        self.exports.emailsWanted.connect(partial(self.include_emails_check.setChecked, True))

    def _connect_model(self) -> None:
        """Pages asked for by the bars, and what the pages answer."""
        self.loading_state = LoadingState(
            self.pages, self.stack, self.page_bar, self.statusBar(), self.messages
        )
        self.loading_state.space_choice = self.whole_space
        self.pages.loadingChanged.connect(self._update_actions)
        self.pages.pageLoaded.connect(self._on_page_loaded)
        self.pages.loadFailed.connect(self._on_load_failed)
        self.error_bar.retryRequested.connect(self.pages.retry)
        self.page_bar.pageRequested.connect(self.go_to_page)

    def _connect_table(self) -> None:
        """Copies are reported; an empty page past the end leads to the last one."""
        self.table.copied.connect(partial(self.statusBar().showMessage, timeout=5000))
        self.table.copy_stored = self.jobs.copy_rows
        self.details_pane.copied.connect(partial(self.statusBar().showMessage, timeout=5000))
        self.details_pane.failed.connect(partial(self.error_bar.show_error, retryable=False))
        self.details_pane.saved.connect(self.jobs.remember_folder)
        self.empty_page.action_button.clicked.connect(self.page_bar.request_last)

    def _connect_jobs(self) -> None:
        """What the export and sync jobs report."""
        self.copy_in_view = CopyInView(self)
        self.job_reports = JobReports(
            self.jobs,
            self.error_bar,
            self.status_bar,
            self._jobs_plurals(),
            show_synced=self.copy_in_view.show_synced,
        )
        self.whole_space.changed.connect(self._update_actions)
        self.whole_space.pagesShown.connect(self.loading_state.show_page_state)
        self.whole_space.failed.connect(self.job_reports.show_failure)
        self.whole_space.shown.connect(self.error_bar.hide_error)
        self.view_switches = ViewSwitches(self)
        self.jobs.signInNeeded.connect(self._session_ended)
        self.exports.statusMessage.connect(self.statusBar().showMessage)

    def _connect_help(self) -> None:
        """Preferences may sign out; cleared avatars are fetched again."""
        self.help.signOutRequested.connect(self.sign_out)
        self.signOutRequested.connect(self.help.close_preferences)
        self.help.statusMessage.connect(self.statusBar().showMessage)
        self.help.detailsAvatarsCleared.connect(self.details.show_current_card)
        self.help.avatarsCleared.connect(self.table.viewport().update)
        remove = partial(self.jobs.without_syncs, self.whole_space.remove_copies)
        self.help.removeLocalCopiesRequested.connect(remove)

    # Building

    def _create_toolbar(self) -> None:
        self.toolbar = SpaceToolbar(
            self.settings,
            self.commands.toolbar_actions(ToolbarPlace.SPACE),
            self.commands.toolbar_actions(ToolbarPlace.END),
            self,
        )
        self.space_combo = self.toolbar.space_field
        self.space_edit = self.space_combo.space_edit
        self.include_emails_check = self.toolbar.include_emails_check
        self.addToolBar(self.toolbar)

    def _create_central(self, details_avatars: AvatarLoader | None) -> None:
        self.error_bar = ErrorBar(self)

        self.proxy = CardFilterModel(self)
        self.proxy.setSourceModel(self.model)
        self.filter_row = FilterRow(self.proxy, self.sync_action, self)
        self.filter_edit = self.filter_row.filter_edit
        self.filter_count_label = self.filter_row.count_label
        self.space_button = self.filter_row.space_button
        self.table = CardTableView(self.proxy, self._avatar_size, self)
        remembered = decode_view_state(self.settings.header_state).decode("utf-8", "replace")
        self.columns = TableColumns(
            self.table,
            self.model,
            ColumnLayout.from_json(remembered),
            avatar_size=self._avatar_size,
        )

        self.stack = CardStack(self.table, self.windowIcon(), self.messages.no_space(), self)
        self.hint_page, self.empty_page = self.stack.hint_page, self.stack.empty_page
        self.filter_row.cover(self.stack)
        self.details_pane = CardDetailsPane(details_avatars, self, self.exports.ask_qr_path)
        self.splitter = CardArea(self.filter_row, self.stack, self.details_pane, self)
        self.details = CurrentCardDetails(
            self.table,
            self.proxy,
            self.model,
            self.details_pane,
            self.details_action,
            self.settings,
        )
        self.details_action.setChecked(self.settings.details_visible)
        self.whole_space = WholeSpaceView(self, avatars=self._avatars, store=self._store_folder)
        self.overview = OverviewCommand(self, self)
        self.page_bar = PageBar(self)

        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(6)
        layout.addWidget(self.error_bar)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.page_bar)
        self.setCentralWidget(central)

    def focus_filter(self) -> None:
        self.filter_row.focus()

    def copy_selection(self) -> None:
        """Copy the selected cells, or the current row, as a grid for a spreadsheet."""
        self.table.copy_selection()

    def _create_status_bar(self) -> None:
        self.busy_indicator = BusyIndicator(self.status_bar, self.pages, self.stop_loading_action)
        self.account_label = AccountLabel(self.status_bar)
        for widget in (self.busy_indicator, self.busy_indicator.stop_button):
            self.status_bar.addPermanentWidget(widget)
        self.status_bar.add_yielding_label(self.account_label)

    # Public interface

    def sign_out(self) -> None:
        """Sign out, once the person agrees that the account's synced spaces go too."""
        if self.whole_space.may_sign_out():
            self.signOutRequested.emit()

    @property
    def is_signed_out(self) -> bool:
        """True after the server ended the session, until `signed_in_again()`."""
        return self.account_label.signed_out

    def signed_in_again(self, email: str, server_url: str) -> None:
        """Leave the signed-out state and repeat what the end of the session stopped.

        That is the page request that failed, if one did, and an export of all pages
        or a sync, which starts again from the first page.
        """
        self._set_signed_out(False)
        self.account_label.set_account(email, server_url)
        self.error_bar.hide()
        if self.pages.pending_request is None:
            self.pages.retry()
        self._update_actions()
        self.jobs.resume(self.whole_space.store_path)  # a sync: the copy of this account

    def _set_signed_out(self, signed_out: bool) -> None:
        self.account_label.set_signed_out(signed_out)
        self.sign_in_action.setVisible(signed_out)
        self._update_actions()

    def _session_ended(self) -> None:
        """Keep the page, show the signed-out state and ask for a sign-in."""
        self._set_signed_out(True)
        shown = self.model.page is not None or self.whole_space.shows_whole_space
        message = session_ended_message(self.jobs.stopped_note, cards_shown=shown)
        self.error_bar.show_info(message, actions=[self.sign_in_action])
        self.signInRequested.emit()

    @property
    def space_text(self) -> str:
        return self.space_combo.space_text

    def focus_space_field(self) -> None:
        self.space_combo.focus()

    def focus_page_field(self) -> None:
        self.page_bar.focus_page_field()

    def open_space(self, space_id: str | None = None) -> None:
        """Show the first page of `space_id` (default: the one typed in the toolbar)."""
        space = (space_id if space_id is not None else self.space_combo.currentText()).strip()
        if not space:
            self.statusBar().showMessage(self.tr("Enter the id of a space first."), 5000)
            self.focus_space_field()
            return
        self.space_combo.show_space(space)
        self.whole_space.show_pages()
        self._request(space, 1)

    def go_to_page(self, page: int) -> None:
        """Show another page of the space on screen (or the one being opened)."""
        target = self.target_request()
        if target is not None:
            self._request(target.space_id, page)

    def refresh(self) -> None:
        """Load again what was asked for last (the page on screen, or the one that failed)."""
        if self.is_signed_out:
            self.signInRequested.emit()  # the page is loaded again once signed in
        elif self.target_request() is not None:
            self.pages.retry()

    def stop_loading(self) -> None:
        """Stop waiting for the page asked for; the page shown stays (Esc)."""
        self.loading_state.stop()

    def sync_space(self) -> None:
        self.exports.sync_space(self.whole_space.store_path)

    @property
    def export_all_dialog(self) -> ExportAllDialog | None:
        """The progress of Export All or Sync Space, while one runs."""
        return self.job_reports.export_all_dialog

    def open_preferences(self) -> None:
        self.help.open_preferences()

    @property
    def preferences_dialog(self) -> PreferencesDialog | None:
        """Preferences, while open."""
        return self.help.preferences_dialog

    def ask_export_path(self, suggested: Path, title: str = "") -> Path | None:
        """The file to export to, chosen by the person; None when they cancel."""
        return ask_export_path(self, suggested, title)

    async def aclose(self, *, tidying_until: asyncio.Event | None = None) -> None:
        """Keep the window's layout, and cancel a whole-space fetch still running.

        The app ends a window this way whether it was closed or signed out of; a fetch
        waiting for a sign-in is dropped too. A closed window's copies are tidied first,
        until `tidying_until` is set (`WholeSpaceJobs.aclose`).
        """
        if shiboken6.isValid(self):
            self.window_layout.save()
        await self.jobs.aclose(tidying_until=tidying_until)
        await self.help.aclose()
        await self.overview.aclose()
        self.whole_space.close()

    # Reacting to the model

    def target_request(self) -> PageRequest | None:
        """The page asked for, or else the one shown, or else the last one asked for."""
        return self.pages.pending_request or self.model.current_request or self.pages.last_request

    def _request(self, space_id: str, page: int) -> None:
        if self.is_signed_out:
            # Its controls are disabled; this is a programmatic call. Ask to sign in first.
            self.signInRequested.emit()
            return
        self.error_bar.hide()
        self.pages.request_page(space_id, page, self.include_emails_check.isChecked())
        self._update_actions()

    def _include_emails_toggled(self, checked: bool) -> None:
        self.settings.include_emails = checked
        save_settings(self.settings)
        target = self.target_request()
        if target is not None:
            self._request(target.space_id, target.page)

    def _on_page_loaded(self, page: CardPage) -> None:
        request = self.model.current_request
        self.error_bar.hide()
        self.page_bar.set_meta(page.meta)
        if not self.whole_space.shows_whole_space:  # else the centre is the copy's
            self.loading_state.show_page_state()
            if not page.is_empty:
                self.columns.fit()
        if request is not None:
            self.setWindowTitle(self.messages.window_title(request.space_id))
            self.space_combo.remember_space(request.space_id)
            self.whole_space.offer(request.space_id)
        note = self.messages.unread_note(page)
        if note is not None:
            self.statusBar().showMessage(note)
        self._update_actions()

    def _on_load_failed(self, request: PageRequest, error: CardViewerError) -> None:
        log.info("page %d of %s: %s", request.page, request.space_id, error.detail or error)
        page = self.model.page
        self.page_bar.set_meta(page.meta if page is not None else None)
        self.space_combo.fill_recent_spaces()  # drops an id that was typed but does not open
        shown = self.model.current_request if page is not None else None
        self.whole_space.offer(request.space_id, otherwise=shown.space_id if shown else None)
        if isinstance(error, NotAuthenticated):
            self._session_ended()
        else:
            self.error_bar.show_error(
                self.messages.failure(request, error, shown),
                error.detail,
                retryable=error.retry_may_help,
            )
        self._update_actions()

    def _plurals(self) -> Plurals:
        """The page messages' sentences with a count, where the catalog finds their plurals."""
        return Plurals(
            entries_skipped=lambda count: self.tr(
                "%n entries on this page could not be read and are not shown.", "", count
            ),
            seconds_to_wait=lambda count: self.tr("You can try again in %n seconds.", "", count),
            minutes_to_wait=lambda count: self.tr(
                "You can try again in about %n minutes.", "", count
            ),
        )

    def _jobs_plurals(self) -> JobPlurals:
        """The job reports' sentences with a count, where the catalog finds their plurals."""
        return JobPlurals(
            cards_exported=lambda count: self.tr("Exported %Ln cards to %1", "", count),
            cards_synced=lambda count: self.tr("Synced %Ln cards. %1", "", count),
        )

    def set_details_visible(self, visible: bool) -> None:
        self.details.set_visible(visible)

    @property
    def header_menu(self) -> QMenu | None:
        """The header's menu of columns, while open."""
        return self.columns.open_menu

    def reset_view(self) -> None:
        """Every column back in its first order and width, the window at its first size."""
        self.window_layout.reset(self.details_action)

    def _update_actions(self) -> None:
        page = self.model.page
        online = not self.is_signed_out
        whole_space = self.whole_space.shows_whole_space
        self.page_bar.setVisible(page is not None and not whole_space and page.meta.total > 0)
        self.page_bar.setEnabled(online)
        self.space_combo.setEnabled(online)
        self.include_emails_check.setEnabled(online)
        state = WindowState(
            online=online,
            page=page,
            has_target=self.target_request() is not None,
            space_fetchable=self.jobs.can_fetch_whole_space
            and self.model.current_request is not None,
            page_bar=self.page_bar,
            loading=self.pages.is_loading,
            syncable=self._store_folder is not None,
            space_cards=self.whole_space.has_cards,
            space_shown=self.whole_space.shows_cards,
            whole_space=whole_space,
        )
        met = needs_met(state)
        changes = self.whole_space.shows_changes
        self.filter_row.describe_scope(whole_space, shown=Need.CARDS in met, changes=changes)
        self.commands.update(met)

    def closeEvent(self, event: QCloseEvent) -> None:
        super().closeEvent(event)
        if event.isAccepted():
            self.window_layout.save()
            # Fetching stops; a file already being written is still finished.
            self.jobs.cancel_fetches()
            self.closed.emit()
