"""The local copy of a space: generations, what changed, and files that are not as expected."""

from __future__ import annotations

import contextlib
import dataclasses
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardviewer.api.models import Card, parse_card
from cardviewer.services import card_store, store_search, store_sync
from cardviewer.services.card_columns import build_columns
from cardviewer.services.card_search import card_search_text, search_terms
from cardviewer.services.card_store import (
    CardStore,
    account_folder,
    close_discarding_if_empty,
    remove_copies,
    store_path,
)
from cardviewer.services.store_copies import Change, Changes
from cardviewer.services.store_schema import Generation, StoreError, StoreProblem
from cardviewer.services.store_sort_keys import index_names
from cardviewer.services.sync_lock import CHANGES_JOB_SUFFIX, SyncLock, changes_job_path
from tests.properties import examples
from tests.services.stores import (
    RecordingKey,
    a_store_path,
    cards,
    connecting_fails,
    count_rows,
    generation_ids,
    synced,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return a_store_path(tmp_path)


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


def test_cards_chosen_in_one_copy_are_found_by_id_in_the_next(path):
    """A sync renumbers the cards: what a person had chosen is found again by its id."""
    with CardStore.open(path) as store:
        synced(store, cards("a", "b", "c", "d"))
        before = store.current
        synced(store, cards("x", "c", "a", "d"))
        assert before is not None
        assert store.ids_at([0, 1, 3], before) == {0: "a", 1: "b", 3: "d"}
        assert store.ids_at([0, 1]) == {0: "x", 1: "c"}, "the current copy by default"
        assert store.positions_of({"a", "b", "d"}) == {"a": 2, "d": 3}, "b was removed"
        assert store.positions_of(()) == {}


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


def test_a_sync_that_ended_unfinished_is_dropped_as_the_next_one_begins(path):
    """Stopped by a full disk, a sync cannot drop its rows either; left for a later sync
    to drop once it succeeded, on a disk that stays nearly full none could."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        stopped = store.begin_sync()
        stopped.add(cards("b", "c"))
        stopped._release()  # its process let go with its rows still there
        assert count_rows(path) == 3
        begun = store.begin_sync()
        assert generation_ids(path) == [1, begun.generation]
        assert count_rows(path) == 1, "the rows of the sync that ended are gone"
        assert [card.uuid for card in store.cards()] == ["a"]


def test_a_sync_that_ended_unfinished_is_dropped_later_where_dropping_it_failed(path, monkeypatch):
    """A disk still full failed the drop, and the locks taken for it were kept: the same
    process (the window) then took that sync for one still written, and kept its rows."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        stopped = store.begin_sync()
        stopped.add(cards("b", "c"))
        stopped._release()

        def full(_db: sqlite3.Connection) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        with monkeypatch.context() as patched:
            patched.setattr(store_sync, "drop_unused_search", full)
            with pytest.raises(sqlite3.OperationalError):
                store.begin_sync()
        assert list(path.parent.glob("*.sync-*")) == [], "no lock file left"
        assert count_rows(path) == 3, "the drop was undone with its transaction"
        begun = store.begin_sync()  # room made: the same process drops them now
        assert generation_ids(path) == [1, begun.generation]
        assert count_rows(path) == 1


def test_a_sync_another_one_still_writes_is_left_to_it(path):
    with CardStore.open(path) as store, CardStore.open(path) as other:
        synced(store, cards("a"))
        writing = store.begin_sync()
        writing.add(cards("b"))
        other.begin_sync().abandon()  # another window's sync, begun and called off
        assert writing.generation in generation_ids(path)
        writing.finish()
        assert [card.uuid for card in store.cards()] == ["b"]
    assert list(path.parent.glob("*.sync-*")) == [], "no lock file left"


def test_a_generation_number_is_never_used_twice(path):
    """Reused once the highest copy was dropped, one number named two syncs: one's lock
    file was the other's, and one's call-off dropped the other's finished copy."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        called_off = store.begin_sync()
        called_off.abandon()
        again = store.begin_sync()
        assert again.generation > called_off.generation
        again.abandon()
    with CardStore.open(path) as store:
        assert store.begin_sync().generation > again.generation


def test_a_sync_begun_before_the_current_copy_is_refused_though_not_yet_dropped(path):
    """The later sync's drop of this one comes after its copy is current, and may be
    called off (quitting): the older fetch must not replace the newer copy."""
    with CardStore.open(path) as store, CardStore.open(path) as other:
        synced(store, cards("a"))
        earlier = store.begin_sync()
        earlier.add(cards("old"))
        later = other.begin_sync()
        later.add(cards("new"))
        later.finish(tidy=False)
        with pytest.raises(StoreError) as refused:
            earlier.finish()
        assert refused.value.problem is StoreProblem.OVERTAKEN
        assert [card.uuid for card in store.cards()] == ["new"]


def test_a_descending_sort_of_words_found_by_the_index_keeps_empty_values_last(path):
    """Matches of a word of three letters or more are sorted in one pass; the rule holds."""
    people = [
        parse_card({"uuid": "a", "display_name": "Sales one", "connects": 2}),
        parse_card({"uuid": "b", "display_name": "Sales two"}),
        parse_card({"uuid": "c", "display_name": "Legal", "connects": 9}),
        parse_card({"uuid": "d", "display_name": "Sales three", "connects": 5}),
        parse_card({"uuid": "e", "display_name": "Sales four"}),
        parse_card({"uuid": "f", "display_name": "Sales five", "connects": 2}),
    ]
    with CardStore.open(path) as store:
        synced(store, people)
        terms = search_terms("sales")
        assert store.ordered("connects", descending=True, terms=terms) == [3, 0, 5, 1, 4]
        assert store.ordered("connects", terms=terms) == [0, 5, 3, 1, 4]
        assert store.ordered("connects", descending=True, terms=terms, limit=4) == [3, 0, 5, 1]


def test_a_card_id_with_a_lone_surrogate_is_kept_and_compared_the_same_each_sync(path):
    """A server's broken escape in an id: kept with U+FFFD, as texts are; the card stays."""
    odd = parse_card({"uuid": "id-\ud800", "display_name": "Odd"})
    with CardStore.open(path) as store:
        synced(store, [odd, *cards("b")])
        assert [card.display_name for card in store.cards_at([0]).values()] == ["Odd"]
        synced(store, [odd, *cards("b")])
        changes = store.changes()
        assert changes is not None
        assert not changes.any


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
        assert store.cards_at([0, 1]) == {}
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


def test_fields_first_seen_in_a_later_batch_are_listed_and_every_card_sorts_by_them(path):
    people = [
        parse_card({"uuid": "a", "display_name": "A"}),
        parse_card({"uuid": "b", "display_name": "B"}),
        parse_card({"uuid": "c", "display_name": "C", "zone": 2, "theme": "dark"}),
        parse_card({"uuid": "d", "display_name": "D", "theme": "blue"}),
        parse_card({"uuid": "e", "display_name": "E", "zone": 1}),
    ]
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        for batch in (people[:2], [], people[2:4], people[4:]):
            sync.add(batch)
        sync.finish()
        # First seen together: in the card's own order, as a page's columns come.
        assert store.extra_fields() == ["zone", "theme"]
        page = build_columns(people, with_emails=False)
        assert [c.key for c in page if c.key in ("zone", "theme")] == ["zone", "theme"]
        assert store.ordered("zone") == [4, 2, 0, 1, 3]
        assert store.ordered("theme", descending=True) == [2, 3, 0, 1, 4]
        assert store.ordered("display_name") == [0, 1, 2, 3, 4]
    with sqlite3.connect(path) as db:
        keys = db.execute("SELECT field, count(*) FROM sort_keys GROUP BY field").fetchall()
    assert {count for _field, count in keys} == {len(people)}
    assert {"theme", "zone", "display_name", "uuid"} <= {field for field, _count in keys}


def test_first_rows_are_given_up_on_when_they_take_too_long(path):
    many = [parse_card({"uuid": f"c{n}", "display_name": f"Person {n}"}) for n in range(500)]
    with CardStore.open(path) as store:
        synced(store, many)
        rare = ("zz",)  # short: no index, so every card is looked at
        assert store.first_ordered("display_name", within=-1.0, terms=rare, limit=5) is None
        assert store.first_ordered("display_name", within=10.0, terms=rare, limit=5) == []
        assert store.first_ordered("display_name", within=0.9, terms=rare, limit=5) == []
        assert store.ordered("display_name", limit=1) == [0], "the store goes on"


@pytest.mark.parametrize("field", [None, "display_name", "connects", "theme"])
@pytest.mark.parametrize("descending", [False, True])
def test_first_rows_walked_to_are_those_the_trigram_index_finds(path, field, descending):
    many = [
        parse_card(
            {
                "uuid": f"c{n}",
                "display_name": f"Person {n % 37}",
                "connects": n % 5,
                **({"theme": f"dark {n % 3}"} if n % 4 else {}),
            }
        )
        for n in range(300)
    ]
    with CardStore.open(path) as store:
        synced(store, many)
        for words in ("person", "person 1", "dark 2 person 3", "son 2", "nobody"):
            terms = search_terms(words)
            whole = store.ordered(field, descending=descending, terms=terms)
            for limit in (1, 10, 90, 400):
                options = {"descending": descending, "terms": terms, "limit": limit}
                walked = store.ordered(field, walk=True, **options)
                assert walked == store.ordered(field, **options) == whole[:limit], words


def test_first_rows_of_a_rare_word_for_the_index_are_left_to_its_whole_answer(path):
    with CardStore.open(path) as store:
        synced(store, cards(*(f"c{n}" for n in range(300))))
        by_name = store.ordered("display_name", terms=("person",))
        first = store.first_ordered("display_name", within=10.0, limit=5, terms=("person",))
        assert first == by_name[:5], "in every card: walked to"
        short = store.first_ordered("display_name", within=10.0, limit=5, terms=("c2",))
        assert short == store.ordered("display_name", terms=("c2",))[:5], "no word to index"
        for rare in ("c29", "c299"):  # in 11 cards, in one
            found = store.first_ordered("display_name", within=10.0, limit=5, terms=(rare,))
            assert found is None, "the index answers whole at once"


def test_a_count_that_takes_too_long_leaves_the_word_to_the_index(path, monkeypatch):
    walked: list[bool] = []
    ordered = CardStore.ordered

    def recorded(store: CardStore, field: str | None, **options: object) -> list[int]:
        walked.append(bool(options.get("walk")))
        return ordered(store, field, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(CardStore, "ordered", recorded)
    with CardStore.open(path) as store:
        synced(store, cards(*(f"c{n}" for n in range(3000))))
        first = store.first_ordered("display_name", within=10.0, limit=5, terms=("person",))
        assert first is not None
        assert walked == [True], "in every card: walked to"
        monkeypatch.setattr(card_store, "COUNT_WITHIN", -1.0)  # counting gives up at once
        first = store.first_ordered("display_name", within=10.0, limit=5, terms=("person",))
        assert first is None
        assert walked == [True], "not walked to: the index's whole answer"


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
        assert store.warm_for_search() is None  # no copy yet: nothing to read
        synced(store, cards(*"uvwxyz"))  # its texts are dropped from the index later
        synced(store, cards("a", "b", "c"))
        synced(store, cards("a", "b", "c", "d"))  # the copy before is kept too
        read: list[str] = []
        store._db.set_trace_callback(read.append)
        parts = [0]
        while (at := store.warm_for_search(parts[-1], rows=3)) is not None:
            parts.append(at)
        # The copy's 4 texts, then the 7 indexed (numbered 7 to 13: 1 to 6 were dropped).
        assert parts == [0, 3, 4, 4 + 7 + 3, 4 + 10 + 3, 4 + 13 + 3]
        assert store.first_ordered(None, within=10.0, terms=("person",)) == [0, 1, 2, 3]
        assert sum("FROM card_text" in statement for statement in read) == 2
        assert sum("length(c0)) FROM card_search_content" in statement for statement in read) == 3
        assert store.ordered(None, terms=("person",)) == [0, 1, 2, 3]


def test_the_copy_before_is_warmed_when_asked_for_it(path):
    """The removed cards are shown from the copy before: its texts are what filters read."""
    with CardStore.open(path) as store:
        synced(store, cards("a", "b", "c", "d", "e"))
        synced(store, cards("a", "b"))
        before = store.previous
        assert before is not None
        read: list[str] = []
        store._db.set_trace_callback(read.append)  # statements with their values
        # The first part is the copy's search texts: as many as it has cards.
        assert store.warm_for_search(0, rows=10, generation=before) == 5
        assert f"WHERE generation = {before.id} AND" in read[-1]
        assert store.warm_for_search(0, rows=10) == 2, "the current copy's two"
        assert f"WHERE generation = {before.id} AND" not in read[-1]


def test_a_file_that_is_no_database_is_set_aside_and_a_new_store_started(path):
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not a database" * 100)
    with CardStore.open(path) as store:
        assert store.current is None
        synced(store, cards("a"))
    (aside,) = path.parent.glob(f"{path.name}.damaged-*")
    assert aside.read_bytes() == b"this is not a database" * 100


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
    assert one == store_path(tmp_path, "https://a.example", " ada@example.com ", "s1")
    saved_before = store_path(tmp_path, "https://A.Example:443", "ada@example.com", "s1")
    assert one == saved_before, "an address an earlier version saved finds the same copy"


def test_two_space_ids_a_file_name_makes_alike_get_copies_of_their_own(tmp_path):
    """Made safe for a file name alone, `team1.` was `team1`: each sync of one replaced
    the other space's cards, and its file of changes reported them removed."""

    def path_of(space_id: str) -> Path:
        return store_path(tmp_path, "https://a.example", "ada@example.com", space_id)

    paths = [path_of(space_id) for space_id in ("team1", "team1.", " team1", "a/b", "a_b")]
    assert len(set(paths)) == len(paths)
    assert paths[0].name == "team1.sqlite"
    assert paths[1].name.startswith("team1-")
    assert paths[1].suffix == ".sqlite"
    assert path_of("team1.") == paths[1], "the same each time"


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


def test_removing_copies_leaves_the_lock_of_a_job_under_way(tmp_path):
    """Its `*.sqlite*` took the lock file of a `cardviewer sync --changes` run along,
    and a second run then ran beside the first."""
    folder = tmp_path / "spaces"
    mine = store_path(folder, "https://a.example", "ada@example.com", "s1")
    with CardStore.open(mine) as store:
        synced(store, cards("a"))
    running = SyncLock.take(changes_job_path(mine))
    assert running is not None
    stale = mine.with_name(f"s2.sqlite{CHANGES_JOB_SUFFIX}")  # a killed job's, unlocked
    stale.write_bytes(b"")
    assert remove_copies(folder) == 1
    assert not mine.exists()
    assert running.path.exists(), "held: a second run is refused still"
    assert not stale.exists(), "no job holds it: it goes"
    running.release()
    remove_copies(folder)
    assert not folder.exists()


def test_a_nul_in_a_name_does_not_hide_the_rest_of_the_card_from_the_search(path):
    with CardStore.open(path) as store:
        synced(store, [parse_card({"uuid": "a", "display_name": "\x00", "username": "ada"})])
        assert store.ordered(None, terms=("@ada",)) == [0], "trigram index"
        assert store.ordered(None, terms=("da",)) == [0], "scan"


def test_a_search_holding_a_nul_finds_what_the_window_s_filter_finds(path):
    """FTS5 read a word only up to its NUL ("unterminated string"), and a short word
    with one matched nothing, the copy holding the NUL as a line break."""
    with CardStore.open(path) as store:
        synced(store, [*cards("xyz"), parse_card({"uuid": "a", "display_name": "Ab\x00cd"})])
        for typed in ("ab\x00cd", "a\x00", "\x00cd"):
            assert store.ordered(None, terms=search_terms(typed)) == [1], typed


def test_only_the_cards_the_last_sync_added_changed_or_removed(path):
    with CardStore.open(path) as store:
        synced(store, [*cards("a", "b"), *cards("c", name="Old")])
        for change in Change:
            assert store.ordered(None, change=change) == [], "nothing to compare with"
        synced(store, [*cards("z", "b"), *cards("c", name="New"), *cards("y")])
        before = store.previous
        assert store.ordered(None, change=Change.ADDED) == [0, 3]
        assert store.ordered("display_name", change=Change.ADDED) == [3, 0]
        assert store.ordered("display_name", descending=True, change=Change.ADDED) == [0, 3]
        assert store.ordered(None, terms=("pe",), change=Change.ADDED, limit=1) == [0]
        assert store.ordered(None, change=Change.CHANGED) == [2]
        assert store.ordered(None, terms=("new",), change=Change.CHANGED) == [2]
        assert store.ordered("display_name", terms=("old",), change=Change.CHANGED) == []
        # Removed cards are in the copy before: read from there, they are what it lost.
        assert store.ordered(None, change=Change.REMOVED, generation=before) == [0]
        assert store.ordered("display_name", change=Change.REMOVED, generation=before) == [0]
        assert store.ordered(None, terms=("son a",), change=Change.REMOVED, generation=before) == [
            0
        ]
        assert store.ordered(None, change=Change.REMOVED) == [], "the current copy lost none"
        assert store.ordered(None, change=Change.ADDED, generation=before) == []
        counted = store.changes()
        assert counted is not None
        assert store.ids_at(store.ordered(None, change=Change.ADDED), None) == {
            0: "z",
            3: "y",
        }
        assert counted.added == ("z", "y")
        synced(store, cards("z"))  # the copy before is now another one
        assert store.ordered(None, change=Change.REMOVED, generation=before) == []


def test_the_cards_a_change_picks_are_worked_out_once_and_whole_even_if_interrupted(path):
    with CardStore.open(path) as store:
        synced(store, cards(*(f"old{n}" for n in range(300))))
        synced(store, cards(*(f"new{n}" for n in range(300)), *(f"old{n}" for n in range(150))))
        # Interrupted at once, the comparison leaves nothing half made behind.
        assert store.first_ordered(None, within=0, change=Change.ADDED) is None
        assert store.ordered(None, change=Change.ADDED) == list(range(300))
        assert store.ordered("display_name", terms=("new2",), change=Change.ADDED) == [
            2,
            *range(20, 30),
            *range(200, 300),
        ]
        assert store.ordered(None, change=Change.REMOVED, generation=store.previous) == list(
            range(150, 300)
        )


@pytest.mark.parametrize("changed", [5, 200], ids=["few changed", "many changed"])
def test_the_cards_of_a_change_sort_and_filter_as_the_whole_copy_does(path, changed):
    """Few, they are read on their own; many, in the copy's sort order: the same rows."""

    def people(version: int) -> list[Card]:
        return [
            parse_card(
                {
                    "uuid": f"c{n}",
                    "display_name": f"Person {n % 23}",
                    "connects": (n * 7) % 11 + (version if 20 <= n < 20 + changed else 0),
                    **({"theme": f"dark {n % 3}"} if n % 4 else {}),
                }
            )
            for n in range(300)
        ]

    with CardStore.open(path) as store:
        synced(store, people(0)[20:])
        synced(store, people(1)[:280])
        copies = {Change.ADDED: None, Change.CHANGED: None, Change.REMOVED: store.previous}
        for change, copy in copies.items():
            picked = set(store.ordered(None, change=change, generation=copy))
            assert picked, change
            for field in (None, "display_name", "connects", "theme"):
                for descending in (False, True):
                    for words in ("", "person 1", "dark 2", "son"):
                        terms = search_terms(words)
                        options = {"descending": descending, "terms": terms, "generation": copy}
                        whole = [
                            position
                            for position in store.ordered(field, **options)  # type: ignore[arg-type]
                            if position in picked
                        ]
                        found = store.ordered(field, change=change, **options)  # type: ignore[arg-type]
                        assert found == whole, (change, field, descending, words)
                        first = store.ordered(field, change=change, limit=3, **options)  # type: ignore[arg-type]
                        assert first == whole[:3]


@pytest.mark.parametrize(("changed", "counted"), [(5, False), (200, True)])
def test_a_word_in_a_change_of_many_cards_is_counted_in_the_index_first(
    path, monkeypatch, changed, counted
):
    """Few, the change's cards are tested one by one; many, they are found as the whole
    copy's are (walked to, or looked up in the trigram index)."""
    asked: list[tuple[str, ...]] = []
    quicker = store_search.walk_is_quicker

    def recorded(db: sqlite3.Connection, terms: tuple[str, ...], **options: int) -> bool:
        asked.append(tuple(terms))
        return quicker(db, terms, **options)

    monkeypatch.setattr(card_store, "walk_is_quicker", recorded)
    with CardStore.open(path) as store:
        synced(store, cards(*(f"c{n}" for n in range(300))))
        synced(
            store,
            [
                *cards(*(f"c{n}" for n in range(changed)), name="Changed"),
                *cards(*(f"c{n}" for n in range(changed, 300))),
            ],
        )
        found = store.first_ordered(
            "display_name", within=10.0, limit=5, terms=("changed",), change=Change.CHANGED
        )
        assert (asked == [("changed",)]) is counted
        whole = store.ordered("display_name", terms=("changed",), change=Change.CHANGED)
        assert len(whole) == changed
        assert found is None or found == whole[:5]


def test_a_sync_says_whether_its_cards_have_their_e_mail_addresses(path):
    """Not asked for, a copy is without e-mails, even if no card has any either way."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        assert store.current is not None
        assert not store.current.with_emails
        sync = store.begin_sync(with_emails=True)
        sync.add(cards("a"))
        assert sync.finish().with_emails
        assert store.current.with_emails


def test_a_copy_and_its_changes_are_values_and_the_options_go_by_name(path):
    """What the store hands the window cannot change under it; a True by position is refused."""
    synced_at = datetime(2026, 1, 1, tzinfo=UTC)
    copy = Generation(1, synced_at, 2)
    assert not copy.with_emails, "not said: fetched without e-mails"
    assert {copy: "shown"}[Generation(1, synced_at, 2, with_emails=False)] == "shown"
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.card_count = 3  # type: ignore[misc]
    changes = Changes(("a",), (), ())
    with pytest.raises(dataclasses.FrozenInstanceError):
        changes.added = ()  # type: ignore[misc]
    with CardStore.open(path) as store:
        with pytest.raises(TypeError):
            store.begin_sync(True)  # type: ignore[call-arg]
        synced(store, cards("a"))
        with pytest.raises(TypeError):
            store.ordered("display_name", True)  # type: ignore[call-arg]
        with pytest.raises(TypeError):
            store.first_ordered("display_name", 10.0)  # type: ignore[call-arg]


def test_numbers_past_64_bits_are_kept_as_floats_and_the_others_exactly(path):
    """SQLite's integers have 64 bits: a larger number sorts as a float, a smaller one exactly.

    Two numbers a float cannot tell apart would tie, and keep the space's order.
    """
    numbers = [2**62 + 1, 2**62, 2**63, 2**63 - 1, -(2**63), 10**30]
    people = [parse_card({"uuid": f"c{n}", "connects": number}) for n, number in enumerate(numbers)]
    with CardStore.open(path) as store:
        synced(store, people)
        assert store.ordered("connects") == [4, 1, 0, 3, 2, 5]
        assert [card.connects for card in store.cards()] == numbers


def test_texts_whose_keys_tie_share_a_rank_when_keys_only_compare_with_less_than(path):
    """Like `QCollator.sortKey`'s, a key may know `<` only (`==` is then identity)."""

    class OnlyLess:
        def __init__(self, text: str) -> None:
            self.folded = text.casefold()

        def __lt__(self, other: OnlyLess) -> bool:
            return self.folded < other.folded

    people = [
        parse_card({"uuid": u, "display_name": n})
        for u, n in zip("abc", ["Ada", "Bob", "ADA"], strict=True)
    ]
    with CardStore.open(path) as store:
        synced(store, people)
        up = store.ordered("display_name", text_key=OnlyLess, collation="only-less")
        down = store.ordered(
            "display_name", descending=True, text_key=OnlyLess, collation="only-less"
        )
        assert (up, down) == ([0, 2, 1], [1, 0, 2])


def test_a_copy_ranked_under_a_collation_is_not_ranked_again_for_it(path):
    """Ranking takes long at 100,000 cards: a sort under the collation ranked last reuses it."""
    key = RecordingKey()
    keys = key.texts
    with CardStore.open(path) as store:
        store.rank_texts(key, "plain", "display_name")  # no copy yet: nothing to rank
        synced(store, [*cards("a", name="a"), *cards("b", name="B")])  # ranked "folded"
        assert store.ordered("display_name", text_key=key, collation="folded") == [0, 1]
        assert keys == []
        assert store.ordered("display_name", text_key=key, collation="plain") == [1, 0]
        assert keys != []
        keys.clear()
        assert store.ordered("display_name", text_key=key, collation="plain") == [1, 0]
        assert keys == []


def test_a_sort_in_another_language_ranks_the_field_sorted_alone(path):
    """Every text of the copy was ranked again: 15 s at 100,000 cards for one sort."""
    key = RecordingKey()
    ranked = key.texts
    with CardStore.open(path) as store:
        synced(store, [*cards("a", name="a"), *cards("b", name="B")])  # ranked "folded"
        assert store.ordered("display_name", text_key=key, collation="plain") == [1, 0]
        assert set(ranked) == {"a a", "B b"}, "the names alone"
        assert store.needs_ranking("plain", "uuid")
        assert not store.needs_ranking("plain", "display_name")
        assert store.ranked_under() == "plain", "the language last sorted in"
        ranked.clear()
        assert store.ordered("uuid", text_key=key, collation="plain") == [0, 1]
        assert set(ranked) == {"a", "b"}
        ranked.clear()
        assert store.ordered("display_name", text_key=key, collation="plain") == [1, 0]
        assert ranked == []
        assert store.ordered("display_name", collation="folded") == [0, 1], "ranked again"


def test_a_sort_of_a_copy_newer_syncs_dropped_finds_nothing_and_writes_nothing(path):
    """A window not yet showing the newest copy: ranking a copy that is gone took the
    store's write lock and built two sort indexes over every copy's keys, each time."""
    with CardStore.open(path) as job, CardStore.open(path) as window:
        synced(job, cards("a", "b"))
        shown = job.current
        assert shown is not None
        synced(job, cards("a", "b", "c"))
        synced(job, cards("a", "b", "c", "d"))  # the copy shown is dropped
        assert window.ordered("display_name", generation=shown, collation="plain") == []
    with contextlib.closing(sqlite3.connect(path)) as db:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master")]
    assert not set(index_names(shown.id)) & set(names)


def test_a_search_mixing_long_and_short_words_needs_both(path):
    """A long word goes through the trigram index, a short one is scanned for, in one query."""
    people = [*cards("a", name="Jane"), *cards("b", name="Janet"), *cards("c", name="Jo")]
    with CardStore.open(path) as store:
        synced(store, people)  # "Jane a", "Janet b", "Jo c"
        assert store.ordered(None, terms=("jane", "t")) == [1]
        assert store.ordered("display_name", descending=True, terms=("jane", "a")) == [1, 0]


def test_a_sync_may_be_written_by_another_thread_than_the_one_that_opened_the_store(path):
    """A sync's worker writes to the store the window's thread opened (one at a time)."""
    with CardStore.open(path) as store, ThreadPoolExecutor(1) as worker:
        worker.submit(synced, store, cards("a", "b")).result()
        assert [c.uuid for c in store.cards()] == ["a", "b"]


def test_a_sync_finishing_after_a_later_one_of_another_program_leaves_that_ones_copy(path):
    """The later sync took this one for a sync left behind by a crash and dropped it."""
    with CardStore.open(path) as store, CardStore.open(path) as other:
        synced(store, cards("a"))
        slow = store.begin_sync()
        slow.add(cards("slow"))
        synced(other, cards("quick"))
        with pytest.raises(StoreError, match="Another program synced this space") as refused:
            slow.finish()
        assert refused.value.problem is StoreProblem.OVERTAKEN
        slow.abandon()
        assert [c.uuid for c in store.cards()] == ["quick"]
        synced(store, cards("next"))
        assert [c.uuid for c in store.cards()] == ["next"]


def test_a_sync_abandoned_twice_leaves_a_sync_begun_since_alone(path):
    """A new sync may get the number of one abandoned; abandoning that one again drops nothing."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        first = store.begin_sync()
        first.abandon()
        second = store.begin_sync()
        second.add(cards("b"))
        first.abandon()
        second.finish()
        assert [c.uuid for c in store.cards()] == ["b"]


def test_copies_that_cannot_be_removed_stay_and_the_others_go(tmp_path, monkeypatch, caplog):
    """A file in use (on Windows) is logged and left; the files after it still go."""
    folder = tmp_path / "spaces"
    stuck = store_path(folder, "https://a.example", "ada@example.com", "s1")
    other = store_path(folder, "https://a.example", "ada@example.com", "s2")
    for path in (stuck, other):
        with CardStore.open(path) as store:
            synced(store, cards("a"))
    unlink = Path.unlink

    def unlink_unless_stuck(self: Path, missing_ok: bool = False) -> None:
        if self == stuck:
            raise PermissionError(13, "in use by another program", str(self))
        unlink(self, missing_ok)

    monkeypatch.setattr(Path, "unlink", unlink_unless_stuck)
    assert remove_copies(folder) == 1
    assert stuck.exists()
    assert not other.exists()
    assert "could not be removed" in caplog.text


def test_empty_folders_go_the_deepest_first(tmp_path):
    """Removing every copy under a folder two levels above them leaves no folder."""
    folder = tmp_path / "data"
    with CardStore.open(store_path(folder / "spaces", "https://a.example", "a@b.c", "s1")) as store:
        synced(store, cards("a"))
    assert remove_copies(folder) == 1
    assert not folder.exists()


def test_where_a_copy_lives_stays_the_same_from_version_to_version(tmp_path):
    """A copy synced by an earlier version is found again: its folder's name never changes."""
    path = store_path(tmp_path, "https://a.example", "ada@example.com", "s1")
    assert path == tmp_path / "784a557dc2faa6f6" / "s1.sqlite"


def test_a_store_that_may_not_be_changed_is_told_so_and_left_as_it_is(path, monkeypatch):
    """Its file or folder read-only for the person: not damaged, so not set aside."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
    connecting_fails(monkeypatch, "attempt to write a readonly database", "SQLITE_READONLY")
    with pytest.raises(StoreError, match="read-only for you") as raised:
        CardStore.open(path)
    assert raised.value.problem is StoreProblem.READ_ONLY
    assert not list(path.parent.glob("*.damaged-*"))


def test_a_damaged_copy_opened_to_be_read_is_set_aside_and_said_not_made_empty(path):
    """The window showed an empty "local copy" of 0 cards, with no word of the damage."""
    with CardStore.open(path) as store:
        synced(store, cards("a"))
    path.write_bytes(b"\0garbage" * 4096)
    with pytest.raises(StoreError) as raised:
        CardStore.open(path, create=False)
    assert raised.value.problem is StoreProblem.DAMAGED
    assert "damaged; it is set aside, and the next sync makes a new one" in str(raised.value)
    assert not path.exists(), "no empty store in its place"
    (aside,) = path.parent.glob(f"{path.name}.damaged-*")
    assert aside.read_bytes() == b"\0garbage" * 4096


def test_a_first_sync_s_store_with_only_rows_it_could_not_drop_is_discarded(path):
    """A first sync the disk filled up could not drop its rows either: the store stayed,
    the disk full, until the next sync."""
    store = CardStore.open(path)
    stopped = store.begin_sync()
    stopped.add(cards("a", "b"))
    stopped._release()  # dropping it failed: its rows are there, its lock let go of
    close_discarding_if_empty(store)
    assert list(path.parent.iterdir()) == []


def test_a_store_another_sync_writes_its_first_copy_into_is_kept(path):
    with CardStore.open(path) as other:
        writing = other.begin_sync()  # another program's sync, under way
        writing.add(cards("a"))
        close_discarding_if_empty(CardStore.open(path))
        assert path.exists()
        writing.finish()
    with CardStore.open(path, create=False) as store:
        assert [card.uuid for card in store.cards()] == ["a"]


def test_a_copy_another_sync_finishes_while_the_store_is_looked_at_is_kept(path, monkeypatch):
    """The rows were read, then the other sync finished and let go of its lock, and the
    lock taken for an ended sync: the store with the fresh copy was deleted."""
    other = CardStore.open(path)
    writing = other.begin_sync()
    writing.add(cards("a"))
    take = SyncLock.take

    def finished_first(lock: Path) -> SyncLock | None:
        if not writing._done:
            writing.finish()  # commits its copy, then lets go of its lock
        return take(lock)

    monkeypatch.setattr(SyncLock, "take", staticmethod(finished_first))
    close_discarding_if_empty(CardStore.open(path))
    assert path.exists()
    with CardStore.open(path, create=False) as store:
        assert [card.uuid for card in store.cards()] == ["a"]
    other.close()
