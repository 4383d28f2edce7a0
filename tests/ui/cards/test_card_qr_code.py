"""The details pane's QR code: read back from the screen and the clipboard, copied, saved."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image
from PySide6.QtGui import QGuiApplication, QImage

from cardviewer.api.models import Card, parse_card
from cardviewer.services import card_qr as card_qr_module
from cardviewer.services.vcard_export import card_vcard
from cardviewer.ui.cards.card_qr_code import SETTLE_MS, CardQrCode

CARD = parse_card(
    {
        "uuid": "JcnxKlRDpUffYwD",
        "display_name": "陈雪 (Xue Chen)",
        "position": "销售经理, Region East; Beijing",
        "emails": ["xue.chen@acme.example", "x.chen@acme-europe.example"],
    }
)


def read(image: QImage) -> str:
    """What a phone's camera reads from `image`."""
    grey = image.convertToFormat(QImage.Format.Format_Grayscale8)
    size = (grey.width(), grey.height())
    data = bytes(grey.constBits())
    picture = Image.frombuffer("L", size, data, "raw", "L", grey.bytesPerLine(), 1)
    (found,) = zxingcpp.read_barcodes(picture)
    return str(found.text)


def show(code: CardQrCode, card: Card | None, qtbot) -> None:
    """Set `card` and wait until its code is made and shown."""
    with qtbot.waitSignal(code.codeShown):
        code.set_card(card)


@pytest.fixture
def asked() -> list[Path]:
    return []


@pytest.fixture
def code(qtbot, asked, tmp_path) -> CardQrCode:
    answers: list[Path | None] = []

    def ask(suggested: Path) -> Path | None:
        asked.append(suggested)
        return answers.pop(0) if answers else None

    widget = CardQrCode(ask)
    widget.answers = answers  # type: ignore[attr-defined]
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_the_code_on_screen_carries_the_cards_vcard(code: CardQrCode, qtbot):
    show(code, CARD, qtbot)
    assert code.isVisible()
    qtbot.waitUntil(lambda: code.picture.width() == code.picture.sizeHint().width())
    image = code.picture.grab().toImage()
    assert read(image) == card_vcard(CARD)
    assert "陈雪 (Xue Chen)" in code.picture.accessibleName()
    code.set_card(None)
    assert code.isHidden(), "nothing to show without a card"


def test_a_narrow_pane_gets_a_smaller_code_that_still_reads(code: CardQrCode, qtbot):
    show(code, CARD, qtbot)
    code.picture.setFixedWidth(code.picture.minimumSizeHint().width())
    qtbot.waitUntil(lambda: 0 < code.picture.width() < code.picture.sizeHint().width())
    # As tall as wide once laid out again: no empty band above and below the code.
    qtbot.waitUntil(lambda: code.picture.height() == code.picture.width())
    assert read(code.picture.grab().toImage()) == card_vcard(CARD)


def test_copy_puts_the_code_on_the_clipboard_as_a_picture(code: CardQrCode, qtbot):
    show(code, CARD, qtbot)
    with qtbot.waitSignal(code.copied) as said:
        code.copy_button.click()
    assert said.args == ["Copied the QR code."]
    assert read(QGuiApplication.clipboard().image()) == card_vcard(CARD)


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_save_writes_the_kind_of_picture_the_name_asks_for(
    code: CardQrCode, qtbot, asked, tmp_path, suffix
):
    show(code, CARD, qtbot)
    target = tmp_path / f"xue{suffix}"
    code.answers.append(target)  # type: ignore[attr-defined]
    with qtbot.waitSignal(code.copied) as said, qtbot.waitSignal(code.saved) as saved:
        code.save_button.click()
    assert asked[-1].name.endswith("-qr.png"), "a PNG is offered first"
    assert said.args == [f"Saved the QR code to {target}"]
    assert saved.args == [target]
    data = target.read_bytes()
    if suffix == ".png":
        assert read(QImage.fromData(data)) == card_vcard(CARD)
    else:
        assert b"<svg" in data


def test_a_code_that_cannot_be_saved_is_explained(code: CardQrCode, qtbot, tmp_path):
    show(code, CARD, qtbot)
    target = tmp_path / "gone" / "xue.png"
    code.answers.append(target)  # type: ignore[attr-defined]
    with qtbot.waitSignal(code.failed) as failed, qtbot.assertNotEmitted(code.saved):
        code.save_button.click()
    message, detail = failed.args
    assert message.startswith(f"The QR code could not be saved as {target}.")
    assert "folder does not exist" in message
    assert "FileNotFoundError" in detail
    assert not target.exists()


def test_cancelling_the_save_writes_nothing(code: CardQrCode, qtbot, asked, tmp_path):
    show(code, CARD, qtbot)
    with (
        qtbot.assertNotEmitted(code.copied),
        qtbot.assertNotEmitted(code.failed),
        qtbot.assertNotEmitted(code.saved),
    ):
        code.save_button.click()
    assert len(asked) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_card_without_a_name_saves_under_its_id(code: CardQrCode, asked, qtbot):
    show(code, Card.model_validate({"uuid": "abc123"}), qtbot)
    code.save_button.click()
    assert asked[-1].name == "abc123-qr.png"


def test_a_contact_too_long_for_a_qr_code_is_said_and_nothing_offered(
    code: CardQrCode, asked, qtbot
):
    show(code, parse_card({"uuid": "long", "display_name": "x" * 5000}), qtbot)
    assert code.no_code_label.text() == "This card's contact is too long for a QR code."
    assert code.isVisible()
    assert code.picture.isHidden()
    assert code.no_code_label.isVisible()
    assert not code.copy_button.isEnabled()
    assert not code.save_button.isEnabled()
    code.save()
    assert asked == []
    show(code, CARD, qtbot)
    assert code.picture.isVisible()
    assert code.no_code_label.isHidden()
    assert code.save_button.isEnabled()


def test_the_code_is_made_off_the_windows_thread_and_copy_waits_for_it(
    code: CardQrCode, qtbot, monkeypatch
):
    made_on = []

    def card_qr(card):
        made_on.append(threading.current_thread())
        return card_qr_module.card_qr(card)

    monkeypatch.setattr("cardviewer.ui.cards.card_qr_code.card_qr", card_qr)
    with qtbot.waitSignal(code.codeShown):
        code.set_card(CARD)
        assert code.modules == [], "set_card returns before the code is made"
        assert not code.copy_button.isEnabled()
        assert not code.save_button.isEnabled()
    assert made_on
    assert threading.main_thread() not in made_on
    assert code.copy_button.isEnabled()
    assert read(code.picture.grab().toImage()) == card_vcard(CARD)


def test_only_the_last_card_chosen_gets_its_code_shown(code: CardQrCode, qtbot):
    others = [parse_card({"uuid": f"u{n}", "display_name": f"Person {n}"}) for n in range(20)]
    shown = []
    code.codeShown.connect(lambda: shown.append(code.modules))
    with qtbot.waitSignal(code.codeShown):
        for card in [*others, CARD]:  # as when an arrow key is held down
            code.set_card(card)
    qtbot.wait(100)  # any code of an earlier card would arrive meanwhile
    assert len(shown) == 1, "no earlier card's code is shown, not even for a moment"
    assert read(code.picture.grab().toImage()) == card_vcard(CARD)


def test_no_code_is_made_for_the_cards_a_held_key_passes_over(code: CardQrCode, qtbot, monkeypatch):
    """Each card passed over had its code made, holding Python's lock for most of each
    key's time: a held Down key took 38 ms a card with the details pane shown."""
    made = []

    def card_qr(card):
        made.append(card.uuid)
        return card_qr_module.card_qr(card)

    monkeypatch.setattr("cardviewer.ui.cards.card_qr_code.card_qr", card_qr)
    others = [parse_card({"uuid": f"u{n}", "display_name": f"Person {n}"}) for n in range(10)]
    with qtbot.waitSignal(code.codeShown):
        for card in others:
            code.set_card(card)
            qtbot.wait(SETTLE_MS // 4)  # a key's repeat
        code.set_card(CARD)
    assert made == [CARD.uuid]


def test_what_was_said_of_a_card_before_goes_as_the_next_is_chosen(code: CardQrCode, qtbot):
    """Waiting for the choice to rest, the next card showed "too long for a QR code",
    said of the card before, for as long as a key was held."""
    too_long = parse_card({"uuid": "long", "display_name": "Long", "position": "x" * 3500})
    show(code, too_long, qtbot)
    assert code.no_code_label.isVisible()
    code.set_card(CARD)
    assert code.no_code_label.isHidden()
    assert not code.copy_button.isEnabled()
    qtbot.waitUntil(lambda: code.copy_button.isEnabled())
    assert code.picture.isVisible()
    assert code.no_code_label.isHidden()


def test_a_code_that_cannot_be_made_is_said_and_logged(
    code: CardQrCode, qtbot, monkeypatch, caplog
):
    def broken(_card):
        raise ValueError("no mask fits")

    monkeypatch.setattr("cardviewer.ui.cards.card_qr_code.card_qr", broken)
    show(code, CARD, qtbot)
    assert code.picture.isHidden()
    assert code.no_code_label.isVisible()
    assert code.no_code_label.text() == "No QR code could be made for this card."
    assert not code.copy_button.isEnabled()
    assert "could not be made" in caplog.text
    monkeypatch.undo()
    show(code, CARD, qtbot)
    assert code.picture.isVisible(), "the next card's code comes as before"
    assert code.no_code_label.isHidden()
