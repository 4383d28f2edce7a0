"""A window as high as its word-wrapped texts need, which Qt does not do by itself."""

from __future__ import annotations

from PySide6.QtWidgets import QLayout, QWidget


def fit_height(window: QWidget, layout: QLayout) -> None:
    """Give `window` at least the height its `layout` needs at the narrowest.

    Qt keeps a window only as high as one line of each wrapped text needs: the second
    line of a message or a hint would be cut off. The height the texts need at the
    narrowest width is enough at any other.
    """
    layout.activate()
    smallest = layout.totalMinimumSize()
    if layout.hasHeightForWidth():
        smallest.setHeight(max(smallest.height(), layout.totalHeightForWidth(smallest.width())))
    window.setMinimumHeight(smallest.height())
