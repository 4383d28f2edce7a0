"""The name of the time zone this computer's local time is in, without Qt.

An export writes local times; a file is read on other computers and long after, so
its headings name the zone ("Created (Europe/Berlin)"). The name is the one the C
library converts with: `TZ` if set, else the zone the system is set to.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from zoneinfo import ZoneInfo

UTC_NAME = "UTC"
_UTC_ALIASES = frozenset(
    {"UTC", "UCT", "GMT", "Zulu", "Universal", "Greenwich", "GMT0", "GMT+0", "GMT-0"}
)
_ZONEINFO = "zoneinfo/"
_LOCALTIME = Path("/etc/localtime")
_TIMEZONE_FILE = Path("/etc/timezone")
_ZONE_NAME_LIMIT = 256
"""Bytes of `/etc/timezone` read: the longest zone name has about 30."""


def local_zone_name() -> str:
    """The local zone's IANA name ("Europe/Berlin"), "UTC", or its abbreviations ("CET/CEST").

    Windows and a `TZ` in POSIX form ("CET-1CEST") name no IANA zone; their
    abbreviations are what the system itself calls the zone.
    """
    configured = os.environ.get("TZ")
    if configured is not None:
        name = _zone_id(configured.lstrip(":"))
        return _readable(name) if name else _abbreviations()
    for name in (_linked_zone(), _zone_file()):
        if name:
            return _readable(name)
    return _abbreviations()


def _zone_id(text: str) -> str:
    """An IANA zone id from `TZ`'s value, or "" when it names none."""
    if _ZONEINFO in text:  # a path to a zone file
        text = text.rsplit(_ZONEINFO, 1)[1]
    if not text:
        return UTC_NAME  # an empty TZ is UTC to the C library
    try:
        ZoneInfo(text)
    except (ValueError, OSError, LookupError):
        return ""
    return text


def _linked_zone() -> str:
    """The zone `/etc/localtime` links to (Linux, macOS), or ""."""
    try:
        target = str(_LOCALTIME.resolve(strict=True))
    except (OSError, RuntimeError):
        return ""
    return target.rsplit(_ZONEINFO, 1)[1] if _ZONEINFO in target else ""


def _zone_file() -> str:
    """The zone Debian names in `/etc/timezone`, or "" when it names none.

    Only its first bytes are read (a zone's name is short), and a name must be a zone
    the system knows: the name goes into every export's headings.
    """
    try:
        with _TIMEZONE_FILE.open("rb") as file:
            text = file.read(_ZONE_NAME_LIMIT + 1).decode("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    if len(text) > _ZONE_NAME_LIMIT or _ZONEINFO in text:
        return ""
    return _zone_id(text) if text else ""


def _readable(name: str) -> str:
    """`Etc/UTC` and the other names of UTC are "UTC"; any other id stays as it is."""
    short = name.removeprefix("Etc/")
    return UTC_NAME if short in _UTC_ALIASES else name


def _abbreviations() -> str:
    standard, summer = time.tzname
    if standard in _UTC_ALIASES and summer in _UTC_ALIASES:
        return UTC_NAME
    return standard if not time.daylight or summer == standard else f"{standard}/{summer}"
