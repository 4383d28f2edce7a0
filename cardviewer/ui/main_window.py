"""The main window: pick a space, page through its cards, export the page shown.

The window owns no network code. It asks the `CardTableModel` for pages and shows
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
import platform
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

import shiboken6
from PySide6 import __version__ as pyside_version
from PySide6.QtCore import (
    QByteArray,
    QLocale,
    QPoint,
    QSignalBlocker,
    QSize,
    Qt,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDesktopServices,
    QIcon,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTableView,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from cardviewer import APP_NAME, __version__
from cardviewer.api import (
    ApiError,
    CardPage,
    CardViewerError,
    InvalidInput,
    NotAuthenticated,
)
from cardviewer.log_setup import log_file_path
from cardviewer.paths import log_dir
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.csv_export import suggested_filename
from cardviewer.services.settings import Settings, decode_view_state, encode_view_state
from cardviewer.tasks import TaskSet
from cardviewer.ui.cards.card_details import CardDetailsPane
from cardviewer.ui.cards.card_export import (
    ExportFormat,
    suggested_space_filename,
)
from cardviewer.ui.cards.card_filter_model import CardFilterModel
from cardviewer.ui.cards.card_table_model import CardTableModel, PageRequest, PageSource
from cardviewer.ui.cards.column_layout import ColumnLayout, TableColumns
from cardviewer.ui.cards.table_copy import build_context_menu, copy_selection
from cardviewer.ui.error_bar import ErrorBar
from cardviewer.ui.error_text import error_text
from cardviewer.ui.export_all_dialog import ExportAllDialog
from cardviewer.ui.page_bar import PageBar
from cardviewer.ui.plain_text import plain_tooltip
from cardviewer.ui.preferences_dialog import PreferencesDialog
from cardviewer.ui.state_page import StatePage
from cardviewer.ui.whole_space_jobs import JobKind, JobResult, WholeSpaceJobs
from cardviewer.ui.window_commands import (
    NOTHING,
    Need,
    ToolbarPlace,
    WindowCommands,
    command_table,
)

log = logging.getLogger(__name__)

DEFAULT_SIZE = QSize(1180, 720)
DEFAULT_SPLITTER_SIZES = [800, 380]
PLACEHOLDER_ICON_SIZE = 64


class MainWindow(QMainWindow):
    """Browses the cards of one space at a time, a page at a time."""

    signOutRequested = Signal()
    signInRequested = Signal()
    """The session has ended and a sign-in is needed (asked at once, or by the person)."""
    closed = Signal()

    # The window's commands, each built from its row of `command_table()`.
    open_action: QAction
    focus_space_action: QAction
    export_action: QAction
    export_all_action: QAction
    sign_in_action: QAction
    sign_out_action: QAction
    preferences_action: QAction
    quit_action: QAction
    copy_action: QAction
    find_action: QAction
    refresh_action: QAction
    load_all_action: QAction
    details_action: QAction
    reset_view_action: QAction
    first_page_action: QAction
    previous_page_action: QAction
    next_page_action: QAction
    last_page_action: QAction
    go_to_page_action: QAction
    open_log_folder_action: QAction
    about_action: QAction

    def __init__(
        self,
        model: CardTableModel,
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
    ) -> None:
        super().__init__(parent)
        self.model = model
        self._avatars = avatars
        self._details_avatars = details_avatars
        self._server_locked = server_locked
        self.preferences_dialog: PreferencesDialog | None = None
        self._tasks = TaskSet()
        self.jobs = WholeSpaceJobs(source, settings, partial(ExportAllDialog, parent=self))
        self.settings = settings
        self._avatar_size = avatar_size
        self._email = email
        self._server_url = server_url
        self._signed_out = False
        self.setWindowTitle(APP_NAME)
        self.resize(DEFAULT_SIZE)

        self.commands = WindowCommands(self, command_table(self))
        for name, action in self.commands.actions.items():
            setattr(self, f"{name}_action", action)
        self._create_toolbar()
        self._create_central()
        self._create_status_bar()
        self.set_account(email, server_url)
        self._restore_window_layout()

        self._connect_model()
        self._connect_columns()
        self._connect_jobs()
        self._update_actions()

    # Wiring, one topic at a time

    def _connect_model(self) -> None:
        """Pages asked for by the bars, and what the model answers."""
        self.model.loadingChanged.connect(self._on_loading_changed)
        self.model.pageLoaded.connect(self._on_page_loaded)
        self.model.loadFailed.connect(self._on_load_failed)
        self.error_bar.retryRequested.connect(self.model.retry)
        self.page_bar.pageRequested.connect(self.go_to_page)

    def _connect_columns(self) -> None:
        """The header's menu, and the order and widths the person gives the columns."""
        header = self.table.horizontalHeader()
        header.customContextMenuRequested.connect(self._show_header_menu)
        header.sectionResized.connect(self.columns.remember_column_width)
        header.sectionMoved.connect(self.columns.remember_columns)

    def _connect_jobs(self) -> None:
        """What the export and load jobs report."""
        self.jobs.finished.connect(self._on_job_finished)
        self.jobs.failed.connect(self._on_job_failed)
        self.jobs.signInNeeded.connect(self._session_ended)
        self.jobs.statusMessage.connect(self.statusBar().showMessage)

    # Building

    def _create_toolbar(self) -> None:
        toolbar = QToolBar(self.tr("Space"), self)
        toolbar.setObjectName("spaceToolbar")
        toolbar.setMovable(False)
        toolbar.setFloatable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toolbar.setIconSize(QSize(16, 16))
        toolbar.setContextMenuPolicy(Qt.ContextMenuPolicy.PreventContextMenu)

        space_label = QLabel(self.tr("S&pace:"), toolbar)
        self.space_combo = QComboBox(toolbar)
        self.space_combo.setEditable(True)
        # Enter adds the text to the list and emits `activated`, as choosing from it does.
        self.space_combo.setInsertPolicy(QComboBox.InsertPolicy.InsertAtTop)
        self.space_combo.setMaxCount(50)
        self.space_combo.setMinimumContentsLength(20)
        self.space_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.space_combo.setToolTip(self.tr("The id of the space whose cards to show"))
        self.space_combo.setAccessibleName(self.tr("Space id"))
        self.space_edit = QLineEdit(self.space_combo)
        self.space_combo.setLineEdit(self.space_edit)
        self.space_edit.setPlaceholderText(self.tr("Space id"))
        self.space_edit.setClearButtonEnabled(True)
        completer = self.space_combo.completer()
        if completer is not None:
            completer.setCaseSensitivity(Qt.CaseSensitivity.CaseSensitive)
        space_label.setBuddy(self.space_combo)
        self._fill_recent_spaces(self.settings.last_space)
        self.space_combo.activated.connect(lambda _index: self.open_space())

        self.include_emails_check = QCheckBox(self.tr("Include e-&mails"), toolbar)
        self.include_emails_check.setChecked(self.settings.include_emails)
        self.include_emails_check.setToolTip(
            self.tr("Also load the cards' e-mail addresses (shown as an extra column)")
        )
        self.include_emails_check.toggled.connect(self._include_emails_toggled)

        toolbar.addWidget(_padded(space_label, left=4, right=6))
        toolbar.addWidget(self.space_combo)
        toolbar.addActions(self.commands.toolbar_actions(ToolbarPlace.SPACE))
        toolbar.addSeparator()
        toolbar.addWidget(_padded(self.include_emails_check, left=4, right=4))
        spacer = QWidget(toolbar)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        toolbar.addWidget(spacer)
        toolbar.addActions(self.commands.toolbar_actions(ToolbarPlace.END))
        self.toolbar = toolbar
        self.addToolBar(toolbar)

    def _create_central(self) -> None:
        self.error_bar = ErrorBar(self)

        self.proxy = CardFilterModel(self)
        self.proxy.setSourceModel(self.model)
        self._create_filter_row()

        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.table.setCornerButtonEnabled(False)
        self.table.verticalHeader().hide()
        row_height = max(self._avatar_size + 8, self.fontMetrics().height() + 12)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(row_height)
        header = self.table.horizontalHeader()
        header.setHighlightSections(False)
        header.setStretchLastSection(True)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        header.setSortIndicatorClearable(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._show_table_menu)
        self.table.setAccessibleName(self.tr("Cards"))
        header.setSectionsMovable(True)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        remembered = decode_view_state(self.settings.header_state).decode("utf-8", "replace")
        self.columns = TableColumns(
            self.table,
            self.model,
            ColumnLayout.from_json(remembered),
            avatar_size=self._avatar_size,
        )

        app_icon = self.windowIcon()
        self.hint_page = StatePage(app_icon.pixmap(PLACEHOLDER_ICON_SIZE), self)
        self.hint_page.set_text(
            self.tr("No space open"), self.tr("Enter a space id and press Open.")
        )
        self.empty_page = StatePage(
            app_icon.pixmap(PLACEHOLDER_ICON_SIZE, QIcon.Mode.Disabled), self
        )
        self.empty_page.action_button.clicked.connect(self._go_to_last_page)

        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.hint_page)
        self.stack.addWidget(self.table)
        self.stack.addWidget(self.empty_page)

        self.details_pane = CardDetailsPane(self._details_avatars, self)
        self.details_pane.copied.connect(lambda text: self.statusBar().showMessage(text, 5000))
        self.table.selectionModel().currentRowChanged.connect(self._show_current_card)
        self.table.activated.connect(self._open_details)
        self.model.modelReset.connect(self._show_current_card)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("detailsSplitter")
        cards = QWidget(self)
        cards_layout = QVBoxLayout(cards)
        cards_layout.setContentsMargins(0, 0, 0, 0)
        cards_layout.setSpacing(4)
        cards_layout.addWidget(self.filter_row)
        cards_layout.addWidget(self.stack, 1)
        self.splitter.addWidget(cards)
        self.splitter.addWidget(self.details_pane)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 0)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes(DEFAULT_SPLITTER_SIZES)
        self.details_action.setChecked(self.settings.details_visible)
        self.details_pane.setVisible(self.settings.details_visible)

        self.page_bar = PageBar(self)

        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(6)
        layout.addWidget(self.error_bar)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.page_bar)
        self.setCentralWidget(central)

    def _create_filter_row(self) -> None:
        """A search field over the table, and how many of the page's cards it lets through."""
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setToolTip(
            self.tr(
                "Shows the cards whose name, username, position or e-mail contain every "
                "word typed. Filtering and sorting apply to the page loaded."
            )
        )
        self.filter_edit.setAccessibleName(self.tr("Filter cards"))
        self.filter_edit.setClearButtonEnabled(True)
        search_icon = QIcon.fromTheme(QIcon.ThemeIcon.EditFind)
        if not search_icon.isNull():  # no room kept for an icon the desktop lacks
            self.filter_edit.addAction(search_icon, QLineEdit.ActionPosition.LeadingPosition)
        self.filter_edit.textChanged.connect(self.proxy.set_filter_text)
        self.filter_count_label = QLabel(self)
        self.filter_count_label.setTextFormat(Qt.TextFormat.PlainText)
        self.proxy.counts_changed.connect(self._show_filter_count)
        self.filter_row = QWidget(self)
        row = QHBoxLayout(self.filter_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        row.addWidget(self.filter_edit, 1)
        row.addWidget(self.filter_count_label)
        self.load_all_button = QToolButton(self)
        self.load_all_button.setDefaultAction(self.load_all_action)
        self.load_all_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        row.addWidget(self.load_all_button)

    def _describe_filter_scope(self) -> None:
        """Say whether filtering covers the page or, once all are loaded, the whole space."""
        if self.model.shows_whole_space:
            text = self.tr("Filter all cards of the space (Ctrl+F)")
        else:
            text = self.tr("Filter the cards of this page (Ctrl+F)")
        self.filter_edit.setPlaceholderText(text)

    def _show_filter_count(self, shown: int, total: int) -> None:
        if not self.proxy.filter_text().strip():
            self.filter_count_label.clear()
            return
        locale = QLocale()
        text = self.tr("%1 of %2 shown").replace("%1", locale.toString(shown))
        self.filter_count_label.setText(text.replace("%2", locale.toString(total)))

    def focus_filter(self) -> None:
        self.filter_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_edit.selectAll()

    def copy_selection(self) -> None:
        """Copy the selected cells as a grid that pastes into a spreadsheet.

        With nothing selected, the current row is selected and copied: the keyboard
        moves the current row without always selecting it.
        """
        current = self.table.currentIndex()
        if not self.table.selectionModel().hasSelection() and current.isValid():
            self.table.selectRow(current.row())
        self.statusBar().showMessage(copy_selection(self.table), 5000)

    def _show_table_menu(self, position: QPoint) -> None:
        menu = build_context_menu(
            self.table,
            self.table.indexAt(position),
            self,
            on_copied=lambda text: self.statusBar().showMessage(text, 5000),
        )
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.table_menu = menu
        menu.popup(self.table.viewport().mapToGlobal(position))

    def _create_status_bar(self) -> None:
        status = self.statusBar()
        self.busy_indicator = QProgressBar(status)
        self.busy_indicator.setRange(0, 0)
        self.busy_indicator.setTextVisible(False)
        self.busy_indicator.setFixedSize(QSize(100, 12))
        self.busy_indicator.hide()
        self.account_label = QLabel(status)
        self.account_label.setTextFormat(Qt.TextFormat.PlainText)
        status.addPermanentWidget(self.busy_indicator)
        status.addPermanentWidget(self.account_label)

    def _fill_recent_spaces(self, text: str | None = None) -> None:
        """List the recent spaces; the field shows `text` (default: what it shows now)."""
        if text is None:
            text = self.space_combo.currentText()
        with QSignalBlocker(self.space_combo):
            self.space_combo.clear()
            self.space_combo.addItems(self.settings.recent_spaces)
            # When the text is a listed space, that item must be the current one: an
            # editable combo box "activates" a matching item when the field loses focus.
            self.space_combo.setCurrentIndex(
                self.space_combo.findText(text, Qt.MatchFlag.MatchExactly)
            )
            self.space_combo.setEditText(text)

    # Public interface

    def set_account(self, email: str, server_url: str) -> None:
        """Say in the status bar who is signed in where (or was, while signed out)."""
        self._email, self._server_url = email, server_url
        host = urlsplit(server_url).netloc or server_url
        if email and host:
            text = self.tr("%1 on %2").replace("%1", email).replace("%2", host)
        else:
            text = email or host
        if self._signed_out:
            text = self.tr("Signed out (%1)").replace("%1", text) if text else self.tr("Signed out")
        self.account_label.setText(text)
        self.account_label.setToolTip(plain_tooltip(server_url))

    @property
    def is_signed_out(self) -> bool:
        """True after the server ended the session, until `signed_in_again()`."""
        return self._signed_out

    def signed_in_again(self, email: str, server_url: str) -> None:
        """Leave the signed-out state and repeat what the end of the session stopped.

        That is the page request that failed, if one did, and an export or a load of
        all pages, which starts again from the first page.
        """
        self._set_signed_out(False)
        self.set_account(email, server_url)
        self.error_bar.hide()
        if self.model.pending_request is None:
            self.model.retry()
        self._update_actions()
        self.jobs.resume()

    def _set_signed_out(self, signed_out: bool) -> None:
        self._signed_out = signed_out
        self.sign_in_action.setVisible(signed_out)
        self.set_account(self._email, self._server_url)
        self._update_actions()

    def _session_ended(self) -> None:
        """Keep the page, show the signed-out state and ask for a sign-in.

        The note says what the end of the session stopped, for as long as it waits.
        """
        self._set_signed_out(True)
        message = self.tr(
            "You are signed out because your session has ended. The cards shown stay "
            "here; sign in to load more."
        )
        note = self.jobs.stopped_note
        if note is not None:
            message = f"{message} {note}"
        self.error_bar.show_info(message, actions=[self.sign_in_action])
        self.signInRequested.emit()

    @property
    def space_text(self) -> str:
        return self.space_combo.currentText().strip()

    def focus_space_field(self) -> None:
        self.space_combo.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.space_edit.selectAll()

    def focus_page_field(self) -> None:
        """Put the cursor in the page number, ready to type another one."""
        self.page_bar.page_spin.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.page_bar.page_spin.selectAll()

    def open_space(self, space_id: str | None = None) -> None:
        """Show the first page of `space_id` (default: the one typed in the toolbar)."""
        space = (space_id if space_id is not None else self.space_combo.currentText()).strip()
        if not space:
            self.statusBar().showMessage(self.tr("Enter the id of a space first."), 5000)
            self.focus_space_field()
            return
        with QSignalBlocker(self.space_combo):
            self.space_combo.setCurrentIndex(
                self.space_combo.findText(space, Qt.MatchFlag.MatchExactly)
            )
            self.space_combo.setEditText(space)
        self._request(space, 1)

    def go_to_page(self, page: int) -> None:
        """Show another page of the space on screen (or the one being opened)."""
        target = self._target()
        if target is not None:
            self._request(target.space_id, page)

    def _go_to_last_page(self) -> None:
        page = self.model.page
        if page is not None:
            self.go_to_page(page.meta.last_page)

    def refresh(self) -> None:
        """Load again what was asked for last (the page on screen, or the one that failed)."""
        if self._signed_out:
            self.signInRequested.emit()  # the page is loaded again once signed in
        elif self._target() is not None:
            self.model.retry()

    def export_page(self) -> None:
        """Ask for a file name and save the page on screen as CSV or Excel workbook."""
        page, request = self.model.page, self.model.current_request
        if page is None or request is None or page.is_empty:
            self.statusBar().showMessage(self.tr("There are no cards to export."), 5000)
            return
        name = suggested_filename(request.space_id, page.meta.current_page)
        suggested = (self.jobs.export_dir / name).with_suffix(self._export_format().value)
        path = self.ask_export_path(suggested)
        if path is not None:
            self.jobs.export_page(page, request, path)

    def export_all(self) -> None:
        """Ask for a file name and save every card of the space shown, page after page."""
        request = self._whole_space_request()
        if request is None or self.jobs.raise_running_fetch():
            return
        name = suggested_space_filename(request.space_id, self._export_format())
        path = self.ask_export_path(self.jobs.export_dir / name, title=self.tr("Export All Pages"))
        if path is not None:
            self.jobs.export_all(request, path)

    def load_all_pages(self) -> None:
        """Fetch every page of the space shown and show all its cards in the table."""
        request = self._whole_space_request()
        if request is not None:
            self.jobs.load_all(request)

    def _whole_space_request(self) -> PageRequest | None:
        """The space shown, if its pages can be fetched; else None, and a note saying so."""
        request = self.model.current_request
        if request is None or not self.jobs.can_fetch_whole_space:
            self.statusBar().showMessage(self.tr("Open a space first."), 5000)
            return None
        return request

    def _on_job_finished(self, result: JobResult) -> None:
        if result.kind is JobKind.LOAD_ALL:
            request = result.request
            self.model.show_whole_space(request.space_id, request.with_emails, list(result.pages))
            message = self.tr(
                "All %n cards of the space are shown; filtering and sorting cover them all. "
                "Refresh (F5) returns to pages.",
                "",
                result.count,
            )
        elif result.count == 1:
            message = self.tr("Exported 1 card to %1").replace("%1", str(result.path))
        else:
            message = self.tr("Exported %n cards to %1", "", result.count)
            message = message.replace("%1", str(result.path))
        self.statusBar().showMessage(message)

    def _on_job_failed(self, message: str, detail: str) -> None:
        self.error_bar.show_error(message, detail, retryable=False)

    @property
    def export_all_dialog(self) -> ExportAllDialog | None:
        """The progress of Export All or Load All, while one runs."""
        progress = self.jobs.progress
        return progress if isinstance(progress, ExportAllDialog) else None

    def _export_format(self) -> ExportFormat:
        """The file type an export suggests, as chosen in Preferences."""
        return ExportFormat.XLSX if self.settings.export_format == "xlsx" else ExportFormat.CSV

    def open_preferences(self) -> None:
        """Show Preferences without waiting for it; its changes apply to the next export."""
        if self.preferences_dialog is not None:
            self.preferences_dialog.raise_()
            self.preferences_dialog.activateWindow()
            return
        dialog = PreferencesDialog(
            self.settings,
            server_locked=self._server_locked,
            signed_in=not self._signed_out,
            parent=self,
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.clear_avatar_cache_requested.connect(self.clear_avatar_cache)
        dialog.sign_out_requested.connect(dialog.reject)
        dialog.sign_out_requested.connect(self.signOutRequested)
        dialog.settings_changed.connect(
            lambda: self.statusBar().showMessage(self.tr("Preferences saved."), 5000)
        )
        dialog.finished.connect(self._forget_preferences)
        self.preferences_dialog = dialog
        dialog.open()

    def _forget_preferences(self) -> None:
        self.preferences_dialog = None

    def clear_avatar_cache(self) -> None:
        """Forget every avatar, on disk too; those on screen are fetched again."""
        if self._avatars is None:
            return
        self._avatars.clear()
        if self._details_avatars is not None:
            self._details_avatars.clear()
            self._show_current_card()
        if self._avatars.disk_cache is not None:
            # Off the GUI thread: a cache of many pictures takes a while to delete.
            self._tasks.start(asyncio.to_thread(self._avatars.disk_cache.clear))
        self.table.viewport().update()
        log.info("the avatar cache was cleared")
        self.statusBar().showMessage(self.tr("The avatar cache is cleared."), 5000)

    def ask_export_path(self, suggested: Path, title: str = "") -> Path | None:
        """The file to export to, chosen by the person; None when they cancel.

        The suffix follows the type chosen in the dialog when the name has none.
        """
        csv_filter = self.tr("CSV files (*.csv)")
        xlsx_filter = self.tr("Excel workbooks (*.xlsx)")
        chosen_filter = xlsx_filter if suggested.suffix == ExportFormat.XLSX.value else csv_filter
        name, chosen_filter = QFileDialog.getSaveFileName(
            self,
            title or self.tr("Export Page"),
            str(suggested),
            ";;".join([csv_filter, xlsx_filter]),
            chosen_filter,
        )
        if not name:
            return None
        path = Path(name)
        if not path.suffix:
            wanted = ExportFormat.XLSX if chosen_filter == xlsx_filter else ExportFormat.CSV
            path = path.with_suffix(wanted.value)
        return path

    @property
    def is_exporting(self) -> bool:
        """True while an export or "Load All Pages" runs."""
        return self.jobs.busy

    async def aclose(self) -> None:
        """Keep the window's layout, and cancel a whole-space fetch still running.

        The app ends a window this way whether it was closed or signed out of; a fetch
        waiting for a sign-in is dropped too.
        """
        if shiboken6.isValid(self):
            self._save_window_layout()
        await self.jobs.aclose()
        await self._tasks.aclose()

    def open_log_folder(self) -> None:
        """Show the folder with cardviewer.log in the file manager."""
        current = log_file_path()
        folder = current.parent if current is not None else log_dir()
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))):
            log.warning("could not open the log folder %s", folder)
            self.statusBar().showMessage(
                self.tr("Could not open the log folder %1").replace("%1", str(folder)), 8000
            )

    def show_about(self) -> None:
        box = QMessageBox(self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setWindowTitle(self.tr("About %1").replace("%1", APP_NAME))
        box.setIconPixmap(self.windowIcon().pixmap(PLACEHOLDER_ICON_SIZE, PLACEHOLDER_ICON_SIZE))
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(f"<h3>{APP_NAME} {__version__}</h3>")
        box.setInformativeText(
            self.tr("Browse and export the digital business cards of your company's space.")
            + "<br><br>"
            + self.tr("Python %1, Qt %2")
            .replace("%1", platform.python_version())
            .replace("%2", pyside_version)
        )
        box.open()

    # Reacting to the model

    def _target(self) -> PageRequest | None:
        return self.model.pending_request or self.model.current_request

    def _request(self, space_id: str, page: int) -> None:
        if self._signed_out:
            # Its controls are disabled; this is a programmatic call. Ask to sign in first.
            self.signInRequested.emit()
            return
        self.error_bar.hide()
        self.model.request_page(space_id, page, self.include_emails_check.isChecked())
        self._update_actions()

    def _include_emails_toggled(self, checked: bool) -> None:
        self.settings.include_emails = checked
        self._save_settings()
        target = self._target()
        if target is not None:
            self._request(target.space_id, target.page)

    def _on_loading_changed(self, loading: bool) -> None:
        self.busy_indicator.setVisible(loading)
        pending = self.model.pending_request
        if loading and pending is not None:
            text = self.tr("Loading page %1 of %2…")
            self.statusBar().showMessage(
                text.replace("%1", str(pending.page)).replace("%2", pending.space_id)
            )
        elif not loading:
            self.statusBar().clearMessage()
        self._update_actions()

    def _on_page_loaded(self, page: CardPage) -> None:
        request = self.model.current_request
        self.error_bar.hide()
        self.page_bar.set_meta(page.meta)
        if page.is_empty:
            if page.meta.total == 0:
                self.empty_page.set_text(
                    self.tr("No cards"), self.tr("This space has no cards yet.")
                )
            else:
                # Past the last page (the space shrank, or a number was typed).
                self.empty_page.set_text(
                    self.tr("Nothing here"),
                    self.tr("There are no cards on this page."),
                    self.tr("Go to the Last Page (%1)").replace("%1", str(page.meta.last_page)),
                )
            self.stack.setCurrentWidget(self.empty_page)
        else:
            self.stack.setCurrentWidget(self.table)
            self.columns.fit()
        if request is not None:
            title = self.tr("%1 \u2014 %2", "window title: space id, app name")
            self.setWindowTitle(title.replace("%1", request.space_id).replace("%2", APP_NAME))
            self._remember_space(request.space_id)
        if page.skipped:
            if page.skipped == 1:
                message = self.tr("1 entry on this page could not be read and is not shown.")
            else:
                message = self.tr(
                    "%n entries on this page could not be read and are not shown.",
                    "",
                    page.skipped,
                )
            self.statusBar().showMessage(message)
        elif any(card.invalid_fields for card in page.cards):
            self.statusBar().showMessage(
                self.tr(
                    "Some details on this page could not be read; "
                    "they are marked \u201c(invalid)\u201d."
                )
            )
        self._update_actions()

    def _on_load_failed(self, request: PageRequest, error: CardViewerError) -> None:
        log.info("page %d of %s: %s", request.page, request.space_id, error.detail or error)
        page = self.model.page
        self.page_bar.set_meta(page.meta if page is not None else None)
        self._fill_recent_spaces()  # drops an id that was typed but does not open
        if isinstance(error, NotAuthenticated):
            self._session_ended()
        else:
            self.error_bar.show_error(
                self._failure_message(request, error),
                error.detail,
                retryable=not isinstance(error, InvalidInput),
            )
        self._update_actions()

    def _failure_message(self, request: PageRequest, error: CardViewerError) -> str:
        """The error's own sentence, plus how long to wait and what is still on screen."""
        parts = [error_text(error)]
        wait = self._server_wait(error)
        if wait is not None:
            parts.append(wait)
        shown = self.model.current_request
        if self.model.page is not None and shown is not None:
            if shown.space_id == request.space_id:
                parts.append(self.tr("Page %1 is still shown.").replace("%1", str(shown.page)))
            else:
                parts.append(
                    self.tr("The cards of %1 are still shown.").replace("%1", shown.space_id)
                )
        return " ".join(parts)

    def _server_wait(self, error: CardViewerError) -> str | None:
        """When the server said to try again (`Retry-After`), if that is worth saying."""
        seconds = getattr(error, "retry_after", None)
        if not isinstance(error, ApiError) or not isinstance(seconds, int | float):
            return None
        if seconds < 2:
            return None  # "a moment" says it already
        if seconds < 120:
            return self.tr("You can try again in %n seconds.", "", round(seconds))
        return self.tr("You can try again in about %n minutes.", "", round(seconds / 60))

    def _show_current_card(self) -> None:
        """The details pane follows the table's current row (nothing: its hint)."""
        current = self.table.currentIndex()
        card = None
        if current.isValid():
            card = self.proxy.card(current.row())
        self.details_pane.set_card(card, self.model.columns)

    def _open_details(self) -> None:
        """Enter or a double-click on a card shows it in the details pane."""
        self.details_action.setChecked(True)
        self._show_current_card()

    def set_details_visible(self, visible: bool) -> None:
        """Show or hide the details pane, and remember that."""
        self.details_pane.setVisible(visible)
        if self.settings.details_visible != visible:
            self.settings.details_visible = visible
            self._save_settings()

    def _show_header_menu(self, position: QPoint) -> None:
        """Show or hide columns, or put them all back, from the header's context menu."""
        menu = self.columns.header_menu(self)
        menu.addSeparator()
        menu.addAction(self.reset_view_action)
        self.header_menu = menu
        menu.popup(self.table.horizontalHeader().mapToGlobal(position))

    def reset_view(self) -> None:
        """Every column back in its first order and width, the window at its first size."""
        self.columns.reset()
        self.showNormal()
        self.resize(DEFAULT_SIZE)
        self.splitter.setSizes(DEFAULT_SPLITTER_SIZES)
        self.details_action.setChecked(True)
        self._save_window_layout()

    def _restore_window_layout(self) -> None:
        geometry = decode_view_state(self.settings.window_geometry)
        if geometry:
            self.restoreGeometry(QByteArray(geometry))
        state = decode_view_state(self.settings.window_state)
        if state:
            self.restoreState(QByteArray(state))
        splitter = decode_view_state(self.settings.splitter_state)
        if splitter:
            self.splitter.restoreState(QByteArray(splitter))
            self.details_pane.setVisible(self.settings.details_visible)

    def _save_window_layout(self) -> None:
        self.settings.window_geometry = encode_view_state(bytes(self.saveGeometry().data()))
        self.settings.window_state = encode_view_state(bytes(self.saveState().data()))
        self.settings.splitter_state = encode_view_state(bytes(self.splitter.saveState().data()))
        self.settings.header_state = encode_view_state(self.columns.layout.to_json().encode())
        self._save_settings()

    def _remember_space(self, space_id: str) -> None:
        if self.settings.recent_spaces[:1] == [space_id] and self.settings.last_space == space_id:
            return
        self.settings.remember_space(space_id)
        self._save_settings()
        self._fill_recent_spaces()

    def _save_settings(self) -> None:
        try:
            self.settings.save()
        except OSError as exc:
            # Settings are a convenience; the window keeps working without them.
            log.warning("settings not saved: %s", exc)

    def _update_actions(self) -> None:
        page = self.model.page
        online = not self._signed_out
        # Paging controls only make sense once a page is on screen.
        self.page_bar.setVisible(page is not None)
        self.page_bar.setEnabled(online)
        self.space_combo.setEnabled(online)
        self.include_emails_check.setEnabled(online)
        self._describe_filter_scope()
        self.commands.update(self._needs_met())

    def _needs_met(self) -> Need:
        """What holds now, of what the commands need (signed out, Refresh leads to sign-in)."""
        page, bar = self.model.page, self.page_bar
        held = {
            Need.ONLINE: not self._signed_out,
            Need.PAGE: page is not None,
            Need.CARDS: page is not None and not page.is_empty,
            Need.TARGET: self._target() is not None,
            Need.SPACE_FETCHABLE: (
                self.jobs.can_fetch_whole_space and self.model.current_request is not None
            ),
            Need.PAGED: not self.model.shows_whole_space,
            Need.FIRST_PAGE: bar.first_button.isEnabled(),
            Need.PREVIOUS_PAGE: bar.previous_button.isEnabled(),
            Need.NEXT_PAGE: bar.next_button.isEnabled(),
            Need.LAST_PAGE: bar.last_button.isEnabled(),
        }
        met = NOTHING
        for need, holds in held.items():
            if holds:
                met |= need
        return met

    def closeEvent(self, event: QCloseEvent) -> None:
        super().closeEvent(event)
        if event.isAccepted():
            self._save_window_layout()
            # Fetching stops; a file already being written is still finished.
            self.jobs.cancel_fetches()
            self.closed.emit()


def _padded(widget: QWidget, *, left: int = 0, right: int = 0) -> QWidget:
    """`widget` with some room either side, for toolbars that pack widgets tightly."""
    box = QWidget(widget.parentWidget())
    layout = QHBoxLayout(box)
    layout.setContentsMargins(left, 0, right, 0)
    layout.addWidget(widget)
    return box
