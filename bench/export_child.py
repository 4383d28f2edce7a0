"""Started by the export benchmarks: one export in a process of its own, its figures on stdout.

`app` runs `cardviewer export` with the arguments that follow; `plain` runs the script
anyone would write first: one `httpx.Client` asking for page after page, each card's
fields written with the `csv` module. `store` writes every card of a local copy as the
window's Export Cards Shown does; `plain-store` reads the same copy with `sqlite3` and
writes each card's fields with the `csv` module. Each prints `<seconds> <peak resident MiB>`: the
wall-clock time of the export alone (not the interpreter's start), and the most memory
the process held (`peak_mib`), which only a process of its own can report.
"""

from __future__ import annotations

import csv
import resource
import sys
import time
from pathlib import Path

PLAIN_FIELDS = (
    "display_name",
    "username",
    "position",
    "public",
    "connected_cards",
    "connects",
    "subscriptions",
    "created_at",
    "updated_at",
)


def plain(base_url: str, space: str, email: str, password: str, output: str) -> int:
    import httpx

    rows = 0
    with httpx.Client(base_url=base_url, headers={"Accept": "application/json"}) as client:
        login = client.post("/v1/auth/login", json={"email": email, "password": password})
        client.headers["Authorization"] = f"Bearer {login.json()['access_token']}"
        with Path(output).open("w", newline="", encoding="utf-8-sig") as file:
            writer = csv.writer(file)
            page, last = 1, 1
            while page <= last:
                body = client.get(f"/v1/spaces/{space}/cards", params={"page": page}).json()
                for card in body["data"]:
                    avatar = card.get("avatar") or {}
                    writer.writerow([avatar.get("src"), *(card.get(f) for f in PLAIN_FIELDS)])
                    rows += 1
                last = body["meta"]["last_page"]
                page += 1
    return rows


def plain_store(store: str, output: str) -> int:
    import json
    import sqlite3

    rows = 0
    with (
        sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db,
        Path(output).open("w", newline="", encoding="utf-8-sig") as file,
    ):
        writer = csv.writer(file)
        (current,) = db.execute("SELECT value FROM state WHERE key = 'current'").fetchone()
        query = "SELECT json FROM cards WHERE generation = ? ORDER BY position"
        for (text,) in db.execute(query, (current,)):
            card = json.loads(text)
            avatar = card.get("avatar") or {}
            writer.writerow([avatar.get("src"), *(card.get(f) for f in PLAIN_FIELDS)])
            rows += 1
    return rows


def from_store(store: str, output: str) -> int:
    from cardviewer.services.card_export import write_stored_cards_now
    from cardviewer.services.card_store import CardStore

    with CardStore.open(Path(store)) as copy:
        count = copy.current.card_count if copy.current is not None else 0
    return write_stored_cards_now(Path(output), Path(store), range(count))


def peak_mib() -> float:
    """The most memory this process held, in MiB.

    Linux's `VmHWM` counts this program alone. `ru_maxrss` is the fallback elsewhere; on
    Linux it starts at the resident size of the process that started this one (kept
    across `exec`), which a benchmark holding a space in memory would pass on.
    """
    try:
        status = Path("/proc/self/status").read_text("ascii")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024  # "VmHWM:   12345 kB"


def main(argv: list[str]) -> int:
    kind, arguments = argv[0], argv[1:]
    started = time.perf_counter()
    status = 0
    if kind == "plain":
        plain(*arguments)
    elif kind == "plain-store":
        plain_store(*arguments)
    elif kind == "store":
        from_store(*arguments)
    else:
        from cardviewer.cli import main as export

        status = export(arguments)
    took = time.perf_counter() - started
    print(f"{took:.3f} {peak_mib():.1f}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
