"""What a hostile server sends is shown as it came, never as markup Qt reads.

Qt guesses rich text in tooltips and in labels left at the automatic format, so a card
named `<img src=/some/file>` would make the app read that file when its tooltip shows
(and `/dev/zero` would exhaust the memory). Here every card field, unknown field name
and error body carries markup; every text of the main window and the sign-in dialog
must read literally, and showing every tooltip must not open the file a picture names.
"""

from __future__ import annotations

import errno
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtCore import QAbstractItemModel, QEvent, QPoint
from PySide6.QtGui import QHelpEvent, Qt, QTextDocument  # QtGui's Qt has mightBeRichText
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStatusBar,
    QToolTip,
    QWidget,
)
from pytestqt.qtbot import QtBot

from cardviewer.api import CardsClient, Session
from cardviewer.services.settings import Settings
from cardviewer.ui.cards.card_table_model import CARD_ROLE, SORT_ROLE
from cardviewer.ui.login.login_dialog import LoginDialog
from cardviewer.ui.main_window import MainWindow
from tests.ui.clients import single_try_client
from tests.ui.windows import Closer, open_window

SERVER = "https://cards.example"
SPACE = "hostile-space"
WAIT = 10_000
LINK_TEXT = "injected-link"
LINK = f"<a href=https://attacker.example/{LINK_TEXT}>{LINK_TEXT}</a>"
HEADING_TEXT = "injected-heading"
HEADING = f"<h1>{HEADING_TEXT}</h1>"
MISSING_PICTURE = "/nonexistent/injected-picture.png"

Respond = Callable[[str], httpx.Response]
"""An answer of the server, given the markup to put in it."""


def picture(path: str) -> str:
    # Attributes without quotes: JSON, `repr` and excerpts of bodies keep them as they are.
    return f"<img src={path}>"


def markup(path: str) -> str:
    """A picture of `path`, a link and a heading: what no text of the server may become."""
    return f"{picture(path)}{LINK}{HEADING}"


def fragments(path: str) -> list[tuple[str, str]]:
    """Each piece of markup, with a word of it that shows that it was there."""
    return [(path, picture(path)), (LINK_TEXT, LINK), (HEADING_TEXT, HEADING)]


def hostile_card(uuid: str, m: str) -> dict[str, Any]:
    """A card whose every text is markup: valid fields, invalid ones, unknown and nested."""
    return {
        "uuid": uuid,
        "avatar": {"uuid": None, "src": f"https://cdn.example/{m}"},
        "username": m,
        "display_name": m,
        "position": f"Chief {m}",
        "public": m,  # invalid: a flag is expected
        "connected_cards": 3,
        "connects": m,  # invalid: a count is expected
        "subscriptions": {m: [m, {"plan": m}]},
        "created_at": m,  # invalid: a timestamp is expected
        "updated_at": "2024-04-20T08:00:00.500000Z",
        "emails": [f"{m}@example.com", {"email": m}],
        HEADING: m,  # a field name that is markup itself
        "r&d": m,  # and one with what a menu reads as its Alt key
        "bio": f"first line\n{m}\n{m}",
        "space": {"name": m, "tags": [m, {"deeper": m}]},
        "links": [m, None, 7],
    }


def hostile_page(m: str) -> dict[str, Any]:
    return {
        "data": [hostile_card("c1", m), hostile_card("c2", f"Alice {m}")],
        "links": {"first": None, "last": None, "prev": None, "next": None},
        "meta": {
            "current_page": 1,
            "last_page": 2,
            "per_page": 2,
            "total": 4,
            "from": 1,
            "to": 2,
            "path": m,
            "links": [{"url": None, "label": m, "active": False}],
        },
    }


def json_error(status: int) -> Respond:
    return lambda m: httpx.Response(status, json={"message": m, "exception": m})


def html_error(status: int) -> Respond:
    return lambda m: httpx.Response(
        status, text=f"<html><body>{m}</body></html>", headers={"Content-Type": "text/html"}
    )


def not_a_page(m: str) -> httpx.Response:
    return httpx.Response(200, json={"data": m})


PAGE_FAILURES = {"500 JSON": json_error(500), "502 HTML": html_error(502), "no page": not_a_page}
SIGN_IN_FAILURES = {
    "422 JSON": json_error(422),
    "500 JSON": json_error(500),
    "502 HTML": html_error(502),
}


def hostile_server(m: str, failure: Respond) -> httpx.MockTransport:
    """Page 1 is the hostile page, page 2 and signing in fail with `failure`."""

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/cards") and request.url.params.get("page") == "1":
            return httpx.Response(200, json=hostile_page(m))
        return failure(m)

    return httpx.MockTransport(answer)


# Building the window and the dialog


@pytest.fixture
def settings() -> Settings:
    return Settings.load()


WindowMaker = Callable[[str, Respond], MainWindow]


@pytest.fixture
def make_window(
    qtbot: QtBot, arun: Callable[..., Any], settings: Settings
) -> Iterator[WindowMaker]:
    """A window showing the hostile page with its details, and the failure of page 2."""
    closers: list[Closer] = []

    def make(m: str, failure: Respond) -> MainWindow:
        client = single_try_client(SERVER, token="token", transport=hostile_server(m, failure))
        window = open_window(qtbot, client, settings, closers)
        closers.append(client.aclose)  # after the window's model, which uses it
        window.details_action.setChecked(True)
        with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
            window.open_space(SPACE)
        window.table.setCurrentIndex(window.proxy.index(0, 0))
        assert window.details_pane.card is not None
        with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
            window.go_to_page(2)
        assert window.error_bar.isVisible()
        return window

    yield make
    for close in reversed(closers):
        arun(close())


DialogMaker = Callable[[str, Respond], LoginDialog]


@pytest.fixture
def make_dialog(qtbot: QtBot, qloop: Any) -> DialogMaker:
    """A sign-in dialog after the server refused the sign-in with `failure`."""

    def make(m: str, failure: Respond) -> LoginDialog:
        async def sign_in(server: str, email: str, password: str) -> Session:
            async with CardsClient(server, transport=hostile_server(m, failure)) as client:
                return await client.login(email, password)

        dialog = LoginDialog(sign_in, server=SERVER, email="ada@example.com", password="secret")
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog.submit()
        qtbot.waitUntil(lambda: dialog.busy_label.isHidden() and bool(dialog.message), timeout=WAIT)
        return dialog

    return make


# What a person sees


PLAIN = Qt.TextFormat.PlainText
AUTO = Qt.TextFormat.AutoText
ShownText = tuple[str, str, Qt.TextFormat]
"""Where a text is shown, the text, and how Qt reads it there."""

RICH_ROLES = {Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.WhatsThisRole}
"""The roles a view shows as tooltips or help, where Qt guesses rich text."""
ROLES = [*Qt.ItemDataRole, CARD_ROLE, SORT_ROLE]


def model_texts(where: str, model: QAbstractItemModel) -> Iterator[ShownText]:
    """Every text of every cell and header of `model`, in every role."""
    for role in ROLES:
        text_format = AUTO if role in RICH_ROLES else PLAIN
        for column in range(model.columnCount()):
            for orientation in Qt.Orientation:
                header = model.headerData(column, orientation, role)
                if isinstance(header, str):
                    yield f"{where} header {column} role {role}", header, text_format
            for row in range(model.rowCount()):
                value = model.index(row, column).data(role)
                if isinstance(value, str):
                    yield f"{where} cell {row},{column} role {role}", value, text_format


def shown_texts(root: QWidget) -> Iterator[ShownText]:
    """Every text of `root` and its children: properties, labels, actions and models."""
    for widget in [root, *root.findChildren(QWidget)]:
        name = f"{type(widget).__name__} {widget.objectName()}"
        yield f"{name} tooltip", widget.toolTip(), AUTO
        yield f"{name} what's this", widget.whatsThis(), AUTO
        yield f"{name} status tip", widget.statusTip(), PLAIN
        yield f"{name} window title", widget.windowTitle(), PLAIN
        yield f"{name} accessible name", widget.accessibleName(), PLAIN
        yield f"{name} accessible description", widget.accessibleDescription(), PLAIN
        if isinstance(widget, QLabel):
            yield f"{name} text", widget.text(), widget.textFormat()
        if isinstance(widget, QAbstractButton):
            yield f"{name} text", widget.text(), PLAIN
        if isinstance(widget, QLineEdit):
            yield f"{name} text", widget.text(), PLAIN
            yield f"{name} placeholder", widget.placeholderText(), PLAIN
        if isinstance(widget, QComboBox):
            for index in range(widget.count()):
                yield f"{name} item {index}", widget.itemText(index), PLAIN
        if isinstance(widget, QStatusBar):
            yield f"{name} message", widget.currentMessage(), PLAIN
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            yield from model_texts(name, widget.model())
        for action in widget.actions():
            label = f"{name} action {action.text()!r}"
            yield f"{label} text", action.text(), PLAIN
            yield f"{label} tooltip", action.toolTip(), AUTO
            yield f"{label} what's this", action.whatsThis(), AUTO
            yield f"{label} status tip", action.statusTip(), PLAIN


def markup_read_in(document: QTextDocument) -> list[str]:
    """The pictures, links and headings `document` holds."""
    found: list[str] = []
    block = document.begin()
    while block.isValid():
        if block.blockFormat().headingLevel():
            found.append(f"heading {block.text()!r}")
        pieces = block.begin()
        while not pieces.atEnd():
            piece = pieces.fragment()
            char_format = piece.charFormat()
            if char_format.isImageFormat():
                found.append(f"picture {char_format.toImageFormat().name()!r}")
            if char_format.isAnchor() or char_format.anchorHref():
                found.append(f"link {char_format.anchorHref()!r}")
            pieces += 1
        block = block.next()
    return found


def misread(text: ShownText, path: str) -> str | None:
    """What is wrong with how `text` reads, if its markup is obeyed or lost; else None."""
    where, value, text_format = text
    if not value or text_format == PLAIN:
        return None
    if text_format == AUTO and not Qt.mightBeRichText(value):
        return None
    document = QTextDocument()
    if text_format == Qt.TextFormat.MarkdownText:
        document.setMarkdown(value)
    else:
        document.setHtml(value)
    read = markup_read_in(document)
    if read:
        return f"{where}: {value!r} is read as markup: {read}"
    shown = document.toPlainText()
    lost = [
        fragment for word, fragment in fragments(path) if word in value and fragment not in shown
    ]
    if lost:
        return f"{where}: {value!r} does not show {lost}"
    return None


def assert_literal(texts: list[ShownText], path: str) -> None:
    """Every text reads as it is written; as rich text, its markup is shown, not obeyed."""
    assert any(path in value for _, value, _ in texts), "the markup is nowhere to be seen"
    problems = [problem for text in texts if (problem := misread(text, path)) is not None]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("failure", PAGE_FAILURES.values(), ids=PAGE_FAILURES.keys())
def test_the_window_shows_the_server_text_as_it_came(
    make_window: WindowMaker, failure: Respond
) -> None:
    window = make_window(markup(MISSING_PICTURE), failure)
    assert window.details_pane.isVisible()
    assert window.error_bar.detail
    texts = [*shown_texts(window), *model_texts("card table model", window.model)]
    assert_literal(texts, MISSING_PICTURE)


@pytest.mark.parametrize("failure", SIGN_IN_FAILURES.values(), ids=SIGN_IN_FAILURES.keys())
def test_the_sign_in_dialog_shows_the_server_text_as_it_came(
    make_dialog: DialogMaker, failure: Respond
) -> None:
    dialog = make_dialog(markup(MISSING_PICTURE), failure)
    assert dialog.message_label.toolTip()  # the detail quotes the body
    assert_literal(list(shown_texts(dialog)), MISSING_PICTURE)


def test_the_422_message_is_the_apps_own_and_the_servers_text_its_detail(
    make_dialog: DialogMaker,
) -> None:
    m = markup(MISSING_PICTURE)
    dialog = make_dialog(m, json_error(422))
    assert dialog.message == "The e-mail address or password is not correct."
    assert dialog.message_label.textFormat() == PLAIN
    assert "The server said: " in dialog.message_label.toolTip()
    assert_literal(list(shown_texts(dialog)), MISSING_PICTURE)


def test_the_header_menu_names_each_column_as_titled(make_window: WindowMaker) -> None:
    window = make_window(markup(MISSING_PICTURE), json_error(500))
    header = window.table.horizontalHeader()
    header.customContextMenuRequested.emit(header.rect().center())  # a right-click
    menu = window.header_menu
    assert menu is not None
    named = [action.iconText() for action in menu.actions() if action.isCheckable()]
    menu.close()
    assert named == [column.title for column in window.model.columns]
    assert "R&d" in named


# Showing the tooltips


class ReaderWatch:
    """A FIFO that counts the readers opening it, and lets each go at once.

    Opening a FIFO to read waits for a writer; this one opens for writing as soon as
    a reader is there (a non-blocking open fails with ENXIO until then), and closes
    again, so a reader sees an empty file instead of waiting for ever.
    """

    def __init__(self, path: Path) -> None:
        os.mkfifo(path)
        self.path = path
        self.readers = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="fifo watch", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.is_set():
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno != errno.ENXIO:
                    raise
                time.sleep(0.001)
                continue
            self.readers += 1
            os.close(fd)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


@pytest.fixture
def watch(tmp_path: Path) -> Iterator[ReaderWatch]:
    watch = ReaderWatch(tmp_path / "picture")
    yield watch
    watch.stop()


def help_at(target: QWidget, position: QPoint) -> None:
    """Ask `target` for its tooltip at `position`, as hovering there does."""
    event = QHelpEvent(QEvent.Type.ToolTip, position, target.mapToGlobal(position))
    QApplication.sendEvent(target, event)
    QToolTip.hideText()


def show_every_tooltip(root: QWidget) -> int:
    """Show each tooltip of `root` the way hovering would; returns how many were asked."""
    asked = 0
    for widget in [root, *root.findChildren(QWidget)]:
        if widget.toolTip():
            help_at(widget, QPoint(1, 1))
            asked += 1
        if isinstance(widget, QHeaderView):
            for section in range(widget.count()):
                middle = widget.sectionViewportPosition(section) + widget.sectionSize(section) // 2
                across = widget.orientation() == Qt.Orientation.Horizontal
                help_at(widget.viewport(), QPoint(middle, 1) if across else QPoint(1, middle))
                asked += 1
        elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            for row in range(model.rowCount()):
                for column in range(model.columnCount()):
                    index = model.index(row, column)
                    widget.scrollTo(index)
                    help_at(widget.viewport(), widget.visualRect(index).center())
                    asked += 1
    return asked


def test_showing_every_tooltip_opens_no_file(
    make_window: WindowMaker, make_dialog: DialogMaker, watch: ReaderWatch, qtbot: QtBot
) -> None:
    m = markup(str(watch.path))
    window = make_window(m, json_error(500))
    dialog = make_dialog(m, json_error(422))
    asked = show_every_tooltip(window) + show_every_tooltip(dialog)
    assert asked > window.model.rowCount() * window.model.columnCount()
    qtbot.wait(50)  # nothing to wait for: time for a late read of the picture to show up
    assert watch.readers == 0, f"the picture of a tooltip was read {watch.readers} times"
