"""Memory growth over 500 page switches with avatars, after a warm-up of 20 switches.

The demo space has 24 pages, so switches cycle through it and every avatar is fetched,
decoded and cached; the avatar cache is bounded, so memory must level off. The
baseline is the resident size after the warm-up.
"""

from __future__ import annotations

import gc
import tempfile
from pathlib import Path

from bench.common import Result, report, rss_bytes, run_in_qt

SWITCHES = 500
WARM_UP = 20
TARGET_MB = 60.0
MB = 1024 * 1024


def measure() -> Result:
    from bench.viewer import Viewer
    from cardviewer.demo import DemoConfig, DemoServer

    async def main() -> tuple[float, float]:
        with DemoServer(DemoConfig()) as server, tempfile.TemporaryDirectory() as folder:
            viewer = Viewer(server, Path(folder))
            await viewer.start()
            last_page = 24
            baseline = 0.0
            for switch in range(WARM_UP + SWITCHES):
                await viewer.show_page(1 + switch % last_page)
                await viewer.avatars_settled()
                if switch + 1 == WARM_UP:
                    gc.collect()
                    baseline = rss_bytes() / MB
            gc.collect()
            final = rss_bytes() / MB
            await viewer.aclose()
        return final, baseline

    final, baseline = run_in_qt(main)
    growth = final - baseline
    return Result(
        f"resident memory after {SWITCHES} page switches with avatars",
        final,
        baseline,
        "MB",
        f"growth < {TARGET_MB:.0f} MB (was {growth:.1f} MB)",
        growth < TARGET_MB,
    )


if __name__ == "__main__":
    report([measure()])
