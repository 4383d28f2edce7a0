"""The copies a store keeps, and what changed between them, by card id and content."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from pathlib import Path

import pytest

from cardviewer.api.models import Card, parse_card
from cardviewer.services.card_store import CardStore
from cardviewer.services.stoppable import Stopped
from cardviewer.services.store_content import add_card_content, card_content
from cardviewer.services.store_copies import Change, Changes, change_query
from cardviewer.services.store_sort_keys import index_names
from tests.services.stores import a_store_path, cards, count_rows, synced


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return a_store_path(tmp_path)


def test_what_changed_by_card_id_and_content(path):
    with CardStore.open(path) as store:
        synced(store, [*cards("a", "b", "c"), *cards("d", name="Old")])
        synced(store, [*cards("b", "c"), *cards("d", name="New"), *cards("e")])
        changes = store.changes()
        assert changes is not None
        assert (changes.added, changes.removed, changes.changed) == (("e",), ("a",), ("d",))
        assert changes.any
        synced(store, [*cards("b", "c"), *cards("d", name="New"), *cards("e")])
        again = store.changes()
        assert again is not None
        assert not again.any
    assert count_rows(path) == 8, "the current and the previous copy only"
    assert count_rows(path, "card_search") == 8
    assert count_rows(path, "sort_keys") == 8 * 12, "twelve fields a card"
    with sqlite3.connect(path) as db:
        indexes = db.execute(
            "SELECT COUNT(*) FROM sqlite_master WHERE name GLOB 'sort_keys_*'"
        ).fetchone()
    assert indexes == (4,), "two sort indexes (up and down) for each copy kept"


def test_cards_without_an_id_are_told_apart_by_their_content(path):
    """Such a card cannot be followed from one sync to the next: the same content is the
    same card, other content a card added (and the one before removed), never changed."""

    def without_ids(*names: str) -> list[Card]:
        return [parse_card({"display_name": name}) for name in names]

    with CardStore.open(path) as store:
        synced(store, [*cards("a"), *without_ids("Kept", "Edited")])
        synced(store, [*cards("a", name="Renamed"), *without_ids("Kept", "Edited again", "New")])
        changes = store.changes()
        assert changes is not None
        assert (len(changes.added), len(changes.removed), changes.changed) == (2, 1, ("a",))
        current, previous = store.current, store.previous
        assert current is not None
        assert previous is not None
        names = {
            change: [card.display_name for card in store.cards_at(positions, copy).values()]
            for change in Change
            for copy in [previous if change is Change.REMOVED else current]
            for positions in [store.ordered(None, change=change, generation=copy)]
        }
        assert names == {
            Change.ADDED: ["Edited again", "New"],
            Change.REMOVED: ["Edited"],
            Change.CHANGED: ["Renamed a"],
        }
        assert store.before_last_sync(range(4)) == {0: cards("a")[0]}


def test_two_cards_a_server_sent_with_one_id_are_not_changed_when_neither_changed(path):
    """Each compared with the other's content too, they were both changed at every sync."""
    twins = [
        parse_card({"uuid": "twin", "display_name": "One"}),
        parse_card({"uuid": "twin", "display_name": "Two"}),
    ]
    with CardStore.open(path) as store:
        synced(store, [*twins, *cards("a")])
        synced(store, [*twins, *cards("a")])
        assert store.changes() == Changes(added=(), removed=(), changed=())
        synced(store, [twins[0], parse_card({"uuid": "twin", "display_name": "Three"})])
        changes = store.changes()
        assert changes == Changes(added=(), removed=("a",), changed=("twin",))


def test_a_card_whose_twin_went_is_changed(path):
    """Sent twice with one id, then once as it was: nothing changed, so a program
    keeping cards by id kept the twin's content from the file of changes before."""
    alice, twin = (parse_card({"uuid": "a", "display_name": name}) for name in ("Alice", "Two"))
    with CardStore.open(path) as store:
        synced(store, [alice, *cards("b")])
        synced(store, [alice, twin, *cards("b")])
        assert store.changes() == Changes(added=(), removed=(), changed=("a",))
        assert store.ordered(None, change=Change.CHANGED) == [1], "the twin, not Alice"
        synced(store, [alice, *cards("b")])
        assert store.changes() == Changes(added=(), removed=(), changed=("a",))
        assert store.ordered(None, change=Change.CHANGED) == [0]
        synced(store, [alice, twin, *cards("b")])
        synced(store, [twin, *cards("b")])
        assert store.ordered(None, change=Change.CHANGED) == [0], "the one left"


def with_emails(store: CardStore, batch: list[dict[str, object]], *, emails: bool) -> None:
    """`batch` synced with its e-mail addresses asked for, or without (the key left out)."""
    sync = store.begin_sync(with_emails=emails)
    shown = [card if emails else {k: v for k, v in card.items() if k != "emails"} for card in batch]
    sync.add([parse_card(card) for card in shown])
    sync.finish()


def test_a_sync_with_the_e_mail_addresses_after_one_without_changes_no_card_for_them(path):
    """A window including them, a nightly `cardviewer sync` not: every card was changed."""
    people: list[dict[str, object]] = [
        {"uuid": "a", "display_name": "Ada", "emails": ["ada@example.com"]},
        {"uuid": "b", "display_name": "Bob", "emails": []},
    ]
    edited = [{**people[0], "display_name": "Ada L."}, people[1]]
    with CardStore.open(path) as store:
        with_emails(store, people, emails=False)
        with_emails(store, people, emails=True)
        assert store.changes() == Changes((), (), (), emails_added=True), "said apart"
        assert store.ordered(None, change=Change.CHANGED) == []
        with_emails(store, edited, emails=False)
        assert store.changes() == Changes((), (), ("a",), emails_dropped=True), "said apart"
        assert store.ordered(None, change=Change.CHANGED) == [0]
        without_ids = [{k: v for k, v in card.items() if k != "uuid"} for card in people]
        with_emails(store, without_ids, emails=True)
        with_emails(store, without_ids, emails=False)
        assert store.changes() == Changes((), (), (), emails_dropped=True), "nor without ids"
        with_emails(store, [people[0], {**people[1], "emails": ["bob@example.com"]}], emails=True)
        with_emails(store, [people[0], {**people[1], "emails": ["new@example.com"]}], emails=True)
        assert store.changes() == Changes(added=(), removed=(), changed=("b",)), "both have them"


def test_the_empty_e_mails_an_older_version_kept_are_no_change(path):
    """Copies written before a card left its unasked e-mails out held `"emails": null`."""
    with CardStore.open(path) as store:
        synced(store, cards("a", "b"))
        older = store.current
        assert older is not None
        store._db.execute(
            "UPDATE cards SET json = json_set(json, '$.emails', json('null')) WHERE generation = ?",
            (older.id,),
        )
        synced(store, [*cards("a"), *cards("b", name="Renamed")])
        assert store.changes() == Changes(added=(), removed=(), changed=("b",))


def test_a_card_sent_with_its_keys_in_another_order_is_not_changed(path):
    """Fields the app does not know, and the keys inside them, are kept in the order
    the server sent them; the same card in another order was counted as changed."""
    fields: dict[str, object] = {
        "department": {"name": "Sales", "floor": 3},
        "tags": ["a", "b"],
        "avatar": {"src": "https://cards.example/a.png", "alt": "Ada"},
    }
    reordered = {
        key: dict(reversed(value.items())) if isinstance(value, dict) else value
        for key, value in reversed(fields.items())
    }
    card, same_card = (
        parse_card({"uuid": "a", "display_name": "Ada", **keys}) for keys in (fields, reordered)
    )
    edited = parse_card({**same_card.model_dump(), "uuid": "a", "tags": ["b", "a"]})
    without_ids = [parse_card({"display_name": "Ada", **keys}) for keys in (fields, reordered)]
    with CardStore.open(path) as store:
        synced(store, [card, without_ids[0]])
        synced(store, [same_card, without_ids[1]])
        assert store.changes() == Changes(added=(), removed=(), changed=())
        assert store.ordered(None, change=Change.CHANGED) == []
        assert store.ordered(None, change=Change.ADDED) == []
        synced(store, [edited, without_ids[1]])
        assert store.changes() == Changes(added=(), removed=(), changed=("a",)), "a list's order"


def test_a_card_whose_primary_e_mail_address_moves_is_changed(path):
    """The address marked primary is the first a card holds (the one a vCard prefers):
    another one marked primary is a change, though the addresses are the same and come
    in the same order; a file of changes left it out while its E-mails cell changed."""

    def card(primary: str) -> dict[str, object]:
        return {
            "uuid": "a",
            "display_name": "Ada",
            "emails": [
                {"email": address, "is_primary": address == primary}
                for address in ("b@x.example", "a@x.example")
            ],
        }

    with CardStore.open(path) as store:
        synced(store, [parse_card(card("a@x.example"))], with_emails=True)
        synced(store, [parse_card(card("a@x.example"))], with_emails=True)
        assert store.changes() == Changes(added=(), removed=(), changed=())
        synced(store, [parse_card(card("b@x.example"))], with_emails=True)
        assert store.changes() == Changes(added=(), removed=(), changed=("a",))


def test_cards_without_an_id_kept_as_they_were_are_not_read_into_python(path, monkeypatch):
    """Each was compared blind to the order of keys, a call into Python for every card
    without an id in both copies: 10 s for 100,000 of them, against 3.7 s before."""
    kept = [parse_card({"display_name": f"Kept {n}"}) for n in range(50)]
    calls: list[object] = []

    def counted(text: str, emails: int) -> str | bytes:
        calls.append(text)
        return card_content(text, emails)

    monkeypatch.setattr("cardviewer.services.store_content.card_content", counted)
    with CardStore.open(path) as store:
        synced(store, [*kept, parse_card({"display_name": "Old"})])
        synced(store, [*kept, parse_card({"display_name": "New"})])
        changes = store.changes()
        assert changes is not None
        assert (len(changes.added), len(changes.removed)) == (1, 1)
    assert len(calls) <= 4, "the one card added, the one removed, each side"


def test_content_that_is_not_a_card_s_json_is_compared_as_it_is():
    assert card_content("not json", 1) == "not json"
    assert card_content("[1, 2]", 0) == "[1, 2]"
    assert card_content("[" * 100_000, 1) == "[" * 100_000
    assert card_content('{"b":1,"a":{"d":2,"c":3}}', 1) == '{"a":{"c":3,"d":2},"b":1}'
    assert card_content('{"emails":null,"a":1}', 0) == '{"a":1}'
    assert card_content('{"emails":null,"a":1}', 1) == '{"a":1,"emails":null}'
    assert card_content('{"a":"\\ud83e"}', 1) == '{"a":"\\ud83e"}'


def test_what_changed_looks_each_card_up_by_its_id_in_the_other_copy(path):
    """A plan that walks the other copy for each card takes hours at 100,000 cards."""
    with CardStore.open(path) as store:
        synced(store, cards("a", "b"))
        synced(store, cards("b", "c"))
    with sqlite3.connect(path) as db:
        add_card_content(db)
        for change, emails in [(change, emails) for change in Change for emails in (True, False)]:
            query = change_query(change, emails=emails)
            steps = db.execute(f"EXPLAIN QUERY PLAN {query}", {"chosen": 2, "other": 1})
            plan = [row[-1] for row in steps]
            lookups = [step for step in plan if "uuid=?" in step]
            assert lookups, plan
            assert all("cards_by_uuid" in step for step in lookups), plan
            if change is not Change.CHANGED:  # a card with an id: its id alone is read
                assert "COVERING INDEX cards_by_uuid" in lookups[0], plan
                # Without an id: the other copy's contents read once into a lookup, not
                # walked for each card (62 s for 8,000 such cards, 0.09 s so).
                assert "LIST SUBQUERY 2" in plan, plan
                assert "CORRELATED SCALAR SUBQUERY 2" not in plan, plan


def test_a_changed_card_s_before_is_read_by_its_position_then_its_id(path):
    """The other way round, SQLite walks the whole copy before for a screenful of cards."""
    asked: list[str] = []
    with CardStore.open(path) as store:
        synced(store, cards(*(f"c{n}" for n in range(40))))
        synced(store, cards(*(f"c{n}" for n in range(40)), name="New"))
        store._db.set_trace_callback(asked.append)
        assert len(store.before_last_sync(range(32))) == 32
    (query,) = [text for text in asked if "n.position IN" in text]
    with sqlite3.connect(path) as db:
        plan = [row[-1] for row in db.execute(f"EXPLAIN QUERY PLAN {query}")]
    assert plan[0].startswith("SEARCH n USING PRIMARY KEY"), plan
    assert "SEARCH o USING INDEX cards_by_uuid (generation=? AND uuid=?)" in plan[1], plan


@pytest.mark.parametrize("kind", ["added", "removed", "changed"])
def test_any_one_kind_of_change_is_a_change(kind):
    ids: dict[str, tuple[str, ...]] = {"added": (), "removed": (), "changed": (), kind: ("a",)}
    assert Changes(ids["added"], ids["removed"], ids["changed"]).any
    assert not Changes((), (), ()).any


def test_a_changed_card_is_read_as_the_copy_before_had_it(path):
    with CardStore.open(path) as store:
        synced(store, [*cards("a"), *cards("c", name="Old")])
        assert store.before_last_sync([0, 1]) == {}, "no copy before"
        synced(store, [*cards("z"), *cards("c", name="New"), *cards("a")])
        before = store.before_last_sync([0, 1, 2, 99])
        assert set(before) == {1, 2}, "the added card and a position not there have none"
        assert before[1].display_name == "Old c"
        assert before[1].uuid == "c"
        assert before[2] == store.cards_at([2])[2], "unchanged: the same card"
        assert store.before_last_sync([]) == {}
        assert set(store.before_last_sync([1], store.current)) == {1}
        shown = store.current
        synced(store, cards("c"))
        assert store.before_last_sync([1], shown) == {}, "no longer current: nothing before"


def test_the_copy_a_file_of_changes_was_written_from_is_kept_for_the_next_one(path):
    with CardStore.open(path) as store:
        synced(store, [*cards("a", "b"), *cards("c", name="Old")])
        assert [store.changes_file_copy] == [None]  # a list: its later reads are not None
        written = store.current
        assert written is not None
        store.mark_changes_file(written, fields=())
        synced(store, [*cards("b"), *cards("c", name="New")])
        synced(store, [*cards("b", "z"), *cards("c", name="New")])  # two syncs since
        assert store.changes_file_copy == written, "kept though neither current nor previous"
        current = store.current
        assert current is not None
        ids = {
            change: list(
                store.ids_at(positions, written if change is Change.REMOVED else None).values()
            )
            for change in Change
            for positions in [store.changed_between(change, current, written)]
        }
        assert ids == {Change.ADDED: ["z"], Change.REMOVED: ["a"], Change.CHANGED: ["c"]}
        store.mark_changes_file(current, fields=())
        assert store.kept_copy(written.id) is None, "no longer needed: dropped"
        assert store.changed_between(Change.ADDED, current, current) == []


def rows_of(path: Path, generation: int) -> dict[str, int]:
    """How many rows of each table, and sort indexes, the store keeps of `generation`."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        counts = {
            table: db.execute(
                f"SELECT COUNT(*) FROM {table} WHERE generation = ?", (generation,)
            ).fetchone()[0]
            for table in ("cards", "card_text", "card_search", "sort_keys", "fields")
        }
        counts["indexes"] = db.execute(
            "SELECT COUNT(*) FROM sqlite_master WHERE name IN (?, ?)", index_names(generation)
        ).fetchone()[0]
    return counts


def test_a_copy_kept_for_the_next_file_of_changes_alone_keeps_its_cards_alone(path):
    """It is never shown, searched or sorted again: only compared, card by card."""
    with CardStore.open(path) as store:
        synced(store, [*cards("a", "b"), *cards("c", name="Old")])
        written = store.current
        assert written is not None
        store.mark_changes_file(written, fields=())
        whole = rows_of(path, written.id)
        assert whole == {
            "cards": 3,
            "card_text": 3,
            "card_search": 3,
            "sort_keys": 3 * 12,
            "fields": 12,
            "indexes": 2,
        }
        synced(store, [*cards("b"), *cards("c", name="New")])
        assert rows_of(path, written.id) == whole, "the copy before: its removed cards shown"
        synced(store, [*cards("b", "z"), *cards("c", name="New")])
        assert rows_of(path, written.id) == {
            "cards": 3,
            "card_text": 0,
            "card_search": 0,
            "sort_keys": 0,
            "fields": 0,
            "indexes": 0,
        }
        current = store.current
        assert current is not None
        changed = {
            change: store.changed_between(change, current, written, "uuid") for change in Change
        }
        assert changed == {Change.ADDED: ["z"], Change.REMOVED: ["a"], Change.CHANGED: ["c"]}
        assert [card.uuid for card in store.cards_at([0, 1, 2], written).values()] == [
            "a",
            "b",
            "c",
        ]
        assert rows_of(path, current.id)["sort_keys"] == 3 * 12, "the copy shown: whole"


def test_a_kept_copy_left_whole_is_trimmed_by_the_next_sync_not_as_the_store_opens(path):
    """As an older CardViewer leaves it: opening a store is the window's thread's, and
    trimming a copy of 100,000 cards takes seconds."""
    with CardStore.open(path) as store:
        synced(store, cards("a", "b"))
        written = store.current
        assert written is not None
        store.mark_changes_file(written, fields=())
        synced(store, cards("a"))
        current = store.current
        assert current is not None
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE state SET value = ? WHERE key = 'previous'", (current.id,))
    with CardStore.open(path) as store:
        assert rows_of(path, written.id)["sort_keys"] == 2 * 12
        synced(store, cards("a", "c"))
    assert rows_of(path, written.id) == {
        "cards": 2,
        "card_text": 0,
        "card_search": 0,
        "sort_keys": 0,
        "fields": 0,
        "indexes": 0,
    }


def test_a_mark_called_off_as_the_copy_before_is_dropped_stays_where_it_was(path):
    """Dropping the copy marked before takes seconds at 100,000 cards: Ctrl+C then
    leaves the next file to hold this one's changes, as it says."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        first = store.current
        assert first is not None
        store.mark_changes_file(first, fields=())
        synced(store, cards("a", "b"))
        second = store.current
        assert second is not None
        stop = threading.Event()
        stop.set()
        with pytest.raises(Stopped):
            store.mark_changes_file(second, fields=(), stop=stop)
        assert store.changes_file_copy == first
        assert store.mark_changes_file(second, fields=())
        assert store.changes_file_copy == second


def test_the_copy_before_is_kept_as_the_previous_one(path):
    """`previous` is the copy the last sync replaced, the one `changes()` compares with."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        first = store.current
        assert store.previous is None
        synced(store, cards("a", "b"))
        assert store.previous == first
        assert store.current != first


def test_a_copy_named_current_that_is_gone_or_unfinished_reads_as_none(path):
    """Gone as an earlier version could leave it (a sync finishing after its copy was dropped)."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        unfinished = store.begin_sync()
        for generation in (unfinished.generation, unfinished.generation + 1):
            with sqlite3.connect(path) as db:
                db.execute("UPDATE state SET value = ? WHERE key = 'current'", (generation,))
            assert store.current is None
            assert list(store.cards()) == []
        unfinished.add(cards("b"))
        unfinished.finish()
        assert [c.uuid for c in store.cards()] == ["b"]


def test_a_copy_before_that_is_gone_is_no_copy_to_compare_with(path):
    """The sync's note and the views of its changes agree: nothing to compare with."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        synced(store, cards("a", "b"))
        with sqlite3.connect(path) as db:
            db.execute("UPDATE state SET value = 99 WHERE key = 'previous'")
        db.close()
        assert store.previous is None
        assert store.changes() is None
        for change in (Change.ADDED, Change.CHANGED):
            assert store.ordered(None, change=change) == []
            assert store.change_count(change) == 0
