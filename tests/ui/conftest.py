"""Fixtures of the window tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest
from PySide6.QtCore import QLocale

from cardviewer import i18n
from cardviewer.demo import DemoServer
from cardviewer.services.settings import Settings
from cardviewer.ui.main_window import MainWindow
from tests.ui.clients import single_try_client
from tests.ui.windows import Closer, open_window

MakeDemoWindow = Callable[..., MainWindow]
"""Opens a main window signed in to the demo server; `transport=` to put in between."""


@pytest.fixture
def demo_windows(qtbot, arun, demo_server: DemoServer) -> Iterator[MakeDemoWindow]:
    """Opens main windows signed in to the demo server, and closes them afterwards."""
    closers: list[Closer] = []

    def open_(transport: httpx.AsyncBaseTransport | None = None) -> MainWindow:
        client = single_try_client(demo_server.base_url, transport=transport)
        arun(client.login(demo_server.email, demo_server.password))
        window = open_window(qtbot, client, Settings.load(), closers, email=demo_server.email)
        closers.append(client.aclose)  # after the window's model, which uses it
        return window

    yield open_
    for close in closers:
        arun(close())


@pytest.fixture
def demo_window(demo_windows: MakeDemoWindow) -> MainWindow:
    """A main window signed in to the demo server, with no page open; closed afterwards."""
    return demo_windows()


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
