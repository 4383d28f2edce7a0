"""The window's Preferences, avatar cache, log folder and About box.

None of them touches the page shown: they report through signals, and the window says
what follows (a status message, a sign-out, avatars painted again).
"""

from __future__ import annotations

import asyncio
import logging
import platform
from collections.abc import Callable
from typing import Any, Protocol

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QCoreApplication, QObject, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QWidget

from cardviewer import APP_NAME, __version__
from cardviewer.log_setup import log_file_path
from cardviewer.paths import log_dir
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.settings import Settings
from cardviewer.tasks import TaskSet
from cardviewer.ui.preferences_dialog import PreferencesDialog

log = logging.getLogger(__name__)

ICON_SIZE = 64


class SyncedCopies(Protocol):
    """The synced spaces kept on this computer, which a sync or their removal changes."""

    changed: Any  # Signal(): they may have changed

    def has_copies(self) -> bool: ...


class HelpAndSettings(QObject):
    """Opens Preferences (once), clears the avatar caches, shows the log folder and About."""

    signOutRequested = Signal()
    statusMessage = Signal(str, int)
    """A note for the status bar, and for how many milliseconds."""
    avatarsCleared = Signal()
    """Every avatar is forgotten; those on screen are to be fetched again."""
    detailsAvatarsCleared = Signal()
    """The details pane's avatar is forgotten too."""
    removeLocalCopiesRequested = Signal()
    """Preferences asks for the synced spaces to be taken off this computer."""

    def __init__(
        self,
        window: QWidget,
        settings: Settings,
        *,
        signed_in: Callable[[], bool],
        copies: SyncedCopies | None = None,
        server_locked: bool = False,
        avatars: AvatarLoader | None = None,
        details_avatars: AvatarLoader | None = None,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._settings = settings
        self._signed_in = signed_in
        self._copies = copies
        if copies is not None:  # Preferences may be open as a sync ends
            copies.changed.connect(self._copies_changed)
        self._server_locked = server_locked
        self.avatars = avatars
        """The table's avatars, which the cache clearing forgets."""
        self._details_avatars = details_avatars
        self._tasks = TaskSet()
        self.preferences_dialog: PreferencesDialog | None = None

    def open_preferences(self) -> None:
        """Show Preferences without waiting for it; its changes apply to the next export."""
        if self.preferences_dialog is not None:
            self.preferences_dialog.raise_()
            self.preferences_dialog.activateWindow()
            return
        dialog = PreferencesDialog(
            self._settings,
            server_locked=self._server_locked,
            signed_in=self._signed_in(),
            has_copies=self._has_copies(),
            parent=self._window,
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.clearAvatarCacheRequested.connect(self.clear_avatar_cache)
        dialog.removeLocalCopiesRequested.connect(self.removeLocalCopiesRequested)
        dialog.signOutRequested.connect(self.signOutRequested)  # closed once agreed
        dialog.settingsChanged.connect(
            lambda: self.statusMessage.emit(
                QCoreApplication.translate("MainWindow", "Preferences saved."), 5000
            )
        )
        dialog.finished.connect(self._forget_preferences)
        self.preferences_dialog = dialog
        dialog.open()

    def _has_copies(self) -> bool:
        return self._copies is not None and self._copies.has_copies()

    def _copies_changed(self) -> None:
        if self.preferences_dialog is not None:
            self.preferences_dialog.set_has_copies(self._has_copies())

    def close_preferences(self) -> None:
        """Close Preferences, if open, as if cancelled (the window signs out)."""
        if self.preferences_dialog is not None:
            self.preferences_dialog.reject()

    def _forget_preferences(self) -> None:
        self.preferences_dialog = None

    def clear_avatar_cache(self) -> None:
        """Forget every avatar, on disk too; those on screen are fetched again."""
        if self.avatars is None:
            return
        self.avatars.clear()
        if self._details_avatars is not None:
            self._details_avatars.clear()
            self.detailsAvatarsCleared.emit()
        if self.avatars.disk_cache is not None:
            # Off the GUI thread: a cache of many pictures takes a while to delete.
            self._tasks.start(asyncio.to_thread(self.avatars.disk_cache.clear))
        self.avatarsCleared.emit()
        log.info("the avatar cache was cleared")
        self.statusMessage.emit(
            QCoreApplication.translate("MainWindow", "The avatar cache is cleared."), 5000
        )

    def open_log_folder(self) -> None:
        """Show the folder with cardviewer.log in the file manager."""
        current = log_file_path()
        folder = current.parent if current is not None else log_dir()
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))):
            log.warning("could not open the log folder %s", folder)
            text = QCoreApplication.translate("MainWindow", "Could not open the log folder %1")
            self.statusMessage.emit(text.replace("%1", str(folder)), 8000)

    def show_about(self) -> None:
        """The app's version and what it runs on, in a box that closes itself."""
        box = QMessageBox(self._window)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setWindowTitle(
            QCoreApplication.translate("MainWindow", "About %1").replace("%1", APP_NAME)
        )
        box.setIconPixmap(self._window.windowIcon().pixmap(ICON_SIZE, ICON_SIZE))
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(f"<h3>{APP_NAME} {__version__}</h3>")
        box.setInformativeText(
            QCoreApplication.translate(
                "MainWindow",
                "Browse and export the digital business cards of your company's space.",
            )
            + "<br><br>"
            + QCoreApplication.translate("MainWindow", "Python %1, Qt %2")
            .replace("%1", platform.python_version())
            .replace("%2", pyside_version)
        )
        box.open()

    async def aclose(self) -> None:
        """Wait for a cache being deleted."""
        await self._tasks.aclose()
