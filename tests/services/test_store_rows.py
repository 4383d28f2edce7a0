"""Rows written in one statement per batch: the same rows as one statement per row."""

from __future__ import annotations

import contextlib
import math
import sqlite3
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardviewer.services import store_rows
from cardviewer.services.store_rows import insert_rows, json_rows_supported
from tests.properties import examples

COLUMNS = ("generation", "a", "b", "c")
SCHEMA = "CREATE TABLE t (generation INTEGER, a, b, c)"


@contextlib.contextmanager
def table() -> Iterator[sqlite3.Connection]:
    with contextlib.closing(sqlite3.connect(":memory:")) as connection:
        connection.execute(SCHEMA)
        yield connection


def written(connection: sqlite3.Connection) -> list[tuple[object, ...]]:
    return connection.execute(
        "SELECT generation, a, typeof(a), b, typeof(b), c, typeof(c) FROM t ORDER BY rowid"
    ).fetchall()


def statements(connection: sqlite3.Connection) -> list[str]:
    run: list[str] = []
    connection.set_trace_callback(run.append)
    return run


def one_by_one(
    rows: Sequence[Sequence[object]], shared: Sequence[object]
) -> list[tuple[object, ...]]:
    with table() as connection:
        connection.executemany(
            "INSERT INTO t VALUES (?, ?, ?, ?)", [(*shared, *row) for row in rows]
        )
        return written(connection)


VALUES = st.one_of(
    st.none(),
    st.text(max_size=8),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
)


def test_this_sqlite_has_its_json_functions():
    """The fast way is the one taken here (SQLite 3.38 and later always have them)."""
    assert json_rows_supported()


@settings(max_examples=examples(300), deadline=None)
@given(rows=st.lists(st.tuples(VALUES, VALUES, VALUES), max_size=12))
def test_the_rows_written_are_those_written_one_by_one(rows):
    with table() as connection:
        insert_rows(connection, "t", COLUMNS, rows, shared=(7,))
        assert written(connection) == one_by_one(rows, (7,))


def test_odd_values_survive_the_way_through_json():
    rows = [
        ("é😀 ﬁ", "tab\there\nline", "\u202e"),
        (2**63 - 1, -(2**63), 0),
        (1712345678.123456, 5e-324, -0.0),
        (None, "", '"quoted" \\ backslash'),
    ]
    with table() as connection:
        run = statements(connection)
        insert_rows(connection, "t", COLUMNS, rows, shared=(1,))
        assert written(connection) == one_by_one(rows, (1,))
        assert len([sql for sql in run if sql.startswith("INSERT")]) == 1, "one statement"


@pytest.mark.parametrize(
    "odd",
    [
        ("a\x00b", "NUL: SQLite's JSON functions would end the text there"),
        (math.inf, "JSON has no infinite number"),
        (-math.inf, "nor a negative one"),
    ],
)
def test_what_json_cannot_carry_is_written_one_by_one(odd):
    value, _why = odd
    rows = [("x", value, 1), ("y", None, 2)]
    with table() as connection:
        run = statements(connection)
        insert_rows(connection, "t", COLUMNS, rows, shared=(3,))
        assert written(connection) == one_by_one(rows, (3,))
        assert len([sql for sql in run if sql.startswith("INSERT")]) == len(rows)


def test_without_json_functions_every_row_is_written_one_by_one(monkeypatch):
    monkeypatch.setattr(store_rows, "json_rows_supported", lambda: False)
    rows = [("x", 1.5, None), ("y", 2, "z")]
    with table() as connection:
        run = statements(connection)
        insert_rows(connection, "t", COLUMNS, rows, shared=(4,))
        assert written(connection) == one_by_one(rows, (4,))
        assert len([sql for sql in run if sql.startswith("INSERT")]) == len(rows)


def test_with_no_thread_beside_every_row_is_written_one_by_one():
    """A process of its own (a sync's writer) has no thread to let go of the lock for."""
    rows = [("x", 1.5, None), ("y", 2, "z"), ("é😀", -(2**63), "")]
    with table() as connection:
        run = statements(connection)
        insert_rows(connection, "t", COLUMNS, rows, shared=(5,), beside_threads=False)
        assert written(connection) == one_by_one(rows, (5,))
        assert len([sql for sql in run if sql.startswith("INSERT")]) == len(rows)


def test_no_rows_write_nothing():
    with table() as connection:
        run = statements(connection)
        insert_rows(connection, "t", COLUMNS, [], shared=(1,))
        assert run == []
        assert written(connection) == []


class _Probe:
    """A connection whose SQLite answers the probe with `row`, or lacks `json_each`."""

    def __init__(self, row: tuple[object, ...] | None) -> None:
        self.row = row

    def execute(self, _sql: str) -> _Probe:
        if self.row is None:
            raise sqlite3.OperationalError("no such table: json_each")
        return self

    def fetchone(self) -> tuple[object, ...] | None:
        return self.row

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("row", "supported"),
    [((7,), True), (None, False), ((None,), False), ((8,), False)],
    ids=["json functions", "no json_each", "json_extract answers NULL", "a wrong answer"],
)
def test_the_json_functions_are_used_only_where_they_answer_right(monkeypatch, row, supported):
    monkeypatch.setattr(sqlite3, "connect", lambda _name: _Probe(row))
    json_rows_supported.cache_clear()
    try:
        assert json_rows_supported() is supported
    finally:
        json_rows_supported.cache_clear()
