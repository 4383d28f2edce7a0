"""The row over the card table: filter as you type, how many cards pass, Load All.

Filtering covers the cards the table holds: one page, or the whole space once all its
pages are loaded; the field's placeholder says which.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale, Qt
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from cardviewer.ui.cards.card_filter_model import CardFilterModel


class FilterRow(QWidget):
    """A search field that filters `proxy`, the count it lets through, and a Load All button."""

    def __init__(
        self, proxy: CardFilterModel, load_all_action: QAction, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._proxy = proxy
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setToolTip(
            QCoreApplication.translate(
                "MainWindow",
                "Shows the cards whose name, username, position or e-mail contain every "
                "word typed. Filtering and sorting apply to the page loaded.",
            )
        )
        self.filter_edit.setAccessibleName(QCoreApplication.translate("MainWindow", "Filter cards"))
        self.filter_edit.setClearButtonEnabled(True)
        search_icon = QIcon.fromTheme(QIcon.ThemeIcon.EditFind)
        if not search_icon.isNull():  # no room kept for an icon the desktop lacks
            self.filter_edit.addAction(search_icon, QLineEdit.ActionPosition.LeadingPosition)
        self.count_label = QLabel(self)
        self.count_label.setTextFormat(Qt.TextFormat.PlainText)
        self.load_all_button = QToolButton(self)
        self.load_all_button.setDefaultAction(load_all_action)
        self.load_all_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        row.addWidget(self.filter_edit, 1)
        row.addWidget(self.count_label)
        row.addWidget(self.load_all_button)

        self.filter_edit.textChanged.connect(proxy.set_filter_text)
        proxy.counts_changed.connect(self.show_count)

    def describe_scope(self, whole_space: bool) -> None:
        """Say whether filtering covers the page or, once all are loaded, the whole space."""
        if whole_space:
            text = QCoreApplication.translate(
                "MainWindow", "Filter all cards of the space (Ctrl+F)"
            )
        else:
            text = QCoreApplication.translate(
                "MainWindow", "Filter the cards of this page (Ctrl+F)"
            )
        self.filter_edit.setPlaceholderText(text)

    def show_count(self, shown: int, total: int) -> None:
        """ "3 of 20 shown" while a filter is typed; nothing without one."""
        if not self._proxy.filter_text().strip():
            self.count_label.clear()
            return
        locale = QLocale()
        text = QCoreApplication.translate("MainWindow", "%1 of %2 shown")
        text = text.replace("%1", locale.toString(shown))
        self.count_label.setText(text.replace("%2", locale.toString(total)))

    def focus(self) -> None:
        """Put the cursor in the field with its text selected, ready to type over it."""
        self.filter_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_edit.selectAll()
