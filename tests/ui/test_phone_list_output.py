"""A whole space's phone list painted, or printed, in a process of its own."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest
from PySide6.QtPrintSupport import QPrinter

from cardviewer.api.models import Card, parse_card
from cardviewer.services.card_store import CardStore
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.phone_list import PhoneListStopped
from cardviewer.services.printer_setup import PrinterSetup
from cardviewer.services.process_job import run_in_process
from cardviewer.ui import phone_list_output
from cardviewer.ui.chosen_cards import ChosenCards
from cardviewer.ui.phone_list_output import (
    painted_elsewhere,
    painted_in_a_process,
    phone_list_texts,
    print_chosen,
    print_chosen_elsewhere,
    write_chosen_pdf,
)
from tests.pdf_layout import layouts
from tests.ui.test_export_commands import pdf_text

SHOWN = PageRequest("space-1", 1, True)
CARDS = [
    parse_card(
        {
            "uuid": f"c{n}",
            "display_name": f"Person {n} Müller-Lüdenscheidt" if n % 7 else f"Zoë {n}",
            "position": "Head of Procurement" if n % 3 else None,
            "emails": [f"p{n}@x.example", f"person.{n}@example.com"][: 1 + n % 2],
        }
    )
    for n in range(121)
]


@pytest.fixture
def chosen(tmp_path: Path) -> ChosenCards:
    """Every other card of a synced space, last first, as a filter and a sort leave them."""
    path = tmp_path / "space.sqlite"
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        sync.add(CARDS)
        sync.finish()
    return ChosenCards(SHOWN, "space-1", store_path=path, positions=list(range(120, -1, -2)))


@pytest.fixture
def processes(monkeypatch) -> list[object]:
    """The jobs `phone_list_output` hands to a process of its own."""
    ran: list[object] = []

    def recorded(job: Callable[..., int], *args, stop, painted, served=None) -> int:
        ran.append(job)
        return run_in_process(job, *args, stop=stop, painted=painted, served=served)

    monkeypatch.setattr(phone_list_output, "run_in_process", recorded)
    return ran


def test_a_list_painted_in_a_process_is_the_list_painted_here(qapp, chosen, processes, tmp_path):
    write = partial(write_chosen_pdf, chosen=chosen, texts=phone_list_texts(chosen))
    here = write(tmp_path / "here.pdf")
    told: list[int] = []
    there = painted_in_a_process(
        painted_elsewhere(write),
        tmp_path / "there.pdf",
        stop=threading.Event(),
        painted=told.append,
    )
    assert len(processes) == 1
    assert here == there == 61
    assert told == [61], "its progress told as a thread's"
    assert layouts(tmp_path / "there.pdf") == layouts(tmp_path / "here.pdf")
    text = pdf_text(tmp_path / "there.pdf")
    assert text.index("Person 120") < text.index("Page 2") < text.index("Person 2 ")


def test_a_list_called_off_in_its_process_keeps_the_earlier_file(qapp, chosen, tmp_path):
    target = tmp_path / "phones.pdf"
    target.write_bytes(b"the list before")
    stop = threading.Event()
    stop.set()
    write = partial(write_chosen_pdf, chosen=chosen, texts=phone_list_texts(chosen))
    with pytest.raises(PhoneListStopped) as stopped:
        painted_in_a_process(painted_elsewhere(write), target, stop=stop, painted=print)
    assert stopped.value.withdrawn is False
    assert target.read_bytes() == b"the list before"
    assert [path.name for path in tmp_path.iterdir() if "phones" in path.name] == ["phones.pdf"]


def pdf_printer(path: Path) -> QPrinter:
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(path))
    return printer


def test_a_print_of_a_whole_space_is_painted_in_a_process_as_set_up_here(
    qapp, chosen, processes, tmp_path
):
    printer = pdf_printer(tmp_path / "printed.pdf")
    texts = phone_list_texts(chosen)
    count = print_chosen_elsewhere(
        printer, chosen=chosen, texts=texts, stop=threading.Event(), painted=print
    )
    assert count == 61
    assert len(processes) == 1
    print_chosen(pdf_printer(tmp_path / "here.pdf"), chosen=chosen, texts=texts)
    assert layouts(tmp_path / "printed.pdf") == layouts(tmp_path / "here.pdf")


def test_a_printer_its_process_cannot_have_is_printed_to_from_here(
    qapp, chosen, processes, tmp_path, monkeypatch, caplog
):
    taken = PrinterSetup.of

    def elsewhere_unknown(printer: QPrinter) -> PrinterSetup:
        native = QPrinter.OutputFormat.NativeFormat.value
        return replace(taken(printer), printer_name="Not there", output_format=native)

    monkeypatch.setattr(PrinterSetup, "of", elsewhere_unknown)
    printer = pdf_printer(tmp_path / "printed.pdf")
    with caplog.at_level(logging.INFO, logger="cardviewer.ui.phone_list_output"):
        count = print_chosen_elsewhere(
            printer,
            chosen=chosen,
            texts=phone_list_texts(chosen),
            stop=threading.Event(),
            painted=print,
        )
    assert count == 61
    assert len(processes) == 1, "tried there first"
    assert "printing from the window's process" in caplog.text
    assert "Not there" in caplog.text
    assert "Person 120" in pdf_text(tmp_path / "printed.pdf")


def test_pictures_of_a_list_in_a_process_are_asked_for_here(qapp, chosen, tmp_path):
    asked: list[tuple[int, list[str]]] = []

    def pictures(cards: Sequence[Card]) -> dict[str, bytes]:
        asked.append((threading.get_ident(), [card.uuid or "" for card in cards]))
        return {}

    write = partial(write_chosen_pdf, chosen=chosen, texts=phone_list_texts(chosen))
    count = painted_in_a_process(
        painted_elsewhere(write),
        tmp_path / "faces.pdf",
        stop=threading.Event(),
        painted=print,
        pictures=pictures,
    )
    assert count == 61
    assert {caller for caller, _ids in asked} == {threading.get_ident()}
    assert [uuid for _caller, ids in asked for uuid in ids] == [f"c{n}" for n in range(120, -1, -2)]
