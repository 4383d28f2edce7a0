"""Finding a filter's words in a local copy: the trigram index, or a walk."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cardviewer.services.card_store import CardStore
from cardviewer.services.store_search import (
    indexed_texts,
    matching_query,
    walk_is_quicker,
)
from tests.services.stores import cards, synced


def a_copy(path: Path, holding: int, of: int) -> CardStore:
    """A store whose copy has `of` cards, the first `holding` of them named "Zebra"."""
    store = CardStore.open(path)
    ids = [f"c{n}" for n in range(of)]
    synced(store, cards(*ids[:holding], name="Zebra") + cards(*ids[holding:]))
    return store


@pytest.mark.parametrize(("holding", "quicker"), [(40, False), (41, True), (400, True)])
def test_a_word_is_walked_to_once_its_cards_are_a_share_above_the_root_of_limit_by_cards(
    tmp_path, holding, quicker
):
    # 400 cards, 4 rows wanted: a walk tests about 4 / share cards, the index looks up
    # share * 400 keys; they meet at a share of sqrt(4 / 400), 40 cards.
    with a_copy(tmp_path / "s.sqlite", holding, 400) as store:
        db = store._db
        texts = indexed_texts(db)
        assert texts == 400
        assert walk_is_quicker(db, ("zebra",), limit=4, cards=400, texts=texts) is quicker
        assert walk_is_quicker(db, ("zeb", "ra"), limit=4, cards=400, texts=texts) is quicker
        assert walk_is_quicker(db, ("ze",), limit=4, cards=400, texts=texts), "no index"


def test_the_share_is_of_every_copy_the_index_holds(tmp_path):
    with a_copy(tmp_path / "s.sqlite", 41, 400) as store:
        synced(store, cards(*(f"n{n}" for n in range(400))))  # the copy before is kept
        db = store._db
        texts = indexed_texts(db)
        assert texts == 800
        # 41 of 800 texts: as if 20 of the copy's 400 cards held the word.
        assert not walk_is_quicker(db, ("zebra",), limit=4, cards=400, texts=texts)
        assert walk_is_quicker(db, ("person",), limit=4, cards=400, texts=texts)


def test_counting_stops_once_the_answer_is_known(tmp_path):
    with a_copy(tmp_path / "s.sqlite", 400, 400) as store:
        db = store._db
        counted: list[str] = []
        db.set_trace_callback(counted.append)
        assert walk_is_quicker(db, ("zebra",), limit=4, cards=400, texts=400)
        # The 41st card found settles it (a word every card holds took 50 ms to count
        # whole at 100,000 cards).
        assert next(line for line in counted if "count(*)" in line).endswith("LIMIT 41)")


def test_an_empty_copy_or_index_is_walked(tmp_path):
    db = sqlite3.connect(":memory:")  # never asked: nothing to count against
    assert walk_is_quicker(db, ("zebra",), limit=4, cards=0, texts=10)
    assert walk_is_quicker(db, ("zebra",), limit=4, cards=10, texts=0)


def test_a_quote_in_a_word_is_a_character_to_find(tmp_path):
    with CardStore.open(tmp_path / "s.sqlite") as store:
        synced(store, cards("a", "b", name='Say "hi"'))
        query, values = matching_query(1, ['"hi"'])
        assert [row[0] for row in store._db.execute(query, values)] == [0, 1]
        assert walk_is_quicker(store._db, ['"hi"'], limit=1, cards=2, texts=2)
