"""Sorts and filters of a local copy on a worker thread: first rows, then all; newest only."""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cardviewer.api.models import parse_card
from cardviewer.services.card_store import SCHEMA_VERSION, CardStore
from cardviewer.services.space_queries import (
    FIRST_ROWS,
    SpaceAnswer,
    SpaceQueries,
    SpaceQuery,
)

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
    assert every.positions[:3] == [249, 248, 247]


def test_a_short_answer_comes_once_and_complete(tmp_path, answers, open_queries):
    queries = open_queries(store_of(tmp_path / "s.sqlite", 30))
    number = queries.ask(SpaceQuery(None, terms=("person", "2")))
    answer = answers.get(timeout=WAIT)
    assert answer == SpaceAnswer(number, [2, 12, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29], True)
    assert answers.empty()


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


def test_a_store_that_cannot_be_read_is_answered_with_a_failure(tmp_path, answers, open_queries):
    path = store_of(tmp_path / "s.sqlite", 3)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    queries = open_queries(path)
    number = queries.ask(SpaceQuery())
    answer = answers.get(timeout=WAIT)
    assert answer.number == number
    assert answer.positions == []
    assert answer.failure


def test_nothing_is_delivered_after_closing(tmp_path, answers):
    queries = SpaceQueries(store_of(tmp_path / "s.sqlite", 3), answers.put)
    queries.close()
    queries.ask(SpaceQuery())
    assert answers.empty()


def test_a_word_for_the_trigram_index_is_answered_whole_at_once(tmp_path, answers, open_queries):
    queries = open_queries(store_of(tmp_path / "s.sqlite", FIRST_ROWS + 50))
    number = queries.ask(SpaceQuery("display_name", terms=("person",)))
    answer = answers.get(timeout=WAIT)
    assert (answer.number, len(answer.positions), answer.complete) == (
        number,
        FIRST_ROWS + 50,
        True,
    )


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
    monkeypatch.setattr(CardStore, "warm_for_search", lambda store: None)  # reads no copy
    queries = open_queries(path)
    first = queries.ask(SpaceQuery())
    failed = answers.get(timeout=WAIT)
    assert (failed.number, failed.failure) == (first, "interrupted")
    again = queries.ask(SpaceQuery())
    answer = answers.get(timeout=WAIT)
    assert (answer.number, answer.complete) == (again, True)
    assert list(answer.positions) == [0, 1, 2, 3, 4]
