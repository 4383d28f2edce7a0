"""Many rows written to a SQLite table in one statement, without holding Python's lock.

`executemany` lets go of the interpreter lock around each row it writes and takes it
back after. Beside a thread busy in Python (the window's, fetching the next pages of a
sync) each taking-back waits for that thread to yield, up to its switch interval of
5 ms: the 1.9 million rows of a 100,000-card copy took 65 s to write beside the fetch
instead of 12 s alone, and held the fetch back. Here a batch goes in as one JSON array
that SQLite walks itself (`json_each`), and the lock is let go once per table and batch.

Rows SQLite's JSON functions cannot carry (a text with a NUL, which they end at; a
number JSON has no word for) are written row by row as before. So are all rows of a
process with no other thread busy in Python (a sync's writing process): alone, row by
row is the quicker way, if only a little (a card and its 19 rows written in 186-197
instead of 197-206 µs of CPU, measured alternately).
"""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
from collections.abc import Sequence

_NUL = "\\u0000"
"""How a NUL in a text looks in the JSON array (a written backslash-u also matches:
then the rows go the slow way, which is merely slower)."""


@functools.cache
def json_rows_supported() -> bool:
    """This SQLite has its JSON functions (built in since 3.38, and in most builds before)."""
    try:
        with contextlib.closing(sqlite3.connect(":memory:")) as probe:
            row = probe.execute("SELECT json_extract(value, '$[0]') FROM json_each('[[7]]')")
            return bool(row.fetchone() == (7,))
    except sqlite3.Error:
        return False


def insert_rows(
    connection: sqlite3.Connection,
    table: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    shared: Sequence[object] = (),
    beside_threads: bool = True,
) -> None:
    """`INSERT INTO table (columns) VALUES …` for each row: texts, numbers and None.

    The first `len(shared)` columns take the values `shared` in every row; each of
    `rows` has the values of the others. `beside_threads` says that other threads may
    be busy in Python meanwhile: then the rows go as one JSON array.
    """
    if not rows:
        return
    names = ", ".join(columns)
    own = len(columns) - len(shared)
    if beside_threads and json_rows_supported():
        try:
            payload = json.dumps(rows, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        except ValueError:  # an infinite number: JSON has none
            payload = None
        if payload is not None and _NUL not in payload:
            own_values = [f"json_extract(value, '$[{n}]')" for n in range(own)]
            picks = ", ".join(["?"] * len(shared) + own_values)
            connection.execute(
                f"INSERT INTO {table} ({names}) SELECT {picks} FROM json_each(?)",
                (*shared, payload),
            )
            return
    marks = ", ".join("?" * len(columns))
    connection.executemany(
        f"INSERT INTO {table} ({names}) VALUES ({marks})", [(*shared, *row) for row in rows]
    )
