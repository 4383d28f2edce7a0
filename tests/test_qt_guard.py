"""Guard against Qt builds that corrupt CPython's reference count of None.

PySide6 6.12.0 drops a reference to `None` on every binding call that returns
nothing; after a few thousand calls CPython 3.11 aborts ("none_dealloc").
"""

import sys

from PySide6.QtCore import QCoreApplication


def test_binding_calls_keep_none_alive(qapp):
    QCoreApplication.processEvents()
    before = sys.getrefcount(None)
    for _ in range(1000):
        QCoreApplication.processEvents()
    assert sys.getrefcount(None) >= before - 50
