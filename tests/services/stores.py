"""Cards and stores the tests of the local copy share (`card_store` and its parts)."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from cardviewer.api.models import Card, parse_card
from cardviewer.services import card_store
from cardviewer.services.card_store import CardStore, store_path


def cards(*ids: str, name: str = "Person") -> list[Card]:
    return [parse_card({"uuid": uuid, "display_name": f"{name} {uuid}"}) for uuid in ids]


def synced(store: CardStore, batch: list[Card], *, with_emails: bool = False) -> None:
    """`batch` as a sync writes it (in two batches) and makes current."""
    sync = store.begin_sync(with_emails=with_emails)
    sync.add(batch[: len(batch) // 2])
    sync.add(batch[len(batch) // 2 :])
    sync.finish()


def a_store_path(folder: Path) -> Path:
    """Where the copy of a space lives under `folder`, as the app names it."""
    return store_path(folder / "spaces", "https://cards.example", "Ada@Example.com", "space-1")


def generation_ids(path: Path) -> list[int]:
    """The copies the store at `path` keeps, finished or not, oldest first."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return [row[0] for row in db.execute("SELECT id FROM generations ORDER BY id")]


def count_rows(path: Path, table: str = "cards") -> int:
    """The rows of `table` in the store at `path`, of every copy it keeps."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def damage_table(path: Path, table: str) -> None:
    """Junk over the first page of `table` in the store at `path`, as a failing disk
    leaves it: SQLite opens the file, and finds it damaged once it reads that table."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        query = "SELECT rootpage FROM sqlite_master WHERE name = ?"
        (page,) = db.execute(query, (table,)).fetchone()
        (size,) = db.execute("PRAGMA page_size").fetchone()
    with path.open("r+b") as file:
        file.seek((page - 1) * size + 8)  # past the page's first bytes, as SQLite reads it
        file.write(b"\xde\xad\xbe\xef" * ((size - 16) // 4))


def connecting_fails(monkeypatch: pytest.MonkeyPatch, words: str, name: str) -> None:
    """Every store opened from now on fails to connect with SQLite's error `name`
    (`SQLITE_FULL`, say), saying `words`."""
    error = sqlite3.OperationalError(words)
    error.sqlite_errorname = name  # as SQLite names it

    def failing(*_args: object, **_options: object) -> sqlite3.Connection:
        raise error

    monkeypatch.setattr(card_store, "connect_store", failing)


class RecordingKey:
    """A text key that notes each text it is given: which texts a sort ranked."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def __call__(self, text: str) -> str:
        self.texts.append(text)
        return text
