"""The sign-in dialogs the app opens, filled in from the settings, the site file or the demo.

Kept apart from the controller (`cardviewer.controller`): `app` opens and paints the
first dialog with this module alone, before the controller, the saved-session store
and the network stack are imported. They follow while the person types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from cardviewer.log_setup import remember_secret
from cardviewer.ui.login.login_dialog import LoginDialog

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from cardviewer.api.models import Session
    from cardviewer.demo import DemoServer
    from cardviewer.services.settings import Settings
    from cardviewer.services.site_config import SiteConfig


async def authenticate(server_url: str, email: str, password: str) -> Session:
    """Sign in with the API client, which is imported on the first attempt.

    The password, and then the token, are taken out of every later log line, whatever
    name or form a server or a library gives them there.
    """
    from cardviewer.api.client import CardsClient

    remember_secret(password)
    async with CardsClient(server_url) as client:
        session = await client.login(email, password)
    remember_secret(session.access_token)
    return session


class SignInDialogs:
    """Makes sign-in dialogs: the server and e-mail to start with, and who may change them.

    The administrator's server (`site`) comes first when it is locked or nothing was
    used before; with `demo`, the dialog is filled in for the demo server and nothing
    is locked. "Keep me signed in" starts checked where sessions are remembered at all
    (`remembers_sessions`) and the person did not untick it last time (the settings).
    """

    def __init__(
        self,
        settings: Settings,
        site: SiteConfig,
        *,
        demo: DemoServer | None = None,
        remembers_sessions: bool = True,
    ) -> None:
        self.settings = settings
        self.site = site
        self.demo = demo
        self.remembers_sessions = remembers_sessions

    def preset_server(self) -> str:
        """The server a first dialog starts with: the administrator's if locked or none is known."""
        preset = self.site.server_url
        if preset and (self.site.server_locked or not self.settings.last_server):
            return preset
        return self.settings.last_server

    def may_use_server(self, server_url: str) -> bool:
        # Here, not above: the first sign-in dialog is painted before the API is loaded.
        from cardviewer.api.address import same_server

        locked = self.site.server_url
        return not self.site.server_locked or (
            locked is not None and same_server(server_url, locked)
        )

    def first(self, message: str = "") -> LoginDialog:
        """The dialog a run starts with: the preset server and the last e-mail used."""
        return self.new(self.preset_server(), self.settings.last_email, message)

    def new(
        self, server: str, email: str, message: str = "", parent: QWidget | None = None
    ) -> LoginDialog:
        """A dialog filled in; over `parent`, the server is fixed: its page is shown."""
        password = ""
        site_locked = self.site.server_locked and self.demo is None
        if self.demo is not None:
            server, email, password = self.demo.base_url, self.demo.email, self.demo.password
        elif site_locked and self.site.server_url:
            server = self.site.server_url
        dialog = LoginDialog(
            authenticate,
            parent,
            server=server,
            email=email,
            password=password,
            keep_signed_in=self.remembers_sessions and self.settings.keep_signed_in,
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
        return dialog
