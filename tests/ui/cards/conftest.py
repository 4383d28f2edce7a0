"""Fixtures of the card table's tests: a signed-in client of the demo server, an avatar loader."""

from __future__ import annotations

import pytest

from cardviewer.services.avatar_loader import AvatarLoader
from tests.ui.clients import single_try_client


@pytest.fixture
def client(demo_server, arun):
    client = single_try_client(demo_server.base_url)
    arun(client.login(demo_server.email, demo_server.password))
    yield client
    arun(client.aclose())


@pytest.fixture
def avatars(qloop, arun):
    # The table is under test, not the disk; the demo's image host is on loopback.
    loader = AvatarLoader(use_disk_cache=False, allow_private_hosts=True)
    yield loader
    arun(loader.aclose())
