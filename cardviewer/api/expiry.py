"""When a session is over: one rule for the answer to login, the saved session and the app.

A module of its own, with nothing but `datetime`, so that checking a saved session at
start-up does not import pydantic.
"""

from __future__ import annotations

from datetime import UTC, datetime


def has_expired(expires_at: datetime | None, now: datetime | None = None) -> bool:
    """Over from `expires_at` on; a session without an expiry is never over."""
    return expires_at is not None and (now or datetime.now(UTC)) >= expires_at
