"""Fixtures of the API tests."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def fewer_logs() -> Iterator[None]:
    """Thousands of expected warnings about set-aside fields would only slow the run."""
    logger = logging.getLogger("cardviewer.api")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)
