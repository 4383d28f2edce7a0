"""`python -m cardviewer.demo`: help, argument checks, and a real run stopped with Ctrl+C."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from cardviewer.demo import DemoServer, spaces
from cardviewer.demo import __main__ as demo_main
from cardviewer.demo.__main__ import main
from cardviewer.demo.cards_in_the_making import CardsInTheMaking


def test_help():
    result = subprocess.run(
        [sys.executable, "-m", "cardviewer.demo", "--help"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 0
    for option in ("--port", "--avatar-port", "--cards", "--latency", "--host"):
        assert option in result.stdout


@pytest.mark.parametrize("args", [["--cards", "-1"], ["--latency", "-5"], ["--port", "x"]])
def test_bad_arguments_exit_with_2(args, capsys):
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    assert "error: argument" in capsys.readouterr().err


def test_a_busy_port_is_reported(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        assert main(["--port", str(busy.getsockname()[1]), "--cards", "1"]) == 1
    assert "Cannot listen" in capsys.readouterr().err


def free_port_pair() -> int:
    """A port whose next one is free as well, for a while."""
    for _ in range(100):
        with socket.socket() as first, socket.socket() as second:
            first.bind(("127.0.0.1", 0))
            port: int = first.getsockname()[1]
            try:
                second.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
            return port
    raise AssertionError("no two free ports in a row")


class CtrlCAtOnce:
    """The demo's clock, where the wait for Ctrl+C ends at once."""

    perf_counter = staticmethod(time.perf_counter)

    @staticmethod
    def sleep(_seconds: float) -> None:
        raise KeyboardInterrupt


def started_servers(monkeypatch) -> list[DemoServer]:
    """The demo servers `main` starts from now on, each stopped as by Ctrl+C at once."""
    servers: list[DemoServer] = []
    start = DemoServer.start

    def noted(self: DemoServer, **options: bool) -> DemoServer:
        servers.append(self)
        return start(self, **options)

    monkeypatch.setattr(DemoServer, "start", noted)
    monkeypatch.setattr(demo_main, "time", CtrlCAtOnce)
    return servers


def test_the_avatars_are_served_at_the_port_after_the_api_s(monkeypatch, capsys):
    """At a free port of its own, every start: a second sync of a space after a start
    said that every card's picture had changed."""
    port = free_port_pair()
    servers = started_servers(monkeypatch)
    assert main(["--port", str(port), "--cards", "1"]) == 0
    assert servers[0].avatar_port == port + 1
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", port + 1))
        assert main(["--port", str(port), "--cards", "1"]) == 0
        assert servers[1].port == port
        assert servers[1].avatar_port not in (0, port + 1), "a free one instead"
        assert main(["--port", str(port), "--avatar-port", str(port + 1), "--cards", "1"]) == 1
    assert "Cannot listen" in capsys.readouterr().err, "a port asked for is not replaced"


@pytest.fixture
def ctrl_c_not_ignored() -> Iterator[None]:
    """Let the servers started here hear Ctrl+C, however the tests themselves were run.

    A program inherits an ignored SIGINT, as a shell's background jobs have it, and
    Python then leaves it ignored; a handler of its own is reset to the default instead.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("ctrl_c_not_ignored")
def test_a_run_prints_how_to_connect_and_stops_on_ctrl_c():
    command = [sys.executable, "-m", "cardviewer.demo", "--port", "0", "--cards", "12"]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        try:
            assert process.stdout is not None
            lines: list[str] = []
            while not lines or not lines[-1].startswith("Press Ctrl+C"):
                line = process.stdout.readline()
                assert line, "the server exited early"
                lines.append(line)
            text = "".join(lines)
            base = re.search(r"Server address: (\S+)", text)
            assert base is not None
            assert re.search(r"Avatars: +http://127\.0\.0\.1:\d+", text)
            assert "acme1EU01demo01 (12 cards)" in text
            assert "demo@cardviewer.example" in text
            assert "Password:       demo" in text
            response = httpx.post(
                f"{base.group(1)}/v1/auth/login",
                json={"email": "demo@cardviewer.example", "password": "demo"},
            )
            assert response.status_code == 200
        finally:
            process.send_signal(signal.SIGINT)
            _, errors = process.communicate(timeout=10)
        assert process.returncode == 0
        assert not errors


CTRL_C_IN_ANOTHER_THREAD = """
import signal, sys, threading, time
from cardviewer.demo.__main__ import main

def press_ctrl_c():
    time.sleep(1.0)
    # The kernel may hand a process's SIGINT to any of its threads; this one gets it.
    signal.pthread_kill(threading.get_ident(), signal.SIGINT)

threading.Thread(target=press_ctrl_c, daemon=True).start()
sys.exit(main(["--port", "0", "--cards", "3"]))
"""


@pytest.mark.usefixtures("ctrl_c_not_ignored")
def test_ctrl_c_stops_the_server_whichever_thread_the_signal_reaches():
    result = subprocess.run(
        [sys.executable, "-c", CTRL_C_IN_ANOTHER_THREAD],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Press Ctrl+C to stop." in result.stdout


def test_a_large_space_is_served_while_its_cards_are_made_and_says_when_they_are(
    monkeypatch, capsys
):
    """Its address comes at once; "Press Ctrl+C" only once every card is made, which is
    what the benchmarks read up to."""
    monkeypatch.setattr(spaces, "MADE_AT_ONCE", 10)
    printed_before: list[str] = []
    original = CardsInTheMaking.wait

    def wait(self: CardsInTheMaking, timeout: float | None = None) -> bool:
        if timeout == 0:  # asked once the address is printed: not yet, say
            printed_before.append(capsys.readouterr().out)
            return False
        return original(self, timeout)

    def ctrl_c(_seconds: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(CardsInTheMaking, "wait", wait)
    monkeypatch.setattr(time, "sleep", ctrl_c)
    assert main(["--port", "0", "--cards", "300"]) == 0
    assert "Server address: http://127.0.0.1:" in printed_before[0]
    assert "Press Ctrl+C" not in printed_before[0]
    out = capsys.readouterr().out
    assert "Making 300 sample cards; their first pages are served already…" in out
    assert re.search(r"Made 300 cards in \d+\.\d s\.\nPress Ctrl\+C to stop\.", out)
