"""A main window over a real API client (of the demo server or a mock), as the UI tests use it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from pytestqt.qtbot import QtBot

from cardviewer import paths
from cardviewer.api import CardPage, CardsClient
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.settings import Settings
from cardviewer.ui.cards.card_pages import CardPages
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.main_window import MainWindow

Closer = Callable[[], Awaitable[object]]


def open_window(
    qtbot: QtBot,
    client: CardsClient,
    settings: Settings,
    closers: list[Closer],
    *,
    email: str = "ada@example.com",
) -> MainWindow:
    """Show a window whose pages come from `client`; what to close afterwards goes to `closers`.

    The window is signed in as `email` on the client's server.
    """
    # The API is under test, not the disk; the demo's image host is on loopback.
    avatars = AvatarLoader(use_disk_cache=False, allow_private_hosts=True)
    pages = CardPages(CardTableModel(avatars))

    async def fetch(request: PageRequest) -> CardPage:
        return await client.list_cards(
            request.space_id, request.page, with_emails=request.with_emails
        )

    pages.set_source(fetch)
    window = MainWindow(
        pages,
        settings,
        email=email,
        server_url=client.server_url,
        source=fetch,
        avatars=avatars,
        store_folder=paths.store_dir(),  # a fresh folder for each test (tests/conftest.py)
    )
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    closers.extend([window.aclose, pages.aclose, avatars.aclose])
    return window
