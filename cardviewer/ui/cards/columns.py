"""How the card table's columns read on screen: headings, cell text, tooltips, alignment.

The columns themselves, and what they write to a file, are `services.card_columns`;
here they get the reader's language (headings, "Yes"/"No"), the locale's numbers and
dates, and the tooltip that tells the exact value.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale, Qt

from cardviewer.api.models import Card
from cardviewer.services.card_columns import (
    EMAILS_KEY,
    Column,
    ColumnTitles,
    ValueKind,
    compact_json,
)

INVALID_EXCERPT = 200

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
        },
        avatar_url=QCoreApplication.translate("CardColumns", "Avatar URL"),
    )


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
    return _display_any(value)


def tooltip_text(column: Column, card: Card) -> str | None:
    """What a cell's tooltip says: the exact time, the raw bad value or the full text."""
    if column.is_invalid(card):
        raw = compact_json(card.invalid_fields[column.key])
        if len(raw) > INVALID_EXCERPT:
            raw = raw[: INVALID_EXCERPT - 1] + "…"
        return QCoreApplication.translate(
            "CardColumns", "The server sent an invalid value: {raw}"
        ).format(raw=raw)
    value = column.value(card)
    if value is None or column.kind in (ValueKind.AVATAR, ValueKind.NUMBER, ValueKind.FLAG):
        return None
    if isinstance(value, datetime):
        return iso_timestamp(value)
    if isinstance(value, tuple | list) and column.kind is ValueKind.EMAILS:
        return "\n".join(map(str, value)) or None
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, indent=2, default=str)
    if isinstance(value, str):
        return value or None
    return None


def format_local_time(value: datetime) -> str:
    """A timestamp in the user's time zone and locale, short form with a four-digit year.

    Without a configured locale (the "C" locale of a bare system) Qt's short form is
    "5 04 2019 14:03", which nobody reads well; ISO 8601 is used there instead. Many
    locales' short form writes the year in two digits ("05.04.19"), which reads as a
    day or month in a table of dates; the year is written in full.
    """
    local = QDateTime.fromMSecsSinceEpoch(round(value.timestamp() * 1000))
    locale = QLocale()
    if locale.language() == QLocale.Language.C:
        return local.toString("yyyy-MM-dd HH:mm")
    return locale.toString(local, full_year_format(locale))


_TWO_DIGIT_YEAR = re.compile(r"(?<!y)yy(?!y)")


def full_year_format(locale: QLocale) -> str:
    """The locale's short date-time format, with `yy` widened to `yyyy`."""
    return _TWO_DIGIT_YEAR.sub("yyyy", locale.dateTimeFormat(QLocale.FormatType.ShortFormat))


def iso_timestamp(value: datetime) -> str:
    """The exact instant in UTC, ISO 8601 with microseconds, as the platform writes it."""
    return value.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _display_any(value: Any) -> str:
    """A value of any JSON type as a person reads it; nested values as `key: value` pairs."""
    if isinstance(value, bool):
        return (
            QCoreApplication.translate("CardColumns", "Yes")
            if value
            else QCoreApplication.translate("CardColumns", "No")
        )
    if isinstance(value, int):
        # QLocale holds 64-bit integers; JSON may carry larger ones.
        return QLocale().toString(value) if abs(value) < 2**63 else str(value)
    if isinstance(value, float):
        return QLocale().toString(value, "g", 15)
    if isinstance(value, str):
        return " ".join(value.splitlines())
    if isinstance(value, dict | list | tuple):
        return ", ".join(nested_parts(value))
    return str(value)


def nested_parts(value: dict[Any, Any] | list[Any] | tuple[Any, ...]) -> list[str]:
    """An object's fields as `key: value`, or a list's items, each as a person reads it.

    A table cell joins them on one line, the details pane gives each its own; values
    nested deeper are shown as compact JSON.
    """
    if isinstance(value, dict):
        return [f"{key}: {_display_nested(item)}" for key, item in value.items()]
    return [_display_nested(item) for item in value]


def _display_nested(value: Any) -> str:
    if value is None:
        return "\N{EN DASH}"
    if isinstance(value, dict | list):
        return compact_json(value)
    return _display_any(value)
