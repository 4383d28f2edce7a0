"""How a local copy sorts: a key per card and field, texts ranked, an index per copy.

A card's sort key for a field (`stored_sort_key`) is its kind (`card_order`), then its
number or time, or, for text, a rank that `rank_generation_texts` gives each text of a
copy's field under the reader's collation. So `ORDER BY` runs in SQLite without calling
back into Python. A sync ranks every field; a field sorted under another collation
later (the reader's language changed) is ranked again alone. Each complete copy has
two indexes in sort order (`index_sort_keys`), made once its keys are all written and
ranked.
"""

from __future__ import annotations

import heapq
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from cardviewer.services.card_order import EMPTY, NUMBER, OTHER, SORTED_KEYS, TEXT, TIME
from cardviewer.services.card_search import fold_text, storable

FirstPlace = tuple[int, int]
"""Where a field first appears in a copy: the first card to have it, and the field's
place among that card's fields not in the specification (0 for the specification's)."""

TextKey = Callable[[str], Any]
"""Orders texts as the reader sorts them (e.g. `QCollator.sortKey`); equal keys tie."""

FOLDED = "folded"
"""The name of the collation of `folded_text_key`."""

_DIGITS = re.compile(r"(\d+)")


def folded_text_key(text: str) -> tuple[str | int, ...]:
    """A collation without a locale: case and accents ignored, numbers by value.

    "item 2" sorts before "Item 10", and "Zoë" ties with "zoe" (ties keep the
    space's order). For a store used without the window (`QCollator` is the window's).
    """
    # Split around runs of digits: text and numbers take turns, so keys compare piecewise.
    pieces = _DIGITS.split(fold_text(text))
    return tuple(int(piece) if number % 2 else piece for number, piece in enumerate(pieces))


def text_key_for(collation: str) -> TextKey:
    """The sort key of the collation named `collation`: `FOLDED`, or a locale's name
    (`text_collation.collation_of`), sorted by Qt's collator as the window sorts."""
    if collation == FOLDED:
        return folded_text_key
    # Imported here, so that a store used without a window loads no Qt.
    from cardviewer.services.text_collation import locale_text_key

    return locale_text_key(collation)


_LARGEST_INTEGER = 2**63 - 1
"""SQLite's integers have 64 bits; a larger count sorts as a float (nearly in place)."""


def stored_sort_key(kind: int, value: Any) -> tuple[int, object, str | None]:
    """A sort key as the `sort_keys` table keeps it: kind, number (or rank), text."""
    if kind in (NUMBER, TIME):
        if isinstance(value, int) and abs(value) > _LARGEST_INTEGER:
            value = float(value)
        return kind, value, None
    if kind == EMPTY:
        return kind, None, None
    return kind, None, storable(value)


SORT_RUN = 4096
"""Texts ranked by one call of `sorted`; longer lists are sorted in runs this long and merged.

A collator's keys are compared in C++ with the interpreter lock held, for the whole of
a `sorted` call: 100,000 texts at once held the window's thread for 230 ms while a
sync finished on a worker thread. A run takes a few milliseconds, and the merge runs
Python between texts, where the window gets its turn. Only the keys of a run being
sorted and of the runs' heads are alive at once: 100,000 keys kept while ranking made
every garbage collection on the window's thread look at them, 50 to 100 ms each time.
"""


def ranks(texts: list[str], text_key: TextKey) -> Iterator[tuple[str, int]]:
    """Each text with its rank in `text_key` order; texts with equal keys share one."""
    runs = [
        sorted(texts[start : start + SORT_RUN], key=text_key)
        for start in range(0, len(texts), SORT_RUN)
    ]
    heads = [[text_key(run[0]), number, 0] for number, run in enumerate(runs) if run]
    heapq.heapify(heads)
    rank, last = -1, None
    while heads:
        key, number, index = heads[0]
        if last is None or last < key:
            rank += 1
        last = key
        run = runs[number]
        yield run[index], rank
        if index + 1 < len(run):
            heapq.heapreplace(heads, [text_key(run[index + 1]), number, index + 1])
        else:
            heapq.heappop(heads)


def rank_generation_texts(
    connection: sqlite3.Connection,
    generation: int,
    text_key: TextKey,
    collation: str,
    fields: Iterable[str] | None = None,
) -> None:
    """Give each text of `generation`'s `fields` its rank under `collation`.

    Each field's distinct texts are sorted once with `text_key`; texts whose keys are
    equal share a rank, so that they keep the space's order, as on a page. `fields`
    default to all of the generation's (read off its sort keys). Each field ranked
    notes its collation in `fields`; the generation notes it as the one last asked for.
    """
    if fields is None:
        fields = [
            row[0]
            for row in connection.execute(
                "SELECT DISTINCT field FROM sort_keys WHERE generation = ?", (generation,)
            )
        ]
    for field in fields:
        texts = [
            row[0]
            for row in connection.execute(
                "SELECT DISTINCT text FROM sort_keys WHERE generation = ? AND field = ? "
                f"AND kind IN ({TEXT}, {OTHER})",
                (generation, field),
            )
        ]
        connection.execute("DELETE FROM temp.text_ranks")
        connection.executemany(
            "INSERT INTO temp.text_ranks (text, rank) VALUES (?, ?)", ranks(texts, text_key)
        )
        connection.execute(
            "UPDATE sort_keys SET value = (SELECT rank FROM temp.text_ranks r "
            "WHERE r.text = sort_keys.text) "
            f"WHERE generation = ? AND field = ? AND kind IN ({TEXT}, {OTHER})",
            (generation, field),
        )
        connection.execute(
            "UPDATE fields SET collation = ? WHERE generation = ? AND field = ?",
            (collation, generation, field),
        )
    connection.execute("UPDATE generations SET collation = ? WHERE id = ?", (collation, generation))


def index_names(generation: int) -> tuple[str, str]:
    """The sort indexes of a generation: ascending, and descending (ties ascending)."""
    return f"sort_keys_{int(generation)}", f"sort_keys_down_{int(generation)}"


def index_sort_keys(connection: sqlite3.Connection, generation: int) -> None:
    """The sort keys of one generation in sort order: a sort reads it, never sorts.

    Descending keeps equal cards in the space's order, so it has an index of its own.
    """
    number = int(generation)
    up, down = index_names(number)
    connection.execute(
        f"CREATE INDEX IF NOT EXISTS {up} "
        f"ON sort_keys(field, kind, value, position) WHERE generation = {number}"
    )
    connection.execute(
        f"CREATE INDEX IF NOT EXISTS {down} "
        f"ON sort_keys(field, kind DESC, value DESC, position) WHERE generation = {number}"
    )


def add_empty_keys(
    connection: sqlite3.Connection,
    generation: int,
    first_positions: Mapping[str, FirstPlace] | None = None,
) -> None:
    """An empty sort key for each card without a field that other cards have.

    Fields the specification does not list come and go; with a key for every card, a
    sort by any field reads one index. The fields are listed in `fields` first, from
    `first_positions` (each field, the first card to have it and its place there) if
    known, else read off the sort keys (their places not known: 0). Every card has a
    key for each field of the specification (`card_sort_keys`), so only the others are
    looked through: looking through all of them took a second at 100,000 cards.
    """
    if first_positions is None:
        connection.execute(
            "INSERT OR IGNORE INTO fields (generation, field, first_position) "
            "SELECT generation, field, MIN(position) FROM sort_keys WHERE generation = ? "
            "GROUP BY field",
            (generation,),
        )
    else:
        # Through `generations`: a sync begun later by another program may have
        # dropped this one, and its fields with it.
        connection.executemany(
            "INSERT OR IGNORE INTO fields (generation, field, first_position, place) "
            "SELECT id, ?, ?, ? FROM generations WHERE id = ?",
            [
                (field, position, place, generation)
                for field, (position, place) in first_positions.items()
            ],
        )
    connection.execute(
        "INSERT INTO sort_keys (generation, field, position, kind) "
        f"SELECT c.generation, f.field, c.position, {EMPTY} FROM card_text c "
        "JOIN (SELECT field FROM fields WHERE generation = :g AND field NOT IN "
        f"({','.join(f':known{n}' for n in range(len(SORTED_KEYS)))})) f "
        "WHERE c.generation = :g AND NOT EXISTS (SELECT 1 FROM sort_keys k "
        "WHERE k.generation = :g AND k.field = f.field AND k.position = c.position)",
        {"g": generation, **{f"known{n}": key for n, key in enumerate(SORTED_KEYS)}},
    )
