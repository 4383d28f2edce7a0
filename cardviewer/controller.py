"""The way from sign-in to the main window and back, run as a coroutine on the qasync loop.

Dialogs are opened with `open()` and awaited, never run in a nested event loop with
`exec()`. When the session ends while the window is open, the sign-in dialog opens over
the window, which keeps its page; after signing in the failed request is repeated.

The main window, its model, the avatar loaders and the API client are imported when
they are first needed, not with this module. Without a saved session, `cardviewer.app`
paints the sign-in dialog before it imports this module, and all of them are imported
while the person types.
"""

from __future__ import annotations

import asyncio
import enum
import importlib
import logging
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QDialog, QWidget

from cardviewer import paths
from cardviewer.api.errors import NotAuthenticated
from cardviewer.api.expiry import has_expired
from cardviewer.api.retry import WAITS_LEFT_TO_CALLER
from cardviewer.garbage_collection import freeze_survivors
from cardviewer.log_setup import remember_secret
from cardviewer.noted_interrupt import pressed_before
from cardviewer.services.session_store import SessionStore, StoredSession
from cardviewer.services.settings import Settings
from cardviewer.services.site_config import SiteConfig
from cardviewer.sign_in import SignInDialogs
from cardviewer.tasks import TaskSet
from cardviewer.ui.login.login_dialog import LoginDialog, LoginResult

if TYPE_CHECKING:
    from cardviewer.api import CardPage, CardsClient
    from cardviewer.demo import DemoServer
    from cardviewer.error_reporter import ErrorReporter
    from cardviewer.services.avatar_loader import AvatarLoader
    from cardviewer.services.page_loader import PageRequest
    from cardviewer.ui.cards.card_pages import CardPages
    from cardviewer.ui.main_window import MainWindow

log = logging.getLogger(__name__)

FIRST_PAGE_HEAD_START = 0.02
"""Seconds the main window waits for the first page's request to leave before it is
built (milliseconds over a new connection nearby): the page then travels meanwhile. A
far server's handshake goes on after the wait, while the window is built."""
SCREENSHOT_TIMEOUT = 30.0
"""Seconds a screenshot run waits for the page and its avatars."""
WARM_UP_MODULES = (
    "pydantic",
    "cardviewer.api.models",
    "httpx",
    "httpcore",
    "cardviewer.api.client",
    "cardviewer.ui.main_window",
)
"""What signing in and the main window import, in steps of at most a few tens of ms."""


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

    def __post_init__(self) -> None:
        remember_secret(self.token)  # no log may show it, wherever a server echoes it

    def is_expired(self, now: datetime | None = None) -> bool:
        return has_expired(self.expires_at, now)

    @classmethod
    def from_result(cls, result: LoginResult) -> Account:
        session = result.session
        return cls(result.server_url, result.email, session.access_token, session.expires_at)


def warm_up(modules: tuple[str, ...] = WARM_UP_MODULES) -> None:
    """Import `modules` one per turn of the event loop, so typing stays responsive.

    Started while the sign-in dialog waits for the person, so that signing in and
    opening the main window do not pay for the imports. A module that fails to import
    is left for its real use to report.
    """
    pending = list(modules)

    def step() -> None:
        name = pending.pop(0)
        try:
            importlib.import_module(name)
        except Exception as exc:
            log.debug("warming up %s failed: %r", name, exc)
        if pending:
            QTimer.singleShot(0, step)

    if pending:
        QTimer.singleShot(0, step)


class AppController:
    """Signs in, shows the main window, signs out and in again, until the window closes.

    A session that ends while the window is open (401, or past its expiry) is renewed
    over the window: see `_sign_in_again()`.

    `run()` returns the process's exit code. With `demo`, the dialog is filled in for
    the demo server and its space opens after signing in; nothing is remembered then,
    because the demo server gets new ports and tokens on every start.

    `early_dialog` is a sign-in dialog `app` opened before the event loop (it has no
    saved session to try first): the first sign-in uses it rather than opening another.
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
        early_dialog: LoginDialog | None = None,
    ) -> None:
        self.settings = settings
        self.site = site or SiteConfig()
        self.session_store = session_store
        self.demo = demo
        self.dialogs = SignInDialogs(
            settings, self.site, demo=demo, remembers_sessions=session_store is not None
        )
        self.screenshot = screenshot
        self.screenshot_login = screenshot_login
        self.login_dialog: LoginDialog | None = early_dialog
        self.window: MainWindow | None = None
        self.pages: CardPages | None = None
        self.avatars: AvatarLoader | None = None
        self.account: Account | None = None
        self._early_dialog: LoginDialog | None = early_dialog
        self._warmed_up = False
        self._quit_asked = asyncio.Event()
        """Set by `quit`: the app ends, and a closed window's process waits no longer for
        its tidying."""
        self._frozen = False
        self._exit_code = 0

    def _discard_early_dialog(self) -> None:
        """Close an early dialog that `run()` did not adopt (it found a saved session)."""
        dialog, self._early_dialog = self._early_dialog, None
        if dialog is None:
            return
        if self.login_dialog is dialog:
            self.login_dialog = None
        dialog.hide()
        dialog.deleteLater()

    # Running

    async def run(self) -> int:
        try:
            return await self._run()
        finally:
            self._discard_early_dialog()

    async def _run(self) -> int:
        message = ""
        server, email = self.dialogs.preset_server(), self.settings.last_email
        stored = self._load_session()
        if stored is not None and not self.dialogs.may_use_server(stored.server_url):
            log.info("the saved session is for %s, not the preset server", stored.server_url)
            stored = None
        expired = False
        if stored is not None and stored.is_expired():
            expired = True
            log.info("the saved session for %s has expired", stored.server_url)
            server, email = stored.server_url, stored.email
            message = QCoreApplication.translate(
                "App", "Your session has expired; please sign in again."
            )
            self._forget_session()
            stored = None
        if stored is not None or expired:
            # A session saved since the early dialog was painted (by another run of the
            # app) decides: its window opens, or a dialog asks for its account again.
            self._discard_early_dialog()
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
            self._remove_local_copies(server, email)
            message = ""
        return self._exit_code

    def _last_account(self, fallback: Account) -> tuple[str, str]:
        account = self.account or fallback
        self.account = None
        return account.server_url, account.email

    @property
    def _quitting(self) -> bool:
        return self._quit_asked.is_set()

    def quit(self) -> None:
        """End the app as if its window were closed (used on Ctrl+C), without waiting
        for a closed window's tidying (`MainWindow.aclose`)."""
        self._quit_asked.set()
        if self.login_dialog is not None:
            self.login_dialog.reject()
        if self.window is not None:
            self.window.close()

    # Signing in

    async def _sign_in(
        self, server: str, email: str, message: str, parent: QWidget | None = None
    ) -> LoginResult | None:
        """Ask for the account, in the dialog shown early if there is one."""
        dialog = self._early_dialog if parent is None else None
        self._early_dialog = None
        if dialog is not None and message:
            dialog.set_message(message)
        adopted = dialog is not None
        if dialog is None:
            dialog = self.dialogs.new(server, email, message, parent)
        if parent is None:
            self._warm_up()
        finished: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def done(code: int) -> None:
            if not finished.done():
                finished.set_result(code)

        dialog.finished.connect(done)
        self.login_dialog = dialog
        try:
            if not adopted:
                dialog.open()
            elif not dialog.isVisible():  # closed before the loop ran
                done(dialog.result())
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

    def _warm_up(self) -> None:
        if not self._warmed_up:
            self._warmed_up = True
            warm_up()

    def _load_session(self) -> StoredSession | None:
        if self.session_store is None:
            return None
        return self.session_store.load()

    def _remember_sign_in(self, result: LoginResult) -> None:
        if self.session_store is not None:
            self.settings.keep_signed_in = result.keep_signed_in  # the next dialog starts so
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

    def _remove_local_copies(self, server_url: str, email: str) -> None:
        """Signing out takes the account's synced spaces off this computer too."""
        # Here, not at the top: the store brings the API's models, which the sign-in
        # dialog is painted without (tests/test_startup.py).
        from cardviewer.services.card_store import account_folder, remove_copies

        folder = account_folder(paths.store_dir(create=False), server_url, email)
        removed = remove_copies(folder)
        if removed:
            log.info("signed out: %d local copies of spaces removed", removed)

    def _save_settings(self) -> None:
        try:
            self.settings.save()
        except OSError as exc:
            log.warning("settings not saved: %s", exc)

    # The main window

    async def _browse(self, account: Account) -> Outcome:
        # Here, not at the top: `app` imports this module right after the sign-in dialog
        # has painted, and `warm_up()` imports these one per turn of the loop meanwhile.
        from cardviewer.api.client import CardsClient
        from cardviewer.services.avatar_address import is_private_server
        from cardviewer.services.avatar_loader import AvatarLoader
        from cardviewer.ui.cards.card_details import AVATAR_SIZE as DETAILS_AVATAR_SIZE
        from cardviewer.ui.cards.card_pages import CardPages
        from cardviewer.ui.cards.card_table_model import CardTableModel
        from cardviewer.ui.main_window import MainWindow

        if not self._frozen:  # once: a later sign-in would freeze what is left of the last
            freeze_survivors()  # the modules imported so far stay; what follows goes
            self._frozen = True
        client = CardsClient(account.server_url, token=account.token)
        # Avatars from loopback or a private network only when the API server is there too.
        private = await is_private_server(account.server_url)
        avatars = AvatarLoader(allow_private_hosts=private)
        details_avatars = AvatarLoader(size=DETAILS_AVATAR_SIZE, allow_private_hosts=private)
        pages = CardPages(CardTableModel(avatars), prefetch=True)
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
                request.space_id,
                request.page,
                with_emails=request.with_emails,
                retry=WAITS_LEFT_TO_CALLER if request.whole_space else None,
            )

        pages.set_source(fetch, scope=account.server_url)
        space = (self.demo.space_id if self.demo is not None else self.settings.last_space).strip()
        if space:
            # On its way while the window is built: the window asks for the same page
            # as it opens the space (`open_space`), and is given this fetch's answer.
            pages.fetch_ahead(space, 1, self.settings.include_emails)
            await client.first_request_out(FIRST_PAGE_HEAD_START)
        window = MainWindow(
            pages,
            self.settings,
            email=account.email,
            server_url=account.server_url,
            avatar_size=avatars.size,
            source=fetch,
            avatars=avatars,
            details_avatars=details_avatars,
            server_locked=self.site.server_locked,
            store_folder=paths.store_dir(create=False),
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
        self.window, self.pages, self.avatars = window, pages, avatars
        try:
            if self._quitting:  # Ctrl+C while the window was on its way: never shown
                return Outcome.CLOSED
            window.show()
            if space:
                window.open_space(space)
            if self.screenshot is not None:
                await self._screenshot_main_window(
                    window, pages, [avatars, details_avatars], self.screenshot
                )
                self.screenshot = None
                end(Outcome.CLOSED)
            return await ended
        finally:
            # Let go of the session now: the next sign-in freezes what is still held.
            self.window = self.pages = self.avatars = None
            if ended.done() and ended.result() is Outcome.SIGNED_OUT:
                _say_signing_out(window)  # a sync called off may take seconds to undo
            await tasks.aclose()  # closes a sign-in dialog still open over the window
            # An export still running writes nothing; a window closed (hidden now), not
            # quit nor signed out of, lets the drop of copies a sync no longer needs end.
            closed = ended.done() and ended.result() is Outcome.CLOSED and not self._quitting
            await window.aclose(tidying_until=self._quit_asked if closed else None)
            window.hide()
            await pages.aclose()
            await avatars.aclose()
            await details_avatars.aclose()
            await client.aclose()
            window.deleteLater()
            pages.model.deleteLater()
            pages.deleteLater()
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
        self, window: MainWindow, pages: CardPages, loaders: list[AvatarLoader], path: Path
    ) -> None:
        """Wait for the page and its avatars, with the first card in the details pane."""
        settled = asyncio.Event()
        loop = asyncio.get_running_loop()

        def check() -> None:
            if pages.page is not None and not window.table.currentIndex().isValid():
                window.table.selectRow(0)
            busy = pages.is_loading or pages.pending_request
            if not (busy or any(loader.loading for loader in loaders)):
                settled.set()

        # Checked once the emitting task has finished its step and updated its counts.
        signals = [pages.loadingChanged]
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
        if pages.page is None:
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


# On the loop


async def amain(controller: AppController, reporter: ErrorReporter) -> int:
    """Run the app's flow on the running loop, with Ctrl+C and loop errors handled."""
    asyncio.get_running_loop().set_exception_handler(reporter.loop_exception)
    reporter.on_interrupt = controller.quit
    # Python runs signal handlers only between bytecodes; a timer lets it in regularly.
    ticker = QTimer()
    ticker.timeout.connect(lambda: None)
    ticker.start(200)
    restore_sigint = _on_sigint(controller.quit)
    quit_events = QuitAsClose(controller.quit)
    application = QCoreApplication.instance()
    if application is not None:
        application.installEventFilter(quit_events)
    try:
        return await controller.run()
    finally:
        ticker.stop()
        restore_sigint()
        if application is not None:
            application.removeEventFilter(quit_events)


class QuitAsClose(QObject):
    """Qt's Quit (the system's Quit menu, Cmd+Q, a session ending) ends the app as
    closing its window does.

    Left to Qt, Quit stopped the event loop under the app's flow: with the sign-in
    open the app never ended, and with the window open it ended in a traceback, its
    connections and jobs not closed.
    """

    def __init__(self, quit: Callable[[], None]) -> None:
        super().__init__()
        self._quit = quit

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Quit and watched is QCoreApplication.instance():
            log.info("asked to quit")
            self._quit()
            return True
        return False


def _on_sigint(handler: Callable[[], None]) -> Callable[[], None]:
    """Make Ctrl+C end the app cleanly, also one pressed while it loaded; returns a
    function that restores the old handler."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: handler())
    if pressed_before(previous):
        handler()

    def restore() -> None:
        signal.signal(signal.SIGINT, previous)

    return restore


def _say_signing_out(window: MainWindow) -> None:
    """Grey the window out and say why, until its jobs have ended and it goes: a sync
    called off drops what it wrote first, seconds at 100,000 cards."""
    from PySide6.QtWidgets import QToolBar  # as MainWindow is: after the sign-in dialog

    for part in (window.menuBar(), window.centralWidget(), *window.findChildren(QToolBar)):
        if part is not None:
            part.setEnabled(False)  # the status bar stays as it is, to be read
    window.statusBar().showMessage(QCoreApplication.translate("App", "Signing out…"))
