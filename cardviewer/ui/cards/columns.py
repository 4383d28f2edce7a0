"""The card table's columns: what each one shows, sorts by, explains and exports.

One `Column` per card field knows the field's kind of value, so the table, its
tooltips and the CSV export agree on how a value reads. Fields the specification
does not list get a column too, titled from their key, so nothing a server sends
is hidden.
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale, Qt

from cardviewer.api.models import Card

EXPORT_TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
"""Local time as Excel and LibreOffice read it as a date in every locale."""

# Booleans are exported as the words "yes"/"no", untranslated. TRUE/FALSE would become
# booleans only in an English Excel and stay text in a German one (WAHR/FALSCH), and 1/0
# reads as a count. Plain words stay the same text everywhere, filter cleanly and do not
# depend on the language the viewer runs in.
EXPORT_YES = "yes"
EXPORT_NO = "no"

INVALID_EXCERPT = 200
MAX_EXACT_INTEGER = 2**53
"""Larger integers lose digits as a spreadsheet's number; they are exported as text."""

CellValue = str | int | float | bool | datetime | None
"""A cell as a spreadsheet file types it; times are naive, in the user's time zone."""
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


class ValueKind(enum.Enum):
    """How a column's values read, align and export."""

    AVATAR = "avatar"
    TEXT = "text"
    NUMBER = "number"
    FLAG = "flag"
    TIMESTAMP = "timestamp"
    EMAILS = "emails"
    ANY = "any"
    """Whatever JSON the server sent: shown by its runtime type."""


_ALIGNMENT = {
    ValueKind.AVATAR: Qt.AlignmentFlag.AlignCenter,
    ValueKind.NUMBER: Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
    ValueKind.FLAG: Qt.AlignmentFlag.AlignCenter,
}
_DEFAULT_ALIGNMENT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter


@dataclass(frozen=True)
class Column:
    """One column of the card table; `key` is the card's field name."""

    key: str
    title: str
    kind: ValueKind = ValueKind.TEXT
    extra: bool = False
    """True for a field the specification does not list (read from `Card.extra_fields`)."""

    @property
    def alignment(self) -> Qt.AlignmentFlag:
        return _ALIGNMENT.get(self.kind, _DEFAULT_ALIGNMENT)

    def is_invalid(self, card: Card) -> bool:
        """The server sent this field with a value of the wrong type."""
        return not self.extra and card.is_invalid(self.key)

    def value(self, card: Card) -> Any:
        """The field's raw value (the avatar's URL for the avatar column)."""
        if self.extra:
            return (card.model_extra or {}).get(self.key)
        if self.kind is ValueKind.AVATAR:
            return card.avatar.src if card.avatar is not None else None
        return getattr(card, self.key, None)

    def sort_value(self, card: Card) -> Any:
        """A value Qt can compare: the raw value if it is a scalar, else its exported text."""
        value = self.value(card)
        if value is None or isinstance(value, str | int | float | datetime):
            return value
        return self.export(card)

    def display(self, card: Card) -> str:
        """The text a cell shows, in the user's locale."""
        if self.kind is ValueKind.AVATAR:
            return ""  # the picture is the cell's content
        if self.is_invalid(card):
            return QCoreApplication.translate("CardColumns", "(invalid)")
        value = self.value(card)
        if value is None:
            return ""
        if self.kind is ValueKind.TIMESTAMP and isinstance(value, datetime):
            return format_local_time(value)
        if self.kind is ValueKind.EMAILS and isinstance(value, tuple | list):
            return "; ".join(map(str, value))
        return _display_any(value)

    def tooltip(self, card: Card) -> str | None:
        """What a cell's tooltip says: the exact time, the raw bad value or the full text."""
        if self.is_invalid(card):
            raw = compact_json(card.invalid_fields[self.key])
            if len(raw) > INVALID_EXCERPT:
                raw = raw[: INVALID_EXCERPT - 1] + "…"
            return QCoreApplication.translate(
                "CardColumns", "The server sent an invalid value: {raw}"
            ).format(raw=raw)
        value = self.value(card)
        if value is None or self.kind in (ValueKind.AVATAR, ValueKind.NUMBER, ValueKind.FLAG):
            return None
        if isinstance(value, datetime):
            return iso_timestamp(value)
        if isinstance(value, tuple | list) and self.kind is ValueKind.EMAILS:
            return "\n".join(map(str, value)) or None
        if isinstance(value, dict | list):
            return json.dumps(value, ensure_ascii=False, indent=2, default=str)
        if isinstance(value, str):
            return value or None
        return None

    def cell_value(self, card: Card) -> CellValue:
        """The cell typed for a spreadsheet file: numbers, flags and local times stay typed.

        Text is the same as `export()`; an integer too large for a spreadsheet's 64-bit
        float stays text so that no digit is lost.
        """
        if self.is_invalid(card):
            return None
        value = self.value(card)
        if value is None:
            return None
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and abs(value) <= MAX_EXACT_INTEGER:
            return value
        if isinstance(value, float):
            return value
        if isinstance(value, datetime):
            return value.astimezone().replace(tzinfo=None)
        return self.export(card)

    def export(self, card: Card) -> str:
        """The cell as text for a spreadsheet: stable, untranslated, machine-readable."""
        if self.is_invalid(card):
            return ""
        value = self.value(card)
        if self.kind is ValueKind.EMAILS and isinstance(value, tuple | list):
            return "; ".join(map(str, value))
        return export_text(value)


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


def compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def export_text(value: Any) -> str:
    """Any field value as one spreadsheet cell (see `EXPORT_YES` for booleans)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return EXPORT_YES if value else EXPORT_NO
    if isinstance(value, datetime):
        return export_time(value)
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    return compact_json(value)


def export_time(value: datetime) -> str:
    """`value` in local time as `EXPORT_TIME_FORMAT` writes it.

    For four-digit years `isoformat` writes the same text in a third of the time of
    `strftime`, which imports the `time` module anew on every call (slow under the Qt
    bindings' import hook); an export has two timestamps per card.
    """
    local = value.astimezone()
    if local.year >= 1000:
        return local.isoformat(" ", "seconds")[:19]
    return local.strftime(EXPORT_TIME_FORMAT)


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


def title_from_key(key: str) -> str:
    """A heading for a field only known by its key: `is_business` → "Is business"."""
    words = _CAMEL_BOUNDARY.sub(" ", key).replace("_", " ").replace("-", " ").split()
    if not words:
        return key
    text = " ".join(word if word.isupper() else word.lower() for word in words)
    return text[0].upper() + text[1:]


def _infer_kind(values: Sequence[Any]) -> ValueKind:
    """An unknown field whose values on the page are all flags or all numbers reads as such."""
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return ValueKind.FLAG
    if present and all(isinstance(v, int | float) and not isinstance(v, bool) for v in present):
        return ValueKind.NUMBER
    return ValueKind.ANY


def _known_columns() -> list[Column]:
    # Literal strings in translate() calls, so the translation tools find them.
    return [
        Column("avatar", QCoreApplication.translate("CardColumns", "Avatar"), ValueKind.AVATAR),
        Column("display_name", QCoreApplication.translate("CardColumns", "Name")),
        Column("username", QCoreApplication.translate("CardColumns", "Username")),
        Column("position", QCoreApplication.translate("CardColumns", "Position")),
        Column("public", QCoreApplication.translate("CardColumns", "Public"), ValueKind.FLAG),
        Column(
            "connected_cards",
            QCoreApplication.translate("CardColumns", "Connected cards"),
            ValueKind.NUMBER,
        ),
        Column("connects", QCoreApplication.translate("CardColumns", "Connects"), ValueKind.NUMBER),
        Column(
            "subscriptions",
            QCoreApplication.translate("CardColumns", "Subscriptions"),
            ValueKind.ANY,
        ),
        Column(
            "created_at", QCoreApplication.translate("CardColumns", "Created"), ValueKind.TIMESTAMP
        ),
        Column(
            "updated_at", QCoreApplication.translate("CardColumns", "Updated"), ValueKind.TIMESTAMP
        ),
    ]


def export_header(columns: Sequence[Column]) -> list[str]:
    """The header row of an export: the avatar column exports the picture's address."""
    return [
        QCoreApplication.translate("CardColumns", "Avatar URL")
        if column.kind is ValueKind.AVATAR
        else column.title
        for column in columns
    ]


def build_columns(cards: Sequence[Card], *, with_emails: bool) -> list[Column]:
    """The columns for a page: the known fields, e-mails if asked for, then unknown fields."""
    columns = _known_columns()
    if with_emails:
        columns.append(
            Column("emails", QCoreApplication.translate("CardColumns", "E-mails"), ValueKind.EMAILS)
        )
    seen: dict[str, list[Any]] = {}
    for card in cards:
        for key, value in (card.model_extra or {}).items():
            seen.setdefault(key, []).append(value)
    columns.extend(
        Column(key, title_from_key(key), _infer_kind(values), extra=True)
        for key, values in seen.items()
    )
    return columns
