"""What the app remembers between runs: the last server and space, preferences, window layout.

Stored as JSON, for example:

    {
      "version": 1,
      "last_server": "https://api.example.com",
      "last_email": "ada@example.com",
      "last_space": "0f3c…",
      "recent_spaces": ["0f3c…", "9a71…"],
      "include_emails": false,
      "export_format": "xlsx",
      "csv_delimiter": ";",
      "export_concurrency": 4,
      "phone_list_qr_codes": false,
      "phone_list_pictures": false,
      "vcard_photos": false,
      "language": "de",
      "window_geometry": "AdnQywADAAAAAAB…",
      "window_state": "AAAA/wAAAAD9AAA…",
      "header_state": "AAAA/wAAAAAAAAA…",
      "splitter_state": "AAAA/wAAAAEAAAA…",
      "details_visible": true,
      "keep_signed_in": true,
      "export_folder": "/home/ada/Documents/Phone lists"
    }

`csv_delimiter` "" means "whatever the language's spreadsheets expect" and `language`
"" means "the system's language". The four `…_state`/`…_geometry` values are Qt's saved
window layout in base64 (`encode_view_state` / `decode_view_state`); they mean nothing
outside the main window, which restores them. `export_folder` is where the last export
(or QR code, or chart) was saved, where the next one is offered ("" before the first).

Settings are a convenience, so reading them never fails: a missing file gives the
defaults, and so does a damaged one (not a JSON object, larger than `MAX_FILE_BYTES`,
unreadable, a folder; see `local_file`), which is renamed to `settings.json.damaged`
with one line in the log, so that the next save writes a new file and nothing is lost.
In a file that is a JSON object, a single value of the wrong type or out of range
gives that value's default (a number is brought into range instead), with a warning
in the log, and the file stays.
Keys this version does not know are kept and written back, so a newer version's
settings survive a run of an older one. Saving replaces the file in one step, readable
by this user only (0600). A last server with a user name or password in it, as older
versions accepted, is dropped, never written back.

This module does not use Qt, so the settings can be read where there is no display.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, NamedTuple

from cardviewer.paths import config_dir, private_folder
from cardviewer.services.atomic_file import write_atomically
from cardviewer.services.local_file import LocalFile, parse_json_object

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
FILE_NAME = "settings.json"
MAX_RECENT_SPACES = 10
MAX_FILE_BYTES = 1024 * 1024
"""The most of the settings file read. It holds a few kilobytes, mostly the window's
layout; a megabyte leaves a newer version room to add, and reading no more keeps a
damaged file of gigabytes from holding up the start."""
_FILE = LocalFile("the settings file", MAX_FILE_BYTES, "the defaults apply")

EXPORT_FORMATS = ("csv", "xlsx")
# "" is "from the locale": `;` where the decimal mark is a comma, else `,`.
CSV_DELIMITERS = ("", ",", ";")
MIN_EXPORT_CONCURRENCY = 1
# The fetcher's own default (`space_fetch.DEFAULT_CONCURRENCY`; a test keeps them
# equal), so that an export from the window and one from the command line go at the
# same pace. Not imported from there: reading the settings is part of the start.
DEFAULT_EXPORT_CONCURRENCY = 4
# Below the fetcher's own limit: more parallel requests mostly earn 429 answers.
MAX_EXPORT_CONCURRENCY = 8

# "de", "en", "pt_BR", "zh-Hant": a language, then optional region or script parts.
_LANGUAGE_NAME = re.compile(r"[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*")


def default_settings_path() -> Path:
    return config_dir() / FILE_NAME


def encode_view_state(data: bytes) -> str:
    """Qt's `saveGeometry()`/`saveState()` bytes as text for the JSON file."""
    return base64.b64encode(data).decode("ascii")


def decode_view_state(text: str) -> bytes:
    """The bytes `encode_view_state` made; b"" for "" (nothing saved: Qt keeps its layout)."""
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (UnicodeEncodeError, binascii.Error):
        return b""


@dataclass
class Settings:
    """The remembered values; change the attributes, then `save()`."""

    last_server: str = ""
    last_email: str = ""
    last_space: str = ""
    # Most recently used first, at most MAX_RECENT_SPACES, no duplicates or blanks.
    recent_spaces: list[str] = field(default_factory=list)
    include_emails: bool = False
    # The file type the page export suggests: one of EXPORT_FORMATS.
    export_format: str = "csv"
    # One of CSV_DELIMITERS; "" follows the locale.
    csv_delimiter: str = ""
    # Pages fetched at once by "Export All Pages", MIN_…MAX_EXPORT_CONCURRENCY.
    export_concurrency: int = DEFAULT_EXPORT_CONCURRENCY
    # The printed phone list carries each card's QR code (its contact) beside it.
    phone_list_qr_codes: bool = False
    # The printed phone list starts each card's row with its picture.
    phone_list_pictures: bool = False
    # Exported vCards carry each card's picture as a small photo.
    vcard_photos: bool = False
    # "" follows the system; otherwise a locale name such as "de" or "en".
    language: str = ""
    # The main window's layout, base64 of Qt's saved bytes; "" until first saved.
    window_geometry: str = ""
    window_state: str = ""
    header_state: str = ""
    splitter_state: str = ""
    details_visible: bool = True
    # "Keep me signed in" as the person last left it; the sign-in dialog starts so.
    keep_signed_in: bool = True
    # The folder the last export was saved in, where the next is offered; "" before it.
    export_folder: str = ""
    path: Path = field(default_factory=default_settings_path, repr=False, compare=False)
    _unknown: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        """The saved settings, or defaults where nothing usable is saved."""
        settings = cls(path=path if path is not None else default_settings_path())
        document = _FILE.load(settings.path, parse_json_object)
        if document is None:
            return settings
        for spec in _FIELDS:
            if spec.name in document:
                value = spec.clean(document[spec.name], where=str(settings.path))
                if value is not _INVALID:
                    setattr(settings, spec.name, value)
        settings._unknown = {
            key: value
            for key, value in document.items()
            if key != "version" and key not in _KNOWN_KEYS
        }
        return settings

    def save(self) -> None:
        """Write the settings in one step. Raises `OSError` when that is not possible.

        Values the program set out of range are written as they would load back.
        """
        document: dict[str, Any] = {**self._unknown, "version": FORMAT_VERSION}
        for spec in _FIELDS:
            value = spec.clean(getattr(self, spec.name), where=f"{self.path} (saving)")
            document[spec.name] = spec.default() if value is _INVALID else value
        private_folder(self.path.parent)
        data = json.dumps(document, indent=2, ensure_ascii=False).encode("utf-8") + b"\n"
        write_atomically(self.path, data, private=True)

    def remember_space(self, space_id: str) -> None:
        """Make `space_id` the last and most recent space; blanks are ignored."""
        space_id = space_id.strip()
        if not space_id:
            return
        self.last_space = space_id
        self.recent_spaces = _clean_spaces([space_id, *self.recent_spaces])


class _Invalid:
    """Marks a value that cannot be used at all, so its default applies."""


_INVALID: Any = _Invalid()


class _Field(NamedTuple):
    """One stored value: its JSON type and how a stored value is made usable.

    `check` returns the value to use (perhaps brought into range) or raises
    `ValueError` saying why the value cannot be used. A value it changes is logged,
    unless `quiet`: the recent-spaces list is trimmed as a matter of course. (A named
    tuple, quicker to define than a frozen dataclass: the settings are read at the start.)
    """

    name: str
    kind: type
    check: Callable[[Any], Any] | None = None
    quiet: bool = False

    def clean(self, value: object, *, where: str) -> Any:
        # bool is an int to Python, but `true` is no page count.
        if not isinstance(value, self.kind) or (self.kind is not bool and isinstance(value, bool)):
            log.warning("Ignoring setting %r in %s: not %s", self.name, where, self.kind.__name__)
            return _INVALID
        if self.check is None:
            return value
        try:
            cleaned = self.check(value)
        except ValueError as reason:
            log.warning("Ignoring setting %r in %s: %s", self.name, where, reason)
            return _INVALID
        if cleaned != value and not self.quiet:
            log.warning("Setting %r in %s: using %r, not %r", self.name, where, cleaned, value)
        return cleaned

    def default(self) -> Any:
        spec = _DATACLASS_FIELDS[self.name]
        if spec.default_factory is not MISSING:
            return spec.default_factory()
        return spec.default


def _one_of(choices: tuple[str, ...]) -> Callable[[str], str]:
    def check(value: str) -> str:
        if value not in choices:
            raise ValueError(f"{value!r} is not one of {', '.join(map(repr, choices))}")
        return value

    return check


def _concurrency(value: int) -> int:
    return max(MIN_EXPORT_CONCURRENCY, min(value, MAX_EXPORT_CONCURRENCY))


def _language(value: str) -> str:
    if value and not _LANGUAGE_NAME.fullmatch(value):
        raise ValueError(f"{value!r} is not a language name such as 'de' or 'en'")
    return value


def _server(value: str) -> str:
    # As `api.address.has_user_info`, which the start does not import. The reason
    # never repeats the value: it holds a password.
    _, separator, rest = value.partition("://")
    authority = re.split(r"[/?#]", rest if separator else value, maxsplit=1)[0]
    if "@" in authority:
        raise ValueError("it holds a user name or password")
    return value


def _folder(value: str) -> str:
    # A relative one would be taken from wherever the app was started. (A NUL, which
    # would cut a path short, makes the whole file damaged: `local_file`.)
    if value and not Path(value).is_absolute():
        raise ValueError("not the full path of a folder")
    return value


def _view_state(value: str) -> str:
    if value and not decode_view_state(value):
        raise ValueError("not base64")
    return value


def _clean_spaces(spaces: Iterable[object]) -> list[str]:
    """Stripped, non-blank, first occurrence only, at most MAX_RECENT_SPACES."""
    cleaned: list[str] = []
    for space in spaces:
        if not isinstance(space, str):
            continue
        space = space.strip()
        if space and space not in cleaned:
            cleaned.append(space)
        if len(cleaned) == MAX_RECENT_SPACES:
            break
    return cleaned


# Every stored value, in the order they are written.
_FIELDS = (
    _Field("last_server", str, _server),
    _Field("last_email", str),
    _Field("last_space", str),
    _Field("recent_spaces", list, _clean_spaces, quiet=True),
    _Field("include_emails", bool),
    _Field("export_format", str, _one_of(EXPORT_FORMATS)),
    _Field("csv_delimiter", str, _one_of(CSV_DELIMITERS)),
    _Field("export_concurrency", int, _concurrency),
    _Field("phone_list_qr_codes", bool),
    _Field("phone_list_pictures", bool),
    _Field("vcard_photos", bool),
    _Field("language", str, _language),
    _Field("window_geometry", str, _view_state),
    _Field("window_state", str, _view_state),
    _Field("header_state", str, _view_state),
    _Field("splitter_state", str, _view_state),
    _Field("details_visible", bool),
    _Field("keep_signed_in", bool),
    _Field("export_folder", str, _folder),
)
_KNOWN_KEYS = frozenset(spec.name for spec in _FIELDS)
_DATACLASS_FIELDS = {spec.name: spec for spec in fields(Settings)}
