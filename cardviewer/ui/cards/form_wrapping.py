"""Titles above their values where a form is too narrow for both side by side.

The details pane's values wrap and may be as narrow as the pane, so that one long
address never widens the window; Qt's own `WrapLongRows` therefore never finds a value
too wide for its row. In a narrow pane with German titles ("Verbundene Karten") that
left the values a sliver, a date cut to "12.02.20". Here the whole form changes over
to titles above values once a value would get less than a date's width beside them.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QFormLayout, QWidget

VALUE_CHARS = 18
"""The least room for a value beside its title, in average characters: a date and time
in any of the app's languages on one line."""


class FormWrapping(QObject):
    """Keeps `form`'s rows side by side while `room()` leaves a value enough width beside
    the widest title, else puts every title above its value.

    `watched` is the widget whose resizing changes the room; call `update()` after the
    form's rows change.
    """

    def __init__(self, form: QFormLayout, watched: QWidget, room: Callable[[], int]) -> None:
        super().__init__(watched)
        self._form, self._watched, self._room = form, watched, room
        watched.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._watched and event.type() == QEvent.Type.Resize:
            self.update()
        return False

    def update(self) -> None:
        """Choose side by side or titles above for the form's present titles and room."""
        form = self._form
        label = QFormLayout.ItemRole.LabelRole
        items = (form.itemAt(row, label) for row in range(form.rowCount()))
        # The widgets' own hints: a title just added is not shown yet, and its layout
        # item would count it as empty until then.
        titles = [item.widget() for item in items if item is not None]
        widest = max((title.sizeHint().width() for title in titles if title is not None), default=0)
        beside = self._room() - widest - max(form.horizontalSpacing(), 0)
        wanted = self._watched.fontMetrics().averageCharWidth() * VALUE_CHARS
        wrap = QFormLayout.RowWrapPolicy
        policy = wrap.WrapAllRows if beside < wanted else wrap.WrapLongRows
        if form.rowWrapPolicy() != policy:
            form.setRowWrapPolicy(policy)
