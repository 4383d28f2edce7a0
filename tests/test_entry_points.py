"""`python main.py`, `python -m cardviewer` and the `cardviewer` script are one program."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from cardviewer import __version__
from cardviewer.entry_point import main
from cardviewer.noted_interrupt import interrupts_noted, pressed_before

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).with_name("cardviewer")


@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, str(ROOT / "main.py")],
        [sys.executable, "-m", "cardviewer"],
        [str(SCRIPT)],
    ],
    ids=["main.py", "python -m cardviewer", "cardviewer"],
)
def test_every_way_in_prints_the_same_version(command: list[str]) -> None:
    result = subprocess.run(
        [*command, "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"CardViewer {__version__}"


def test_the_gui_script_is_the_one_entry_point() -> None:
    (script,) = entry_points(group="gui_scripts", name="cardviewer")
    assert script.value == "cardviewer.entry_point:main"


def signed_in_to(demo_server) -> list[str]:
    """The options that name the demo server, its account and its space."""
    return [
        "--server",
        demo_server.base_url,
        "--email",
        demo_server.email,
        "--space",
        demo_server.space_id,
    ]


def export(demo_server, target: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`cardviewer export` of the demo space's first page to `target`, as a job runs it."""
    return subprocess.run(
        [str(SCRIPT), "export", *signed_in_to(demo_server), "-o", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**env, "CARDVIEWER_PASSWORD": demo_server.password},
    )


def test_export_runs_without_a_window(demo_server, tmp_path) -> None:
    """`cardviewer export …` reaches the headless export through every way in."""
    target = tmp_path / "page.csv"
    result = export(demo_server, target, {**os.environ, "QT_QPA_PLATFORM": ""})
    assert result.returncode == 0, result.stderr
    assert len(target.read_text(encoding="utf-8-sig").splitlines()) > 1


def test_the_apps_help_points_to_the_export(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "cardviewer export --help" in capsys.readouterr().out


def test_a_phone_list_is_drawn_without_a_display(demo_server, tmp_path) -> None:
    """`--format pdf` starts Qt's text layout off screen where there is no display."""
    target = tmp_path / "phones.pdf"
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    result = export(demo_server, target, env)
    assert result.returncode == 0, result.stderr
    assert target.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize("ctrl_c", ["heard", "ignored"])
def test_sigterm_ends_a_sync_as_ctrl_c_does(demo_server, tmp_path, ctrl_c: str) -> None:
    """What `timeout`, systemd and cron send a job that runs too long: the command says
    what it left, and leaves what was there before, not a process killed mid-write. A shell
    starting a job in the background has it ignore Ctrl+C's signal: SIGTERM still ends it."""
    demo_server.config.latency = 0.5

    def ignoring_ctrl_c() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    child = subprocess.Popen(
        [str(SCRIPT), "sync", *signed_in_to(demo_server)],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HOME": str(tmp_path), "CARDVIEWER_PASSWORD": demo_server.password},
        preexec_fn=ignoring_ctrl_c if ctrl_c == "ignored" else None,
    )
    try:
        deadline = time.monotonic() + 30
        while len(demo_server.requests) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # signed in, the first page on its way
        child.send_signal(signal.SIGTERM)
        _out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 130, err
    assert err.endswith("Interrupted; no local copy was made.\n"), err  # the space's first
    assert "Traceback" not in err


@pytest.mark.parametrize("command", ["export", "sync"])
def test_ctrl_c_while_a_command_loads_says_nothing_was_written(command, monkeypatch, capsys):
    """Pressed in its first second, before the command took Ctrl+C itself, it printed
    a traceback."""
    from cardviewer import cli, cli_sync

    def interrupted(_arguments: list[str]) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli if command == "export" else cli_sync, "main", interrupted)
    try:
        code = main([command, "--space", "s"])
    except KeyboardInterrupt:
        pytest.fail("the interrupt went on, to print a traceback")
    assert code == cli.ExitCode.INTERRUPTED
    assert capsys.readouterr().err == "Interrupted; nothing was written.\n"


WINDOW_INTERRUPTED_AS_QT_LOADS = """
import importlib.abc, os, signal, sys

class CtrlC(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlC())
signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal
from cardviewer.entry_point import main
raise SystemExit(main([]))
"""


@pytest.mark.parametrize("module", ["shiboken6", "PySide6.QtWidgets", "cardviewer.controller"])
def test_ctrl_c_while_the_window_loads_ends_it_as_closing_it_does(module, tmp_path):
    """The entry point was `cardviewer.app`, whose first lines load Qt: a Ctrl+C while
    shiboken started aborted the process ("Fatal Python error"), one a little later
    printed a traceback, and one while the sign-in dialog painted was lost."""
    result = subprocess.run(
        [sys.executable, "-c", WINDOW_INTERRUPTED_AS_QT_LOADS.format(module=module)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HOME": str(tmp_path), "QT_QPA_PLATFORM": "offscreen"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "Fatal" not in result.stderr


@pytest.mark.usefixtures("ctrl_c_heard")
def test_ctrl_c_is_only_noted_until_the_block_ends():
    with interrupts_noted() as noted:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)  # Python runs the handler between bytecodes
        assert noted.pressed
        assert pressed_before(signal.getsignal(signal.SIGINT))
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert not pressed_before(signal.default_int_handler)


def test_ctrl_c_ignored_stays_ignored_while_the_window_loads():
    """A window started in the background (`&`, `nohup`) is not ended by a Ctrl+C
    meant for the shell's foreground job."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with interrupts_noted() as noted:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.01)
        assert not noted.pressed
    finally:
        signal.signal(signal.SIGINT, previous)
