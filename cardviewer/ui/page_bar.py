"""Paging controls under the card table: first, previous, a page number to type, next, last.

The bar only asks for pages (`pageRequested`); what is shown comes back through
`set_meta()`, so the controls always describe the page on screen, not a wish.
"""

from __future__ import annotations

import itertools

from PySide6.QtCore import QLocale, QSignalBlocker, QSize, Qt, Signal
from PySide6.QtGui import QIcon, QKeySequence
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QStyle,
    QToolButton,
    QWidget,
)

from cardviewer.api import PageMeta
from cardviewer.ui.text_coloured_icon import in_text_colour

ICON_SIZE = QSize(16, 16)
# The Go menu's keys for the buttons (`window_commands`), which a screen reader says.
FIRST_PAGE_KEY = "Alt+Home"
PREVIOUS_PAGE_KEY = "Ctrl+PgUp"
NEXT_PAGE_KEY = "Ctrl+PgDown"
LAST_PAGE_KEY = "Alt+End"


class PageBar(QWidget):
    """Disabled until a page is shown; buttons without a page to go to are disabled."""

    pageRequested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._meta: PageMeta | None = None
        sp = QStyle.StandardPixmap

        self.summary_label = QLabel(self)
        self.summary_label.setTextFormat(Qt.TextFormat.PlainText)

        self.first_button = self._button(
            "go-first", sp.SP_MediaSkipBackward, self.tr("First page"), FIRST_PAGE_KEY
        )
        self.previous_button = self._button(
            "go-previous", sp.SP_MediaSeekBackward, self.tr("Previous page"), PREVIOUS_PAGE_KEY
        )
        self.next_button = self._button(
            "go-next", sp.SP_MediaSeekForward, self.tr("Next page"), NEXT_PAGE_KEY
        )
        self.last_button = self._button(
            "go-last", sp.SP_MediaSkipForward, self.tr("Last page"), LAST_PAGE_KEY
        )
        self.first_button.clicked.connect(lambda: self._request_first())
        self.previous_button.clicked.connect(lambda: self._request_relative(-1))
        self.next_button.clicked.connect(lambda: self._request_relative(+1))
        self.last_button.clicked.connect(lambda: self.request_last())

        self.page_label = QLabel(self.tr("Page"), self)
        self.page_spin = QSpinBox(self)
        self.page_spin.setRange(1, 1)
        self.page_spin.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.page_spin.setButtonSymbols(QAbstractSpinBox.ButtonSymbols.NoButtons)
        # Jump when the number is confirmed (Enter or leaving the field), not per keystroke.
        self.page_spin.setKeyboardTracking(False)
        self.page_spin.setToolTip(self.tr("Type a page number and press Enter"))
        self.page_spin.setAccessibleName(self.tr("Page number"))
        self.page_spin.valueChanged.connect(self._spin_changed)
        self.page_label.setBuddy(self.page_spin)
        self.of_label = QLabel(self)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.summary_label)
        layout.addStretch(1)
        layout.addWidget(self.first_button)
        layout.addWidget(self.previous_button)
        layout.addSpacing(6)
        layout.addWidget(self.page_label)
        layout.addWidget(self.page_spin)
        layout.addWidget(self.of_label)
        layout.addSpacing(6)
        layout.addWidget(self.next_button)
        layout.addWidget(self.last_button)
        # Tab goes through them as they stand, the page number between the arrows.
        order = [self.first_button, self.previous_button, self.page_spin]
        for before, after in itertools.pairwise([*order, self.next_button, self.last_button]):
            QWidget.setTabOrder(before, after)
        self.set_meta(None)

    def focus_page_field(self) -> None:
        """Put the cursor in the page number, ready to type another one."""
        self.page_spin.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.page_spin.selectAll()

    def _button(
        self, theme_name: str, fallback: QStyle.StandardPixmap, name: str, key: str
    ) -> QToolButton:
        """A flat button with the desktop theme's icon, or the widget style's.

        Its tooltip is its name; a screen reader hears the name, then its key (the Go
        menu's), rather than the tooltip again.
        """
        button = QToolButton(self)
        fallback_icon = in_text_colour(self.style().standardIcon(fallback))  # light on dark
        button.setIcon(QIcon.fromTheme(theme_name, fallback_icon))
        button.setIconSize(ICON_SIZE)
        button.setAutoRaise(True)
        button.setToolTip(name)
        button.setAccessibleName(name)
        button.setAccessibleDescription(
            QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText)
        )
        return button

    @property
    def meta(self) -> PageMeta | None:
        return self._meta

    def set_meta(self, meta: PageMeta | None) -> None:
        """Describe the page on screen; None (nothing loaded) disables the whole bar."""
        self._meta = meta
        with QSignalBlocker(self.page_spin):
            if meta is None:
                self.page_spin.setRange(1, 1)
                self.page_spin.setValue(1)
            else:
                self.page_spin.setRange(1, max(meta.last_page, meta.current_page))
                self.page_spin.setValue(meta.current_page)
        last = meta.last_page if meta is not None else 1
        self.of_label.setText(self.tr("of %Ln", "", last))
        digits = self.page_spin.fontMetrics().horizontalAdvance("0" * max(len(str(last)), 2))
        self.page_spin.setFixedWidth(digits + 20)
        self.summary_label.setText(self._summary(meta))
        self.setEnabled(meta is not None)
        has_previous = meta is not None and meta.has_previous
        has_next = meta is not None and meta.has_next
        self.first_button.setEnabled(has_previous)
        self.previous_button.setEnabled(has_previous)
        self.next_button.setEnabled(has_next)
        self.last_button.setEnabled(has_next or _past_the_end(meta))

    def spoken_summary(self) -> str:
        """The page shown, as a screen reader says it when a page arrives."""
        meta = self._meta
        if meta is None:
            return ""
        text = self.tr("Page %1 of %2. %3", "the page shown, its last page, the summary")
        locale = QLocale()
        text = text.replace("%1", locale.toString(meta.current_page))
        text = text.replace("%2", locale.toString(meta.last_page))
        return text.replace("%3", self.summary_label.text())

    def show_loading(self, page: int, summary: str) -> None:
        """Another page is on its way: its number in the box, `summary` beside it.

        `set_meta()` puts back the page shown when it arrives, fails or is called off.
        """
        with QSignalBlocker(self.page_spin):
            self.page_spin.setMaximum(max(self.page_spin.maximum(), page))
            self.page_spin.setValue(page)
        self.summary_label.setText(summary)

    def _summary(self, meta: PageMeta | None) -> str:
        if meta is None:
            return ""
        if meta.total == 0:
            return self.tr("No cards")
        if meta.from_ is None or meta.to is None:
            return self.tr("No cards on this page (%Ln in total)", "", meta.total)
        if meta.total == 1:
            return self.tr("Showing 1 card")
        locale = QLocale()
        text = self.tr("Showing %1\u2013%2 of %Ln cards", "", meta.total)
        return text.replace("%1", locale.toString(meta.from_)).replace(
            "%2", locale.toString(meta.to)
        )

    def _request(self, page: int) -> None:
        if self._meta is None or page < 1 or page == self._meta.current_page:
            return
        self.pageRequested.emit(page)

    def _request_first(self) -> None:
        self._request(1)

    def request_last(self) -> None:
        """Ask for the last page of the space shown (from an empty page past its end, too)."""
        if self._meta is not None:
            self._request(self._meta.last_page)

    def _request_relative(self, step: int) -> None:
        if self._meta is None:
            return
        if step < 0 and _past_the_end(self._meta):
            # Every page between here and the last one is empty too.
            self._request(self._meta.last_page)
        else:
            self._request(self._meta.current_page + step)

    def _spin_changed(self, page: int) -> None:
        self._request(page)


def _past_the_end(meta: PageMeta | None) -> bool:
    """A page number beyond the last page was asked for (the server answers it, empty)."""
    return meta is not None and meta.current_page > meta.last_page
