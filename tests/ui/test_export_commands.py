"""Export Page, Export All and Sync Space: what they ask for, and the note when nothing is shown."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelection, QItemSelectionModel

from cardviewer.api import CardPage
from cardviewer.api.models import parse_card
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.settings import Settings
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.cards.space_table_model import SpaceTableModel
from cardviewer.ui.email_question import EmailChoice
from cardviewer.ui.export_all_dialog import ExportAllDialog
from cardviewer.ui.export_commands import ExportCommands
from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.whole_space_jobs import WholeSpaceJobs

SPACE = "export-space"
Flag = QItemSelectionModel.SelectionFlag


def one_page() -> CardPage:
    cards = (parse_card({"uuid": "c1", "display_name": "Anna"}),)
    meta = {"current_page": 1, "last_page": 1, "per_page": 1, "total": 1}
    return CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})


class Asker:
    """Stands in for the file dialog: records each question, answers cancel."""

    def __init__(self) -> None:
        self.asked: list[tuple[Path, dict[str, str]]] = []

    def __call__(self, suggested: Path, **options: str) -> Path | None:
        self.asked.append((suggested, options))
        return None


@pytest.fixture
def settings() -> Settings:
    return Settings.load()


@pytest.fixture
def parts(qloop, arun, settings) -> Iterator[tuple[ExportCommands, CardTableModel, Asker]]:
    async def source(request: PageRequest) -> CardPage:
        return one_page()

    jobs = WholeSpaceJobs(source, settings, partial(ExportAllDialog, parent=None))
    model, asker = CardTableModel(), Asker()
    yield ExportCommands(model, jobs, settings, asker), model, asker
    arun(jobs.aclose())


def test_with_nothing_shown_each_command_says_so(parts, qtbot, tmp_path: Path):
    commands, _, asker = parts
    with qtbot.waitSignal(commands.statusMessage) as said:
        commands.export_page()
    assert said.args == ["There are no cards to export.", 5000]
    copies: list[str] = []

    def store_path(space_id: str) -> Path:
        copies.append(space_id)
        return tmp_path / f"{space_id}.sqlite"

    for start in (commands.export_all, lambda: commands.sync_space(store_path)):
        with qtbot.waitSignal(commands.statusMessage) as said:
            start()
        assert said.args == ["Open a space first.", 5000]
    assert asker.asked == []
    assert copies == [], "no copy is asked for without a space"
    assert list(tmp_path.iterdir()) == []


def test_export_page_suggests_the_page_in_the_chosen_format(parts, settings):
    commands, model, asker = parts
    model.show_page(PageRequest(SPACE, 1, False), one_page())
    settings.export_format = "xlsx"
    commands.export_page()
    ((suggested, options),) = asker.asked
    assert suggested.name == f"{SPACE}-page-1.xlsx"
    assert options == {}, "the page export keeps the dialog's own title"


def test_export_all_suggests_the_whole_space_under_its_own_title(parts):
    commands, model, asker = parts
    model.show_page(PageRequest(SPACE, 1, False), one_page())
    commands.export_all()
    ((suggested, options),) = asker.asked
    assert suggested.name == f"{SPACE}-all.csv"
    assert options == {"title": "Export All Pages"}


# vCards, through the window over the demo server


def synced_and_filtered(window: MainWindow, demo_server, qtbot, text: str) -> SpaceTableModel:
    """The demo space synced and shown whole, filtered by `text`."""
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=10_000):
        window.open_space(demo_server.space_id)
    with qtbot.waitSignal(window.jobs.finished, timeout=20_000):
        window.sync_action.trigger()
    space = window.whole_space.model
    assert space is not None
    qtbot.waitUntil(lambda: not space.is_sorting, timeout=10_000)
    with qtbot.waitSignal(space.queryFinished, timeout=10_000):
        window.filter_edit.setText(text)
    return space


@pytest.fixture
def asked_about_emails(demo_window) -> list[bool]:
    """Go on without e-mail addresses when asked; what was asked (whether it could load)."""
    asked: list[bool] = []

    def answer(*, can_load: bool) -> EmailChoice:
        asked.append(can_load)
        return EmailChoice.WITHOUT

    demo_window.exports.ask_emails = answer
    return asked


def vcard_ids(path: Path) -> list[str]:
    import vobject

    return [contact.uid.value for contact in vobject.readComponents(path.read_text("utf-8"))]


def export_vcards(window, qtbot, target: Path, monkeypatch) -> tuple[Path, str]:
    """Export as vCards to `target`; the suggested name and the dialog's title."""
    asked: list[tuple[Path, str]] = []

    def answer(suggested: Path, title: str = "") -> Path:
        asked.append((suggested, title))
        return target

    monkeypatch.setattr(window, "ask_export_path", answer)
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_vcards_action.trigger()
    return asked[0]


@pytest.mark.usefixtures("asked_about_emails")
def test_vcards_of_the_page_or_of_the_cards_selected(
    demo_window, demo_server, qtbot, tmp_path, monkeypatch
):
    window = demo_window
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=10_000):
        window.open_space(demo_server.space_id)
    qtbot.waitUntil(lambda: not window.pages.is_prefetching, timeout=10_000)  # settled
    page = window.model.page
    assert page is not None
    suggested, title = export_vcards(window, qtbot, tmp_path / "page.vcf", monkeypatch)
    assert (suggested.name, title) == (f"{demo_server.space_id}-page-1.vcf", "Export as vCards")
    assert vcard_ids(tmp_path / "page.vcf") == [card.uuid for card in page.cards]
    assert window.status_bar.whole_message() == f"Exported 10 cards to {tmp_path / 'page.vcf'}"

    rows = QItemSelection()
    for row in (1, 4):
        rows.select(window.proxy.index(row, 0), window.proxy.index(row, 0))
    window.table.selectionModel().select(rows, Flag.ClearAndSelect | Flag.Rows)
    assert window.table.selected_rows() == [1, 4]
    suggested, _ = export_vcards(window, qtbot, tmp_path / "two.vcf", monkeypatch)
    assert suggested.name == f"{demo_server.space_id}-selected.vcf"
    shown = [window.proxy.card(row) for row in (1, 4)]
    assert vcard_ids(tmp_path / "two.vcf") == [card.uuid for card in shown if card]


@pytest.mark.usefixtures("asked_about_emails")
def test_vcards_of_the_whole_space_as_shown(demo_window, demo_server, qtbot, tmp_path, monkeypatch):
    window = demo_window
    space = synced_and_filtered(window, demo_server, qtbot, "müller")
    shown = [space.card(row) for row in range(space.rowCount())]
    assert shown
    suggested, _ = export_vcards(window, qtbot, tmp_path / "shown.vcf", monkeypatch)
    assert suggested.name == f"{demo_server.space_id}-shown.vcf"
    assert vcard_ids(tmp_path / "shown.vcf") == [card.uuid for card in shown if card]


# The phone list, as PDF and printed, through the window over the demo server


def pdf_text(path: Path) -> str:
    import pypdf

    return " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(path).pages)


@pytest.mark.usefixtures("asked_about_emails")
def test_a_phone_list_of_the_page_as_pdf(
    demo_window, demo_server, qtbot, tmp_path: Path, monkeypatch
):
    window = demo_window
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=10_000):
        window.open_space(demo_server.space_id)
    page = window.model.page
    assert page is not None
    asked: list[tuple[Path, str]] = []

    def answer(suggested: Path, title: str = "") -> Path:
        asked.append((suggested, title))
        return tmp_path / "phones"  # no suffix: a PDF all the same

    monkeypatch.setattr(window, "ask_export_path", answer)
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_pdf_action.trigger()
    assert [(path.name, title) for path, title in asked] == [
        (f"{demo_server.space_id}-page-1.pdf", "Export as PDF")
    ]
    target = tmp_path / "phones.pdf"
    text = pdf_text(target)
    assert text.startswith("Phone list of Acme Europe GmbH")
    import pypdf

    assert [p for page in pypdf.PdfReader(target).pages for p in page.images] == []
    window.settings.phone_list_qr_codes = True  # as Preferences set it
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_pdf_action.trigger()
    pictures = [p for page in pypdf.PdfReader(target).pages for p in page.images]
    assert len(pictures) == len(page.cards), "a QR code beside each card"
    for card in page.cards:
        if card.display_name and card.display_name.isascii():
            assert card.display_name in text
    assert window.status_bar.whole_message() == f"Exported 10 cards to {target}"


@pytest.mark.usefixtures("asked_about_emails")
def test_a_phone_list_of_the_whole_space_shown_is_painted_in_a_process(
    demo_window, demo_server, qtbot, tmp_path, monkeypatch
):
    from cardviewer.services.process_job import run_in_process
    from cardviewer.ui import phone_list_output

    ran: list[object] = []

    def recorded(job, *args, stop, painted, served=None) -> object:
        ran.append(job)
        return run_in_process(job, *args, stop=stop, painted=painted, served=served)

    monkeypatch.setattr(phone_list_output, "run_in_process", recorded)
    window = demo_window
    space = synced_and_filtered(window, demo_server, qtbot, "müller")
    shown = [card for row in range(space.rowCount()) if (card := space.card(row))]
    assert shown
    monkeypatch.setattr(window, "ask_export_path", lambda *_a, **_k: tmp_path / "müller.pdf")
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_pdf_action.trigger()
    assert len(ran) == 1
    text = pdf_text(tmp_path / "müller.pdf")
    names = [card.display_name or "" for card in shown]
    assert [name for name in names if name in text] == names
    saved = f"Exported {len(shown)} cards to {tmp_path / 'müller.pdf'}"
    assert window.statusBar().currentMessage() == saved


@pytest.mark.usefixtures("asked_about_emails")
def test_printing_sends_the_cards_shown_of_the_whole_space(
    demo_window, demo_server, qtbot, tmp_path
):
    """The printer is the print dialog's choice; here one that prints to a PDF file."""
    from PySide6.QtPrintSupport import QPrinter

    window = demo_window
    space = synced_and_filtered(window, demo_server, qtbot, "müller")
    shown = [card for row in range(space.rowCount()) if (card := space.card(row))]
    assert shown
    printed = tmp_path / "printed.pdf"

    def printer() -> QPrinter:
        chosen = QPrinter(QPrinter.PrinterMode.HighResolution)
        chosen.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        chosen.setOutputFileName(str(printed))
        return chosen

    window.exports.ask_printer = printer
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.print_action.trigger()
    assert window.statusBar().currentMessage() == "The phone list went to the printer."
    text = pdf_text(printed)
    names = [card.display_name or "" for card in shown]
    assert [name for name in names if name in text] == names
    assert text.index(shown[0].display_name or "") < text.index(shown[-1].display_name or "")


def faces(path: Path) -> int:
    """The cards' pictures a phone list shows (160 pixels square, unlike a QR code)."""
    import pypdf

    from cardviewer.services.phone_list import PICTURE_PIXELS

    side = (PICTURE_PIXELS, PICTURE_PIXELS)
    pages = pypdf.PdfReader(path).pages
    return sum(
        getattr(picture.image, "size", None) == side for page in pages for picture in page.images
    )


@pytest.mark.usefixtures("asked_about_emails")
def test_the_phone_list_shows_each_card_s_picture_when_preferences_say_so(
    demo_window, demo_server, qtbot, tmp_path: Path, monkeypatch
):
    from PySide6.QtPrintSupport import QPrinter

    window = demo_window
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=10_000):
        window.open_space(demo_server.space_id)
    page = window.model.page
    assert page is not None
    monkeypatch.setattr(window, "ask_export_path", lambda *_a, **_k: tmp_path / "plain.pdf")
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_pdf_action.trigger()
    assert faces(tmp_path / "plain.pdf") == 0, "not unless asked for"

    window.settings.phone_list_pictures = True  # as Preferences set it
    monkeypatch.setattr(window, "ask_export_path", lambda *_a, **_k: tmp_path / "faces.pdf")
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_pdf_action.trigger()
    wanted = own_pictures(page.cards)
    assert wanted
    assert len(wanted) < len(page.cards)
    assert faces(tmp_path / "faces.pdf") == len(wanted), "the others show their initials"
    text = pdf_text(tmp_path / "faces.pdf")
    for card in page.cards:
        if card.display_name and card.display_name.isascii():
            assert card.display_name in text

    space = synced_and_filtered(window, demo_server, qtbot, "müller")
    shown = [card for row in range(space.rowCount()) if (card := space.card(row))]
    printed = tmp_path / "printed.pdf"

    def printer() -> QPrinter:
        chosen = QPrinter(QPrinter.PrinterMode.HighResolution)
        chosen.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        chosen.setOutputFileName(str(printed))
        return chosen

    window.exports.ask_printer = printer
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.print_action.trigger()
    assert own_pictures(shown)
    assert faces(printed) == len(own_pictures(shown))


@pytest.mark.usefixtures("asked_about_emails")
def test_a_print_that_fails_is_explained(demo_window, demo_server, qtbot, tmp_path):
    from PySide6.QtPrintSupport import QPrinter

    window = demo_window
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=10_000):
        window.open_space(demo_server.space_id)

    def printer() -> QPrinter:
        chosen = QPrinter()
        chosen.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        chosen.setOutputFileName(str(tmp_path / "gone" / "printed.pdf"))
        return chosen

    window.exports.ask_printer = printer
    with qtbot.waitSignal(window.jobs.failed, timeout=10_000) as failed:
        window.print_action.trigger()
    message, detail = failed.args
    assert message == (
        "The cards could not be printed. The printer did not take the pages; check that it "
        "is ready."
    )
    assert "PagesRefused" in detail


def test_vcards_of_a_page_loaded_without_e_mails_ask_to_load_them_first(
    demo_window, demo_server, qtbot, tmp_path, monkeypatch
):
    window = demo_window
    assert not window.include_emails_check.isChecked()
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=10_000):
        window.open_space(demo_server.space_id)
    choices = [EmailChoice.CANCEL, EmailChoice.LOAD]
    asked: list[bool] = []

    def answer(*, can_load: bool) -> EmailChoice:
        asked.append(can_load)
        return choices.pop(0)

    window.exports.ask_emails = answer
    monkeypatch.setattr(window, "ask_export_path", pytest.fail)
    window.export_vcards_action.trigger()
    assert asked == [True], "cancelled: nothing asked after"
    target = tmp_path / "with-emails.vcf"
    monkeypatch.setattr(window, "ask_export_path", lambda *_a, **_k: target)
    with qtbot.waitSignal(window.jobs.finished, timeout=10_000):
        window.export_vcards_action.trigger()  # loads the page again, then saves it
    assert window.include_emails_check.isChecked()
    request = window.model.current_request
    assert request is not None
    assert request.with_emails
    import vobject

    contacts = list(vobject.readComponents(target.read_text("utf-8")))
    assert any(contact.contents.get("email") for contact in contacts)


def test_a_copy_without_e_mails_cannot_load_them_and_says_so(
    demo_window, demo_server, qtbot, tmp_path, asked_about_emails, monkeypatch
):
    window = demo_window
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=10_000):
        window.open_space(demo_server.space_id)
    with qtbot.waitSignal(window.jobs.finished, timeout=20_000):
        window.sync_action.trigger()
    monkeypatch.setattr(window, "ask_export_path", lambda *_a, **_k: tmp_path / "all.pdf")
    with qtbot.waitSignal(window.jobs.finished, timeout=20_000):
        window.export_pdf_action.trigger()
    assert asked_about_emails == [False]
    assert (tmp_path / "all.pdf").is_file()


def test_the_question_offers_to_load_only_where_it_can(qtbot, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from cardviewer.ui.email_question import ask_about_emails

    seen: list[list[str]] = []

    def exec_(box: QMessageBox) -> int:
        seen.append([button.text() for button in box.buttons()])
        return 0

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    assert ask_about_emails(None, can_load=True) is EmailChoice.CANCEL
    assert ask_about_emails(None, can_load=False) is EmailChoice.CANCEL
    assert "Load E-mails" in seen[0]
    assert "Continue Without E-mails" in seen[0], "without what, it says"
    assert "Load E-mails" not in seen[1]


def photo_ids(path: Path) -> list[str]:
    import vobject

    contacts = vobject.readComponents(path.read_text("utf-8"))
    return [contact.uid.value for contact in contacts if "photo" in contact.contents]


def own_pictures(cards) -> list[str]:
    return [c.uuid for c in cards if c and c.avatar is not None and not c.avatar.is_default]


@pytest.mark.usefixtures("asked_about_emails")
def test_vcards_carry_photos_when_preferences_say_so(
    demo_window, demo_server, qtbot, tmp_path, monkeypatch
):
    window = demo_window
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=10_000):
        window.open_space(demo_server.space_id)
    qtbot.waitUntil(lambda: not window.pages.is_prefetching, timeout=10_000)
    page = window.model.page
    assert page is not None
    export_vcards(window, qtbot, tmp_path / "plain.vcf", monkeypatch)
    assert photo_ids(tmp_path / "plain.vcf") == [], "not unless asked for"

    window.settings.vcard_photos = True
    export_vcards(window, qtbot, tmp_path / "page.vcf", monkeypatch)
    wanted = own_pictures(page.cards)
    assert wanted
    assert len(wanted) < len(page.cards)
    assert photo_ids(tmp_path / "page.vcf") == wanted

    space = synced_and_filtered(window, demo_server, qtbot, "müller")
    shown = [space.card(row) for row in range(space.rowCount())]
    assert own_pictures(shown)
    export_vcards(window, qtbot, tmp_path / "shown.vcf", monkeypatch)
    assert photo_ids(tmp_path / "shown.vcf") == own_pictures(shown)
