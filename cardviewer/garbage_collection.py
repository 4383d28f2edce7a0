"""Python's cyclic garbage collector, run where and when the window can afford it."""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer


def freeze_survivors() -> None:
    """Leave what is alive now out of every later collection.

    Called once the modules of the main window are loaded: they live as long as the app.
    A full collection looks at every object there is, and at a main window's size that
    kept the window from painting for about 30 ms each time; after this it looks only at
    what came later. Whatever is frozen is never collected, so call it before building
    anything that goes away again, such as a window.
    """
    gc.collect()
    gc.freeze()


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
