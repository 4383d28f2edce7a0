"""Tooltips and menu entries that show the server's text literally, and look as before."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QPoint, QSize
from PySide6.QtGui import QAction, Qt, QTextDocument
from PySide6.QtWidgets import QApplication, QToolTip, QWidget
from pytestqt.qtbot import QtBot

from cardviewer.ui.plain_text import plain_action_text, plain_tooltip

TEXTS = [
    "Alice",
    '<img src="/dev/zero">Alice',
    "<a href=https://attacker.example/>link</a>",
    "&lt;b&gt; is not bold & &amp; is no entity",
    "first line\n  <h1>indented</h1>\n\nafter an empty line",
    "Smith, Jane\nLegal",
]


def test_an_empty_text_gives_no_tooltip() -> None:
    assert plain_tooltip("") == ""


@pytest.mark.parametrize("text", TEXTS)
def test_the_tooltip_reads_as_the_text(qapp: QApplication, text: str) -> None:
    tooltip = plain_tooltip(text)
    assert Qt.mightBeRichText(tooltip)  # so Qt never guesses from the text itself
    document = QTextDocument()
    document.setHtml(tooltip)
    assert document.toPlainText() == text


@pytest.fixture
def anchor(qtbot: QtBot) -> QWidget:
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.show()
    return widget


def shown_size(anchor: QWidget, tooltip: str) -> QSize:
    """The size of `tooltip` as Qt shows it."""
    QToolTip.showText(QPoint(10, 10), tooltip, anchor)
    (label,) = [w for w in QApplication.topLevelWidgets() if w.objectName() == "qtooltip_label"]
    size = label.size()
    QToolTip.hideText()
    return size


@pytest.mark.parametrize(
    "text",
    [
        "Alice",
        "2024-04-19T22:53:03.000000Z",
        "max.mueller@acme.example\nm.mueller@acme-europe.example",
        json.dumps({"name": "Acme Europe GmbH", "tags": ["sales", "emea"]}, indent=2),
    ],
)
def test_short_lines_look_as_plain_text(anchor: QWidget, text: str) -> None:
    """No line is broken that a plain tooltip would show whole (an address at its hyphen)."""
    assert shown_size(anchor, plain_tooltip(text)) == shown_size(anchor, text)


def test_long_lines_wrap(anchor: QWidget) -> None:
    text = "Head of Global Strategic Partnerships and Business Development, EMEA " * 6
    plain, wrapped = shown_size(anchor, text), shown_size(anchor, plain_tooltip(text))
    assert wrapped.width() < plain.width()
    assert wrapped.height() > plain.height()
    assert wrapped.width() > anchor.fontMetrics().horizontalAdvance("x" * 30)


@pytest.mark.parametrize("text", ["R&D", "&&", "Sales & <b>Marketing</b>"])
def test_a_menu_entry_shows_an_ampersand(qapp: QApplication, text: str) -> None:
    action = QAction(plain_action_text(text))
    assert action.iconText() == text  # the text without its Alt key
