"""The window's middle: the filter row over the card table, the details pane beside them.

The table gives way to a state page when it has nothing to show: before a space is
opened, while its first page is on its way, and when a page has no cards. The details
pane shows the table's current card.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QIcon, QResizeEvent
from PySide6.QtWidgets import QSplitter, QStackedWidget, QTableView, QVBoxLayout, QWidget

from cardviewer.services.settings import Settings
from cardviewer.ui.cards.card_details import CardDetailsPane
from cardviewer.ui.cards.card_filter_model import CardFilterModel
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.cards.space_table_model import SpaceTableModel
from cardviewer.ui.page_messages import StateText
from cardviewer.ui.settings_saving import save_settings
from cardviewer.ui.state_page import StatePage

STATE_ICON_SIZE = 64
DEFAULT_SPLITTER_SIZES = [800, 380]
NARROWED_DETAILS_SHARE = 0.4
"""The most of the width the details pane keeps as the window is made narrower."""


class CardStack(QStackedWidget):
    """The table, or a page saying why there is nothing in it; starts with the hint."""

    def __init__(
        self, table: QTableView, icon: QIcon, hint: StateText, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.table = table
        self.hint_page = StatePage(icon.pixmap(STATE_ICON_SIZE), self)
        self.hint_page.set_text(hint.title, hint.text)
        self.empty_page = StatePage(icon.pixmap(STATE_ICON_SIZE, QIcon.Mode.Disabled), self)
        self.loading_page = StatePage(icon.pixmap(STATE_ICON_SIZE), self)
        self.addWidget(self.hint_page)
        self.addWidget(table)
        self.addWidget(self.empty_page)
        self.addWidget(self.loading_page)

    def show_table(self) -> None:
        self.setCurrentWidget(self.table)

    def current_is_table(self) -> bool:
        return self.currentWidget() is self.table

    def show_hint(self, state: StateText | None = None) -> None:
        """Nothing is shown, nothing is on its way: how to open a space (`state`: what
        to say instead)."""
        if state is not None:
            self.hint_page.set_text(state.title, state.text)
        self.setCurrentWidget(self.hint_page)

    def show_loading(self, state: StateText) -> None:
        """Say which page is on its way while there is no page to show meanwhile."""
        self.loading_page.set_text(state.title, state.text, state.action)
        self.setCurrentWidget(self.loading_page)

    def show_empty(self, state: StateText) -> None:
        """Say why the page has no cards, with a way on when `state` has one."""
        self.empty_page.set_text(state.title, state.text, state.action)
        self.setCurrentWidget(self.empty_page)


class CardArea(QSplitter):
    """The cards (filter row over the stack) on the left, the details pane on the right.

    Only the cards grow with the window; neither side can be collapsed away. As the
    window is made narrower, the pane gives way too, down to `NARROWED_DETAILS_SHARE`
    of the width (or the least the card shown needs), and it comes back to its width
    as the window widens again: the cards alone gave way, and at 800 pixels the table
    had half the window, its second column cut.
    """

    def __init__(
        self,
        filter_row: QWidget,
        stack: CardStack,
        details_pane: CardDetailsPane,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setObjectName("detailsSplitter")
        cards = QWidget(self)
        cards_layout = QVBoxLayout(cards)
        cards_layout.setContentsMargins(0, 0, 0, 0)
        cards_layout.setSpacing(4)
        cards_layout.addWidget(filter_row)
        cards_layout.addWidget(stack, 1)
        self.addWidget(cards)
        self.addWidget(details_pane)
        self.setStretchFactor(0, 1)
        self.setStretchFactor(1, 0)
        self.setChildrenCollapsible(False)
        self._wanted: tuple[int, int] | None = None
        """The pane's width as last set or dragged, and the area's then; None: as they
        are at the next resize."""
        self.setSizes(DEFAULT_SPLITTER_SIZES)
        self.splitterMoved.connect(self._moved)
        # The pane's hint only beside cards to select.
        stack.currentChanged.connect(lambda: details_pane.offer_hint(stack.current_is_table()))
        details_pane.offer_hint(stack.current_is_table())

    def setSizes(self, sizes: Sequence[int]) -> None:
        """Sizes set by the window (its first layout, Reset View): the pane's width then
        is the one it comes back to."""
        super().setSizes(sizes)
        self._wanted = None

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        pane = self.widget(1)
        if pane is None or pane.isHidden() or event.oldSize().width() <= 0:
            return
        cards, details = self.sizes()
        width = event.size().width()
        if self._wanted is None:
            self._wanted = (details, max(width, event.oldSize().width()))
        wanted, wanted_at = self._wanted
        fits = wanted  # as wide as the window was where it was wanted: all of it
        if width < wanted_at:
            share = round(width * NARROWED_DETAILS_SHARE)
            fits = min(wanted, max(share, pane.minimumSizeHint().width()))
        if fits != details:
            super().setSizes([cards + details - fits, fits])

    def _moved(self) -> None:
        """The person dragged the handle: the width the pane comes back to."""
        self._wanted = (self.sizes()[1], self.width())


class CurrentCardDetails(QObject):
    """Keeps the details pane on the table's current card, shown or hidden as last chosen.

    With no current card the pane shows its hint. `toggle` is the window's Details Pane
    command, which `set_visible()` answers. The cards are the page's (`proxy` over
    `model`) unless `follow_space()` points the pane at a whole space's model.
    """

    def __init__(
        self,
        table: QTableView,
        proxy: CardFilterModel,
        model: CardTableModel,
        pane: CardDetailsPane,
        toggle: QAction,
        settings: Settings,
    ) -> None:
        super().__init__(pane)
        self._table, self._proxy, self._pane = table, proxy, pane
        self._model, self._toggle, self._settings = model, toggle, settings
        self._space: SpaceTableModel | None = None
        pane.setVisible(settings.details_visible)
        table.selectionModel().currentRowChanged.connect(self.show_current_card)
        table.activated.connect(self.open)
        model.modelReset.connect(self.show_current_card)

    def follow_space(self, space: SpaceTableModel | None) -> None:
        """Show the cards of `space` (already the table's model), or the page's (None)."""
        self._space = space
        # The table made a new selection model with its new model.
        self._table.selectionModel().currentRowChanged.connect(self.show_current_card)
        if space is not None:
            space.modelReset.connect(self.show_current_card)
        self.show_current_card()

    def show_current_card(self) -> None:
        """Show the current row's card (nothing: the pane's hint), once the pane shows.

        Filling the pane is most of the work of a key moving down the table: hidden, it
        is filled as it is shown again (`set_visible`).
        """
        if self._pane.isHidden():
            return
        current = self._table.currentIndex()
        row = current.row() if current.isValid() else -1
        if self._space is not None:
            space = self._space
            before = space.card_before(row)  # of a changed card
            self._pane.set_card(space.card(row), space.columns, change=space.change, before=before)
        else:
            self._pane.set_card(self._proxy.card(row), self._model.columns)

    def open(self) -> None:
        """Enter or a double-click on a card shows it in the details pane."""
        self._toggle.setChecked(True)
        self.show_current_card()

    def set_visible(self, visible: bool) -> None:
        """Show or hide the pane, and remember that for the next start."""
        self._pane.setVisible(visible)
        if visible:
            self.show_current_card()
        if self._settings.details_visible != visible:
            self._settings.details_visible = visible
            save_settings(self._settings)
