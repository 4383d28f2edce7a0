"""`python -m bench [name …]`: run the benchmarks (all by default), print one Markdown table.

Names: startup, first-page, paging, export-all, export-space, export-store, gui-stall,
memory, space-store, space-changes, space-jobs, space-sync. The exit
status is 1 when a target is missed (a target no client can meet in a setting is shown,
not judged).
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Callable

from bench import (
    bench_export_all,
    bench_export_space,
    bench_export_store,
    bench_first_page,
    bench_gui_stall,
    bench_memory,
    bench_paging,
    bench_space_changes,
    bench_space_jobs,
    bench_space_store,
    bench_space_sync,
    bench_startup,
)
from bench.common import Result, report

BENCHMARKS: dict[str, Callable[[], Result | list[Result]]] = {
    "startup": bench_startup.measure,
    "first-page": bench_first_page.measure,
    "paging": bench_paging.measure,
    "export-all": bench_export_all.measure,
    "export-space": bench_export_space.measure,
    "export-store": bench_export_store.measure,
    "gui-stall": bench_gui_stall.measure,
    "memory": bench_memory.measure,
    "space-store": bench_space_store.measure,
    "space-changes": bench_space_changes.measure,
    "space-jobs": bench_space_jobs.measure,
    "space-sync": bench_space_sync.measure,
}


def main(names: list[str]) -> int:
    names = [name.replace("_", "-") for name in names]  # `first_page` reads as `first-page`
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}")
        return 2
    results: list[Result] = []
    for name in names or list(BENCHMARKS):
        print(f"running {name} …", file=sys.stderr, flush=True)
        outcome = BENCHMARKS[name]()
        results.extend(outcome if isinstance(outcome, list) else [outcome])
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}\n")
    report(results)
    return 0 if all(r.passed is not False for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
