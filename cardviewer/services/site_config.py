"""Settings an administrator presets for everyone on a computer: the server address.

Staff then only type their e-mail and password. The file is JSON:

    {"server_url": "https://cards.example.com", "lock_server": true}

It is looked for next to the program (the folder of the bundled executable, or of
`main.py` in a source install) and then in the system's configuration folder
(`/etc/xdg/CardViewer` on Linux, `C:\\ProgramData\\CardViewer` on Windows,
`/Library/Application Support/CardViewer` on macOS); the first file found wins. A file
that cannot be read, is larger than `MAX_BYTES` or has the wrong shape (whatever bytes
it holds: see `local_file`) is ignored with one line in the log: the app then behaves
as if there were none. Unlike the app's own files it is not set aside: it is the
administrator's, read and never written, so it stays as it is until they mend it.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from platformdirs import PlatformDirs

from cardviewer import APP_NAME
from cardviewer.services.local_file import parse_json_object, read_bounded

log = logging.getLogger(__name__)

FILE_NAME = "cardviewer-site.json"
MAX_BYTES = 64 * 1024
"""The most of a site file read. It holds an address and a switch, some tens of bytes;
a larger file is a mistake, and reading no more keeps one of gigabytes from holding up
the start."""


class SiteConfig(NamedTuple):
    """What the administrator preset; the empty default presets nothing.

    A named tuple, quicker to define than a frozen dataclass: the start reads the site
    file before the sign-in window paints.
    """

    server_url: str | None = None
    lock_server: bool = False
    source: Path | None = None
    """The file it came from, for the log and the About box."""

    @property
    def server_locked(self) -> bool:
        return self.lock_server and self.server_url is not None


def candidate_paths() -> list[Path]:
    """Where a site file may be, in the order they are tried."""
    program = Path(sys.executable if getattr(sys, "frozen", False) else sys.argv[0] or ".")
    paths = [program.resolve().parent / FILE_NAME]
    dirs = PlatformDirs(APP_NAME, appauthor=False, multipath=True)
    paths.extend(Path(folder) / FILE_NAME for folder in dirs.site_config_dir.split(os.pathsep))
    return paths


def load_site_config(paths: Iterable[Path] | None = None) -> SiteConfig:
    """The first readable site file of `paths` (default: `candidate_paths()`)."""
    for path in candidate_paths() if paths is None else paths:
        try:
            content = read_bounded(path, MAX_BYTES)
            if content is not None:
                return _parse(path, content)
        except ValueError as exc:
            log.warning("ignoring the site configuration %s: %s", path, exc)
    return SiteConfig()


def _parse(path: Path, content: bytes) -> SiteConfig:
    # A byte order mark is allowed: Windows Notepad used to write one.
    document = parse_json_object(content, allow_bom=True)
    server = document.get("server_url")
    lock = document.get("lock_server", False)
    if server is not None and not isinstance(server, str):
        raise ValueError('"server_url" must be text')
    if not isinstance(lock, bool):
        raise ValueError('"lock_server" must be true or false')
    unknown = sorted(set(document) - {"server_url", "lock_server"})
    if unknown:
        log.warning("the site configuration %s has unknown keys: %s", path, ", ".join(unknown))
    url = None
    if server:
        # Here, not at the top: most computers have no site file, and the sign-in
        # dialog paints sooner without the address rules.
        from cardviewer.api.address import normalize_server_url
        from cardviewer.api.errors import InvalidInput

        try:
            url = normalize_server_url(server)
        except InvalidInput as exc:
            raise ValueError(f'"server_url": {exc}') from exc
    log.info("site configuration from %s: server %s%s", path, url, " (locked)" if lock else "")
    return SiteConfig(server_url=url, lock_server=lock, source=path)
