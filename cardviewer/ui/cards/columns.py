"""How the card table's columns read on screen: headings, cell text, tooltips, alignment.

The columns themselves, and what they write to a file, are `services.card_columns`;
here they get the reader's language (headings, "Yes"/"No", a CSV file's "yes"/"no"),
the locale's numbers and dates, a short summary of a nested value (`value_text`), and
the tooltip that tells the exact value.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt

from cardviewer.api.models import Card
from cardviewer.services.card_columns import (
    EMAILS_KEY,
    ID_KEY,
    Column,
    ColumnTitles,
    ValueKind,
    compact_json,
)
from cardviewer.ui.cards.value_text import cell_text, counts, format_local_time

INVALID_EXCERPT = 200
MAX_TOOLTIP_LINES = 40
"""A nested value's JSON in a tooltip stops here; the whole is in Copy as JSON and files."""
SUBSCRIPTIONS_KEY = "subscriptions"

_ALIGNMENT = {
    ValueKind.AVATAR: Qt.AlignmentFlag.AlignCenter,
    ValueKind.NUMBER: Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
    ValueKind.FLAG: Qt.AlignmentFlag.AlignCenter,
}
_DEFAULT_ALIGNMENT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter


def column_titles() -> ColumnTitles:
    """The headings of the known columns in the reader's language, as the table shows them."""
    # Literal strings in translate() calls, so the translation tools find them.
    return ColumnTitles(
        {
            ID_KEY: QCoreApplication.translate("CardColumns", "ID", "a card's id"),
            "avatar": QCoreApplication.translate("CardColumns", "Avatar"),
            "display_name": QCoreApplication.translate("CardColumns", "Name"),
            "username": QCoreApplication.translate("CardColumns", "Username"),
            "position": QCoreApplication.translate("CardColumns", "Position"),
            "public": QCoreApplication.translate("CardColumns", "Public"),
            "connected_cards": QCoreApplication.translate("CardColumns", "Connected cards"),
            "connects": QCoreApplication.translate("CardColumns", "Connects"),
            "subscriptions": QCoreApplication.translate("CardColumns", "Subscriptions"),
            "created_at": QCoreApplication.translate("CardColumns", "Created"),
            "updated_at": QCoreApplication.translate("CardColumns", "Updated"),
            EMAILS_KEY: QCoreApplication.translate("CardColumns", "E-mails"),
            # Fields the specification does not list, which the platform sends.
            "redirection": QCoreApplication.translate("CardColumns", "Redirection"),
            "is_business": QCoreApplication.translate("CardColumns", "Is business"),
            "space": QCoreApplication.translate("CardColumns", "Space"),
            "theme": QCoreApplication.translate("CardColumns", "Theme"),
        },
        avatar_url=QCoreApplication.translate("CardColumns", "Avatar URL"),
        yes=QCoreApplication.translate("CardColumns", "yes", "a flag's value in a CSV file"),
        no=QCoreApplication.translate("CardColumns", "no", "a flag's value in a CSV file"),
    )


def _shortened(text: str) -> str:
    lines = text.splitlines()
    if len(lines) <= MAX_TOOLTIP_LINES:
        return text
    return "\n".join([*lines[:MAX_TOOLTIP_LINES], "\N{HORIZONTAL ELLIPSIS}"])


def alignment(column: Column) -> Qt.AlignmentFlag:
    """Where a column's cells sit: numbers right, flags and pictures centred, text left."""
    return _ALIGNMENT.get(column.kind, _DEFAULT_ALIGNMENT)


def display_text(column: Column, card: Card) -> str:
    """The text a cell shows, in the user's locale."""
    if column.kind is ValueKind.AVATAR:
        return ""  # the picture is the cell's content
    if column.is_invalid(card):
        return QCoreApplication.translate("CardColumns", "(invalid)")
    value = column.value(card)
    if value is None:
        return ""
    if column.kind is ValueKind.TIMESTAMP and isinstance(value, datetime):
        return format_local_time(value)
    if column.kind is ValueKind.EMAILS and isinstance(value, tuple | list):
        return "; ".join(map(str, value))
    return _display_any(column, value)


def tooltip_text(column: Column, card: Card) -> str | None:
    """What a cell's tooltip says: the exact time, the raw bad value or the full text."""
    if column.is_invalid(card):
        raw = compact_json(card.invalid_fields[column.key])
        if len(raw) > INVALID_EXCERPT:
            raw = raw[: INVALID_EXCERPT - 1] + "…"
        return QCoreApplication.translate(
            "CardColumns", "The server sent an invalid value: %1"
        ).replace("%1", raw)
    value = column.value(card)
    if value is None or column.kind in (ValueKind.AVATAR, ValueKind.NUMBER, ValueKind.FLAG):
        return None
    if isinstance(value, datetime):
        return iso_timestamp(value)
    if isinstance(value, tuple | list) and column.kind is ValueKind.EMAILS:
        return "\n".join(map(str, value)) or None
    if isinstance(value, dict | list):
        return _shortened(json.dumps(value, ensure_ascii=False, indent=2, default=str))
    if isinstance(value, str):
        return value or None
    return None


def iso_timestamp(value: datetime) -> str:
    """The exact instant in UTC, ISO 8601 with microseconds, as the platform writes it."""
    return value.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _display_any(column: Column, value: Any) -> str:
    """A value of any JSON type on one line; a list of objects is counted."""
    if isinstance(value, str) and column.kind is not ValueKind.ANY:
        # A tab would jump to the cell's next tab stop, a wide gap amid the words.
        return " ".join(value.splitlines()).replace("\t", " ")
    if column.key == SUBSCRIPTIONS_KEY:
        return cell_text(value, counts().subscriptions)
    return cell_text(value)
