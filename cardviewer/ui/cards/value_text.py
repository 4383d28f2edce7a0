"""How a value of any JSON type reads to a person, in the reader's language and locale.

The specification leaves `subscriptions` open ("null or value") and a server may send
fields nobody has described, so objects and lists of any shape must read well in a
narrow table cell and in the details pane. Raw JSON does neither: it cannot wrap and
hides what matters behind braces and identifiers. Here an object reads as one short
line of its values ("business · active · 12 seats · renews 01.03.2026 10:00"), a
list as its items or as a count ("2 subscriptions"). Files keep the exact JSON
(`services.card_columns`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, QDate, QDateTime, QLocale, QObject

from cardviewer.services.card_columns import title_from_key

SEPARATOR = " \N{MIDDLE DOT} "
"""Between the values of an object on one line."""
MISSING = "\N{EN DASH}"
"""An item of a list that is null."""
BULLET = "\N{BULLET} "
"""Before each item of a list in the details pane."""
MAX_LINES = 50
"""The most items of a list the details pane gives a line each; a count says the rest."""
MAX_DEPTH = 3
"""Objects nested deeper than this are only named, so a line stays short."""

Count = Callable[[int], str]
"""A translated sentence for a number of items ("%n items")."""

_ISO_DATE = re.compile(r"\d{4}-\d\d-\d\d")
_ISO_TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d")
_IDENTIFIER = re.compile(r"(?i:(^|[_\-\s])(id|uuid))$|[a-z0-9](Id|ID|Uuid|UUID)$")
_TWO_DIGIT_YEAR = re.compile(r"(?<!y)yy(?!y)")


class Counts(QObject):
    """The sentences with a number of items, in the reader's language.

    A QObject for `tr()`: the translation tools find a plural only there. The English
    source is the plural; a list of one item is never counted but shown.
    """

    def items(self, count: int) -> str:
        """ "3 items": a list whose items say nothing alone."""
        return self.tr("%n items", "", count)

    def subscriptions(self, count: int) -> str:
        """ "2 subscriptions": a card's list of subscriptions in a table cell."""
        return self.tr("%n subscriptions", "", count)

    def more(self, count: int) -> str:
        """What a list shown in part leaves out."""
        return self.tr("… and %n more", "", count)


@functools.cache
def counts() -> Counts:
    """The one `Counts` there is, made when first asked for."""
    return Counts()


def item_count(count: int) -> str:
    """ "3 items": a list whose items say nothing alone."""
    return counts().items(count)


def flag_text(value: bool) -> str:
    """ "Yes" or "No" in the reader's language."""
    if value:
        return QCoreApplication.translate("CardColumns", "Yes")
    return QCoreApplication.translate("CardColumns", "No")


def format_local_time(value: datetime) -> str:
    """A timestamp in the user's time zone and locale, short form with a four-digit year.

    Without a configured locale (the "C" locale of a bare system) Qt's short form is
    "5 04 2019 14:03", which nobody reads well; ISO 8601 is used there instead. Many
    locales' short form writes the year in two digits ("05.04.19"), which reads as a
    day or month in a table of dates; the year is written in full.
    """
    local = QDateTime.fromMSecsSinceEpoch(round(value.timestamp() * 1000))
    locale = QLocale()
    if has_c_formats(locale):
        return local.toString("yyyy-MM-dd HH:mm")
    return locale.toString(local, full_year_format(locale))


def has_c_formats(locale: QLocale) -> bool:
    """The locale writes dates as the bare "C" locale does: it is "C", or a language the
    system was only told to speak (LANGUAGE=de where LANG is C.UTF-8: Qt then names the
    locale German and keeps C's formats)."""
    if locale.language() == QLocale.Language.C:
        return True
    short = QLocale.FormatType.ShortFormat
    return locale.dateTimeFormat(short) == QLocale.c().dateTimeFormat(short)


def full_year_format(locale: QLocale) -> str:
    """The locale's short date-time format, with `yy` widened to `yyyy`."""
    return full_year(locale.dateTimeFormat(QLocale.FormatType.ShortFormat))


def full_year(pattern: str) -> str:
    """A Qt date pattern with `yy` widened to `yyyy`."""
    return _TWO_DIGIT_YEAR.sub("yyyy", pattern)


def parse_time(text: str) -> datetime | None:
    """The instant an ISO 8601 date-time string names; None for any other text."""
    if not _ISO_TIME.match(text):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)  # as the platform's own times without a zone
    try:
        moment.timestamp()
    except (OverflowError, OSError, ValueError):  # outside what the system's clock can say
        return None
    return moment


def time_text(text: str) -> str | None:
    """An ISO 8601 date or date-time string as the locale writes it; None for other text."""
    if _ISO_DATE.fullmatch(text):
        try:
            day = date.fromisoformat(text)
        except ValueError:
            return None
        locale = QLocale()
        if has_c_formats(locale):
            return text
        shown = QDate(day.year, day.month, day.day)
        return locale.toString(shown, full_year(locale.dateFormat(QLocale.FormatType.ShortFormat)))
    moment = parse_time(text)
    return format_local_time(moment) if moment is not None else None


def scalar_text(value: Any) -> str:
    """A value that is no object or list, on one line: flags, locale numbers, local times."""
    if value is None:
        return MISSING
    if isinstance(value, bool):
        return flag_text(value)
    if isinstance(value, int):
        # QLocale holds 64-bit integers; JSON may carry larger ones.
        return QLocale().toString(value) if abs(value) < 2**63 else str(value)
    if isinstance(value, float):
        return QLocale().toString(value, "g", 15)
    if isinstance(value, str):
        when = time_text(value)
        return when if when is not None else " ".join(value.split())
    return " ".join(str(value).split())


def cell_text(value: Any, count: Count = item_count) -> str:
    """`value` on one line for a table cell; a list of objects is counted with `count`."""
    if isinstance(value, Mapping):
        return object_line(value)
    if isinstance(value, list | tuple):
        return list_text(value, count)
    return scalar_text(value)


def list_text(items: Sequence[Any], count: Count = item_count) -> str:
    """A list on one line: its plain values, its one object, or how many there are."""
    if not items:
        return ""
    if all(not isinstance(item, Mapping | list | tuple) for item in items):
        return ", ".join(scalar_text(item) for item in items)
    if len(items) == 1:
        return cell_text(items[0], count)
    return count(len(items))


def object_line(value: Mapping[Any, Any], depth: int = 0) -> str:
    """An object as one short line of its values, as a person reads them.

    Text and times speak for themselves ("active", "renews 01.03.2026 10:00"), a
    number is named by its key ("12 seats"), a flag says its key ("trial: No").
    Empty values are left out, and identifiers too when anything else is left.
    """
    parts: list[str] = []
    identifiers: list[str] = []
    for key, item in value.items():
        part = _part(str(key), item, depth)
        if part:
            (identifiers if _IDENTIFIER.search(str(key)) else parts).append(part)
    return SEPARATOR.join(parts or identifiers)


def field_lines(value: Mapping[Any, Any]) -> list[str]:
    """An object's fields, one `Key: value` line each, for the details pane."""
    return [
        f"{title_from_key(str(key))}: {cell_text(item) or MISSING}" for key, item in value.items()
    ]


def item_lines(items: Sequence[Any]) -> list[str]:
    """A list's items, one line each, for the details pane; a count says what is left out.

    Of two or more, each starts with a bullet: an item that wraps in a narrow pane
    would otherwise read as two.
    """
    bullet = BULLET if len(items) > 1 else ""
    lines = [bullet + (cell_text(item) or MISSING) for item in items[:MAX_LINES]]
    if len(items) > MAX_LINES:
        lines.append(counts().more(len(items) - MAX_LINES))
    return lines


def _words(key: str) -> str:
    """A key as words inside a line: `renews_at` → "renews at", `URL` stays "URL"."""
    words = title_from_key(key)
    return words if words[:2].isupper() else words[:1].lower() + words[1:]


def _part(key: str, value: Any, depth: int) -> str:
    if value is None or value in ("", [], {}, ()):
        return ""
    words = _words(key)
    if isinstance(value, bool):
        return f"{words}: {flag_text(value)}"
    if isinstance(value, int | float):
        return f"{scalar_text(value)} {words}"
    if isinstance(value, str):
        when = time_text(value)
        if when is None:
            return scalar_text(value)
        verb = words.removesuffix(" at").removesuffix(" on")
        return f"{verb} {when}" if verb != words else f"{words}: {when}"
    if isinstance(value, Mapping):
        if depth + 1 >= MAX_DEPTH:
            return words
        inner = object_line(value, depth + 1)
        return f"{words} ({inner})" if inner else ""
    if isinstance(value, list | tuple):
        return f"{words}: {list_text(value)}"
    return scalar_text(value)
