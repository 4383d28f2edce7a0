"""`python main.py`, `python -m cardviewer` and the `cardviewer` script are one program."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from cardviewer import __version__

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).with_name("cardviewer")


@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, str(ROOT / "main.py")],
        [sys.executable, "-m", "cardviewer"],
        [str(SCRIPT)],
    ],
    ids=["main.py", "python -m cardviewer", "cardviewer"],
)
def test_every_way_in_prints_the_same_version(command: list[str]) -> None:
    result = subprocess.run(
        [*command, "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"CardViewer {__version__}"


def test_the_gui_script_is_the_apps_main() -> None:
    (script,) = entry_points(group="gui_scripts", name="cardviewer")
    assert script.value == "cardviewer.app:main"
