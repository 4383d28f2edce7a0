"""The last resort for errors nothing else caught: logged, and shown in one dialog.

It is `sys.excepthook` (errors in Qt slots) from before the sign-in dialog paints, and
later the event loop's exception handler (errors in tasks); so it imports only what that
paint needs, and the message box when there is an error to show.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    import asyncio

    from PySide6.QtWidgets import QMessageBox

log = logging.getLogger(__name__)


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
        # Imported here, as everywhere on the way to the first paint: `Qt`'s Python type
        # sets up every enum of the namespace at once, QMessageBox's its own.
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QMessageBox

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
