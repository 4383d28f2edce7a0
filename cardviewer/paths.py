"""Where CardViewer keeps its files: the platform's usual folders for this user.

Each folder is created the first time it is asked for, so callers can write into
it at once. The folders are looked up on every call rather than cached, because
they follow the environment (`XDG_CONFIG_HOME`, `HOME`, …) at that moment.
"""

from __future__ import annotations

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


def cache_dir() -> Path:
    """Data that can be fetched again, such as avatars."""
    return _created(_dirs().user_cache_path)


def log_dir() -> Path:
    """Log files to attach to a problem report."""
    return _created(_dirs().user_log_path)
