"""Start → sign-in window painted, against a bare PySide6 window started the same way.

Each run is a new process with empty user folders (no saved session), so the app shows
its sign-in dialog. Runs alternate between the two kinds; medians are compared.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import Result, median, report

CHILD = Path(__file__).with_name("startup_child.py")
ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.3


def time_to_paint(kind: str, home: str) -> float:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "HOME": home,
        "XDG_CONFIG_HOME": f"{home}/.config",
        "XDG_CACHE_HOME": f"{home}/.cache",
        "XDG_STATE_HOME": f"{home}/.local/state",
        "PYTHONPATH": str(ROOT),
        # Bytecode as an installed app has it, whatever the checkout's caches hold: the
        # first runs compile every module into this run's own cache, the others read it.
        "PYTHONPYCACHEPREFIX": f"{home}/pycache",
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    started = time.time()
    out = subprocess.run(
        [sys.executable, str(CHILD), kind],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    ).stdout
    painted = float(out.split()[0])
    return (painted - started) * 1000


def measure(runs: int = 15) -> Result:
    bare: list[float] = []
    app: list[float] = []
    with tempfile.TemporaryDirectory() as home:
        time_to_paint("app", home)  # warm the file cache and compile bytecode once
        time_to_paint("bare", home)
        for _ in range(runs):
            bare.append(time_to_paint("bare", home))
            app.append(time_to_paint("app", home))
    measured, baseline = median(app), median(bare)
    return Result(
        "start → sign-in window painted",
        measured,
        baseline,
        "ms",
        f"≤ {TARGET}x bare window",
        measured <= TARGET * baseline,
    )


if __name__ == "__main__":
    report([measure()])
