"""Sorts and filters of a local copy on a worker thread: first rows, then all; newest only."""

from __future__ import annotations

import dataclasses
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cardviewer.api.models import parse_card
from cardviewer.services import space_queries, store_schema
from cardviewer.services.card_store import CardStore
from cardviewer.services.space_queries import (
    FIRST_CARDS,
    FIRST_ROWS,
    SpaceAnswer,
    SpaceQueries,
    SpaceQuery,
)
from cardviewer.services.store_copies import Change
from cardviewer.services.store_schema import SCHEMA_VERSION
from cardviewer.services.store_sort_keys import FOLDED, rank_generation_texts

WAIT = 10.0


def store_of(path: Path, count: int) -> Path:
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        sync.add(parse_card({"uuid": f"c{n}", "display_name": f"Person {n}"}) for n in range(count))
        sync.finish()
    return path


@pytest.fixture
def answers() -> queue.Queue[SpaceAnswer]:
    return queue.Queue()


@pytest.fixture
def open_queries(answers) -> Iterator[Callable[..., SpaceQueries]]:
    opened: list[SpaceQueries] = []

    def open_(path: Path, deliver=answers.put) -> SpaceQueries:
        queries = SpaceQueries(path, deliver)
        opened.append(queries)
        return queries

    yield open_
    for queries in opened:
        queries.close()


def test_first_rows_come_first_then_every_row(tmp_path, answers, open_queries):
    queries = open_queries(store_of(tmp_path / "s.sqlite", FIRST_ROWS + 50))
    number = queries.ask(SpaceQuery("display_name", descending=True))
    first, every = answers.get(timeout=WAIT), answers.get(timeout=WAIT)
    assert (first.number, len(first.positions), first.complete) == (number, FIRST_ROWS, False)
    assert (every.number, len(every.positions), every.complete) == (number, FIRST_ROWS + 50, True)
    assert every.positions[:FIRST_ROWS] == first.positions
    last = FIRST_ROWS + 49
    assert every.positions[:3] == [last, last - 1, last - 2]


def test_an_answer_with_new_rows_brings_the_cards_of_its_first_ones(
    tmp_path, answers, open_queries
):
    """Read on the worker, so that the window paints them without reading the copy."""
    path = store_of(tmp_path / "s.sqlite", FIRST_ROWS + 50)
    queries = open_queries(path)
    queries.ask(SpaceQuery("display_name", descending=True))
    first, every = answers.get(timeout=WAIT), answers.get(timeout=WAIT)
    with CardStore.open(path) as store:
        assert first.cards == store.cards_at(first.positions[:FIRST_CARDS])
    assert len(first.cards) == FIRST_CARDS
    assert every.cards == {}, "the rest of the answer only adds rows below them"
    last = str(FIRST_ROWS + 49)
    queries.ask(SpaceQuery("display_name", terms=("person", last)))  # the trigram index
    (found,) = [answers.get(timeout=WAIT)]
    assert found.complete
    assert [card.display_name for card in found.cards.values()] == [f"Person {last}"]


def test_cards_that_cannot_be_read_on_the_worker_leave_the_answer_as_it_is(
    tmp_path, answers, open_queries, monkeypatch, caplog
):
    def damaged(store: CardStore, positions: object, generation: object) -> dict[int, object]:
        raise ValueError("a row that is no card")

    monkeypatch.setattr(CardStore, "cards_at", damaged)
    queries = open_queries(store_of(tmp_path / "s.sqlite", 3))
    number = queries.ask(SpaceQuery("display_name", descending=True))
    answer = answers.get(timeout=WAIT)
    assert answer == SpaceAnswer(number, [2, 1, 0], True)
    assert answer.cards == {}, "the window reads them itself, and says what is wrong"


def test_a_short_answer_comes_once_and_complete(tmp_path, answers, open_queries):
    queries = open_queries(store_of(tmp_path / "s.sqlite", 30))
    number = queries.ask(SpaceQuery(None, terms=("person", "2")))
    answer = answers.get(timeout=WAIT)
    assert answer == SpaceAnswer(number, [2, 12, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29], True)
    assert answers.empty()


@pytest.mark.parametrize("word", ["pe", "per", "person"])
def test_a_word_in_many_cards_gives_first_rows_then_every_row(
    tmp_path, answers, open_queries, word
):
    """Short or long enough for the trigram index: the first rows are walked to at once."""
    queries = open_queries(store_of(tmp_path / "s.sqlite", FIRST_ROWS + 50))
    number = queries.ask(SpaceQuery("display_name", terms=(word,)))
    first, every = answers.get(timeout=WAIT), answers.get(timeout=WAIT)
    assert (first.number, len(first.positions), first.complete) == (number, FIRST_ROWS, False)
    assert (every.number, len(every.positions), every.complete) == (number, FIRST_ROWS + 50, True)
    assert every.positions[:FIRST_ROWS] == first.positions


def test_first_rows_that_are_all_of_them_are_the_whole_answer(
    tmp_path, answers, open_queries, monkeypatch
):
    monkeypatch.setattr(space_queries, "FULL_AFTER", 0)  # the whole answer would follow at once
    limits: list[int | None] = []
    ordered = CardStore.ordered

    def recorded(store: CardStore, field: str | None, **options: Any) -> list[int]:
        limits.append(options.get("limit"))
        return ordered(store, field, **options)

    monkeypatch.setattr(CardStore, "ordered", recorded)
    queries = open_queries(store_of(tmp_path / "s.sqlite", 30))
    short = queries.ask(SpaceQuery("display_name", descending=True, terms=("2",)))
    answer = answers.get(timeout=WAIT)
    assert (answer.number, answer.complete) == (short, True)
    assert sorted(answer.positions) == [2, 12, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]
    every = queries.ask(SpaceQuery())
    assert answers.get(timeout=WAIT) == SpaceAnswer(every, range(30), True)
    assert limits == [FIRST_ROWS], "the store is not asked for all of them again"


def test_an_answer_to_an_older_query_is_never_delivered(tmp_path, answers, open_queries):
    entered, release = threading.Event(), threading.Event()

    def slow_deliver(answer: SpaceAnswer) -> None:
        if not entered.is_set():
            entered.set()
            release.wait(WAIT)
        answers.put(answer)

    queries = open_queries(store_of(tmp_path / "s.sqlite", FIRST_ROWS + 50), slow_deliver)
    old = queries.ask(SpaceQuery("display_name"))
    assert entered.wait(WAIT)  # the old query's first rows are being delivered
    newer = queries.ask(SpaceQuery(None, terms=("person", "1")))
    newest = queries.ask(SpaceQuery(None, terms=("person", "3")))
    release.set()
    assert answers.get(timeout=WAIT).number == old  # was on its way already
    last = answers.get(timeout=WAIT)
    while not last.complete:
        last = answers.get(timeout=WAIT)
    assert last.number == newest != newer
    assert 3 in last.positions
    assert 1 not in last.positions


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_store_that_cannot_be_read_is_answered_with_a_failure(tmp_path, answers):
    path = store_of(tmp_path / "s.sqlite", 3)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    queries = SpaceQueries(path, answers.put)
    for query in (SpaceQuery(), SpaceQuery("display_name")):
        number = queries.ask(query)
        answer = answers.get(timeout=WAIT)
        assert answer.number == number
        assert answer.positions == []
        assert answer.complete
        assert answer.failure
    queries.close()  # without an error on the worker thread


def test_the_worker_does_not_keep_the_app_from_ending(tmp_path, open_queries):
    before = set(threading.enumerate())
    open_queries(store_of(tmp_path / "s.sqlite", 3))
    started = set(threading.enumerate()) - before
    (worker,) = (thread for thread in started if thread.name == "space queries")
    assert worker.daemon


def test_the_copy_is_read_into_memory_before_the_first_query_and_a_failed_read_is_no_harm(
    tmp_path, answers, open_queries, monkeypatch
):
    warming = threading.Event()

    def warm_failed(store: CardStore, start: int = 0, **_: Any) -> int | None:
        warming.set()
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(CardStore, "warm_for_search", warm_failed)
    queries = open_queries(store_of(tmp_path / "s.sqlite", 3))
    assert warming.wait(WAIT)
    number = queries.ask(SpaceQuery("display_name", descending=True))
    assert answers.get(timeout=WAIT) == SpaceAnswer(number, [2, 1, 0], True)


def test_the_worker_keeps_64_mib_of_the_copy_in_memory(
    tmp_path, answers, open_queries, monkeypatch
):
    """The search texts of 100,000 cards, their trigram index's copy, the sort orders read."""
    kept: list[int] = []
    keep_in_memory = CardStore.keep_in_memory

    def recorded(store: CardStore, cache_bytes: int) -> None:
        kept.append(cache_bytes)
        keep_in_memory(store, cache_bytes)

    monkeypatch.setattr(CardStore, "keep_in_memory", recorded)
    queries = open_queries(store_of(tmp_path / "s.sqlite", 3))
    number = queries.ask(SpaceQuery())
    assert answers.get(timeout=WAIT) == SpaceAnswer(number, range(3), True)
    assert kept == [64 * 2**20]


def test_a_query_asked_before_warming_is_answered_first_and_the_copy_warmed_after(
    tmp_path, answers, open_queries, monkeypatch
):
    """The window asks for its first rows as it opens a copy: warming waits for them,
    and then still reads the copy before the first key is typed."""
    asked, done = threading.Event(), threading.Event()
    order: list[str] = []
    open_store: Callable[..., CardStore]
    open_store = CardStore.open.__func__  # type: ignore[attr-defined]

    def opened_once_asked(cls: type[CardStore], /, path: Path, **options: Any) -> CardStore:
        asked.wait(WAIT)
        return open_store(cls, path, **options)

    def warmed(store: CardStore, start: int = 0, **_: Any) -> int | None:
        order.append("warmed")
        done.set()
        return None

    def delivered(answer: SpaceAnswer) -> None:  # on the worker thread, in its order
        order.append("answered")
        answers.put(answer)

    path = store_of(tmp_path / "s.sqlite", 3)
    monkeypatch.setattr(CardStore, "open", classmethod(opened_once_asked))
    monkeypatch.setattr(CardStore, "warm_for_search", warmed)
    queries = open_queries(path, delivered)
    number = queries.ask(SpaceQuery("display_name"))
    asked.set()
    assert answers.get(timeout=WAIT) == SpaceAnswer(number, [0, 1, 2], True)
    assert done.wait(WAIT)
    assert order == ["answered", "warmed"]


@pytest.mark.parametrize("interrupted", [False, True], ids=["between parts", "within one"])
def test_warming_stops_for_a_query_and_goes_on_where_it_was_after_it(
    tmp_path, answers, open_queries, monkeypatch, interrupted
):
    """A part at a time: a query waits for the part being read, not for the whole copy.

    A query asked while a part is read may also interrupt it (`ask` interrupts what the
    worker's store runs): that part is read again after the query. Warming stopped there
    for good, and the first key typed in the filter waited for the disk (300 ms at
    100,000 cards).
    """
    order: list[object] = []
    reading, asked, done = threading.Event(), threading.Event(), threading.Event()

    def warm(store: CardStore, start: int = 0, **_: Any) -> int | None:
        order.append(start)
        if len(order) == 1:
            reading.set()
            asked.wait(WAIT)  # a query comes while this part is read
            if interrupted:
                raise sqlite3.OperationalError("interrupted")
            return 10
        done.set()
        return None

    def delivered(answer: SpaceAnswer) -> None:
        order.append("answered")
        answers.put(answer)

    monkeypatch.setattr(CardStore, "warm_for_search", warm)
    queries = open_queries(store_of(tmp_path / "s.sqlite", 3), delivered)
    assert reading.wait(WAIT)
    number = queries.ask(SpaceQuery("display_name", descending=True))
    asked.set()
    assert answers.get(timeout=WAIT) == SpaceAnswer(number, [2, 1, 0], True)
    assert done.wait(WAIT)
    assert order == [0, "answered", 0 if interrupted else 10]


def test_a_store_without_a_copy_yet_has_no_cards(tmp_path, answers, open_queries):
    path = tmp_path / "s.sqlite"
    CardStore.open(path).close()
    queries = open_queries(path)
    number = queries.ask(SpaceQuery())
    answer = answers.get(timeout=WAIT)
    assert (answer.number, list(answer.positions), answer.complete) == (number, [], True)


def test_queries_and_answers_are_values_and_the_options_are_given_by_name(tmp_path, answers):
    query, answer = SpaceQuery(), SpaceAnswer(1, [], True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        query.terms = ("x",)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.complete = False  # type: ignore[misc]
    assert {query} == {SpaceQuery(None, False, (), None)}
    with pytest.raises(TypeError):
        SpaceQueries(tmp_path / "s.sqlite", answers.put, FOLDED)  # type: ignore[call-arg]
    assert list(tmp_path.iterdir()) == []


def test_nothing_is_delivered_after_closing(tmp_path, answers):
    queries = SpaceQueries(store_of(tmp_path / "s.sqlite", 3), answers.put)
    queries.close()
    queries.ask(SpaceQuery())
    assert answers.empty()


def test_a_rare_word_is_looked_up_in_the_trigram_index_and_a_common_one_walked_to(
    tmp_path, answers, open_queries, monkeypatch
):
    asked: list[tuple[bool, int | None]] = []
    ordered = CardStore.ordered

    def recorded(store: CardStore, field: str | None, **options: Any) -> list[int]:
        asked.append((options.get("walk", False), options.get("limit")))
        return ordered(store, field, **options)

    monkeypatch.setattr(CardStore, "ordered", recorded)
    path = tmp_path / "s.sqlite"
    with CardStore.open(path) as store:  # the common word's cards last by name
        sync = store.begin_sync()
        sync.add(parse_card({"uuid": f"a{n}", "display_name": f"Aaron {n}"}) for n in range(1500))
        sync.add(parse_card({"uuid": f"z{n}", "display_name": f"Zed {n}"}) for n in range(500))
        sync.finish()
    queries = open_queries(path)
    rare = queries.ask(SpaceQuery("display_name", terms=("aaron", "149")))
    answer = answers.get(timeout=WAIT)
    assert (answer.number, answer.complete) == (rare, True)
    assert sorted(answer.positions) == [149, 1149, *range(1490, 1500)]
    assert asked == [(False, None)], "the index's whole answer at once, no walk"
    asked.clear()
    common = queries.ask(SpaceQuery("display_name", terms=("zed",)))
    first, every = answers.get(timeout=WAIT), answers.get(timeout=WAIT)
    assert (first.number, first.positions[:2], first.complete) == (common, [1500, 1501], False)
    assert every.positions == list(range(1500, 2000))
    assert asked == [(True, FIRST_ROWS), (False, None)], "one card in four: walked to"
    monkeypatch.setattr(space_queries, "FIRST_WALK", -1.0)  # a walk given up on at once
    asked.clear()
    walked = queries.ask(SpaceQuery("display_name", descending=True, terms=("aaron",)))
    answer = answers.get(timeout=WAIT)
    assert (answer.number, answer.complete) == (walked, True)
    assert answer.positions == list(range(1499, -1, -1))
    assert asked == [(True, FIRST_ROWS), (False, None)], "then the index's whole answer"
    assert answers.empty()


def test_a_walk_interrupted_for_a_newer_query_leaves_the_index_alone(
    tmp_path, answers, open_queries, monkeypatch
):
    """The whole answer of a query already replaced is not looked up in the index."""
    asked: list[tuple[tuple[str, ...], bool]] = []
    ordered = CardStore.ordered
    queries: SpaceQueries

    def replaced(store: CardStore, field: str | None, **options: Any) -> list[int]:
        terms = options.get("terms", ())
        asked.append((terms, options.get("walk", False)))
        if terms == ("person",) and options.get("walk"):
            queries.ask(SpaceQuery("display_name", terms=("newer",)))
            raise sqlite3.OperationalError("interrupted")
        return ordered(store, field, **options)

    monkeypatch.setattr(CardStore, "ordered", replaced)
    queries = open_queries(store_of(tmp_path / "s.sqlite", 200))  # "person": in every card
    queries.ask(SpaceQuery("display_name", terms=("person",)))
    answer = answers.get(timeout=WAIT)
    assert (answer.number, answer.positions, answer.complete) == (2, [], True)
    assert asked == [(("person",), True), (("newer",), False)], "a rare word: the index"
    assert (("person",), False) not in asked


def test_a_whole_answer_stops_for_a_query_asked_between_two_statements(
    tmp_path, answers, open_queries, monkeypatch
):
    """`ask` interrupts the statement running; one asked as none ran was lost, and the
    replaced query's whole answer ran to its end (278 ms at 100,000 cards)."""
    monkeypatch.setattr(space_queries, "STALE_STEPS", 100)
    ended: list[str] = []
    ordered = CardStore.ordered
    queries: SpaceQueries

    def newer_asked_first(store: CardStore, field: str | None, **options: Any) -> list[int]:
        if options.get("limit") is None and options.get("terms") == ("pe",):
            queries.ask(SpaceQuery("display_name", terms=("newer",)))  # no statement runs
        found = ordered(store, field, **options)
        ended.append(" ".join(options.get("terms", ())))
        return found

    monkeypatch.setattr(CardStore, "ordered", newer_asked_first)
    monkeypatch.setattr(space_queries, "FULL_AFTER", 0)
    queries = open_queries(store_of(tmp_path / "s.sqlite", 500))
    queries.ask(SpaceQuery("display_name", descending=True, terms=("pe",)))
    first = answers.get(timeout=WAIT)
    assert (first.number, first.complete) == (1, False)
    answer = answers.get(timeout=WAIT)
    assert (answer.number, answer.positions, answer.complete) == (2, [], True)
    assert ended == ["pe", "newer"], "the whole answer of the query replaced was called off"


def test_the_space_order_is_every_position_and_an_interrupted_one_leaves_the_worker_going(
    tmp_path, open_queries, answers, monkeypatch
):
    path = store_of(tmp_path / "space.sqlite", 5)
    reads = 0
    current = CardStore.current

    def interrupted_once(store: CardStore):  # as a newer query interrupts the read
        nonlocal reads
        reads += 1
        if reads == 1:
            raise sqlite3.OperationalError("interrupted")
        return current.fget(store)  # type: ignore[attr-defined]

    monkeypatch.setattr(CardStore, "current", property(interrupted_once))
    # Warming reads nothing.
    monkeypatch.setattr(CardStore, "warm_for_search", lambda store, start=0, **_: None)
    queries = open_queries(path)
    first = queries.ask(SpaceQuery())
    failed = answers.get(timeout=WAIT)
    assert (failed.number, failed.complete, failed.failure) == (first, True, "interrupted")
    again = queries.ask(SpaceQuery())
    answer = answers.get(timeout=WAIT)
    assert (answer.number, answer.complete) == (again, True)
    assert list(answer.positions) == [0, 1, 2, 3, 4]


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_word_sqlite_cannot_take_fails_that_query_and_the_worker_goes_on(
    tmp_path, answers, open_queries
):
    """A lone surrogate cannot be bound (SQLite keeps UTF-8); it ended the worker thread,
    and every later query waited for good."""
    queries = open_queries(store_of(tmp_path / "s.sqlite", 30))
    for word in ("\udfff", "per\udfff"):  # the first rows' query, then the trigram index's
        number = queries.ask(SpaceQuery("display_name", terms=(word,)))
        failed = answers.get(timeout=WAIT)
        assert (failed.number, failed.positions, failed.complete) == (number, [], True)
        assert failed.failure
    number = queries.ask(SpaceQuery(None, terms=("person", "29")))
    assert answers.get(timeout=WAIT) == SpaceAnswer(number, [29], True)


def test_a_sort_that_must_rank_first_answers_the_cards_unsorted_meanwhile(
    tmp_path, answers, monkeypatch
):
    """Ranking every text of a copy synced in another language takes 18 s at 100,000
    cards; the cards a sync changed showed none meanwhile."""
    path = tmp_path / "s.sqlite"
    people = [parse_card({"uuid": f"c{n}", "display_name": f"Person {n}"}) for n in range(6)]
    edited = [parse_card({"uuid": f"c{n}", "display_name": f"Edited {9 - n}"}) for n in (1, 4)]
    with CardStore.open(path) as store:
        for batch in (people, [people[0], edited[0], *people[2:4], edited[1], people[5]]):
            sync = store.begin_sync()
            sync.add(batch)
            sync.finish()  # ranked under none: a sort in German ranks first
    ranking = threading.Event()
    ranked = threading.Event()
    rank = rank_generation_texts

    def held(*args: Any, **kwargs: Any) -> None:
        ranking.set()
        assert ranked.wait(WAIT)
        rank(*args, **kwargs)

    monkeypatch.setattr("cardviewer.services.card_store.rank_generation_texts", held)
    queries = SpaceQueries(path, answers.put, collation="de_DE")
    try:
        number = queries.ask(SpaceQuery("display_name", change=Change.CHANGED))
        unsorted = answers.get(timeout=WAIT)
        assert (unsorted.number, list(unsorted.positions), unsorted.complete) == (
            number,
            [1, 4],
            False,
        )
        assert sorted(unsorted.cards) == [1, 4], "their cards, to paint at once"
        assert ranking.wait(WAIT)
        ranked.set()
        answer = answers.get(timeout=WAIT)
        assert (list(answer.positions), answer.complete) == ([4, 1], True), "then sorted"
    finally:
        ranked.set()
        queries.close()


def test_a_sort_waits_for_the_store_another_program_writes(tmp_path, answers, monkeypatch):
    """A sync's last step holds the store for up to 15 s at 100,000 cards; a sort in
    another language, which must write its ranks, failed after 5 s, the table emptied
    and the window said the copy could not be read."""
    monkeypatch.setattr(store_schema, "BUSY_TIMEOUT_MS", 400)
    path = store_of(tmp_path / "s.sqlite", 3)  # ranked under none: a German sort ranks
    writing = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writing.execute("BEGIN IMMEDIATE")  # as a sync preparing its copy
    release = threading.Timer(0.6, writing.execute, ("COMMIT",))
    release.start()
    queries = SpaceQueries(path, answers.put, collation="de_DE")
    try:
        queries.ask(SpaceQuery("display_name", descending=True))
        unsorted = answers.get(timeout=WAIT)
        assert (list(unsorted.positions), unsorted.failure) == ([0, 1, 2], None)
        answer = answers.get(timeout=WAIT)
        assert answer.failure is None
        assert (list(answer.positions), answer.complete) == ([2, 1, 0], True)
        assert answers.empty(), "the cards unsorted were sent once"
    finally:
        release.join()
        queries.close()
        writing.close()
