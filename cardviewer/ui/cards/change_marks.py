"""What the last sync changed within a card: the fields, and what each one was before.

The view of changed cards tints the cells that changed and says in their tooltips what
they were; the details pane names the fields and shows their values before. A field
that changed may well be out of view in a wide table, so both say it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor, QPalette

from cardviewer.api.models import Card
from cardviewer.services.card_columns import Column, ValueKind, compact_json
from cardviewer.ui.cards.card_table_model import avatar_url
from cardviewer.ui.cards.columns import display_text, tooltip_text
from cardviewer.ui.colour_scheme import mix
from cardviewer.ui.plain_text import plain_tooltip

BEFORE_EXCERPT = 200
"""Characters of a value before shown at most: a tooltip is a line, not the whole text."""
TINT = 0.25
"""How much of the selection's colour a changed cell's background takes."""

_INVALID = object()
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ACCESSIBLE_TEXT = int(Qt.ItemDataRole.AccessibleTextRole)


def changed_columns(columns: Sequence[Column], card: Card, before: Card) -> frozenset[int]:
    """The indexes of the columns whose value differs between `before` and `card`.

    The e-mail addresses count only where both syncs asked for them: a copy synced
    without them says nothing of them, as the count of what changed does not."""
    both_with_emails = card.emails is not None and before.emails is not None
    return frozenset(
        number
        for number, column in enumerate(columns)
        if (both_with_emails or column.kind is not ValueKind.EMAILS)
        and _compared(column, card) != _compared(column, before)
    )


def _compared(column: Column, card: Card) -> Any:
    """What tells two versions of a field apart: its value, or the bad value sent."""
    if column.is_invalid(card):
        return (_INVALID, compact_json(card.invalid_fields[column.key]))
    return column.value(card)


def before_text(column: Column, card: Card, before: Card) -> str:
    """What a changed field was before the last sync, said in full (a cell's tooltip)."""
    return QCoreApplication.translate("ChangeMarks", "Before the last sync: %1").replace(
        "%1", _value_before(column, card, before)
    )


def was_text(column: Column, card: Card, before: Card) -> str:
    """What a changed field was, under its value in the details (whose heading says
    "Changed by the last sync")."""
    return QCoreApplication.translate("ChangeMarks", "Before: %1").replace(
        "%1", _value_before(column, card, before)
    )


def _value_before(column: Column, card: Card, before: Card) -> str:
    if column.kind is ValueKind.AVATAR:
        if avatar_url(before) is None:
            return QCoreApplication.translate("ChangeMarks", "no picture")
        if avatar_url(card) is None:  # the picture was taken off
            return QCoreApplication.translate("ChangeMarks", "a picture")
        return QCoreApplication.translate("ChangeMarks", "another picture")
    text = display_text(column, before)
    if not text:
        return QCoreApplication.translate("ChangeMarks", "empty", "a field without a value")
    if len(text) > BEFORE_EXCERPT:
        text = text[: BEFORE_EXCERPT - 1] + "…"
    return text


def with_before(role: int, text: Any, column: Column, card: Card, before: Card) -> Any:
    """A changed cell's tooltip or spoken text, given as `text` for an unchanged one,
    with what the field was `before`."""
    said = before_text(column, card, before)
    if role == _TOOLTIP:
        own = tooltip_text(column, card)
        return plain_tooltip(f"{own}\n{said}" if own else said)
    if role == _ACCESSIBLE_TEXT:
        own = text if text is not None else display_text(column, card)
        return f"{own}. {said}"
    return text


def changed_fields_text(titles: Sequence[str]) -> str:
    """What the details pane says under a changed card's name."""
    if not titles:  # a part of the card no column shows (such as its picture's id)
        return QCoreApplication.translate("ChangeMarks", "Changed by the last sync")
    return QCoreApplication.translate("ChangeMarks", "Changed by the last sync: %1").replace(
        "%1", ", ".join(titles)
    )


def change_tint(palette: QPalette) -> QColor:
    """The background of a changed cell: the table's, tinted with the selection's colour,
    so that it reads in light and dark schemes and stays apart from a selected row."""
    return mix(
        palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Highlight), TINT
    )
