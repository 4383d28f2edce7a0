"""The program's one entry point: a command without a window, or the window.

`main.py`, `python -m cardviewer`, the `cardviewer` script and the frozen app all start
here. Nothing here imports Qt: which program runs is known before any of it is loaded,
so a scheduled `cardviewer export` or `sync` never loads the window's libraries. A
Ctrl+C while a command is still being loaded (about a second) ends it with a sentence,
not a traceback; one while the window loads (Qt takes a few tenths of a second) is
noted, and ends the window once it listens (`noted_interrupt`). A sync's writing
process, started as this program, loads no more than this.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from cardviewer import EXPORT_COMMAND, SYNC_COMMAND
from cardviewer.noted_interrupt import interrupts_noted

INTERRUPTED_EXIT = 130
"""What a program ended by Ctrl+C exits with, as shells say it (`cli.ExitCode`)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run CardViewer, or with `export` or `sync` first that command without a window;
    returns the exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] in ([EXPORT_COMMAND], [SYNC_COMMAND]):
        return _run_command(arguments[0], arguments[1:])
    with interrupts_noted():  # until the window listens for Ctrl+C itself
        from cardviewer import app

        return app.main(arguments)


def _run_command(command: str, arguments: list[str]) -> int:
    """`cardviewer export` or `cardviewer sync`, with no window and no event loop on Qt.

    Each command ends on Ctrl+C by itself once it runs; one pressed while it is still
    being loaded ends it here, where nothing has been written.
    """
    try:
        if command == EXPORT_COMMAND:
            from cardviewer import cli

            return cli.main(arguments)
        from cardviewer import cli_sync

        return cli_sync.main(arguments)
    except KeyboardInterrupt:
        print("Interrupted; nothing was written.", file=sys.stderr)
        return INTERRUPTED_EXIT
