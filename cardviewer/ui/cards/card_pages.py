"""The pages of a space as the window sees them: loaded in the background, shown in a table.

`CardPages` hands requests to a Qt-free `PageLoader`, which decides which answer may be
shown; what it decides goes into the `CardTableModel` and out as signals. `request_page()`
is a plain slot: it starts the load and returns at once. The page on screen stays until
its successor has arrived, so a failed or slow load never empties the table.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, Signal

from cardviewer.api.errors import CardViewerError
from cardviewer.api.models import CardPage
from cardviewer.services.page_loader import LoaderTexts, PageLoader, PageRequest, PageSource
from cardviewer.ui.cards.card_table_model import CardTableModel


class CardPages(QObject):
    """Asks for pages, shows the one that lands in `model`, and says what happened."""

    loadingChanged = Signal(bool)
    pageLoaded = Signal(object)
    """The `CardPage` now shown."""
    loadFailed = Signal(object, object)
    """The `PageRequest` that failed and the `CardViewerError` saying why."""

    def __init__(
        self, model: CardTableModel, parent: QObject | None = None, *, prefetch: bool = False
    ) -> None:
        super().__init__(parent)
        self.model = model
        texts = LoaderTexts(
            no_source=QCoreApplication.translate("CardTableModel", "Please sign in first."),
            unexpected=QCoreApplication.translate(
                "CardTableModel", "Something went wrong while loading the page. Please try again."
            ),
        )
        self._loader = PageLoader(self, prefetch=prefetch, texts=texts)

    # State

    @property
    def page(self) -> CardPage | None:
        """The page on screen."""
        return self.model.page

    @property
    def current_request(self) -> PageRequest | None:
        """The request whose page is on screen."""
        return self.model.current_request

    @property
    def pending_request(self) -> PageRequest | None:
        """The request being loaded, if any."""
        return self._loader.pending_request

    @property
    def last_request(self) -> PageRequest | None:
        """The request asked for last, loaded, failed or under way: what `retry` asks again."""
        return self._loader.last_request

    @property
    def is_loading(self) -> bool:
        return self._loader.is_loading

    @property
    def is_prefetching(self) -> bool:
        """Neighbouring pages are being fetched in the background."""
        return self._loader.is_prefetching

    # Requests

    def set_source(self, source: PageSource | None, scope: str = "") -> None:
        """Fetch pages from `source` from now on; a load from the previous one is dropped.

        `scope` names where the pages come from (the server), for the page cache.
        """
        self._loader.set_source(source, scope)

    def request_page(self, space_id: str, page: int, with_emails: bool) -> None:
        """Show a page: at once if it was fetched already, else once it has arrived."""
        self._loader.request_page(PageRequest(space_id, page, with_emails))

    def fetch_ahead(self, space_id: str, page: int, with_emails: bool) -> None:
        """Start fetching a page about to be asked for (`PageLoader.fetch_ahead`)."""
        self._loader.fetch_ahead(PageRequest(space_id, page, with_emails))

    def retry(self) -> None:
        """Request the most recent page again from the server (after a failure, or F5)."""
        self._loader.retry()

    def cancel(self) -> None:
        """Stop loading the page asked for; the page on screen stays."""
        self._loader.cancel()

    def clear(self) -> None:
        """Show nothing and stop any load."""
        self._loader.forget()
        self.model.clear()

    async def aclose(self) -> None:
        """Cancel the load under way and wait until it has ended."""
        await self._loader.aclose()

    # What the loader decides (PageListener)

    def show_page(self, request: PageRequest, page: CardPage) -> None:
        self.model.show_page(request, page)
        self.pageLoaded.emit(page)

    def report_failure(self, request: PageRequest, error: CardViewerError) -> None:
        self.loadFailed.emit(request, error)

    def loading_changed(self, loading: bool) -> None:
        self.loadingChanged.emit(loading)
