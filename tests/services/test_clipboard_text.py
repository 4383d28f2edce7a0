"""Cells as text a spreadsheet pastes as a grid, and a synced space's rows so, from its copy."""

from __future__ import annotations

import csv
import io
import threading
from pathlib import Path

import pytest

from cardviewer.api.models import Card, parse_card
from cardviewer.services import clipboard_text
from cardviewer.services.card_columns import build_columns
from cardviewer.services.card_store import CardStore
from cardviewer.services.clipboard_text import CopyOutdated, StoredRows, clipboard_cell, grid_text
from cardviewer.services.stoppable import Stopped
from tests.services.stores import a_store_path, synced

# Cells as text


@pytest.mark.parametrize(
    ("cell", "text"),
    [
        ("Jane", "Jane"),
        ("", ""),
        ("Head of\nLegal", '"Head of\nLegal"'),
        ("Tab\there", '"Tab\there"'),
        ("CR\rhere", '"CR\rhere"'),
        ('"Quoted" at the start', '"""Quoted"" at the start"'),
        ('Say "hi"', 'Say "hi"'),  # a quote inside is read literally
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("@jane", "'@jane"),
        ("+49 30 123", "'+49 30 123"),
        ("-3 apples", "'-3 apples"),
        ("-3", "-3"),  # plain numbers stay numbers
        ("+2.5e3", "+2.5e3"),
        ("\t=1+1", '"\'\t=1+1"'),
    ],
)
def test_clipboard_cell(cell, text):
    assert clipboard_cell(cell) == text


def test_grid_text_reads_back_as_the_same_cells():
    rows = [["a", "Head of\nLegal", 'Say "hi"'], ['"x"', "tab\tin", ""]]
    text = grid_text(rows)
    assert text == 'a\t"Head of\nLegal"\tSay "hi"\n"""x"""\t"tab\tin"\t'
    assert list(csv.reader(io.StringIO(text), delimiter="\t")) == rows
    assert grid_text([]) == ""


# Rows of a synced space


PEOPLE = [
    parse_card({"uuid": f"c{n}", "display_name": f"Person {n}", "position": f"=Role {n}"})
    for n in range(7)
]
COLUMNS = build_columns(PEOPLE, with_emails=False)
NAME = next(n for n, column in enumerate(COLUMNS) if column.key == "display_name")
ROLE = next(n for n, column in enumerate(COLUMNS) if column.key == "position")


@pytest.fixture
def path(tmp_path: Path) -> Path:
    path = a_store_path(tmp_path)
    with CardStore.open(path) as store:
        synced(store, PEOPLE)
    return path


def generation(path: Path) -> int:
    with CardStore.open(path) as store:
        current = store.current
        assert current is not None
        return current.id


def rows(path: Path, positions: list[int], chosen: list[frozenset[int]], **more) -> StoredRows:
    return StoredRows(path, generation(path), positions, COLUMNS, chosen, **more)


def expected(cards: list[Card], chosen: list[frozenset[int]]) -> str:
    return grid_text(
        [
            [column.export(card) if n in picked else "" for n, column in enumerate(COLUMNS)]
            for card, picked in zip(cards, chosen, strict=True)
        ]
    )


def test_the_rows_are_the_cards_in_the_order_given_blank_where_not_selected(path):
    everything, names = frozenset(range(len(COLUMNS))), frozenset({NAME})
    chosen = [everything, names, everything]
    text = rows(path, [5, 0, 3], chosen).text()
    assert text == expected([PEOPLE[5], PEOPLE[0], PEOPLE[3]], chosen)
    lines = text.split("\n")
    assert lines[1].split("\t")[NAME] == "Person 0"
    assert set(lines[1].split("\t")) == {"Person 0", ""}, "only the name of the second row"
    assert lines[0].split("\t")[ROLE] == "'=Role 5", "a formula is guarded as the page's rows"


def test_titles_head_the_grid(path):
    titles = [f"Title {n}" for n in range(len(COLUMNS))]
    text = rows(path, [1], [frozenset({NAME})], titles=titles).text()
    assert text.split("\n") == [
        "\t".join(titles),
        "\t".join(expected([PEOPLE[1]], [frozenset({NAME})]).split("\t")),
    ]


def test_a_place_the_copy_does_not_have_stays_a_blank_row(path):
    chosen = [frozenset({NAME})] * 2
    assert rows(path, [99, 2], chosen).text() == "\n".join(
        ["\t" * (len(COLUMNS) - 1), expected([PEOPLE[2]], chosen[:1])]
    )


def test_progress_is_told_after_each_block_and_a_stop_ends_the_copy(path, monkeypatch):
    monkeypatch.setattr(clipboard_text, "STORE_BLOCK", 3)
    told: list[int] = []
    everything = [frozenset({NAME})] * 7
    assert rows(path, list(range(7)), everything).text(painted=told.append) == expected(
        PEOPLE, everything
    )
    assert told == [3, 6, 7]
    stop = threading.Event()

    def stop_after_first_block(count: int) -> None:
        told.append(count)
        stop.set()

    told.clear()
    with pytest.raises(Stopped):
        rows(path, list(range(7)), everything).text(stop=stop, painted=stop_after_first_block)
    assert told == [3]


def test_rows_are_copied_from_their_copy_while_it_is_kept_and_refused_once_it_is_gone(path):
    """The window shows its copy until it follows a newer sync; removed cards are shown
    from the copy before the current one."""
    chosen = rows(path, [0], [frozenset({NAME})])
    with CardStore.open(path) as store:
        synced(store, PEOPLE[::-1])
    assert chosen.text() == expected(PEOPLE[:1], [frozenset({NAME})])
    with CardStore.open(path) as store:
        synced(store, PEOPLE[1:])
    with pytest.raises(CopyOutdated):
        chosen.text()


def test_a_sync_made_current_between_two_blocks_leaves_the_rows_as_selected(path, monkeypatch):
    monkeypatch.setattr(clipboard_text, "STORE_BLOCK", 2)
    everything = [frozenset({NAME})] * 4
    others = [parse_card({"uuid": f"o{n}", "display_name": f"Other {n}"}) for n in range(7)]

    def sync_meanwhile(count: int) -> None:
        if count == 2:
            with CardStore.open(path) as store:
                synced(store, others)

    text = rows(path, [0, 1, 2, 3], everything).text(painted=sync_meanwhile)
    assert text == expected(PEOPLE[:4], everything)
    with CardStore.open(path) as store:
        assert [card.display_name for card in store.cards()][:1] == ["Other 0"], "it was synced"
