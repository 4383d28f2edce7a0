"""Failures of the network and the platform, injected on demand to test a client's handling.

A test queues a fault for a kind of request (`cards`, `login`, `avatar` or `any`); the
next matching request consumes it and fails that way. Faults are used up in the order
they were queued.
"""

from __future__ import annotations

import enum
import threading
from dataclasses import dataclass
from typing import Any, Literal, get_args

Target = Literal["cards", "login", "avatar", "any"]
RequestKind = Literal["cards", "login", "avatar", "other"]

DEFAULT_SLOW_DELAY = 30.0


class Fault(enum.Enum):
    HTML_502 = "html_502"
    """A proxy in front of the platform answers 502 with its own HTML error page."""
    TRUNCATED_JSON = "truncated_json"
    """200 with the body cut in the middle; the connection then closes."""
    DROP_CONNECTION = "drop_connection"
    """The connection closes without any response."""
    SLOW = "slow"
    """The answer comes after `delay` seconds (30 unless given), then normally."""
    RATE_LIMITED = "rate_limited"
    """429 "Too Many Attempts." with a `Retry-After` header."""
    SERVICE_UNAVAILABLE = "service_unavailable"
    """503, as Laravel answers in maintenance mode (JSON when JSON is accepted)."""
    REVOKED_TOKEN = "revoked_token"
    """401 "Unauthenticated." even though the token is valid."""
    WRONG_TYPES = "wrong_types"
    """200, but some values have the wrong type (cards, the session, or an avatar)."""


@dataclass(frozen=True, slots=True)
class ActiveFault:
    """A fault a request consumed, with the parameters it was queued with."""

    fault: Fault
    delay: float = DEFAULT_SLOW_DELAY
    retry_after: int = 1


@dataclass(slots=True)
class _Pending:
    active: ActiveFault
    target: Target
    times: int


class FaultInjector:
    """A thread-safe queue of faults waiting for matching requests."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: list[_Pending] = []

    def inject(
        self,
        fault: Fault,
        *,
        times: int = 1,
        target: Target = "cards",
        delay: float | None = None,
        retry_after: int = 1,
    ) -> None:
        """Make the next `times` requests of kind `target` fail with `fault`."""
        if not isinstance(fault, Fault):
            raise TypeError(f"not a Fault: {fault!r}")
        if target not in get_args(Target):
            raise ValueError(f"target must be one of {get_args(Target)}, not {target!r}")
        if times < 1:
            raise ValueError(f"times must be at least 1, not {times}")
        if delay is not None and delay < 0:
            raise ValueError(f"delay must not be negative, not {delay}")
        if retry_after < 0:
            raise ValueError(f"retry_after must not be negative, not {retry_after}")
        active = ActiveFault(
            fault, DEFAULT_SLOW_DELAY if delay is None else float(delay), retry_after
        )
        with self._lock:
            self._queue.append(_Pending(active, target, times))

    def take(self, kind: RequestKind) -> ActiveFault | None:
        """Consume the oldest fault queued for this kind of request, if there is one."""
        with self._lock:
            for pending in self._queue:
                if pending.target in ("any", kind):
                    pending.times -= 1
                    if pending.times == 0:
                        self._queue.remove(pending)
                    return pending.active
        return None

    def pending(self) -> int:
        """How many requests will still fail."""
        with self._lock:
            return sum(p.times for p in self._queue)

    def clear(self) -> None:
        with self._lock:
            self._queue.clear()


def corrupt_cards(cards: list[dict[str, Any]]) -> None:
    """Give every other card one value of the wrong type, each kind of mistake in turn."""
    for n, card in enumerate(cards[::2]):
        mistake = n % 5
        if mistake == 0:
            card["connects"] = "many"
        elif mistake == 1:
            card["created_at"] = "yesterday"
        elif mistake == 2:
            card["public"] = "maybe"
        elif mistake == 3:
            card["avatar"] = str(card["avatar"]["src"])
        else:
            card["display_name"] = 4711


def wrong_session() -> dict[str, Any]:
    """A login answer whose values have the wrong types."""
    return {"access_token": 4711, "session_id": None, "expires_at": "tomorrow"}
