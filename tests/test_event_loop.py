"""The event loop keeps callbacks as asyncio does, on Qt's event loop.

The tests' own `qloop` fixture runs on `QtEventLoop` too, so every asynchronous test
of the suite exercises it; these state what it promises, and the cost it removes.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QAbstractEventDispatcher, QObject, QTimer

from cardviewer.event_loop import MIN_TIMERS_TO_COMPACT, ROUND_SECONDS, QtEventLoop


def spin(qtbot, until, timeout: int = 2000) -> None:
    qtbot.waitUntil(lambda: bool(until()), timeout=timeout)


def qt_timers(owner: QObject) -> int:
    dispatcher = QAbstractEventDispatcher.instance()
    assert dispatcher is not None
    return len(dispatcher.registeredTimers(owner))


def test_callbacks_due_now_run_in_the_order_they_were_scheduled(qloop, qtbot):
    ran: list[int] = []
    for number in range(50):
        qloop.call_soon(ran.append, number)
    spin(qtbot, lambda: len(ran) == 50)
    assert ran == list(range(50))


def test_what_a_batch_schedules_waits_until_qt_has_handled_its_events(qloop, qtbot):
    ran: list[str] = []

    def first() -> None:
        ran.append("first")
        QTimer.singleShot(0, lambda: ran.append("qt"))
        qloop.call_soon(ran.append, "scheduled by first")

    qloop.call_soon(first)
    qloop.call_soon(ran.append, "second")
    spin(qtbot, lambda: len(ran) == 4)
    assert ran[:2] == ["first", "second"]
    assert set(ran[2:]) == {"qt", "scheduled by first"}


def test_a_long_round_lets_qt_in_before_the_rest_of_its_callbacks(qloop, qtbot):
    ran: list[object] = []

    def slow(number: int) -> None:
        ends = time.perf_counter() + ROUND_SECONDS / 3
        while time.perf_counter() < ends:  # the window's thread busy, as with a page
            pass
        ran.append(number)

    def first() -> None:
        QTimer.singleShot(0, lambda: ran.append("qt"))  # due now, as a paint would be
        slow(0)

    qloop.call_soon(first)
    for number in range(1, 12):
        qloop.call_soon(slow, number)
    spin(qtbot, lambda: len(ran) == 13)
    assert 0 < ran.index("qt") < 12, "Qt's event waited for a whole round"
    assert [n for n in ran if n != "qt"] == list(range(12)), "still in their order"


def test_timed_callbacks_run_by_their_time_not_the_order_they_were_scheduled(qloop, qtbot):
    ran: list[str] = []
    qloop.call_later(0.06, ran.append, "late")
    qloop.call_later(0.02, ran.append, "early")
    qloop.call_at(qloop.time() + 0.04, ran.append, "middle")
    qloop.call_soon(ran.append, "now")
    spin(qtbot, lambda: len(ran) == 4)
    assert ran == ["now", "early", "middle", "late"]


def test_a_timed_callback_is_not_run_before_its_time(qloop, qtbot):
    scheduled = qloop.time()
    ran: list[float] = []
    qloop.call_later(0.05, lambda: ran.append(qloop.time()))
    spin(qtbot, lambda: ran)
    assert ran[0] - scheduled >= 0.05


def test_cancelled_callbacks_never_run(qloop, qtbot):
    ran: list[str] = []
    qloop.call_soon(ran.append, "cancelled now").cancel()
    qloop.call_later(0.01, ran.append, "cancelled timed").cancel()
    qloop.call_later(0.03, ran.append, "kept")
    spin(qtbot, lambda: ran)
    qtbot.wait(20)
    assert ran == ["kept"]


def test_cancelled_timeouts_leave_no_qt_timers_and_are_dropped(qloop, qtbot):
    """What a response read with a timeout leaves: a timed callback, cancelled at once.

    qasync's own loop keeps a Qt timer for each until it is due (20 s for a read), and
    those came due together once a second, holding the window.
    """
    count = 10 * MIN_TIMERS_TO_COMPACT
    for _ in range(count):
        qloop.call_later(20, lambda: None).cancel()
    ran: list[bool] = []
    qloop.call_later(0.01, ran.append, True)

    assert qt_timers(qloop._wakeup) == 1
    assert qt_timers(qloop._timer) == 0  # qasync's per-callback timers are not used
    assert len(qloop._timers) < 2 * MIN_TIMERS_TO_COMPACT
    spin(qtbot, lambda: ran)


def test_stock_qasync_keeps_a_qt_timer_for_every_cancelled_timeout(qapp):
    """Why `QtEventLoop` exists; if this fails, qasync has fixed it."""
    loop = qasync.QEventLoop(qapp)
    try:
        for _ in range(200):
            loop.call_later(20, lambda: None).cancel()
        assert qt_timers(loop._timer) == 200
    finally:
        loop.close()


def test_awaiting_sleeps_and_timeouts_works(qloop, qtbot, arun):
    async def work() -> list[str]:
        said: list[str] = []
        await asyncio.sleep(0.01)
        said.append("slept")
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(asyncio.sleep(5), 0.02)
        said.append("timed out")
        said.append(await asyncio.wait_for(asyncio.sleep(0.01, "in time"), 1))
        return said

    assert arun(work()) == ["slept", "timed out", "in time"]


def test_a_failing_callback_is_reported_and_the_next_ones_still_run(qloop, qtbot):
    reported: list[dict[str, Any]] = []
    qloop.set_exception_handler(lambda _loop, context: reported.append(context))
    ran: list[str] = []

    def fail() -> None:
        raise ValueError("broken")

    qloop.call_soon(fail)
    qloop.call_soon(ran.append, "after")
    spin(qtbot, lambda: ran)
    assert isinstance(reported[0]["exception"], ValueError)


def test_callbacks_run_in_the_context_they_were_given(qloop, qtbot):
    variable: contextvars.ContextVar[str] = contextvars.ContextVar("variable", default="none")
    context = contextvars.copy_context()
    context.run(variable.set, "given")
    seen: list[str] = []
    qloop.call_soon(lambda: seen.append(variable.get()), context=context)
    qloop.call_later(0.001, lambda: seen.append(variable.get()), context=context)
    spin(qtbot, lambda: len(seen) == 2)
    assert seen == ["given", "given"]


def test_another_thread_can_schedule_a_callback(qloop, qtbot):
    ran: list[str] = []
    thread = threading.Thread(
        target=lambda: qloop.call_soon_threadsafe(ran.append, "from a thread")
    )
    thread.start()
    thread.join()
    spin(qtbot, lambda: ran)
    assert ran == ["from a thread"]


@pytest.mark.parametrize("method", ["call_soon", "call_later", "call_at"])
def test_coroutines_and_other_non_callables_are_refused(qloop, method):
    async def coroutine() -> None:
        pass

    schedule = getattr(qloop, method)
    leading = () if method == "call_soon" else (0,)
    for bad in (coroutine, "not callable"):
        with pytest.raises(TypeError):
            schedule(*leading, bad)


def test_nothing_runs_after_the_loop_is_closed(qapp, qtbot):
    loop = QtEventLoop(qapp)
    ran: list[str] = []
    loop.call_soon(ran.append, "soon")
    loop.call_later(0.001, ran.append, "later")
    loop.close()
    qtbot.wait(20)
    assert ran == []


def test_callbacks_still_run_after_one_lets_an_interrupt_through(qloop, qtbot):
    """Handles pass KeyboardInterrupt on, not to the handler; the callbacks after it run."""
    ran: list[str] = []

    def leave() -> None:
        raise KeyboardInterrupt

    with qtbot.capture_exceptions() as raised:
        qloop.call_soon(leave)
        qloop.call_soon(ran.append, "after")
        qloop.call_later(0.01, ran.append, "timed")
        spin(qtbot, lambda: len(ran) == 2)
    assert ran == ["after", "timed"]
    assert [kind for kind, *_ in raised] == [KeyboardInterrupt]
