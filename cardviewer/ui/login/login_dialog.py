"""The sign-in dialog: server address, e-mail and password, checked against the server.

The dialog does not know how signing in works; it is given an `authenticate`
coroutine function, so the app decides which client to use and tests can use the
demo server. While a sign-in runs the form is locked, and Cancel stops the attempt.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QSize
from PySide6.QtGui import QCloseEvent, QFont, QIcon, QPalette, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from cardviewer import APP_NAME
from cardviewer.tasks import TaskSet
from cardviewer.ui.read_only_field import make_read_only
from cardviewer.ui.wrapped_height import fit_height

if TYPE_CHECKING:
    from cardviewer.api.errors import InvalidCredentials
    from cardviewer.api.models import Session

log = logging.getLogger(__name__)

Authenticate = Callable[[str, str, str], Awaitable["Session"]]
"""`authenticate(server_url, email, password)` signs in and returns the session."""

HEADER_ICON_SIZE = 48
MESSAGE_ICON_SIZE = 16


class LoginResult(NamedTuple):
    """What a successful sign-in produced, and whether to remember it.

    A named tuple rather than a frozen dataclass, as are the start's other records
    (`SiteConfig`, the settings' `_Field`): it is defined on the way to the sign-in
    window's first paint, and a named tuple is much quicker to define.
    """

    server_url: str
    email: str
    session: Session
    keep_signed_in: bool


class LoginDialog(QDialog):
    """Asks for the account and signs in; `result_value` holds the outcome once accepted."""

    def __init__(
        self,
        authenticate: Authenticate,
        parent: QWidget | None = None,
        *,
        server: str = "",
        email: str = "",
        password: str = "",
        keep_signed_in: bool = True,
        server_locked: bool = False,
    ) -> None:
        super().__init__(parent)
        self._authenticate = authenticate
        self._tasks = TaskSet()
        self._busy = False
        self.result_value: LoginResult | None = None

        self.setWindowTitle(self.tr("Sign in to %1").replace("%1", APP_NAME))
        self.setSizeGripEnabled(False)

        self.server_edit = QLineEdit(server, self)
        self.server_edit.setPlaceholderText(self.tr("https://cards.example.com"))
        if server_locked:
            make_read_only(self.server_edit)
        self.email_edit = QLineEdit(email, self)
        self.email_edit.setPlaceholderText(self.tr("name@example.com"))
        self.password_edit = QLineEdit(password, self)
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.password_edit.setPlaceholderText(self.tr("Password"))
        # Said after the field's label, instead of the placeholder, which only repeats it.
        self.password_edit.setAccessibleDescription(self.tr("Your password is never stored."))
        self.keep_signed_in_check = QCheckBox(self.tr("&Keep me signed in"), self)
        self.keep_signed_in_check.setChecked(keep_signed_in)
        self.keep_signed_in_check.setToolTip(
            self.tr(
                "Remember the sign-in on this computer until it expires. "
                "Your password is never stored."
            )
        )
        for edit in (self.server_edit, self.email_edit, self.password_edit):
            edit.setMinimumWidth(300)
            edit.textChanged.connect(self._update_buttons)

        # `_show_message` sets the message area's format and alignments when it shows
        # text: they need `Qt`, which the first paint of the dialog does without.
        self.message_icon = QLabel(self)
        self.message_label = QLabel(self)
        self.message_label.setObjectName("loginMessage")
        self.message_label.setWordWrap(True)
        self.message_frame = QFrame(self)
        self._message_layout = QHBoxLayout(self.message_frame)
        self._message_layout.setContentsMargins(0, 0, 0, 0)
        self._message_layout.setSpacing(8)
        self._message_layout.addWidget(self.message_icon)
        self._message_layout.addWidget(self.message_label, 1)

        self.busy_indicator = QProgressBar(self)
        self.busy_indicator.setRange(0, 0)  # indeterminate
        self.busy_indicator.setTextVisible(False)
        self.busy_indicator.setFixedWidth(96)
        self.busy_indicator.setMaximumHeight(12)
        self.busy_label = QLabel(self.tr("Signing in…"), self)
        self.busy_indicator.hide()
        self.busy_label.hide()
        # Their room is kept while they are hidden: the dialog does not widen as a
        # sign-in starts (in German it did).
        self._busy_box = QWidget(self)
        busy_layout = QHBoxLayout(self._busy_box)
        busy_layout.setContentsMargins(0, 0, 0, 0)
        busy_layout.setSpacing(8)
        busy_layout.addWidget(self.busy_indicator)  # a layout centres what it does not stretch
        busy_layout.addWidget(self.busy_label)
        busy_layout.addStretch(1)
        self._busy_box.setMinimumWidth(
            self.busy_indicator.width() + busy_layout.spacing() + self.busy_label.sizeHint().width()
        )

        # By keyword: given by position, PySide would also try it as a `Qt.Orientation`,
        # setting up the whole `Qt` namespace to find out.
        self.button_box = QDialogButtonBox(parent=self)
        self.sign_in_button = QPushButton(self.tr("Sign In"), self)
        self.sign_in_button.setDefault(True)
        self.sign_in_button.setAutoDefault(True)
        self.button_box.addButton(self.sign_in_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.button_box.addButton(QDialogButtonBox.StandardButton.Cancel)
        # While signing in, focus falls to Cancel; Enter must not press it by accident.
        self.cancel_button.setAutoDefault(False)
        self.sign_in_button.clicked.connect(self.submit)
        self.cancel_button.clicked.connect(self._cancel_clicked)

        self._build_layout()
        self._update_buttons()
        self._focus_first_empty()

    def _build_layout(self) -> None:
        icon = QLabel(self)
        icon.setPixmap(self._header_pixmap())
        icon.setFixedSize(QSize(HEADER_ICON_SIZE, HEADER_ICON_SIZE))
        icon.setAccessibleName(self.tr("%1 logo").replace("%1", APP_NAME))
        title = QLabel(self.tr("Sign in to %1").replace("%1", APP_NAME), self)
        title_font = QFont(title.font())
        title_font.setPointSizeF(title_font.pointSizeF() * 1.35)
        title_font.setWeight(QFont.Weight.DemiBold)
        title.setFont(title_font)
        subtitle = QLabel(self.tr("Use the account of your card platform."), self)
        subtitle.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # follows the palette
        heading = QVBoxLayout()
        heading.setSpacing(2)
        heading.addStretch(1)
        heading.addWidget(title)
        heading.addWidget(subtitle)
        heading.addStretch(1)
        header = QHBoxLayout()
        header.setSpacing(14)
        header.addWidget(icon)
        header.addLayout(heading, 1)

        # Labels align as the platform's style says (right on macOS, left elsewhere).
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.setHorizontalSpacing(10)
        form.setVerticalSpacing(8)
        form.addRow(self.tr("&Server:"), self.server_edit)
        form.addRow(self.tr("&E-mail:"), self.email_edit)
        form.addRow(self.tr("&Password:"), self.password_edit)
        form.addRow("", self.keep_signed_in_check)
        self.message_frame.hide()

        buttons = QHBoxLayout()
        buttons.setSpacing(8)
        buttons.addWidget(self._busy_box)
        buttons.addStretch(1)
        buttons.addWidget(self.button_box)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 18, 20, 16)
        layout.setSpacing(14)
        layout.addLayout(header)
        layout.addLayout(form)
        # Across the whole width, not in the form: a form does not make a row higher
        # for a wrapped text, so a message of two lines would show one.
        layout.addWidget(self.message_frame)
        layout.addStretch(1)
        layout.addLayout(buttons)
        self._layout = layout

    def _header_pixmap(self) -> QPixmap:
        """The app's icon (set on the application), large, beside the title."""
        size = QSize(HEADER_ICON_SIZE, HEADER_ICON_SIZE)
        return self.windowIcon().pixmap(size, self.devicePixelRatio())

    # State

    @property
    def message(self) -> str:
        """The text in the message area, or "" when it is hidden."""
        return self.message_label.text() if not self.message_frame.isHidden() else ""

    def set_message(self, text: str) -> None:
        """Show a note above the buttons, e.g. why the user has to sign in again."""
        self._show_message(text, warning=False)

    def _show_error(self, text: str, detail: str = "") -> None:
        self._show_message(text, warning=True, detail=detail)

    def _show_message(self, text: str, *, warning: bool, detail: str = "") -> None:
        # Imported here: setting up the Python types of QStyle and of Qt's `Qt` namespace
        # (all its enums at once) is work the first paint of the dialog does without.
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QStyle

        from cardviewer.ui.plain_text import plain_tooltip

        self.message_label.setTextFormat(Qt.TextFormat.PlainText)  # server text, never markup
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._message_layout.setAlignment(self.message_icon, Qt.AlignmentFlag.AlignTop)
        # Wrapped text may get a taller row than it fills: start it level with the icon.
        self.message_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        if warning:
            icon = QIcon.ThemeIcon.DialogWarning
            fallback = QStyle.StandardPixmap.SP_MessageBoxWarning
        else:
            icon = QIcon.ThemeIcon.DialogInformation
            fallback = QStyle.StandardPixmap.SP_MessageBoxInformation
        themed = QIcon.fromTheme(icon, self.style().standardIcon(fallback))
        pixmap = themed.pixmap(MESSAGE_ICON_SIZE, MESSAGE_ICON_SIZE)
        self.message_icon.setPixmap(pixmap)
        # A screen reader passing the picture hears what kind of message it marks.
        self.message_icon.setAccessibleName(self.tr("Warning") if warning else self.tr("Note"))
        self.message_label.setText(text)
        self.message_label.setToolTip(plain_tooltip(detail))  # it may quote the server
        self.message_label.setAccessibleDescription(detail)  # the same, without markup
        self.message_frame.setVisible(bool(text))
        self._fit_height()
        # Said aloud: the focus stays in the form, away from the message.
        from cardviewer.ui.announcements import announce

        announce(self.message_label, text, assertive=warning)

    def _fit_height(self) -> None:
        """At least as high as the message needs, wrapped at the dialog's narrowest.

        Qt keeps a window only as high as one line of a wrapped text needs: a message
        of two or three lines would be cut off. The height it needs at the narrowest
        width is enough at any other.
        """
        self._message_layout.activate()  # tells the dialog's layout the text has changed
        fit_height(self, self._layout)

    def _fields_filled(self) -> bool:
        return bool(
            self.server_edit.text().strip()
            and self.email_edit.text().strip()
            and self.password_edit.text()
        )

    def _update_buttons(self) -> None:
        self.sign_in_button.setEnabled(not self._busy and self._fields_filled())

    def _set_busy(self, busy: bool) -> None:
        self._busy = busy
        for edit in (self.server_edit, self.email_edit, self.password_edit):
            edit.setEnabled(not busy)
        self.keep_signed_in_check.setEnabled(not busy)
        self.busy_indicator.setVisible(busy)
        self.busy_label.setVisible(busy)
        self._update_buttons()

    def _focus_first_empty(self) -> None:
        for edit in (self.server_edit, self.email_edit, self.password_edit):
            if not edit.text().strip() and not edit.isReadOnly():
                edit.setFocus()
                return
        self.sign_in_button.setFocus()

    # Signing in

    def submit(self) -> None:
        """Sign in with what the form holds; does nothing while busy or incomplete."""
        if self._busy or not self._fields_filled():
            return
        # Imported on the first sign-in, as in `_sign_in`: painting the dialog needs
        # neither the address rules nor the API's errors (the client and its models,
        # pydantic and httpx, follow while the person types).
        from cardviewer.api.address import normalize_server_url
        from cardviewer.api.errors import InvalidInput
        from cardviewer.ui.error_text import error_text

        try:
            server_url = normalize_server_url(self.server_edit.text())
        except InvalidInput as exc:
            log.info("sign-in refused: %s", exc)
            self._show_error(error_text(exc), exc.detail)
            self.server_edit.setFocus()
            self.server_edit.selectAll()
            return
        email = self.email_edit.text().strip()
        password = self.password_edit.text()
        self.set_message("")
        self._set_busy(True)
        self._tasks.start(self._sign_in(server_url, email, password), name="sign-in")

    async def _sign_in(self, server_url: str, email: str, password: str) -> None:
        import asyncio  # loaded by the event loop by now; not needed to paint the dialog

        from cardviewer.api.errors import CardViewerError, InvalidCredentials, InvalidInput
        from cardviewer.ui.error_text import error_text

        try:
            session = await self._authenticate(server_url, email, password)
        except asyncio.CancelledError:
            log.info("sign-in to %s cancelled", server_url)
            raise
        except InvalidCredentials as exc:
            log.info("sign-in to %s refused: %s", server_url, exc.detail or exc)
            self._set_busy(False)
            # The platform's own words ("Access data do not match!") are English
            # whatever the interface speaks; they stay in the tooltip.
            self._show_error(
                self.tr("The e-mail address or password is not correct."),
                self._refusal_detail(exc),
            )
            self.password_edit.clear()
            self.password_edit.setFocus()
            return
        except InvalidInput as exc:
            log.info("sign-in to %s refused: %s", server_url, exc)
            self._set_busy(False)
            self._show_error(error_text(exc), exc.detail)
            self._focus_first_empty()
            return
        except CardViewerError as exc:
            log.warning("sign-in to %s failed: %s (%s)", server_url, exc, exc.detail)
            self._set_busy(False)
            self._show_error(error_text(exc), exc.detail)
            self.sign_in_button.setFocus()
            return
        except Exception as exc:
            log.exception("sign-in to %s failed unexpectedly", server_url)
            self._set_busy(False)
            self._show_error(
                self.tr("Something went wrong while signing in. Please try again."), repr(exc)
            )
            return
        log.info("signed in to %s", server_url)
        self._set_busy(False)
        self.result_value = LoginResult(
            server_url=server_url,
            email=email,
            session=session,
            keep_signed_in=self.keep_signed_in_check.isChecked(),
        )
        self.accept()

    def _refusal_detail(self, error: InvalidCredentials) -> str:
        """What the server said when it refused the sign-in, for the message's tooltip."""
        from cardviewer.api.errors import Sentence  # as in `_sign_in`, which calls this

        said = "" if isinstance(error.message, Sentence) else error.message.strip()
        lines = [self.tr("The server said: %1").replace("%1", said)] if said else []
        if error.detail:
            lines.append(error.detail)
        return "\n".join(lines)

    def _cancel_clicked(self) -> None:
        """Cancel stops a running sign-in first; pressed again, it closes the dialog."""
        if self._busy:
            self._stop_sign_in()
            self.set_message(self.tr("Sign-in cancelled."))
            self._focus_first_empty()
        else:
            self.reject()

    def _stop_sign_in(self) -> None:
        self._tasks.cancel("sign-in")
        self._set_busy(False)

    def reject(self) -> None:
        self._stop_sign_in()
        super().reject()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._stop_sign_in()
        super().closeEvent(event)

    async def aclose(self) -> None:
        """Cancel and await a sign-in still running (e.g. when the app quits)."""
        await self._tasks.aclose()
