"""The window's start: arguments, logging, Qt and its event loop.

`cardviewer.entry_point` hands over here when no command is named. `main()` sets up the
process and hands over to the `AppController` (`cardviewer.controller`), which runs the
way from sign-in to the main window and back as a coroutine on the qasync loop.

What this module imports is what painting the sign-in dialog needs, and no more:
without a saved session the dialog is painted before the controller, the session store,
the event loop, the API client, pydantic and the main window are imported (they follow
while the person types, and the controller adopts the dialog).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

# What needs no Qt is imported before PySide6: from then on, PySide's import hook reads
# the source of each module named in an import statement, looking for "PySide6".
from cardviewer import APP_ID, APP_NAME, EXPORT_COMMAND, ORGANIZATION, SYNC_COMMAND, __version__
from cardviewer.log_setup import (
    LOG_FORMAT,
    RedactingFilter,
    hold_records,
    install_file_log,
    remove_file_log,
)
from cardviewer.paths import config_dir, resource_path, session_file
from cardviewer.services.settings import Settings
from cardviewer.services.site_config import SiteConfig, load_site_config

# isort: split
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, QObject
from PySide6.QtGui import QIcon, QImageReader
from PySide6.QtWidgets import QApplication, QWidget

from cardviewer import i18n
from cardviewer.error_reporter import ErrorReporter
from cardviewer.garbage_collection import MainThreadGarbageCollector
from cardviewer.sign_in import SignInDialogs
from cardviewer.ui.colour_scheme import follow_colour_scheme

if TYPE_CHECKING:
    from cardviewer.demo import DemoServer

log = logging.getLogger(__name__)

IMAGE_ALLOCATION_LIMIT_MB = 128
"""Qt refuses to decode images that would need more memory than this (process-wide)."""
DEMO_SETTINGS_FILE = "demo-settings.json"
DEMO_PORTS = (8765, 8766)
"""The demo's API and avatar ports while they are free: the same addresses each run, so
that a space synced in one demo run is found again in the next, not left on the disk
beside a new copy, and the avatars come from their cache."""
PAINT_TIMEOUT = 0.2
"""Seconds the start waits for the early sign-in dialog to paint before going on."""


def app_icon() -> QIcon:
    """The app's icon, shipped in `cardviewer.resources`."""
    return QIcon(str(resource_path("cardviewer.svg")))


# Arguments and logging


NO_ARGUMENTS = argparse.Namespace(
    demo=False, screenshot=None, screenshot_login=None, version=False, verbose=False
)
"""What `parse_args([])` returns, without building the parser (a test keeps them equal)."""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line; none at all, as when the app is double-clicked, costs nothing.

    Building the parser is work a start without arguments skips (argparse asks gettext
    for its words, which imports `locale`, and the terminal for its width).
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments:
        return argparse.Namespace(**vars(NO_ARGUMENTS))
    return argument_parser().parse_args(arguments)


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=APP_ID,
        description="Browse and export the digital business cards of your company's space.",
        epilog="Without a window, for scheduled jobs: "
        f"{APP_ID} {EXPORT_COMMAND} --help, {APP_ID} {SYNC_COMMAND} --help",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="start a local demo server with sample cards and sign in to it",
    )
    parser.add_argument(
        "--screenshot",
        metavar="FILE",
        type=Path,
        help="sign in, open the space, save a picture of the main window as PNG and quit "
        "(usually with --demo)",
    )
    parser.add_argument(
        "--screenshot-login",
        metavar="FILE",
        type=Path,
        help="save a picture of the sign-in dialog as PNG",
    )
    parser.add_argument("--version", action="store_true", help="print the version and quit")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debugging details")
    return parser


def configure_logging(verbose: bool) -> logging.Handler:
    """Log to stderr, and hold records for the log file; returns the stderr handler.

    `_run_app` opens the log file once the sign-in window has painted (opening it
    imports `logging.handlers` and more); nothing logged before is lost.
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    handler.addFilter(RedactingFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    # httpx names every request at INFO; httpcore's trace is never needed in this log.
    logging.getLogger("httpx").setLevel(logging.DEBUG if verbose else logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
    # qasync names every job handed to a thread at DEBUG, with its arguments written
    # out: a picture's bytes, a sync's batch of 500 cards (megabytes of log a minute).
    logging.getLogger("qasync").setLevel(logging.INFO)
    hold_records()
    return handler


# Process setup


def main(argv: Sequence[str] | None = None) -> int:
    """Run the window (`cardviewer.entry_point` runs the commands); returns the exit code."""
    args = parse_args(argv)
    if args.version:
        print(f"{APP_NAME} {__version__}")
        return 0
    handler = configure_logging(args.verbose)
    previous_hook = sys.excepthook
    try:
        return _run_app(args)
    finally:
        sys.excepthook = previous_hook
        logging.getLogger().removeHandler(handler)
        remove_file_log()


def _run_app(args: argparse.Namespace) -> int:
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setOrganizationName(ORGANIZATION)
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(app_icon())
    # `amain` decides when the app ends, not the last window to close (the dialog).
    app.setQuitOnLastWindowClosed(False)
    QImageReader.setAllocationLimit(IMAGE_ALLOCATION_LIMIT_MB)

    reporter = ErrorReporter()
    sys.excepthook = reporter.excepthook
    # What is set up from here on is taken down in reverse order, however the run ends.
    with contextlib.ExitStack() as cleanup:
        cleanup.enter_context(follow_colour_scheme(app))  # the desktop's, or the one asked for
        # Before the demo server starts its threads: cyclic garbage is collected on this
        # thread only until they have stopped. Stopping collects the closed loop's Qt
        # objects, here.
        collector = MainThreadGarbageCollector()
        collector.start()
        cleanup.callback(collector.stop)
        demo = None
        if args.demo:
            demo = _start_demo()
            if demo is None:
                return 2
            cleanup.callback(demo.stop)
        settings, site = load_user_settings(demo)
        # Before any widget is built: widgets keep the text they were made with.
        i18n.install_translators(app, settings.language)
        early_dialog = None
        if sign_in_comes_first(args):
            early_dialog = SignInDialogs(settings, site, remembers_sessions=True).first()
            # The controller adopts it; should the start fail before, it is closed here.
            cleanup.callback(_discard, early_dialog)
            early_dialog.open()
            paint_now(early_dialog)
        install_file_log()  # None when the folder cannot be written; a warning says why

        # Imported only now: painting the sign-in dialog needs none of them, and qasync
        # binds to the Qt it finds.
        import asyncio

        from cardviewer.controller import AppController, amain
        from cardviewer.event_loop import QtEventLoop
        from cardviewer.services.session_store import SessionStore

        controller = AppController(
            settings,
            SessionStore() if demo is None else None,
            site=site,
            demo=demo,
            screenshot=args.screenshot,
            screenshot_login=args.screenshot_login,
            early_dialog=early_dialog,
        )
        with asyncio.Runner(loop_factory=lambda: QtEventLoop(app)) as runner:
            return runner.run(amain(controller, reporter))


def _discard(dialog: QWidget) -> None:
    """Close a window that may already be gone (deleted by whoever used it)."""
    if shiboken6.isValid(dialog):
        dialog.hide()
        dialog.deleteLater()


def load_user_settings(demo: DemoServer | None) -> tuple[Settings, SiteConfig]:
    """The settings and the administrator's presets for this run.

    A demo run keeps its own settings (and no session), and ignores the site file.
    """
    if demo is not None:
        return Settings.load(config_dir() / DEMO_SETTINGS_FILE), SiteConfig()
    return Settings.load(), load_site_config()


def sign_in_comes_first(args: argparse.Namespace) -> bool:
    """Whether the first window is surely the sign-in dialog, as it is without a saved
    session: then it is opened and painted before the event loop runs.

    Only the file's absence is checked, which is cheap; a saved session, even one that
    will turn out unusable, is read on the loop as always. Demo and screenshot runs
    start on the loop, which fills their dialog in or takes its picture.
    """
    unattended = args.screenshot is not None or args.screenshot_login is not None
    return not args.demo and not unattended and not session_file().exists()


class _PaintWatch(QObject):
    """Notes when a widget has painted."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.painted = False
        self._widget = widget
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._widget and event.type() == QEvent.Type.Paint:
            self.painted = True
        return False


def paint_now(widget: QWidget, timeout: float = PAINT_TIMEOUT) -> bool:
    """Let the shown `widget` paint before the slower part of the start; True once it has.

    Input is held back meanwhile (Qt keeps it queued until the event loop runs), so
    nothing the person does can start work that needs the loop before it exists. Gives
    up after `timeout` seconds, for a window system that is slow to show the window:
    then the window paints when the loop runs.
    """
    watch = _PaintWatch(widget)
    deadline = time.monotonic() + timeout
    flags = QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents
    try:
        while not watch.painted and time.monotonic() < deadline:
            QCoreApplication.processEvents(flags)
            if not watch.painted:
                time.sleep(0.001)
    finally:
        widget.removeEventFilter(watch)
    return watch.painted


def _start_demo() -> DemoServer | None:
    try:  # here: only a demo run needs it, and it is an optional extra
        from cardviewer.demo import DemoConfig, DemoServer
    except ImportError as exc:
        log.error("demo mode needs the demo extra (pip install 'cardviewer[demo]'): %s", exc)
        return None
    try:
        server = DemoServer(DemoConfig(), port=DEMO_PORTS[0], avatar_port=DEMO_PORTS[1])
        return server.start(free_ports_if_taken=True)
    except OSError as exc:
        log.error("the demo server could not start: %s", exc)
        return None
