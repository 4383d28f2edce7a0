"""The one rule for when a session is over, as login, the saved session and the app use it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cardviewer.api.expiry import has_expired

END = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_over_from_the_moment_of_expiry_on():
    assert not has_expired(END, END - timedelta(microseconds=1))
    assert has_expired(END, END)
    assert has_expired(END, END + timedelta(days=1))


def test_without_an_expiry_never_over():
    assert not has_expired(None, END)
    assert not has_expired(None)


def test_now_is_the_default():
    now = datetime.now(UTC)
    assert has_expired(now - timedelta(minutes=1))
    assert not has_expired(now + timedelta(hours=1))
