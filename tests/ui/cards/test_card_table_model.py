"""The card table model over pages of the demo server, fetched by a real signed-in API client."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from PySide6.QtCore import QLocale, QModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QPixmap

from cardviewer.api import CardPage
from cardviewer.demo import Fault
from cardviewer.demo.data import timestamp
from cardviewer.services.page_loader import PageRequest
from cardviewer.ui.cards.card_table_model import CARD_ROLE, SORT_ROLE, CardTableModel, avatar_url
from cardviewer.ui.cards.columns import alignment, display_text, tooltip_text
from cardviewer.ui.plain_text import plain_tooltip

WAIT = 15_000
DISPLAY = Qt.ItemDataRole.DisplayRole
DECORATION = Qt.ItemDataRole.DecorationRole


@pytest.fixture
def model(qloop, avatars):
    return CardTableModel(avatars)


Load = Callable[..., CardPage]


@pytest.fixture
def load(arun, client, model) -> Load:
    """Show a page of the demo server in `model`, as it came from the server."""

    def load(space: str, page: int = 1, emails: bool = False) -> CardPage:
        card_page: CardPage = arun(client.list_cards(space, page, with_emails=emails))
        model.show_page(PageRequest(space, page, emails), card_page)
        return card_page

    return load


def header(model: CardTableModel) -> list[str]:
    return [model.headerData(n, Qt.Orientation.Horizontal) for n in range(model.columnCount())]


def cell(model: CardTableModel, row: int, key: str, role=DISPLAY):
    column = model.column_of(key)
    assert column is not None, key
    return model.data(model.index(row, column), role)


def test_rows_columns_and_headers_show_the_space(qtbot, model, demo_server, load):
    load(demo_server.space_id, 2)
    expected = demo_server.spaces[demo_server.space_id].cards[10:20]
    assert model.rowCount() == 10
    assert header(model) == [
        "ID",
        "",  # the avatar column: its title is in the tooltip
        "Name",
        "Username",
        "Position",
        "Public",
        "Connected cards",
        "Connects",
        "Subscriptions",
        "Created",
        "Updated",
        "Redirection",
        "Is business",
        "Space",
    ]
    assert model.columnCount() == 14
    assert model.headerData(1, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == "Avatar"
    for row, card in enumerate(expected):
        assert cell(model, row, "uuid") == card.uuid
        assert cell(model, row, "display_name") == card.display_name
        assert cell(model, row, "username") == card.username
        assert cell(model, row, "position") == card.position
        assert cell(model, row, "public") == ("Yes" if card.public else "No")
        assert cell(model, row, "connects") == f"{card.connects:,}"
        assert cell(model, row, "is_business") == ("Yes" if card.is_business else "No")
        tooltip = cell(model, row, "created_at", Qt.ItemDataRole.ToolTipRole)
        assert tooltip == plain_tooltip(timestamp(card.created_at))
        assert model.card(row) is not None
        assert model.card(row).uuid == card.uuid
    assert model.card(10) is None
    assert model.card(-1) is None


def test_model_contract(qtbot, qtmodeltester, model, demo_server, load):
    qtmodeltester.check(model)  # empty
    load(demo_server.space_id, 1, emails=True)
    qtmodeltester.check(model)
    load(demo_server.empty_space_id)
    qtmodeltester.check(model)


def test_emails_column_when_asked_for(qtbot, model, demo_server, load):
    load(demo_server.space_id, 1, emails=True)
    expected = demo_server.spaces[demo_server.space_id].cards[:10]
    assert "E-mails" in header(model)
    assert model.columnCount() == 15
    for row, card in enumerate(expected):
        assert cell(model, row, "emails") == "; ".join(e.email for e in card.emails)
    load(demo_server.space_id, 1, emails=False)
    assert "E-mails" not in header(model)


def test_roles(qtbot, model, demo_server, avatars, load):
    load(demo_server.space_id)
    card = model.card(0)
    assert card is not None
    assert cell(model, 0, "display_name", CARD_ROLE) is card
    assert cell(model, 0, "connects", SORT_ROLE) == card.connects
    assert cell(model, 0, "created_at", SORT_ROLE) == card.created_at
    right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
    assert cell(model, 0, "connects", Qt.ItemDataRole.TextAlignmentRole) == right
    assert isinstance(cell(model, 0, "avatar", DECORATION), QPixmap)
    assert cell(model, 0, "avatar", DISPLAY) == ""
    assert cell(model, 0, "display_name", DECORATION) is None
    assert model.data(QModelIndex()) is None
    assert model.CardRole == CARD_ROLE == Qt.ItemDataRole.UserRole + 1
    assert model.SortRole == SORT_ROLE == Qt.ItemDataRole.UserRole + 2


def test_sort_role_sorts_numbers_as_numbers(qtbot, model, demo_server, load):
    load(demo_server.space_id)
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    column = model.column_of("connects")
    assert column is not None
    proxy.sort(column, Qt.SortOrder.AscendingOrder)
    values = [proxy.index(row, column).data(SORT_ROLE) for row in range(proxy.rowCount())]
    assert values == sorted(values)
    assert values != sorted(values, key=str)  # numeric order, not text order


def test_empty_space(qtbot, model, demo_server, load):
    page = load(demo_server.empty_space_id)
    assert page.is_empty
    assert model.rowCount() == 0
    assert model.columnCount() == 11


def test_invalid_values_are_marked(qtbot, model, demo_server, load):
    demo_server.faults.inject(Fault.WRONG_TYPES)
    load(demo_server.space_id)
    assert cell(model, 0, "connects") == "(invalid)"
    assert cell(model, 0, "connects", Qt.ItemDataRole.ToolTipRole) == plain_tooltip(
        'The server sent an invalid value: "many"'
    )
    assert cell(model, 1, "connects") != "(invalid)"


# Avatars


def test_avatars_of_the_page_are_requested_and_repainted(qtbot, model, demo_server, avatars, load):
    changed: list[tuple[int, int, list[int]]] = []
    model.dataChanged.connect(
        lambda top, bottom, roles: changed.append((top.row(), top.column(), list(roles)))
    )
    load(demo_server.space_id)
    urls = {avatar_url(model.card(row)) for row in range(model.rowCount())} - {None}
    assert urls
    qtbot.waitUntil(lambda: all(avatars.pixmap(u) is not None for u in urls), timeout=WAIT)
    rows = {row for row in range(model.rowCount()) if avatar_url(model.card(row)) in urls}
    assert {row for row, _, _ in changed} == rows
    avatar = model.column_of("avatar")
    assert all(column == avatar and roles == [DECORATION] for _, column, roles in changed)
    for row in rows:
        assert cell(model, row, "avatar", DECORATION).cacheKey() == (
            avatars.pixmap(avatar_url(model.card(row))).cacheKey()
        )


def test_default_avatar_shows_the_placeholder_without_a_download(
    qtbot, model, demo_server, avatars, load
):
    load(demo_server.space_id)
    defaults = [row for row in range(model.rowCount()) if model.card(row).avatar.is_default]
    assert defaults
    decoration = cell(model, defaults[0], "avatar", DECORATION)
    assert decoration.cacheKey() == avatars.placeholder().cacheKey()
    own = {avatar_url(model.card(row)) for row in range(model.rowCount())} - {None}
    qtbot.waitUntil(lambda: all(avatars.pixmap(u) is not None for u in own), timeout=WAIT)
    paths = [r.path for r in demo_server.requests if r.server == "avatar"]
    assert not any("default" in path for path in paths)


def test_an_avatar_for_a_page_left_behind_repaints_nothing(
    qtbot, model, demo_server, avatars, load
):
    demo_server.config.avatar_latency = 0.3
    load(demo_server.space_id, 1)
    old = {avatar_url(model.card(row)) for row in range(model.rowCount())} - {None}
    load(demo_server.space_id, 2)
    new = {avatar_url(model.card(row)) for row in range(model.rowCount())} - {None}
    changed: list[int] = []
    model.dataChanged.connect(lambda top, bottom, roles: changed.append(top.row()))
    qtbot.waitUntil(lambda: all(avatars.pixmap(u) is not None for u in old | new), timeout=WAIT)
    assert sorted(changed) == sorted(
        row for row in range(model.rowCount()) if avatar_url(model.card(row)) in new
    )
    # And directly: a picture of the old page arriving now changes no cell.
    changed.clear()
    avatars.avatarReady.emit(next(iter(old)))
    assert changed == []


def test_an_empty_model_has_headers_in_every_role(qloop):
    model = CardTableModel()
    for section in range(model.columnCount()):
        for role in (DISPLAY, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.TextAlignmentRole):
            model.headerData(section, Qt.Orientation.Horizontal, role)
    alignment = model.headerData(0, Qt.Orientation.Horizontal, Qt.ItemDataRole.TextAlignmentRole)
    assert alignment is not None


# Texts made once per page


TOOLTIP = Qt.ItemDataRole.ToolTipRole


@pytest.fixture
def c_locale():
    previous = QLocale()
    QLocale.setDefault(QLocale.c())
    yield
    QLocale.setDefault(previous)


def every_cell(model: CardTableModel):
    for row in range(model.rowCount()):
        card = model.card(row)
        assert card is not None
        for n, column in enumerate(model.columns):
            yield model.index(row, n), column, card


def test_cells_read_as_their_columns_say_and_stay_the_same(qtbot, model, demo_server, load):
    demo_server.faults.inject(Fault.WRONG_TYPES)  # invalid cells too
    load(demo_server.space_id, 1)
    for _ in range(2):  # made on the first request, looked up on the second
        for index, column, card in every_cell(model):
            assert model.data(index, DISPLAY) == display_text(column, card)
            tooltip = tooltip_text(column, card)
            assert model.data(index, TOOLTIP) == (tooltip and plain_tooltip(tooltip))
            assert model.data(index, SORT_ROLE) == column.sort_value(card)
            assert model.data(index, Qt.ItemDataRole.TextAlignmentRole) == alignment(column)
            assert model.data(index, CARD_ROLE) is card
            assert model.data(index, Qt.ItemDataRole.FontRole) is None


def test_a_new_page_is_read_in_the_locale_of_now(qtbot, model, demo_server, c_locale, load):
    load(demo_server.space_id, 1)
    iso = cell(model, 0, "created_at")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", iso)
    QLocale.setDefault(QLocale("de_DE"))
    load(demo_server.space_id, 2)
    load(demo_server.space_id, 1)  # the same page again: its texts anew
    german = cell(model, 0, "created_at")
    assert german != iso
    assert re.fullmatch(r"\d\d\.\d\d\.\d{4} \d\d:\d\d", german)


def test_an_avatar_is_looked_up_anew_not_kept_with_the_texts(
    qtbot, model, demo_server, avatars, load
):
    demo_server.config.avatar_latency = 0.3
    load(demo_server.space_id)
    row = next(r for r in range(model.rowCount()) if avatar_url(model.card(r)) is not None)
    url = avatar_url(model.card(row))
    assert cell(model, row, "display_name")  # the row's texts are made now
    before = cell(model, row, "avatar", DECORATION)
    assert before.cacheKey() == avatars.placeholder().cacheKey()
    qtbot.waitUntil(lambda: avatars.pixmap(url) is not None, timeout=WAIT)
    after = cell(model, row, "avatar", DECORATION)
    assert after.cacheKey() == avatars.pixmap(url).cacheKey()
    assert after.cacheKey() != before.cacheKey()
