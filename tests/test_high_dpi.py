"""At 200 % every window is sharp and shows its texts whole (issue: high-density screens).

The scale is set for a whole process (`QT_SCALE_FACTOR`), so the window tests that look
at what a person sees run again in a process of their own at twice the scale.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AT_TWICE_THE_SCALE = ("tests/ui/test_nothing_clipped.py", "tests/ui/test_sharp_at_any_scale.py")


def test_at_twice_the_scale_nothing_is_cut_and_nothing_is_blurred() -> None:
    environment = {**os.environ, "QT_SCALE_FACTOR": "2", "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *AT_TWICE_THE_SCALE],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.splitlines()[-1]
