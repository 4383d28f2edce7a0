"""The main window wired as the app wires it, for benchmarks that page through a space."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from bench.common import DemoProcess
from cardviewer.api import CardPage, CardsClient
from cardviewer.demo import DemoServer
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.settings import Settings
from cardviewer.ui.cards.card_pages import CardPages
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.main_window import MainWindow

PageEdit = Callable[[CardPage], CardPage]


class Viewer:
    """A signed-in client, a model with avatars and a shown main window."""

    def __init__(
        self,
        server: DemoServer | DemoProcess,
        folder: Path,
        edit: PageEdit | None = None,
        *,
        prefetch: bool = True,
    ) -> None:
        self.server = server
        self.client = CardsClient(server.base_url)
        self.avatars = AvatarLoader(allow_private_hosts=True)  # the demo serves from loopback
        self.pages = CardPages(CardTableModel(self.avatars), prefetch=prefetch)
        self.model = self.pages.model
        self._edit = edit

        async def fetch(request: PageRequest) -> CardPage:
            page = await self.client.list_cards(
                request.space_id, request.page, with_emails=request.with_emails
            )
            return self._edit(page) if self._edit is not None else page

        self.pages.set_source(fetch, scope=server.base_url)
        self.window = MainWindow(
            self.pages,
            Settings.load(folder / "settings.json"),
            email=server.email,
            server_url=server.base_url,
            avatar_size=self.avatars.size,
        )

    async def start(self) -> None:
        await self.client.login(self.server.email, self.server.password)
        self.window.show()

    async def show_page(self, page: int) -> None:
        """Ask for `page` of the demo space and wait until the model holds it."""
        loaded = asyncio.get_running_loop().create_future()

        def done(_page: object) -> None:
            if not loaded.done():
                loaded.set_result(None)

        self.pages.pageLoaded.connect(done)
        try:
            self.pages.request_page(self.server.space_id, page, False)
            await asyncio.wait_for(loaded, 30)
        finally:
            self.pages.pageLoaded.disconnect(done)

    async def avatars_settled(self) -> None:
        """Wait until no avatar is waiting or downloading (30 s at most)."""
        async with asyncio.timeout(30):
            # The count changes on several signals and in tasks; polling it is simplest.
            while self.avatars.loading:  # noqa: ASYNC110
                await asyncio.sleep(0.005)

    async def aclose(self) -> None:
        self.window.hide()
        await self.pages.aclose()
        await self.avatars.aclose()
        await self.client.aclose()
        self.window.deleteLater()
