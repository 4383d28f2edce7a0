"""Started by bench_startup: shows a window, prints the wall-clock time of its first paint.

`bare` shows an empty QWidget; `app` runs CardViewer's `main()` until its sign-in window
paints. Both start the same way: this script, a QApplication, an event filter.
"""

from __future__ import annotations

import os
import sys
import time

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget


class FirstPaint(QObject):
    """Prints the time when a top-level window paints for the first time, then exits."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.Paint
            and isinstance(watched, QWidget)
            and watched.isWindow()
        ):
            print(f"{time.time():.6f} {type(watched).__name__}", flush=True)
            os._exit(0)
        return False


def main() -> None:
    kind = sys.argv[1]
    app = QApplication(sys.argv[:1])
    watcher = FirstPaint()
    app.installEventFilter(watcher)
    if kind == "bare":
        window = QWidget()
        window.resize(400, 240)
        window.show()
        app.exec()
    else:
        from cardviewer.app import main as app_main

        app_main([])


if __name__ == "__main__":
    main()
