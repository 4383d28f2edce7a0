"""The columns of a list of cards: which there are, and what each one writes to a file.

One `Column` per card field knows the field's kind of value, so the table, the copy
to the clipboard and every export agree on a value. Fields the specification does
not list get a column too, titled from their key, so nothing a server sends is
hidden. How a cell reads on screen (locale, translation) is the window's business.
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cardviewer.api.models import Card
from cardviewer.services.xlsx_export import CellValue

EXPORT_TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
"""Local time as Excel and LibreOffice read it as a date in every locale.

Whole seconds, the fraction dropped (never rounded up), in CSV text and in a
workbook's date cells alike, so both files show the same second.
"""

# A CSV file writes booleans as words: TRUE/FALSE would become booleans only in an
# English Excel and stay text in a German one (WAHR/FALSCH), and 1/0 reads as a count.
# The words are the export's language (`ColumnTitles`): English ones here and from
# `cardviewer export`, the reader's from the window. A workbook keeps true booleans.
EXPORT_YES = "yes"
EXPORT_NO = "no"

MAX_EXACT_INTEGER = 10**15 - 1
"""Larger integers lose digits as a spreadsheet's number, which Excel keeps to 15
significant digits (1234567890123456 becomes …450); they are exported as text."""

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_INITIALISMS = frozenset(
    {"api", "cdn", "crm", "id", "ip", "json", "pdf", "qr", "sms", "uri", "url", "uuid", "vat"}
)
"""Words a key spells in small letters that read as capitals: `uuid` → "UUID"."""

# Tuples, not `str | int`: `isinstance` builds a union anew at every call, 231 against
# 16 ns, and these are asked for every cell of every card a sync or an export writes.
_SCALARS = (str, int, float, datetime)
_NUMBERS = (int, float)
_SEQUENCES = (tuple, list)
_COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str)
"""`json.dumps` with options builds an encoder at every call; one made once is kept."""


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


ID_KEY = "uuid"
"""The card's id: the first column of every export, so that a file can be matched to the
cards again, or two files compared; in the table, a column shown on request."""
KNOWN_FIELDS: tuple[tuple[str, ValueKind], ...] = (
    (ID_KEY, ValueKind.TEXT),
    ("avatar", ValueKind.AVATAR),
    ("display_name", ValueKind.TEXT),
    ("username", ValueKind.TEXT),
    ("position", ValueKind.TEXT),
    ("public", ValueKind.FLAG),
    ("connected_cards", ValueKind.NUMBER),
    ("connects", ValueKind.NUMBER),
    ("subscriptions", ValueKind.ANY),
    ("created_at", ValueKind.TIMESTAMP),
    ("updated_at", ValueKind.TIMESTAMP),
)
"""The fields the specification lists, in the order their columns come."""
EMAILS_KEY = "emails"


@dataclass(frozen=True)
class ColumnTitles:
    """The words of a list of cards in one language: headings and a CSV file's flags.

    `by_key` heads the known fields, and those the specification does not list but the
    platform sends (`redirection`, `is_business`, `space`, `theme`); any other field is
    titled from its key (`title_from_key`). `avatar_url` heads the avatar's address in
    a file; `yes` and `no` are a flag's value in a CSV file. The window passes them in
    the reader's language; without a window they are English.
    """

    by_key: Mapping[str, str]
    avatar_url: str
    yes: str = EXPORT_YES
    no: str = EXPORT_NO


ENGLISH_TITLES = ColumnTitles(
    {
        ID_KEY: "ID",
        "avatar": "Avatar",
        "display_name": "Name",
        "username": "Username",
        "position": "Position",
        "public": "Public",
        "connected_cards": "Connected cards",
        "connects": "Connects",
        "subscriptions": "Subscriptions",
        "created_at": "Created",
        "updated_at": "Updated",
        EMAILS_KEY: "E-mails",
        "redirection": "Redirection",
        "is_business": "Is business",
        "space": "Space",
        "theme": "Theme",
    },
    avatar_url="Avatar URL",
)
"""The headings as the window shows them untranslated, and as `cardviewer export` writes."""


@dataclass(frozen=True)
class Column:
    """One column of a list of cards; `key` is the card's field name."""

    key: str
    title: str
    kind: ValueKind = ValueKind.TEXT
    extra: bool = False
    """True for a field the specification does not list (read from `Card.extra_fields`)."""
    flag_words: tuple[str, str] = (EXPORT_YES, EXPORT_NO)
    """What `export()` writes for true and false."""

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
        """A value that compares: the raw value if it is a scalar, else its exported text."""
        value = self.value(card)
        if value is None or isinstance(value, _SCALARS):
            return value
        return self.export(card)

    def cell_value(self, card: Card) -> CellValue:
        """The cell typed for a spreadsheet file: numbers, flags and local times stay typed.

        Text is the same as `export()`; an integer of more digits than a spreadsheet
        keeps (`MAX_EXACT_INTEGER`) stays text so that no digit is lost.
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
            return local_time(value).replace(tzinfo=None, microsecond=0)
        return self.export(card)

    def export(self, card: Card) -> str:
        """The cell as text for a spreadsheet: stable and machine-readable.

        Nested values are compact JSON, so a file keeps them whole; flags are
        `flag_words`, the only words of the export's language in a cell.
        """
        if self.is_invalid(card):
            return ""
        value = self.value(card)
        if self.kind is ValueKind.EMAILS and isinstance(value, _SEQUENCES):
            return "; ".join(map(str, value))
        if isinstance(value, bool):
            return self.flag_words[0] if value else self.flag_words[1]
        return export_text(value)


def compact_json(value: Any) -> str:
    return _COMPACT_JSON.encode(value)


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
    if isinstance(value, _NUMBERS):
        return str(value)
    return compact_json(value)


def export_time(value: datetime) -> str:
    """`value` in local time as `EXPORT_TIME_FORMAT` writes it, the fraction of a second dropped.

    For four-digit years `isoformat` writes the same text in a third of the time of
    `strftime`, which imports the `time` module anew on every call (slow under the Qt
    bindings' import hook); an export has two timestamps per card.
    """
    local = local_time(value)
    if local.year >= 1000:
        return local.isoformat(" ", "seconds")[:19]
    return f"{local.year:04}-{local:%m-%d %H:%M:%S}"  # strftime's %Y: "1-01-01" here


def local_time(value: datetime) -> datetime:
    """`value` in the computer's time zone; as it is where that is out of range (a
    server's 0001-01-01 placeholder west of UTC would fall in the year 0)."""
    try:
        return value.astimezone()
    except OverflowError:
        return value


def title_from_key(key: str) -> str:
    """A heading for a field only known by its key: `is_business` → "Is business".

    Common initialisms are capitals whatever the key's case: `space.uuid` reads "UUID".
    """
    words = _CAMEL_BOUNDARY.sub(" ", key).replace("_", " ").replace("-", " ").split()
    if not words:
        return " ".join(key.split())  # "_" stays "_"; a key of only spaces is no words
    text = " ".join(
        word.upper() if word.lower() in _INITIALISMS else word if word.isupper() else word.lower()
        for word in words
    )
    return text[0].upper() + text[1:]


def _infer_kind(values: Sequence[Any]) -> ValueKind:
    """An unknown field whose values on the page are all flags or all numbers reads as such."""
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return ValueKind.FLAG
    if present and all(isinstance(v, int | float) and not isinstance(v, bool) for v in present):
        return ValueKind.NUMBER
    return ValueKind.ANY


def build_columns(
    cards: Sequence[Card],
    *,
    with_emails: bool,
    titles: ColumnTitles = ENGLISH_TITLES,
    more_fields: Sequence[str] = (),
) -> list[Column]:
    """The columns for these cards: the known fields, e-mails if asked for, then unknown fields.

    The unknown fields come in the order the first card has them, as a page shows them.
    `more_fields` are the unknown fields of a whole space, of which `cards` are a
    sample, in the order its local copy keeps them (`CardStore.extra_fields`): given,
    the columns come in that order, and the sample tells only what each one holds, so
    that a server sending a card's keys in another order does not move them.
    """
    words = (titles.yes, titles.no)
    columns = [
        Column(key, titles.by_key[key], kind, flag_words=words) for key, kind in KNOWN_FIELDS
    ]
    if with_emails:
        columns.append(
            Column(EMAILS_KEY, titles.by_key[EMAILS_KEY], ValueKind.EMAILS, flag_words=words)
        )
    seen: dict[str, list[Any]] = {}
    for card in cards:
        for key, value in (card.model_extra or {}).items():
            seen.setdefault(key, []).append(value)
    listed = set(more_fields)
    unknown = [*more_fields, *(key for key in seen if key not in listed)]
    columns.extend(
        Column(
            key,
            titles.by_key.get(key) or title_from_key(key),
            _infer_kind(seen[key]) if key in seen else ValueKind.ANY,
            extra=True,
            flag_words=words,
        )
        for key in unknown
    )
    return columns


def export_header(
    columns: Sequence[Column], titles: ColumnTitles = ENGLISH_TITLES, *, zone: str = ""
) -> list[str]:
    """The header row of an export: the avatar column exports the picture's address.

    With `zone`, the name of the time zone the times are written in, the heading of
    each time column says it ("Created (Europe/Berlin)"): a file is read elsewhere.
    """
    return [_heading(column, titles, zone) for column in columns]


def _heading(column: Column, titles: ColumnTitles, zone: str) -> str:
    if column.kind is ValueKind.AVATAR:
        return titles.avatar_url
    if zone and column.kind is ValueKind.TIMESTAMP:
        return f"{column.title} ({zone})"
    return column.title
