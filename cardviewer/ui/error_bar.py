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

from cardviewer.ui.plain_text import plain_tooltip

# The "negative" and "information" colours of common desktop themes; mixed with the
# window colour so the bar reads the same in light and dark palettes alike.
NEGATIVE = QColor("#da4453")
INFORMATION = QColor("#3daee9")
ICON_SIZE = 22


def _mix(base: QColor, tint: QColor, amount: float) -> QColor:
    """`amount` of `tint` over `base` (0 → base, 1 → tint)."""
    return QColor.fromRgbF(
        base.redF() + (tint.redF() - base.redF()) * amount,
        base.greenF() + (tint.greenF() - base.greenF()) * amount,
        base.blueF() + (tint.blueF() - base.blueF()) * amount,
    )


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
        self.close_button.setIcon(self._icon(themed.WindowClose, sp.SP_TitleBarCloseButton))
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

    def show_info(self, message: str, actions: Sequence[QAction] = ()) -> None:
        """Show a note that is no error (e.g. being signed out), with `actions` as buttons."""
        self._show(message, "", False, actions, INFORMATION, self._info_icon)

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

    def _retry(self) -> None:
        self.hide()
        self.retryRequested.emit()

    def paintEvent(self, event: QPaintEvent) -> None:
        window = self.palette().color(QPalette.ColorRole.Window)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(_mix(window, self._tint, 0.55))
        painter.setBrush(_mix(window, self._tint, 0.14))
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5)
        painter.end()
