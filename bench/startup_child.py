"""Started by bench_startup: shows a window, prints the wall-clock time of its first paint.

`bare` shows an empty QWidget; `app` runs CardViewer's `main()` until its sign-in window
paints. Both start the same way: this script, a QApplication, an event filter. The app's
module is imported first, as every way in does through `cardviewer.entry_point` (which
loads no Qt): it orders its own imports around PySide6's.

The filter watches the whole app only until a window is about to show, then that window
alone. Watching every object for longer costs what the app does not: PySide makes a
Python object for each receiver it has not seen, and Qt's style object, told when the
sign-in dialog's first field takes focus, is the costliest of them (its type's enums
are set up on first use, 13 ms measured on the same machine as the other figures).
"""

from __future__ import annotations

import os
import sys
import time

if sys.argv[1:2] == ["app"]:
    from cardviewer.app import main as app_main

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget


class FirstPaint(QObject):
    """Prints the time when the first top-level window paints for the first time, then exits.

    Installed on the application; once a window shows, it moves to that window.
    """

    def __init__(self, app: QApplication) -> None:
        super().__init__()
        self._app = app
        self._window: QWidget | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if self._window is None:
            if kind == QEvent.Type.Show and isinstance(watched, QWidget) and watched.isWindow():
                self._window = watched
                self._app.removeEventFilter(self)
                watched.installEventFilter(self)
        elif kind == QEvent.Type.Paint and watched is self._window:
            print(f"{time.time():.6f} {type(watched).__name__}", flush=True)
            os._exit(0)
        return False


def main() -> None:
    kind = sys.argv[1]
    app = QApplication(sys.argv[:1])
    watcher = FirstPaint(app)
    app.installEventFilter(watcher)
    if kind == "bare":
        window = QWidget()
        window.resize(400, 240)
        window.show()
        app.exec()
    else:
        app_main([])


if __name__ == "__main__":
    main()
