"""Qt's messages during the tests go to Qt's own handler, never to one in Python.

A handler in Python is called on the thread that logs, while Qt may hold a lock of its
own: Qt logged loading a font on a worker thread (a phone list being painted as a PDF)
while holding its font database's lock, the handler waited for Python's lock, and the
window's thread, holding Python's lock, waited for the font database. The test hung.
The app installs no handler; pytest-qt's is turned off (`--no-qt-log`, pyproject.toml).
"""

from PySide6.QtCore import qInstallMessageHandler


def test_no_python_handler_takes_qt_messages(qapp):
    installed = qInstallMessageHandler(None)
    qInstallMessageHandler(installed)
    assert installed is None
