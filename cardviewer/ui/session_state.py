"""Who is signed in where, and whether the server has ended the session.

The status bar's account label holds that state: after the session ends the window
keeps its page and says "signed out" until the person signs in again. Paging and
opening spaces are unavailable meanwhile, and the status bar says why, so that a
greyed-out Next Page is not a mystery after the sign-in was cancelled.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QStatusBar, QWidget

from cardviewer.api.address import same_email, same_server
from cardviewer.ui.eliding_label import ElidingLabel


class AccountLabel(ElidingLabel):
    """ "name@example.com on cards.example.com", or "Signed out (…)" once the session ended.

    It gives way to a status message that needs the room (`ElidingStatusBar`), cut at
    its end and whole in its tooltip.
    """

    accountChanged = Signal()
    """Another account than the one shown before is signed in (over the window)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._email = ""
        self._server_url = ""
        self._signed_out = False

    @property
    def signed_out(self) -> bool:
        """True after the server ended the session, until `set_signed_out(False)`."""
        return self._signed_out

    @property
    def account(self) -> tuple[str, str]:
        """The e-mail address and the server of the account shown."""
        return self._email, self._server_url

    def set_account(self, email: str, server_url: str) -> None:
        """Say who is signed in where (or was, while signed out)."""
        before = self._email, self._server_url
        self._email, self._server_url = email, server_url
        host = urlsplit(server_url).netloc or server_url
        if email and host:
            text = QCoreApplication.translate("MainWindow", "%1 on %2")
            text = text.replace("%1", email).replace("%2", host)
        else:
            text = email or host
        if self._signed_out:
            text = (
                QCoreApplication.translate("MainWindow", "Signed out (%1)").replace("%1", text)
                if text
                else QCoreApplication.translate("MainWindow", "Signed out")
            )
        self.set_whole_text(text, server_url)
        if any(before) and not same_account(before, (email, server_url)):
            self.accountChanged.emit()

    def set_signed_out(self, signed_out: bool) -> None:
        """Enter or leave the signed-out state; the status bar it sits in says what waits."""
        self._signed_out = signed_out
        self.set_account(self._email, self._server_url)
        status = self.parentWidget()
        if not isinstance(status, QStatusBar):
            return
        note = signed_out_note()
        if signed_out:
            status.showMessage(note)
        elif status.currentMessage() == note:
            status.clearMessage()


def same_account(one: tuple[str, str], other: tuple[str, str]) -> bool:
    """Whether two (e-mail, server) pairs name one account, as its local copies are
    named (`account_folder`): an address's case, spaces around it, or a server address
    written another way (a slash at its end, its port) make no other account."""
    return same_email(one[0], other[0]) and same_server(one[1], other[1])


def signed_out_note() -> str:
    """What is unavailable while signed out, and what brings it back."""
    return QCoreApplication.translate(
        "MainWindow",
        "Signed out: sign in to open other pages and spaces.",
    )


def session_ended_message(stopped: str | None, *, cards_shown: bool = True) -> str:
    """Why the window is signed out, what stays (the cards shown, if any), and what the
    end of the session stopped, if anything."""
    if cards_shown:
        message = QCoreApplication.translate(
            "MainWindow",
            "You are signed out because your session has ended. The cards shown stay "
            "here; sign in to load more.",
        )
    else:
        message = QCoreApplication.translate(
            "MainWindow",
            "You are signed out because your session has ended; sign in to load cards.",
        )
    return message if stopped is None else f"{message} {stopped}"
