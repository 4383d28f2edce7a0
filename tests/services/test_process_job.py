"""A long job in a process of its own: its result, progress, log, stop and failures."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable

import pytest

from cardviewer.services import process_job
from cardviewer.services.process_job import (
    JobEnded,
    KeptRecords,
    answer_job,
    in_a_process,
    run_in_process,
)
from cardviewer.services.stoppable import Painted, Stopped, check
from cardviewer.services.store_schema import StoreError, StoreProblem

WAIT = 20.0


# Jobs, at the top of the module: the process imports them from here.


def counting(to: int, *, stop: threading.Event, painted: Painted) -> tuple[int, str]:
    for count in range(1, to + 1):
        painted(count)
    logging.getLogger("cardviewer.test.job").warning("counted to %d", to)
    return to, multiprocessing.current_process().name


def checking(*, stop: threading.Event, painted: Painted) -> str:
    for count in range(1, 6):
        time.sleep(process_job.POLL_SECONDS)  # the caller looks for a stop meanwhile
        check(stop)
        painted(count)
    return "done"


def until_stopped(*, stop: threading.Event, painted: Painted) -> str:
    painted(1)
    stop.wait(WAIT)
    check(stop)
    return "never stopped"


def failing(error: Exception, *, stop: threading.Event, painted: Painted) -> None:
    raise error


class Unpicklable(Exception):
    def __init__(self, first: str, second: str) -> None:  # `args` holds one of the two
        super().__init__(first)


def failing_unpicklably(*, stop: threading.Event, painted: Painted) -> None:
    raise Unpicklable("first", "second")


def lingering(*, stop: threading.Event, painted: Painted) -> str:
    threading.Thread(target=time.sleep, args=(WAIT,)).start()  # holds the process open
    return "answered"


def dying(*, stop: threading.Event, painted: Painted) -> None:
    os._exit(3)


def asking(
    words: list[str], *, stop: threading.Event, painted: Painted, shout: Callable[[str], str]
) -> list[str]:
    said = []
    for word in words:
        try:
            said.append(shout(word))
        except ValueError as error:
            said.append(f"refused: {error}")
        check(stop)
    return said


def test_the_result_progress_and_log_of_a_job_come_back(caplog):
    told: list[int] = []
    with caplog.at_level(logging.WARNING, logger="cardviewer.test.job"):
        result = run_in_process(counting, 3, stop=threading.Event(), painted=told.append)
    assert result == (3, "CardViewer job"), "run in a process of its own"
    assert told == [1, 2, 3]
    assert [(r.getMessage(), r.processName) for r in caplog.records] == [
        ("counted to 3", "CardViewer job")
    ]


def test_a_job_that_is_not_stopped_hears_no_stop():
    told: list[int] = []
    assert run_in_process(checking, stop=threading.Event(), painted=told.append) == "done"
    assert told == [1, 2, 3, 4, 5]


def test_a_stop_ends_the_job_as_on_a_thread():
    stop = threading.Event()
    started = time.monotonic()
    with pytest.raises(Stopped):
        run_in_process(until_stopped, stop=stop, painted=lambda _count: stop.set())
    assert time.monotonic() - started < WAIT / 2


@pytest.mark.parametrize(
    "error",
    [
        StoreError("written by a newer version", StoreProblem.NEWER_VERSION),
        PermissionError(13, "Permission denied", "/nowhere/cards.csv"),
    ],
)
def test_a_failure_is_raised_here_as_it_was_there(error):
    with pytest.raises(type(error)) as raised:
        run_in_process(failing, error, stop=threading.Event(), painted=print)
    assert str(raised.value) == str(error)
    assert getattr(raised.value, "problem", None) == getattr(error, "problem", None)
    assert getattr(raised.value, "errno", None) == getattr(error, "errno", None)


def test_a_failure_that_cannot_be_sent_comes_back_as_its_traceback():
    with pytest.raises(RuntimeError, match="Unpicklable: first"):
        run_in_process(failing_unpicklably, stop=threading.Event(), painted=print)


def test_a_process_that_lingers_after_its_answer_is_ended(monkeypatch):
    monkeypatch.setattr(process_job, "STOP_SECONDS", 0.5)
    started = time.monotonic()
    assert run_in_process(lingering, stop=threading.Event(), painted=print) == "answered"
    assert time.monotonic() - started < WAIT / 2
    assert multiprocessing.active_children() == []


def test_a_process_that_dies_without_an_answer_is_told():
    with pytest.raises(JobEnded):
        run_in_process(dying, stop=threading.Event(), painted=print)


def test_where_no_process_starts_the_job_runs_on_the_callers_thread(monkeypatch, caplog):
    def no_process(self) -> None:
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(multiprocessing.get_context("spawn").Process, "start", no_process)
    told: list[int] = []
    result = run_in_process(counting, 2, stop=threading.Event(), painted=told.append)
    assert result == (2, multiprocessing.current_process().name)
    assert told == [1, 2]
    assert "a thread runs it" in caplog.text


def left_by_its_caller(
    job: Callable[..., object], args: tuple[object, ...], served: tuple[str, ...] = ()
) -> tuple[tuple[object, ...], tuple[object, ...], bool]:
    """The process's part of `job` run here, its caller gone after its first word: that
    word, its last, and whether it still runs."""
    answers, answering = multiprocessing.Pipe(duplex=False)
    ordering, orders = multiprocessing.Pipe(duplex=False)
    serving = threading.Thread(
        target=answer_job, args=(answering, ordering, job, args, None, served)
    )
    serving.start()
    first = answers.recv()
    orders.close()
    serving.join(WAIT)
    return first, answers.recv(), serving.is_alive()


def test_the_job_stops_when_its_caller_is_gone():
    """The process's part run here: once the orders' pipe closes, the job hears a stop."""
    first, (kind, value, _records), alive = left_by_its_caller(until_stopped, ())
    assert first[:2] == ("painted", 1)
    assert not alive
    assert kind == "failed"
    assert isinstance(value, Stopped)


def test_a_job_awaited_from_the_loop_gives_its_result_and_stops_when_called_off():
    async def both() -> object:
        result = await in_a_process(counting, 2)
        waiting = asyncio.ensure_future(in_a_process(until_stopped))
        await asyncio.sleep(1.0)  # the process started and waits to be stopped
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        return result

    started = time.monotonic()
    assert asyncio.run(both()) == (2, "CardViewer job")  # waits for its worker thread
    assert time.monotonic() - started < WAIT / 2, "the process was told to stop"
    assert multiprocessing.active_children() == []


def test_a_job_calls_what_its_caller_serves_and_hears_the_answer():
    callers: set[int] = set()

    def shout(word: str) -> str:
        callers.add(threading.get_ident())
        if not word:
            raise ValueError("nothing to shout")
        return word.upper()

    served = {"shout": shout}
    said = run_in_process(
        asking, ["ab", "", "cd"], stop=threading.Event(), painted=print, served=served
    )
    assert said == ["AB", "refused: nothing to shout", "CD"]
    assert callers == {threading.get_ident()}, "answered on the calling thread"


def test_a_stop_while_the_caller_answers_ends_the_job_after_the_answer():
    stop = threading.Event()
    heard: list[str] = []

    def shout(word: str) -> str:
        heard.append(word)
        stop.set()  # Cancel, pressed while the caller fetched the answer
        return word.upper()

    with pytest.raises(Stopped):
        run_in_process(asking, ["ab", "cd"], stop=stop, painted=print, served={"shout": shout})
    assert heard == ["ab"]


def asking_regardless(
    words: list[str], *, stop: threading.Event, painted: Painted, shout: Callable[[str], str]
) -> list[str]:
    """Asks about every word whatever its stop says, as a painter asks for the pictures of
    the row it is on before it looks at its stop."""
    return [shout(word) for word in words]


def test_a_call_made_after_a_stop_is_still_answered():
    """The painter that then stops by its own rules (a print withdrawn) gets its answer."""
    stop = threading.Event()

    def shout(word: str) -> str:
        stop.set()
        return word.upper()

    said = run_in_process(
        asking_regardless, ["ab", "cd"], stop=stop, painted=print, served={"shout": shout}
    )
    assert said == ["AB", "CD"]


def test_where_no_process_starts_a_served_function_is_called_directly(monkeypatch):
    def no_process(self) -> None:
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(multiprocessing.get_context("spawn").Process, "start", no_process)
    said = run_in_process(
        asking, ["ab"], stop=threading.Event(), painted=print, served={"shout": str.upper}
    )
    assert said == ["AB"]


def test_a_job_waiting_for_an_answer_stops_when_its_caller_is_gone():
    first, (kind, value, _records), alive = left_by_its_caller(asking, (["ab"],), ("shout",))
    assert first[:2] == ("asked", ("shout", "ab"))
    assert not alive
    assert kind == "failed"
    assert isinstance(value, Stopped)


def test_a_kept_record_goes_as_its_text_with_its_traceback():
    """Arguments and a traceback need not pickle: a record goes as the text it makes."""
    kept = KeptRecords()
    logger = logging.getLogger("cardviewer.test.kept")
    logger.addHandler(kept)
    try:
        try:
            raise ValueError("odd")
        except ValueError:
            logger.error("card %s: %r", "x", object())
            logger.exception("failed on %s", "y")
    finally:
        logger.removeHandler(kept)
    records = pickle.loads(pickle.dumps(kept.take()))
    assert [r.getMessage().split(" at 0x")[0] for r in records] == [
        "card x: <object object",
        "failed on y",
    ]
    assert "ValueError: odd" in logging.Formatter().format(records[1])
    assert kept.take() == []


def test_a_store_error_pickles_with_its_problem():
    error = pickle.loads(pickle.dumps(StoreError("in use", StoreProblem.IN_USE)))
    assert (str(error), error.problem) == ("in use", StoreProblem.IN_USE)


assert process_job.POLL_SECONDS < 1, "a stop is heard within a second"
