"""Titles beside their values while there is room, above them where there is not."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFormLayout, QLabel, QWidget

from cardviewer.ui.cards.form_wrapping import VALUE_CHARS, FormWrapping

Wrap = QFormLayout.RowWrapPolicy


@pytest.fixture
def form(qtbot) -> tuple[QWidget, QFormLayout, FormWrapping]:
    widget = QWidget()
    qtbot.addWidget(widget)
    form = QFormLayout(widget)
    form.setHorizontalSpacing(16)
    form.addRow(QLabel("Verbundene Karten"), QLabel("12.02.2020 14:36"))
    wrapping = FormWrapping(form, widget, widget.width)
    widget.show()  # a hidden widget is told of its new size only when shown
    return widget, form, wrapping


def beside_width(widget: QWidget, form: QFormLayout) -> int:
    """The least width that keeps a title and its value side by side."""
    item = form.itemAt(0, QFormLayout.ItemRole.LabelRole)
    assert item is not None
    title = item.sizeHint().width()
    return title + form.horizontalSpacing() + widget.fontMetrics().averageCharWidth() * VALUE_CHARS


def test_a_form_with_room_keeps_titles_beside_values(form) -> None:
    widget, layout, _ = form
    widget.setFixedSize(beside_width(widget, layout) + 50, 200)
    assert layout.rowWrapPolicy() == Wrap.WrapLongRows


def test_a_narrow_form_puts_titles_above_and_back_beside_when_widened(form) -> None:
    widget, layout, _ = form
    least = beside_width(widget, layout)
    widget.setFixedSize(least - 1, 200)
    assert layout.rowWrapPolicy() == Wrap.WrapAllRows
    widget.setFixedSize(least, 200)
    assert layout.rowWrapPolicy() == Wrap.WrapLongRows


def test_a_longer_title_is_looked_at_when_the_rows_change(form) -> None:
    widget, layout, wrapping = form
    widget.setFixedSize(beside_width(widget, layout) + 20, 200)
    assert layout.rowWrapPolicy() == Wrap.WrapLongRows
    layout.addRow(QLabel("Eine viel längere Überschrift als jede andere"), QLabel("Ja"))
    wrapping.update()
    assert layout.rowWrapPolicy() == Wrap.WrapAllRows
