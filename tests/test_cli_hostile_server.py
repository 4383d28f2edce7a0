"""`cardviewer export` against a hostile server on loopback: a gigabyte answer is refused.

The server signs in normally, then answers the page with a 1 GiB JSON body, made up
as it is sent. The export must fail as a server failure (exit 5) with a plain
message, and stay far below the gigabyte in memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cardviewer.cli import PASSWORD_VARIABLE, ExitCode

GIB = 1 << 30
MEMORY_CEILING = 300 * 1024 * 1024
"""Bytes of resident memory the export may reach at its peak, against a 1 GiB answer."""
CHILD_TIMEOUT = 120.0
"""Seconds after which a hung export is killed (a failure, not a measurement)."""
STATUS = Path("/proc/self/status")

CARD = json.dumps(
    {
        "uuid": "enuh1mF01XXXXXX",
        "avatar": {"uuid": None, "src": "https://cdn.example/default.png"},
        "username": "hostile",
        "display_name": "Hostile Server",
        "position": "Sender of large answers",
        "public": True,
        "connected_cards": 0,
        "connects": 0,
        "subscriptions": None,
        "created_at": "2024-04-19T22:53:03.000000Z",
        "updated_at": "2024-04-19T22:53:03.000000Z",
    }
).encode()
BLOCK = b",".join([CARD] * 256) + b","
"""Cards of the endless `data` list, written again and again (about 80 KB)."""


class HostileHandler(BaseHTTPRequestHandler):
    """Login as the platform answers it; every page is a gigabyte of cards."""

    protocol_version = "HTTP/1.1"
    server: HostileServer

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps(
            {
                "access_token": "eyJ0eXAiOiJKV1Q.hostile",
                "session_id": "session",
                "expires_at": "2099-01-01T00:00:00.000000Z",
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if self.server.declare_length:
            self.send_header("Content-Length", str(GIB))
        else:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for part in self.gigabyte():
                if self.server.declare_length:
                    self.wfile.write(part)
                else:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                self.server.sent += len(part)
            if not self.server.declare_length:
                self.wfile.write(b"0\r\n\r\n")
        except OSError:  # the client hung up, as it should
            self.close_connection = True

    @staticmethod
    def gigabyte() -> Iterator[bytes]:
        """`{"data": [card, card, …]}` of exactly 1 GiB, one block at a time."""
        head, tail = b'{"data": [', b"{}]}"
        left = GIB - len(head) - len(tail)
        yield head
        while left > len(BLOCK):
            yield BLOCK
            left -= len(BLOCK)
        yield b" " * left + tail


class HostileServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, *, declare_length: bool) -> None:
        super().__init__(("127.0.0.1", 0), HostileHandler)
        self.declare_length = declare_length
        self.sent = 0
        """Bytes of page bodies written to the socket."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_port}"


@pytest.fixture(params=[False, True], ids=["chunked", "content_length"])
def server(request: pytest.FixtureRequest) -> Iterator[HostileServer]:
    server = HostileServer(declare_length=request.param)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


CHILD = """
import atexit, runpy, sys

def report_peak():
    with open("/proc/self/status") as status:
        print(next(line for line in status if line.startswith("VmHWM:")).split()[1])

atexit.register(report_peak)
sys.argv = ["cardviewer", *sys.argv[1:]]
runpy.run_module("cardviewer", run_name="__main__", alter_sys=True)
"""
"""`python -m cardviewer …` that prints its peak resident memory (KiB) as it ends.

`VmHWM` counts only this program's memory. `ru_maxrss` of a child would not do: it
starts from the resident size of the process that forked it, here the test run.
"""


def run_export(args: list[str]) -> tuple[int, str, int]:
    """Run `python -m cardviewer export …`; its exit code, stderr and peak memory in bytes."""
    result = subprocess.run(
        [sys.executable, "-c", CHILD, "export", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env={**os.environ, PASSWORD_VARIABLE: "password"},
        timeout=CHILD_TIMEOUT,
        check=False,
    )
    return result.returncode, result.stderr, int(result.stdout.split()[-1]) * 1024


@pytest.mark.skipif(not STATUS.exists(), reason="measures memory with /proc/self/status")
@pytest.mark.parametrize("scope", [["--all"], ["--page", "1"]], ids=["all", "one_page"])
def test_a_gigabyte_answer_is_refused_within_bounded_memory(
    server: HostileServer, scope: list[str], tmp_path: Path
) -> None:
    target = tmp_path / "cards.csv"
    code, err, peak = run_export(
        [
            "--server",
            server.url,
            "--email",
            "a@b.example",
            "--space",
            "s",
            *scope,
            "-o",
            str(target),
        ]
    )
    assert code == ExitCode.SERVER, err
    assert err.splitlines() == [
        "The server sent an unexpectedly large answer.",
        f"Nothing was written to {target}.",
    ]
    assert peak < MEMORY_CEILING, f"peak resident memory {peak / 2**20:.0f} MiB"
    assert server.sent < GIB // 8  # the client hung up long before the end
    assert not target.exists()
