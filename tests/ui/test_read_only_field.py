"""A read-only text field looks like a value shown, not like a field to type in."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLineEdit

from cardviewer.ui.read_only_field import make_read_only


def background(edit: QLineEdit) -> object:
    return edit.palette().color(QPalette.ColorRole.Base)


def test_a_read_only_field_has_the_window_s_background(qtbot):
    edit = QLineEdit("https://cards.example.com")
    qtbot.addWidget(edit)
    editable_background = background(edit)
    make_read_only(edit)
    assert edit.isReadOnly()
    assert background(edit) == edit.palette().color(QPalette.ColorRole.Window)
    assert background(edit) != editable_background


def test_its_text_cannot_be_changed_but_can_be_selected(qtbot):
    edit = QLineEdit("https://cards.example.com")
    qtbot.addWidget(edit)
    make_read_only(edit)
    edit.show()
    qtbot.waitExposed(edit)
    qtbot.keyClicks(edit, "x")
    edit.selectAll()
    assert edit.text() == "https://cards.example.com"
    assert edit.selectedText() == "https://cards.example.com"
    assert edit.focusPolicy() != Qt.FocusPolicy.NoFocus


def test_its_background_follows_a_new_palette(qtbot):
    edit = QLineEdit("https://cards.example.com")
    qtbot.addWidget(edit)
    make_read_only(edit)
    before = QApplication.palette()
    dark = QPalette(QColor("#2d2d2d"), QColor("#353535"))  # button, window
    try:
        QApplication.setPalette(dark)  # the desktop turns dark
        qtbot.waitUntil(lambda: background(edit) == dark.color(QPalette.ColorRole.Window))
        # Only the background is the field's own: the text follows the palette as well.
        assert edit.palette().color(QPalette.ColorRole.Text) == dark.color(QPalette.ColorRole.Text)
    finally:
        QApplication.setPalette(before)
    qtbot.waitUntil(lambda: background(edit) == before.color(QPalette.ColorRole.Window))
