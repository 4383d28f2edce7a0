"""The page shown instead of the card table when it has nothing to show.

Before a space is opened it says how to open one; past the last page it offers a way
back. The text is plain: a space id typed by the person may be part of it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSize, Qt
from PySide6.QtGui import QFont, QPalette, QPixmap
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from cardviewer import APP_NAME

NARROWEST_TEXT = 24
"""Characters of the sentence on a line, at the least: narrower, the page reads badly."""


class StatePage(QWidget):
    """A centred icon, headline and sentence, shown instead of the table, and a way on."""

    def __init__(self, picture: QPixmap, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.icon_label = QLabel(self)
        self.icon_label.setPixmap(picture)
        self.icon_label.setAccessibleName(
            QCoreApplication.translate("MainWindow", "%1 logo").replace("%1", APP_NAME)
        )
        self.icon_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title_label = QLabel(self)
        self.title_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title_label.setTextFormat(Qt.TextFormat.PlainText)
        self.title_label.setWordWrap(True)  # a filter repeated in it may be long
        font = QFont(self.title_label.font())
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setWeight(QFont.Weight.DemiBold)
        self.title_label.setFont(font)
        self.text_label = QLabel(self)
        self.text_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.text_label.setTextFormat(Qt.TextFormat.PlainText)
        self.text_label.setWordWrap(True)
        # Muted, in the palette's colour for it at every paint (ReadableMutedText keeps
        # that readable): a copy of the colour would stay as it was in another scheme.
        self.text_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.action_button = QPushButton(self)
        self.action_button.hide()
        layout = self._layout = QVBoxLayout(self)
        layout.addStretch(3)
        layout.addWidget(self.icon_label)
        layout.addSpacing(8)
        layout.addWidget(self.title_label)
        layout.addWidget(self.text_label)
        layout.addSpacing(8)
        layout.addWidget(self.action_button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(4)

    def minimumSizeHint(self) -> QSize:
        """Room for the texts wrapped at a readable width, every line of them.

        Left to itself the page would ask for one line of each text, and a small window
        would cut the rest off.
        """
        layout = self._layout
        smallest = layout.totalMinimumSize()
        margins = layout.contentsMargins()
        readable = self.text_label.fontMetrics().averageCharWidth() * NARROWEST_TEXT
        width = max(smallest.width(), readable + margins.left() + margins.right())
        return QSize(width, max(smallest.height(), layout.totalHeightForWidth(width)))

    def set_text(self, title: str, text: str, action: str = "") -> None:
        """Show `title` and `text`; `action` labels the button (none when empty)."""
        self.title_label.setText(title)
        self.text_label.setText(text)
        self.action_button.setText(action)
        self.action_button.setVisible(bool(action))
