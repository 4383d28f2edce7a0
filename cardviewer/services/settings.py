"""What the app remembers between runs: the last server, e-mail and spaces opened.

Stored as JSON, for example:

    {
      "version": 1,
      "last_server": "https://api.example.com",
      "last_email": "ada@example.com",
      "last_space": "0f3c…",
      "recent_spaces": ["0f3c…", "9a71…"],
      "include_emails": false
    }

Settings are a convenience, so reading them never fails: a missing or damaged file
gives the defaults, and a single value of the wrong type gives that value's default.
Keys this version does not know are kept and written back, so a newer version's
settings survive a run of an older one.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardviewer.paths import config_dir
from cardviewer.services.atomic_file import write_atomically

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
FILE_NAME = "settings.json"
MAX_RECENT_SPACES = 10


def default_settings_path() -> Path:
    return config_dir() / FILE_NAME


@dataclass
class Settings:
    """The remembered values; change the attributes, then `save()`."""

    last_server: str = ""
    last_email: str = ""
    last_space: str = ""
    # Most recently used first, at most MAX_RECENT_SPACES, no duplicates or blanks.
    recent_spaces: list[str] = field(default_factory=list)
    include_emails: bool = False
    path: Path = field(default_factory=default_settings_path, repr=False, compare=False)
    _unknown: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        """The saved settings, or defaults where nothing usable is saved."""
        settings = cls(path=path if path is not None else default_settings_path())
        document = _read_document(settings.path)
        if document is None:
            return settings
        for name, kind in (
            ("last_server", str),
            ("last_email", str),
            ("last_space", str),
            ("include_emails", bool),
        ):
            if name not in document:
                continue
            value = document[name]
            if isinstance(value, kind):
                setattr(settings, name, value)
            else:
                log.warning("Ignoring setting %r in %s: not %s", name, settings.path, kind.__name__)
        spaces = document.get("recent_spaces", [])
        if isinstance(spaces, list):
            settings.recent_spaces = _clean_spaces(spaces)
        else:
            log.warning("Ignoring setting 'recent_spaces' in %s: not a list", settings.path)
        settings._unknown = {
            key: value
            for key, value in document.items()
            if key != "version" and key not in _KNOWN_KEYS
        }
        return settings

    def save(self) -> None:
        """Write the settings in one step. Raises `OSError` when that is not possible."""
        document: dict[str, Any] = {**self._unknown, "version": FORMAT_VERSION}
        document.update(
            last_server=self.last_server,
            last_email=self.last_email,
            last_space=self.last_space,
            recent_spaces=_clean_spaces(self.recent_spaces),
            include_emails=self.include_emails,
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps(document, indent=2, ensure_ascii=False).encode("utf-8") + b"\n"
        write_atomically(self.path, data)

    def remember_space(self, space_id: str) -> None:
        """Make `space_id` the last and most recent space; blanks are ignored."""
        space_id = space_id.strip()
        if not space_id:
            return
        self.last_space = space_id
        self.recent_spaces = _clean_spaces([space_id, *self.recent_spaces])


_KNOWN_KEYS = frozenset(
    ("last_server", "last_email", "last_space", "recent_spaces", "include_emails")
)


def _read_document(path: Path) -> dict[str, Any] | None:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        log.warning("Cannot read the settings %s, using defaults: %s", path, error)
        return None
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        log.warning("The settings %s are damaged, using defaults: %s", path, error)
        return None
    if not isinstance(document, dict):
        log.warning("The settings %s are not a JSON object, using defaults", path)
        return None
    return document


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
