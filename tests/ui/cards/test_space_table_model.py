"""The whole synced space as a table: rows read from the store, sorted and filtered in SQL."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QLocale, QModelIndex, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QTableView

from cardviewer.api.models import Card, parse_card
from cardviewer.services.card_search import card_search_text
from cardviewer.services.card_store import CardStore
from cardviewer.services.store_copies import Change
from cardviewer.ui.cards.card_table_model import CARD_ROLE, role_text
from cardviewer.ui.cards.columns import alignment
from cardviewer.ui.cards.space_table_model import BLOCK, CACHED_CARDS, SpaceTableModel

WAIT = 5_000
NAMES = ["Zoë Müller", "John Smith", "émile Zola", "Ada Lovelace", "zoe adams", ""]


def person(number: int, name: str, **fields: object) -> Card:
    return parse_card(
        {
            "uuid": f"c{number}",
            "display_name": name or None,
            "username": f"user-{number}",
            "connects": number % 4 if number % 5 else None,
            "emails": [f"person{number}@example.com"],
            **fields,
        }
    )


def synced_store(path: Path, cards: list[Card], *, with_emails: bool = True) -> Path:
    with CardStore.open(path) as store:
        sync = store.begin_sync(with_emails=with_emails)
        sync.add(cards)
        sync.finish()
    return path


@pytest.fixture
def open_model(qtbot, tmp_path) -> Iterator[Callable[..., SpaceTableModel]]:
    models: list[SpaceTableModel] = []

    def open_(cards: list[Card], **options: object) -> SpaceTableModel:
        path = synced_store(tmp_path / f"space{len(models)}.sqlite", cards)
        model = SpaceTableModel(path, locale=QLocale("de_DE"), **options)  # type: ignore[arg-type]
        models.append(model)
        qtbot.waitUntil(lambda: not model.is_sorting, timeout=WAIT)
        return model

    yield open_
    for model in models:
        model.close()


def shown_names(model: SpaceTableModel) -> list[str | None]:
    return [card.display_name for row in range(model.rowCount()) if (card := model.card(row))]


def settle(qtbot, model: SpaceTableModel, action) -> None:
    with qtbot.waitSignal(model.queryFinished, timeout=WAIT):
        action()


def test_every_card_of_the_copy_in_the_space_order_with_the_page_columns(open_model):
    cards = [person(n, name) for n, name in enumerate(NAMES)]
    model = open_model(cards)
    assert model.rowCount() == len(NAMES)
    assert shown_names(model) == [name or None for name in NAMES]
    keys = [column.key for column in model.columns]
    assert keys[:4] == ["uuid", "avatar", "display_name", "username"]
    assert "emails" in keys
    name = model.column_of("display_name")
    assert name is not None
    assert model.data(model.index(0, name)) == "Zoë Müller"
    assert model.data(model.index(0, name), CARD_ROLE) == cards[0]
    assert model.headerData(name, Qt.Orientation.Horizontal) == "Name"
    assert model.total_count() == len(NAMES)
    assert model.synced_at is not None


def test_each_cell_answers_every_role_a_view_asks_for_as_the_page_does(open_model):
    """Asked for seven roles per painted cell; those that show come first (`data`)."""
    cards = [person(n, name, theme=n) for n, name in enumerate(NAMES)]
    model = open_model(cards)
    role = Qt.ItemDataRole
    unused = (role.FontRole, role.ForegroundRole, role.BackgroundRole, role.CheckStateRole)
    for twice in range(2):  # texts are made once, then found
        for row, card in enumerate(cards):
            for col, column in enumerate(model.columns):
                index = model.index(row, col)
                for text_role in (role.DisplayRole, role.ToolTipRole, role.AccessibleTextRole):
                    assert index.data(text_role) == role_text(text_role, column, card), twice
                assert Qt.AlignmentFlag(index.data(role.TextAlignmentRole)) == alignment(column)
                assert index.data(role.DecorationRole) is None, "no avatars without a loader"
                assert index.data(CARD_ROLE) == card
                assert all(index.data(other) is None for other in unused)
                assert index.flags() & Qt.ItemFlag.ItemIsSelectable
                assert index.flags() & Qt.ItemFlag.ItemIsEnabled
    for outside in (QModelIndex(), model.index(len(cards), 0), model.index(0, 99)):
        for any_role in (role.DisplayRole, role.TextAlignmentRole, CARD_ROLE, *unused):
            assert model.data(outside, any_role) is None
        assert not outside.flags()


def test_the_texts_for_fitting_a_column_are_those_the_cells_show(open_model):
    cards = [person(n, name, theme=n) for n, name in enumerate(NAMES)]
    model = open_model(cards)
    for col in range(model.columnCount()):
        shown = [model.index(row, col).data() for row in range(len(cards))]
        assert model.display_texts(col, len(cards) + 5) == shown
        assert model.display_texts(col, 2) == shown[:2]
        assert model.display_texts(col, 0) == []


def test_only_the_avatar_column_shows_a_picture(open_model, avatars):
    cards = [
        person(n, name, avatar={"src": f"http://127.0.0.1:9/{n}.png"})
        for n, name in enumerate(NAMES)
    ]
    model = open_model(cards, avatars=avatars)
    picture = model.column_of("avatar")
    for col in range(model.columnCount()):
        shown = model.index(0, col).data(Qt.ItemDataRole.DecorationRole)
        assert isinstance(shown, QPixmap) if col == picture else shown is None


def test_sorting_by_a_column_reads_the_order_from_the_store(qtbot, open_model):
    model = open_model([person(n, name) for n, name in enumerate(NAMES)])
    name = model.column_of("display_name")
    settle(qtbot, model, lambda: model.sort(name, Qt.SortOrder.AscendingOrder))
    assert shown_names(model) == [
        "Ada Lovelace",
        "émile Zola",
        "John Smith",
        "zoe adams",
        "Zoë Müller",
        None,
    ]
    settle(qtbot, model, lambda: model.sort(name, Qt.SortOrder.DescendingOrder))
    assert shown_names(model)[:2] == ["Zoë Müller", "zoe adams"]
    assert shown_names(model)[-1] is None, "empty names last either way"
    settle(qtbot, model, lambda: model.sort(-1))
    assert shown_names(model) == [name or None for name in NAMES]


def test_filtering_as_you_type_counts_what_passes(qtbot, open_model):
    model = open_model([person(n, name) for n, name in enumerate(NAMES)])
    with qtbot.waitSignal(model.countsChanged, timeout=WAIT) as counts:
        model.set_filter_text("ZOE")
    assert counts.args == [2, len(NAMES)]
    assert shown_names(model) == ["Zoë Müller", "zoe adams"]
    assert model.filter_text() == "ZOE"
    settle(qtbot, model, lambda: model.set_filter_text("@user-3"))
    assert shown_names(model) == ["Ada Lovelace"]
    settle(qtbot, model, lambda: model.set_filter_text(""))
    assert model.rowCount() == len(NAMES)


def test_only_the_last_of_quick_sorts_and_filters_is_shown(qtbot, open_model):
    cards = [person(n, f"Person {n}") for n in range(1000)]
    model = open_model(cards)
    name = model.column_of("display_name")
    with qtbot.waitSignal(model.queryFinished, timeout=WAIT):
        for text in ("p", "pe", "per", "person 7"):
            model.set_filter_text(text)
        model.sort(name, Qt.SortOrder.DescendingOrder)
    passing = [n for n, card in enumerate(cards) if "7" in card_search_text(card)]
    assert shown_names(model) == [f"Person {n}" for n in sorted(passing, reverse=True)]
    assert not model.is_sorting


def test_rows_are_read_in_blocks_and_only_recent_ones_kept(qtbot, open_model):
    model = open_model([person(n, f"Person {n}") for n in range(3 * CACHED_CARDS)])
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.resize(600, 300)
    view.show()
    for row in range(0, model.rowCount(), BLOCK // 2):
        view.scrollTo(model.index(row, 1))
        card = model.card(row)
        assert card is not None
        assert card.display_name == f"Person {row}"
    assert model.cached_cards() <= CACHED_CARDS


def test_the_first_rows_of_a_sort_are_painted_without_reading_the_copy(
    qtbot, open_model, monkeypatch
):
    """Their cards come with the answer, read on the worker (from the disk, if need be)."""
    model = open_model([person(n, f"Person {n:03}") for n in range(3 * CACHED_CARDS)])
    read: list[int] = []
    cards_at = CardStore.cards_at

    def counted(store: CardStore, positions: list[int], generation=None) -> dict[int, Card]:
        read.extend(positions)
        return cards_at(store, positions, generation)

    monkeypatch.setattr(model._store, "cards_at", partial(counted, model._store))
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.resize(600, 300)
    view.show()
    name = model.column_of("display_name")
    settle(qtbot, model, lambda: model.sort(name, Qt.SortOrder.DescendingOrder))
    view.viewport().repaint()
    shown = range(view.rowAt(0), view.rowAt(view.viewport().height() - 1) + 1)
    assert len(shown) > 5
    assert [model.card(row).display_name for row in shown] == [
        f"Person {n:03}" for n in range(3 * CACHED_CARDS - 1, 3 * CACHED_CARDS - 1 - len(shown), -1)
    ]
    assert read == []


def test_a_heading_click_sorts_through_the_view(qtbot, open_model):
    model = open_model([person(n, name) for n, name in enumerate(NAMES)])
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.setSortingEnabled(True)
    name = model.column_of("display_name")
    settle(qtbot, model, lambda: view.sortByColumn(name, Qt.SortOrder.AscendingOrder))
    assert shown_names(model)[0] == "Ada Lovelace"


def test_the_rows_of_cards_are_found_by_their_places_in_the_copy(open_model, qtbot):
    model = open_model([person(n, name) for n, name in enumerate(NAMES)])
    last = len(NAMES) - 1
    assert model.rows_of({0, last, last + 5}) == {0: 0, last: last}, "the space's order"
    name = model.column_of("display_name")
    assert name is not None
    settle(qtbot, model, lambda: model.sort(name, Qt.SortOrder.DescendingOrder))
    rows = model.rows_of({0, last})
    assert {model.position(row) for row in rows.values()} == {0, last}
    assert rows == {place: model.positions().index(place) for place in (0, last)}


def test_the_rest_of_an_answer_adds_rows_below_its_first_ones(qtbot, open_model, monkeypatch):
    """The rows on screen stay as they are when the whole answer follows its first rows:
    no reset, so no repaint of them and no new selection."""
    from cardviewer.services import space_queries
    from cardviewer.services.space_queries import FIRST_ROWS

    monkeypatch.setattr(space_queries, "FIRST_WITHIN", 10.0)  # first rows on a busy machine too
    count = FIRST_ROWS * 3
    model = open_model([person(n, f"Person {n:04}") for n in range(count)])
    name = model.column_of("display_name")
    assert name is not None
    resets: list[str] = []
    inserted: list[tuple[int, int]] = []
    model.modelReset.connect(lambda: resets.append("reset"))
    model.rowsInserted.connect(lambda _parent, first, last: inserted.append((first, last)))
    settle(qtbot, model, lambda: model.sort(name, Qt.SortOrder.DescendingOrder))
    assert resets == ["reset"], "the first rows replace the old order once"
    assert inserted == [(FIRST_ROWS, count - 1)], "the rest comes below them"
    assert shown_names(model) == [f"Person {n:04}" for n in reversed(range(count))]


def test_a_newer_sync_by_another_program_leaves_the_copy_shown_whole(qtbot, open_model):
    """Rows, sorts and filters keep to the copy the model shows, never a mix of two."""
    model = open_model([person(n, name) for n, name in enumerate(NAMES)])
    name = model.column_of("display_name")
    assert name is not None
    settle(qtbot, model, lambda: model.sort(name, Qt.SortOrder.DescendingOrder))
    descending = shown_names(model)
    settle(qtbot, model, lambda: model.sort(-1))
    assert not model.is_superseded()
    with CardStore.open(model.path) as store:  # a scheduled sync, say, with other cards
        sync = store.begin_sync(with_emails=True)
        sync.add([person(10, "Neu Eins"), person(11, "Neu Zwei")])
        sync.finish()
    assert model.is_superseded()
    model._cards.clear()  # rows not read before are read from the copy shown too
    assert shown_names(model) == [name or None for name in NAMES]
    settle(qtbot, model, lambda: model.sort(name, Qt.SortOrder.DescendingOrder))
    assert shown_names(model) == descending
    settle(qtbot, model, lambda: model.set_filter_text("neu"))
    assert model.rowCount() == 0, "the newer copy's cards are not the copy shown"
    settle(qtbot, model, lambda: model.set_filter_text("zo"))
    assert shown_names(model) == [n for n in descending if n and "zo" in n.lower()]


def test_removed_cards_are_read_from_the_copy_before_and_sorted_and_filtered_there(qtbot, tmp_path):
    path = synced_store(tmp_path / "s.sqlite", [person(n, name) for n, name in enumerate(NAMES)])
    synced_store(path, [person(0, NAMES[0]), person(1, "John Smith Jr."), person(9, "Neu")])
    model = SpaceTableModel(path, locale=QLocale("de_DE"), change=Change.REMOVED)
    try:
        qtbot.waitUntil(lambda: not model.is_sorting, timeout=WAIT)
        assert model.change is Change.REMOVED
        assert shown_names(model) == ["émile Zola", "Ada Lovelace", "zoe adams", None]
        assert model.card_count() == len(NAMES), "the copy before, whole"
        assert model.total_count() == 4, "a filter chooses among the removed cards"
        name = model.column_of("display_name")
        assert name is not None
        settle(qtbot, model, lambda: model.sort(name))
        assert shown_names(model) == ["Ada Lovelace", "émile Zola", "zoe adams", None]
        settle(qtbot, model, lambda: model.set_filter_text("zo"))
        assert shown_names(model) == ["émile Zola", "zoe adams"]
        assert model.positions_of({"c3"}) == {"c3": 3}, "places in the copy before"
        assert not model.is_superseded(), "the copy before is not newer than the one shown"
        with pytest.raises(ValueError, match="copy before"):
            model.set_change(None)
    finally:
        model.close()


def test_the_removed_cards_model_warms_the_copy_before(qtbot, tmp_path, monkeypatch):
    """Filters of removed cards read the copy before: its texts are read into memory
    while no query waits, not the current copy's."""
    warmed: list[int | None] = []

    def warm(store: CardStore, start: int = 0, **options: Any) -> int | None:
        chosen = options.get("generation")
        warmed.append(chosen.id if chosen is not None else None)
        return None

    monkeypatch.setattr(CardStore, "warm_for_search", warm)
    path = synced_store(tmp_path / "s.sqlite", [person(n, name) for n, name in enumerate(NAMES)])
    synced_store(path, [person(0, NAMES[0])])
    model = SpaceTableModel(path, locale=QLocale("de_DE"), change=Change.REMOVED)
    try:
        qtbot.waitUntil(lambda: bool(warmed), timeout=WAIT)
        with CardStore.open(path, create=False) as store:
            before, current = store.previous, store.current
        assert before is not None
        assert current is not None
        assert warmed == [before.id] != [current.id]
    finally:
        model.close()


def test_a_removed_cards_model_with_no_copy_before_warms_no_copy(qtbot, tmp_path, monkeypatch):
    """With no sync before the last, nothing is shown: the current copy is not read for
    filters that never read it."""
    warmed: list[object] = []
    monkeypatch.setattr(
        CardStore, "warm_for_search", lambda store, start=0, **options: warmed.append(options)
    )
    path = synced_store(tmp_path / "s.sqlite", [person(0, NAMES[0])])
    model = SpaceTableModel(path, locale=QLocale("de_DE"), change=Change.REMOVED)
    try:
        qtbot.waitUntil(lambda: not model.is_sorting, timeout=WAIT)
        assert model.rowCount() == 0
        qtbot.wait(200)  # the worker warms as soon as no query waits
        assert warmed == []
    finally:
        model.close()


def test_removed_cards_have_the_columns_of_the_copy_before(qtbot, tmp_path, monkeypatch):
    """Columns for the unknown fields came of the current copy: a field only removed
    cards had, past the first cards read for the columns, had none."""
    monkeypatch.setattr("cardviewer.ui.cards.space_table_model.SAMPLE", 1)
    before = [person(0, "Ada"), person(1, "Bob", legacy_field="only on Bob")]
    path = synced_store(tmp_path / "s.sqlite", before)
    synced_store(path, before[:1])
    model = SpaceTableModel(path, locale=QLocale("de_DE"), change=Change.REMOVED)
    try:
        qtbot.waitUntil(lambda: not model.is_sorting, timeout=WAIT)
        assert shown_names(model) == ["Bob"]
        legacy = model.column_of("legacy_field")
        assert legacy is not None
        assert model.index(0, legacy).data() == "only on Bob"
    finally:
        model.close()


def test_added_and_changed_cards_are_of_the_current_copy(qtbot, open_model):
    model = open_model([person(n, name) for n, name in enumerate(NAMES)])
    assert model.change is None
    synced_store(model.path, [person(0, NAMES[0]), person(1, "John Smith Jr."), person(9, "Neu")])
    again = SpaceTableModel(model.path, locale=QLocale("de_DE"))
    try:
        qtbot.waitUntil(lambda: not again.is_sorting, timeout=WAIT)
        settle(qtbot, again, lambda: again.set_change(Change.ADDED))
        assert shown_names(again) == ["Neu"]
        settle(qtbot, again, lambda: again.set_change(Change.CHANGED))
        assert shown_names(again) == ["John Smith Jr."]
        with pytest.raises(ValueError, match="copy before"):
            again.set_change(Change.REMOVED)
        settle(qtbot, again, lambda: again.set_change(None))
        assert shown_names(again) == [NAMES[0], "John Smith Jr.", "Neu"]
    finally:
        again.close()


def test_the_cells_a_sync_changed_are_marked_with_what_they_were(qtbot, tmp_path):
    path = synced_store(tmp_path / "s.sqlite", [person(1, "John Smith"), person(2, "Ada")])
    synced_store(path, [person(1, "John Smith Jr.", connects=7), person(2, "Ada")])
    model = SpaceTableModel(path, locale=QLocale("de_DE"))
    try:
        qtbot.waitUntil(lambda: not model.is_sorting, timeout=WAIT)
        name, connects = model.column_of("display_name"), model.column_of("connects")
        user = model.column_of("username")
        assert name is not None
        assert connects is not None
        assert user is not None
        tip = Qt.ItemDataRole.ToolTipRole
        background = Qt.ItemDataRole.BackgroundRole
        assert model.index(0, name).data(background) is None, "the whole space: no marks"
        assert "Before" not in model.index(0, name).data(tip)
        settle(qtbot, model, lambda: model.set_change(Change.CHANGED))
        assert shown_names(model) == ["John Smith Jr."]
        assert model.changed_columns(0) == {name, connects}
        before = model.card_before(0)
        assert before is not None
        assert before.display_name == "John Smith"
        assert model.index(0, name).data(background) is not None
        assert model.index(0, user).data(background) is None, "unchanged: as any cell"
        assert "Before the last sync: John Smith<" in model.index(0, name).data(tip)
        assert model.index(0, connects).data(tip).endswith(">Before the last sync: 1</p>")
        spoken = model.index(0, connects).data(Qt.ItemDataRole.AccessibleTextRole)
        assert spoken == "7. Before the last sync: 1"
        # The changed card comes first in the whole space too: the same first row, and
        # yet every row is told anew (the view repaints them, the details follow).
        with qtbot.waitSignal(model.modelReset, timeout=WAIT):
            model.set_change(None)
        qtbot.waitUntil(lambda: not model.is_sorting, timeout=WAIT)
        assert shown_names(model) == ["John Smith Jr.", "Ada"]
        assert model.index(0, name).data(background) is None
        assert "Before" not in model.index(0, name).data(tip), "made again without the mark"
        assert model.card_before(0) is None
        assert model.changed_columns(0) == frozenset()
    finally:
        model.close()


def test_each_changed_card_is_compared_with_its_own_before_wherever_it_is(qtbot, tmp_path):
    count = 3 * BLOCK
    path = synced_store(tmp_path / "s.sqlite", [person(n, f"Old {n}") for n in range(count)])
    synced_store(path, [person(n, f"New {n}") for n in range(count)])
    model = SpaceTableModel(path, locale=QLocale("de_DE"), change=Change.CHANGED)
    try:
        qtbot.waitUntil(lambda: not model.is_sorting, timeout=WAIT)
        for row in (count - 1, 0, BLOCK + 3, 2 * BLOCK):
            before, card = model.card_before(row), model.card(row)
            assert before is not None
            assert card is not None
            assert (before.uuid, before.display_name) == (card.uuid, f"Old {row}")
    finally:
        model.close()


def test_a_changed_card_shown_after_a_newer_sync_is_not_marked_against_the_wrong_copy(
    qtbot, tmp_path
):
    path = synced_store(tmp_path / "s.sqlite", [person(1, "John Smith")])
    synced_store(path, [person(1, "John Smith Jr.")])
    model = SpaceTableModel(path, locale=QLocale("de_DE"), change=Change.CHANGED)
    try:
        qtbot.waitUntil(lambda: not model.is_sorting, timeout=WAIT)
        assert shown_names(model) == ["John Smith Jr."]
        synced_store(path, [person(1, "John")])  # another program's sync, read later
        assert model.card_before(0) is None
        assert model.changed_columns(0) == frozenset()
    finally:
        model.close()


def test_a_change_shown_has_the_columns_of_the_whole_copy(qtbot, tmp_path):
    """Its kinds come from the copy's first cards, not from the few it shows (or none)."""
    cards = [person(n, name, is_business=n % 2 == 0) for n, name in enumerate(NAMES)]
    path = synced_store(tmp_path / "s.sqlite", cards)
    synced_store(path, cards[1:])
    whole = SpaceTableModel(path, locale=QLocale("de_DE"))
    removed = SpaceTableModel(path, locale=QLocale("de_DE"), change=Change.REMOVED)
    added = SpaceTableModel(path, locale=QLocale("de_DE"))
    try:
        qtbot.waitUntil(lambda: not removed.is_sorting and not whole.is_sorting, timeout=WAIT)
        settle(qtbot, added, lambda: added.set_change(Change.ADDED))
        assert added.rowCount() == 0
        kinds = [(column.key, column.kind) for column in whole.columns]
        assert [(column.key, column.kind) for column in removed.columns] == kinds
        assert [(column.key, column.kind) for column in added.columns] == kinds
    finally:
        for model in (whole, removed, added):
            model.close()


def test_rows_that_cannot_be_read_are_shown_empty_and_said_once(qtbot, open_model, monkeypatch):
    """A copy damaged while shown: a paint, a key or the details pane reads rows not
    read before; each is empty, and the failure is said once, not raised at every cell."""
    model = open_model([person(n, f"Person {n}") for n in range(3 * BLOCK)])
    failures: list[str] = []
    model.queryFailed.connect(failures.append)

    def damaged(*_args: object, **_options: object) -> dict[int, Card]:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(CardStore, "cards_at", damaged)
    last = model.rowCount() - 1
    name = model.column_of("display_name")
    assert name is not None
    with qtbot.captureExceptions() as raised:
        assert model.card(last) is None
        assert model.index(last, name).data() is None
        assert model.index(last - 1, name).data(CARD_ROLE) is None
        assert model.data(model.index(0, name)) == "Person 0", "read before: still shown"
    assert raised == []
    assert failures == ["database disk image is malformed"]
