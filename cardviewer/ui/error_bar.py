"""A tinted bar above the content that says what went wrong and what to do next.

A modal dialog would block the window and hide the page that is still shown; the bar
keeps the data readable and puts the way out (Retry, Sign in) beside the explanation.
A state that is no fault (being signed out) gets the calmer information look.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QAction, QColor, QIcon, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStyle,
    QToolButton,
    QWidget,
)

from cardviewer.ui.colour_scheme import READABLE, contrast, mix
from cardviewer.ui.plain_text import plain_tooltip

# The "negative" and "information" colours of common desktop themes; mixed with the
# palette's window colour when painted, so the bar follows a light or dark palette.
# (Not the palette's highlight: a desktop's accent may be red, and a note would then
# look like a fault.)
NEGATIVE = QColor("#da4453")
INFORMATION = QColor("#3daee9")
TINT = 0.14
"""How much of its colour the bar's background has, at most."""
BORDER_TINT = 0.55
ICON_SIZE = 22
CLOSE_MARK = "\N{MULTIPLICATION X}"
"""The close button's face where the desktop has no icon for it."""


def tinted_background(window: QColor, text: QColor, tint: QColor) -> QColor:
    """The window colour with a touch of `tint`, as much as leaves `text` readable on it."""
    amount = TINT
    while amount > 0:
        fill = mix(window, tint, amount)
        if contrast(text, fill) >= READABLE:
            return fill
        amount -= 0.02
    return window


class ErrorBar(QFrame):
    """Hidden until `show_error()`; the close button hides it again."""

    retryRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorBar")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)

        sp, themed = QStyle.StandardPixmap, QIcon.ThemeIcon
        self._error_icon = self._icon(themed.DialogError, sp.SP_MessageBoxCritical)
        self._info_icon = self._icon(themed.DialogInformation, sp.SP_MessageBoxInformation)
        self._tint = NEGATIVE
        self.icon_label = QLabel(self)
        self.icon_label.setPixmap(self._error_icon.pixmap(ICON_SIZE, ICON_SIZE))
        self.icon_label.setAlignment(Qt.AlignmentFlag.AlignTop)

        self.text_label = QLabel(self)
        self.text_label.setObjectName("errorText")
        # Messages may quote the server; never let them be read as markup.
        self.text_label.setTextFormat(Qt.TextFormat.PlainText)
        self.text_label.setWordWrap(True)
        self.text_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text_label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

        self.retry_button = QPushButton(self.tr("Retry"), self)
        self.retry_button.setIcon(self._icon(themed.ViewRefresh, sp.SP_BrowserReload))
        self.retry_button.clicked.connect(self._retry)

        self.close_button = QToolButton(self)
        if QIcon.hasThemeIcon(themed.WindowClose):
            self.close_button.setIcon(QIcon.fromTheme(themed.WindowClose))
        else:
            # The style's own cross is a fixed grey, hard to see on a dark bar; a
            # character is drawn in the palette's text colour.
            self.close_button.setText(CLOSE_MARK)
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip(self.tr("Close this message"))
        self.close_button.setAccessibleName(self.tr("Close"))
        self.close_button.clicked.connect(self.hide)

        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(12, 8, 8, 8)
        self._layout.setSpacing(10)
        self._layout.addWidget(self.icon_label, 0, Qt.AlignmentFlag.AlignVCenter)
        self._layout.addWidget(self.text_label, 1)
        self._layout.addWidget(self.retry_button, 0, Qt.AlignmentFlag.AlignVCenter)
        self._layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignVCenter)
        self._action_buttons: list[QPushButton] = []
        self._detail = ""
        self.hide()

    def _icon(self, name: QIcon.ThemeIcon, fallback: QStyle.StandardPixmap) -> QIcon:
        """The desktop's icon where it has one, else the widget style's."""
        return QIcon.fromTheme(name, self.style().standardIcon(fallback))

    @property
    def message(self) -> str:
        return self.text_label.text()

    @property
    def detail(self) -> str:
        """The technical detail, as the tooltip of the message shows it."""
        return self._detail

    def show_error(
        self,
        message: str,
        detail: str = "",
        retryable: bool = True,
        actions: Sequence[QAction] = (),
    ) -> None:
        """Show `message`; `detail` becomes the tooltip; `actions` add buttons before Retry."""
        self._show(message, detail, retryable, actions, NEGATIVE, self._error_icon)
        self.icon_label.setAccessibleName(self.tr("Error"))

    def show_info(self, message: str, actions: Sequence[QAction] = ()) -> None:
        """Show a note that is no error (e.g. being signed out), with `actions` as buttons."""
        self._show(message, "", False, actions, INFORMATION, self._info_icon)
        self.icon_label.setAccessibleName(self.tr("Note"))

    def hide_error(self) -> None:
        """Hide an error; a note stays (being signed out holds for what is shown next)."""
        if self._tint != INFORMATION:
            self.hide()

    def _show(
        self,
        message: str,
        detail: str,
        retryable: bool,
        actions: Sequence[QAction],
        tint: QColor,
        icon: QIcon,
    ) -> None:
        self._tint = tint
        self.icon_label.setPixmap(icon.pixmap(ICON_SIZE, ICON_SIZE))
        self.text_label.setText(message)
        self._detail = detail
        self.text_label.setToolTip(plain_tooltip(detail))  # often quotes the server's answer
        self.text_label.setAccessibleDescription(detail)  # the tooltip is markup: read as text
        self.retry_button.setVisible(retryable)
        self._set_actions(actions)
        self.setAccessibleDescription(message)
        self.show()
        self.update()

    def _set_actions(self, actions: Sequence[QAction]) -> None:
        for button in self._action_buttons:
            self._layout.removeWidget(button)
            button.deleteLater()
        self._action_buttons = []
        at = self._layout.indexOf(self.retry_button)
        for offset, action in enumerate(actions):
            button = QPushButton(action.icon(), action.text(), self)
            button.setToolTip(action.toolTip())
            button.clicked.connect(action.trigger)
            self._layout.insertWidget(at + offset, button, 0, Qt.AlignmentFlag.AlignVCenter)
            self._action_buttons.append(button)
        # Tab as read: a new button would come last in the window's focus chain.
        before = self.retry_button.previousInFocusChain() or self
        for button in self._action_buttons:
            QWidget.setTabOrder(before, button)
            before = button
        if self._action_buttons:
            QWidget.setTabOrder(before, self.retry_button)

    def _retry(self) -> None:
        self.hide()
        self.retryRequested.emit()

    def paintEvent(self, event: QPaintEvent) -> None:
        # Read from the palette at every paint: a change of scheme shows at once.
        palette = self.palette()
        window = palette.color(QPalette.ColorRole.Window)
        text = palette.color(QPalette.ColorRole.WindowText)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(mix(window, self._tint, BORDER_TINT))
        painter.setBrush(tinted_background(window, text, self._tint))
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5)
        painter.end()
