"""The asyncio event loop on Qt's: qasync's, with asyncio's own keeping of callbacks.

qasync starts a Qt timer for every callback it is given and kills it when the
callback has run. A callback cancelled before it is due keeps its timer until then:
every read of a response with a timeout leaves one behind for the timeout's length.
Syncing a large space reads some 50 chunks a page, so after 20 s tens of thousands of
dead timers were waiting, and they came due together, a second's worth at a time,
holding the window for 100 to 450 ms once a second. Starting and killing a Qt timer per
callback also cost more than many of the callbacks.

`QtEventLoop` keeps callbacks as asyncio's own loops do: those due now in a queue,
timed ones in a heap from which cancelled ones are dropped, and one Qt timer set for
whatever is due first. Everything else (sockets, threads, executors, running and
stopping) is qasync's.
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import math
from collections import deque
from collections.abc import Callable
from typing import Any

import qasync
from PySide6.QtCore import Qt, QTimer

MIN_TIMERS_TO_COMPACT = 100
"""Cancelled timers are dropped from the heap once they are this many at least…"""
CANCELLED_FRACTION_TO_COMPACT = 0.5
"""…and this part of it (asyncio's own rule)."""
ROUND_SECONDS = 0.008
"""A round of callbacks due now stops once it has run this long; the rest run in the
next round, after Qt has handled its own events (a paint, a key, a timer). Syncing a
large space, eight pages could come in at once and each take a few milliseconds to
read: run together, they held the window for 15 to 43 ms."""


class QtEventLoop(qasync.QEventLoop):  # type: ignore[misc]
    """qasync's event loop, with callbacks queued and timed as asyncio queues and times them.

    Callbacks due now run in the order they were scheduled, in rounds: what a round
    schedules runs in the next one, after Qt has handled its own events in between,
    and so do those a round had no time for (`ROUND_SECONDS`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._queued: deque[asyncio.Handle] = deque()
        self._timers: list[asyncio.TimerHandle] = []
        self._cancelled_timers = 0
        self._armed_at: float | None = None
        self._wakeup = QTimer()
        self._wakeup.setSingleShot(True)
        self._wakeup.setTimerType(Qt.TimerType.PreciseTimer)
        self._wakeup.timeout.connect(self._run_due)
        super().__init__(*args, **kwargs)

    # Scheduling, as asyncio.AbstractEventLoop has it

    def call_soon(
        self,
        callback: Callable[..., object],
        *args: Any,
        context: contextvars.Context | None = None,
    ) -> asyncio.Handle:
        self._check_callback(callback, "call_soon")
        handle = asyncio.Handle(callback, args, self, context)
        self._queued.append(handle)
        self._arm(self.time())
        return handle

    def call_later(
        self,
        delay: float,
        callback: Callable[..., object],
        *args: Any,
        context: contextvars.Context | None = None,
    ) -> asyncio.TimerHandle:
        return self.call_at(self.time() + delay, callback, *args, context=context)

    def call_at(
        self,
        when: float,
        callback: Callable[..., object],
        *args: Any,
        context: contextvars.Context | None = None,
    ) -> asyncio.TimerHandle:
        self._check_callback(callback, "call_at")
        timer = asyncio.TimerHandle(when, callback, args, self, context)
        heapq.heappush(self._timers, timer)
        # Marked as asyncio's loops mark it, so that its cancel() calls _timer_handle_cancelled.
        timer._scheduled = True  # type: ignore[attr-defined]
        self._arm(when)
        return timer

    def _timer_handle_cancelled(self, handle: asyncio.TimerHandle) -> None:
        """Called by a scheduled `TimerHandle` when it is cancelled."""
        self._cancelled_timers += 1
        if (
            self._cancelled_timers >= MIN_TIMERS_TO_COMPACT
            and self._cancelled_timers > CANCELLED_FRACTION_TO_COMPACT * len(self._timers)
        ):
            kept = []
            for timer in self._timers:
                if timer.cancelled():
                    timer._scheduled = False  # type: ignore[attr-defined]
                else:
                    kept.append(timer)
            heapq.heapify(kept)
            self._timers = kept
            self._cancelled_timers = 0

    def close(self) -> None:
        super().close()
        self._wakeup.stop()
        self._queued.clear()
        self._timers.clear()

    # Running what is due

    def _run_due(self) -> None:
        """Run the callbacks due now; those they schedule wait for the next round."""
        self._armed_at = None
        now = self.time()
        timers = self._timers
        while timers and (timers[0].cancelled() or timers[0].when() <= now):
            timer = heapq.heappop(timers)
            timer._scheduled = False  # type: ignore[attr-defined]
            if timer.cancelled():
                self._cancelled_timers -= 1
            else:
                self._queued.append(timer)
        queued = self._queued
        ends = now + ROUND_SECONDS
        try:
            for _ in range(len(queued)):
                handle = queued.popleft()
                if not handle.cancelled():
                    handle._run()  # reports its exceptions, but for KeyboardInterrupt and the like
                    if self.time() >= ends:
                        break
        finally:
            self._arm_for_next()  # what is left still runs, whatever escaped

    def _arm_for_next(self) -> None:
        if self._queued:
            self._arm(self.time())
        elif self._timers:
            self._arm(self._timers[0].when())  # maybe a cancelled one: it only wakes early

    def _arm(self, when: float) -> None:
        """Have the Qt timer fire by `when` (a time of `self.time()`)."""
        if self._armed_at is not None and self._armed_at <= when:
            return
        delay_ms = max(0, math.ceil((when - self.time()) * 1000))
        self._armed_at = when
        self._wakeup.start(delay_ms)
