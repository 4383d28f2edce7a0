"""Where CardViewer keeps its files: the platform's usual folders for this user.

Each folder is created the first time it is asked for, so callers can write into
it at once. The folders are looked up on every call rather than cached, because
they follow the environment (`XDG_CONFIG_HOME`, `HOME`, …) at that moment.

All of them are private to this user (0700): the config folder holds the session,
the log names people and servers, and the avatar cache holds addresses that may be
signed. A missing parent such as `~/.cache` is created private too, as the XDG base
directory specification asks; the app's own folders are made private again when
they were found open to others.

Also where the files it ships are: `resource_path()`.
"""

from __future__ import annotations

import importlib
import os
import stat
from pathlib import Path

from platformdirs import PlatformDirs

from cardviewer import APP_NAME


def _dirs() -> PlatformDirs:
    return PlatformDirs(APP_NAME, appauthor=False)


PRIVATE_FOLDER_MODE = 0o700


def private_folder(path: Path, *, tighten: bool = False) -> Path:
    """Create `path` and its missing parents readable by this user only (0700).

    An existing folder keeps its mode unless `tighten`: then access for the group and
    others is taken away (for the app's own folders, never for one a person chose).
    """
    missing: list[Path] = []
    folder = path
    while not folder.is_dir() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    for folder in reversed(missing):
        # Path.mkdir(parents=True) would give the parents the umask's mode.
        folder.mkdir(mode=PRIVATE_FOLDER_MODE, exist_ok=True)
    if tighten:
        tighten_folder(path)
    return path


def tighten_folder(path: Path) -> None:
    """Take away the group's and others' access to an existing folder (POSIX only)."""
    if os.name != "posix":
        return
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        path.chmod(mode & PRIVATE_FOLDER_MODE)


def _created(path: Path) -> Path:
    """`path` created private; the folders from the app's own name down are tightened."""
    private_folder(path)
    parts = path.parts
    if APP_NAME in parts:
        own = len(parts) - parts[::-1].index(APP_NAME)  # the last one: never a parent's
        for end in range(own, len(parts) + 1):
            tighten_folder(Path(*parts[:end]))
    return path


def config_dir() -> Path:
    """Settings and the saved session (private to this user)."""
    return _created(_dirs().user_config_path)


def session_file() -> Path:
    """Where the saved sign-in is kept (`services.session_store`); it may not exist.

    Named here so that the start can see whether there is one without importing the store.
    """
    return config_dir() / "session.json"


def cache_dir() -> Path:
    """Data that can be fetched again, such as avatars (private to this user)."""
    return _created(_dirs().user_cache_path)


def store_dir(*, create: bool = True) -> Path:
    """The local copies of synced spaces (`services.card_store`), private to this user.

    Kept with the user's data rather than the cache: a copy is what the app shows
    offline, and a cache cleaner should not take it away unasked. `create=False`
    names it only: the first sync creates it (`CardStore.open`), and a folder that
    cannot be made (a file of that name, no permission) fails that sync, with its
    reason, rather than the window that would show it.
    """
    path = _dirs().user_data_path / "spaces"
    return _created(path) if create else path


def log_dir() -> Path:
    """Log files to attach to a problem report (private to this user)."""
    return _created(_dirs().user_log_path)


def resources_folder() -> Path:
    """The folder of `cardviewer.resources`: the images, icons and translations shipped.

    They are plain files in a checkout, an installed wheel and a frozen bundle alike,
    and Qt opens files by path. (`importlib.resources` finds them too, but importing it
    with its zip support is work the start would do before the sign-in window paints.)
    """
    return Path(importlib.import_module("cardviewer.resources").__path__[0])


def resource_path(name: str) -> Path:
    """The shipped file `name` (it may be missing from a damaged installation)."""
    return resources_folder() / name
