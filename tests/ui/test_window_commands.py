"""The window's command table: every command reads well, and the menus and toolbar show it all."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow

from cardviewer.api import CardPage, PageMeta
from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.page_bar import PageBar
from cardviewer.ui.window_commands import (
    NOTHING,
    Command,
    CommandActions,
    Menu,
    Need,
    ToolbarPlace,
    WindowCommands,
    WindowState,
    command_table,
    menu_title,
    needs_met,
)


class FakeExports:
    """Records which export command called it, for `FakeTarget`."""

    def __init__(self, calls: list[str]) -> None:
        self._calls = calls

    def export_page(self) -> None:
        self._calls.append("exports.export_page")

    def export_all(self) -> None:
        self._calls.append("exports.export_all")

    def export_vcards(self) -> None:
        self._calls.append("exports.export_vcards")

    def export_pdf(self) -> None:
        self._calls.append("exports.export_pdf")

    def print_cards(self) -> None:
        self._calls.append("exports.print_cards")


class FakeTarget(QObject):
    """Records which command called it."""

    signInRequested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.page_bar = PageBar()
        self.calls: list[str] = []
        self.exports = FakeExports(self.calls)

    def _record(self, name: str) -> None:
        self.calls.append(name)

    def open_space(self, space_id: str | None = None) -> None:
        self._record(f"open_space({space_id!r})")

    def sign_out(self) -> None:
        self._record("sign_out")

    def focus_space_field(self) -> None:
        self._record("focus_space_field")

    def refresh(self) -> None:
        self._record("refresh")

    def stop_loading(self) -> None:
        self._record("stop_loading")

    def open_preferences(self) -> None:
        self._record("open_preferences")

    def close(self) -> bool:
        self._record("close")
        return True

    def copy_selection(self) -> None:
        self._record("copy_selection")

    def focus_filter(self) -> None:
        self._record("focus_filter")

    def sync_space(self) -> None:
        self._record("sync_space")

    def set_details_visible(self, visible: bool) -> None:
        self._record(f"set_details_visible({visible})")

    def reset_view(self) -> None:
        self._record("reset_view")

    def focus_page_field(self) -> None:
        self._record("focus_page_field")

    def open_log_folder(self) -> None:
        self._record("open_log_folder")

    def show_about(self) -> None:
        self._record("show_about")


@pytest.fixture
def target(qtbot) -> FakeTarget:
    fake = FakeTarget()
    qtbot.addWidget(fake.page_bar)
    return fake


@pytest.fixture
def table(target) -> tuple[Command, ...]:
    return command_table(target)


@pytest.fixture
def built(qtbot, table) -> tuple[QMainWindow, WindowCommands]:
    window = QMainWindow()
    qtbot.addWidget(window)
    return window, WindowCommands(window, table)


def test_every_command_has_a_name_and_text(table):
    names = [command.name for command in table]
    assert len(set(names)) == len(names)
    for command in table:
        assert command.text.strip(), command.name
        assert command.menu is not None or command.toolbar is not None, command.name


def test_the_shortcuts_are_unique(table):
    shortcuts = [QKeySequence(c.shortcut).toString() for c in table if c.shortcut is not None]
    assert all(shortcuts)
    assert len(set(shortcuts)) == len(shortcuts)


def test_each_menu_holds_exactly_its_commands_in_table_order(built, table):
    window, _commands = built
    bar_menus = [action.menu() for action in window.menuBar().actions()]
    assert [menu.title() for menu in bar_menus] == [menu_title(menu) for menu in Menu]
    for menu, bar_menu in zip(Menu, bar_menus, strict=True):
        texts = [action.text() for action in bar_menu.actions() if not action.isSeparator()]
        assert texts == [c.text for c in table if c.menu is menu], menu


def test_the_file_menu_s_exports_of_cards_come_first_and_print_last(table):
    """Export All Pages… came after Print…, away from Export Page…"""
    files = [command.name for command in table if command.menu is Menu.FILE]
    exports = files[files.index("export") : files.index("print") + 1]
    assert exports == ["export", "export_all", "export_vcards", "export_pdf", "print"]


def test_a_new_section_starts_after_a_separator(built, table):
    window, commands = built
    for bar_action in window.menuBar().actions():
        actions = bar_action.menu().actions()
        for before, action in itertools.pairwise(actions):
            if action.isSeparator():
                continue
            (command,) = [c for c in table if commands[c.name] is action]
            assert command.new_section == before.isSeparator(), command.name


def test_the_toolbar_places_hold_exactly_their_commands(built, table):
    _window, commands = built
    for place in ToolbarPlace:
        actions = commands.toolbar_actions(place)
        assert actions == [commands[c.name] for c in table if c.toolbar is place]
    assert [a.text() for a in commands.toolbar_actions(ToolbarPlace.END)] == [
        "&Refresh",
        "&Export Page…",
    ]


def test_each_action_calls_its_handler(built, target):
    _window, commands = built
    commands["export"].trigger()
    commands["open"].trigger()
    commands["details"].trigger()
    commands["details"].setChecked(False)
    assert target.calls == [
        "exports.export_page",
        "open_space(None)",
        "set_details_visible(True)",
        "set_details_visible(False)",
    ]


def test_the_card_exports_and_print_call_the_export_commands(built, target):
    _window, commands = built
    for name in ("export_vcards", "export_pdf", "print"):
        commands[name].trigger()
    assert target.calls == [
        "exports.export_vcards",
        "exports.export_pdf",
        "exports.print_cards",
    ]


@pytest.mark.usefixtures("language")
@pytest.mark.parametrize("whole_space", [False, True], ids=["pages", "whole space"])
def test_no_two_entries_of_a_menu_share_a_mnemonic(demo_window, whole_space):
    """Alt and a letter picks one entry, in English and in German, also where the whole
    space is shown (German's "Angezeigte Karten &exportieren…" took Alt+E from
    "&Einstellungen…")."""
    demo_window.whole_space._name_export(whole_space=whole_space)
    for menu_action in demo_window.menuBar().actions():
        menu = menu_action.menu()
        assert menu is not None
        letters = [
            text[text.index("&") + 1].casefold()
            for action in menu.actions()
            if "&" in (text := action.text().replace("&&", ""))
        ]
        assert len(letters) == len(set(letters)), (menu_action.text(), letters)


def test_the_session_commands_ask_the_window(built, target, qtbot):
    _window, commands = built
    commands["sign_out"].trigger()
    assert target.calls == ["sign_out"]
    with qtbot.waitSignal(target.signInRequested):
        commands["sign_in"].trigger()
    assert not commands["sign_in"].isVisible()


def test_commands_are_enabled_when_their_needs_are_met(built, table):
    _window, commands = built
    commands.update(NOTHING)
    for command in (c for c in table if c.visible):  # a hidden action reports disabled
        assert commands[command.name].isEnabled() == (not command.needs), command.name
    commands.update(Need.ONLINE | Need.PAGE | Need.NEXT_PAGE)
    enabled = {c.name for c in table if commands[c.name].isEnabled() and c.needs}
    assert enabled == {"open", "focus_space", "next_page", "go_to_page"}


def test_paging_commands_press_the_page_bar_buttons(built, target, qtbot):
    _window, commands = built
    meta = {"current_page": 3, "last_page": 5, "per_page": 10, "total": 50}
    target.page_bar.set_meta(PageMeta.model_validate(meta))
    asked: list[int] = []
    target.page_bar.pageRequested.connect(asked.append)
    for name in ("first_page", "previous_page", "next_page", "last_page"):
        commands[name].trigger()
    assert asked == [1, 2, 4, 5]


def test_the_window_has_an_attribute_for_each_command(qtbot, table):
    annotated = {
        name.removesuffix("_action")
        for name, kind in CommandActions.__annotations__.items()
        if name.endswith("_action") and kind in ("QAction", QAction)
    }
    assert annotated == {command.name for command in table}
    assert issubclass(MainWindow, CommandActions)


def test_nothing_is_met_before_a_page_is_asked_for(target):
    nothing_yet = WindowState(
        online=False,
        page=None,
        has_target=False,
        space_fetchable=False,
        page_bar=target.page_bar,
    )
    assert needs_met(nothing_yet) == NOTHING


def signed_in(target: FakeTarget, **state: Any) -> WindowState:
    """The window signed in with a space asked for and no page yet, but for `state`."""
    base = WindowState(
        online=True, page=None, has_target=True, space_fetchable=True, page_bar=target.page_bar
    )
    return replace(base, **state)


def test_the_needs_met_follow_the_window_and_its_page_bar(target):
    meta = {"current_page": 1, "last_page": 2, "per_page": 1, "total": 2}
    target.page_bar.set_meta(PageMeta.model_validate(meta))
    page = CardPage.model_validate({"cards": (), "meta": meta, "links": {}})
    shown = signed_in(target, page=page)
    held = Need.ONLINE | Need.PAGE | Need.TARGET | Need.SPACE_FETCHABLE
    assert needs_met(shown) == held | Need.NEXT_PAGE | Need.LAST_PAGE, "an empty page has no cards"


def test_loading_is_met_only_while_a_page_is_on_its_way(target):
    state = signed_in(target, space_fetchable=False, loading=True)
    assert needs_met(state) & Need.LOADING
    assert not needs_met(replace(state, loading=False)) & Need.LOADING


def test_a_space_can_be_synced_only_where_its_copy_can_be_kept(target):
    state = signed_in(target, syncable=True)
    assert needs_met(state) & Need.SYNCABLE
    assert not needs_met(replace(state, syncable=False)) & Need.SYNCABLE
    assert not needs_met(replace(state, space_fetchable=False)) & Need.SYNCABLE


def test_what_works_on_the_cards_shown_needs_some_shown(target, table):
    """Of the whole space, those a filter leaves; of a page, the page's cards, which
    are exported whole whatever its filter leaves."""
    whole_space = signed_in(target, whole_space=True, space_cards=True, space_shown=True)
    assert needs_met(whole_space) & (Need.CARDS | Need.SHOWN) == Need.CARDS | Need.SHOWN
    none_left = needs_met(replace(whole_space, space_shown=False))
    assert none_left & Need.CARDS, "the filter and the overview stay"
    assert not none_left & Need.SHOWN
    meta = {"current_page": 1, "last_page": 1, "per_page": 1, "total": 1}
    page = CardPage.model_validate({"cards": [{"uuid": "a"}], "meta": meta, "links": {}})
    pages = replace(whole_space, whole_space=False, page=page, space_cards=False)
    assert needs_met(pages) & (Need.CARDS | Need.SHOWN) == Need.CARDS | Need.SHOWN
    needs = {command.name: command.needs for command in table}
    assert all(needs[name] == Need.SHOWN for name in ("export", "export_vcards", "export_pdf"))
    assert needs["print"] == needs["copy"] == Need.SHOWN


def test_going_to_a_page_waits_for_the_pages_while_the_whole_space_is_shown(target, table):
    """Go to Page… put the focus in the hidden page bar's field, and Next Page loaded
    the server's next page unseen behind the whole space."""
    meta = {"current_page": 1, "last_page": 2, "per_page": 1, "total": 2}
    target.page_bar.set_meta(PageMeta.model_validate(meta))
    page = CardPage.model_validate({"cards": [{"uuid": "a"}], "meta": meta, "links": {}})
    pages = signed_in(target, page=page)
    assert needs_met(pages) & Need.PAGE
    whole_space = replace(pages, whole_space=True, space_cards=True, space_shown=True)
    assert not needs_met(whole_space) & Need.PAGE
    paging = {"first_page", "previous_page", "next_page", "last_page", "go_to_page"}
    assert all(command.needs & Need.PAGE for command in table if command.name in paging)
