"""The application: arguments, logging, Qt and its event loop, and the way from sign-in
to the main window and back.

This is the one module that knows every piece. `main()` sets up the process; the
`AppController` runs the flow as a coroutine on the qasync loop, so dialogs are opened
with `open()` and awaited, never run in a nested event loop with `exec()`.

When the session ends while the window is open, the sign-in dialog opens over the
window, which keeps its page; after signing in the failed request is repeated.
"""

from __future__ import annotations

import argparse
import asyncio
import enum
import gc
import importlib.resources
import logging
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer
from PySide6.QtGui import QIcon, QImageReader, QPixmap
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget

from cardviewer import APP_ID, APP_NAME, ORGANIZATION, __version__, i18n
from cardviewer.api import CardPage, CardsClient, NotAuthenticated, Session
from cardviewer.log_setup import LOG_FORMAT, RedactingFilter, install_file_log, remove_file_log
from cardviewer.paths import config_dir
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.session_store import SessionStore, StoredSession
from cardviewer.services.settings import Settings
from cardviewer.services.site_config import SiteConfig, load_site_config
from cardviewer.tasks import TaskSet
from cardviewer.ui.cards.card_details import AVATAR_SIZE as DETAILS_AVATAR_SIZE
from cardviewer.ui.cards.card_table_model import CardTableModel, PageRequest
from cardviewer.ui.login.login_dialog import LoginDialog, LoginResult
from cardviewer.ui.main_window import MainWindow

if TYPE_CHECKING:
    from cardviewer.demo import DemoServer

log = logging.getLogger(__name__)

IMAGE_ALLOCATION_LIMIT_MB = 128
"""Qt refuses to decode images that would need more memory than this (process-wide)."""
SCREENSHOT_TIMEOUT = 30.0
"""Seconds a screenshot run waits for the page and its avatars."""
DEMO_SETTINGS_FILE = "demo-settings.json"


def app_icon() -> QIcon:
    """The app's icon, shipped in `cardviewer.resources`."""
    return QIcon(str(importlib.resources.files("cardviewer.resources") / "cardviewer.svg"))


# Arguments and logging


EXPORT_COMMAND = "export"
"""The first argument that runs `cardviewer.cli` instead of the window."""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=APP_ID,
        description="Browse and export the digital business cards of your company's space.",
        epilog=f"To export without a window, for scheduled jobs: {APP_ID} {EXPORT_COMMAND} --help",
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
    return parser.parse_args(argv)


def configure_logging(verbose: bool) -> logging.Handler:
    """Log to stderr and to the log file, both without secrets; returns the stderr handler."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    handler.addFilter(RedactingFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    # httpx names every request at INFO; httpcore's trace is never needed in this log.
    logging.getLogger("httpx").setLevel(logging.DEBUG if verbose else logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
    install_file_log()  # None when the folder cannot be written; a warning says why
    return handler


# Unhandled errors


class ErrorReporter:
    """Logs errors nothing else caught and tells the person, without blocking the app."""

    def __init__(self) -> None:
        self._box: QMessageBox | None = None
        self.on_interrupt: Callable[[], None] | None = None

    def excepthook(
        self,
        kind: type[BaseException],
        error: BaseException,
        tb: TracebackType | None,
    ) -> None:
        if issubclass(kind, KeyboardInterrupt) and self.on_interrupt is not None:
            self.on_interrupt()
            return
        log.critical("unhandled error", exc_info=(kind, error, tb))
        self.tell(error)

    def loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        message = context.get("message", "unhandled error in the event loop")
        if isinstance(error, BaseException):
            log.error("%s", message, exc_info=error)
        else:
            log.error("%s: %s", message, context)
        self.tell(error if isinstance(error, BaseException) else None)

    def tell(self, error: BaseException | None) -> None:
        """One message box at a time, opened with `open()` so nothing waits for it."""
        if QApplication.instance() is None or (self._box is not None and self._box.isVisible()):
            return
        box = QMessageBox(
            QMessageBox.Icon.Critical,
            QCoreApplication.translate("App", "Unexpected error"),
            QCoreApplication.translate(
                "App",
                "Something went wrong that CardViewer did not expect. "
                "You can keep working; if the problem stays, restart the app.",
            ),
        )
        if error is not None:
            box.setDetailedText(f"{type(error).__name__}: {error}")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.destroyed.connect(self._forget_box)
        self._box = box
        box.open()

    def _forget_box(self) -> None:
        self._box = None


# Garbage collection


class MainThreadGarbageCollector(QObject):
    """Runs Python's cyclic garbage collector on the GUI thread only.

    Left automatic, a collection runs on whichever thread happens to allocate (an
    avatar decoder, the demo server) and may free Qt objects there, which Qt does not
    allow: the app crashes later in its event dispatcher. So automatic collection is
    off while the app runs, and a timer collects with the usual thresholds instead.
    """

    INTERVAL_MS = 500

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thresholds = gc.get_threshold()
        self._timer = QTimer(self)
        self._timer.setInterval(self.INTERVAL_MS)
        self._timer.timeout.connect(self.collect_if_due)
        self._was_enabled = gc.isenabled()

    def start(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        gc.collect()
        if self._was_enabled:
            gc.enable()

    def collect_if_due(self) -> None:
        count0, count1, count2 = gc.get_count()
        if count0 > self._thresholds[0]:
            gc.collect(0)
            if count1 > self._thresholds[1]:
                gc.collect(1)
                if count2 > self._thresholds[2]:
                    gc.collect(2)


# The flow from sign-in to the main window


class Outcome(enum.Enum):
    """How a main window ended."""

    CLOSED = "closed"
    SIGNED_OUT = "signed out"


@dataclass(frozen=True)
class Account:
    """Who is signed in where, with the token the client sends and when it stops working."""

    server_url: str
    email: str
    token: str
    expires_at: datetime | None = None

    def is_expired(self, now: datetime | None = None) -> bool:
        return self.expires_at is not None and (now or datetime.now(UTC)) >= self.expires_at

    @classmethod
    def from_result(cls, result: LoginResult) -> Account:
        session = result.session
        return cls(result.server_url, result.email, session.access_token, session.expires_at)


class AppController:
    """Signs in, shows the main window, signs out and in again, until the window closes.

    A session that ends while the window is open (401, or past its expiry) is renewed
    over the window: see `_sign_in_again()`.

    `run()` returns the process's exit code. With `demo`, the dialog is filled in for
    the demo server and its space opens after signing in; nothing is remembered then,
    because the demo server gets new ports and tokens on every start.
    """

    def __init__(
        self,
        settings: Settings,
        session_store: SessionStore | None,
        *,
        demo: DemoServer | None = None,
        screenshot: Path | None = None,
        screenshot_login: Path | None = None,
        site: SiteConfig | None = None,
    ) -> None:
        self.settings = settings
        self.site = site or SiteConfig()
        self.session_store = session_store
        self.demo = demo
        self.screenshot = screenshot
        self.screenshot_login = screenshot_login
        self.login_dialog: LoginDialog | None = None
        self.window: MainWindow | None = None
        self.model: CardTableModel | None = None
        self.avatars: AvatarLoader | None = None
        self.account: Account | None = None
        self._quitting = False
        self._exit_code = 0

    # Running

    async def run(self) -> int:
        message = ""
        server, email = self._preset_server(), self.settings.last_email
        stored = self._load_session()
        if stored is not None and not self._may_use_server(stored.server_url):
            log.info("the saved session is for %s, not the preset server", stored.server_url)
            stored = None
        if stored is not None and stored.is_expired():
            log.info("the saved session for %s has expired", stored.server_url)
            server, email = stored.server_url, stored.email
            message = QCoreApplication.translate(
                "App", "Your session has expired; please sign in again."
            )
            self._forget_session()
            stored = None
        if self.screenshot is not None and stored is None and self.demo is None:
            log.error("--screenshot needs --demo or a saved sign-in")
            self._exit_code = 2
            if self.screenshot_login is None:
                return self._exit_code
        while not self._quitting:
            if stored is not None:
                account = Account(
                    stored.server_url, stored.email, stored.access_token, stored.expires_at
                )
                stored = None
            else:
                result = await self._sign_in(server, email, message)
                if result is None:
                    break
                account = Account.from_result(result)
                self._remember_sign_in(result)
            outcome = await self._browse(account)
            # A sign-in over the window may have changed the account.
            server, email = self._last_account(account)
            if outcome is Outcome.CLOSED:
                break
            self._forget_session()
            message = ""
        return self._exit_code

    def _preset_server(self) -> str:
        """The server the dialog starts with: the administrator's if locked or none is known."""
        preset = self.site.server_url
        if preset and (self.site.server_locked or not self.settings.last_server):
            return preset
        return self.settings.last_server

    def _may_use_server(self, server_url: str) -> bool:
        return not self.site.server_locked or server_url == self.site.server_url

    def _last_account(self, fallback: Account) -> tuple[str, str]:
        account = self.account or fallback
        self.account = None
        return account.server_url, account.email

    def quit(self) -> None:
        """End the app as if its window were closed (used on Ctrl+C)."""
        self._quitting = True
        if self.login_dialog is not None:
            self.login_dialog.reject()
        if self.window is not None:
            self.window.close()

    # Signing in

    async def authenticate(self, server_url: str, email: str, password: str) -> Session:
        async with CardsClient(server_url) as client:
            return await client.login(email, password)

    async def _sign_in(
        self, server: str, email: str, message: str, parent: QWidget | None = None
    ) -> LoginResult | None:
        """Ask for the account; over `parent`, the server is fixed: its page is shown."""
        password = ""
        site_locked = self.site.server_locked and self.demo is None
        if self.demo is not None:
            server, email, password = self.demo.base_url, self.demo.email, self.demo.password
        elif site_locked and self.site.server_url:
            server = self.site.server_url
        dialog = LoginDialog(
            self.authenticate,
            parent,
            server=server,
            email=email,
            password=password,
            keep_signed_in=self.session_store is not None,
            server_locked=parent is not None or site_locked,
        )
        if site_locked:
            dialog.server_edit.setToolTip(
                QCoreApplication.translate(
                    "App", "The server is set by your administrator for this computer."
                )
            )
        if message:
            dialog.set_message(message)
        finished: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def done(code: int) -> None:
            if not finished.done():
                finished.set_result(code)

        dialog.finished.connect(done)
        self.login_dialog = dialog
        try:
            dialog.open()
            if self.screenshot_login is not None:
                await self._save_screenshot(dialog, self.screenshot_login)
                self.screenshot_login = None
                if self.screenshot is None or self._exit_code:
                    dialog.reject()
                else:
                    dialog.submit()
            elif self.screenshot is not None and self.demo is not None and parent is None:
                dialog.submit()  # an unattended run of the demo: nobody is there to click
            code = await finished
        finally:
            self.login_dialog = None
            dialog.hide()
            await dialog.aclose()
            dialog.deleteLater()
        if code != QDialog.DialogCode.Accepted:
            return None
        return dialog.result_value

    def _load_session(self) -> StoredSession | None:
        if self.session_store is None:
            return None
        return self.session_store.load()

    def _remember_sign_in(self, result: LoginResult) -> None:
        if self.session_store is not None:
            try:
                if result.keep_signed_in:
                    self.session_store.save(
                        StoredSession.from_session(result.server_url, result.email, result.session)
                    )
                else:
                    self.session_store.clear()
            except OSError as exc:
                log.warning("the sign-in could not be saved: %s", exc)
        if self.demo is None:
            self.settings.last_server = result.server_url
            self.settings.last_email = result.email
        self._save_settings()

    def _forget_session(self) -> None:
        if self.session_store is None:
            return
        try:
            self.session_store.clear()
        except OSError as exc:
            log.warning("the saved sign-in could not be removed: %s", exc)

    def _save_settings(self) -> None:
        try:
            self.settings.save()
        except OSError as exc:
            log.warning("settings not saved: %s", exc)

    # The main window

    async def _browse(self, account: Account) -> Outcome:
        client = CardsClient(account.server_url, token=account.token)
        avatars = AvatarLoader()
        details_avatars = AvatarLoader(size=DETAILS_AVATAR_SIZE)
        model = CardTableModel(avatars, prefetch=True)
        tasks = TaskSet()
        self.account = account

        async def fetch(request: PageRequest) -> CardPage:
            current = self.account or account
            if current.is_expired():
                # Sending a token known to be dead only earns a 401; ask for a sign-in now.
                raise NotAuthenticated(
                    QCoreApplication.translate(
                        "App", "Your sign-in has expired. Please sign in again."
                    ),
                    401,
                    detail=f"the session expired at {current.expires_at}",
                )
            return await client.list_cards(
                request.space_id, request.page, with_emails=request.with_emails
            )

        model.set_source(fetch, scope=account.server_url)
        window = MainWindow(
            model,
            self.settings,
            email=account.email,
            server_url=account.server_url,
            avatar_size=avatars.size,
            source=fetch,
            avatars=avatars,
            details_avatars=details_avatars,
            server_locked=self.site.server_locked,
        )
        ended: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()

        def end(outcome: Outcome) -> None:
            if not ended.done():
                ended.set_result(outcome)

        def sign_in_again() -> None:
            if tasks.running("sign-in again"):
                if self.login_dialog is not None:
                    self.login_dialog.raise_()
            elif not ended.done():
                tasks.start(self._sign_in_again(window, client), name="sign-in again")

        window.closed.connect(lambda: end(Outcome.CLOSED))
        window.signOutRequested.connect(lambda: end(Outcome.SIGNED_OUT))
        window.signInRequested.connect(sign_in_again)
        self.window, self.model, self.avatars = window, model, avatars
        try:
            window.show()
            space = self.demo.space_id if self.demo is not None else self.settings.last_space
            if space:
                window.open_space(space)
            if self.screenshot is not None:
                await self._screenshot_main_window(
                    window, model, [avatars, details_avatars], self.screenshot
                )
                self.screenshot = None
                end(Outcome.CLOSED)
            return await ended
        finally:
            self.window = None
            await tasks.aclose()  # closes a sign-in dialog still open over the window
            await window.aclose()  # an export still running writes nothing
            window.hide()
            await model.aclose()
            await avatars.aclose()
            await details_avatars.aclose()
            await client.aclose()
            window.deleteLater()
            model.deleteLater()
            avatars.deleteLater()
            details_avatars.deleteLater()

    async def _sign_in_again(self, window: MainWindow, client: CardsClient) -> None:
        """Renew an ended session over the window, which keeps its page meanwhile.

        Signed in, the client sends the new token and the window repeats the request
        that failed; cancelled, the window stays signed out until asked again.
        """
        account = self.account
        if account is None:
            return
        log.info("the session for %s has ended; asking to sign in again", account.server_url)
        message = QCoreApplication.translate("App", "Your session has ended; please sign in again.")
        result = await self._sign_in(account.server_url, account.email, message, window)
        if result is None:
            log.info("signing in again was cancelled; the window stays signed out")
            return
        client.token = result.session.access_token
        self.account = Account.from_result(result)
        self._remember_sign_in(result)
        window.signed_in_again(result.email, result.server_url)

    # Screenshots

    async def _screenshot_main_window(
        self, window: MainWindow, model: CardTableModel, loaders: list[AvatarLoader], path: Path
    ) -> None:
        """Wait for the page and its avatars, with the first card in the details pane."""
        settled = asyncio.Event()
        loop = asyncio.get_running_loop()

        def check() -> None:
            if model.page is not None and not window.table.currentIndex().isValid():
                window.table.selectRow(0)
            busy = model.is_loading or model.pending_request
            if not (busy or any(loader.loading for loader in loaders)):
                settled.set()

        # Checked once the emitting task has finished its step and updated its counts.
        signals = [model.loadingChanged]
        for loader in loaders:
            signals.extend([loader.avatarReady, loader.avatarFailed])
        for signal_ in signals:
            signal_.connect(lambda *_: loop.call_soon(check))
        check()
        try:
            async with asyncio.timeout(SCREENSHOT_TIMEOUT):
                await settled.wait()
        except TimeoutError:
            log.warning("the page or its avatars did not arrive in time for the screenshot")
        if model.page is None:
            log.error("no page was loaded for the screenshot")
            self._exit_code = 1
        await self._save_screenshot(window, path)

    async def _save_screenshot(self, widget: QWidget, path: Path) -> None:
        await asyncio.sleep(0.2)  # let layouts settle and pending paints run
        pixmap: QPixmap = widget.grab()
        if pixmap.save(str(path), "PNG"):
            log.info("saved a screenshot of %s to %s", type(widget).__name__, path)
        else:
            log.error("could not save the screenshot to %s", path)
            self._exit_code = 1


# Process setup


def main(argv: Sequence[str] | None = None) -> int:
    """Run CardViewer, or with `export` first its export without a window; returns the exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == [EXPORT_COMMAND]:
        from cardviewer import cli  # no window, no event loop on Qt

        return cli.main(arguments[1:])
    args = parse_args(arguments)
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

    # Imported only now that PySide6 is loaded: qasync binds to the Qt it finds.
    import qasync

    reporter = ErrorReporter()
    sys.excepthook = reporter.excepthook
    demo = _start_demo() if args.demo else None
    if args.demo and demo is None:
        return 2
    collector = MainThreadGarbageCollector()
    collector.start()
    try:
        with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(app)) as runner:
            return runner.run(amain(args, reporter, demo))
    finally:
        collector.stop()  # the closed loop's Qt objects are freed here, on this thread
        if demo is not None:
            demo.stop()


async def amain(args: argparse.Namespace, reporter: ErrorReporter, demo: DemoServer | None) -> int:
    """Load what was remembered and run the app's flow on the running loop."""
    asyncio.get_running_loop().set_exception_handler(reporter.loop_exception)
    if demo is not None:
        settings = Settings.load(config_dir() / DEMO_SETTINGS_FILE)
        store = None
    else:
        settings = Settings.load()
        store = SessionStore()
    app = QCoreApplication.instance()
    if app is not None:
        i18n.install_translators(app, settings.language)
    controller = AppController(
        settings,
        store,
        site=load_site_config() if demo is None else None,
        demo=demo,
        screenshot=args.screenshot,
        screenshot_login=args.screenshot_login,
    )
    reporter.on_interrupt = controller.quit
    # Python runs signal handlers only between bytecodes; a timer lets it in regularly.
    ticker = QTimer()
    ticker.timeout.connect(lambda: None)
    ticker.start(200)
    restore_sigint = _on_sigint(controller.quit)
    try:
        return await controller.run()
    finally:
        ticker.stop()
        restore_sigint()


def _on_sigint(handler: Callable[[], None]) -> Callable[[], None]:
    """Make Ctrl+C end the app cleanly; returns a function that restores the old handler."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, lambda _signum, _frame: handler())

    def restore() -> None:
        signal.signal(signal.SIGINT, previous)

    return restore


def _start_demo() -> DemoServer | None:
    try:
        from cardviewer.demo import DemoConfig, DemoServer
    except ImportError as exc:
        log.error("demo mode needs the demo extra (pip install 'cardviewer[demo]'): %s", exc)
        return None
    try:
        return DemoServer(DemoConfig()).start()
    except OSError as exc:
        log.error("the demo server could not start: %s", exc)
        return None
