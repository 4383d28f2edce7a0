"""Work on a thread that a caller called off still waits for."""

from __future__ import annotations

import asyncio
import threading

import pytest

from cardviewer.tasks import TaskSet, on_thread_to_the_end


def test_the_result_of_the_work_comes_back():
    assert asyncio.run(on_thread_to_the_end(divmod, 7, 2)) == (3, 1)


def test_a_caller_called_off_waits_for_the_work_to_end_then_is_cancelled():
    started, release = threading.Event(), threading.Event()
    ended: list[str] = []

    def work() -> None:
        started.set()
        release.wait(5)
        ended.append("work")

    async def main() -> None:
        caller = asyncio.ensure_future(on_thread_to_the_end(work))
        await asyncio.to_thread(started.wait, 5)
        caller.cancel()
        await asyncio.sleep(0.05)
        assert not caller.done(), "it waits for the work"
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await caller
        assert ended == ["work"]

    asyncio.run(main())


def test_waiting_for_named_tasks_tells_those_still_running_and_leaves_them_running():
    async def main() -> tuple[list[str], bool, bool]:
        tasks = TaskSet()
        tasks.start(asyncio.sleep(0.01), name="quick")
        slow = tasks.start(asyncio.sleep(10), name="slow")
        left = await tasks.wait(["quick", "slow", "none such"], within=0.2)
        running = not slow.done()
        await tasks.aclose()
        return left, running, slow.cancelled()

    assert asyncio.run(main()) == (["slow"], True, True)
