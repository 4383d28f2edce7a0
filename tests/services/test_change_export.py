"""A file of the cards added, removed or changed since the file before it."""

from __future__ import annotations

import csv
import sqlite3
import threading
from pathlib import Path

import pytest

from cardviewer.api.models import parse_card
from cardviewer.services.card_export import ExportFormat
from cardviewer.services.card_store import CardStore
from cardviewer.services.change_export import write_changes_now
from cardviewer.services.stoppable import Stopped
from cardviewer.services.store_copies import Change
from cardviewer.services.store_schema import StoreError, StoreProblem
from tests.services.stores import a_store_path, cards, synced


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return a_store_path(tmp_path)


def written(store_path: Path, target: Path, **options: object) -> list[tuple[str, str]]:
    result = write_changes_now(target, store_path, export_format=ExportFormat.CSV, **options)  # type: ignore[arg-type]
    assert sum(result.counts.values()) == result.cards
    with target.open(encoding="utf-8-sig", newline="") as file:
        return [(row[0], row[1]) for row in list(csv.reader(file))[1:]]


def test_each_file_says_what_changed_since_the_one_before(path, tmp_path):
    target = tmp_path / "changes.csv"
    with CardStore.open(path) as store:
        synced(store, cards("a", "b"))
    assert written(path, target) == [("added", "a"), ("added", "b")], "the first: every card"
    with CardStore.open(path) as store:
        synced(store, [*cards("b", name="New"), *cards("c")])
        synced(store, [*cards("b", name="New"), *cards("c", "d")])  # two syncs, no file
    assert written(path, target) == [
        ("added", "c"),
        ("added", "d"),
        ("removed", "a"),
        ("changed", "b"),
    ]
    assert written(path, target) == [], "nothing since"


def table(target: Path) -> list[list[str]]:
    """The file's headings, then its rows."""
    with target.open(encoding="utf-8-sig", newline="") as file:
        return list(csv.reader(file))


def test_a_removed_card_keeps_the_fields_only_the_copy_before_had(path, tmp_path):
    """Columns came of the current copy alone: a field only a removed card had was left
    out, and so was its value."""
    target = tmp_path / "changes.csv"
    legacy = parse_card({"uuid": "b", "display_name": "Bob", "legacy_field": "only-on-bob"})
    with CardStore.open(path) as store:
        synced(store, [*cards("a"), legacy])
    written(path, target)
    with CardStore.open(path) as store:
        synced(store, cards("a"))
    assert written(path, target) == [("removed", "b")]
    headings, row = table(target)
    assert dict(zip(headings, row, strict=True))["Legacy field"] == "only-on-bob"


def test_the_unknown_fields_keep_their_columns_whatever_order_the_keys_come_in(path, tmp_path):
    """Sent with its keys in another order, a card is no change, but the file's columns
    followed the order of the keys: a program reading them by place was misled. They
    followed the copy before's order, so they still moved one file later."""
    target = tmp_path / "changes.csv"
    fields: dict[str, object] = {"extra": {"b": 1}, "zzz": [1]}
    turned = dict(reversed(fields.items()))
    headings = []
    for keys in (fields, turned, turned, {**turned, "new": 1}, {"new": 2, "extra": 3}):
        with CardStore.open(path) as store:
            synced(store, [parse_card({"uuid": "a", "display_name": "Ada", **keys})])
        written(path, target)
        headings.append(unknown_headings(target))
    assert headings[1] == headings[2] == headings[0] == ["Extra", "Zzz"]
    assert headings[3] == headings[4] == ["Extra", "Zzz", "New"], "new ones after"
    headings.clear()
    with CardStore.open(path) as store:
        synced(store, [parse_card({"uuid": "a", "display_name": "Ada", "new": 2})])
    for _ in range(2):
        written(path, target)
        headings.append(unknown_headings(target))
    assert headings == [["Extra", "New"], ["New"]], "a field no card has goes a file later"


def unknown_headings(target: Path) -> list[str]:
    """The headings of the fields the specification does not list."""
    headings = table(target)[0]
    return headings[headings.index("Updated (UTC)") + 1 :]


def test_a_file_called_off_leaves_the_next_one_to_say_it_all(path, tmp_path):
    target = tmp_path / "changes.csv"
    with CardStore.open(path) as store:
        synced(store, cards("a", "b"))
    stop = threading.Event()
    stop.set()
    with pytest.raises(Stopped):
        written(path, target, stop=stop)
    assert not target.exists()
    with CardStore.open(path) as store:
        assert store.changes_file_copy is None, "not remembered"
    assert len(written(path, target)) == 2


def test_a_file_whose_copy_before_is_gone_lists_every_card_and_says_so(path, tmp_path):
    target = tmp_path / "changes.csv"
    with CardStore.open(path) as store:
        synced(store, cards("a", "b"))
    write_changes_now(target, path, export_format=ExportFormat.CSV)
    with CardStore.open(path) as store:
        synced(store, cards("b"))
        marked = store.changes_file_copy
        assert marked is not None
    with sqlite3.connect(path) as db:  # as a CardViewer keeping two copies only tidies up
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("DELETE FROM generations WHERE id = ?", (marked.id,))
    db.close()
    result = write_changes_now(target, path, export_format=ExportFormat.CSV)
    assert result.copy_lost
    assert dict(result.counts) == {Change.ADDED: 1}
    with CardStore.open(path) as store:
        assert not store.changes_file_copy_lost, "the file just written is remembered"


def test_a_copy_gone_before_it_is_remembered_keeps_the_mark_before(path):
    with CardStore.open(path) as store:
        synced(store, cards("a"))
        first = store.current
        assert first is not None
        assert store.mark_changes_file(first, fields=())
        synced(store, cards("b"))
        second = store.current
        assert second is not None
        synced(store, cards("c"))
        synced(store, cards("d"))  # the second copy is gone now
        assert not store.mark_changes_file(second, fields=())
        assert store.changes_file_copy == first


def test_a_copy_found_damaged_as_its_changes_are_read_is_set_aside(path, tmp_path, monkeypatch):
    """It said "the next file will hold them" of a damage that every run met again."""
    target = tmp_path / "changes.csv"
    with CardStore.open(path) as store:
        synced(store, cards("a", "b"))
    write_changes_now(target, path, export_format=ExportFormat.CSV)

    def malformed(*_args: object) -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(CardStore, "extra_fields", malformed)
    with pytest.raises(StoreError) as raised:
        write_changes_now(target, path, export_format=ExportFormat.CSV)
    assert raised.value.problem is StoreProblem.DAMAGED
    assert len(list(path.parent.glob(f"{path.name}.damaged-*"))) == 1
    assert not path.exists()
    monkeypatch.undo()
    with CardStore.open(path) as store:  # the next sync's: it starts anew
        assert store.current is None
        assert store.changes_file_copy_lost, "the next file says it lists every card"


def test_a_copy_gone_meanwhile_is_no_file_written(path, tmp_path):
    """Removed while the job ran (Remove Local Copies): a new empty store was made, and
    "Wrote 0 cards" said with exit 0 of a file never written."""
    target = tmp_path / "changes.csv"
    target.write_text("the file before\n", encoding="utf-8")
    with pytest.raises(StoreError) as gone:
        written(path, target)
    assert gone.value.problem is StoreProblem.GONE
    assert not path.exists(), "no store made in its place"
    assert target.read_text(encoding="utf-8") == "the file before\n"
