"""Writing a new copy: each card kept so that it reads back the same, whoever writes it."""

from __future__ import annotations

import contextlib
import json
import math
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from cardviewer.api.models import parse_card
from cardviewer.demo.spaces import build_spaces
from cardviewer.services import store_sync
from cardviewer.services.card_store import CardStore
from cardviewer.services.store_copies import Changes
from cardviewer.services.store_sync import StoreSync, card_json
from tests.services.stores import a_store_path, count_rows


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return a_store_path(tmp_path)


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


def test_a_card_sent_with_its_keys_in_another_order_has_not_changed(path):
    """A card is kept as its content, not as the text the server sent: the order of
    its keys is no change; a new value is."""
    first: list[dict[str, Any]] = [
        {"uuid": "c1", "username": "zoë", "connects": 1, "x-flag": [1, {"a": None}]},
        {"uuid": "c2", "display_name": "Ada", "connects": "many", "big": 2**70},
    ]
    again: list[dict[str, Any]] = [
        {"x-flag": [1, {"a": None}], "connects": 1, "username": "zoë", "uuid": "c1"},
        {"big": 2**70, "connects": "many", "uuid": "c2", "display_name": "Ada!"},
    ]
    with CardStore.open(path) as store:
        for sent in (first, again):
            sync = store.begin_sync()
            sync.add_sent(sent)
            sync.finish()
        assert store.changes() == Changes(added=(), removed=(), changed=("c2",))
        assert list(store.cards()) == [parse_card(item) for item in again]


def test_a_writer_alone_in_its_process_writes_the_same_copy(tmp_path):
    """A sync's writing process writes its rows one by one (quicker with no thread
    beside it), the window's thread as one JSON array each: the copies are the same."""
    space = next(iter(build_spaces(40).values()))
    sent = [card.to_json(space, "https://img.example", with_emails=True) for card in space.cards]
    sent[3:3] = [  # what JSON in SQLite cannot carry, which goes row by row either way
        {"uuid": "odd1", "display_name": "Nul\x00byte", "score": math.inf, "big": 2**70},
        {"uuid": "odd2", "username": "lone\ud800", "score": -math.inf, "position": " "},
    ]
    tables = ("cards", "card_text", "sort_keys", "fields")
    kept = []
    for beside_threads in (True, False):
        path = tmp_path / f"{beside_threads}.sqlite"
        with CardStore.open(path) as store:
            generation = store.begin_sync(with_emails=True).generation
        sync = StoreSync.reopen(path, generation, with_emails=True, beside_threads=beside_threads)
        sync.add_sent(sent[:25])
        sync.add_sent(sent[25:])
        sync.finish()
        sync.close()
        with contextlib.closing(sqlite3.connect(path)) as db:
            kept.append(
                [db.execute(f"SELECT * FROM {table} ORDER BY 2, 3").fetchall() for table in tables]
            )
            assert db.execute(
                "SELECT count(*) FROM card_search WHERE text MATCH 'vertrieb'"
            ).fetchone()[0]
    assert kept[0] == kept[1]
    assert len(kept[0][0]) == len(sent)


def test_a_sync_called_off_waits_for_another_program_no_longer_than_a_reader(path, monkeypatch):
    """Cancel, or quitting, while another sync held the copy (ranking it: 8 s at 100,000
    cards) waited as a sync's writes do, up to a minute; the rows may as well go with
    the next sync."""
    monkeypatch.setattr(store_sync, "BUSY_TIMEOUT_MS", 100)
    monkeypatch.setattr(store_sync, "SYNC_BUSY_TIMEOUT_MS", 30_000)
    with CardStore.open(path) as store:
        sync = store.begin_sync()
        sync.add([parse_card({"uuid": "a", "display_name": "Ada"})])
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")  # another sync's long write
            started = time.monotonic()
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                sync.abandon()
            waited = time.monotonic() - started
            other.execute("ROLLBACK")
        assert waited < 10, f"waited {waited:.1f} s, as a sync's write would"
        assert list(path.parent.glob("*.sync-*")) == [], "its lock let go of"
        store.begin_sync().abandon()  # the next sync drops its rows
        assert count_rows(path) == 0
