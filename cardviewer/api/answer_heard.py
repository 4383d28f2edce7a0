"""Telling whoever waits on a request that the server answered one of its tries.

A request is tried again after some failures (`retry`): a server that answers each
try slowly with a 500 has answered every time, though the request as a whole has not
ended. What watches a fetch for a silent server (`services.answer_watch`) listens for
each try's answer here, through the task that sends the request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_LISTENER: ContextVar[Callable[[], None] | None] = ContextVar("answer_heard", default=None)


@contextmanager
def listening(heard: Callable[[], None]) -> Iterator[None]:
    """Call `heard` whenever a try of a request sent within gets an answer (an error
    status, a body that cannot be read) and is tried again; not for a try that times
    out or finds no connection: no answer came."""
    token = _LISTENER.set(heard)
    try:
        yield
    finally:
        _LISTENER.reset(token)


def try_answered() -> None:
    """Called by the client as a try of a request that got an answer is to be tried again."""
    heard = _LISTENER.get()
    if heard is not None:
        heard()
