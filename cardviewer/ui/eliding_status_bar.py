"""The main window's status bar, whose message is cut in its middle with "…" when too long.

`QStatusBar` paints a message that does not fit up to the widgets at its right end (the
account, a progress note with Cancel) and no further, mid-word and without a sign that
more follows: in German on a small screen "acme1EU01demo01-shown.vcf wird ges". Here the
message is fitted to the room left, again whenever that room changes, with the whole
text in its tooltip and in `messageChanged`, which is what screen readers are told.

One permanent widget may give way to the message (`add_yielding_label`): the account,
which can be read again once the message is gone, gives the message the room it needs,
down to a few letters, before the message is cut.

A menu item's status tip is fitted too: its window hands it to the bar in C++, past
`showMessage`, so the bar takes its window's status tips itself.
"""

from __future__ import annotations

import time

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QResizeEvent, QStatusTipEvent
from PySide6.QtWidgets import QStatusBar, QWidget

from cardviewer.ui.eliding_label import ElidingLabel

LEFT_MARGIN = 6
RIGHT_MARGIN = 12
WIDGET_GAP = 2
"""Where `QStatusBar` paints its message: from 6 px on, to 2 px before the first
permanent widget shown, or 12 px before its right end."""
NO_LIMIT = 16777215
"""Qt's largest widget width (`QWIDGETSIZE_MAX`): no limit."""


class ElidingStatusBar(QStatusBar):
    """A status bar that fits its message to the room its permanent widgets leave."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._whole = ""
        self._until: float | None = None
        self._permanent: list[QWidget] = []
        self._yielding: ElidingLabel | None = None
        self._window: QWidget | None = None
        self.messageChanged.connect(self._message_changed)
        self._take_status_tips()

    def whole_message(self) -> str:
        """The message shown, as it was given; "" once it is gone."""
        return self._whole if super().currentMessage() else ""

    def showMessage(self, message: str, timeout: int | None = 0) -> None:
        self._whole = message
        self._until = time.monotonic() + timeout / 1000 if timeout and timeout > 0 else None
        self._fit(new=True)
        self.messageChanged.emit(message)

    def addPermanentWidget(self, widget: QWidget, stretch: int | None = 0) -> None:
        super().addPermanentWidget(widget, stretch or 0)
        self._follow(widget)

    def insertPermanentWidget(self, index: int, widget: QWidget, stretch: int | None = 0) -> int:
        placed = super().insertPermanentWidget(index, widget, stretch or 0)
        self._follow(widget)
        return placed

    def add_yielding_label(self, label: ElidingLabel) -> None:
        """Add `label` at the right end; it is cut when the message needs its room."""
        self.addPermanentWidget(label)
        self._yielding = label

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._refit()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ParentChange:
            self._take_status_tips()
        return super().event(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window:  # its status tips only: it moves with the bar
            if isinstance(event, QStatusTipEvent):
                self.showMessage(event.tip())
                return True
        elif event.type() in (QEvent.Type.Show, QEvent.Type.Hide, QEvent.Type.Move):
            self._refit()  # a permanent widget came, went or moved
        return False

    def _take_status_tips(self) -> None:
        """Show the status tips sent to the window this bar is in, as messages."""
        window = self.parentWidget()
        if window is self._window:
            return
        if self._window is not None and shiboken6.isValid(self._window):
            self._window.removeEventFilter(self)
        self._window = window
        if window is not None:
            window.installEventFilter(self)

    def _follow(self, widget: QWidget) -> None:
        self._permanent.append(widget)
        widget.installEventFilter(self)

    def _refit(self) -> None:
        """Fit the message shown again, now that its room has changed."""
        if super().currentMessage() and (self._until is None or time.monotonic() < self._until):
            self._fit(new=False)

    def _fit(self, *, new: bool) -> None:
        """Show the message cut to the room; told to no one (`showMessage` tells the whole).

        Shown again only if it is `new` or its cut changed: showing a message lays the
        bar out, which moves the widgets this follows.
        """
        message = self._whole
        self._make_room(message)
        fitted = self.fontMetrics().elidedText(message, Qt.TextElideMode.ElideMiddle, self._room())
        self.setToolTip(message if fitted != message else "")
        timeout = 0
        if self._until is not None:
            timeout = max(1, round((self._until - time.monotonic()) * 1000))
        if not new and fitted == super().currentMessage():
            return
        blocked = self.blockSignals(True)
        try:
            super().showMessage(fitted, timeout)
        finally:
            self.blockSignals(blocked)

    def _make_room(self, message: str) -> None:
        """Narrow the yielding label so that `message` fits beside it, down to the few
        letters it keeps; without a message it takes its whole width again.

        The layout follows later: the widgets it moves fit the message again.
        """
        label = self._yielding
        if label is None or not shiboken6.isValid(label):
            return
        limit = NO_LIMIT
        if message and label.isVisible():
            natural = label.sizeHint().width()
            needed = self.fontMetrics().horizontalAdvance(message) + 1
            room_beside_it_whole = self._room() - (natural - label.width())
            limit = natural - max(0, needed - room_beside_it_whole)
            limit = max(label.minimumSizeHint().width(), min(natural, limit))
        if label.maximumWidth() != limit:
            label.setMaximumWidth(limit)

    def _message_changed(self, message: str) -> None:
        """A message gone by its time, or cleared: the yielding label is whole again."""
        if not message:
            self._make_room("")

    def _room(self) -> int:
        """The width `QStatusBar` paints its message in."""
        left, right = LEFT_MARGIN, self.width() - RIGHT_MARGIN
        shown = [w for w in self._permanent if shiboken6.isValid(w) and w.isVisible()]
        if shown and self.layoutDirection() == Qt.LayoutDirection.RightToLeft:
            left = max(left, max(w.x() + w.width() for w in shown) + WIDGET_GAP)
        elif shown:
            right = min(right, min(w.x() for w in shown) - WIDGET_GAP)
        return max(0, right - left)
