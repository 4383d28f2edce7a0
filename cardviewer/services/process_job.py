"""A long job over a synced space's local copy, run in a process of its own.

Copying or exporting 100,000 cards of a copy is Python from end to end: each card read,
its texts made. On a thread it shares the interpreter's lock with the window's thread,
whose every call into Python then waits for it: scrolling a screenful took 100 to 200 ms
instead of 8 while 100,000 cards were written. A process has a lock of its own.

`run_in_process(job, *args, stop=…, painted=…)` is called on a worker thread, as a
`Painting` calls its paint, and returns what `job(*args, stop=…, painted=…)` returns in
the process; `in_a_process(job, *args)` awaits it so from the loop, its progress
untold. The job's progress and what it logs come back over one pipe; a stop goes
to it over another, and it ends as it would on a thread (`Stopped`, a file half written
removed); its exception is raised here. Without a caller (the app ended) it stops too.
Where no process can be started the job runs on the calling thread instead.

What only the caller can do (fetch a card's picture through the window's loop, say)
is `served` to the job: a function of the caller's, given to the job by name, whose
calls go to the caller and are answered there, on the calling thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import pickle
import queue
import signal
import threading
import traceback
from collections.abc import Callable, Mapping
from functools import partial
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from cardviewer.services.stoppable import Painted, Stopped

log = logging.getLogger(__name__)

T = TypeVar("T")

POLL_SECONDS = 0.05
"""How often the caller looks for a stop while the process has nothing to say."""
STOP_SECONDS = 5.0
"""How long a process may take to end once it has answered or been told to stop."""


class JobEnded(Exception):
    """The job's process ended without an answer (killed, or out of memory)."""


Served = Mapping[str, Callable[[Any], Any]]
"""Functions of the caller's a job may call, each given to it as the keyword of its name;
what goes to them and comes back must pickle."""


def run_in_process(
    job: Callable[..., T],
    *args: Any,
    stop: threading.Event,
    painted: Painted,
    served: Served | None = None,
) -> T:
    """`job(*args, stop=…, painted=…)` in a process started afresh; its result.

    `job` and `args` must be picklable: a module's function, or a method of a
    picklable object. Each of `served` is a keyword argument of `job` too, answered
    here. Blocks: call it on a worker thread.
    """
    served = served or {}
    context = multiprocessing.get_context("spawn")  # not forked: Qt's threads run here
    answers, answering = context.Pipe(duplex=False)
    ordering, orders = context.Pipe(duplex=False)
    process = context.Process(
        target=serve,
        args=(answering, ordering, job, args, tuple(served)),
        name="CardViewer job",
        daemon=True,
    )
    try:
        process.start()
    except OSError as error:
        log.warning("no process could be started for %r (%s); a thread runs it", job, error)
        return job(*args, stop=stop, painted=painted, **served)
    finally:
        answering.close()  # only the process holds these ends: its death closes them
        ordering.close()
    try:
        return _answer(answers, orders, stop, painted, served)  # type: ignore[no-any-return]
    finally:
        orders.close()  # the process hears it, if it still runs, and stops
        process.join(STOP_SECONDS)
        if process.is_alive():
            process.kill()
            process.join()
        answers.close()


async def in_a_process(job: Callable[..., T], *args: Any) -> T:
    """`run_in_process(job, *args, …)` awaited off the loop, its progress untold; called
    off (the window closing), the process is told to stop."""
    stop = threading.Event()
    try:
        return await asyncio.to_thread(run_in_process, job, *args, stop=stop, painted=_untold)
    except asyncio.CancelledError:
        stop.set()
        raise


def _untold(_count: int) -> None:
    """Progress nobody shows."""


def _answer(
    answers: Connection,
    orders: Connection,
    stop: threading.Event,
    painted: Painted,
    served: Served,
) -> Any:
    """The process's result, its progress passed to `painted` meanwhile and its calls
    answered by `served`."""
    told_to_stop = False

    def tell_a_stop() -> None:
        nonlocal told_to_stop
        if stop.is_set() and not told_to_stop:
            with contextlib.suppress(OSError):
                orders.send("stop")
            told_to_stop = True

    while True:
        tell_a_stop()
        if not answers.poll(POLL_SECONDS):
            continue
        try:
            kind, value, records = answers.recv()
        except (EOFError, OSError) as error:
            raise JobEnded("the job's process ended without an answer") from error
        for record in records:
            logging.getLogger(record.name).handle(record)
        if kind == "painted":
            painted(value)
        elif kind == "asked":
            reply = _reply(served, *value)
            tell_a_stop()  # set while it was answered: heard before the answer
            with contextlib.suppress(OSError):  # the process is gone: nobody to answer
                orders.send(reply)
        elif kind == "done":
            return value
        else:
            raise value


def _reply(served: Served, name: str, argument: Any) -> tuple[str, Any]:
    """The answer to the job's call of `served[name]`: its result, or what it raised."""
    try:
        return ("answer", served[name](argument))
    except Exception as error:
        return ("refused", _picklable(error))


def serve(
    answers: Connection,
    orders: Connection,
    job: Callable[..., Any],
    args: Any,
    served: tuple[str, ...] = (),
) -> None:
    """The job's process: runs `job`, telling its progress and log, result or failure."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is for the app, which stops this
    kept = KeptRecords()
    logging.getLogger().addHandler(kept)
    answer_job(answers, orders, job, args, kept, served)


def answer_job(
    answers: Connection,
    orders: Connection,
    job: Callable[..., Any],
    args: Any,
    kept: KeptRecords | None = None,
    served: tuple[str, ...] = (),
) -> None:
    """`serve` once the process is set up; `kept` holds what it logs meanwhile."""
    kept = kept or KeptRecords()
    stop = threading.Event()
    replies: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
    threading.Thread(target=_hear_orders, args=(orders, stop, replies), daemon=True).start()

    def told(count: int) -> None:
        answers.send(("painted", count, kept.take()))

    calls = {name: partial(_ask, answers, replies, kept, name) for name in served}
    try:
        answer: tuple[str, Any] = ("done", job(*args, stop=stop, painted=told, **calls))
    except Exception as error:
        answer = ("failed", _picklable(error))
    with contextlib.suppress(OSError):  # no caller any more: nobody to tell
        answers.send((*answer, kept.take()))


def _hear_orders(
    orders: Connection, stop: threading.Event, replies: queue.SimpleQueue[tuple[str, Any]]
) -> None:
    """Set `stop` when the caller says so, or is gone; pass on its replies meanwhile."""
    with contextlib.suppress(EOFError, OSError):
        while (order := orders.recv()) != "stop":
            replies.put(order)
        stop.set()
        while True:  # a call under way is still answered
            replies.put(orders.recv())
    stop.set()
    replies.put(("gone", None))


def _ask(
    answers: Connection,
    replies: queue.SimpleQueue[tuple[str, Any]],
    kept: KeptRecords,
    name: str,
    argument: Any,
) -> Any:
    """In the process: the caller's `served[name](argument)`."""
    answers.send(("asked", (name, argument), kept.take()))
    kind, value = replies.get()
    if kind == "answer":
        return value
    if kind == "refused":
        raise value
    raise Stopped("the caller is gone")


def _picklable(error: Exception) -> Exception:
    """`error` as it can be sent back: itself, or its traceback in a `RuntimeError`."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError("".join(traceback.format_exception(error)))
    return error


class KeptRecords(logging.Handler):
    """A process's log records (warnings and worse, as its root logger lets through),
    kept to go back with its next answer.

    The process has no log of its own: the app's log, and the person reading it, should
    hear that a card's field was set aside whichever process read the card. A record
    goes as its finished text, so that nothing in it needs pickling but strings.
    """

    def __init__(self) -> None:
        super().__init__()
        self._records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        record.msg = record.getMessage()
        record.args = None
        if record.exc_info:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
        self._records.append(record)

    def take(self) -> list[logging.LogRecord]:
        """The records kept since the last call."""
        records, self._records = self._records, []
        return records
