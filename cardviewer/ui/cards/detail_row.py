"""One row of the details pane: a field's title, its value, and what it was before.

The pane shows card after card as the selection moves, a Down key at a time. Its rows
are therefore made once and filled anew for each card: labels made and deleted for
every card cost most of a key's time (Qt polishes each new label, lays out the form
from scratch and deletes the old ones), where setting the texts of labels in place
costs little.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QFont, QFontDatabase, QHelpEvent, QPalette
from PySide6.QtWidgets import QLabel, QSizePolicy, QToolTip, QVBoxLayout

from cardviewer.api.models import Card
from cardviewer.services.card_columns import Column, ValueKind, compact_json
from cardviewer.ui.cards.card_table_model import not_set_text
from cardviewer.ui.cards.change_marks import was_text
from cardviewer.ui.cards.columns import display_text, iso_timestamp, tooltip_text
from cardviewer.ui.cards.value_label import ValueLabel
from cardviewer.ui.cards.value_text import field_lines, item_lines
from cardviewer.ui.plain_text import plain_tooltip

EMPTY = "\N{EM DASH}"
"""What a value not set shows."""
SELECTABLE = Qt.TextInteractionFlag.TextSelectableByMouse | (
    Qt.TextInteractionFlag.TextSelectableByKeyboard
)


def fit_width(label: QLabel) -> None:
    """Let `label` be as narrow as the pane: its text wraps, and never widens the pane.

    A word-wrapped label asks for the width of its longest word, so one long address
    or JSON text would push the pane wider than the window gives it.
    """
    policy = label.sizePolicy()
    policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
    label.setSizePolicy(policy)


def json_ready(value: Any) -> Any:
    """`value` with only JSON's types: times as ISO text, tuples as lists."""
    if isinstance(value, datetime):
        return iso_timestamp(value)
    if isinstance(value, dict):
        return {str(key): json_ready(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(item) for item in value]
    return value


def _pretty_json(value: Any) -> str:
    return json.dumps(json_ready(value), ensure_ascii=False, indent=2, default=str)


class WholeTextTip(QObject):
    """Shows the whole text of a value cut off at the pane's edge as its tooltip, where
    it has none of its own, without making it the label's accessible description: the
    screen reader already says the whole as its name."""

    def __init__(self, label: ValueLabel) -> None:
        super().__init__(label)
        self._label = label
        label.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        label = self._label
        tip = event.type() == QEvent.Type.ToolTip and not label.toolTip() and label.is_cut()
        if tip and isinstance(event, QHelpEvent):
            QToolTip.showText(event.globalPos(), plain_tooltip(label.text()), label)
            return True
        return super().eventFilter(watched, event)


def _label(role: QPalette.ColorRole | None = None) -> QLabel:
    label = QLabel()
    _set_up(label, role)
    return label


def _value_label(role: QPalette.ColorRole | None = None) -> ValueLabel:
    """A value: wrapped, selectable, as narrow as the pane, its cut words marked."""
    label = ValueLabel()
    _set_up(label, role)
    label.setWordWrap(True)
    label.setTextInteractionFlags(SELECTABLE)
    fit_width(label)
    WholeTextTip(label)
    return label


def _set_up(label: QLabel, role: QPalette.ColorRole | None) -> None:
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    if role is not None:
        label.setForegroundRole(role)


class DetailRow:
    """The widgets of one form row, filled by `show()` for a field of a card.

    `title` goes in the form's label column, `field` in its field column: the value,
    and under it, for a field the last sync changed, what it was (hidden otherwise).
    `field` is a layout, not a widget: a screen reader finds each value among the
    pane's, not inside a nameless panel of its own.
    Each value label is named `value_<key>` and each before `before_<key>` while they
    show that field, so that tests and accessibility tools find them by field.
    """

    def __init__(self) -> None:
        self.title = _label(QPalette.ColorRole.PlaceholderText)
        self.value = _value_label()
        self.was: ValueLabel | None = None
        """What the field was before the last sync: made for the first changed card
        shown, so that a screen reader finds no hidden "before" beside every value."""
        self.title.setBuddy(self.value)  # what a form does for a field of one widget
        self.field = QVBoxLayout()
        self.field.setContentsMargins(0, 0, 0, 0)
        self.field.setSpacing(2)
        self.field.addWidget(self.value)
        self._monospace = False

    def show(self, column: Column, card: Card, before: Card | None = None) -> None:
        """The field's title and value; of a field the last sync changed, what it was
        `before` right under its value (the picture, shown above, has only that)."""
        self.title.setText(column.title)
        if before is not None:
            self._show_was(column, was_text(column, card, before))
        elif self.was is not None:
            self.was.clear()
            self.was.setObjectName("")
            self.was.hide()
        if column.kind is ValueKind.AVATAR:
            self.value.clear()
            self.value.setObjectName("")
            self.value.hide()
            return
        self._show_value(column, card)
        self.value.show()

    def _show_was(self, column: Column, text: str) -> None:
        if self.was is None:
            self.was = _value_label(QPalette.ColorRole.PlaceholderText)
            self.field.addWidget(self.was)  # the pane's child, as the value is
        self.was.setText(text)
        self.was.setObjectName(f"before_{column.key}")
        self.was.setAccessibleName(f"{column.title}: {text}")
        self.was.show()

    def _show_value(self, column: Column, card: Card) -> None:
        text, description, monospace = value_text(column, card)
        value = self.value
        value.setText(text)
        value.setObjectName(f"value_{column.key}")
        # Field and value together, as one line: the title label alone says only half.
        value.setAccessibleName(f"{column.title}: {description}")
        if monospace != self._monospace:
            fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
            value.setFont(fixed if monospace else QFont())  # QFont(): the pane's again
            self._monospace = monospace
        nested = column.kind is not ValueKind.EMAILS and isinstance(
            column.value(card), dict | list | tuple
        )
        tip = ""
        if column.kind is ValueKind.TIMESTAMP or column.is_invalid(card) or nested:
            tip = tooltip_text(column, card) or ""
        value.setToolTip(plain_tooltip(tip) if tip else "")
        value.setAccessibleDescription(tip)  # the tooltip's text, without its markup


def value_text(column: Column, card: Card) -> tuple[str, str, bool]:
    """The text a value shows, what a screen reader says for it, and if it is JSON."""
    if column.is_invalid(card):
        raw = card.invalid_fields[column.key]
        marker = QCoreApplication.translate("CardDetailsPane", "(invalid)")
        if isinstance(raw, dict | list):
            return f"{marker}\n{_pretty_json(raw)}", f"{marker} {compact_json(raw)}", True
        text = f"{marker} {compact_json(raw)}"
        return text, text, False
    value = column.value(card)
    if value is None or value in ("", (), [], {}):
        return EMPTY, not_set_text(), False
    if isinstance(value, dict):
        text = "\n".join(field_lines(value))
        return text, text, False
    if isinstance(value, list | tuple) and column.kind is not ValueKind.EMAILS:
        text = "\n".join(item_lines(value))
        return text, text, False
    if isinstance(value, list | tuple):
        text = "\n".join(map(str, value))
        return text, text, False
    if isinstance(value, str):
        return value, value, False  # its own line breaks kept, unlike in a table cell
    text = display_text(column, card)
    return text, text, False
