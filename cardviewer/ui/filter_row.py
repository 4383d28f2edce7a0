"""The row over the card table: filter as you type, how many cards pass, Sync Space.

Filtering covers the cards the table holds: one page, or the whole space from its local
copy; the field's placeholder says which. When the filter hides every card, a state
page in place of the table says so, rather than an empty white table; Escape in the
field clears the filter.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from PySide6.QtCore import QCoreApplication, QEvent, QLocale, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QIcon, QKeyEvent
from PySide6.QtWidgets import QLabel, QLineEdit, QToolButton, QWidget

from cardviewer.ui.announcements import announce, name_clear_button, name_field_button
from cardviewer.ui.card_area import STATE_ICON_SIZE, CardStack
from cardviewer.ui.filter_row_layout import FilterRowLayout
from cardviewer.ui.state_page import StatePage


class FilterTarget(Protocol):
    """What the row filters: a page's `CardFilterModel`, or a whole space's model."""

    countsChanged: Any  # Signal(int, int): shown, total

    def set_filter_text(self, text: str) -> None: ...

    def filter_text(self) -> str: ...

    def filter_terms(self) -> tuple[str, ...]: ...

    def rowCount(self) -> int: ...

    def total_count(self) -> int: ...


MINIMUM_FILTER_LENGTH = 14
NATURAL_FILTER_LENGTH = 36
"""Characters the filter field has room for at the least, and where the row has room."""
SHOWN_FILTER_LENGTH = 40
"""Characters of the filter the no-match page repeats; a longer one is cut short."""
SAY_COUNT_AFTER_MS = 600
"""A pause in typing this long, and a screen reader says how many cards the filter lets
through."""
SAY_SORTING_AFTER_MS = 400
"""A whole space's answer slower than this, and the count's place says it is being
sorted (the first sort after the reader's language changed ranks every text again)."""


class FilterField(QLineEdit):
    """The filter's field: room for its placeholder where there is, never only a letter.

    Beside the source switch and the Sync Space button in a narrow window, a plain
    `QLineEdit` was the first to give way, down to a letter of its placeholder.
    """

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(max(hint.width(), self._chars(NATURAL_FILTER_LENGTH)), hint.height())

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(max(hint.width(), self._chars(MINIMUM_FILTER_LENGTH)), hint.height())

    def _chars(self, count: int) -> int:
        return self.fontMetrics().horizontalAdvance("x") * count


class CountLabel(QLabel):
    """How many cards the filter lets through; with no filter, no room kept for it."""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return hint if self.text() else QSize(0, hint.height())

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return hint if self.text() else QSize(0, hint.height())


class FilterScope(Enum):
    """What the filter chooses among: the page, the whole space, or the cards of the
    whole space the last sync changed so."""

    PAGE = "page"
    SPACE = "space"
    CHANGES = "changes"


@dataclass(frozen=True)
class ScopeTexts:
    """What the filter field says of its scope, and the page shown when nothing matches
    (its title holds the filter as `%1`)."""

    placeholder: str
    name: str
    tip: str
    no_match_title: str
    no_match_text: str


def scope_texts(scope: FilterScope) -> ScopeTexts:
    """The texts of `scope` in the language installed now."""
    if scope is FilterScope.CHANGES:
        return ScopeTexts(
            QCoreApplication.translate("MainWindow", "Filter the cards shown (Ctrl+F)"),
            QCoreApplication.translate("MainWindow", "Filter the cards shown"),
            QCoreApplication.translate(
                "MainWindow",
                "Shows the cards whose name, username, position or e-mail contain every "
                "word typed, of those the last sync changed so.",
            ),
            QCoreApplication.translate("MainWindow", "No card shown matches \u201c%1\u201d"),
            QCoreApplication.translate(
                "MainWindow", "Clear the filter (Esc) to see every one of these cards again."
            ),
        )
    if scope is FilterScope.SPACE:
        return ScopeTexts(
            QCoreApplication.translate("MainWindow", "Filter all cards of the space (Ctrl+F)"),
            QCoreApplication.translate("MainWindow", "Filter all cards of the space"),
            QCoreApplication.translate(
                "MainWindow",
                "Shows the cards whose name, username, position or e-mail contain every "
                "word typed. Filtering and sorting apply to every card of the space.",
            ),
            QCoreApplication.translate("MainWindow", "No card of the space matches \u201c%1\u201d"),
            QCoreApplication.translate(
                "MainWindow", "Clear the filter (Esc) to see every card of the space again."
            ),
        )
    return ScopeTexts(
        QCoreApplication.translate("MainWindow", "Filter the cards of this page (Ctrl+F)"),
        QCoreApplication.translate("MainWindow", "Filter the cards of this page"),
        QCoreApplication.translate(
            "MainWindow",
            "Shows the cards whose name, username, position or e-mail contain every "
            "word typed. Filtering and sorting apply to the page loaded.",
        ),
        QCoreApplication.translate("MainWindow", "No card on this page matches \u201c%1\u201d"),
        QCoreApplication.translate(
            "MainWindow", "Clear the filter (Esc) to see every card of this page again."
        ),
    )


class FilterRow(QWidget):
    """A search field that filters `proxy`, the count it lets through, and a button for
    `space_action` (the window's Sync Space).

    `set_target()` points it at another model (the whole space's, and back).
    """

    def __init__(
        self, proxy: FilterTarget, space_action: QAction, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._proxy = proxy
        self._scope = FilterScope.PAGE
        self._stack: CardStack | None = None
        self.no_match_page: StatePage | None = None
        self.filter_edit = FilterField(self)
        self.filter_edit.setClearButtonEnabled(True)
        name_clear_button(
            self.filter_edit,
            QCoreApplication.translate("MainWindow", "Clear the filter"),
            QCoreApplication.translate("MainWindow", "Shows every card again (Esc)"),
        )
        search_icon = QIcon.fromTheme(QIcon.ThemeIcon.EditFind)
        if not search_icon.isNull():  # no room kept for an icon the desktop lacks
            search = self.filter_edit.addAction(
                search_icon, QLineEdit.ActionPosition.LeadingPosition
            )
            name_field_button(
                self.filter_edit, search, QCoreApplication.translate("MainWindow", "Search")
            )
        self._said = ""
        self._say_count = QTimer(self)  # once typing pauses, not at every key
        self._say_count.setSingleShot(True)
        self._say_count.setInterval(SAY_COUNT_AFTER_MS)
        self._say_count.timeout.connect(self._announce_count)
        self._sorting = QTimer(self)  # only an answer slow to come is said
        self._sorting.setSingleShot(True)
        self._sorting.setInterval(SAY_SORTING_AFTER_MS)
        self._sorting.timeout.connect(self._say_sorting)
        self._says_sorting = False
        self.count_label = CountLabel(self)
        self.count_label.setTextFormat(Qt.TextFormat.PlainText)
        self.space_button = QToolButton(self)
        self.space_button.setDefaultAction(space_action)
        self.space_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self._row = FilterRowLayout(self, self.filter_edit, self.count_label, self.space_button)
        self.describe_scope(whole_space=False)

        self.filter_edit.textChanged.connect(self._filter)
        self.filter_edit.installEventFilter(self)
        proxy.countsChanged.connect(self.show_count)

    def add_leading(self, widget: QWidget) -> None:
        """Put `widget` before the field (the choice of what the table shows); where the
        field has no room beside it, the field goes to a line of its own below.

        It comes before the field for Tab too, and a screen reader hears what it is
        for: its accessible name, by a label (on Linux a choice's own name is its
        current text), and what it chooses between.
        """
        self._row.set_choice(widget)
        # After the control before the field (Qt orders only controls that take focus).
        before = self.filter_edit.previousInFocusChain()
        while before is not None and before.focusPolicy() == Qt.FocusPolicy.NoFocus:
            before = before.previousInFocusChain()
        if before is not None and before is not widget and before is not self.filter_edit:
            QWidget.setTabOrder(before, widget)
        label = QLabel(widget.accessibleName(), self)
        label.setBuddy(widget)
        label.hide()  # heard, not seen: the choices say it on screen
        widget.setAccessibleDescription(
            QCoreApplication.translate(
                "MainWindow", "Pages from the server, or every card of the space's local copy"
            )
        )

    def set_target(self, target: FilterTarget) -> None:
        """Filter `target` from now on, by the words typed so far."""
        if target is self._proxy:
            return
        self._proxy.countsChanged.disconnect(self.show_count)
        if self._stack is not None:
            self._proxy.countsChanged.disconnect(self._follow_filter)
            target.countsChanged.connect(self._follow_filter)
        target.countsChanged.connect(self.show_count)
        self._proxy = target
        self._sorting.stop()  # a note of the model before; the count below replaces it
        self._says_sorting = False
        target.set_filter_text(self.filter_edit.text())
        self.show_count(target.rowCount(), target.total_count())
        self._follow_filter()

    def _filter(self, text: str) -> None:
        self._proxy.set_filter_text(text)

    def sorting_started(self) -> None:
        """The target began a sort or filter that answers later (a whole space's)."""
        self._sorting.start()

    def sorting_finished(self) -> None:
        """The target answered (or another is shown): the count's place shows the count."""
        self._sorting.stop()
        if self._says_sorting:
            self._says_sorting = False
            self.show_count(self._proxy.rowCount(), self._proxy.total_count())

    def _say_sorting(self) -> None:
        self._says_sorting = True
        self.count_label.setText(QCoreApplication.translate("MainWindow", "Sorting…"))

    def cover(self, stack: CardStack) -> None:
        """Show in `stack`, instead of its table, that the filter hides every card."""
        self._stack = stack
        picture = stack.window().windowIcon().pixmap(STATE_ICON_SIZE, QIcon.Mode.Disabled)
        self.no_match_page = StatePage(picture, stack)
        self.no_match_page.action_button.clicked.connect(self._clear_from_page)
        stack.addWidget(self.no_match_page)
        self._proxy.countsChanged.connect(self._follow_filter)
        stack.currentChanged.connect(self._follow_filter)

    def describe_scope(
        self, whole_space: bool, *, shown: bool = True, changes: bool = False
    ) -> None:
        """Say whether filtering covers the page or, while it is shown, the whole space,
        or of it the cards the last sync changed (`changes`); the field is greyed out
        while there are no cards `shown` to filter."""
        if not whole_space:
            self._scope = FilterScope.PAGE
        else:
            self._scope = FilterScope.CHANGES if changes else FilterScope.SPACE
        self.filter_edit.setEnabled(shown)
        texts = scope_texts(self._scope)
        self.filter_edit.setPlaceholderText(texts.placeholder)
        self.filter_edit.setAccessibleName(texts.name)
        self.filter_edit.setToolTip(texts.tip)
        self.show_count(self._proxy.rowCount(), self._proxy.total_count())
        self._follow_filter()  # a no-match page shown says what it now covers

    def show_count(self, shown: int, total: int) -> None:
        """ "3 of 20 shown" while a filter is typed; without one, "100,000 cards" in the
        whole space (a page's count is in the page bar).

        A screen reader says a filter's count too, or that no card matches, once
        typing pauses.
        """
        if not self._proxy.filter_text().strip() or not total:  # no "0 of 0 shown"
            self._said = ""
            self._say_count.stop()
            if self._scope is FilterScope.PAGE or not total:
                self.count_label.clear()
            elif total == 1:  # English has no catalogue to find its singular in
                self.count_label.setText(self.tr("1 card"))
            else:  # `tr()` of the widget: the translation tools find a plural only there
                self.count_label.setText(self.tr("%Ln cards", "", total))
            return
        locale = QLocale()
        text = QCoreApplication.translate("MainWindow", "%1 of %2 shown")
        text = text.replace("%1", locale.toString(shown))
        self.count_label.setText(text.replace("%2", locale.toString(total)))
        self._say_count.start()

    def _announce_count(self) -> None:
        if not self._proxy.filter_text().strip():
            return
        said = self._no_match_text()[0] if self._hides_every_card() else self.count_label.text()
        if said != self._said:
            self._said = said
            announce(self.filter_edit, said)

    def focus(self) -> None:
        """Put the cursor in the field with its text selected, ready to type over it."""
        self.filter_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_edit.selectAll()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Escape clears the filter; with none, it does what it would have done."""
        if (
            watched is self.filter_edit
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
            and self.filter_edit.text()
        ):
            self.filter_edit.clear()
            return True
        return super().eventFilter(watched, event)

    def _hides_every_card(self) -> bool:
        proxy = self._proxy
        return bool(proxy.filter_terms()) and proxy.rowCount() == 0 and proxy.total_count() > 0

    def _follow_filter(self, *_args: object) -> None:
        """The table while the filter lets a card through, the no-match page when it does not."""
        stack, page = self._stack, self.no_match_page
        if stack is None or page is None:
            return
        current = stack.currentWidget()
        if current is not stack.table and current is not page:
            return  # no space open, or no cards on the page: that page says so
        if not self._hides_every_card():
            if current is page:
                stack.show_table()
            return
        page.set_text(*self._no_match_text())
        if current is not page:
            stack.setCurrentWidget(page)

    def _no_match_text(self) -> tuple[str, str, str]:
        shown = self._proxy.filter_text().strip()
        if len(shown) > SHOWN_FILTER_LENGTH:
            shown = shown[: SHOWN_FILTER_LENGTH - 1].rstrip() + "\u2026"
        texts = scope_texts(self._scope)
        button = QCoreApplication.translate("MainWindow", "Clear Filter")
        return texts.no_match_title.replace("%1", shown), texts.no_match_text, button

    def _clear_from_page(self) -> None:
        self.filter_edit.clear()
        self.filter_edit.setFocus(Qt.FocusReason.OtherFocusReason)
