"""Export Page, Export as vCards or PDF, Print, Export All and Sync Space, as the window
starts them.

Each picks what it works on (the page on screen, or its whole space), asks for a file
where one is written, and hands the rest to `WholeSpaceJobs`. Where there is nothing
to work on yet, a status note says so.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QWidget

from cardviewer.api.models import Card
from cardviewer.services.card_export import ExportFormat, suggested_space_filename
from cardviewer.services.csv_export import safe_file_stem, suggested_filename
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.phone_list import SUFFIX as PDF_SUFFIX
from cardviewer.services.settings import Settings
from cardviewer.services.vcard_export import SUFFIX as VCARD_SUFFIX
from cardviewer.ui.cards.card_table_model import CARD_ROLE, CardTableModel
from cardviewer.ui.cards.card_table_view import CardTableView
from cardviewer.ui.cards.space_table_model import SpaceTableModel
from cardviewer.ui.chosen_cards import ChosenCards
from cardviewer.ui.email_question import EmailChoice, ask_about_emails
from cardviewer.ui.phone_list_output import (
    ask_printer as ask_printer_dialog,
)
from cardviewer.ui.phone_list_output import (
    painted_elsewhere,
    painted_in_a_process,
    phone_list_texts,
    print_chosen,
    print_chosen_elsewhere,
    write_chosen_pdf,
)
from cardviewer.ui.whole_space_jobs import WholeSpaceJobs

AskPath = Callable[..., Path | None]
"""Asks for the file to write: `(suggested)`, or `(suggested, title=…)`; None: cancelled."""
AskPrinter = Callable[[], QPrinter | None]
"""Asks for the printer to print on; None: cancelled."""
AskEmails = Callable[..., EmailChoice]
"""Asks about cards without e-mail addresses: `(can_load=…)`."""

NOTE_MS = 5000


class ExportCommands(QObject):
    """Starts the exports and Sync Space for what `model` shows."""

    statusMessage = Signal(str, int)
    """A note for the status bar, and for how many milliseconds."""
    emailsWanted = Signal()
    """The page is to be loaded again with its e-mail addresses (Include e-mails)."""

    def __init__(
        self,
        model: CardTableModel,
        jobs: WholeSpaceJobs,
        settings: Settings,
        ask_path: AskPath,
        parent: QObject | None = None,
        shown_space: Callable[[], SpaceTableModel | None] = lambda: None,
        table: Callable[[], CardTableView | None] = lambda: None,
        ask_printer: AskPrinter | None = None,
    ) -> None:
        super().__init__(parent)
        window = parent if isinstance(parent, QWidget) else None
        self.ask_printer = ask_printer or (lambda: ask_printer_dialog(window))
        """Asks for the printer to print on (the system's print dialog)."""
        self.ask_emails: AskEmails = partial(ask_about_emails, window)
        """Asks what to do about cards loaded without e-mail addresses."""
        self._after_emails: Callable[[], None] | None = None
        self._after_sort: dict[str, Callable[[], None]] = {}
        """The commands to go on with once every row of the sort or filter shown is in:
        the last export asked for meanwhile, and Sync Space."""
        self._sorting: SpaceTableModel | None = None
        """The whole space whose sort or filter `_after_sort` waits for."""
        self._model = model
        self._table = table
        """The table shown, whose selection the vCards export saves."""
        self._shown_space = shown_space
        self._jobs = jobs
        self._settings = settings
        self._ask_path = ask_path

    def export_page(self) -> None:
        """Ask for a file name and save the page on screen as CSV or Excel workbook.

        While the whole space is shown from its local copy, the cards shown are saved
        instead: filtered, in their order, or only what the last sync changed.
        """
        space = self._shown_space()
        if space is not None:
            if self._rows_all_in(again=self.export_page):
                self._export_shown(space)
            return
        page, request = self._model.page, self._model.current_request
        if page is None or request is None or page.is_empty:
            text = QCoreApplication.translate("MainWindow", "There are no cards to export.")
            self.statusMessage.emit(text, NOTE_MS)
            return
        name = suggested_filename(request.space_id, page.meta.current_page)
        suggested = (self._jobs.export_dir / name).with_suffix(self.export_format().value)
        path = self._ask_path(suggested)
        if path is not None:
            self._jobs.export_page(page, request, path)

    def _export_shown(self, space: SpaceTableModel) -> None:
        positions = space.positions()
        # Shown offline too, when no page of the space came from the server.
        request = PageRequest(space.path.stem, 1, with_emails=space.with_emails)
        if not positions:
            text = QCoreApplication.translate("MainWindow", "There are no cards to export.")
            self.statusMessage.emit(text, NOTE_MS)
            return
        name = f"{safe_file_stem(request.space_id)}-{_shown_kind(space)}"
        name += self.export_format().value
        title = QCoreApplication.translate("MainWindow", "Export Cards Shown")
        path = self._ask_path(self._jobs.export_dir / name, title=title)
        if path is not None:
            self._jobs.export_shown(space.path, positions, request, path, space.generation)

    def chosen_cards(self) -> ChosenCards | None:
        """The cards a vCard or PDF export or a print works on; None (and a note): none.

        The cards selected when there are two or more, else every card shown: the page,
        or the whole space as shown (filtered, in its order), read from its local copy.
        """
        table = self._table()
        rows = table.selected_rows() if table is not None else []
        selected = len(rows) > 1
        space = self._shown_space()
        if space is not None:
            copy = PageRequest(space.path.stem, 1, with_emails=space.with_emails)
            shown = [space.position(row) for row in rows] if selected else space.positions()
            positions = [position for position in shown if position is not None]
            if not positions:
                self._nothing_to_export()
                return None
            kind = "selected" if selected else _shown_kind(space)
            stem = f"{safe_file_stem(copy.space_id)}-{kind}"
            return ChosenCards(
                copy, stem, store_path=space.path, positions=positions, generation=space.generation
            )
        page, request = self._model.page, self._model.current_request
        if page is None or request is None or page.is_empty:
            self._nothing_to_export()
            return None
        model = table.model() if table is not None else None
        cards = (
            [model.index(row, 0).data(CARD_ROLE) for row in rows]
            if selected and model is not None
            else page.cards
        )
        stem = Path(suggested_filename(request.space_id, page.meta.current_page)).stem
        if selected:
            stem = f"{safe_file_stem(request.space_id)}-selected"
        valid = [card for card in cards if isinstance(card, Card)]
        return ChosenCards(request, stem, cards=valid)

    def export_vcards(self) -> None:
        """Ask for a file name and save the chosen cards as vCards for Outlook and phones,
        with their pictures as photos where Preferences say so."""
        if not self._rows_all_in(again=self.export_vcards):
            return
        chosen = self.chosen_cards()
        if chosen is None or not self._emails_settled(chosen, again=self.export_vcards):
            return
        title = QCoreApplication.translate("MainWindow", "Export as vCards")
        path = self._ask_path(self._jobs.export_dir / f"{chosen.stem}{VCARD_SUFFIX}", title=title)
        if path is None:
            return
        photos = self._settings.vcard_photos
        if chosen.store_path is not None:
            self._jobs.export_shown_vcards(
                chosen.store_path,
                chosen.positions,
                chosen.request,
                path,
                photos=photos,
                generation=chosen.generation,
            )
        else:
            self._jobs.export_vcards(chosen.cards, chosen.request, path, photos=photos)

    def export_pdf(self) -> None:
        """Ask for a file name and save the chosen cards as a phone list to print (PDF),
        with QR codes and pictures where Preferences say so."""
        if not self._rows_all_in(again=self.export_pdf):
            return
        chosen = self.chosen_cards()
        if chosen is None or not self._emails_settled(chosen, again=self.export_pdf):
            return
        title = QCoreApplication.translate("MainWindow", "Export as PDF")
        path = self._ask_path(self._jobs.export_dir / f"{chosen.stem}{PDF_SUFFIX}", title=title)
        if path is None:
            return
        if not path.suffix:
            path = path.with_suffix(PDF_SUFFIX)
        write = partial(
            write_chosen_pdf,
            chosen=chosen,
            texts=phone_list_texts(chosen),
            qr_codes=self._settings.phone_list_qr_codes,
        )
        if chosen.store_path is not None:  # a whole space's cards: in a process of its own
            write = partial(painted_in_a_process, painted_elsewhere(write))
        pictures = self._settings.phone_list_pictures
        self._jobs.export_with(write, chosen.request, path, total=chosen.count, pictures=pictures)

    def print_cards(self) -> None:
        """Ask for a printer and print the chosen cards as a phone list."""
        if not self._rows_all_in(again=self.print_cards):
            return
        chosen = self.chosen_cards()
        if chosen is None or not self._emails_settled(chosen, again=self.print_cards):
            return
        printer = self.ask_printer()
        if printer is None:
            return
        whole_space = chosen.store_path is not None  # in a process of its own
        paint = partial(
            print_chosen_elsewhere if whole_space else print_chosen,
            printer,
            chosen=chosen,
            texts=phone_list_texts(chosen),
            qr_codes=self._settings.phone_list_qr_codes,
        )
        pictures = self._settings.phone_list_pictures
        self._jobs.print_with(paint, chosen.request, total=chosen.count, pictures=pictures)

    def _rows_all_in(self, *, again: Callable[[], None], kind: str = "export") -> bool:
        """True to go on: every row of the order or filter of the whole space shown is in
        (or the pages are shown); else `again` runs once they are, and a note says so.

        The first rows of a sort come before the rest (`SpaceQueries`): taken then, a file
        named for every card shown held those first rows alone.
        """
        space = self._shown_space()
        if space is None or not space.is_sorting:
            return True
        self._after_sort[kind] = again  # the last of its kind asked for meanwhile
        if self._sorting is not space:
            self._sorting = space
            space.queryFinished.connect(self._rows_in, Qt.ConnectionType.SingleShotConnection)
            # Let go before its rows are in (a newer copy shown): go on with what is shown.
            space.destroyed.connect(partial(self._sorting_gone, space))
        text = QCoreApplication.translate(
            "MainWindow", "Waiting for the cards shown to be sorted; then this goes on."
        )
        self.statusMessage.emit(text, NOTE_MS)
        return False

    def _rows_in(self) -> None:
        """The sort or filter waited for is done: the command asked for goes on."""
        waiting, self._after_sort, self._sorting = self._after_sort, {}, None
        for again in waiting.values():
            again()

    def _sorting_gone(self, space: SpaceTableModel) -> None:
        """The whole space waited for is gone before its rows were all in: the commands
        go on with the whole space shown now (waiting for it in turn); with the pages
        shown instead, an export is called off, and a note says so (Sync Space, which
        waited only for the sort to let go of the copy, goes on)."""
        if space is not self._sorting:
            return
        if self._shown_space() is not None:
            self._rows_in()
            return
        export = self._after_sort.pop("export", None)
        if export is not None:
            text = QCoreApplication.translate(
                "MainWindow",
                "The whole space is no longer shown, so what waited for its sort was called off.",
            )
            self.statusMessage.emit(text, NOTE_MS)
        self._rows_in()

    def _emails_settled(self, chosen: ChosenCards, *, again: Callable[[], None]) -> bool:
        """True to go on with `chosen` as it is; else the person chose to stop, or to load
        the page again with its e-mail addresses, after which `again` runs by itself."""
        if chosen.request.with_emails:
            return True
        choice = self.ask_emails(can_load=chosen.store_path is None)
        if choice is EmailChoice.LOAD:
            self._after_emails = again
            self._model.modelReset.connect(self._page_changed)
            self.emailsWanted.emit()
        return choice is EmailChoice.WITHOUT

    def _page_changed(self) -> None:
        """The page came again: with its e-mail addresses, the command asked for goes on."""
        self._model.modelReset.disconnect(self._page_changed)
        again, self._after_emails = self._after_emails, None
        request = self._model.current_request
        if again is not None and request is not None and request.with_emails:
            again()

    def ask_qr_path(self, suggested: Path) -> Path | None:
        """Where a card's QR code goes: offered where the last export went."""
        title = QCoreApplication.translate("MainWindow", "Save QR Code")
        return self._ask_path(self._jobs.export_dir / suggested.name, title=title)

    def _nothing_to_export(self) -> None:
        text = QCoreApplication.translate("MainWindow", "There are no cards to export.")
        self.statusMessage.emit(text, NOTE_MS)

    def export_all(self) -> None:
        """Ask for a file name and save every card of the space shown, page after page."""
        request = self._whole_space_request()
        if request is None or self._jobs.raise_running_fetch():
            return
        name = suggested_space_filename(request.space_id, self.export_format())
        path = self._ask_path(
            self._jobs.export_dir / name,
            title=QCoreApplication.translate("MainWindow", "Export All Pages"),
        )
        if path is not None:
            self._jobs.export_all(request, path)

    def sync_space(self, store_path: Callable[[str], Path | None]) -> None:
        """Fetch every card of the space shown into its local copy (at `store_path(id)`).

        A sort of the copy shown may be writing to it (the first sort in a language the
        copy was not synced in ranks its texts anew, seconds at 100,000 cards): the
        sync then begins once the sort is done, and a note says so, rather than
        failing as if another program held the copy.
        """
        request = self._whole_space_request()
        path = store_path(request.space_id) if request is not None else None
        if request is None or path is None:
            return
        if self._rows_all_in(again=partial(self.sync_space, store_path), kind="sync"):
            self._jobs.sync(request, path)

    def export_format(self) -> ExportFormat:
        """The file type an export suggests, as chosen in Preferences."""
        return ExportFormat.XLSX if self._settings.export_format == "xlsx" else ExportFormat.CSV

    def _whole_space_request(self) -> PageRequest | None:
        """The space shown, if its pages can be fetched; else None, and a note saying so."""
        request = self._model.current_request
        if request is None or not self._jobs.can_fetch_whole_space:
            text = QCoreApplication.translate("MainWindow", "Open a space first.")
            self.statusMessage.emit(text, NOTE_MS)
            return None
        return request


def _shown_kind(space: SpaceTableModel) -> str:
    """What a file of the whole space's cards shown holds, for its name: "all", "shown"
    (filtered), or the change shown ("added", "removed", "changed")."""
    if space.change is not None:
        return space.change.value
    return "shown" if space.filter_terms() else "all"
