"""The chosen cards as a phone list: written to a PDF file, or sent to a printer.

The words on the pages are in the reader's language; the title names the space as its
cards carry it. Both run off the window's thread (`WholeSpaceJobs`), reading a whole
space from its local copy as the pages are painted; a whole space's list in a process
of its own (`painted_in_a_process`, `print_chosen_elsewhere`), its pictures fetched
through the window's loop.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QDate, QLocale
from PySide6.QtGui import QGuiApplication
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import QDialog, QWidget

from cardviewer.api.models import Card
from cardviewer.services.phone_list import (
    OffscreenPainting,
    PhoneListTexts,
    titled,
    write_phone_list,
    write_phone_list_pdf,
)
from cardviewer.services.printer_setup import PrinterSetup, PrinterUnavailable
from cardviewer.services.process_job import run_in_process
from cardviewer.services.stoppable import Painted
from cardviewer.services.vcard_export import PhotoLookup
from cardviewer.ui.chosen_cards import ChosenCards, chosen_card_stream

log = logging.getLogger(__name__)


def phone_list_texts(chosen: ChosenCards) -> PhoneListTexts:
    """The words on each page, translated now; %1 in the title becomes the space's name."""
    return PhoneListTexts(
        title=QCoreApplication.translate("MainWindow", "Phone list of %1"),
        date=QLocale().toString(QDate.currentDate(), QLocale.FormatType.LongFormat),
        page=QCoreApplication.translate("MainWindow", "Page %1"),
        more_emails=QCoreApplication.translate("MainWindow", "+%1 more"),
        no_name=QCoreApplication.translate("MainWindow", "(no name)"),
    )


@contextlib.contextmanager
def _titled_cards(
    chosen: ChosenCards, texts: PhoneListTexts
) -> Iterator[tuple[PhoneListTexts, Iterable[Card]]]:
    """The words of each page, titled with the space's name, and the chosen cards."""
    with chosen_card_stream(chosen) as cards:
        yield titled(texts, cards, chosen.request.space_id)


def write_chosen_pdf(
    path: Path,
    *,
    chosen: ChosenCards,
    texts: PhoneListTexts,
    qr_codes: bool = False,
    pictures: PhotoLookup | None = None,
    stop: threading.Event | None = None,
    painted: Painted | None = None,
) -> int:
    """The chosen cards as a phone list in the PDF file at `path` (`qr_codes`: each
    card's QR code beside it; `pictures`: where each card's picture comes from)."""
    with _titled_cards(chosen, texts) as (titled_texts, cards):
        return write_phone_list_pdf(
            path,
            cards,
            titled_texts,
            stop=stop,
            qr_codes=qr_codes,
            pictures=pictures,
            painted=painted,
        )


def print_chosen(
    printer: QPrinter,
    *,
    chosen: ChosenCards,
    texts: PhoneListTexts,
    qr_codes: bool = False,
    pictures: PhotoLookup | None = None,
    stop: threading.Event | None = None,
    painted: Painted | None = None,
) -> int:
    """The chosen cards as a phone list on `printer`, as set up in the print dialog.

    Stopped (`PhoneListStopped`), the print job is withdrawn where the system lets it
    (`withdrawn`); elsewhere the pages painted so far still print.
    """
    with _titled_cards(chosen, texts) as (titled_texts, cards):
        printer.setDocName(titled_texts.title)
        return write_phone_list(
            printer,
            cards,
            titled_texts,
            stop=stop,
            qr_codes=qr_codes,
            pictures=pictures,
            painted=painted,
        )


def painted_elsewhere(paint: Callable[..., int]) -> OffscreenPainting[int]:
    """`paint` as a job for a process of its own, painting in the window's font (read
    under Qt's lock: any thread may ask)."""
    return OffscreenPainting(paint, QGuiApplication.font().toString())


def painted_in_a_process(
    job: OffscreenPainting[int],
    *args: Any,
    stop: threading.Event,
    painted: Painted,
    pictures: PhotoLookup | None = None,
) -> int:
    """`job(*args, …)` in a process of its own (`process_job`): a whole space's list,
    on a thread here, would make the window's every paint wait. Its `pictures` are
    asked for here."""
    served = {"pictures": pictures} if pictures is not None else None
    return run_in_process(job, *args, stop=stop, painted=painted, served=served)


def print_chosen_elsewhere(
    printer: QPrinter,
    *,
    chosen: ChosenCards,
    texts: PhoneListTexts,
    qr_codes: bool = False,
    stop: threading.Event,
    painted: Painted,
    pictures: PhotoLookup | None = None,
) -> int:
    """`print_chosen` in a process of its own, on a printer set up there as `printer`
    is here. A printer that process cannot have is printed to from this thread."""
    paint = partial(print_chosen, chosen=chosen, texts=texts, qr_codes=qr_codes)
    job = painted_elsewhere(partial(_print_set_up, PrinterSetup.of(printer), paint))
    try:
        return painted_in_a_process(job, stop=stop, painted=painted, pictures=pictures)
    except PrinterUnavailable as error:
        log.info("printing from the window's process: %s in a process of its own", error)
    return paint(printer, pictures=pictures, stop=stop, painted=painted)


def _print_set_up(setup: PrinterSetup, paint: Callable[..., int], **job: Any) -> int:
    """In a process of its own: `paint` on the printer `setup` describes."""
    return paint(setup.printer(), **job)


def ask_printer(parent: QWidget | None) -> QPrinter | None:
    """The printer and its settings, chosen in the system's print dialog; None: cancelled."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    dialog = QPrintDialog(printer, parent)
    dialog.setWindowTitle(QCoreApplication.translate("MainWindow", "Print Phone List"))
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return printer
