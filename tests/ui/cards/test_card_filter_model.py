"""The card filter model: quick search over the page shown, and sorting by real values."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QDateTime, QLocale, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel

from cardviewer.api.models import Card, CardPage, parse_card
from cardviewer.services.card_search import card_search_text, search_terms
from cardviewer.services.card_store import CardStore
from cardviewer.services.page_loader import PageRequest
from cardviewer.services.text_collation import collation_of, locale_text_key
from cardviewer.ui.cards.card_filter_model import CardFilterModel, sort_key
from cardviewer.ui.cards.card_table_model import CARD_ROLE, SORT_ROLE, CardTableModel
from tests.properties import examples

WAIT = 5_000
ASCENDING = Qt.SortOrder.AscendingOrder
DESCENDING = Qt.SortOrder.DescendingOrder

LoadCards = Callable[..., CardTableModel]


def make_card(number: int, **fields: Any) -> Card:
    raw: dict[str, Any] = {
        "uuid": f"c{number}",
        "avatar": {"uuid": f"a{number}", "src": f"https://cdn.example/avatars/a{number}.jpg"},
        "username": f"user-{number}",
        "display_name": f"Person {number}",
        "position": "Staff",
        "public": True,
        "connected_cards": number,
        "connects": number,
        "subscriptions": None,
        "created_at": "2024-04-19T22:53:03.000000Z",
        "updated_at": "2024-04-20T08:00:00.500000Z",
        "emails": [f"person{number}@example.com"],
    }
    raw.update(fields)
    return parse_card(raw)


def page_of(cards: list[Card], number: int = 1) -> CardPage:
    total = max(len(cards), 1)
    meta = {"current_page": number, "last_page": 2, "per_page": total, "total": 2 * total}
    return CardPage.model_validate({"cards": tuple(cards), "meta": meta, "links": {}})


@pytest.fixture
def load_cards(qtbot) -> Iterator[LoadCards]:
    """Builds a card table model showing the given cards, as a page from a server would."""
    models: list[CardTableModel] = []

    def load(
        cards: list[Card], *, with_emails: bool = True, model: CardTableModel | None = None
    ) -> CardTableModel:
        if model is None:
            model = CardTableModel()
            models.append(model)
        # Page 2 when the model shows page 1 already, as the next page from a server.
        current = model.current_request
        number = 2 if current is not None and current.page == 1 else 1
        model.show_page(PageRequest("space", number, with_emails), page_of(cards, number))
        return model

    yield load
    models.clear()


def proxy_for(model: CardTableModel, **kwargs: Any) -> CardFilterModel:
    proxy = CardFilterModel(**kwargs)
    proxy.setSourceModel(model)
    return proxy


def names(proxy: CardFilterModel) -> list[str | None]:
    shown = [proxy.card(row) for row in range(proxy.rowCount())]
    return [card.display_name if card is not None else None for card in shown]


def column(model: CardTableModel, key: str) -> int:
    number = model.column_of(key)
    assert number is not None, key
    return number


PEOPLE = [
    make_card(
        1,
        display_name="Zoë Müller",
        username="zoe-m",
        position="Head of Legal",
        emails=["zoe@legal.example", "zm@private.example"],
    ),
    make_card(
        2,
        display_name="John Smith",
        username="jsmith",
        position="Sales Manager",
        emails=["john.smith@sales.example"],
    ),
    make_card(
        3,
        display_name="Jane Doe",
        username="jane",
        position="Legal Counsel",
        emails=["jane@legal.example"],
    ),
    make_card(
        4,
        display_name="Straße Team",
        username="strasse",
        position=None,
        emails=[],
    ),
]


@pytest.fixture
def people(load_cards) -> CardFilterModel:
    return proxy_for(load_cards(PEOPLE))


# Search


def test_an_empty_search_shows_every_card(people):
    assert names(people) == ["Zoë Müller", "John Smith", "Jane Doe", "Straße Team"]
    people.set_filter_text("smith")
    people.set_filter_text("   ")
    assert people.shown_count() == 4
    assert people.filter_text() == "   "
    assert people.filter_terms() == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("john", ["John Smith"]),  # name
        ("jsmith", ["John Smith"]),  # username
        ("@jane", ["Jane Doe"]),  # username written as a handle
        ("counsel", ["Jane Doe"]),  # position
        ("private.example", ["Zoë Müller"]),  # second e-mail address
        ("legal", ["Zoë Müller", "Jane Doe"]),  # position and e-mail domain
        ("nobody", []),
    ],
)
def test_search_finds_name_username_position_and_emails(people, text, expected):
    people.set_filter_text(text)
    assert names(people) == expected


def test_every_word_must_match_in_any_field(people):
    people.set_filter_text("legal jane")
    assert names(people) == ["Jane Doe"]
    people.set_filter_text("  head   zoe@legal  ")
    assert names(people) == ["Zoë Müller"]
    people.set_filter_text("legal smith")
    assert names(people) == []


def test_a_word_does_not_match_across_two_fields(people):
    # "Jane Doe" is followed by the username "jane": "doejane" is in no single field.
    people.set_filter_text("doejane")
    assert names(people) == []


@pytest.mark.parametrize("text", ["zoe", "ZOË", "muller", "MÜLLER", "Zoe Muller"])
def test_search_ignores_case_and_accents(people, text):
    people.set_filter_text(text)
    assert names(people) == ["Zoë Müller"]


def test_folded_letters_match_either_way(people):
    people.set_filter_text("strasse")
    assert names(people) == ["Straße Team"]
    people.set_filter_text("STRASSE team")
    assert names(people) == ["Straße Team"]


def test_emails_not_loaded_are_not_searched(load_cards):
    proxy = proxy_for(load_cards(PEOPLE, with_emails=True))
    proxy.set_filter_text("private.example")
    assert proxy.shown_count() == 1
    # The cards of a page loaded without e-mails carry none to find.
    without = proxy_for(load_cards([make_card(1, emails=None)], with_emails=False))
    without.set_filter_text("person1@example.com")
    assert without.shown_count() == 0


# Counts


def test_counts_follow_the_search(people, qtbot):
    seen: list[tuple[int, int]] = []
    people.countsChanged.connect(lambda shown, total: seen.append((shown, total)))
    assert (people.shown_count(), people.total_count()) == (4, 4)
    people.set_filter_text("legal")
    people.set_filter_text("legal jane")
    people.set_filter_text("LEGAL  Jane ")  # the same words: nothing changes
    people.set_filter_text("")
    assert seen == [(2, 4), (1, 4), (4, 4)]


def test_counts_follow_a_new_page_and_the_search_stays(load_cards, qtbot):
    model = load_cards(PEOPLE)
    proxy = proxy_for(model)
    proxy.set_filter_text("legal")
    seen: list[tuple[int, int]] = []
    proxy.countsChanged.connect(lambda shown, total: seen.append((shown, total)))
    newcomers = [make_card(n, position="Legal" if n < 3 else "Sales") for n in range(10)]
    load_cards(newcomers, model=model)
    assert seen[-1] == (3, 10)
    assert (proxy.shown_count(), proxy.total_count()) == (3, 10)
    assert names(proxy) == ["Person 0", "Person 1", "Person 2"]


def test_counts_without_a_source():
    proxy = CardFilterModel()
    assert (proxy.shown_count(), proxy.total_count()) == (0, 0)
    assert proxy.card(0) is None


def test_setting_the_source_reports_its_counts(load_cards, qtbot):
    model = load_cards(PEOPLE)
    proxy = CardFilterModel()
    with qtbot.waitSignal(proxy.countsChanged, timeout=WAIT) as counted:
        proxy.setSourceModel(model)
    assert counted.args == [4, 4]


# Cards


def test_card_follows_sorting_and_filtering(people):
    people.sort(column(people.sourceModel(), "display_name"), ASCENDING)
    assert names(people) == ["Jane Doe", "John Smith", "Straße Team", "Zoë Müller"]
    people.set_filter_text("j")
    card = people.card(1)
    assert card is not None
    assert card.uuid == "c2"
    assert people.card(2) is None
    assert people.card(-1) is None


def test_model_contract(qtmodeltester, people):
    qtmodeltester.check(people)
    people.set_filter_text("legal")
    people.sort(column(people.sourceModel(), "connects"), DESCENDING)
    qtmodeltester.check(people)


# Sorting


def sorted_by(proxy: CardFilterModel, key: str, order: Qt.SortOrder) -> list[Any]:
    model = proxy.sourceModel()
    assert isinstance(model, CardTableModel)
    number = column(model, key)
    proxy.sort(number, order)
    return [proxy.index(row, number).data(SORT_ROLE) for row in range(proxy.rowCount())]


def test_numbers_sort_as_numbers_with_empty_last(load_cards):
    counts = [10, 2, None, 1, 33, None, 2]
    cards = [make_card(n, connects=count) for n, count in enumerate(counts)]
    proxy = proxy_for(load_cards(cards))
    assert sorted_by(proxy, "connects", ASCENDING) == [1, 2, 2, 10, 33, None, None]
    assert sorted_by(proxy, "connects", DESCENDING) == [33, 10, 2, 2, 1, None, None]


def test_equal_values_keep_the_order_sent_whatever_was_sorted_before(load_cards):
    """Qt's sort is stable over the rows as shown, so equal values kept the order of the
    column sorted before; the local copy keeps the space's, so the two differed."""
    fields = [("b", 1, None), ("a", 1, None), ("c", 2, "x"), ("d", 1, "x")]
    cards = [
        make_card(n, display_name=name, connects=count, position=position)
        for n, (name, count, position) in enumerate(fields)
    ]
    model = load_cards(cards)
    proxy = proxy_for(model)

    def ids() -> list[str | None]:
        return [card.uuid if card else None for card in map(proxy.card, range(4))]

    for earlier in (ASCENDING, DESCENDING):
        for order in (ASCENDING, DESCENDING):
            proxy.sort(column(model, "display_name"), earlier)
            proxy.sort(column(model, "connects"), order)
            assert ids() == (
                ["c0", "c1", "c3", "c2"] if order == ASCENDING else ["c2", "c0", "c1", "c3"]
            )
            proxy.sort(column(model, "display_name"), earlier)
            proxy.sort(column(model, "position"), order)
            assert ids() == ["c2", "c3", "c0", "c1"], "equal, then the empty ones"


def test_times_sort_chronologically_with_empty_last(load_cards):
    stamps = [
        "2024-05-01T00:00:00.000000Z",
        None,
        "2023-12-31T23:59:59.000000Z",
        "2024-05-01T00:00:00.000001Z",
        "2021-01-01T00:00:00.000000Z",
    ]
    cards = [make_card(n, updated_at=stamp) for n, stamp in enumerate(stamps)]
    proxy = proxy_for(load_cards(cards))
    ascending = sorted_by(proxy, "updated_at", ASCENDING)
    assert [card.uuid for card in map(proxy.card, range(5)) if card] == [
        "c4",
        "c2",
        "c0",
        "c3",
        "c1",
    ]
    assert ascending[-1] is None
    assert ascending[:-1] == sorted(ascending[:-1])
    descending = sorted_by(proxy, "updated_at", DESCENDING)
    assert descending[-1] is None
    assert descending[:-1] == sorted(ascending[:-1], reverse=True)


def test_text_sorts_as_people_read_it_with_empty_last(load_cards):
    titles = ["item 10", "Item 2", "", "banana", "Apple", None, "Émile", "Eve", "Frank"]
    cards = [make_card(n, position=title) for n, title in enumerate(titles)]
    proxy = proxy_for(load_cards(cards), locale=QLocale("en_US"))
    assert sorted_by(proxy, "position", ASCENDING)[:7] == [
        "Apple",
        "banana",
        "Émile",
        "Eve",
        "Frank",
        "Item 2",
        "item 10",
    ]
    assert sorted(sorted_by(proxy, "position", ASCENDING)[7:], key=str) == ["", None]
    descending = sorted_by(proxy, "position", DESCENDING)
    assert descending[:7] == ["item 10", "Item 2", "Frank", "Eve", "Émile", "banana", "Apple"]
    assert sorted(descending[7:], key=str) == ["", None]


def test_text_collation_follows_the_locale(load_cards):
    cards = [make_card(n, display_name=name) for n, name in enumerate(["Zebra", "Ärger", "Abend"])]
    model = load_cards(cards)
    german = proxy_for(model, locale=QLocale("de_DE"))
    assert sorted_by(german, "display_name", ASCENDING) == ["Abend", "Ärger", "Zebra"]
    swedish = proxy_for(model, locale=QLocale("sv_SE"))  # in Swedish, Ä comes after Z
    assert sorted_by(swedish, "display_name", ASCENDING) == ["Abend", "Zebra", "Ärger"]
    assert names(swedish) == ["Abend", "Zebra", "Ärger"]


def test_mixed_kinds_of_values_sort_kind_by_kind(load_cards):
    values: list[Any] = ["b", 10, None, "a", 2.5, {"x": 1}, True, "", -3]
    cards = [make_card(n, score=value) for n, value in enumerate(values)]
    proxy = proxy_for(load_cards(cards))
    ascending = sorted_by(proxy, "score", ASCENDING)
    # Numbers (a flag counts as 1), then text; a nested value sorts by its exported text,
    # and punctuation sorts before letters.
    assert ascending[:7] == [-3, True, 2.5, 10, '{"x":1}', "a", "b"]
    assert sorted(ascending[7:], key=str) == ["", None]
    descending = sorted_by(proxy, "score", DESCENDING)
    assert descending[:7] == ["b", "a", '{"x":1}', 10, 2.5, True, -3]
    assert sorted(descending[7:], key=str) == ["", None]


def test_huge_integers_sort_without_overflow(load_cards):
    values = [2**70, 5, 2**64 + 1, -(2**70)]
    cards = [make_card(n, connects=value) for n, value in enumerate(values)]
    model = load_cards(cards)
    proxy = proxy_for(model)
    proxy.sort(column(model, "connects"), ASCENDING)
    shown = [card.connects for card in map(proxy.card, range(4)) if card]
    assert shown == [-(2**70), 5, 2**64 + 1, 2**70]


def test_a_new_page_is_sorted_by_its_own_values(load_cards):
    model = load_cards([make_card(n, connects=n) for n in range(5)])
    proxy = proxy_for(model)
    proxy.sort(column(model, "connects"), DESCENDING)
    load_cards([make_card(n, connects=100 - n * n) for n in range(6)], model=model)
    shown = [card.connects for card in map(proxy.card, range(proxy.rowCount())) if card]
    assert shown == [100, 99, 96, 91, 84, 75]


def test_changed_sort_values_re_sort_the_rows(qapp):
    """A source whose values change (not the card table's) stays correctly sorted."""
    source = QStandardItemModel(0, 1)
    for value in (3, 1, 2):
        item = QStandardItem(str(value))
        item.setData(value, SORT_ROLE)
        source.appendRow(item)
    proxy = CardFilterModel()
    proxy.setSourceModel(source)
    proxy.sort(0, ASCENDING)
    assert [proxy.index(row, 0).data() for row in range(3)] == ["1", "2", "3"]
    source.item(0).setData(0, SORT_ROLE)  # "3" now sorts first
    assert [proxy.index(row, 0).data() for row in range(3)] == ["3", "1", "2"]
    source.appendRow(QStandardItem("new"))  # no sort value: last
    assert [proxy.index(row, 0).data() for row in range(4)] == ["3", "1", "2", "new"]


def test_a_source_with_cards_under_the_card_role_can_be_searched(qapp):
    source = QStandardItemModel(0, 1)
    for card in PEOPLE:
        item = QStandardItem(card.display_name or "")
        item.setData(card, CARD_ROLE)
        source.appendRow(item)
    proxy = CardFilterModel()
    proxy.setSourceModel(source)
    proxy.set_filter_text("legal")
    assert names(proxy) == ["Zoë Müller", "Jane Doe"]


@pytest.mark.parametrize(
    ("value", "key"),
    [
        (None, (99, None)),
        ("", (99, None)),
        ("  ", (99, None)),
        (math.nan, (99, None)),
        (QDateTime(), (99, None)),
        (False, (0, 0)),
        (7, (0, 7)),
        (0.5, (0, 0.5)),
        (datetime(2024, 1, 1, tzinfo=UTC), (1, 1704067200.0)),
        (datetime(2024, 1, 1), (1, 1704067200.0)),  # naive: read as UTC
        (QDateTime.fromSecsSinceEpoch(1704067200), (1, 1704067200.0)),
        ("Jane", (2, "Jane")),
        (("a", "b"), (3, "('a', 'b')")),
    ],
)
def test_sort_keys(value, key):
    assert sort_key(value) == key


# Many rows


def test_ten_thousand_rows_filter_and_sort(load_cards, qtbot):
    cards = [
        Card.model_validate(
            {
                "uuid": f"c{n}",
                "username": f"user{n}",
                "display_name": f"Person {n}",
                "position": "Engineer" if n % 10 == 0 else "Sales",
                "connects": n % 97,
                "emails": [f"p{n}@example.com"],
            }
        )
        for n in range(10_000)
    ]
    model = load_cards(cards)
    proxy = proxy_for(model)
    seen: list[tuple[int, int]] = []
    proxy.countsChanged.connect(lambda shown, total: seen.append((shown, total)))
    searches = ("e", "en", "eng", "engi", "engineer", "engineer person 99", "")
    for text in searches:
        proxy.set_filter_text(text)
    expected = [
        sum(all(term in card_search_text(card) for term in search_terms(text)) for card in cards)
        for text in searches
    ]
    assert expected[:2] == [10_000, 1_000]  # "e" is in every "Person"; "en" only in engineers
    assert seen == [(count, 10_000) for count in expected]
    proxy.set_filter_text("p12@")
    assert names(proxy) == ["Person 12"]
    proxy.set_filter_text("sales")
    proxy.sort(column(model, "connects"), DESCENDING)
    top = proxy.card(0)
    assert top is not None
    assert top.connects == 96
    assert proxy.shown_count() == 9_000


# The local store sorts and filters the whole space by the same rules as a page.


@pytest.fixture(scope="module")
def scratch_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CardStore]:
    with CardStore.open(tmp_path_factory.mktemp("store") / "space.sqlite") as store:
        yield store


_NAMES = st.sampled_from(
    [
        "Zoë",
        "zoe",
        "ZOE",
        "Émile",
        "emile",
        "Item 2",
        "Item 10",
        "item 9",
        "Øre",
        "Ärger",
        "apple",
        "Zebra",
        "李雷",
        "Ωmega",
        " ",
        "",
        "_under",
        "10",
        "2",
        "\x00",
    ]
)
_CARDS = st.lists(
    st.fixed_dictionaries(
        {
            "display_name": st.one_of(st.none(), _NAMES, st.text(max_size=6)),
            "position": st.one_of(st.none(), _NAMES),
            "connects": st.one_of(st.none(), st.integers(-3, 3), st.just(2**70)),
            "public": st.one_of(st.none(), st.booleans()),
            "created_at": st.one_of(
                st.none(), st.sampled_from(["2024-04-19T22:53:03Z", "2023-01-01T00:00:00Z"])
            ),
            "emails": st.one_of(st.none(), st.lists(_NAMES, max_size=2)),
        },
        optional={"theme": st.one_of(st.none(), st.integers(0, 2), _NAMES)},
    ),
    max_size=25,
)


@given(
    raws=_CARDS,
    key=st.sampled_from(
        ["display_name", "position", "connects", "public", "created_at", "emails", "theme"]
    ),
    order=st.sampled_from([ASCENDING, DESCENDING]),
    earlier=st.sampled_from([None, "display_name", "connects"]),
    search=st.sampled_from(["", "e", "zoe", "item", "@user-1", "äRG", "x", "a\x00", "\x00zoë"]),
    locale=st.sampled_from(["de_DE", "en_US", "sv_SE", "sr_Latn_RS"]),
    earlier_locale=st.sampled_from(["de_DE", "en_US", "sv_SE", "sr_Latn_RS"]),
)
@settings(max_examples=examples(300), deadline=None)
def test_the_store_sorts_and_filters_a_space_as_the_page_does(
    qapp, scratch_store, raws, key, order, earlier, search, locale, earlier_locale
):
    """Whatever the page showed before (`earlier`: a column sorted first), and with the
    collation built from its name, as the process writing a sync builds it. The copy's
    `earlier` column may have been sorted in another language before (`earlier_locale`):
    each column is ranked under a collation of its own."""
    cards = [make_card(number, **raw) for number, raw in enumerate(raws)]
    model = CardTableModel()
    model.show_page(PageRequest("space", 1, True), page_of(cards))
    proxy = proxy_for(model, locale=QLocale(locale))
    if earlier is not None:
        proxy.sort(column(model, earlier), DESCENDING)
    proxy.set_filter_text(search)
    shown_by_page = [proxy.card(row) for row in range(proxy.rowCount())]
    if model.column_of(key) is not None:
        proxy.sort(column(model, key), order)
        shown_by_page = [proxy.card(row) for row in range(proxy.rowCount())]
    elif earlier is not None:
        return  # the page stays sorted; the store's answer would be in the space's order

    sync = scratch_store.begin_sync()  # one store for every example, a new sync each
    sync.add(cards)
    sync.finish()
    collation = collation_of(QLocale(locale))
    if earlier is not None:  # sorted by `key` before, then by a window in another language
        scratch_store.ordered(key, text_key=locale_text_key(collation), collation=collation)
        other = collation_of(QLocale(earlier_locale))
        scratch_store.ordered(earlier, text_key=locale_text_key(other), collation=other)
    positions = scratch_store.ordered(
        key if model.column_of(key) is not None else None,
        descending=order == DESCENDING,
        terms=search_terms(search),
        text_key=locale_text_key(collation),
        collation=collation,
    )
    assert [cards[position] for position in positions] == shown_by_page
