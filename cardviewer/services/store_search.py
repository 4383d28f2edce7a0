"""How the words of a filter are found in a local copy: the trigram index, or a walk.

The index (FTS5's trigram tokenizer) finds every card holding a word of three
characters or more at once; each card found must then have its sort key looked up.
A walk takes the cards in the order shown and tests each one's text (`instr`), and
stops as soon as enough match. For the first rows of a sorted answer the walk wins
for a word many cards hold, the index for a rare one; `walk_is_quicker` tells which
from a count of the word's cards in the index, stopped once they are known to be many.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardviewer.services.store_schema import Generation

TRIGRAM = 3
"""Words this long or longer are looked up in the trigram index, shorter ones scanned for."""
COUNT_WITHIN = 0.003
"""Seconds a count of a word's cards may take (`walk_is_quicker`). Counting a few
thousand takes 0.3 to 2.7 ms at 100,000 cards; a count that takes longer merges long lists
of the index (a typed e-mail address: its pieces of three letters are in every card),
which the word's whole answer merges again, and is given up on for that answer."""


WARM_ROWS = 5000
"""Rows `warm_part` reads at once, of the search texts or of the trigram index's copy of
them (650 KB at most sizes)."""


def indexed_words(terms: Sequence[str]) -> list[str]:
    """The words the trigram index can look up."""
    return [term for term in terms if len(term) >= TRIGRAM]


def matching_query(
    generation: int, terms: Sequence[str], *, indexed: bool = True
) -> tuple[str, list[object]]:
    """A query for the positions of the cards of `generation` containing every term;
    words long enough are looked up in the trigram index unless not `indexed`."""
    long = indexed_words(terms) if indexed else []
    short = [term for term in terms if term not in long]
    where = "generation = ?" + "".join(" AND instr(text, ?) > 0" for _ in short)
    values: list[object] = [generation, *short]
    table = "card_text"  # narrow and ordered: the quickest to scan
    if long:
        table, where = "card_search", f"card_search MATCH ? AND {where}"
        values.insert(0, match_expression(long))
    return f"SELECT position FROM {table} WHERE {where}", values


def match_expression(terms: Sequence[str]) -> str:
    """The trigram index's query for texts containing every term, each one as typed."""
    return " AND ".join('"' + term.replace('"', '""') + '"' for term in terms)


def indexed_texts(db: sqlite3.Connection) -> int:
    """How many texts the trigram index holds, of every copy kept or being written.

    Read from the index's own table of text sizes: 0.03 ms at 200,000 texts once read,
    2 to 18 ms from the disk, so a store counts them once per copy it shows.
    """
    (count,) = db.execute("SELECT count(*) FROM card_search_docsize").fetchone()
    return int(count)


def walk_is_quicker(
    db: sqlite3.Connection, terms: Sequence[str], *, limit: int, cards: int, texts: int
) -> bool:
    """Whether the first `limit` cards of a copy of `cards` holding `terms` are found
    sooner by walking the order shown than through the trigram index (`texts`: how
    many texts it holds).

    With `share` the part of the cards holding the words, the index looks up some
    share * cards sort keys, a walk tests some limit / share cards: it is quicker for
    a share above sqrt(limit / cards). The cards found in the index are counted only that
    far: a word every card holds would take 50 ms to count at 100,000 cards.
    Words too short for the index are left out of the count: they only make a walk
    longer, which `CardStore.first_ordered` gives up on in time. So is a walk in an
    order the word follows (a first name's start, sorted by Name), which the count
    takes for spread evenly.
    """
    long = indexed_words(terms)
    if not long or cards <= 0 or texts <= 0:
        return True
    enough = math.floor(texts * math.sqrt(limit / cards)) + 1
    (found,) = db.execute(
        "SELECT count(*) FROM (SELECT 1 FROM card_search WHERE card_search MATCH ? LIMIT ?)",
        [match_expression(long), enough],
    ).fetchone()
    return int(found) >= enough


def warm_part(
    db: sqlite3.Connection, chosen: Generation | None, start: int, rows: int = WARM_ROWS
) -> int | None:
    """Read `rows` more of what filters read in the copy `chosen`, from `start`, so that
    it is in memory; where to go on from, or None after the last.

    A filter walks the texts of the cards in the order shown; from a cold file the
    first keystroke waits for the disk (300 ms at 100,000 cards, 2 ms warm). The search
    texts of the copy's cards are read first; then the trigram index's own copy of
    every copy's texts, which it reads for each card it finds: the first word looked up
    there took 6 ms longer. Read a part at a time, a query asked meanwhile waits a
    millisecond or so at most.
    """
    if chosen is None:
        return None
    if start < chosen.card_count:
        db.execute(
            "SELECT sum(length(text)) FROM card_text "
            "WHERE generation = ? AND position >= ? AND position < ?",
            (chosen.id, start, start + rows),
        ).fetchone()
        return min(start + rows, chosen.card_count)
    (lowest, last) = db.execute(
        "SELECT (SELECT min(id) FROM card_search_content),"
        " (SELECT max(id) FROM card_search_content)"
    ).fetchone()
    # From here on `start` counts the index's own row numbers, which only grow (those of
    # the copies dropped are gone): a copy dropped meanwhile skips nothing.
    first = max(start - chosen.card_count, lowest or 0)
    if last is None or first > last:
        return None
    db.execute(
        "SELECT sum(length(c0)) FROM card_search_content WHERE id >= ? AND id < ?",
        (first, first + rows),
    ).fetchone()
    return chosen.card_count + first + rows
