"""A demo server per test module, reset after each test, and an HTTP client for it."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from cardviewer.demo import DemoConfig, DemoServer


@pytest.fixture(scope="module")
def server() -> Iterator[DemoServer]:
    with DemoServer(DemoConfig()) as running:
        yield running


@pytest.fixture
def demo(server: DemoServer) -> Iterator[DemoServer]:
    """The module's server, with faults, latency and the request log reset after use."""
    server.clear_requests()
    yield server
    server.faults.clear()
    server.config.latency = 0.0
    server.config.avatar_latency = 0.0
    server.config.per_page = 10
    server.clear_requests()


@pytest.fixture
def client(demo: DemoServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=demo.base_url, timeout=5.0) as http:
        yield http


@pytest.fixture
def cdn(demo: DemoServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=demo.avatar_base_url, timeout=10.0) as http:
        yield http


@pytest.fixture
def auth(demo: DemoServer) -> dict[str, str]:
    return {"Authorization": f"Bearer {demo.issue_token()['access_token']}"}
