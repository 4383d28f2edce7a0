"""Qt's Quit (the system's Quit menu, Cmd+Q, a session ending) ends the app as closing
its window does: cleanly, whatever is open."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

CHILD = """
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QPushButton

from cardviewer.app import main
from cardviewer.ui.main_window import MainWindow

WHERE = sys.argv[1]
application = QApplication(sys.argv[:1])


def step():
    shown = [
        widget
        for widget in QApplication.topLevelWidgets()
        if isinstance(widget, MainWindow) and widget.isVisible()
    ]
    modal = QApplication.activeModalWidget()
    if shown and shown[0].model.page is not None:
        print("quitting with the window open", flush=True)
        QApplication.quit()
        return
    if modal is not None and WHERE == "sign-in":
        print("quitting with the sign-in open", flush=True)
        QApplication.quit()
        return
    for button in modal.findChildren(QPushButton) if modal is not None else []:
        if button.isDefault() and button.isEnabled():
            button.click()
    QTimer.singleShot(100, step)


QTimer.singleShot(100, step)
code = main(["--demo"])
print("ended with", code, flush=True)
sys.exit(code)
"""


@pytest.mark.parametrize("where", ["sign-in", "window"])
def test_quit_ends_the_app_cleanly(where):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-c", CHILD, where],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    said = result.stdout.splitlines()
    assert said == [f"quitting with the {where} open", "ended with 0"], result.stderr
    assert result.returncode == 0
    assert "Traceback" not in result.stderr
    assert "asked to quit" in result.stderr
