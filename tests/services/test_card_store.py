"""The local copy of a space: generations, what changed, and files that are not as expected."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardviewer.api.models import Card, parse_card
from cardviewer.demo.data import build_spaces
from cardviewer.services.card_search import card_search_text, search_terms
from cardviewer.services.card_store import (
    SCHEMA_VERSION,
    CardStore,
    Changes,
    Generation,
    StoreError,
    StoreProblem,
    account_folder,
    card_json,
    remove_copies,
    store_path,
)
from tests.properties import examples

ROOT = Path(__file__).resolve().parents[2]


def cards(*ids: str, name: str = "Person") -> list[Card]:
    return [parse_card({"uuid": uuid, "display_name": f"{name} {uuid}"}) for uuid in ids]


def synced(store: CardStore, batch: list[Card]) -> None:
    sync = store.begin_sync()
    sync.add(batch[: len(batch) // 2])
    sync.add(batch[len(batch) // 2 :])
    sync.finish()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return store_path(tmp_path / "spaces", "https://cards.example", "Ada@Example.com", "space-1")


def test_a_card_comes_back_as_it_was_odd_values_and_unknown_fields_included():
    raw = {
        "uuid": "c1",
        "display_name": "Ada",
        "connects": "many",  # of the wrong type: set aside, kept as sent
        "created_at": "2024-04-19T22:53:03.000000Z",
        "avatar": {"uuid": None, "src": "https://cdn.example/a.jpg"},
        "emails": ["ada@example.com"],
        "theme": {"name": "dark"},
    }
    card = parse_card(raw)
    again = parse_card(json.loads(card_json(card)))
    assert again == card
    assert again.invalid_fields == {"connects": "many"}
    assert again.extra_fields == {"theme": {"name": "dark"}}


@pytest.mark.parametrize("with_emails", [False, True])
def test_the_demo_cards_come_back_as_they_were_and_their_json_stays_the_same(with_emails):
    space = next(iter(build_spaces(60).values()))
    for demo in space.cards:
        card = parse_card(demo.to_json(space, "https://img.example", with_emails=with_emails))
        again = parse_card(json.loads(card_json(card)))
        assert again == card
        assert (again.emails is None) is not with_emails, "not fetched is not none"
        assert card_json(again) == card_json(card)


def test_nothing_before_the_first_sync_then_the_cards_in_order(path):
    with CardStore.open(path) as store:
        assert current_copy(store) is None
        assert list(store.cards()) == []
        assert store.changes() is None
        synced(store, cards("a", "b", "c"))
        current = current_copy(store)
        assert current is not None
        assert current.card_count == 3
        assert [card.uuid for card in store.cards()] == ["a", "b", "c"]
        assert store.changes() is None, "nothing to compare with yet"


def test_a_sync_replaces_the_copy_only_when_it_finishes(path):
    with CardStore.open(path) as store, CardStore.open(path) as reader:
        synced(store, cards("a", "b"))
        sync = store.begin_sync()
        sync.add(cards("x", "y", "z"))
        assert [c.uuid for c in reader.cards()] == ["a", "b"]
        sync.finish()
        assert [c.uuid for c in reader.cards()] == ["x", "y", "z"]


def test_an_abandoned_sync_leaves_the_copy_and_no_rows_behind(path):
    with CardStore.open(path) as store:
        synced(store, cards("a", "b"))
        sync = store.begin_sync()
        sync.add(cards("x"))
        sync.abandon()
        assert [c.uuid for c in store.cards()] == ["a", "b"]
    assert count_rows(path) == 2
    assert count_rows(path, "card_search") == 2


def current_copy(store: CardStore) -> Generation | None:
    return store.current


def count_rows(path: Path, table: str = "cards") -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


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


def test_a_sync_killed_halfway_leaves_the_copy_before_it(path):
    with CardStore.open(path) as store:
        synced(store, cards("a", "b"))
    script = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        from cardviewer.api.models import parse_card
        from cardviewer.services.card_store import CardStore
        store = CardStore.open(Path({str(path)!r}))
        sync = store.begin_sync()
        for n in range(50):
            sync.add([parse_card({{"uuid": f"k{{n}}"}})])
        print("halfway", flush=True)
        time.sleep(60)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "halfway"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    with CardStore.open(path) as store:
        assert [c.uuid for c in store.cards()] == ["a", "b"]
        synced(store, cards("c"))
        assert [c.uuid for c in store.cards()] == ["c"]
    assert count_rows(path) == 3, "the killed sync's rows are gone with the next sync"
    assert count_rows(path, "card_search") == 3


def test_a_store_of_a_newer_version_is_refused_and_left_alone(path):
    with CardStore.open(path) as store:
        synced(store, cards("a"))
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer version of CardViewer") as refused:
        CardStore.open(path)
    assert refused.value.problem is StoreProblem.NEWER_VERSION
    assert path.read_bytes() == before


def test_a_store_of_the_first_version_is_migrated_and_sorts_its_cards(path):
    people = [
        parse_card({"uuid": "b", "display_name": "émile", "connects": 10}),
        parse_card({"uuid": "a", "display_name": "Zoë", "connects": 2}),
        parse_card({"uuid": "c", "display_name": "Ada"}),
    ]
    with CardStore.open(path) as store:
        synced(store, people)
    with sqlite3.connect(path) as db:  # the first version had no sort keys
        db.execute("DROP TABLE sort_keys")
        db.execute("DROP TABLE fields")
        db.execute("ALTER TABLE generations DROP COLUMN collation")
        db.execute("ALTER TABLE generations DROP COLUMN with_emails")
        db.execute("PRAGMA user_version = 1")
    with CardStore.open(path) as store:
        assert [c.uuid for c in store.cards()] == ["b", "a", "c"]
        assert store.current is not None
        assert not store.current.with_emails
        assert store.ordered("display_name") == [2, 0, 1]
        assert store.ordered("connects", descending=True) == [0, 1, 2], "empty last"
        assert store.ordered("uuid") == [1, 0, 2]
        assert store.extra_fields() == []
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_store_of_the_second_version_gets_the_card_ids_to_sort_by(path):
    with CardStore.open(path) as store:
        synced(store, cards("b", "c", "a", ""))
        assert store.ordered("uuid", collation="de") == [2, 0, 1, 3]
    with sqlite3.connect(path) as db:  # the second version kept no key for the id
        db.execute("DELETE FROM sort_keys WHERE field = 'uuid'")
        db.execute("PRAGMA user_version = 2")
    with CardStore.open(path) as store:
        assert store.ordered("uuid", collation="de") == [2, 0, 1, 3], "no id last"
        assert store.ordered("uuid", descending=True, collation="de") == [1, 0, 2, 3]
        assert store.ordered("display_name", collation="de") == [3, 2, 0, 1]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        indexes = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'index'")
        assert indexes.fetchone()[0] == 2 + 2, "by uuid and state, and the copy's two"


def test_whole_space_order_filters_too_and_rows_are_read_by_position(path):
    people = [
        parse_card({"uuid": "a", "display_name": "Item 10", "position": "Sales"}),
        parse_card({"uuid": "b", "display_name": "item 2", "position": "Legal"}),
        parse_card({"uuid": "c", "display_name": "Item 9", "position": "Sales", "theme": "x"}),
        parse_card({"uuid": "d", "display_name": "ITEM 2", "position": "Sales"}),
    ]
    with CardStore.open(path) as store:
        assert store.ordered("display_name") == []
        assert store.extra_fields() == []
        synced(store, people)
        # Case-blind, numbers by value, equal texts in the space's order either way.
        assert store.ordered("display_name") == [1, 3, 2, 0]
        assert store.ordered("display_name", descending=True) == [0, 2, 1, 3]
        assert store.ordered("display_name", limit=2) == [1, 3]
        assert store.ordered("theme", descending=True, limit=2) == [2, 0]
        assert store.ordered(None, limit=1) == [0]
        assert store.first_ordered("display_name", within=10.0, limit=2) == [1, 3]
        by_length = store.ordered("display_name", text_key=len, collation="length")
        assert by_length == [1, 2, 3, 0]
        assert store.ordered("display_name", terms=("sales",)) == [3, 2, 0]
        assert store.ordered(None, terms=("sa",)) == [0, 2, 3]
        assert store.ordered("theme") == [2, 0, 1, 3], "without the field: empty, last"
        assert store.extra_fields() == ["theme"]
        found = store.cards_at([3, 0])
        assert {position: card.uuid for position, card in found.items()} == {3: "d", 0: "a"}
        assert store.cards_at([]) == {}


def test_first_rows_are_given_up_on_when_they_take_too_long(path):
    many = [parse_card({"uuid": f"c{n}", "display_name": f"Person {n}"}) for n in range(500)]
    with CardStore.open(path) as store:
        synced(store, many)
        rare = ("zz",)  # short: no index, so every card is looked at
        assert store.first_ordered("display_name", within=-1.0, terms=rare, limit=5) is None
        assert store.first_ordered("display_name", within=10.0, terms=rare, limit=5) == []
        assert store.ordered("display_name", limit=1) == [0], "the store goes on"


def test_every_position_of_a_whole_answer_comes_back_in_order_past_one_byte(path):
    # Whole answers come from SQLite packed in one text; positions of several bytes
    # must keep their byte order.
    many = [parse_card({"uuid": f"c{n}", "connects": n % 7}) for n in range(350)]
    with CardStore.open(path) as store:
        synced(store, many)
        by_connects = sorted(range(len(many)), key=lambda n: (-(n % 7), n))
        assert store.ordered("connects", descending=True) == by_connects
        assert store.ordered(None) == list(range(len(many)))
        assert store.ordered(None, terms=("zz",)) == []


def test_a_store_warmed_for_search_answers_as_before(path):
    with CardStore.open(path) as store:
        store.keep_in_memory(4 * 2**20)
        store.warm_for_search()  # no copy yet: nothing to read
        synced(store, cards("a", "b", "c"))
        store.warm_for_search()
        assert store.ordered(None, terms=("person",)) == [0, 1, 2]


def test_a_file_that_is_no_database_is_set_aside_and_a_new_store_started(path):
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not a database" * 100)
    with CardStore.open(path) as store:
        assert store.current is None
        synced(store, cards("a"))
    (aside,) = path.parent.glob(f"{path.name}.damaged-*")
    assert aside.read_bytes() == b"this is not a database" * 100


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_the_store_is_readable_by_this_user_only(path):
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        wal = Path(f"{path}-wal")
        assert not wal.exists() or stat.S_IMODE(wal.stat().st_mode) & 0o077 == 0
    assert stat.S_IMODE(path.parent.stat().st_mode) & 0o077 == 0


def test_one_file_per_server_account_and_space_without_the_address_in_its_name(tmp_path):
    one = store_path(tmp_path, "https://a.example", "ada@example.com", "s1")
    assert one == store_path(tmp_path, "https://a.example", "ADA@example.com", "s1")
    others = {
        store_path(tmp_path, "https://b.example", "ada@example.com", "s1"),
        store_path(tmp_path, "https://a.example", "bob@example.com", "s1"),
        store_path(tmp_path, "https://a.example", "ada@example.com", "s2"),
    }
    assert one not in others
    assert len(others) == 3
    assert "ada" not in str(one.relative_to(tmp_path)).lower()
    assert one.name == "s1.sqlite"


def test_the_search_finds_what_the_windows_filter_finds(path):
    people = [
        parse_card({"uuid": "a", "display_name": "Zoë Müller", "username": "zoe"}),
        parse_card({"uuid": "b", "display_name": "Jane Smith", "position": "Head of Legal"}),
        parse_card({"uuid": "c", "display_name": "Bob", "emails": ["bob@straße.example"]}),
    ]
    with CardStore.open(path) as store:
        synced(store, people)
        assert store.ordered(None, terms=search_terms("zoe")) == [0]
        assert store.ordered(None, terms=search_terms("@ZOE müller")) == [0]
        assert store.ordered(None, terms=search_terms("legal head")) == [1]
        assert store.ordered(None, terms=search_terms("strasse")) == [2]
        assert store.ordered(None, terms=search_terms("e")) == [0, 1, 2]
        assert store.ordered(None, terms=()) == [0, 1, 2]
        assert store.ordered(None, terms=search_terms("zoe legal")) == []


NAMES = st.text(alphabet="aAäÄeéEzZøßﬁ ß@.-_%1Ǆǆ\u0301\ud800", max_size=12)
WORDS = st.text(alphabet="aAäeéEzøßﬁs@.%_1 ", max_size=8)


@settings(max_examples=examples(150), deadline=None)
@given(
    people=st.lists(
        st.fixed_dictionaries({"display_name": NAMES, "username": NAMES, "position": NAMES}),
        max_size=8,
    ),
    typed=WORDS,
)
def test_the_stores_search_and_the_windows_filter_agree(people, typed):
    batch = [parse_card({"uuid": f"c{n}", **fields}) for n, fields in enumerate(people)]
    terms = search_terms(typed)
    expected = [
        n for n, card in enumerate(batch) if all(t in card_search_text(card) for t in terms)
    ]
    with (
        tempfile.TemporaryDirectory() as folder,
        CardStore.open(Path(folder) / "s.sqlite") as store,
    ):
        synced(store, batch)
        assert store.ordered(None, terms=terms) == expected


@pytest.mark.parametrize("kind", ["added", "removed", "changed"])
def test_any_one_kind_of_change_is_a_change(kind):
    ids = {"added": (), "removed": (), "changed": (), kind: ("a",)}
    assert Changes(**ids).any
    assert not Changes((), (), ()).any


def test_a_finished_sync_cannot_be_abandoned_afterwards(path):
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        sync.add(cards("a"))
        sync.finish()
        sync.abandon()  # too late: the copy is current
        assert [c.uuid for c in store.cards()] == ["a"]
        other = store.begin_sync()
        other.abandon()
        other.abandon()  # once is enough, twice is harmless
        assert [c.uuid for c in store.cards()] == ["a"]


def test_a_failed_write_is_rolled_back_and_the_store_goes_on(path):
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        sync = store.begin_sync()
        sync.abandon()
        with pytest.raises(sqlite3.IntegrityError):
            sync.add(cards("x"))  # its generation is gone
        synced(store, cards("b"))
        assert [c.uuid for c in store.cards()] == ["b"]


def test_removing_one_account_s_copies_leaves_the_other_s(tmp_path):
    folder = tmp_path / "spaces"
    mine = store_path(folder, "https://a.example", "ada@example.com", "s1")
    also_mine = store_path(folder, "https://a.example", "ada@example.com", "s2")
    theirs = store_path(folder, "https://a.example", "bob@example.com", "s1")
    for path in (mine, also_mine, theirs):
        with CardStore.open(path) as store:
            synced(store, cards("a"))
    Path(f"{mine}.damaged-20260101-000000").write_bytes(b"old")
    assert remove_copies(account_folder(folder, "https://a.example", "ada@example.com")) == 2
    assert not mine.parent.exists()
    assert theirs.exists()
    assert remove_copies(folder) == 1
    assert not folder.exists()
    assert remove_copies(tmp_path / "nothing here") == 0


def test_a_nul_in_a_name_does_not_hide_the_rest_of_the_card_from_the_search(path):
    with CardStore.open(path) as store:
        synced(store, [parse_card({"uuid": "a", "display_name": "\x00", "username": "ada"})])
        assert store.ordered(None, terms=("@ada",)) == [0], "trigram index"
        assert store.ordered(None, terms=("da",)) == [0], "scan"


def test_only_the_cards_the_last_sync_added_or_changed(path):
    with CardStore.open(path) as store:
        synced(store, [*cards("a", "b"), *cards("c", name="Old")])
        assert store.ordered(None, changed_only=True) == [], "nothing to compare with"
        synced(store, [*cards("z", "b"), *cards("c", name="New"), *cards("y")])
        assert store.ordered(None, changed_only=True) == [0, 2, 3]
        assert store.ordered("display_name", changed_only=True) == [2, 3, 0]
        assert store.ordered("display_name", descending=True, changed_only=True) == [0, 3, 2]
        assert store.ordered(None, terms=("new",), changed_only=True) == [2]
        assert store.ordered(None, terms=("pe",), changed_only=True, limit=1) == [0]


def test_a_sync_finishing_after_a_later_one_of_another_program_leaves_that_ones_copy(path):
    """The later sync took this one for a sync left behind by a crash and dropped it."""
    with CardStore.open(path) as store, CardStore.open(path) as other:
        synced(store, cards("a"))
        slow = store.begin_sync()
        slow.add(cards("slow"))
        synced(other, cards("quick"))
        with pytest.raises(StoreError, match="Another program synced this space") as refused:
            slow.finish()
        assert refused.value.problem is StoreProblem.NOT_WRITTEN
        slow.abandon()
        assert [c.uuid for c in store.cards()] == ["quick"]
        synced(store, cards("next"))
        assert [c.uuid for c in store.cards()] == ["next"]
