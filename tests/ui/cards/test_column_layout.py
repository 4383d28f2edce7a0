"""Column order, widths and visibility are remembered by key, across changing column sets."""

from __future__ import annotations

from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QHeaderView, QTableView

from cardviewer.ui.cards.column_layout import ColumnLayout, ColumnPlace, reset_header


def table(qtbot, keys: list[str]) -> QTableView:
    model = QStandardItemModel(1, len(keys))
    model.setHorizontalHeaderLabels(keys)
    view = QTableView()
    view.setModel(model)
    model.setParent(view)
    qtbot.addWidget(view)
    _alive.append(view)  # the tests hold only the header, which the view owns
    return view


_alive: list[QTableView] = []


def visual_keys(header: QHeaderView, keys: list[str]) -> list[str]:
    return [keys[header.logicalIndex(v)] for v in range(header.count())]


def test_a_layout_survives_saving_and_applies_to_the_same_columns(qtbot):
    keys = ["avatar", "name", "username", "position"]
    first = table(qtbot, keys).horizontalHeader()
    first.moveSection(3, 1)  # position before name
    first.resizeSection(1, 222)
    first.setSectionHidden(2, True)
    layout = ColumnLayout()
    layout.capture(first, keys)

    restored = ColumnLayout.from_json(layout.to_json())
    second = table(qtbot, keys).horizontalHeader()
    assert restored.apply(second, keys) == set()
    assert visual_keys(second, keys) == ["avatar", "position", "name", "username"]
    assert second.sectionSize(1) == 222
    assert second.isSectionHidden(2)


def test_new_columns_keep_their_place_and_are_reported(qtbot):
    layout = ColumnLayout({"name": ColumnPlace(2, 150), "avatar": ColumnPlace(0, 40)})
    keys = ["avatar", "name", "emails", "username"]
    header = table(qtbot, keys).horizontalHeader()
    assert layout.apply(header, keys) == {2, 3}
    assert visual_keys(header, keys) == keys
    assert header.sectionSize(1) == 150


def test_known_columns_are_reordered_among_themselves(qtbot):
    layout = ColumnLayout({"a": ColumnPlace(5, 50), "c": ColumnPlace(1, 60)})
    keys = ["a", "b", "c"]
    header = table(qtbot, keys).horizontalHeader()
    layout.apply(header, keys)
    assert visual_keys(header, keys) == ["c", "b", "a"]


def test_a_hidden_column_keeps_its_width(qtbot):
    keys = ["a", "b"]
    header = table(qtbot, keys).horizontalHeader()
    header.resizeSection(1, 180)
    layout = ColumnLayout()
    layout.capture(header, keys)
    header.setSectionHidden(1, True)
    layout.capture(header, keys)
    assert layout.places["b"] == ColumnPlace(1, 180, hidden=True)


def test_every_column_hidden_still_shows_one(qtbot):
    layout = ColumnLayout({"a": ColumnPlace(0, 50, True), "b": ColumnPlace(1, 50, True)})
    keys = ["a", "b"]
    header = table(qtbot, keys).horizontalHeader()
    layout.apply(header, keys)
    assert not header.isSectionHidden(0)


def test_damaged_text_gives_an_empty_layout():
    damaged = ["", "{", "[]", '{"a": [1]}', '{"a": [-1, 5, false]}', '{"a": [1, 0, false]}']
    damaged += ["[" * 100_000, '{"a": ' + "[" * 5_000 + "]" * 5_000 + "}", '{"a": "\ud800"}']
    for text in damaged:
        assert ColumnLayout.from_json(text).places == {}
    assert ColumnLayout.from_json('{"a": [1, 5, true], "b": "x"}').places == {
        "a": ColumnPlace(1, 5, True)
    }


def test_reset_shows_everything_in_natural_order(qtbot):
    keys = ["a", "b", "c"]
    header = table(qtbot, keys).horizontalHeader()
    header.moveSection(0, 2)
    header.setSectionHidden(1, True)
    reset_header(header)
    assert visual_keys(header, keys) == keys
    assert not any(header.isSectionHidden(i) for i in range(3))
