"""Where CardViewer keeps its files: the platform's usual folders for this user.

Each folder is created the first time it is asked for, so callers can write into
it at once. The folders are looked up on every call rather than cached, because
they follow the environment (`XDG_CONFIG_HOME`, `HOME`, …) at that moment.

Also where the files it ships are: `resource_path()`.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from platformdirs import PlatformDirs

from cardviewer import APP_NAME


def _dirs() -> PlatformDirs:
    return PlatformDirs(APP_NAME, appauthor=False)


def _created(path: Path, *, private: bool = False) -> Path:
    # 0700 keeps other users out of a folder that may hold a session token; an
    # existing folder keeps the mode it has.
    path.mkdir(mode=0o700 if private else 0o777, parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    """Settings and the saved session (private to this user)."""
    return _created(_dirs().user_config_path, private=True)


def session_file() -> Path:
    """Where the saved sign-in is kept (`services.session_store`); it may not exist.

    Named here so that the start can see whether there is one without importing the store.
    """
    return config_dir() / "session.json"


def cache_dir() -> Path:
    """Data that can be fetched again, such as avatars."""
    return _created(_dirs().user_cache_path)


def log_dir() -> Path:
    """Log files to attach to a problem report."""
    return _created(_dirs().user_log_path)


def resources_folder() -> Path:
    """The folder of `cardviewer.resources`: the images, icons and translations shipped.

    They are plain files in a checkout, an installed wheel and a frozen bundle alike,
    and Qt opens files by path. (`importlib.resources` finds them too, but importing it
    with its zip support costs the start milliseconds before the sign-in window paints.)
    """
    return Path(importlib.import_module("cardviewer.resources").__path__[0])


def resource_path(name: str) -> Path:
    """The shipped file `name` (it may be missing from a damaged installation)."""
    return resources_folder() / name
