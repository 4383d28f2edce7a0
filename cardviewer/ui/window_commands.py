"""The main window's commands as one table, from which its actions, menus and toolbar are built.

Each row says how a command reads (text, shortcut, icon, tips), where it appears (menu,
toolbar), what it calls, and what it needs to be available (`Need`). The window says
what holds now; `WindowCommands.update()` enables exactly the commands whose needs are
met, so a menu item, its toolbar button and its shortcut always agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, Flag, auto
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, SignalInstance
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import QMainWindow, QStyle

from cardviewer import APP_NAME
from cardviewer.api import CardPage
from cardviewer.ui.column_commands import open_columns_menu, sort_by_current_column
from cardviewer.ui.page_bar import PageBar
from cardviewer.ui.text_coloured_icon import in_text_colour

if TYPE_CHECKING:
    from PySide6.QtWidgets import QStatusBar, QTableView

    from cardviewer.ui.cards.column_layout import TableColumns
    from cardviewer.ui.export_commands import ExportCommands
    from cardviewer.ui.help_and_settings import HelpAndSettings
    from cardviewer.ui.overview_window import OverviewCommand


class Menu(Enum):
    """The menu bar's menus, in their order."""

    FILE = auto()
    EDIT = auto()
    VIEW = auto()
    GO = auto()
    HELP = auto()


class ToolbarPlace(Enum):
    """Where on the toolbar: beside the space field, or at the far end."""

    SPACE = auto()
    END = auto()


class Need(Flag):
    """What a command needs to be available; the window says which of these hold."""

    ONLINE = auto()
    """Signed in: the server can be asked."""
    PAGE = auto()
    """A page from the server is on screen (not the whole space, which has no pages)."""
    CARDS = auto()
    """The page on screen has cards, or the whole space shown (whatever a filter leaves)."""
    SHOWN = auto()
    """Cards are shown to export: the page's, or of the whole space, any a filter leaves."""
    TARGET = auto()
    """A page was asked for or is shown, so it can be loaded again."""
    SPACE_FETCHABLE = auto()
    """A space is shown whose every page can be fetched."""
    SYNCABLE = auto()
    """A space is shown whose every page can be fetched into a local copy."""
    LOADING = auto()
    """A page asked for is on its way."""
    FIRST_PAGE = auto()
    PREVIOUS_PAGE = auto()
    NEXT_PAGE = auto()
    LAST_PAGE = auto()
    """The page bar's matching button is enabled."""


NOTHING = Need(0)


@dataclass(frozen=True)
class WindowState:
    """What the window knows now, from which `needs_met()` says which `Need`s hold."""

    online: bool
    page: CardPage | None
    has_target: bool
    space_fetchable: bool
    page_bar: PageBar
    loading: bool = False
    syncable: bool = False
    """The window has a folder for local copies of spaces."""
    space_cards: bool = False
    """The whole space is shown from its local copy, and it has cards."""
    space_shown: bool = False
    """Of the whole space shown, a filter leaves cards to export."""
    whole_space: bool = False
    """The whole space is shown (or of it the cards a sync changed), not the page."""


def needs_met(state: WindowState) -> Need:
    """What holds now, of what the commands need (signed out, Refresh leads to sign-in)."""
    page, bar = state.page, state.page_bar
    page_cards = page is not None and not page.is_empty  # exported whole, filtered or not
    held = {
        Need.ONLINE: state.online,
        Need.PAGE: page is not None and not state.whole_space,
        Need.CARDS: state.space_cards if state.whole_space else page_cards,
        Need.SHOWN: state.space_shown if state.whole_space else page_cards,
        Need.TARGET: state.has_target,
        Need.SPACE_FETCHABLE: state.space_fetchable,
        Need.SYNCABLE: state.space_fetchable and state.syncable,
        Need.LOADING: state.loading,
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


@dataclass(frozen=True)
class Command:
    """One row of the table; the window's action for it is `<name>_action`."""

    name: str
    text: str
    handler: Callable[..., object]
    """Called when triggered; a checkable command's handler gets the checked state."""
    menu: Menu | None = None
    new_section: bool = False
    """A separator comes before it in its menu."""
    toolbar: ToolbarPlace | None = None
    shortcut: str | QKeySequence.StandardKey | None = None
    icon: QIcon.ThemeIcon | None = None
    fallback: QStyle.StandardPixmap | None = None
    """The widget style's icon where the desktop has none."""
    icon_text: str = ""
    tip: str = ""
    status_tip: str = ""
    needs: Need = NOTHING
    checkable: bool = False
    role: QAction.MenuRole | None = None
    visible: bool = True


class CommandActions:
    """The window's action for each command, as `<name>_action`; `WindowCommands` makes them."""

    open_action: QAction
    focus_space_action: QAction
    export_action: QAction
    export_all_action: QAction
    export_vcards_action: QAction
    export_pdf_action: QAction
    print_action: QAction
    overview_action: QAction
    sign_in_action: QAction
    sign_out_action: QAction
    preferences_action: QAction
    quit_action: QAction
    copy_action: QAction
    find_action: QAction
    refresh_action: QAction
    stop_loading_action: QAction
    sync_action: QAction
    details_action: QAction
    sort_action: QAction
    columns_action: QAction
    reset_view_action: QAction
    first_page_action: QAction
    previous_page_action: QAction
    next_page_action: QAction
    last_page_action: QAction
    go_to_page_action: QAction
    open_log_folder_action: QAction
    about_action: QAction


class CommandTarget(Protocol):
    """What the commands call: the main window."""

    def sign_out(self) -> None: ...

    @property
    def signInRequested(self) -> SignalInstance: ...

    page_bar: PageBar
    exports: ExportCommands
    overview: OverviewCommand
    help: HelpAndSettings
    """Made after the commands: they look it up when triggered."""

    def open_space(self, space_id: str | None = None) -> None: ...
    def focus_space_field(self) -> None: ...
    def refresh(self) -> None: ...
    def stop_loading(self) -> None: ...
    def open_preferences(self) -> None: ...
    def close(self) -> bool: ...
    def copy_selection(self) -> None: ...
    def focus_filter(self) -> None: ...
    def sync_space(self) -> None: ...
    def set_details_visible(self, visible: bool) -> None: ...
    def reset_view(self) -> None: ...
    def statusBar(self) -> QStatusBar: ...

    @property
    def table(self) -> QTableView: ...
    @property
    def columns(self) -> TableColumns: ...
    def focus_page_field(self) -> None: ...


def command_table(target: CommandTarget) -> tuple[Command, ...]:
    """Every command of the window, in the language installed now.

    Each menu, and each place on the toolbar, shows its commands in the table's order.
    """
    sp, themed = QStyle.StandardPixmap, QIcon.ThemeIcon
    on_line_page = Need.ONLINE | Need.PAGE
    return (
        # The toolbar shows Open beside the space field, then Refresh and Export.
        Command(
            "open",
            QCoreApplication.translate("MainWindow", "&Open"),
            lambda: target.open_space(),
            toolbar=ToolbarPlace.SPACE,
            icon=themed.GoNext,
            fallback=sp.SP_ArrowForward,
            tip=QCoreApplication.translate("MainWindow", "Open the space whose id is entered"),
            needs=Need.ONLINE,
        ),
        Command(
            "refresh",
            QCoreApplication.translate("MainWindow", "&Refresh"),
            target.refresh,
            Menu.VIEW,
            toolbar=ToolbarPlace.END,
            shortcut="F5",
            icon=themed.ViewRefresh,
            fallback=sp.SP_BrowserReload,
            tip=QCoreApplication.translate("MainWindow", "Load the page again (F5)"),
            needs=Need.TARGET,
        ),
        Command(
            "stop_loading",
            QCoreApplication.translate("MainWindow", "&Stop Loading"),
            target.stop_loading,
            Menu.VIEW,
            shortcut="Esc",
            icon=themed.ProcessStop,
            fallback=sp.SP_BrowserStop,
            icon_text=QCoreApplication.translate("MainWindow", "Stop"),
            tip=QCoreApplication.translate(
                "MainWindow", "Stop loading the page; the page shown stays (Esc)"
            ),
            needs=Need.LOADING,
        ),
        # File
        Command(
            "focus_space",
            QCoreApplication.translate("MainWindow", "Open &Space…"),
            target.focus_space_field,
            Menu.FILE,
            shortcut="Ctrl+O",
            status_tip=QCoreApplication.translate(
                "MainWindow", "Type the id of a space and press Enter"
            ),
            needs=Need.ONLINE,
        ),
        Command(
            "export",
            QCoreApplication.translate("MainWindow", "&Export Page…"),
            lambda: target.exports.export_page(),
            Menu.FILE,
            toolbar=ToolbarPlace.END,
            shortcut="Ctrl+E",
            icon=themed.DocumentSaveAs,
            fallback=sp.SP_DialogSaveButton,
            icon_text=QCoreApplication.translate("MainWindow", "Export"),
            tip=QCoreApplication.translate(
                "MainWindow", "Save the cards of this page as a CSV or Excel file (Ctrl+E)"
            ),
            needs=Need.SHOWN,
        ),
        Command(
            "export_all",
            QCoreApplication.translate("MainWindow", "Export &All Pages…"),
            lambda: target.exports.export_all(),
            Menu.FILE,
            shortcut="Ctrl+Shift+E",
            tip=QCoreApplication.translate(
                "MainWindow", "Save every card of the space as a CSV or Excel file (Ctrl+Shift+E)"
            ),
            needs=Need.ONLINE | Need.SPACE_FETCHABLE,
        ),
        Command(
            "export_vcards",
            QCoreApplication.translate("MainWindow", "Export as &vCards…"),
            lambda: target.exports.export_vcards(),
            Menu.FILE,
            shortcut="Ctrl+Shift+K",
            tip=QCoreApplication.translate(
                "MainWindow",
                "Save the selected cards, or every card shown, as vCards that Outlook and "
                "phones import (Ctrl+Shift+K)",
            ),
            needs=Need.SHOWN,
        ),
        Command(
            "export_pdf",
            QCoreApplication.translate("MainWindow", "Export as P&DF…"),
            lambda: target.exports.export_pdf(),
            Menu.FILE,
            shortcut="Ctrl+Shift+P",
            tip=QCoreApplication.translate(
                "MainWindow",
                "Save the selected cards, or every card shown, as a phone list to print "
                "(Ctrl+Shift+P)",
            ),
            needs=Need.SHOWN,
        ),
        Command(
            "print",
            QCoreApplication.translate("MainWindow", "P&rint…"),
            lambda: target.exports.print_cards(),
            Menu.FILE,
            shortcut=QKeySequence.StandardKey.Print,
            icon=themed.DocumentPrint,
            tip=QCoreApplication.translate(
                "MainWindow", "Print the selected cards, or every card shown, as a phone list"
            ),
            needs=Need.SHOWN,
        ),
        Command(
            "sign_in",
            QCoreApplication.translate("MainWindow", "Sign &In…"),
            lambda: target.signInRequested.emit(),
            Menu.FILE,
            new_section=True,
            shortcut="Ctrl+L",
            icon=themed.UserAvailable,
            tip=QCoreApplication.translate(
                "MainWindow", "Sign in again to load cards from the server"
            ),
            visible=False,
        ),
        Command(
            "sign_out",
            QCoreApplication.translate("MainWindow", "Sign &Out"),
            target.sign_out,
            Menu.FILE,
            shortcut="Ctrl+Shift+L",
            icon=themed.SystemLogOut,
        ),
        Command(
            "preferences",
            QCoreApplication.translate("MainWindow", "&Preferences…"),
            target.open_preferences,
            Menu.FILE,
            new_section=True,
            shortcut="Ctrl+,",
            icon=themed.DocumentProperties,
            role=QAction.MenuRole.PreferencesRole,
        ),
        Command(
            "quit",
            QCoreApplication.translate("MainWindow", "&Quit"),
            target.close,
            Menu.FILE,
            new_section=True,
            shortcut="Ctrl+Q",
            icon=themed.ApplicationExit,
            role=QAction.MenuRole.QuitRole,
        ),
        # Edit
        Command(
            "copy",
            QCoreApplication.translate("MainWindow", "&Copy"),
            target.copy_selection,
            Menu.EDIT,
            shortcut=QKeySequence.StandardKey.Copy,
            icon=themed.EditCopy,
            status_tip=QCoreApplication.translate(
                "MainWindow", "Copy the selected cards for a spreadsheet"
            ),
            needs=Need.SHOWN,
        ),
        Command(
            "find",
            QCoreApplication.translate("MainWindow", "&Filter…"),
            target.focus_filter,
            Menu.EDIT,
            shortcut="Ctrl+F",
            icon=themed.EditFind,
            status_tip=QCoreApplication.translate(
                "MainWindow", "Show only the cards that match what you type"
            ),
        ),
        # View
        Command(
            "sync",
            QCoreApplication.translate("MainWindow", "S&ync Space"),
            target.sync_space,
            Menu.VIEW,
            shortcut="Ctrl+Shift+Y",
            icon_text=QCoreApplication.translate("MainWindow", "Sync Space"),
            tip=QCoreApplication.translate(
                "MainWindow",
                "Copy every card of the space to this computer: sort and filter them all, "
                "see what changed since the last sync, and open them offline",
            ),
            needs=Need.ONLINE | Need.SYNCABLE,
        ),
        Command(
            "details",
            QCoreApplication.translate("MainWindow", "&Details Pane"),
            target.set_details_visible,
            Menu.VIEW,
            new_section=True,
            shortcut="Ctrl+I",
            status_tip=QCoreApplication.translate(
                "MainWindow", "Show the selected card at a readable size"
            ),
            checkable=True,
        ),
        Command(
            "overview",
            QCoreApplication.translate("MainWindow", "&Overview…"),
            lambda: target.overview.open(),
            Menu.VIEW,
            shortcut="Ctrl+Shift+O",
            tip=QCoreApplication.translate(
                "MainWindow",
                "The space at a glance: totals, cards created per month, the most connected "
                "cards (Ctrl+Shift+O)",
            ),
            needs=Need.CARDS,
        ),
        Command(
            "sort",
            QCoreApplication.translate("MainWindow", "Sor&t by Column"),
            lambda: sort_by_current_column(target.table, target.statusBar()),
            Menu.VIEW,
            new_section=True,
            shortcut="Ctrl+Shift+S",
            status_tip=QCoreApplication.translate(
                "MainWindow",
                "Sort by the column of the current cell; again: the other way round, then "
                "in the space's own order",
            ),
            needs=Need.CARDS,
        ),
        Command(
            "columns",
            QCoreApplication.translate("MainWindow", "&Columns…"),
            lambda: open_columns_menu(target.columns, target.table),
            Menu.VIEW,
            shortcut="Ctrl+Shift+C",
            status_tip=QCoreApplication.translate("MainWindow", "Show or hide columns"),
        ),
        Command(
            "reset_view",
            QCoreApplication.translate("MainWindow", "Reset &View"),
            target.reset_view,
            Menu.VIEW,
            shortcut="Ctrl+0",
            status_tip=QCoreApplication.translate(
                "MainWindow",
                "Show every column in its first order and width, and the window at its size",
            ),
        ),
        # Go: the actions press the page bar's buttons, so both always agree.
        Command(
            "first_page",
            QCoreApplication.translate("MainWindow", "&First Page"),
            lambda: target.page_bar.first_button.click(),
            Menu.GO,
            shortcut="Alt+Home",
            needs=on_line_page | Need.FIRST_PAGE,
        ),
        Command(
            "previous_page",
            QCoreApplication.translate("MainWindow", "&Previous Page"),
            lambda: target.page_bar.previous_button.click(),
            Menu.GO,
            shortcut="Ctrl+PgUp",
            needs=on_line_page | Need.PREVIOUS_PAGE,
        ),
        Command(
            "next_page",
            QCoreApplication.translate("MainWindow", "&Next Page"),
            lambda: target.page_bar.next_button.click(),
            Menu.GO,
            shortcut="Ctrl+PgDown",
            needs=on_line_page | Need.NEXT_PAGE,
        ),
        Command(
            "last_page",
            QCoreApplication.translate("MainWindow", "&Last Page"),
            lambda: target.page_bar.last_button.click(),
            Menu.GO,
            shortcut="Alt+End",
            needs=on_line_page | Need.LAST_PAGE,
        ),
        Command(
            "go_to_page",
            QCoreApplication.translate("MainWindow", "&Go to Page…"),
            target.focus_page_field,
            Menu.GO,
            new_section=True,
            shortcut="Ctrl+G",
            status_tip=QCoreApplication.translate(
                "MainWindow", "Type a page number and press Enter"
            ),
            needs=on_line_page,
        ),
        # Help
        Command(
            "open_log_folder",
            QCoreApplication.translate("MainWindow", "Open &Log Folder"),
            lambda: target.help.open_log_folder(),
            Menu.HELP,
            tip=QCoreApplication.translate(
                "MainWindow",
                "Show the folder with the log file, to attach it to a problem report",
            ),
        ),
        Command(
            "about",
            QCoreApplication.translate("MainWindow", "&About %1").replace("%1", APP_NAME),
            lambda: target.help.show_about(),
            Menu.HELP,
            new_section=True,
            shortcut=QKeySequence.StandardKey.HelpContents,
            icon=themed.HelpAbout,
            role=QAction.MenuRole.AboutRole,
        ),
    )


def menu_title(menu: Menu) -> str:
    """The menu's title, with its mnemonic."""
    titles = {
        Menu.FILE: QCoreApplication.translate("MainWindow", "&File"),
        Menu.EDIT: QCoreApplication.translate("MainWindow", "&Edit"),
        Menu.VIEW: QCoreApplication.translate("MainWindow", "&View"),
        Menu.GO: QCoreApplication.translate("MainWindow", "&Go"),
        Menu.HELP: QCoreApplication.translate("MainWindow", "&Help"),
    }
    return titles[menu]


class WindowCommands:
    """The actions of `window`, one per command, and its menu bar, built from `commands`."""

    def __init__(self, window: QMainWindow, commands: tuple[Command, ...]) -> None:
        self.commands = commands
        self.actions: dict[str, QAction] = {}
        style = window.style()
        for command in commands:
            icon = QIcon()
            if command.icon is not None and command.fallback is not None:
                fallback = in_text_colour(style.standardIcon(command.fallback))  # light on dark
                icon = QIcon.fromTheme(command.icon, fallback)
            elif command.icon is not None:
                icon = QIcon.fromTheme(command.icon)
            self.actions[command.name] = self._action(command, icon, window)
        self._fill_menu_bar(window)

    def __getitem__(self, name: str) -> QAction:
        return self.actions[name]

    @staticmethod
    def _action(command: Command, icon: QIcon, window: QMainWindow) -> QAction:
        action = QAction(icon, command.text, window)
        if command.shortcut is not None:
            action.setShortcut(QKeySequence(command.shortcut))
        if command.icon_text:
            action.setIconText(command.icon_text)
        if command.tip:
            action.setToolTip(command.tip)
        if command.status_tip:
            action.setStatusTip(command.status_tip)
        if command.role is not None:
            action.setMenuRole(command.role)
        action.setVisible(command.visible)
        if command.checkable:
            action.setCheckable(True)
            action.toggled.connect(command.handler)
        else:
            action.triggered.connect(command.handler)
        return action

    def _fill_menu_bar(self, window: QMainWindow) -> None:
        for menu in Menu:
            entries = [command for command in self.commands if command.menu is menu]
            if not entries:
                continue
            bar_menu = window.menuBar().addMenu(menu_title(menu))
            for command in entries:
                if command.new_section:
                    bar_menu.addSeparator()
                bar_menu.addAction(self.actions[command.name])

    def toolbar_actions(self, place: ToolbarPlace) -> list[QAction]:
        """The actions the toolbar shows at `place`, in table order."""
        return [self.actions[c.name] for c in self.commands if c.toolbar is place]

    def update(self, met: Need) -> None:
        """Enable each command whose needs are all `met` (those without needs stay on)."""
        for command in self.commands:
            if command.needs:
                self.actions[command.name].setEnabled(command.needs in met)
