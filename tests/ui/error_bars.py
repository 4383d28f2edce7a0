"""What a person sees of an error bar: the buttons it lays out and the colour it wears."""

from __future__ import annotations

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QPushButton

from cardviewer.ui.error_bar import ErrorBar


def action_buttons(bar: ErrorBar) -> list[QPushButton]:
    """The buttons laid out beside the message, in their order, other than Retry."""
    layout = bar.layout()
    assert layout is not None
    items = [layout.itemAt(n) for n in range(layout.count())]
    widgets = [item.widget() for item in items if item is not None]
    return [w for w in widgets if isinstance(w, QPushButton) and w is not bar.retry_button]


def _fill(bar: ErrorBar) -> QColor:
    """The bar's background just inside its top edge, as painted."""
    return bar.grab().toImage().pixelColor(bar.width() // 2, 3)


def looks_like_information(bar: ErrorBar) -> bool:
    """Tinted blue, as a note that is no fault."""
    fill = _fill(bar)
    return fill.blue() > fill.red()


def looks_like_an_error(bar: ErrorBar) -> bool:
    """Tinted red, as a fault."""
    fill = _fill(bar)
    return fill.red() > fill.blue()
