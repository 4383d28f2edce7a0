"""Started by bench_export_space: one export in a process of its own, its figures on stdout.

`app` runs `cardviewer export` with the arguments that follow; `plain` runs the script
anyone would write first: one `httpx.Client` asking for page after page, each card's
fields written with the `csv` module. Both print `<seconds> <peak resident MiB>`: the
wall-clock time of the export alone (not the interpreter's start), and the most memory
the process held (`ru_maxrss`), which only a process of its own can report.
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


def main(argv: list[str]) -> int:
    kind, arguments = argv[0], argv[1:]
    started = time.perf_counter()
    if kind == "plain":
        plain(*arguments)
        status = 0
    else:
        from cardviewer.cli import main as export

        status = export(arguments)
    took = time.perf_counter() - started
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"{took:.3f} {peak_mib:.1f}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
