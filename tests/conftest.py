"""Shared fixtures: headless Qt, an asyncio loop on Qt, the demo server, private dirs."""

from __future__ import annotations

import os
from pathlib import Path

# Before any Qt import: no display here, and qasync must pick PySide6. The screen is a
# desktop's (Qt's offscreen one is 800 x 800): a window opens at its first size on it.
os.environ["QT_QPA_PLATFORM"] = "offscreen:configfile=" + str(
    Path(__file__).resolve().parent / "offscreen-screen.json"
)
os.environ["QT_API"] = "pyside6"
# Never the developer's real credential store: tests that need one bring their own.
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"

import asyncio
import functools
import gc
import logging
import signal
import sys
from collections.abc import Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import pytest
from hypothesis import settings

from tests.properties import THOROUGH_EXAMPLES

if TYPE_CHECKING:
    from cardviewer.controller import AppController
    from cardviewer.demo import DemoServer
    from cardviewer.ui.login.login_dialog import LoginDialog

T = TypeVar("T")

# Property tests: `quick` (the default) tries a few inputs each, for runs while working;
# `make test` chooses `thorough` with --hypothesis-profile. No deadline: on a busy
# machine one slow example says nothing about the code, and pytest-timeout catches hangs.
# A test that needs more (or fewer) inputs asks for its share (tests/properties.py).
settings.register_profile("quick", max_examples=20, deadline=None)
settings.register_profile(
    "thorough", max_examples=THOROUGH_EXAMPLES, deadline=None, print_blob=True
)
settings.load_profile("quick")

ASYNCIO_NOISE = (
    "Task was destroyed but it is pending",
    "Event loop is closed",
    "Cannot enter into task",
    "was never awaited",
)


@pytest.fixture(autouse=True)
def private_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Config, cache, state and logs go to a fresh folder, never the real user's."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for var, sub in (
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
        ("XDG_DATA_HOME", ".local/share"),
    ):
        monkeypatch.setenv(var, str(home / sub))
    return home


@pytest.fixture(autouse=True)
def whole_space_fetch_gives_up_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page that fails stops a whole-space fetch at once, as the tests of each failure
    expect, rather than after a minute of waiting it out; the tests of that patience
    (`tests/services/test_page_patience.py`) set `OUTAGE_PATIENCE` again."""
    from cardviewer.services import page_patience

    monkeypatch.setattr(page_patience, "OUTAGE_PATIENCE", 0.0)


@pytest.fixture(autouse=True)
def system_formats_again() -> Iterator[None]:
    """Each test starts from the system's formats: one that installs a language
    (`i18n.install_translators`) leaves `QLocale()` set for the next one otherwise."""
    yield
    qt_core = sys.modules.get("PySide6.QtCore")  # Qt is not loaded for a test without it
    if qt_core is not None:
        qt_core.QLocale.setDefault(qt_core.QLocale.system())


@pytest.fixture(autouse=True)
def forget_remembered_secrets() -> Iterator[None]:
    """Each test's passwords and tokens are looked for in its own log lines only.

    The app remembers every secret it learns until it ends; a suite that signs in a
    thousand times would otherwise redact every line against thousands of them.
    """
    yield
    from cardviewer.log_setup import forget_secrets

    forget_secrets()


@pytest.fixture(autouse=True)
def collect_garbage_on_the_main_thread() -> Iterator[None]:
    """Collect cyclic garbage on the test's thread, never on a demo server thread.

    An automatic collection runs on whichever thread happens to allocate. If that is
    a demo server thread and the garbage holds Qt objects (a closed test loop's timers
    and socket notifiers), Qt frees them on the wrong thread and a later test crashes.
    Being autouse, this fixture is torn down after the loop fixtures. What survives the
    collection is frozen (`gc.freeze`): the next test's collection looks only at what
    that test made, instead of every object of the session, about a tenth of a second
    a test otherwise.
    """
    gc.disable()
    yield
    gc.collect()
    gc.freeze()
    gc.enable()


@pytest.fixture(autouse=True)
def no_asyncio_noise(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail a test whose tasks were lost or ran on a dead loop."""
    caplog.set_level(logging.WARNING, logger="asyncio")
    yield
    noise = [
        r.getMessage() for r in caplog.records if any(n in r.getMessage() for n in ASYNCIO_NOISE)
    ]
    assert not noise, f"asyncio reported: {noise}"


@functools.cache
def _finished_type() -> type:
    """A QObject with a `done` signal (made once; Qt is imported only when first asked)."""
    from PySide6.QtCore import QObject, Signal

    class Finished(QObject):
        done = Signal()

    return Finished


def wait_done(qtbot: Any, task: asyncio.Future[Any], timeout: int) -> None:
    """Let Qt (and so the loop) run until `task` is done; `TimeoutError` after `timeout` ms.

    It waits on a signal the task's end sends: `qtbot.waitUntil` looks every 10 ms, and
    most tasks here end well within that, some thousands of times in a run.
    """
    finished = _finished_type()()
    task.add_done_callback(lambda _task: finished.done.emit())
    if not task.done():
        with qtbot.waitSignal(finished.done, timeout=timeout, raising=False):
            pass
    if not task.done():
        raise TimeoutError(f"the task did not end within {timeout} ms")


@pytest.fixture
def qloop(qapp, qtbot) -> Iterator[asyncio.AbstractEventLoop]:
    """An asyncio loop driven by Qt: qtbot's waits spin Qt, and Qt runs the tasks."""
    from cardviewer.event_loop import QtEventLoop

    loop = QtEventLoop(qapp)
    errors: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    asyncio.set_event_loop(loop)
    asyncio.events._set_running_loop(loop)
    try:
        yield loop
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            qtbot.waitUntil(lambda: all(t.done() for t in pending), timeout=5000)
        gens = loop.create_task(loop.shutdown_asyncgens())
        wait_done(qtbot, gens, 5000)
        asyncio.events._set_running_loop(None)
        loop.close()
        asyncio.set_event_loop(None)
    assert not errors, f"unhandled errors in the event loop: {errors}"


@pytest.fixture
def arun(qloop, qtbot) -> Callable[..., Any]:
    """Await a coroutine from a synchronous test while Qt keeps running."""

    def run(coro: Coroutine[Any, Any, T], timeout: int = 10_000) -> T:
        task = qloop.create_task(coro)
        wait_done(qtbot, task, timeout)
        result: T = task.result()
        return result

    return run


@pytest.fixture
def run_app(qloop, qtbot) -> Iterator[Callable[[AppController], asyncio.Task[int]]]:
    """Start an `AppController` as the app does; the test drives its windows."""
    tasks: list[asyncio.Task[int]] = []

    def run(controller: AppController) -> asyncio.Task[int]:
        task: asyncio.Task[int] = qloop.create_task(controller.run())
        tasks.append(task)
        return task

    yield run
    for task in tasks:
        task.cancel()
    qtbot.waitUntil(lambda: all(t.done() for t in tasks), timeout=10_000)


@pytest.fixture
def early_dialogs(monkeypatch: pytest.MonkeyPatch) -> list[LoginDialog]:
    """Every sign-in dialog `main()` opens before the event loop, in order."""
    from cardviewer.sign_in import SignInDialogs

    dialogs: list[LoginDialog] = []
    first = SignInDialogs.first

    def first_and_keep(self: SignInDialogs, message: str = "") -> LoginDialog:
        dialogs.append(first(self, message))
        return dialogs[-1]

    monkeypatch.setattr(SignInDialogs, "first", first_and_keep)
    return dialogs


@pytest.fixture(scope="session")
def demo_server_session() -> Iterator[DemoServer]:
    from cardviewer.demo import DemoConfig, DemoServer

    with DemoServer(DemoConfig()) as server:
        yield server


@pytest.fixture
def demo_server(demo_server_session: DemoServer) -> Iterator[DemoServer]:
    """The shared demo server, with its spaces, faults, latency and the request log reset
    after use."""
    server = demo_server_session
    server.clear_requests()
    spaces = dict(server.spaces)
    yield server
    server.spaces.clear()
    server.spaces.update(spaces)
    server.faults.clear()
    server.config.latency = 0.0
    server.config.avatar_latency = 0.0
    server.clear_requests()


@pytest.fixture
def two_entries_not_cards(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Call to have page 2 of the demo space carry two entries that are not cards (a
    text, null) in place of two cards."""
    from cardviewer.demo import pagination

    body = pagination._body

    def with_two_that_are_not_cards(data: list[Any], **parts: Any) -> dict[str, Any]:
        made = body(data, **parts)
        if parts["page"] == 2:
            made["data"] = ["not a card", None, *made["data"][2:]]
        return made

    return lambda: monkeypatch.setattr(pagination, "_body", with_two_that_are_not_cards)


@pytest.fixture
def ctrl_c_heard() -> Iterator[None]:
    """Ctrl+C as in a terminal, also where the tests run with it ignored (a suite
    started in the background without job control inherits SIGINT ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
