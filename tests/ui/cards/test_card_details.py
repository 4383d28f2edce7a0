"""The card details pane: every field readable, copy buttons, and the picture as it arrives."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QLocale, QSizeF, Qt
from PySide6.QtGui import QColor, QFontDatabase, QGuiApplication, QHelpEvent, QImage, QPixmap
from PySide6.QtWidgets import QApplication, QFormLayout, QLabel, QToolTip

from cardviewer.api import CardPage, CardsClient
from cardviewer.api.models import Card, parse_card
from cardviewer.demo.avatars import colour_for
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.card_columns import build_columns
from cardviewer.services.store_copies import Change
from cardviewer.ui.cards.card_details import AVATAR_SIZE, CardDetailsPane, card_json
from cardviewer.ui.cards.card_table_model import avatar_url
from cardviewer.ui.cards.detail_row import EMPTY
from cardviewer.ui.cards.value_text import format_local_time
from cardviewer.ui.plain_text import plain_tooltip

WAIT = 15_000
SELECTABLE = Qt.TextInteractionFlag.TextSelectableByMouse | (
    Qt.TextInteractionFlag.TextSelectableByKeyboard
)
SPACE = {"uuid": "acme1EU01demo01", "name": "Acme Europe GmbH", "tags": ["sales", "emea"]}


SUBSCRIPTIONS = [
    {
        "uuid": "s1",
        "plan": "business",
        "status": "active",
        "seats": 12,
        "renews_at": "2026-03-01T09:00:00.000000Z",
        "features": ["crm-sync", "analytics", "custom-domain", "priority-support"],
    },
    {"uuid": "s2", "plan": "premium", "status": "cancelled", "seats": 1, "renews_at": None},
]

NOT_SENT = object()


def raw_card(**fields: Any) -> dict[str, Any]:
    """A card as the server sends it; a field given as `NOT_SENT` is left out."""
    raw: dict[str, Any] = {
        "uuid": "c1",
        "avatar": {"uuid": None, "src": "https://cdn.example/avatars/default.png"},
        "username": "max-mueller",
        "display_name": 'Maximilian "Max" Müller',
        "position": "Sales Engineer, DACH",
        "public": True,
        "connected_cards": 12,
        "connects": 1234,
        "subscriptions": None,
        "created_at": "2024-04-19T22:53:03.000000Z",
        "updated_at": "2024-04-20T08:00:00.500000Z",
        "is_business": False,
        "space": SPACE,
        "emails": [
            {"uuid": "e1", "email": "max.mueller@acme.example", "is_primary": True},
            {"uuid": "e2", "email": "m.mueller@acme-europe.example", "is_primary": False},
        ],
    }
    raw.update(fields)
    return {key: value for key, value in raw.items() if value is not NOT_SENT}


def card(**fields: Any) -> Card:
    return parse_card(raw_card(**fields))


def has_row(pane: CardDetailsPane, key: str) -> bool:
    """The card on show has a row for the field `key`."""
    return pane.findChild(QLabel, f"value_{key}") is not None


def value_label(pane: CardDetailsPane, key: str) -> QLabel:
    """The label showing the field `key`."""
    label = pane.findChild(QLabel, f"value_{key}")
    assert label is not None, key
    return label


def shows_the_hint(pane: CardDetailsPane) -> bool:
    """The pane says to select a card, instead of showing one."""
    return pane.placeholder_label.isVisibleTo(pane)


def text(pane: CardDetailsPane, key: str) -> str:
    return value_label(pane, key).text()


def row_title(pane: CardDetailsPane, label: QLabel) -> QLabel:
    """The title of the row whose field holds `label` (a value, or what it was)."""
    for row in range(pane.form.rowCount()):
        field = pane.form.itemAt(row, QFormLayout.ItemRole.FieldRole)
        layout = field.layout() if field is not None else None
        if layout is not None and layout.indexOf(label) >= 0:
            title = pane.form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            assert title is not None
            widget = title.widget()
            assert isinstance(widget, QLabel)
            return widget
    raise AssertionError(f"{label.objectName()} is in no row")


def title(pane: CardDetailsPane, key: str) -> str:
    return row_title(pane, value_label(pane, key)).text()


@pytest.fixture
def avatars(qloop, arun):
    # The demo's image host is on loopback, as the demo server is.
    loader = AvatarLoader(size=AVATAR_SIZE, use_disk_cache=False, allow_private_hosts=True)
    yield loader
    arun(loader.aclose())


@pytest.fixture
def pane(qtbot, avatars):
    widget = CardDetailsPane(avatars)
    qtbot.addWidget(widget)
    widget.resize(400, 700)
    widget.show()
    return widget


@pytest.fixture
def in_berlin(monkeypatch: pytest.MonkeyPatch):
    """A German locale in Berlin, so dates read the same on every machine."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    previous = QLocale()
    QLocale.setDefault(QLocale("de_DE"))
    yield
    QLocale.setDefault(previous)
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def clipboard(qapp):
    board = QGuiApplication.clipboard()
    board.clear()
    yield board
    board.clear()


# Nothing selected


def test_without_a_card_a_calm_hint_is_shown(pane):
    assert shows_the_hint(pane)
    assert pane.card is None
    assert pane.placeholder_label.text() == "Select a card to see its details."
    assert pane.placeholder_label.isVisible()
    assert not pane.copy_json_button.isVisible()


def test_a_card_then_none_shows_the_hint_again(pane):
    pane.set_card(card())
    assert not shows_the_hint(pane)
    assert pane.copy_json_button.isVisible()
    pane.set_card(None)
    assert shows_the_hint(pane)
    assert pane.card is None
    assert not has_row(pane, "username")
    assert pane.form.rowCount() == 0
    assert pane.avatar_label.pixmap().isNull()


# Every field


def test_every_field_is_shown_readably(pane):
    shown = card()
    pane.set_card(shown)
    assert pane.card is shown
    assert pane.name_label.text() == 'Maximilian "Max" Müller'
    assert text(pane, "username") == "max-mueller"
    assert title(pane, "username") == "Username"
    assert text(pane, "position") == "Sales Engineer, DACH"
    assert text(pane, "public") == "Yes"
    assert text(pane, "is_business") == "No"
    assert text(pane, "connected_cards") == QLocale().toString(12)
    assert text(pane, "connects") == QLocale().toString(1234)
    assert text(pane, "created_at") == format_local_time(shown.created_at)
    assert value_label(pane, "created_at").toolTip() == plain_tooltip("2024-04-19T22:53:03.000000Z")
    assert text(pane, "emails") == "max.mueller@acme.example\nm.mueller@acme-europe.example"
    assert title(pane, "emails") == "E-mails"
    # The heading and the picture show the name and the avatar; they get no row.
    assert not has_row(pane, "display_name")
    assert not has_row(pane, "avatar")


def test_a_nested_object_reads_as_a_line_per_field(pane, in_berlin):
    pane.set_card(card(subscriptions={"plan": "business", "renews_at": "2026-01-01"}))
    space = value_label(pane, "space")
    assert title(pane, "space") == "Space"
    assert space.text() == "UUID: acme1EU01demo01\nName: Acme Europe GmbH\nTags: sales, emea"
    assert text(pane, "subscriptions") == "Plan: business\nRenews at: 01.01.2026"
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    assert space.font().family() != fixed.family()
    assert space.toolTip() == plain_tooltip(json.dumps(SPACE, indent=2)), "the whole, exactly"


def test_a_nested_list_reads_as_a_line_per_item(pane):
    pane.set_card(card(subscriptions=["monthly", {"plan": "business"}, None, True]))
    lines = ["monthly", "business", "\N{EN DASH}", "Yes"]
    assert text(pane, "subscriptions").splitlines() == [f"\N{BULLET} {line}" for line in lines]


def test_a_list_of_subscriptions_reads_as_a_short_line_each(pane, in_berlin):
    pane.set_card(card(subscriptions=SUBSCRIPTIONS))
    dot = " \N{MIDDLE DOT} "
    assert text(pane, "subscriptions").splitlines() == [
        "\N{BULLET} "
        + dot.join(
            [
                "business",
                "active",
                "12 seats",
                "renews 01.03.2026 10:00",
                "features: crm-sync, analytics, custom-domain, priority-support",
            ]
        ),
        "\N{BULLET} " + dot.join(["premium", "cancelled", "1 seats"]),
    ]
    assert "{" not in text(pane, "subscriptions")


def test_a_long_list_shows_its_first_items_and_counts_the_rest(pane):
    pane.set_card(card(subscriptions=[{"plan": f"plan {n}"} for n in range(120)]))
    lines = text(pane, "subscriptions").splitlines()
    assert lines[:2] == ["\N{BULLET} plan 0", "\N{BULLET} plan 1"]
    assert len(lines) == 51
    assert lines[-1] == "\N{HORIZONTAL ELLIPSIS} and 70 more"


def test_values_are_plain_selectable_wrapped_text_with_accessible_names(pane):
    pane.set_card(card(position="<b>Head</b> & <i>Legal</i>"))
    for key in ("username", "position", "emails", "space", "created_at"):
        label = value_label(pane, key)
        assert label.textFormat() == Qt.TextFormat.PlainText
        assert label.textInteractionFlags() == SELECTABLE
        assert label.wordWrap()
        # A screen reader says field and value together, in one name.
        spoken = "Not set" if label.text() == EMPTY else label.text()
        assert label.accessibleName() == f"{title(pane, key)}: {spoken}"
        assert "<" not in label.accessibleDescription(), "what is said is never markup"
    assert text(pane, "position") == "<b>Head</b> & <i>Legal</i>"


def test_long_text_keeps_its_line_breaks(pane):
    pane.set_card(card(position="Sales Engineer\nDACH"))
    assert text(pane, "position") == "Sales Engineer\nDACH"


def test_missing_values_show_a_dash_a_screen_reader_can_name(pane):
    pane.set_card(card(position="", subscriptions=None, emails=[]))
    for key in ("position", "subscriptions", "emails"):
        assert text(pane, key) == EMPTY
        assert value_label(pane, key).accessibleName() == f"{title(pane, key)}: Not set"


def test_without_a_name_the_heading_says_so(pane):
    pane.set_card(card(display_name=None))
    assert pane.name_label.text() == "(no name)"
    assert text(pane, "display_name") == EMPTY


def test_the_tables_columns_decide_the_rows(pane):
    shown = card(emails=NOT_SENT)
    other = parse_card({"uuid": "c2", "redirection": "https://www.acme.example/team/jane"})
    pane.set_card(shown, build_columns([shown, other], with_emails=False))
    assert text(pane, "redirection") == EMPTY  # a field of another card on the page
    assert not has_row(pane, "emails")
    assert text(pane, "space")


def test_without_columns_emails_get_a_row_only_when_loaded(pane):
    pane.set_card(card(emails=NOT_SENT))
    assert not has_row(pane, "emails")
    pane.set_card(card())
    assert has_row(pane, "emails")


def test_a_new_card_replaces_the_rows(pane):
    pane.set_card(card())
    pane.set_card(parse_card({"uuid": "c2", "username": "jane", "display_name": "Jane"}))
    assert text(pane, "username") == "jane"
    assert not has_row(pane, "space")
    assert not has_row(pane, "uuid"), "the id is for files and the table"
    shown = len(build_columns([pane.card], with_emails=False)) - 3  # id, picture, name
    assert pane.form.rowCount() == shown


def test_the_next_card_fills_the_rows_already_there(pane):
    """Rows made and deleted for every card took most of an arrow key's time."""
    pane.set_card(card())
    position = value_label(pane, "position")
    pane.set_card(card(uuid="c2", position="Head of Sales"))
    assert value_label(pane, "position") is position
    assert position.text() == "Head of Sales"


def test_a_screen_reader_finds_each_value_among_the_panes(pane):
    """Each value was put in a panel of its own, with what it was before: a nameless
    level to step into for every field."""
    pane.set_card(card())
    content = pane.scroll_area.widget()
    assert content is not None
    own = content.findChildren(QLabel, options=Qt.FindChildOption.FindDirectChildrenOnly)
    assert value_label(pane, "position") in own
    assert title(pane, "position") == "Position"
    assert row_title(pane, value_label(pane, "position")).buddy() is value_label(pane, "position")
    hidden = [label for label in own if label.isHidden()]
    assert hidden == [pane.change_label], "no hidden 'before' beside each value"


def shown_tip(label: QLabel, qtbot) -> str:
    """The tooltip shown as the pointer rests on `label` ("" for none)."""
    QToolTip.hideText()
    qtbot.waitUntil(lambda: not QToolTip.isVisible())  # it goes after a moment
    middle = label.rect().center()
    event = QHelpEvent(QEvent.Type.ToolTip, middle, label.mapToGlobal(middle))
    QApplication.sendEvent(label, event)
    return QToolTip.text() if QToolTip.isVisible() else ""


def test_a_value_cut_at_the_pane_s_edge_has_its_whole_text_as_tooltip(pane, qtbot):
    """However short the word: what decides is whether the pane cuts it, as it is now
    wide. A value shown whole needs no tooltip."""
    address = "ada.lovelace@acme.example"  # shorter than any "long word" rule
    shown = card(emails=[address])
    pane.set_card(shown, build_columns((shown,), with_emails=True))
    emails = value_label(pane, "emails")
    assert shown_tip(emails, qtbot) == ""
    whole = emails.fontMetrics().horizontalAdvance(address)
    for width in range(pane.width(), 100, -20):  # titles go above values when narrow
        pane.resize(width, 700)
        qtbot.wait(10)
        if emails.width() < whole:
            break
    assert emails.width() < whole
    assert shown_tip(emails, qtbot) == plain_tooltip(address)
    assert emails.text() == address, "selected and copied whole"


def test_nothing_of_the_card_before_stays_with_the_next(pane, qtbot):
    """The rows are filled anew for each card: an invalid value's tooltip, JSON's fixed
    font, a long word's whole-text tip and the values before a sync all go with it."""
    long_word = "https://cards.example/" + "x" * 40
    now = card(public={"yes": 1}, connects="1.2k", position=long_word)
    pane.set_card(now, build_columns((now,), with_emails=True), before=card())
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    assert value_label(pane, "public").font().family() == fixed.family()
    assert value_label(pane, "connects").toolTip() != ""
    assert shown_tip(value_label(pane, "position"), qtbot) == plain_tooltip(long_word)
    assert pane.findChild(QLabel, "before_position") is not None

    pane.set_card(card(uuid="c2"))
    public, connects = value_label(pane, "public"), value_label(pane, "connects")
    assert public.text() == "Yes"
    assert public.font().family() == pane.font().family()
    assert (connects.toolTip(), connects.accessibleDescription()) == ("", "")
    assert shown_tip(value_label(pane, "position"), qtbot) == ""
    assert pane.findChild(QLabel, "before_position") is None
    assert not any(
        label.isVisible()
        for label in pane.findChildren(QLabel)
        if label.text().startswith("Before")
    )


def test_long_cards_scroll(qtbot, avatars):
    pane = CardDetailsPane(avatars)
    qtbot.addWidget(pane)
    pane.resize(360, 300)
    pane.show()
    pane.set_card(card(position="\n".join(f"Line {n}" for n in range(40))))
    content, position = pane.scroll_area.widget(), value_label(pane, "position")
    assert content is not None
    assert content.isAncestorOf(position)
    qtbot.waitUntil(lambda: pane.scroll_area.verticalScrollBar().maximum() > 0)


def test_a_narrow_pane_shows_every_value_whole_below_its_title(qtbot, avatars):
    """Neither scrolled sideways nor a date cut beside a long title."""
    pane = CardDetailsPane(avatars)
    qtbot.addWidget(pane)
    pane.resize(230, 500)
    pane.show()
    pane.set_card(card(created_at="2020-02-12T14:36:00Z", connected_cards=9))
    qtbot.waitUntil(lambda: pane.qr_code.picture.height() > 0)
    assert pane.form.rowWrapPolicy() == QFormLayout.RowWrapPolicy.WrapAllRows
    created = value_label(pane, "created_at")
    assert created.width() >= created.fontMetrics().horizontalAdvance(created.text())
    assert pane.scroll_area.horizontalScrollBar().maximum() == 0, "QR code buttons wrap"

    pane.resize(500, 500)
    qtbot.waitUntil(lambda: pane.form.rowWrapPolicy() == QFormLayout.RowWrapPolicy.WrapLongRows)


# Invalid values


def test_an_invalid_value_is_marked_with_what_was_sent(pane):
    pane.set_card(card(connects="1.2k", public={"yes": 1}))
    assert text(pane, "connects") == '(invalid) "1.2k"'
    assert value_label(pane, "connects").toolTip() == plain_tooltip(
        'The server sent an invalid value: "1.2k"'
    )
    public = text(pane, "public")
    assert public.startswith("(invalid)\n")
    assert json.loads(public.removeprefix("(invalid)\n")) == {"yes": 1}
    assert value_label(pane, "public").accessibleName() == 'Public: (invalid) {"yes":1}'
    assert value_label(pane, "connects").accessibleDescription() == (
        'The server sent an invalid value: "1.2k"'
    )


# Copying


def test_copy_handle(pane, qtbot, clipboard):
    pane.set_card(card())
    assert pane.copy_handle_button.isEnabled()
    assert pane.copy_handle_button.text() == "Copy Username"  # the field it copies, by name
    assert pane.copy_handle_button.accessibleDescription() == "max-mueller"
    with qtbot.waitSignal(pane.copied) as copied:
        qtbot.mouseClick(pane.copy_handle_button, Qt.MouseButton.LeftButton)
    assert clipboard.text() == "max-mueller"
    assert copied.args == ["Copied the username"]


def test_copy_emails_one_per_line(pane, qtbot, clipboard):
    pane.set_card(card())
    assert pane.copy_emails_button.text() == "Copy E-mails"
    with qtbot.waitSignal(pane.copied) as copied:
        qtbot.mouseClick(pane.copy_emails_button, Qt.MouseButton.LeftButton)
    assert clipboard.text() == "max.mueller@acme.example\nm.mueller@acme-europe.example"
    assert copied.args == ["Copied 2 e-mail addresses"]
    pane.set_card(card(emails=["only@acme.example"]))
    with qtbot.waitSignal(pane.copied) as copied:
        qtbot.mouseClick(pane.copy_emails_button, Qt.MouseButton.LeftButton)
    assert clipboard.text() == "only@acme.example"
    assert copied.args == ["Copied the e-mail address"]


def test_copy_as_json_gives_the_card_as_sent(pane, qtbot, clipboard):
    pane.set_card(card(connects="1.2k"))
    assert pane.copy_json_button.text() == "Copy as JSON"
    with qtbot.waitSignal(pane.copied) as copied:
        qtbot.mouseClick(pane.copy_json_button, Qt.MouseButton.LeftButton)
    assert copied.args == ["Copied the card as JSON"]
    copied_text = clipboard.text()
    assert 'Maximilian \\"Max\\" Müller' in copied_text  # not escaped to \u00fc
    assert copied_text.startswith('{\n  "uuid": "c1"')
    data = json.loads(copied_text)
    assert data["space"] == SPACE
    assert data["is_business"] is False
    assert data["connects"] == "1.2k"  # the invalid value as it came
    assert data["created_at"] == "2024-04-19T22:53:03.000000Z"
    assert data["updated_at"] == "2024-04-20T08:00:00.500000Z"
    assert data["avatar"] == {"uuid": None, "src": "https://cdn.example/avatars/default.png"}
    assert data["emails"] == ["max.mueller@acme.example", "m.mueller@acme-europe.example"]
    expected = raw_card()
    assert list(data) == [key for key in expected if key not in ("is_business", "space")] + [
        "is_business",
        "space",
    ]


def test_card_json_leaves_out_what_the_server_did_not_send():
    data = json.loads(card_json(parse_card({"uuid": "c2", "username": "jane", "x": [1, {}]})))
    assert data == {"uuid": "c2", "username": "jane", "x": [1, {}]}


def test_buttons_are_disabled_when_there_is_nothing_to_copy(pane, qtbot, clipboard):
    pane.set_card(card(username=NOT_SENT, emails=NOT_SENT))
    assert not pane.copy_handle_button.isEnabled()
    assert not pane.copy_emails_button.isEnabled()
    assert pane.copy_json_button.isEnabled()
    assert pane.copy_handle_button.toolTip() == "This card has no handle."
    assert "Include e-mails" in pane.copy_emails_button.toolTip()
    pane.set_card(card(username="", emails=[]))
    assert not pane.copy_handle_button.isEnabled()
    assert not pane.copy_emails_button.isEnabled()
    assert pane.copy_emails_button.toolTip() == "This card has no e-mail addresses."
    with qtbot.assertNotEmitted(pane.copied):
        qtbot.mouseClick(pane.copy_handle_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(pane.copy_emails_button, Qt.MouseButton.LeftButton)
    assert clipboard.text() == ""


def test_an_invalid_handle_cannot_be_copied(pane):
    pane.set_card(card(username=["max"]))
    assert not pane.copy_handle_button.isEnabled()
    assert text(pane, "username") == '(invalid)\n[\n  "max"\n]'


# The picture


@pytest.fixture
def page(demo_server, arun) -> CardPage:
    """Page 1 of the demo space, with the addresses of pictures on the demo's image host."""

    async def fetch() -> CardPage:
        async with CardsClient(demo_server.base_url) as client:
            await client.login(demo_server.email, demo_server.password)
            return await client.list_cards(demo_server.space_id, 1, with_emails=True)

    fetched: CardPage = arun(fetch())
    return fetched


def shown_image(pane: CardDetailsPane) -> QImage:
    pixmap = pane.avatar_label.pixmap()
    assert not pixmap.isNull()
    assert pixmap.deviceIndependentSize() == QSizeF(AVATAR_SIZE, AVATAR_SIZE)
    return pixmap.toImage()


def close_to(colour: QColor, rgb: tuple[int, int, int], tolerance: int = 16) -> bool:
    channels = (colour.red(), colour.green(), colour.blue())
    return all(abs(a - b) <= tolerance for a, b in zip(channels, rgb, strict=True))


def test_the_picture_arrives_from_the_image_host(pane, qtbot, avatars, page):
    own = next(c for c in page.cards if avatar_url(c) is not None)
    assert own.avatar is not None
    assert own.avatar.uuid is not None
    with qtbot.waitSignal(
        avatars.avatarReady, timeout=WAIT, check_params_cb=lambda url: url == avatar_url(own)
    ):
        pane.set_card(own)
        assert not close_to(shown_image(pane).pixelColor(16, 64), colour_for(own.avatar.uuid))
    image = shown_image(pane)
    # Left of the initials the picture shows the avatar's colour: the card's own picture.
    assert close_to(image.pixelColor(16, 64), colour_for(own.avatar.uuid))
    assert image.pixelColor(0, 0).alpha() == 0  # round, like the table's


def test_a_picture_for_another_card_changes_nothing(pane, qtbot, avatars, page):
    first, second = [c for c in page.cards if avatar_url(c) is not None][:2]
    with qtbot.waitSignal(avatars.avatarReady, timeout=WAIT):
        pane.set_card(first)
    pane.set_card(second)
    before = pane.avatar_label.pixmap().cacheKey()
    avatars.avatarReady.emit(avatar_url(first))
    assert pane.avatar_label.pixmap().cacheKey() == before
    assert first.avatar is not None
    assert first.avatar.uuid is not None
    assert not close_to(shown_image(pane).pixelColor(16, 64), colour_for(first.avatar.uuid))


def test_the_default_picture_is_the_placeholder_without_a_download(pane, avatars, page):
    default = next(c for c in page.cards if c.avatar is not None and c.avatar.is_default)
    pane.set_card(default)
    assert avatars.loading == 0
    expected = avatars.placeholder().toImage()
    image = shown_image(pane)
    assert image.pixelColor(64, 64) == expected.pixelColor(
        expected.width() // 2, expected.height() // 2
    )


def test_the_picture_has_the_screens_pixels(pane, avatars, monkeypatch):
    monkeypatch.setattr(CardDetailsPane, "devicePixelRatioF", lambda _self: 2.0)
    # The label draws for the real screen (one pixel a point here): read what it is handed.
    handed: list[QPixmap] = []
    set_pixmap = pane.avatar_label.setPixmap

    def hand(pixmap: QPixmap) -> None:
        handed.append(pixmap)
        set_pixmap(pixmap)

    monkeypatch.setattr(pane.avatar_label, "setPixmap", hand)
    pane.set_card(card())
    pixmap = handed[-1]
    assert (pixmap.width(), pixmap.height()) == (2 * AVATAR_SIZE, 2 * AVATAR_SIZE)
    assert pixmap.devicePixelRatio() == 2.0


def test_without_a_loader_there_is_no_picture(qtbot):
    pane = CardDetailsPane(None)
    qtbot.addWidget(pane)
    pane.show()
    pane.set_card(card())
    assert not pane.avatar_label.isVisible()
    assert text(pane, "username") == "max-mueller"


# Width


def test_nested_values_wrap_inside_the_panes_width(qtbot, avatars):
    pane = CardDetailsPane(avatars)
    qtbot.addWidget(pane)
    pane.resize(320, 700)
    pane.show()
    qtbot.waitExposed(pane)
    pane.set_card(card(subscriptions=SUBSCRIPTIONS, redirection="https://" + "x" * 200))
    viewport = pane.scroll_area.viewport()
    content = pane.scroll_area.widget()
    assert content is not None
    qtbot.waitUntil(lambda: content.width() <= viewport.width())
    # The scroll bars settle once the vertical one has taken its room.
    qtbot.waitUntil(lambda: not pane.scroll_area.horizontalScrollBar().isVisible())
    assert pane.sizeHint().width() < 500
    assert pane.minimumSizeHint().width() < 320
    for label in (pane.name_label, value_label(pane, "subscriptions")):
        assert label.geometry().right() <= viewport.width()


def test_a_changed_card_names_its_changed_fields_and_shows_what_they_were(pane):
    now = card(display_name="Max Müller", position="", connects=1300)
    before = card(avatar={"uuid": "a1", "src": "https://cdn.example/avatars/max.png"})
    columns = build_columns((now,), with_emails=True)
    pane.set_card(now, columns, before=before)
    assert pane.change_label.isVisible()
    assert pane.change_label.text() == (
        "Changed by the last sync: Avatar, Name, Position, Connects"
    )
    assert "Changed by the last sync" in pane.scroll_area.accessibleDescription()
    was = {
        key: label.text()
        for key in ("avatar", "display_name", "position", "connects", "username")
        if (label := pane.findChild(QLabel, f"before_{key}")) is not None
    }
    assert was == {
        "avatar": "Before: a picture",
        "display_name": 'Before: Maximilian "Max" Müller',
        "position": "Before: Sales Engineer, DACH",
        "connects": "Before: 1234",
    }
    assert text(pane, "display_name") == "Max Müller", "a changed name gets its row"
    assert text(pane, "position") == EMPTY
    before_row = pane.findChild(QLabel, "before_avatar")
    assert before_row is not None
    assert row_title(pane, before_row).text() == "Avatar"

    pane.set_card(now, columns, before=now)  # changed where no column shows it
    assert pane.change_label.text() == "Changed by the last sync"
    assert pane.findChild(QLabel, "before_position") is None
    pane.set_card(now, columns, change=Change.REMOVED)
    assert pane.change_label.text() == "Removed by the last sync"
    pane.set_card(now, columns)
    assert pane.change_label.isHidden()
    pane.set_card(now, columns, before=before)
    pane.set_card(None)
    pane.set_card(now, columns)
    assert pane.change_label.isHidden()
