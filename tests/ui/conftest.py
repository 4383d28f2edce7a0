"""Fixtures of the window tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QLocale

from cardviewer import i18n
from cardviewer.demo import DemoServer
from cardviewer.services.settings import Settings
from cardviewer.ui.main_window import MainWindow
from tests.ui.clients import single_try_client
from tests.ui.windows import Closer, open_window


@pytest.fixture
def demo_window(qtbot, arun, demo_server: DemoServer) -> Iterator[MainWindow]:
    """A main window signed in to the demo server, with no page open; closed afterwards."""
    client = single_try_client(demo_server.base_url)
    arun(client.login(demo_server.email, demo_server.password))
    closers: list[Closer] = []
    yield open_window(qtbot, client, Settings.load(), closers, email=demo_server.email)
    for close in closers:
        arun(close())
    arun(client.aclose())


@pytest.fixture(params=["en", "de"])
def language(request: pytest.FixtureRequest, qapp) -> Iterator[str]:
    """The interface's language, English or German, for the whole test."""
    code: str = request.param
    if code != "en":
        i18n.install_translators(qapp, code)
    yield code
    if code != "en":
        i18n.remove_translators()
        QLocale.setDefault(QLocale.system())
