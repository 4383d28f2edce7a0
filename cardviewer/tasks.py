"""Owning asyncio tasks from Qt objects, so none is lost, leaked or left pending.

Qt slots are synchronous; the work they start is a coroutine. A `TaskSet` keeps a
strong reference to every task it starts (asyncio keeps only weak ones), reports
failures instead of letting them vanish, and cancels and awaits everything on close.
Work handed to a thread that must not be left running when its caller is called off
goes through `on_thread_to_the_end`; work whose result stands once begun (a copy made
current, a file of changes noted), through `standing_once_begun`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import asyncio

log = logging.getLogger(__name__)

ErrorHandler = Callable[[BaseException], None]
T = TypeVar("T")


class TaskSet:
    """Tasks started on behalf of one owner; named tasks replace their predecessor."""

    def __init__(self, on_error: ErrorHandler | None = None) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._named: dict[str, asyncio.Task[Any]] = {}
        self._on_error = on_error
        self._closed = False

    def start(self, coro: Coroutine[Any, Any, Any], name: str | None = None) -> asyncio.Task[Any]:
        """Run `coro` as a task; a task with the same `name` still running is cancelled."""
        if self._closed:
            coro.close()
            raise RuntimeError("TaskSet is closed")
        if name is not None:
            self.cancel(name)
        import asyncio  # here, not above: a dialog that owns a TaskSet paints before the loop

        task = asyncio.get_event_loop().create_task(coro, name=name)
        self._tasks.add(task)
        if name is not None:
            self._named[name] = task
        task.add_done_callback(self._finished)
        return task

    def cancel(self, name: str) -> None:
        task = self._named.pop(name, None)
        if task is not None and not task.done():
            task.cancel()

    def running(self, name: str) -> bool:
        task = self._named.get(name)
        return task is not None and not task.done()

    @property
    def closed(self) -> bool:
        """`aclose` was called: nothing more starts."""
        return self._closed

    def running_names(self) -> list[str]:
        """The names of the named tasks still running."""
        return [name for name, task in self._named.items() if not task.done()]

    async def cancel_and_wait(self, names: list[str]) -> None:
        """Cancel the tasks of these names and wait until they have ended."""
        import asyncio  # as in `start`

        tasks = [task for name in names if (task := self._named.get(name)) is not None]
        for name in names:
            self.cancel(name)
        if tasks:
            await asyncio.wait(tasks)

    async def wait(
        self, names: list[str], within: float, *, unless: asyncio.Event | None = None
    ) -> list[str]:
        """Wait up to `within` seconds for the tasks of these names to end, or until
        `unless` is set; the names of those still running then (they go on)."""
        import asyncio  # as in `start`

        tasks = {name: task for name in names if (task := self._named.get(name)) is not None}
        if tasks:
            ended = asyncio.ensure_future(asyncio.wait(tasks.values()))
            waits: set[asyncio.Future[Any]] = {ended}
            if unless is not None:
                waits.add(asyncio.ensure_future(unless.wait()))
            try:
                await asyncio.wait(waits, timeout=within, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for wait in waits:  # the waits, not the tasks waited for
                    wait.cancel()
        return [name for name, task in tasks.items() if not task.done()]

    def __len__(self) -> int:
        return len(self._tasks)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        name = task.get_name()
        if self._named.get(name) is task:
            del self._named[name]
        if task.cancelled():
            return
        exc = task.exception()
        if exc is None:
            return
        if self._on_error is not None:
            self._on_error(exc)
        else:
            log.error("task %s failed", name, exc_info=exc)

    async def aclose(self) -> None:
        """Cancel every task and wait until all have finished."""
        self._closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            import asyncio  # as in `start`

            await asyncio.gather(*tasks, return_exceptions=True)


async def on_thread_to_the_end(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)` on a worker thread, awaited to its end even when called off.

    Called off meanwhile, the caller still waits for `work` to end, then is cancelled:
    for work that holds something (a store's connection) that nothing else may touch
    until it is done.
    """
    return await _on_thread(work, args, stands=False, on_cancel=None)


async def standing_once_begun(
    work: Callable[..., T], *args: Any, on_cancel: Callable[[], None] | None = None
) -> T:
    """`work(*args)` on a worker thread, whose result stands once it has begun.

    Called off meanwhile, `on_cancel()` is called (a stop `work` looks at), and the
    caller waits for `work` to end. Where it ended well all the same (a copy made
    current, a file of changes noted), that is the caller's result, the cancellation
    taken back; else the caller is cancelled.
    """
    return await _on_thread(work, args, stands=True, on_cancel=on_cancel)


async def undone_if_called_off(
    work: Callable[..., T], *args: Any, undo: Callable[[T], object]
) -> T:
    """`work(*args)` on a worker thread, for work that makes what only its caller would
    let go of (a store opened, a sync begun). Called off meanwhile, the caller waits for
    `work` to end (it goes on regardless) and has `undo` let go of what it made, on a
    thread too, before the cancellation goes on."""
    import asyncio  # as in `start`

    running = asyncio.ensure_future(asyncio.to_thread(work, *args))
    try:
        return await asyncio.shield(running)
    except asyncio.CancelledError:
        await asyncio.wait({running})
        if not running.cancelled() and running.exception() is None:
            await on_thread_to_the_end(undo, running.result())
        raise


async def _on_thread(
    work: Callable[..., T],
    args: tuple[Any, ...],
    *,
    stands: bool,
    on_cancel: Callable[[], None] | None,
) -> T:
    import asyncio  # as in `start`

    running = asyncio.ensure_future(asyncio.to_thread(work, *args))
    try:
        return await asyncio.shield(running)
    except asyncio.CancelledError:
        if on_cancel is not None:
            on_cancel()
        await asyncio.wait({running})
        if not stands or running.exception() is not None:
            raise
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()
        return running.result()
