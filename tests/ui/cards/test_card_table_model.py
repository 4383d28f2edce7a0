"""The card table model against the demo server, through a real signed-in API client."""

from __future__ import annotations

import asyncio
import logging
import re

import pytest
from PySide6.QtCore import QLocale, QModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QPixmap

from cardviewer.api import CardPage, CardsClient, CardViewerError, SpaceUnavailable
from cardviewer.api.errors import UnexpectedResponse
from cardviewer.demo import Fault
from cardviewer.demo.data import timestamp
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.ui.cards.card_table_model import (
    CARD_ROLE,
    SORT_ROLE,
    CardTableModel,
    PageRequest,
    PageSource,
    avatar_url,
)
from cardviewer.ui.cards.columns import alignment, display_text, tooltip_text
from cardviewer.ui.plain_text import plain_tooltip
from tests.ui.clients import single_try_client

WAIT = 15_000
DISPLAY = Qt.ItemDataRole.DisplayRole
DECORATION = Qt.ItemDataRole.DecorationRole


def source_for(client: CardsClient) -> PageSource:
    async def fetch(request: PageRequest) -> CardPage:
        return await client.list_cards(
            request.space_id, request.page, with_emails=request.with_emails
        )

    return fetch


@pytest.fixture
def client(demo_server, arun):
    client = single_try_client(demo_server.base_url)
    arun(client.login(demo_server.email, demo_server.password))
    yield client
    arun(client.aclose())


@pytest.fixture
def avatars(qloop, arun):
    # The model is under test, not the disk; the demo's image host is on loopback.
    loader = AvatarLoader(use_disk_cache=False, allow_private_hosts=True)
    yield loader
    arun(loader.aclose())


@pytest.fixture
def model(qloop, arun, client, avatars):
    model = CardTableModel(avatars)
    model.set_source(source_for(client))
    yield model
    arun(model.aclose())


def load(qtbot, model: CardTableModel, space: str, page: int = 1, emails: bool = False):
    with qtbot.waitSignal(model.pageLoaded, timeout=WAIT) as loaded:
        model.request_page(space, page, emails)
    return loaded.args[0]


def fail(qtbot, model: CardTableModel, space: str, page: int = 1, emails: bool = False):
    with qtbot.waitSignal(model.loadFailed, timeout=WAIT) as failed:
        model.request_page(space, page, emails)
    return failed.args


def header(model: CardTableModel) -> list[str]:
    return [model.headerData(n, Qt.Orientation.Horizontal) for n in range(model.columnCount())]


def cell(model: CardTableModel, row: int, key: str, role=DISPLAY):
    column = model.column_of(key)
    assert column is not None, key
    return model.data(model.index(row, column), role)


# A page arrives


def test_a_page_replaces_the_table_with_a_reset(qtbot, model, demo_server):
    loading: list[bool] = []
    model.loadingChanged.connect(loading.append)
    with qtbot.waitSignals(
        [model.modelAboutToBeReset, model.modelReset, model.pageLoaded],
        order="strict",
        timeout=WAIT,
    ):
        model.request_page(demo_server.space_id, 1, False)
        assert model.is_loading
    assert loading == [True, False]
    assert not model.is_loading
    assert model.current_request == PageRequest(demo_server.space_id, 1, False)
    assert model.pending_request is None
    assert model.page is not None
    assert model.page.meta.current_page == 1


def test_rows_columns_and_headers_show_the_space(qtbot, model, demo_server):
    load(qtbot, model, demo_server.space_id, 2)
    expected = demo_server.spaces[demo_server.space_id].cards[10:20]
    assert model.rowCount() == 10
    assert header(model) == [
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
    assert model.columnCount() == 13
    assert model.headerData(0, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == "Avatar"
    for row, card in enumerate(expected):
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


def test_model_contract(qtbot, qtmodeltester, model, demo_server):
    qtmodeltester.check(model)  # empty
    load(qtbot, model, demo_server.space_id, 1, emails=True)
    qtmodeltester.check(model)
    load(qtbot, model, demo_server.empty_space_id)
    qtmodeltester.check(model)


def test_emails_column_when_asked_for(qtbot, model, demo_server):
    load(qtbot, model, demo_server.space_id, 1, emails=True)
    expected = demo_server.spaces[demo_server.space_id].cards[:10]
    assert "E-mails" in header(model)
    assert model.columnCount() == 14
    for row, card in enumerate(expected):
        assert cell(model, row, "emails") == "; ".join(e.email for e in card.emails)
    load(qtbot, model, demo_server.space_id, 1, emails=False)
    assert "E-mails" not in header(model)


def test_roles(qtbot, model, demo_server, avatars):
    load(qtbot, model, demo_server.space_id)
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


def test_sort_role_sorts_numbers_as_numbers(qtbot, model, demo_server):
    load(qtbot, model, demo_server.space_id)
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    column = model.column_of("connects")
    assert column is not None
    proxy.sort(column, Qt.SortOrder.AscendingOrder)
    values = [proxy.index(row, column).data(SORT_ROLE) for row in range(proxy.rowCount())]
    assert values == sorted(values)
    assert values != sorted(values, key=str)  # numeric order, not text order


def test_empty_space(qtbot, model, demo_server):
    page = load(qtbot, model, demo_server.empty_space_id)
    assert page.is_empty
    assert model.rowCount() == 0
    assert model.columnCount() == 10


def test_invalid_values_are_marked(qtbot, model, demo_server):
    demo_server.faults.inject(Fault.WRONG_TYPES)
    load(qtbot, model, demo_server.space_id)
    assert cell(model, 0, "connects") == "(invalid)"
    assert cell(model, 0, "connects", Qt.ItemDataRole.ToolTipRole) == plain_tooltip(
        'The server sent an invalid value: "many"'
    )
    assert cell(model, 1, "connects") != "(invalid)"


# Only the last request lands


def test_rapid_requests_only_the_last_lands(qtbot, model, demo_server):
    demo_server.config.latency = 0.3
    landed: list[CardPage] = []
    model.pageLoaded.connect(landed.append)
    with qtbot.waitSignal(model.pageLoaded, timeout=WAIT):
        for page in (1, 2, 3):
            model.request_page(demo_server.space_id, page, False)
        assert model.pending_request == PageRequest(demo_server.space_id, 3, False)
    assert [p.meta.current_page for p in landed] == [3]
    assert model.current_request is not None
    assert model.current_request.page == 3
    assert cell(model, 0, "username") == demo_server.spaces[demo_server.space_id].cards[20].username


def test_a_stale_page_that_arrives_late_is_ignored(qtbot, qloop, model, client, demo_server, arun):
    """Even a source that ignores cancellation cannot bring back an older page."""
    pages: dict[int, CardPage] = {
        n: arun(client.list_cards(demo_server.space_id, n)) for n in (1, 2)
    }
    gates = {n: qloop.create_future() for n in (1, 2)}
    started: list[int] = []
    returned: list[int] = []

    async def stubborn(request: PageRequest) -> CardPage:
        started.append(request.page)
        try:
            while True:
                try:
                    await asyncio.shield(gates[request.page])
                    return pages[request.page]
                except asyncio.CancelledError:
                    continue  # carries on regardless
        finally:
            returned.append(request.page)

    landed: list[CardPage] = []
    model.pageLoaded.connect(landed.append)
    model.set_source(stubborn)
    model.request_page(demo_server.space_id, 1, False)
    qtbot.waitUntil(lambda: started == [1], timeout=WAIT)
    model.request_page(demo_server.space_id, 2, False)
    qtbot.waitUntil(lambda: started == [1, 2], timeout=WAIT)
    with qtbot.waitSignal(model.pageLoaded, timeout=WAIT):
        gates[2].set_result(None)
    gates[1].set_result(None)
    qtbot.waitUntil(lambda: sorted(returned) == [1, 2], timeout=WAIT)
    assert landed == [pages[2]]
    assert model.page is pages[2]
    assert not model.is_loading


def test_the_page_on_screen_stays_while_the_next_loads(qtbot, model, demo_server):
    load(qtbot, model, demo_server.space_id, 1)
    first = model.card(0)
    demo_server.config.latency = 0.3
    with qtbot.waitSignal(model.pageLoaded, timeout=WAIT):
        model.request_page(demo_server.space_id, 2, False)
        assert model.is_loading
        assert model.pending_request == PageRequest(demo_server.space_id, 2, False)
        assert model.current_request == PageRequest(demo_server.space_id, 1, False)
        assert model.rowCount() == 10
        assert model.card(0) is first
    assert model.card(0) is not first


# Failures


def test_failure_keeps_the_page_and_retry_loads_it(qtbot, model, demo_server):
    load(qtbot, model, demo_server.space_id, 1)
    shown = model.page
    resets: list[None] = []
    model.modelReset.connect(lambda: resets.append(None))
    demo_server.faults.inject(Fault.SERVICE_UNAVAILABLE)
    request, error = fail(qtbot, model, demo_server.space_id, 2)
    assert request == PageRequest(demo_server.space_id, 2, False)
    assert isinstance(error, CardViewerError)
    assert str(error)
    assert resets == []
    assert model.page is shown
    assert model.rowCount() == 10
    assert model.current_request == PageRequest(demo_server.space_id, 1, False)
    assert model.pending_request is None
    assert not model.is_loading
    with qtbot.waitSignal(model.pageLoaded, timeout=WAIT):
        model.retry()
    assert model.current_request == request


def test_unknown_space(qtbot, model, demo_server):
    _, error = fail(qtbot, model, "no-such-space")
    assert isinstance(error, SpaceUnavailable)


def test_a_bug_in_the_source_is_reported_not_swallowed(qtbot, model, demo_server, caplog):
    async def broken(request: PageRequest) -> CardPage:
        raise KeyError("meta")

    model.set_source(broken)
    _, error = fail(qtbot, model, demo_server.space_id)
    assert type(error) is CardViewerError
    assert str(error).startswith("Something went wrong while loading the page")
    assert "KeyError" in error.detail
    logged = [r for r in caplog.records if r.levelno == logging.ERROR and r.exc_info]
    assert logged
    assert logged[0].exc_info[0] is KeyError


def test_without_a_source_loading_fails_with_a_message(qtbot, qloop):
    model = CardTableModel()
    _, error = fail(qtbot, model, "space")
    assert isinstance(error, CardViewerError)
    assert "sign in" in str(error)


def test_a_broken_reply_is_a_failure_too(qtbot, model, demo_server):
    demo_server.faults.inject(Fault.TRUNCATED_JSON)
    _, error = fail(qtbot, model, demo_server.space_id)
    assert isinstance(error, UnexpectedResponse | CardViewerError)


# Avatars


def test_avatars_of_the_page_are_requested_and_repainted(qtbot, model, demo_server, avatars):
    changed: list[tuple[int, int, list[int]]] = []
    model.dataChanged.connect(
        lambda top, bottom, roles: changed.append((top.row(), top.column(), list(roles)))
    )
    load(qtbot, model, demo_server.space_id)
    urls = {avatar_url(model.card(row)) for row in range(model.rowCount())} - {None}
    assert urls
    qtbot.waitUntil(lambda: all(avatars.pixmap(u) is not None for u in urls), timeout=WAIT)
    rows = {row for row in range(model.rowCount()) if avatar_url(model.card(row)) in urls}
    assert {row for row, _, _ in changed} == rows
    assert all(column == 0 and roles == [DECORATION] for _, column, roles in changed)
    for row in rows:
        assert cell(model, row, "avatar", DECORATION).cacheKey() == (
            avatars.pixmap(avatar_url(model.card(row))).cacheKey()
        )


def test_default_avatar_shows_the_placeholder_without_a_download(
    qtbot, model, demo_server, avatars
):
    load(qtbot, model, demo_server.space_id)
    defaults = [row for row in range(model.rowCount()) if model.card(row).avatar.is_default]
    assert defaults
    decoration = cell(model, defaults[0], "avatar", DECORATION)
    assert decoration.cacheKey() == avatars.placeholder().cacheKey()
    own = {avatar_url(model.card(row)) for row in range(model.rowCount())} - {None}
    qtbot.waitUntil(lambda: all(avatars.pixmap(u) is not None for u in own), timeout=WAIT)
    paths = [r.path for r in demo_server.requests if r.server == "avatar"]
    assert not any("default" in path for path in paths)


def test_an_avatar_for_a_page_left_behind_repaints_nothing(qtbot, model, demo_server, avatars):
    demo_server.config.avatar_latency = 0.3
    load(qtbot, model, demo_server.space_id, 1)
    old = {avatar_url(model.card(row)) for row in range(model.rowCount())} - {None}
    load(qtbot, model, demo_server.space_id, 2)
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


# Export


def test_export_rows(qtbot, model, demo_server):
    load(qtbot, model, demo_server.space_id, 1, emails=True)
    head, rows = model.export_rows()
    assert head[0] == "Avatar URL"
    assert head[1:4] == ["Name", "Username", "Position"]
    assert "" not in head
    assert len(rows) == 10
    expected = demo_server.spaces[demo_server.space_id].cards[:10]
    column = {title: n for n, title in enumerate(head)}
    for row, card in zip(rows, expected, strict=True):
        assert len(row) == len(head)
        assert row[column["Avatar URL"]].startswith(demo_server.avatar_base_url + "/avatars/")
        assert row[column["Name"]] == card.display_name
        assert row[column["Public"]] == ("yes" if card.public else "no")
        assert row[column["Connects"]] == str(card.connects)
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", row[column["Created"]])
        assert row[column["E-mails"]] == "; ".join(e.email for e in card.emails)
        assert row[column["Space"]].startswith('{"uuid":')


def test_export_of_nothing(qloop):
    head, rows = CardTableModel().export_rows()
    assert head[0] == "Avatar URL"
    assert rows == []


# Lifetime


def test_clear_empties_the_table_and_stops_loading(qtbot, qtmodeltester, model, demo_server):
    load(qtbot, model, demo_server.space_id)
    demo_server.config.latency = 0.3
    model.request_page(demo_server.space_id, 2, False)
    with qtbot.waitSignals([model.modelAboutToBeReset, model.modelReset], order="strict"):
        model.clear()
    assert model.rowCount() == 0
    assert model.page is None
    assert model.current_request is None
    assert model.pending_request is None
    assert not model.is_loading
    qtmodeltester.check(model)
    model.retry()  # nothing to repeat after clear
    assert not model.is_loading


def test_a_new_source_drops_the_load_under_way(qtbot, model, demo_server):
    demo_server.config.latency = 0.3
    model.request_page(demo_server.space_id, 1, False)
    with qtbot.waitSignal(model.loadingChanged, check_params_cb=lambda busy: not busy):
        model.set_source(None)
    assert model.pending_request is None
    assert model.page is None


def test_close_cancels_the_load_under_way(qtbot, arun, model, demo_server):
    demo_server.config.latency = 30.0
    model.request_page(demo_server.space_id, 1, False)
    arun(model.aclose(), timeout=5_000)
    assert not model.is_loading
    model.request_page(demo_server.space_id, 1, False)
    assert not model.is_loading


# Prefetch and the page cache


@pytest.fixture
def prefetching(qloop, arun, client, avatars):
    model = CardTableModel(avatars, prefetch=True)
    model.set_source(source_for(client), scope=client.server_url)
    yield model
    arun(model.aclose())


def page_requests(demo_server) -> list[str]:
    return [r.path for r in demo_server.requests if "/cards" in r.path]


def settle(qtbot, model: CardTableModel) -> None:
    """Wait until the background fetches of neighbouring pages have ended."""
    qtbot.waitUntil(lambda: not model.is_prefetching, timeout=WAIT)


def test_the_next_and_previous_pages_are_fetched_in_the_background(qtbot, prefetching, demo_server):
    load(qtbot, prefetching, demo_server.space_id, 5)
    settle(qtbot, prefetching)
    fetched = page_requests(demo_server)
    assert len(fetched) == 3
    assert {p.split("page=")[1] for p in fetched} == {"4", "5", "6"}


def test_a_fetched_page_is_shown_at_once_without_a_request(qtbot, prefetching, demo_server):
    load(qtbot, prefetching, demo_server.space_id, 1)
    settle(qtbot, prefetching)
    demo_server.clear_requests()
    shown: list[CardPage] = []
    prefetching.pageLoaded.connect(shown.append)
    prefetching.request_page(demo_server.space_id, 2, False)
    assert [p.meta.current_page for p in shown] == [2]  # before request_page returned
    assert not prefetching.is_loading
    assert cell(prefetching, 0, "display_name") == (
        demo_server.spaces[demo_server.space_id].cards[10].display_name
    )
    settle(qtbot, prefetching)
    assert [p.split("page=")[1] for p in page_requests(demo_server)] == ["3"]


def test_asking_for_a_page_being_prefetched_shares_its_request(qtbot, prefetching, demo_server):
    load(qtbot, prefetching, demo_server.space_id, 1)
    settle(qtbot, prefetching)
    demo_server.config.latency = 0.3
    demo_server.clear_requests()
    prefetching.request_page(demo_server.space_id, 2, False)  # from the cache; 3 is fetched
    assert prefetching.page is not None
    assert prefetching.page.meta.current_page == 2
    page = load(qtbot, prefetching, demo_server.space_id, 3)  # while 3 is on its way
    assert page.meta.current_page == 3
    assert len([p for p in page_requests(demo_server) if p.endswith("page=3")]) == 1


def test_refresh_asks_the_server_again(qtbot, prefetching, demo_server):
    load(qtbot, prefetching, demo_server.space_id, 1)
    settle(qtbot, prefetching)
    demo_server.clear_requests()
    with qtbot.waitSignal(prefetching.pageLoaded, timeout=WAIT):
        prefetching.retry()
    settle(qtbot, prefetching)
    assert sorted(p.split("page=")[1] for p in page_requests(demo_server)) == ["1", "2"]


def test_another_space_drops_the_cache(qtbot, prefetching, demo_server):
    from cardviewer.demo import EMPTY_SPACE_ID

    load(qtbot, prefetching, demo_server.space_id, 1)
    settle(qtbot, prefetching)
    load(qtbot, prefetching, EMPTY_SPACE_ID, 1)
    demo_server.clear_requests()
    load(qtbot, prefetching, demo_server.space_id, 2)  # was prefetched, but for the old view
    assert len([p for p in page_requests(demo_server) if "page=2" in p]) == 1


def test_e_mails_are_part_of_what_is_cached(qtbot, prefetching, demo_server):
    load(qtbot, prefetching, demo_server.space_id, 1)
    settle(qtbot, prefetching)
    demo_server.clear_requests()
    page = load(qtbot, prefetching, demo_server.space_id, 2, emails=True)
    assert prefetching.column_of("emails") is not None
    assert page.cards[0].emails is not None
    assert any("with=emails" in p for p in page_requests(demo_server))


def test_a_failed_prefetch_is_silent_and_the_page_is_asked_for_again(
    qtbot, prefetching, demo_server
):
    failures = []
    prefetching.loadFailed.connect(lambda *args: failures.append(args))
    load(qtbot, prefetching, demo_server.space_id, 1)
    demo_server.faults.inject(Fault.HTML_502, times=1)
    settle(qtbot, prefetching)
    assert failures == []
    demo_server.clear_requests()
    page = load(qtbot, prefetching, demo_server.space_id, 2)
    assert page.meta.current_page == 2
    assert any("page=2" in p for p in page_requests(demo_server))


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


def test_cells_read_as_their_columns_say_and_stay_the_same(qtbot, model, demo_server):
    demo_server.faults.inject(Fault.WRONG_TYPES)  # invalid cells too
    load(qtbot, model, demo_server.space_id, 1)
    for _ in range(2):  # made on the first request, looked up on the second
        for index, column, card in every_cell(model):
            assert model.data(index, DISPLAY) == display_text(column, card)
            tooltip = tooltip_text(column, card)
            assert model.data(index, TOOLTIP) == (tooltip and plain_tooltip(tooltip))
            assert model.data(index, SORT_ROLE) == column.sort_value(card)
            assert model.data(index, Qt.ItemDataRole.TextAlignmentRole) == alignment(column)
            assert model.data(index, CARD_ROLE) is card
            assert model.data(index, Qt.ItemDataRole.FontRole) is None


def test_a_new_page_is_read_in_the_locale_of_now(qtbot, model, demo_server, c_locale):
    load(qtbot, model, demo_server.space_id, 1)
    iso = cell(model, 0, "created_at")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", iso)
    QLocale.setDefault(QLocale("de_DE"))
    load(qtbot, model, demo_server.space_id, 2)
    load(qtbot, model, demo_server.space_id, 1)  # the same page again: its texts anew
    german = cell(model, 0, "created_at")
    assert german != iso
    assert re.fullmatch(r"\d\d\.\d\d\.\d{4} \d\d:\d\d", german)


def test_refresh_texts_reads_the_page_on_screen_again(qtbot, model, demo_server, c_locale):
    load(qtbot, model, demo_server.space_id, 1)
    before = [model.data(index, DISPLAY) for index, _, _ in every_cell(model)]
    QLocale.setDefault(QLocale("de_DE"))
    changed: list[tuple[int, int, int, int, list[int]]] = []
    model.dataChanged.connect(
        lambda top, bottom, roles: changed.append(
            (top.row(), top.column(), bottom.row(), bottom.column(), list(roles))
        )
    )
    model.refresh_texts()
    last_row, last_column = model.rowCount() - 1, model.columnCount() - 1
    assert changed == [(0, 0, last_row, last_column, [DISPLAY, TOOLTIP, SORT_ROLE])]
    after = [model.data(index, DISPLAY) for index, _, _ in every_cell(model)]
    assert after != before
    assert after == [display_text(column, card) for _, column, card in every_cell(model)]


def test_refresh_texts_of_an_empty_table_changes_nothing(qloop):
    model = CardTableModel()
    changed: list[object] = []
    model.dataChanged.connect(lambda *args: changed.append(args))
    model.refresh_texts()
    assert changed == []


def test_an_avatar_is_looked_up_anew_not_kept_with_the_texts(qtbot, model, demo_server, avatars):
    demo_server.config.avatar_latency = 0.3
    load(qtbot, model, demo_server.space_id)
    row = next(r for r in range(model.rowCount()) if avatar_url(model.card(r)) is not None)
    url = avatar_url(model.card(row))
    assert cell(model, row, "display_name")  # the row's texts are made now
    before = cell(model, row, "avatar", DECORATION)
    assert before.cacheKey() == avatars.placeholder().cacheKey()
    qtbot.waitUntil(lambda: avatars.pixmap(url) is not None, timeout=WAIT)
    after = cell(model, row, "avatar", DECORATION)
    assert after.cacheKey() == avatars.pixmap(url).cacheKey()
    assert after.cacheKey() != before.cacheKey()
