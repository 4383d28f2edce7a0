"""Every window and dialog shows its texts whole, in English and German, small and at 800x600.

Each window is shown at the smallest size it allows and at 800x600, and every label,
button and message in it must fit its text: a word-wrapped label must be as high as
its text needs at its width, any other label or button as wide as its text. Texts
cut short on purpose, with the whole text in a tooltip, are listed as exceptions.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Collection
from functools import partial
from pathlib import Path

import httpx
import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QFormLayout,
    QLabel,
    QStatusBar,
    QWidget,
)
from pytestqt.qtbot import QtBot

from cardviewer.api import CardPage
from cardviewer.api.client import read_page
from cardviewer.demo import DemoServer, Fault
from cardviewer.services.card_store import CardStore
from cardviewer.services.settings import Settings
from cardviewer.services.store_schema import SCHEMA_VERSION
from cardviewer.ui.cards.card_details import CardDetailsPane
from cardviewer.ui.export_all_dialog import ExportAllDialog
from cardviewer.ui.login.login_dialog import LoginDialog
from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.preferences_dialog import PreferencesDialog
from tests.ui.conftest import MakeDemoWindow
from tests.ui.sign_ins import SILENT_SERVER, authenticate, failed_sign_ins

LONG_WORD = 30
"""A word longer than this (an address, a link) may be wider than the details pane."""
SMALLEST = QSize(1, 1)
"""Asked for, a window is as small as it allows (its minimum size)."""
SMALL_SCREEN = QSize(800, 600)
SIZES = {"smallest": SMALLEST, "800x600": SMALL_SCREEN}


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> QSize:
    """The size a window is asked to take: its smallest, or a small screen's."""
    return SIZES[request.param]


def _name(widget: QWidget) -> str:
    name = widget.objectName() or widget.accessibleName()
    return f"{type(widget).__name__}({name})" if name else type(widget).__name__


def clipped(window: QWidget, elided: Collection[QWidget] = ()) -> list[str]:
    """The labels, buttons and lists shown in `window` that do not fit their text.

    `elided` are widgets whose text is cut short on purpose (their tooltip says it whole).
    """
    found: list[str] = []
    for widget in window.findChildren(QWidget):
        if not widget.isVisible() or widget in elided:
            continue
        size = widget.size()
        if isinstance(widget, QLabel) and widget.text():
            if widget.wordWrap():
                needed = widget.heightForWidth(size.width())
                if needed > size.height():
                    found.append(
                        f"{_name(widget)} {widget.text()!r} needs {needed} px of height "
                        f"at {size.width()} px wide, has {size.height()}"
                    )
                continue
            text = widget.text()
        elif isinstance(widget, QAbstractButton) and widget.text():
            text = widget.text()
        elif isinstance(widget, QComboBox) and not widget.isEditable() and widget.currentText():
            text = widget.currentText()
        else:
            continue
        hint = widget.sizeHint().width()
        if hint > size.width():
            found.append(f"{_name(widget)} {text!r} needs {hint} px of width, has {size.width()}")
    return found


def _geometry(window: QWidget) -> list[tuple[int, int, int, int]]:
    widgets = [window, *window.findChildren(QWidget)]
    return [(w.x(), w.y(), w.width(), w.height()) for w in widgets if w.isVisible()]


def status_message_clipped(status: QStatusBar) -> list[str]:
    """The status bar's message, if the widgets at its right end leave it too little room.

    The bar paints its message itself, from 6 px on to 2 px before the first permanent
    widget shown (or 12 px before its end), as `QStatusBar` does. A message is one line
    whatever the window's width, so it is looked at on a small screen, not at the
    window's smallest size.
    """
    right = status.width() - 12
    permanent = [w for w in status.findChildren(QWidget) if w.isVisible() and w.x() > 0]
    if permanent:
        right = min(right, min(w.x() for w in permanent) - 2)
    room = right - 6
    message = status.currentMessage()
    needed = status.fontMetrics().horizontalAdvance(message)
    if needed <= room:
        return []
    return [f"the status bar's message {message!r} needs {needed} px of width, has {room}"]


def settle(qtbot: QtBot, window: QWidget) -> None:
    """Let `window` lay itself out, until nothing in it moves any more.

    A layout tells the one around it of a change by an event: a window of nested
    layouts takes a few rounds of events to settle.
    """
    before: list[tuple[int, int, int, int]] = []

    def settled() -> bool:
        nonlocal before
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QCoreApplication.processEvents()
        now = _geometry(window)
        done = now == before
        before = now
        return done

    qtbot.waitUntil(settled, timeout=5000)


def show_at(qtbot: QtBot, window: QWidget, size: QSize) -> None:
    """Show `window` as large as `size`, or as small as it allows."""
    window.show()
    qtbot.waitExposed(window)
    window.resize(size)
    settle(qtbot, window)


def fits(qtbot: QtBot, window: QWidget, elided: Collection[QWidget] = ()) -> list[str]:
    """What of `window` does not fit, once it has laid itself out."""
    settle(qtbot, window)
    return clipped(window, elided)


# The sign-in dialog


def test_the_sign_in_dialog_shows_each_message_whole(
    qtbot, qloop, demo_server, language, size
) -> None:
    dialog = LoginDialog(authenticate, email=demo_server.email)
    qtbot.addWidget(dialog)
    found: list[str] = []

    def look(state: str) -> None:
        found.extend(f"{state}: {fault}" for fault in fits(qtbot, dialog))
        dialog.resize(size)  # for the next message

    show_at(qtbot, dialog, size)
    look("as opened")
    for note in (
        QCoreApplication.translate("App", "Your session has ended; please sign in again."),
        QCoreApplication.translate("App", "Your session has expired; please sign in again."),
    ):
        dialog.set_message(note)
        look(note)
    for server, password in failed_sign_ins(demo_server):
        dialog.server_edit.setText(server)
        dialog.password_edit.setText(password)
        dialog.submit()
        qtbot.waitUntil(lambda: dialog.busy_label.isHidden(), timeout=10_000)
        assert dialog.message, server
        look(server)

    dialog.server_edit.setText(SILENT_SERVER)
    dialog.password_edit.setText("a password")  # cleared by the refusal before
    dialog.submit()
    assert not dialog.busy_label.isHidden()
    look("signing in")
    dialog.cancel_button.click()
    assert dialog.message
    look("cancelled")
    assert not found, "\n".join(found)


# The main window, its error bar and its state pages

WAIT = 15_000


def _timeout(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("timed out", request=request)


def _too_large(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Length": str(1 << 30)}, content=b"")


def _page(current: int, *, last: int, total: int) -> Callable[[httpx.Request], httpx.Response]:
    def answer(request: httpx.Request) -> httpx.Response:
        cards = [{"uuid": f"p{current}-c{n}", "display_name": f"Card {n}"} for n in range(10)]
        meta = {"current_page": current, "last_page": last, "per_page": 10, "total": total}
        return httpx.Response(200, json={"data": cards, "links": {}, "meta": meta})

    return answer


FAULTY_PAGES: dict[int, Callable[[httpx.Request], httpx.Response]] = {
    90: _timeout,
    91: _too_large,
    92: _page(1, last=24, total=240),  # another page than the one asked for
    93: _page(93, last=200_000, total=2_000_000),  # more cards than can be listed
    94: _page(94, last=1_000_000_000, total=10),  # pages and cards that do not add up
}
"""Pages of any space that fail as the demo server cannot make them fail."""

DEMO_FAULTS = [
    (Fault.HTML_502, 1),
    (Fault.TRUNCATED_JSON, 1),
    (Fault.DROP_CONNECTION, 1),
    (Fault.RATE_LIMITED, 5),
    (Fault.RATE_LIMITED, 300),  # longer than the client waits: said in minutes
    (Fault.SERVICE_UNAVAILABLE, 1),
]
"""The demo server's faults of a page, each with the seconds it asks to wait (Retry-After)."""


class FaultyPages(httpx.AsyncBaseTransport):
    """The demo server, except for the pages in `FAULTY_PAGES`."""

    def __init__(self) -> None:
        self._server = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        fault = FAULTY_PAGES.get(int(request.url.params.get("page", "0")))
        if fault is None:
            return await self._server.handle_async_request(request)
        return fault(request)

    async def aclose(self) -> None:
        await self._server.aclose()


@pytest.fixture
def window(demo_windows: MakeDemoWindow, language: str) -> MainWindow:
    """A main window in `language`, over the demo server but for `FAULTY_PAGES`."""
    return demo_windows(transport=FaultyPages())


def elided(window: MainWindow) -> list[QWidget]:
    """The main window's texts cut short on purpose, each with its whole text as tooltip."""
    switch = window.whole_space.switch
    if switch.isVisible():
        assert switch.toolTip() == switch.currentText()
    account = window.account_label  # gives way to a message that needs its room
    if account.is_cut():
        assert account.whole_text() in account.toolTip()
        assert account.fontMetrics().horizontalAdvance(account.text()) <= account.width()
    return [switch, account]


def walk_main_window(
    window: MainWindow,
    qtbot: QtBot,
    demo_server: DemoServer,
    export_path: Path,
    look: Callable[[str], None],
) -> None:
    """Bring `window` into each of its states, and `look` at each by name."""

    def load(action: Callable[[], object]) -> None:
        with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
            action()

    def fail(action: Callable[[], object]) -> None:
        with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
            action()

    look("no space open")
    load(lambda: window.open_space(demo_server.space_id))
    window.table.setCurrentIndex(window.proxy.index(0, 1))
    card = window.details_pane.card
    assert card is not None
    look("a page, and a card in the details pane")
    window.details_action.trigger()
    assert window.details_pane.isHidden()
    look("without the details pane")
    window.details_action.trigger()
    window.filter_edit.setText("no card is called so")
    look("no card matches the filter")
    window.filter_edit.setText(card.display_name or "")
    look("a filter")
    window.filter_edit.clear()
    load(lambda: window.go_to_page(999))
    look("a page past the last")
    load(lambda: window.go_to_page(1))

    for fault, retry_after in DEMO_FAULTS:
        demo_server.faults.inject(fault, retry_after=retry_after)
        fail(window.refresh)
        look(fault.name)
    for page in FAULTY_PAGES:
        fail(partial(window.go_to_page, page))
        look(f"page {page}")
    demo_server.faults.inject(Fault.HTML_502)
    fail(lambda: window.open_space("another-space"))
    look("another space failed")

    def ask_export_path(suggested: Path, title: str = "") -> Path | None:
        return export_path

    window.ask_export_path = ask_export_path  # type: ignore[method-assign]
    for job in (window.export_all_action, window.sync_action):
        demo_server.faults.inject(Fault.HTML_502, times=50)
        with qtbot.waitSignal(window.jobs.failed, timeout=WAIT):
            job.trigger()
        demo_server.faults.clear()
        look(job.text())

    copy = window.whole_space.store_path(demo_server.space_id)
    assert copy is not None
    with CardStore.open(copy):
        pass
    with sqlite3.connect(copy) as db:  # as a newer CardViewer leaves it
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    assert not window.whole_space.show_copy(copy)
    look("a local copy of a newer version")
    copy.unlink()

    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT):
        window.sync_action.trigger()
    assert window.whole_space.switch.isVisible()
    look("the whole space, synced")
    with CardStore.open(copy) as store:  # a copy before it: one card short, one renamed
        every = list(store.cards())
        earlier = store.begin_sync()
        earlier.add([every[1].model_copy(update={"display_name": "Renamed"}), *every[2:]])
        earlier.finish()
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT):
        window.sync_action.trigger()
    assert "1" in window.statusBar().currentMessage()
    look("the whole space, synced again with changes")

    demo_server.faults.inject(Fault.REVOKED_TOKEN)
    with qtbot.waitSignal(window.signInRequested, timeout=WAIT):
        window.refresh()
    look("signed out")


def test_the_main_window_shows_its_texts_whole(
    window: MainWindow, qtbot, demo_server: DemoServer, language, size, tmp_path
) -> None:
    found: list[str] = []

    def look(state: str) -> None:
        window.resize(size)
        faults = fits(qtbot, window, elided(window))
        if size == SMALL_SCREEN:
            faults += status_message_clipped(window.statusBar())
        found.extend(f"{state}: {fault}" for fault in faults)

    show_at(qtbot, window, size)
    walk_main_window(window, qtbot, demo_server, tmp_path / "everyone.csv", look)
    assert not found, "\n".join(found)


# Preferences


@pytest.mark.parametrize("server_locked", [False, True], ids=["free", "locked"])
def test_preferences_show_their_texts_whole(
    qtbot, tmp_path, language, size, server_locked: bool
) -> None:
    settings = Settings(path=tmp_path / "settings.json", last_server="https://cards.example.com")
    dialog = PreferencesDialog(settings, server_locked=server_locked, signed_in=True)
    qtbot.addWidget(dialog)
    show_at(qtbot, dialog, size)
    found = [f"as opened: {fault}" for fault in fits(qtbot, dialog)]
    if not server_locked:
        for typed in ("ftp://x", "http://cards.example.com", "https://admin:pw@cards.example.com"):
            dialog.resize(size)
            dialog.server_edit.setText(typed)
            assert not dialog.ok_button.isEnabled()
            found += [f"{typed}: {fault}" for fault in fits(qtbot, dialog)]
    assert not found, "\n".join(found)


def test_the_labels_of_preferences_show_their_colons_whole(qtbot, tmp_path, language) -> None:
    """Drawn, a label's text can be a pixel or two wider than Qt measures it, and QLabel
    clips it to its contents ("CSV-Trennzeichen:" lost most of its colon): the text
    drawn with room to spare must end within the label's contents."""
    dialog = PreferencesDialog(Settings(path=tmp_path / "settings.json"), signed_in=True)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    labels = [label for label in dialog.findChildren(QLabel) if label.buddy() is not None]
    assert len(labels) >= 8
    cut = []
    for label in labels:
        room = label.contentsRect()
        drawn = QImage(room.width() + 40, room.height(), QImage.Format.Format_ARGB32)
        drawn.fill(Qt.GlobalColor.transparent)
        painter = QPainter(drawn)
        painter.setFont(label.font())
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(
            drawn.rect(), int(flags.value) | Qt.TextFlag.TextShowMnemonic.value, label.text()
        )
        painter.end()
        inked = [
            x
            for x in range(drawn.width())
            if any(drawn.pixelColor(x, y).alpha() for y in range(drawn.height()))
        ]
        if inked and inked[-1] >= room.width():
            cut.append(f"{label.text()!r}: drawn to {inked[-1] + 1} px in {room.width()} px")
    assert not cut, "\n".join(cut)


# Export All and Sync Space


@pytest.mark.parametrize("syncing", [False, True], ids=["export", "sync"])
def test_the_progress_of_export_all_and_sync_is_shown_whole(
    qtbot, qloop, tmp_path, language, size, syncing: bool
) -> None:
    space = "acme1EU01demo01"
    go_on = asyncio.Event()

    async def fetch(number: int) -> CardPage:
        if number > 1:
            await go_on.wait()
        answer = _page(number, last=30, total=300)(httpx.Request("GET", "https://x"))
        return read_page(answer)

    dialog = ExportAllDialog(
        fetch, tmp_path / "everyone.csv", space_id=space, with_emails=False, syncing=syncing
    )
    qtbot.addWidget(dialog)
    if syncing:
        store = CardStore.open(tmp_path / "space.sqlite")
        task = qloop.create_task(dialog.sync(store))
    else:
        task = qloop.create_task(dialog.run())
    qtbot.waitUntil(dialog.isVisible)
    dialog.resize(size)
    found = [f"first page: {fault}" for fault in fits(qtbot, dialog)]
    qtbot.waitUntil(lambda: dialog.progress_bar.value() == 1)
    dialog.resize(size)
    found += [f"{dialog.progress_label.text()}: {fault}" for fault in fits(qtbot, dialog)]
    go_on.set()
    qtbot.waitUntil(task.done, timeout=WAIT)
    task.result()
    if syncing:
        store.close()
    assert not found, "\n".join(found)


def test_the_main_window_fits_a_small_screen_with_its_details_pane(
    window: MainWindow, qtbot, demo_server: DemoServer, language
) -> None:
    """The copy buttons wrap, the filter keeps its room and the switch its text, in German too."""
    show_at(qtbot, window, SMALL_SCREEN)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.open_space(demo_server.space_id)
    window.table.setCurrentIndex(window.proxy.index(0, 1))
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT):
        window.sync_action.trigger()
    window.resize(SMALL_SCREEN)
    settle(qtbot, window)
    assert window.details_pane.isVisible()
    assert window.width() == SMALL_SCREEN.width(), "the window is wider than the screen"
    field = window.filter_edit
    assert field.width() >= field.fontMetrics().horizontalAdvance("x") * 14
    switch = window.whole_space.switch  # the field went below it rather than cut it short
    assert switch.isVisible()
    assert switch.width() >= switch.sizeHint().width(), switch.currentText()
    assert field.y() > switch.geometry().bottom()
    assert not clipped(window, elided(window))

    details = window.details_pane  # at its narrowest, a card with every field on show
    window.table.setCurrentIndex(window.table.model().index(0, 1))
    assert details.card is not None
    qtbot.waitUntil(details.qr_code.copy_button.isEnabled, timeout=WAIT)  # its code made
    window.splitter.setSizes([SMALL_SCREEN.width(), 1])
    settle(qtbot, window)
    assert details.scroll_area.horizontalScrollBar().maximum() == 0, "no sideways scrolling"
    assert not cut_words(details), "a value is cut at the pane's edge"


def cut_words(pane: CardDetailsPane) -> list[str]:
    """The words of the pane's values wider than their labels: a date cut to "12.02.20".

    Words longer than `LONG_WORD` (an address, a long handle) may be cut; their tooltip
    holds them whole.
    """
    cut = []
    for row in range(pane.form.rowCount()):
        item = pane.form.itemAt(row, QFormLayout.ItemRole.FieldRole)
        layout = item.layout() if item is not None else None
        items = [layout.itemAt(n) for n in range(layout.count())] if layout else []
        held = [item.widget() for item in items if item is not None]
        labels = [widget for widget in held if isinstance(widget, QLabel)]
        assert labels, "each row's field holds its value (and what it was) as labels"
        for label in labels:
            if label.isHidden():
                continue
            width = label.fontMetrics().horizontalAdvance
            words = [word for word in label.text().split() if len(word) <= LONG_WORD]
            cut += [f"{label.objectName()}: {w}" for w in words if width(w) > label.width()]
    return cut
