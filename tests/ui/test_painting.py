"""A phone list painted, or vCards written, off the window's thread: its progress,
Cancel, and the note."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pypdf
import pytest
from PySide6.QtCore import QLocale
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QStatusBar

from cardviewer.api.models import Card, parse_card
from cardviewer.services import card_export, vcard_export
from cardviewer.services.card_store import CardStore
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.phone_list import PhoneListStopped
from cardviewer.services.process_job import run_in_process
from cardviewer.services.settings import Settings
from cardviewer.ui import whole_space_jobs
from cardviewer.ui.chosen_cards import ChosenCards
from cardviewer.ui.export_all_dialog import ExportAllDialog
from cardviewer.ui.painting import Made, Painting
from cardviewer.ui.painting_note import SHOW_AFTER_MS, PaintingNote
from cardviewer.ui.phone_list_output import phone_list_texts, print_chosen, write_chosen_pdf
from cardviewer.ui.whole_space_jobs import WholeSpaceJobs

WAIT = 10_000
SHOWN = PageRequest("space", 1, True)
CARDS = [
    parse_card({"uuid": f"c{n}", "display_name": f"Person {n}", "emails": [f"p{n}@x.example"]})
    for n in range(600)
]
CHOSEN = ChosenCards(SHOWN, "space", cards=CARDS)


class SlowPaint:
    """Tells of 250 cards, then waits to be stopped, as a long list would."""

    def __init__(self) -> None:
        self.started = threading.Event()

    def __call__(self, *, stop: threading.Event, painted) -> int:
        painted(250)
        self.started.set()
        if not stop.wait(WAIT / 1000):
            return 250
        raise PhoneListStopped


def test_a_painting_tells_how_far_it_has_come_and_stops_when_cancelled(qtbot, qloop, arun):
    painting = Painting()
    slow = SlowPaint()
    heard: list[tuple[int, int]] = []
    painting.advanced.connect(lambda count, total: heard.append((count, total)))
    task = qloop.create_task(painting.run(slow, 1000))
    qtbot.waitUntil(lambda: (250, 1000) in heard, timeout=WAIT)
    assert heard[0] == (0, 1000), "said when it starts"
    assert painting.running
    with qtbot.waitSignal(painting.ended, timeout=WAIT):
        painting.cancel()
    qtbot.waitUntil(task.done)
    with pytest.raises(PhoneListStopped):
        task.result()
    assert not painting.running


def test_the_newest_painting_is_told_and_cancelled_and_ended_comes_after_the_last(qtbot, qloop):
    painting = Painting()
    first, second = SlowPaint(), SlowPaint()
    heard: list[tuple[int, int]] = []
    ended: list[bool] = []
    painting.ended.connect(lambda: ended.append(True))
    one = qloop.create_task(painting.run(first, 1000))
    qtbot.waitUntil(first.started.is_set, timeout=WAIT)
    painting.advanced.connect(lambda count, total: heard.append((count, total)))
    two = qloop.create_task(painting.run(second, 2000))
    qtbot.waitUntil(lambda: (250, 2000) in heard, timeout=WAIT)
    assert all(total == 2000 for _count, total in heard)
    with qtbot.waitSignal(painting.resumed, timeout=WAIT):
        painting.cancel()  # the newest, the one told of
    qtbot.waitUntil(two.done, timeout=WAIT)
    assert isinstance(two.exception(), PhoneListStopped)
    assert not one.done(), "the one before it goes on"
    assert heard[-1] == (250, 1000), "and is told of again"
    assert ended == []
    painting.cancel()
    qtbot.waitUntil(one.done, timeout=WAIT)
    assert isinstance(one.exception(), PhoneListStopped)
    assert ended == [True]


def test_the_cards_painted_are_told_every_few_hundred_and_at_the_end(qapp, tmp_path):
    counts: list[int] = []
    texts = phone_list_texts(CHOSEN)
    done = write_chosen_pdf(
        tmp_path / "list.pdf", chosen=CHOSEN, texts=texts, painted=counts.append
    )
    assert done == 600
    assert counts == [250, 500, 600]


def test_a_print_cancelled_says_whether_the_printer_took_it_back(qapp, tmp_path):
    # Qt's own PDF printer (as CUPS on Linux) cannot take a job back; the test of
    # `write_phone_list` shows one that can.
    stop = threading.Event()
    texts = phone_list_texts(CHOSEN)
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    with pytest.raises(PhoneListStopped) as stopped:
        print_chosen(printer, chosen=CHOSEN, texts=texts, stop=stop, painted=lambda _n: stop.set())
    assert not stopped.value.withdrawn
    whole = QPrinter(QPrinter.PrinterMode.HighResolution)
    whole.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    whole.setOutputFileName(str(tmp_path / "whole.pdf"))
    assert print_chosen(whole, chosen=CHOSEN, texts=texts) == 600
    assert len(pypdf.PdfReader(tmp_path / "whole.pdf").pages) > 1


@pytest.fixture
def jobs(qloop, arun):
    jobs = WholeSpaceJobs(None, Settings.load(), ExportAllDialog)
    yield jobs
    arun(jobs.aclose())


def test_the_note_shows_a_long_painting_and_cancel_keeps_the_earlier_file(
    qtbot, jobs, tmp_path: Path
):
    status = QStatusBar()
    qtbot.addWidget(status)
    note = PaintingNote(jobs.painting, status)
    status.addPermanentWidget(note)
    status.show()
    target = tmp_path / "list.pdf"
    target.write_bytes(b"the list before")
    slow = SlowPaint()

    def write(path: Path, *, stop: threading.Event, painted) -> int:
        return slow(stop=stop, painted=painted)

    jobs.export_with(write, SHOWN, target, total=100_000)
    qtbot.waitUntil(note.isVisible, timeout=WAIT)
    assert note.bar.text() == f"250 of {QLocale().toString(100_000)} cards"
    assert note.bar.value() == 250
    assert note.bar.accessibleName() == "Phone list"
    assert note.cancel_button.accessibleName() == "Cancel the phone list"
    with qtbot.waitSignal(jobs.statusMessage, timeout=WAIT) as said:
        note.cancel_button.click()
    assert said.args[0] == "Export cancelled; nothing was saved."
    qtbot.waitUntil(note.isHidden, timeout=WAIT)
    assert target.read_bytes() == b"the list before"


def test_a_short_painting_shows_no_note(qtbot, jobs, tmp_path: Path):
    status = QStatusBar()
    qtbot.addWidget(status)
    note = PaintingNote(jobs.painting, status)
    status.addPermanentWidget(note)
    status.show()
    shown: list[bool] = []
    jobs.painting.advanced.connect(lambda *_: shown.append(note.isVisible()))
    write = lambda path, **painting: write_chosen_pdf(  # noqa: E731
        path, chosen=ChosenCards(SHOWN, "s", cards=CARDS[:3]), texts=phone_list_texts(CHOSEN),
        **painting,
    )  # fmt: skip
    with qtbot.waitSignal(jobs.finished, timeout=WAIT):
        jobs.export_with(write, SHOWN, tmp_path / "short.pdf", total=3)
    qtbot.wait(SHOW_AFTER_MS + 100)
    assert note.isHidden()
    assert shown
    assert not any(shown)


@pytest.mark.parametrize(
    ("withdrawn", "message"),
    [
        (True, "Printing cancelled; nothing was printed."),
        (False, "Printing stopped; the pages already made still get printed."),
    ],
)
def test_a_print_cancelled_says_whether_pages_still_come(qtbot, jobs, withdrawn, message):
    started = threading.Event()

    def paint(*, stop: threading.Event, painted) -> int:
        started.set()
        stop.wait(WAIT / 1000)
        raise PhoneListStopped(withdrawn=withdrawn)

    jobs.print_with(paint, SHOWN, total=1000)
    qtbot.waitUntil(started.is_set, timeout=WAIT)
    assert jobs.painting.made is Made.PRINT
    with qtbot.waitSignal(jobs.statusMessage, timeout=WAIT) as said:
        jobs.painting.cancel()
    assert said.args[0] == message


def test_the_note_takes_only_the_room_of_its_bar_and_button(qtbot, jobs):
    status = QStatusBar()
    qtbot.addWidget(status)
    note = PaintingNote(jobs.painting, status)
    status.addPermanentWidget(note)
    status.resize(1200, 30)
    status.show()
    jobs.painting.advanced.emit(0, 100_000)
    note.show()
    qtbot.waitUntil(lambda: note.width() > 0)
    wanted = note.bar.width() + note.cancel_button.sizeHint().width() + 6
    assert note.width() <= wanted + 2, "Cancel is a button's width, not the bar's leftover"
    assert note.cancel_button.width() == note.cancel_button.sizeHint().width()


def test_cancel_does_not_wait_for_pictures_still_on_their_way(qtbot, qloop, arun, tmp_path):
    """A slow image host: the list stops at once, and the source is closed after it."""
    import asyncio
    import time

    import httpx

    from cardviewer.services.vcard_photos import PhotoSource

    asked = threading.Event()
    made: list[PhotoSource] = []

    async def never(request: httpx.Request) -> httpx.Response:
        asked.set()
        await asyncio.sleep(60)
        return httpx.Response(200)

    def source(thumbnail) -> PhotoSource:
        made.append(PhotoSource(thumbnail, transport=httpx.MockTransport(never)))
        return made[-1]

    jobs = WholeSpaceJobs(None, Settings.load(), ExportAllDialog, photo_source=source)
    avatar = {"uuid": "av", "src": "https://93.184.216.34/a.png"}
    cards = [
        parse_card({"uuid": f"c{n}", "display_name": f"P{n}", "avatar": avatar}) for n in range(3)
    ]
    chosen = ChosenCards(SHOWN, "s", cards=cards)
    write = lambda path, **painting: write_chosen_pdf(  # noqa: E731
        path, chosen=chosen, texts=phone_list_texts(chosen), **painting
    )
    target = tmp_path / "list.pdf"
    try:
        jobs.export_with(write, SHOWN, target, total=3, pictures=True)
        qtbot.waitUntil(asked.is_set, timeout=WAIT)
        started = time.monotonic()
        with qtbot.waitSignal(jobs.statusMessage, timeout=WAIT) as said:
            jobs.painting.cancel()
        assert said.args[0] == "Export cancelled; nothing was saved."
        assert time.monotonic() - started < 2, "not the download's 20 s"
        assert not target.exists()
        qtbot.waitUntil(lambda: made[0]._closed, timeout=WAIT)
    finally:
        arun(jobs.aclose())


@pytest.mark.parametrize(
    ("made", "names"),
    [
        (Made.PHONE_LIST, ("Phone list", "Cancel the phone list", "Stop making the phone list")),
        (Made.VCARDS, ("vCards", "Cancel the vCards", "Stop saving the vCards")),
        (Made.PRINT, ("Printing", "Cancel printing", "Stop printing the phone list")),
        (Made.COPY, ("Copying", "Cancel copying", "Stop copying the rows")),
    ],
)
def test_the_note_is_named_for_what_is_made(qtbot, qloop, made, names):
    painting = Painting()
    status = QStatusBar()
    qtbot.addWidget(status)
    note = PaintingNote(painting, status)
    status.addPermanentWidget(note)
    status.show()
    other = Made.VCARDS if made is not Made.VCARDS else Made.PHONE_LIST
    for each in (other, made):  # named anew for each painting
        slow = SlowPaint()
        task = qloop.create_task(painting.run(slow, 1000, each))
        qtbot.waitUntil(note.isVisible, timeout=WAIT)
        painting.cancel()
        qtbot.waitUntil(task.done, timeout=WAIT)
        assert isinstance(task.exception(), PhoneListStopped)
    shown = (
        note.bar.accessibleName(),
        note.cancel_button.accessibleName(),
        note.cancel_button.toolTip(),
    )
    assert shown == names


# vCards of a synced space


def synced(path: Path, cards: list[Card]) -> list[int]:
    """A local copy of `cards` at `path`; the positions of its cards, in order."""
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        sync.add(cards)
        sync.finish()
    return list(range(len(cards)))


def in_status_bar(qtbot, painting: Painting) -> tuple[QStatusBar, PaintingNote]:
    """A status bar shown, with the note of `painting` in it."""
    status = QStatusBar()
    qtbot.addWidget(status)
    note = PaintingNote(painting, status)
    status.addPermanentWidget(note)
    status.show()
    return status, note


def on_this_thread(
    job: Callable[..., int], *args, stop: threading.Event, painted, served=None
) -> int:
    """`run_in_process` without the process, for a job slowed down in this one."""
    return job(*args, stop=stop, painted=painted, **(served or {}))


def cancel_at_250(
    qtbot, jobs: WholeSpaceJobs, note: PaintingNote, go_on: threading.Event, *, named
) -> None:
    """An export of 1,000 cards slowed down after 250: its note shows them, named
    `named` (the bar's name, Cancel's), and Cancel says that nothing was saved."""
    qtbot.waitUntil(note.isVisible, timeout=WAIT)
    qtbot.waitUntil(lambda: note.bar.value() == 250, timeout=WAIT)
    assert note.bar.text() == f"250 of {QLocale().toString(1000)} cards"
    assert (note.bar.accessibleName(), note.cancel_button.accessibleName()) == named
    with qtbot.waitSignal(jobs.statusMessage, timeout=WAIT) as said:
        note.cancel_button.click()
        go_on.set()
    assert said.args[0] == "Export cancelled; nothing was saved."


def test_vcards_of_a_synced_space_tell_their_progress_and_cancel_keeps_the_earlier_file(
    qtbot, jobs, tmp_path: Path, monkeypatch
):
    monkeypatch.setattr(whole_space_jobs, "run_in_process", on_this_thread)
    positions = synced(tmp_path / "space.sqlite", CARDS + CARDS[:400])
    written = 0
    go_on = threading.Event()
    make = vcard_export.card_vcard

    def slow(card: Card, *args: object) -> str:
        nonlocal written
        written += 1
        if written > 300:  # a long export: it waits here until Cancel
            go_on.wait(WAIT / 1000)
        return make(card, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(vcard_export, "card_vcard", slow)
    _status, note = in_status_bar(qtbot, jobs.painting)
    target = tmp_path / "shown.vcf"
    target.write_bytes(b"the cards before")
    jobs.export_shown_vcards(tmp_path / "space.sqlite", positions, SHOWN, target)
    cancel_at_250(qtbot, jobs, note, go_on, named=("vCards", "Cancel the vCards"))
    assert written == 301, "stopped after the card being written"
    qtbot.waitUntil(note.isHidden, timeout=WAIT)
    assert target.read_bytes() == b"the cards before"
    assert sorted(path.name for path in tmp_path.iterdir() if "vcf" in path.name) == ["shown.vcf"]


def test_the_cards_shown_of_a_synced_space_tell_their_progress_and_cancel_keeps_the_file(
    qtbot, jobs, tmp_path: Path, monkeypatch
):
    """A whole space's cards took seconds (a minute on a busy machine) to save, with
    "Saving shown.csv…" alone to see and no way to stop it."""
    monkeypatch.setattr(whole_space_jobs, "run_in_process", on_this_thread)
    monkeypatch.setattr(card_export, "STORE_BLOCK", 50)
    positions = synced(tmp_path / "space.sqlite", CARDS + CARDS[:400])
    read = CardStore.cards_at
    go_on = threading.Event()
    blocks = 0

    def slow(store: CardStore, *args: object, **options: object) -> dict[int, Card]:
        nonlocal blocks
        blocks += 1
        if blocks > 6:  # a long export: it waits here until Cancel
            go_on.wait(WAIT / 1000)
        return read(store, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(CardStore, "cards_at", slow)
    _status, note = in_status_bar(qtbot, jobs.painting)
    target = tmp_path / "shown.csv"
    target.write_bytes(b"the cards before")
    jobs.export_shown(tmp_path / "space.sqlite", positions, SHOWN, target)
    cancel_at_250(qtbot, jobs, note, go_on, named=("Export", "Cancel the export"))
    qtbot.waitUntil(note.isHidden, timeout=WAIT)
    assert target.read_bytes() == b"the cards before"
    assert [path.name for path in tmp_path.iterdir() if "csv" in path.name] == ["shown.csv"]


def test_photos_that_hang_do_not_hold_up_cancelling_vcards(qtbot, qloop, arun, tmp_path):
    """An image host that stops answering after 300 cards: Cancel ends the export at once."""
    import asyncio
    import time

    import httpx

    from cardviewer.services.vcard_photos import PhotoSource

    hanging = threading.Event()
    made: list[PhotoSource] = []

    async def answer(request: httpx.Request) -> httpx.Response:
        if int(request.url.path.strip("/").removesuffix(".png")) >= 300:
            hanging.set()
            await asyncio.sleep(60)
        return httpx.Response(200, content=b"a photo")

    def source(_thumbnail) -> PhotoSource:
        made.append(PhotoSource(lambda data: data, transport=httpx.MockTransport(answer)))
        return made[-1]

    jobs = WholeSpaceJobs(None, Settings.load(), ExportAllDialog, photo_source=source)
    cards = [
        parse_card(
            {
                "uuid": f"c{n}",
                "display_name": f"P{n}",
                "avatar": {"uuid": f"a{n}", "src": f"https://93.184.216.34/{n}.png"},
            }
        )
        for n in range(1000)
    ]
    positions = synced(tmp_path / "space.sqlite", cards)
    _status, note = in_status_bar(qtbot, jobs.painting)
    target = tmp_path / "shown.vcf"
    target.write_bytes(b"the cards before")
    try:
        jobs.export_shown_vcards(tmp_path / "space.sqlite", positions, SHOWN, target, photos=True)
        qtbot.waitUntil(hanging.is_set, timeout=WAIT)
        qtbot.waitUntil(lambda: note.isVisible() and note.bar.value() == 250, timeout=WAIT)
        started = time.monotonic()
        with qtbot.waitSignal(jobs.statusMessage, timeout=WAIT) as said:
            note.cancel_button.click()
        assert said.args[0] == "Export cancelled; nothing was saved."
        assert time.monotonic() - started < 2, "not the download's 20 s"
        assert target.read_bytes() == b"the cards before"
        qtbot.waitUntil(lambda: made[0]._closed, timeout=WAIT)
    finally:
        arun(jobs.aclose())


def test_vcards_of_a_synced_space_without_photos_are_written_by_a_process(
    qtbot, jobs, tmp_path: Path, monkeypatch
):
    positions = synced(tmp_path / "space.sqlite", CARDS)
    ran: list[object] = []

    def in_a_process(
        job: Callable[..., int], *args, stop: threading.Event, painted, served=None
    ) -> int:
        ran.append(job)
        return run_in_process(job, *args, stop=stop, painted=painted, served=served)

    monkeypatch.setattr(whole_space_jobs, "run_in_process", in_a_process)
    told: list[int] = []
    jobs.painting.advanced.connect(lambda count, _total: told.append(count))
    target = tmp_path / "shown.vcf"
    with qtbot.waitSignal(jobs.finished, timeout=WAIT):
        jobs.export_shown_vcards(tmp_path / "space.sqlite", positions[::-1], SHOWN, target)
    assert len(ran) == 1
    assert told == [0, 250, 500, 600], "its progress told as a thread's"
    text = target.read_text("utf-8")
    assert text.count("BEGIN:VCARD") == 600
    assert text.index("FN:Person 599") < text.index("FN:Person 0\n")


def test_cancelling_a_copy_leaves_a_phone_list_before_it_shown_with_its_cancel(qtbot, qloop):
    painting = Painting()
    _status, note = in_status_bar(qtbot, painting)
    phone_list, copy = SlowPaint(), SlowPaint()
    one = qloop.create_task(painting.run(phone_list, 100_000, Made.PHONE_LIST))
    qtbot.waitUntil(phone_list.started.is_set, timeout=WAIT)
    two = qloop.create_task(painting.run(copy, 1000, Made.COPY))
    qtbot.waitUntil(lambda: note.isVisible() and copy.started.is_set(), timeout=WAIT)
    assert note.cancel_button.accessibleName() == "Cancel copying"
    note.cancel_button.click()
    qtbot.waitUntil(two.done, timeout=WAIT)
    assert isinstance(two.exception(), PhoneListStopped)
    qtbot.waitUntil(lambda: note.bar.maximum() == 100_000, timeout=WAIT)
    assert note.cancel_button.accessibleName() == "Cancel the phone list"
    assert note.cancel_button.isEnabled()
    assert note.bar.text() == f"250 of {QLocale().toString(100_000)} cards"
    assert not one.done()
    note.cancel_button.click()
    qtbot.waitUntil(one.done, timeout=WAIT)
    assert isinstance(one.exception(), PhoneListStopped)
    qtbot.waitUntil(note.isHidden, timeout=WAIT)
