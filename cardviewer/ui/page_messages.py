"""What the window says when a page arrives or fails: the texts, without the widgets.

The texts stay in the "MainWindow" translation context, where the catalog keeps them.
A sentence with a count is handed in by the window (`Plurals`): the translation tools
mark a plural only where `tr()` is called with its count.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from cardviewer import APP_NAME
from cardviewer.api import CardPage, CardViewerError, PageMeta
from cardviewer.services.page_loader import PageRequest
from cardviewer.ui.error_text import error_text, wait_text

Counted = Callable[[int], str]


@dataclass(frozen=True)
class Plurals:
    """The sentences with a count, translated where the window calls `tr()`."""

    entries_skipped: Counted
    seconds_to_wait: Counted
    minutes_to_wait: Counted


@dataclass(frozen=True)
class StateText:
    """A state page's headline, sentence and button label (no button when empty)."""

    title: str
    text: str
    action: str = ""


class PageMessages:
    """Builds the window's sentences about the page shown, or the one that failed."""

    def __init__(self, plurals: Plurals) -> None:
        self._plurals = plurals

    @staticmethod
    def no_space() -> StateText:
        return StateText(
            QCoreApplication.translate("MainWindow", "No space open"),
            QCoreApplication.translate("MainWindow", "Enter a space id and press Open."),
        )

    @staticmethod
    def not_loaded(*, copy_offered: bool) -> StateText:
        """The space asked for could not be loaded (the bar above says why), and no page
        of it is shown; where it has a synced copy, where to find that."""
        if copy_offered:
            text = QCoreApplication.translate(
                "MainWindow",
                "The space's cards could not be loaded. Choose the whole space above to browse "
                "its synced copy.",
            )
        else:
            text = QCoreApplication.translate(
                "MainWindow", "The space's cards could not be loaded; the message above says why."
            )
        return StateText(QCoreApplication.translate("MainWindow", "No cards shown"), text)

    @staticmethod
    def loading(request: PageRequest) -> StateText:
        """While the first page of a space is on its way, with a way to stop waiting."""
        return StateText(
            loading_title(request),
            QCoreApplication.translate("MainWindow", "The cards appear as soon as they arrive."),
            QCoreApplication.translate("MainWindow", "Stop Loading"),
        )

    @staticmethod
    def loading_summary(request: PageRequest) -> str:
        """The page bar's summary while another page is on its way."""
        text = QCoreApplication.translate("MainWindow", "Loading page %1…")
        return text.replace("%1", str(request.page))

    @staticmethod
    def empty_space() -> StateText:
        """A space without cards, as its pages or its local copy show it."""
        return StateText(
            QCoreApplication.translate("MainWindow", "No cards"),
            QCoreApplication.translate("MainWindow", "This space has no cards yet."),
        )

    @staticmethod
    def empty_page(meta: PageMeta) -> StateText:
        """An empty space, or a page past the last one (the space shrank, or a number was typed)."""
        if meta.total == 0:
            return PageMessages.empty_space()
        return StateText(
            QCoreApplication.translate("MainWindow", "Nothing here"),
            QCoreApplication.translate("MainWindow", "There are no cards on this page."),
            QCoreApplication.translate("MainWindow", "Go to the Last Page (%1)").replace(
                "%1", str(meta.last_page)
            ),
        )

    @staticmethod
    def window_title(space_id: str) -> str:
        title = QCoreApplication.translate(
            "MainWindow", "%1 \u2014 %2", "window title: space id, app name"
        )
        return title.replace("%1", space_id).replace("%2", APP_NAME)

    def unread_note(self, page: CardPage) -> str | None:
        """What on the page could not be read, if anything: whole entries, or some fields."""
        if page.skipped == 1:
            return QCoreApplication.translate(
                "MainWindow", "1 entry on this page could not be read and is not shown."
            )
        if page.skipped:
            return self._plurals.entries_skipped(page.skipped)
        if any(card.invalid_fields for card in page.cards):
            return QCoreApplication.translate(
                "MainWindow",
                "Some details on this page could not be read; "
                "they are marked \u201c(invalid)\u201d.",
            )
        return None

    def failure(
        self, request: PageRequest, error: CardViewerError, shown: PageRequest | None
    ) -> str:
        """The error's own sentence, plus how long to wait and what is still on screen.

        `shown` is the page still on screen, None when there is none.
        """
        parts = [error_text(error)]
        wait = self.server_wait(error)
        if wait is not None:
            parts.append(wait)
        if shown is not None:
            if shown.space_id == request.space_id:
                parts.append(
                    QCoreApplication.translate("MainWindow", "Page %1 is still shown.").replace(
                        "%1", str(shown.page)
                    )
                )
            else:
                parts.append(
                    QCoreApplication.translate(
                        "MainWindow", "The cards of %1 are still shown."
                    ).replace("%1", shown.space_id)
                )
        return " ".join(parts)

    def server_wait(self, error: CardViewerError) -> str | None:
        """When the server said to try again (`Retry-After`), if that is worth saying."""
        return wait_text(error, self._plurals.seconds_to_wait, self._plurals.minutes_to_wait)


def loading_title(request: PageRequest) -> str:
    """Which page of which space is on its way, for the centre and the status bar."""
    text = QCoreApplication.translate("MainWindow", "Loading page %1 of %2…")
    return text.replace("%1", str(request.page)).replace("%2", request.space_id)
