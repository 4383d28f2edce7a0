"""Exporting a space of 100,000 cards with `cardviewer export --all`: memory and time.

Each export runs in a process of its own (`export_child.py`), which reports its own
peak resident memory. The baseline is the script anyone would write first: page after
page with one `httpx.Client`, each card's fields written with the `csv` module, run
against the same server (in its own process, no added latency) in the same run.

Targets: at most 200 MB resident for CSV and for Excel (a whole space is never in
memory), and no more than 1.25 times the plain script's time for CSV.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import DemoProcess, Result, report

CARDS = 100_000
MEMORY_LIMIT_MB = 200.0
TIME_RATIO = 1.25
CONCURRENCY = 8
CHILD = Path(__file__).with_name("export_child.py")


def run_child(*arguments: str, env: dict[str, str]) -> tuple[float, float]:
    """Seconds and peak MiB of one export in a child process."""
    done = subprocess.run(
        [sys.executable, str(CHILD), *arguments],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the export failed ({done.returncode}): {done.stderr[-2000:]}")
    seconds, peak = done.stdout.split()[-2:]
    return float(seconds), float(peak)


def measure(cards: int = CARDS) -> list[Result]:
    with DemoProcess(cards=cards, latency_ms=0) as server, tempfile.TemporaryDirectory() as home:
        env = {
            **os.environ,
            "CARDVIEWER_PASSWORD": server.password,
            **dict.fromkeys(("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"), home),
            "XDG_CACHE_HOME": home,
        }
        plain_time, plain_peak = run_child(
            "plain",
            server.base_url,
            server.space_id,
            server.email,
            server.password,
            f"{home}/plain.csv",
            env=env,
        )
        app: dict[str, tuple[float, float]] = {}
        for suffix in ("csv", "xlsx"):
            app[suffix] = run_child(
                "app",
                "--server",
                server.base_url,
                "--email",
                server.email,
                "--space",
                server.space_id,
                "--all",
                "--concurrency",
                str(CONCURRENCY),
                "-o",
                f"{home}/all.{suffix}",
                env=env,
            )
    name = f"export {cards:,} cards"
    csv_time, csv_peak = app["csv"]
    xlsx_time, xlsx_peak = app["xlsx"]
    memory_target = f"≤ {MEMORY_LIMIT_MB:.0f} MB"
    return [
        Result(
            f"{name} to CSV: peak memory, vs the plain script's",
            csv_peak,
            plain_peak,
            "MB",
            memory_target,
            csv_peak <= MEMORY_LIMIT_MB,
        ),
        Result(
            f"{name} to Excel: peak memory, vs the plain CSV script's",
            xlsx_peak,
            plain_peak,
            "MB",
            memory_target,
            xlsx_peak <= MEMORY_LIMIT_MB,
        ),
        Result(
            f"{name} to CSV, {CONCURRENCY} at once, vs a plain sequential httpx + csv script",
            csv_time,
            plain_time,
            "s",
            f"≤ {TIME_RATIO}x",
            csv_time <= TIME_RATIO * plain_time,
        ),
        Result(
            f"{name} to Excel, {CONCURRENCY} at once, vs the plain CSV script",
            xlsx_time,
            plain_time,
            "s",
            "shown, not judged: a workbook is more to write than CSV",
            None,
        ),
    ]


if __name__ == "__main__":
    # `python -m bench.bench_export_space [cards]`: the same at another size.
    report(measure(int(sys.argv[1]) if sys.argv[1:] else CARDS))
