"""Every window can be used with the keyboard alone and with a screen reader.

Read through Qt's own accessibility interfaces, which are what the platform's bridge
(AT-SPI on Linux) hands a screen reader, and driven with real Tab presses. Each window,
in each of its states, must have:

- a name for every control a person can reach or operate, that a screen reader says:
  a choice (combo box) is named by its label, since on Linux its own name is the
  value it holds;
- the words on screen in that name (a button's text, a field's label or placeholder);
- descriptions that add to the name rather than repeat it, and never show markup;
- a Tab cycle through every control that takes the focus, back to where it started,
  with Shift+Tab the same cycle backwards: no control missed, none that keeps the
  focus (the table leaves Tab to the window; its arrows move within it).

A change the person did not move to (a page arrived, a filter ran, an error showed, a
job went on) is announced: the window sends a `QAccessibleAnnouncementEvent`.

The same walk on the real accessibility bus, as Orca reads it, is `make a11y`
(tests/a11y/); it is slower and needs a display server and a D-Bus session.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import (
    QAccessible,
    QAccessibleAnnouncementEvent,
    QAccessibleEvent,
    QAccessibleInterface,
)
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QLabel,
    QLineEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from cardviewer.api import CardPage
from cardviewer.api.client import read_page
from cardviewer.demo import DemoServer, Fault
from cardviewer.services.card_store import CardStore
from cardviewer.services.settings import Settings
from cardviewer.ui import window_announcements
from cardviewer.ui.export_all_dialog import ExportAllDialog
from cardviewer.ui.login.login_dialog import LoginDialog
from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.preferences_dialog import PreferencesDialog
from tests.ui.sign_ins import authenticate

R = QAccessible.Role
T = QAccessible.Text
WAIT = 15_000

CONTROLS = frozenset(
    {
        R.PushButton,
        R.CheckBox,
        R.RadioButton,
        R.ComboBox,
        R.EditableText,
        R.SpinBox,
        R.Slider,
        R.Dial,
        R.ButtonMenu,
        R.ButtonDropDown,
        R.ButtonDropGrid,
        R.PageTab,
        R.Link,
        R.Table,
        R.List,
        R.Tree,
        R.ListItem,
        R.Cell,
        R.ColumnHeader,
        R.MenuItem,
    }
)
"""Roles a person operates, whether or not they take the focus (a cell, a clear button)."""
PICTURES = frozenset({R.Graphic})
"""Roles a screen reader names as it reads past them, as Orca does a picture."""


# Reading the tree


def accessibles(root: QWidget) -> Iterator[QAccessibleInterface]:
    """Every accessible shown in `root`'s window part, depth first (hidden ones left out)."""
    stack = [QAccessible.queryAccessibleInterface(root)]
    while stack:
        node = stack.pop()
        if node is None or not node.isValid() or node.state().invisible:
            continue
        yield node
        stack.extend(node.child(i) for i in reversed(range(node.childCount())))


def is_control(node: QAccessibleInterface) -> bool:
    return node.role() in CONTROLS | PICTURES or bool(node.state().focusable)


def labels_of(node: QAccessibleInterface) -> list[str]:
    """The texts of the labels that label `node` (AT-SPI's labelled-by relation)."""
    return [
        other.text(T.Name).strip()
        for other, _relation in node.relations(QAccessible.RelationFlag.Label)
        if other is not None and other.isValid()
    ]


def heard_name(node: QAccessibleInterface) -> str:
    """The name a screen reader says for `node`.

    A combo box's name is its value on Linux (Qt's `QAccessibleComboBox`): what it is
    for is said by its label; without one it has no name, only a value.
    """
    name = node.text(T.Name).strip()
    if node.role() == R.ComboBox:
        labels = labels_of(node)
        return " ".join([*labels, name]) if labels else ""
    return name


def describe(node: QAccessibleInterface) -> str:
    """`node` by its role and name, and the widget it is or is in."""
    widget: QObject | None = node.object()
    if widget is None:  # a cell or a header section: name its view
        parent = node.parent()
        widget = parent.object() if parent is not None else None
    owner = type(widget).__name__ if widget is not None else "?"
    if widget is not None and widget.objectName():
        owner += f"#{widget.objectName()}"
    return f"{node.role().name} {node.text(T.Name)!r} in {owner}"


def plain(text: str) -> str:
    """`text` as words: no mnemonic &, no key in brackets at the end, no ellipsis or colon."""
    text = text.replace("&&", "\0").replace("&", "").replace("\0", "&")
    text = re.sub(r"\s*\([^()]*\)\s*$", "", text)
    text = text.replace("\N{HORIZONTAL ELLIPSIS}", "").replace("...", "")
    return " ".join(text.casefold().strip().rstrip(":").split())


def words_on_screen(widget: QWidget) -> list[str]:
    """The words `widget` shows for itself: a button's text; a field's label, or without
    one its placeholder (beside a label, a placeholder is an example of what to type).
    Symbols (a "✕") are no words."""
    if isinstance(widget, QAbstractButton):
        shown = [widget.text()]
    else:
        shown = [
            label.text()
            for label in widget.window().findChildren(QLabel)
            if label.buddy() is widget and label.isVisible()
        ]
        if isinstance(widget, QLineEdit) and not any(map(plain, shown)):
            shown.append(widget.placeholderText())
    return [text for text in shown if any(char.isalnum() for char in plain(text))]


def naming_faults(window: QWidget) -> list[str]:
    """The controls of `window` without a name, without their words, or described twice."""
    faults = []
    for node in accessibles(window):
        description = node.text(T.Description).strip()
        markup = description.startswith("<") and GuiQt.mightBeRichText(description)
        if markup:
            faults.append(f"{describe(node)}: a description in markup: {description[:60]!r}")
        if not is_control(node):
            continue
        name = heard_name(node)
        if not name:
            value = node.text(T.Name) if node.role() == R.ComboBox else ""
            held = f", only its value {value!r}" if value else ""
            faults.append(f"{describe(node)}: no name{held}")
            continue
        widget = node.object()
        if isinstance(widget, QWidget):
            for words in words_on_screen(widget):
                if plain(words) not in plain(name):
                    faults.append(f"{describe(node)}: its name {name!r} lacks {words!r}")
        said = plain(description)
        if said and (said == plain(name) or said in plain(name)):
            faults.append(f"{describe(node)}: its description {description!r} repeats it")
    return faults


# Tab


def focus_target(widget: QWidget) -> QWidget:
    """The widget that gets the focus when `widget` is given it."""
    while (proxy := widget.focusProxy()) is not None:
        widget = proxy
    return widget


def tab_stops(window: QWidget) -> set[QWidget]:
    """The controls of `window` shown and enabled that Tab should reach."""
    return {
        focus_target(widget)
        for widget in window.findChildren(QWidget)
        if widget.window() is window
        and widget.isVisible()
        and widget.isEnabled()
        and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
    }


def name_of(widget: QWidget | None) -> str:
    if widget is None:
        return "nothing"
    node = QAccessible.queryAccessibleInterface(widget)
    said = heard_name(node) if node is not None else ""
    return f"{type(widget).__name__}({widget.objectName() or said!r})"


def press(widget: QWidget, key: Qt.Key, modifiers: Qt.KeyboardModifier) -> QWidget | None:
    QTest.keyClick(widget, key, modifiers)
    return QApplication.focusWidget()


def tab_cycle(
    window: QWidget, start: QWidget, *, backwards: bool = False
) -> tuple[list[QWidget], str | None]:
    """The widgets Tab (or Shift+Tab) visits from `start` until it is back; what went wrong."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    first = QApplication.focusWidget()
    assert first is focus_target(start), f"{name_of(start)} does not take the focus"
    key, modifiers = Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier
    if backwards:
        key, modifiers = Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier
    stops = tab_stops(window)
    visited = [first]
    for _ in range(2 * len(stops) + 4):
        current = visited[-1]
        after = press(current, key, modifiers)
        if after is None or after.window() is not window:
            return visited, f"Tab leaves the window from {name_of(current)} (to {name_of(after)})"
        if after is first:
            return visited, None
        if after is current and len(stops) > 1:
            return visited, f"Tab does not leave {name_of(current)}: a focus trap"
        if after in visited:
            path = " → ".join(name_of(w) for w in visited[visited.index(after) :])
            return visited, f"Tab goes round {path} and never back to {name_of(first)}"
        visited.append(after)
    return visited, f"Tab does not come back to {name_of(first)}"


def keyboard_faults(window: QWidget, start: QWidget) -> list[str]:
    """What is wrong with the Tab cycle of `window` from `start`, both ways round."""
    faults = []
    forwards, fault = tab_cycle(window, start)
    faults += [fault] if fault else []
    backwards, fault = tab_cycle(window, start, backwards=True)
    faults += [f"Shift+{fault}"] if fault else []
    missed = tab_stops(window) - set(forwards)
    faults += [f"Tab never reaches {name_of(widget)}" for widget in missed]
    if not faults and backwards[1:] != forwards[:0:-1]:
        faults.append(
            "Shift+Tab does not retrace Tab: "
            + " → ".join(map(name_of, backwards))
            + " against "
            + " → ".join(map(name_of, forwards))
        )
    return faults


def activate(qtbot: QtBot, window: QWidget) -> None:
    """Show `window` and make it the one the keyboard types into."""
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


# Announcements


class Announcements:
    """What was announced while it is installed, with accessibility made active.

    Only the app's calls of `QAccessible.updateAccessibility` are seen (Qt's own events
    go straight to the platform); each announcement is kept with whether it interrupts.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.heard: list[tuple[str, bool, QObject | None]] = []
        monkeypatch.setattr(QAccessible, "isActive", staticmethod(lambda: True))
        monkeypatch.setattr(QAccessible, "updateAccessibility", staticmethod(self._record))

    def _record(self, event: QAccessibleEvent) -> None:
        if isinstance(event, QAccessibleAnnouncementEvent):
            assert event.type() == QAccessible.Event.Announcement
            assertive = event.politeness() == QAccessible.AnnouncementPoliteness.Assertive
            self.heard.append((event.message(), assertive, event.object()))

    @property
    def said(self) -> list[str]:
        return [message for message, _assertive, _source in self.heard]

    def interrupted(self) -> list[str]:
        return [message for message, assertive, _source in self.heard if assertive]

    def clear(self) -> None:
        self.heard.clear()


@pytest.fixture
def announcements(monkeypatch: pytest.MonkeyPatch) -> Announcements:
    return Announcements(monkeypatch)


# The sign-in dialog


def test_the_sign_in_dialog_names_its_controls_and_logo_and_says_its_messages(
    qtbot, qloop, language, announcements: Announcements
) -> None:
    dialog = LoginDialog(authenticate, email="ada@example.com")
    qtbot.addWidget(dialog)
    activate(qtbot, dialog)
    logo = QCoreApplication.translate("LoginDialog", "%1 logo").replace("%1", "CardViewer")
    assert logo in [node.text(T.Name) for node in accessibles(dialog)]
    found = naming_faults(dialog) + keyboard_faults(dialog, dialog.server_edit)

    dialog.server_edit.setText("not a url")
    dialog.password_edit.setText("a password")
    dialog.submit()  # refused at once: no web address
    assert dialog.message
    assert announcements.interrupted() == [dialog.message]
    found += [f"with a message: {f}" for f in naming_faults(dialog)]
    found += [f"with a message: {f}" for f in keyboard_faults(dialog, dialog.server_edit)]
    assert not found, "\n".join(found)


# The main window


@pytest.fixture
def window(qtbot, demo_window: MainWindow) -> MainWindow:
    activate(qtbot, demo_window)
    return demo_window


def load(qtbot: QtBot, window: MainWindow, action: Callable[[], object]) -> None:
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        action()


def test_the_main_window_in_each_state_names_every_control_and_tabs_through_all(
    language: str, window: MainWindow, qtbot, demo_server: DemoServer
) -> None:
    found: list[str] = []

    def look(state: str, start: QWidget | None = None) -> None:
        found.extend(f"{state}: {fault}" for fault in naming_faults(window))
        start = start or window.space_combo
        activate(qtbot, window)  # again, after a dialog
        found.extend(f"{state}: {fault}" for fault in keyboard_faults(window, start))

    look("no space open")
    load(qtbot, window, lambda: window.open_space(demo_server.space_id))
    window.table.setCurrentIndex(window.proxy.index(0, 1))
    look("a page, a card in the details pane", window.table)
    window.details_action.trigger()
    look("without the details pane", window.table)
    window.details_action.trigger()
    window.filter_edit.setText("no card is called so")
    look("no card matches the filter", window.filter_edit)
    window.filter_edit.clear()
    load(qtbot, window, lambda: window.go_to_page(999))
    look("a page past the last")
    load(qtbot, window, lambda: window.go_to_page(1))
    demo_server.faults.inject(Fault.HTML_502)
    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        window.refresh()
    assert window.error_bar.isVisible()
    look("an error in the error bar", window.table)

    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT):
        window.sync_action.trigger()
    switch = window.whole_space.switch
    assert switch.isVisible()
    look("the whole space, synced", window.table)
    forwards, _fault = tab_cycle(window, window.table)
    assert forwards[forwards.index(switch) + 1] is window.filter_edit, "Tab goes as read"

    demo_server.faults.inject(Fault.REVOKED_TOKEN)
    window.whole_space.switch.setCurrentIndex(0)
    window.whole_space.switch.activated.emit(0)  # back to the pages, as chosen
    with qtbot.waitSignal(window.signInRequested, timeout=WAIT):
        window.refresh()
    look("signed out", window.filter_edit)
    assert not found, "\n".join(found)
    bar = window.error_bar
    shown = [w for w in bar.findChildren(QAbstractButton) if w.isVisible()]
    assert len(shown) >= 2, "the note offers a way on, and Close"
    forwards, _fault = tab_cycle(window, window.filter_edit)
    in_bar = [widget for widget in forwards if widget in shown]
    assert in_bar == sorted(shown, key=lambda w: w.x()), "the bar's buttons in Tab as read"


def test_tab_leaves_the_table_and_the_arrows_move_in_it(
    window: MainWindow, qtbot, demo_server: DemoServer
) -> None:
    load(qtbot, window, lambda: window.open_space(demo_server.space_id))
    table = window.table
    table.setCurrentIndex(window.proxy.index(0, 1))
    keys = {
        "Tab": (Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier),
        "Shift+Tab": (Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier),
        "Ctrl+Tab": (Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier),
        "Ctrl+Shift+Tab": (
            Qt.Key.Key_Backtab,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        ),
    }
    landed = {}
    for name, (key, modifiers) in keys.items():
        table.setFocus(Qt.FocusReason.OtherFocusReason)
        landed[name] = press(table, key, modifiers)
    assert all(widget is not table for widget in landed.values()), landed
    assert landed["Tab"] is landed["Ctrl+Tab"]
    assert landed["Shift+Tab"] is landed["Ctrl+Shift+Tab"]
    assert table.currentIndex().row() == 0, "Tab does not move from cell to cell"

    table.setFocus(Qt.FocusReason.OtherFocusReason)
    assert press(table, Qt.Key.Key_Down, Qt.KeyboardModifier.NoModifier) is table
    assert press(table, Qt.Key.Key_Right, Qt.KeyboardModifier.NoModifier) is table
    assert (table.currentIndex().row(), table.currentIndex().column()) == (1, 2)

    # From the table, Tab reaches the details pane, its copy buttons and the page bar.
    forwards, fault = tab_cycle(window, table)
    assert fault is None
    after_table = forwards[1 : forwards.index(window.space_combo)]
    pane, bar = window.details_pane, window.page_bar
    assert any(pane.isAncestorOf(widget) for widget in after_table)
    assert pane.copy_json_button in after_table
    assert any(bar.isAncestorOf(widget) for widget in after_table)


def test_the_page_bar_tabs_in_its_order_and_names_its_keys(
    window: MainWindow, qtbot, demo_server: DemoServer
) -> None:
    load(qtbot, window, lambda: window.open_space(demo_server.space_id))
    load(qtbot, window, lambda: window.go_to_page(2))
    bar = window.page_bar
    forwards, fault = tab_cycle(window, bar.first_button)
    assert fault is None
    spin = focus_target(bar.page_spin)
    assert forwards[:5] == [
        bar.first_button,
        bar.previous_button,
        spin,
        bar.next_button,
        bar.last_button,
    ]
    for button, action in (
        (bar.first_button, window.first_page_action),
        (bar.previous_button, window.previous_page_action),
        (bar.next_button, window.next_page_action),
        (bar.last_button, window.last_page_action),
    ):
        key = action.shortcut().toString(action.shortcut().SequenceFormat.NativeText)
        assert button.accessibleDescription() == key
        assert button.toolTip() == button.accessibleName()


def test_the_table_reads_pictures_headings_and_empty_cells(
    window: MainWindow, qtbot, demo_server: DemoServer
) -> None:
    load(qtbot, window, lambda: window.open_space(demo_server.space_id))
    model, proxy = window.model, window.proxy
    avatar = model.column_of("avatar")
    assert avatar is not None
    headers = [n for n in accessibles(window.table) if n.role() == R.ColumnHeader]
    assert "Avatar" in [n.text(T.Name) for n in headers]
    cells = [n for n in accessibles(window.table) if n.role() == R.Cell]
    assert cells
    assert [describe(n) for n in cells if not n.text(T.Name).strip()] == []
    for row in range(proxy.rowCount()):
        card = proxy.card(row)
        assert card is not None
        name = proxy.index(row, avatar).data(Qt.ItemDataRole.AccessibleTextRole)
        if card.avatar is not None and not card.avatar.is_default:
            assert name == f"Picture of {card.display_name}"
        else:
            assert name == f"{card.display_name} has no picture"
    empty = [
        proxy.index(row, column)
        for row in range(proxy.rowCount())
        for column in range(proxy.columnCount())
        if column != avatar and not proxy.index(row, column).data()
    ]
    assert empty, "the demo's cards leave some fields empty"
    assert {index.data(Qt.ItemDataRole.AccessibleTextRole) for index in empty} == {"Not set"}


def test_the_details_pane_says_field_and_value_together(
    window: MainWindow, qtbot, demo_server: DemoServer
) -> None:
    load(qtbot, window, lambda: window.open_space(demo_server.space_id))
    window.table.setCurrentIndex(window.proxy.index(0, 1))
    pane = window.details_pane
    card = pane.card
    assert card is not None
    assert pane.avatar_label.accessibleName() in (
        f"Picture of {card.display_name}",
        f"{card.display_name} has no picture",
    )
    position = pane.findChild(QLabel, "value_position")
    assert position is not None
    assert position.accessibleName() == f"Position: {card.position or 'Not set'}"
    for button in (pane.copy_handle_button, pane.copy_emails_button, pane.copy_json_button):
        node = QAccessible.queryAccessibleInterface(button)
        assert node.text(T.Name) == button.text()
    assert pane.copy_handle_button.accessibleDescription() == card.username
    assert pane.scroll_area.accessibleName() == "Card details"
    assert pane.scroll_area.accessibleDescription() == card.display_name


def test_changes_out_of_the_focus_are_announced(
    window: MainWindow, qtbot, demo_server: DemoServer, announcements: Announcements, tmp_path
) -> None:
    load(qtbot, window, lambda: window.open_space(demo_server.space_id))
    assert "Page 1 of 24. Showing 1\N{EN DASH}10 of 240 cards" in announcements.said
    announcements.clear()
    load(qtbot, window, lambda: window.go_to_page(2))
    assert "Page 2 of 24. Showing 11\N{EN DASH}20 of 240 cards" in announcements.said

    window.filter_edit.setFocus()
    QTest.keyClicks(window.filter_edit, "zzz no one")
    qtbot.waitUntil(lambda: any("matches" in s for s in announcements.said))
    assert "No card on this page matches “zzz no one”" in announcements.said
    window.filter_edit.setText("a")  # in some names, not in all
    qtbot.waitUntil(lambda: any(s.endswith("of 10 shown") for s in announcements.said))
    window.filter_edit.clear()

    announcements.clear()
    demo_server.faults.inject(Fault.HTML_502)
    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        window.refresh()
    assert announcements.interrupted() == [window.error_bar.message]

    announcements.clear()
    window.table.setCurrentIndex(window.proxy.index(0, 1))
    window.details_pane.copy_json_button.click()
    assert "Copied the card as JSON" in announcements.said
    for _message, _assertive, source in announcements.heard:
        assert isinstance(source, QWidget)
        assert source.window() is window, "said by a part of the window"


def test_a_running_export_says_how_far_it_has_come(
    qtbot, qloop, tmp_path, announcements: Announcements, monkeypatch
) -> None:
    monkeypatch.setattr(window_announcements, "PROGRESS_EVERY_MS", 20)
    go_on = asyncio.Event()

    async def fetch(number: int) -> CardPage:
        if number > 1:
            await go_on.wait()
        cards = [{"uuid": f"c{number}-{n}", "display_name": f"Card {n}"} for n in range(10)]
        meta = {"current_page": number, "last_page": 5, "per_page": 10, "total": 50}
        body = {"data": cards, "links": {}, "meta": meta}
        return read_page(httpx.Response(200, json=body))

    open_dialog = window_announcements.announcing_progress(ExportAllDialog)
    dialog = open_dialog(fetch, tmp_path / "all.csv", space_id="acme", with_emails=False)
    qtbot.addWidget(dialog)
    task = qloop.create_task(dialog.run())
    qtbot.waitUntil(dialog.isVisible)
    activate(qtbot, dialog)
    found = naming_faults(dialog) + keyboard_faults(dialog, dialog.cancel_button)
    qtbot.waitUntil(lambda: "Page 1 of 5 · 10 cards" in announcements.said)
    go_on.set()
    qtbot.waitUntil(task.done, timeout=WAIT)
    assert task.result() == 50
    assert not found, "\n".join(found)


# Preferences and the export dialogs


@pytest.mark.parametrize("server_locked", [False, True], ids=["free", "locked"])
def test_preferences_name_every_control_and_tab_through_all(
    qtbot, tmp_path: Path, server_locked: bool
) -> None:
    settings = Settings(path=tmp_path / "settings.json", last_server="https://cards.example.com")
    dialog = PreferencesDialog(settings, server_locked=server_locked, signed_in=True)
    qtbot.addWidget(dialog)
    activate(qtbot, dialog)
    start = dialog.focusWidget() or dialog.ok_button
    found = naming_faults(dialog) + keyboard_faults(dialog, start)
    assert not found, "\n".join(found)


def test_sync_progress_names_its_controls(qtbot, qloop, tmp_path: Path) -> None:
    go_on = asyncio.Event()

    async def fetch(number: int) -> CardPage:
        await go_on.wait()  # cancelled before it is set
        raise AssertionError(number)

    dialog = ExportAllDialog(
        fetch, tmp_path / "space.sqlite", space_id="acme", with_emails=False, syncing=True
    )
    qtbot.addWidget(dialog)
    store = CardStore.open(tmp_path / "space.sqlite")
    task = qloop.create_task(dialog.sync(store))
    qtbot.waitUntil(dialog.isVisible)
    activate(qtbot, dialog)
    found = naming_faults(dialog) + keyboard_faults(dialog, dialog.cancel_button)
    dialog.cancel()
    qtbot.waitUntil(task.done, timeout=WAIT)
    store.close()
    assert not found, "\n".join(found)
