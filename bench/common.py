"""What the benchmarks share: a headless Qt app with a qasync loop, the demo server, results."""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

# No display, a desktop-sized screen (Qt's offscreen one is 800 x 800), as the tests have.
SCREEN = Path(__file__).resolve().parents[1] / "tests" / "offscreen-screen.json"
os.environ.setdefault("QT_QPA_PLATFORM", f"offscreen:configfile={SCREEN}")
os.environ.setdefault("QT_API", "pyside6")

T = TypeVar("T")


@dataclass(frozen=True)
class Result:
    """One benchmark's figure next to its baseline and its target."""

    name: str
    measured: float
    baseline: float
    unit: str
    target: str
    passed: bool | None
    """None: not judged, because no client can meet the target in this setting."""

    @property
    def ratio(self) -> float:
        return self.measured / self.baseline if self.baseline else float("inf")

    def row(self) -> str:
        verdict = {True: "yes", False: "**no**", None: "—"}[self.passed]
        return (
            f"| {self.name} | {self.measured:.1f} {self.unit} | {self.baseline:.1f} {self.unit} "
            f"| {self.ratio:.2f}x | {self.target} | {verdict} |"
        )


TABLE_HEADER = (
    "| Benchmark | Measured | Baseline | Ratio | Target | Met |\n|---|---|---|---|---|---|"
)


def report(results: list[Result]) -> None:
    print(TABLE_HEADER)
    for result in results:
        print(result.row())
    sys.stdout.flush()


def median(values: list[float]) -> float:
    return statistics.median(values)


def run_in_qt(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run `main()` on the app's event loop over a (headless) QApplication, as the app does."""
    from PySide6.QtWidgets import QApplication

    from cardviewer.event_loop import QtEventLoop

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    from cardviewer.garbage_collection import MainThreadGarbageCollector

    collector = MainThreadGarbageCollector()  # as in the app: Qt garbage dies on this thread
    collector.start()
    try:
        with asyncio.Runner(loop_factory=lambda: QtEventLoop(app)) as runner:
            return runner.run(main())
    finally:
        collector.stop()


def rss_bytes() -> int:
    """Resident memory of this process (Linux /proc; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text("ascii").split()[1])
    except OSError:
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


class DemoProcess:
    """The demo server in a process of its own, so its work does not share our GIL.

    In-process servers are right for tests; a benchmark of throughput must not count
    the server's JSON encoding against the client.
    """

    def __init__(self, *, cards: int, latency_ms: float) -> None:
        self._args = ["--port", "0", "--cards", str(cards), "--latency", str(latency_ms)]
        self._process: subprocess.Popen[str] | None = None
        self.base_url = self.space_id = self.email = self.password = ""

    def __enter__(self) -> DemoProcess:
        self._process = subprocess.Popen(
            [sys.executable, "-m", "cardviewer.demo", *self._args],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._process.stdout is not None
        fields: dict[str, str] = {}
        for line in self._process.stdout:
            key, _, value = line.strip().partition(":")
            fields[key] = value.strip()
            if line.startswith("Press Ctrl+C"):
                break
        self.base_url = fields["Server address"]
        self.space_id = fields["Space id"].split()[0]
        self.email = fields["E-mail"]
        self.password = fields["Password"]
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.wait(10)
