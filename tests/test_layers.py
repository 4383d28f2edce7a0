"""The API client and the demo server stand without Qt, so they work without a display."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "modules",
    [
        ["cardviewer.api", "cardviewer.api.client", "cardviewer.api.models"],
        ["cardviewer.demo", "cardviewer.demo.server"],
        ["cardviewer.services.session_store", "cardviewer.services.csv_export"],
    ],
)
def test_imports_no_qt(modules: list[str]) -> None:
    check = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "qt = sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'qasync')))\n"
        "print(qt)\n"
        "sys.exit(1 if qt else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
