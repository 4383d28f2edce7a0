"""The rotating log file, created readable by this user only: logs name people and servers.

Apart from `cardviewer.log_setup` because `logging.handlers` brings `socket`, `pickle`
and `queue` with it, which the start loads after the sign-in window has painted.
"""

from __future__ import annotations

import io
import os
from logging.handlers import RotatingFileHandler


class PrivateRotatingFileHandler(RotatingFileHandler):
    """A `RotatingFileHandler` whose files are created with mode 0600."""

    def _open(self) -> io.TextIOWrapper:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_BINARY", 0)
        fd = os.open(self.baseFilename, flags, 0o600)
        # The handler owns the stream and closes it.
        return os.fdopen(fd, "a", encoding=self.encoding, errors=self.errors)
