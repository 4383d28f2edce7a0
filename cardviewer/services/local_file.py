"""Reading a small file of the app's own, whatever it holds; setting a damaged one aside.

The settings, the saved session and the avatar cache's records are files that a disk
fault, a sync tool, an editor or a program gone wrong can change into anything: a
folder, a file of gigabytes, binary noise, JSON nested a hundred thousand deep. Reading
one must never stop the app. Each reader here

- reads at most a limit of bytes, one for each kind of file (`read_bounded`), and
  only from a regular file: a folder, a device or a named pipe is damage, not a wait;
- turns any content into a JSON object or a `DamagedFile` saying why not, in a few
  words that never repeat the content (the session file holds a token):
  `parse_json_object` survives text that is not UTF-8, deep nesting, NUL characters,
  halves of UTF-16 pairs, numbers too large to be numbers and JSON of another type;
- sets a damaged file aside (`set_aside`) and logs one line: the file is renamed to
  `NAME.damaged` in its folder, so the defaults apply, the next save writes a new
  file and nothing of the old one is lost. An earlier copy is never replaced: the
  second becomes `NAME.damaged-2`, and so on up to `NAME.damaged-10`. Ten copies are
  enough to see what keeps damaging a file; an eleventh damaged file stays where it is
  (the log says so), and the next save replaces it, so that a file damaged over and
  over cannot fill the disk. A copy is readable by this user only (0600), whatever
  the file's mode was: a session's may hold a token.

`LocalFile.load` puts the three together for the app's own files; the
administrator's site file is read and parsed here too, but never set aside. No Qt,
and only modules the start loads anyway: the settings are read before the first
window paints.
"""

from __future__ import annotations

import json
import logging
import math
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

DAMAGED_SUFFIX = ".damaged"
MAX_DAMAGED_COPIES = 10
"""Copies of one file kept at the most: `NAME.damaged`, `NAME.damaged-2` … `-10`."""

MAX_NESTING = 32
"""How deep a JSON document may nest. The app's own files nest two deep (the settings,
an object of lists); 32 leaves room for what a newer version adds, and stays far below
where Python's parser, or a later `json.dumps` of what was read, runs out of stack."""

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)


class DamagedFile(ValueError):
    """A file that is there but cannot be used; the text says why, never what it holds."""


def read_bounded(path: Path, limit: int) -> bytes | None:
    """The bytes of the regular file `path`, or None when there is no file.

    Raises `DamagedFile` when the file is larger than `limit` bytes (only `limit` + 1
    are ever read), is no regular file (opening a named pipe does not wait for a
    writer) or cannot be read.
    """
    try:
        fd = os.open(path, _READ_FLAGS)
    except (FileNotFoundError, NotADirectoryError):  # no file, or no folder for it
        return None
    except OSError as error:
        raise DamagedFile(f"it cannot be read: {_os_reason(error)}") from error
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise DamagedFile("it is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as file:
            content = file.read(limit + 1)
    except OSError as error:
        raise DamagedFile(f"it cannot be read: {_os_reason(error)}") from error
    finally:
        os.close(fd)
    if len(content) > limit:
        raise DamagedFile(f"it is larger than {limit:,} bytes")
    return content


def parse_json_object(content: bytes, *, allow_bom: bool = False) -> dict[str, Any]:
    """The JSON object `content` holds in UTF-8; `allow_bom` accepts a byte order mark.

    Raises `DamagedFile` for anything else: text that is not UTF-8 or not JSON, JSON
    of another type, nested deeper than `MAX_NESTING`, holding a NUL character or half
    of a UTF-16 pair, or numbers that are no finite numbers (`NaN`, `1e400`, an
    integer of thousands of digits).
    """
    try:
        text = content.decode("utf-8-sig" if allow_bom else "utf-8")
    except UnicodeDecodeError as error:
        raise DamagedFile("it is not UTF-8 text") from error
    try:
        document = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as error:
        raise DamagedFile(f"it is not JSON (line {error.lineno}, column {error.colno})") from error
    except RecursionError as error:
        raise DamagedFile(f"it nests deeper than {MAX_NESTING} levels") from error
    except ValueError as error:  # a number Python refuses, as an integer of 5,000 digits
        raise DamagedFile("it holds a number that cannot be read") from error
    if not isinstance(document, dict):
        raise DamagedFile("it is not a JSON object")
    _check_values(document)
    return document


def set_aside(path: Path, damage: DamagedFile, *, what: str, instead: str) -> Path | None:
    """Rename the damaged file `path` aside and log one line; the copy's path, or None.

    `what` names the file for the log ("the settings file"), `instead` says what happens
    now ("the defaults apply"). The copy is never one that exists already; when all
    `MAX_DAMAGED_COPIES` names are taken, or the rename fails, the file stays where
    it is and the line says so.
    """
    what = what[:1].upper() + what[1:]
    try:
        copy = _move_to_free_name(path)
    except OSError as error:
        log.warning(
            "%s %s is damaged: %s; it cannot be set aside (%s) and stays where it is; %s",
            what,
            path,
            damage,
            _os_reason(error),
            instead,
        )
        return None
    _make_private(copy)
    log.warning(
        "%s %s is damaged: %s; it is kept as %s and %s",
        what,
        path,
        damage,
        copy.name,
        instead,
    )
    return copy


class LocalFile(NamedTuple):
    """One kind of the app's files, for its loader: a module constant names it once.

    (A named tuple, quicker to define than a frozen dataclass: the settings are read
    at the start.)
    """

    what: str
    """What the log calls it: "the settings file"."""
    limit: int
    """The most of it read, in bytes."""
    instead: str
    """What happens when it is damaged: "the defaults apply"."""

    def load(self, path: Path, parse: Callable[[bytes], T]) -> T | None:
        """`parse` of the bytes of `path`, or None: when there is no file, or after
        setting a damaged one aside (`read_bounded` or `parse` raised `DamagedFile`)."""
        return self.read(path, parse)[0]

    def read(self, path: Path, parse: Callable[[bytes], T]) -> tuple[T | None, bool]:
        """`load`, and whether the file was damaged (and is set aside if it could be)."""
        try:
            content = read_bounded(path, self.limit)
            return (None if content is None else parse(content)), False
        except DamagedFile as damage:
            set_aside(path, damage, what=self.what, instead=self.instead)
            return None, True


def _copy_names(path: Path) -> list[Path]:
    first = path.with_name(path.name + DAMAGED_SUFFIX)
    return [first] + [
        path.with_name(f"{first.name}-{number}") for number in range(2, MAX_DAMAGED_COPIES + 1)
    ]


def _move_to_free_name(path: Path) -> Path:
    """Rename `path` to the first copy name not taken; FileExistsError when none is free.

    The name is looked at first, as POSIX rename would replace a file (Windows refuses
    to): a copy could only be lost to a second CardViewer setting the same file aside
    in the same instant, when the first has already moved it.
    """
    for copy in _copy_names(path):
        if copy.exists() or copy.is_symlink():
            continue
        path.rename(copy)
        return copy
    raise FileExistsError(f"{MAX_DAMAGED_COPIES} damaged copies are kept already")


def _make_private(copy: Path) -> None:
    """This user's only: a file 0600, a folder 0700 (POSIX); a link is left as it is."""
    if os.name != "posix":
        return
    try:
        mode = copy.lstat().st_mode
        if stat.S_ISREG(mode):
            copy.chmod(0o600)
        elif stat.S_ISDIR(mode):
            copy.chmod(stat.S_IMODE(mode) & 0o700)
    except OSError as error:  # not this user's file, as one left by a run as root
        log.debug("Could not make %s private: %s", copy, _os_reason(error))


def _check_values(document: dict[str, Any]) -> None:
    """Without recursion: the depth, and each text, key or value, is one to keep.

    A NUL cuts a path or an address short; half of a UTF-16 pair (`"\\ud800"`, which
    JSON allows) cannot be written back as UTF-8, so a later save would fail.
    """
    waiting: list[tuple[object, int]] = [(document, 1)]
    while waiting:
        value, depth = waiting.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise DamagedFile("it holds a NUL character")
            if not value.isascii():
                try:
                    value.encode("utf-8")
                except UnicodeEncodeError as error:
                    raise DamagedFile("it holds half of a UTF-16 character pair") from error
            continue
        if isinstance(value, dict):
            children: list[object] = [*value.keys(), *value.values()]
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_NESTING:
            raise DamagedFile(f"it nests deeper than {MAX_NESTING} levels")
        waiting.extend((child, depth + 1) for child in children)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is no number")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError("too large a number")
    return number


def _os_reason(error: OSError) -> str:
    """What went wrong, without the path the log line names already."""
    return error.strerror or str(error) or type(error).__name__
