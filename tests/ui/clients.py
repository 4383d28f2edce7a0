"""API clients for UI tests: the first failure reaches the UI, as no retry hides it."""

from __future__ import annotations

from typing import Any

from cardviewer.api import CardsClient


def single_try_client(base_url: str, **kwargs: Any) -> CardsClient:
    """A client that reports the first failure instead of retrying it by itself."""
    try:
        from cardviewer.api.retry import RetryPolicy
    except ImportError:  # a client without automatic retries
        return CardsClient(base_url, **kwargs)
    return CardsClient(base_url, retry=RetryPolicy(attempts=1), **kwargs)
