"""The card table's columns: fitted to their content once, then as the person arranges them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtWidgets import QHeaderView, QTableView

from cardviewer.api import CardPage
from cardviewer.api.models import parse_card
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.services.page_loader import PageRequest
from cardviewer.ui.cards.avatar_delegate import AvatarDelegate
from cardviewer.ui.cards.card_filter_model import CardFilterModel
from cardviewer.ui.cards.card_table_model import CardTableModel
from cardviewer.ui.cards.column_layout import (
    MAX_COLUMN_WIDTH,
    ColumnLayout,
    ColumnPlace,
    TableColumns,
)

AVATAR_SIZE = 32


def card(number: int, **fields: Any) -> dict[str, Any]:
    return {
        "uuid": f"c{number}",
        "username": f"user-{number}",
        "display_name": f"Person {number}",
        "position": "Staff",
        **fields,
    }


def page(*cards: dict[str, Any]) -> CardPage:
    meta = {"current_page": 1, "last_page": 1, "per_page": 10, "total": len(cards)}
    parsed = tuple(parse_card(raw) for raw in cards)
    return CardPage.model_validate({"cards": parsed, "meta": meta, "links": {}})


@pytest.fixture
def model(qloop, arun) -> Iterator[CardTableModel]:
    avatars = AvatarLoader(use_disk_cache=False)
    model = CardTableModel(avatars)
    yield model
    arun(avatars.aclose())


@pytest.fixture
def make_columns(qtbot, model):
    def make(layout: ColumnLayout | None = None, *, filtered: bool = False) -> TableColumns:
        """With `filtered`, the table shows the model through the window's filter."""
        table = QTableView()
        if filtered:
            proxy = CardFilterModel(table)
            proxy.setSourceModel(model)
            table.setModel(proxy)
        else:
            table.setModel(model)
        table.horizontalHeader().setStretchLastSection(True)
        qtbot.addWidget(table)
        table.resize(900, 400)
        table.show()
        columns = TableColumns(table, model, layout or ColumnLayout(), avatar_size=AVATAR_SIZE)
        header = table.horizontalHeader()
        header.sectionResized.connect(columns.remember_column_width)
        header.sectionMoved.connect(columns.remember_columns)
        return columns

    return make


def show(model: CardTableModel, *cards: dict[str, Any]) -> None:
    model.show_page(PageRequest("space", 1, False), page(*cards))


def logical(columns: TableColumns, key: str) -> int:
    index = columns.model.column_of(key)
    assert index is not None
    return index


def test_new_columns_fit_their_content_and_the_avatar_column_its_pictures(make_columns, model):
    columns = make_columns()
    show(model, card(1), card(2, display_name="A rather long name " * 30))
    columns.fit()
    header = columns.table.horizontalHeader()
    assert columns.keys == tuple(column.key for column in model.columns)
    avatar = logical(columns, "avatar")
    assert header.sectionSize(avatar) == AVATAR_SIZE + 16
    assert header.sectionResizeMode(avatar) == QHeaderView.ResizeMode.Fixed
    assert isinstance(columns.table.itemDelegateForColumn(avatar), AvatarDelegate)
    name, username = logical(columns, "display_name"), logical(columns, "username")
    assert header.sectionSize(name) == MAX_COLUMN_WIDTH
    assert header.sectionSize(username) == min(
        columns.content_width(username) + 16, MAX_COLUMN_WIDTH
    )


def test_fitting_again_waits_for_a_new_set_of_columns_unless_forced(make_columns, model):
    columns = make_columns()
    show(model, card(1))
    columns.fit()
    header = columns.table.horizontalHeader()
    username = logical(columns, "username")
    header.resizeSection(username, 150)
    show(model, card(2))
    columns.fit()
    assert header.sectionSize(username) == 150
    columns.fit(force=True)
    assert header.sectionSize(username) == 150, "the person's width is remembered"


def test_a_remembered_layout_comes_back_and_the_fitting_is_not_remembered(make_columns, model):
    layout = ColumnLayout(
        {
            "username": ColumnPlace(position=1, width=201),
            "display_name": ColumnPlace(position=2, width=180),
        }
    )
    columns = make_columns(layout)
    show(model, card(1))
    columns.fit()
    header = columns.table.horizontalHeader()
    username, name = logical(columns, "username"), logical(columns, "display_name")
    assert header.sectionSize(username) == 201
    assert header.visualIndex(username) < header.visualIndex(name)
    assert set(layout.places) == {"username", "display_name"}


def test_widths_and_moves_the_person_makes_are_remembered(make_columns, model):
    columns = make_columns()
    show(model, card(1))
    columns.fit()
    header = columns.table.horizontalHeader()
    name, position = logical(columns, "display_name"), logical(columns, "position")
    header.resizeSection(name, 222)
    assert columns.layout.places["display_name"].width == 222
    header.moveSection(header.visualIndex(position), 1)
    assert columns.layout.places["position"].position == 1


def test_the_stretched_last_column_is_not_remembered(make_columns, model):
    columns = make_columns()
    show(model, card(1))
    columns.fit()
    header = columns.table.horizontalHeader()
    last = header.logicalIndex(header.count() - 1)
    columns.table.resize(1200, 400)
    header.resizeSection(last, 500)
    assert columns.keys[last] not in columns.layout.places


def test_the_header_menu_lists_columns_in_order_and_keeps_the_last_one(make_columns, model):
    columns = make_columns()
    show(model, card(1))
    columns.fit()
    header = columns.table.horizontalHeader()
    header.moveSection(header.visualIndex(logical(columns, "position")), 0)
    menu = columns.header_menu(columns.table)
    titles = [action.text() for action in menu.actions()]
    assert titles == [model.columns[header.logicalIndex(v)].title for v in range(header.count())]
    menu.actions()[0].setChecked(False)
    assert header.isSectionHidden(logical(columns, "position"))
    assert columns.layout.places["position"].hidden
    menu.close()
    for index in range(header.count()):
        if index != logical(columns, "display_name"):
            columns.set_visible(index, False)
    menu = columns.header_menu(columns.table)
    (shown,) = [action for action in menu.actions() if action.isChecked()]
    assert not shown.isEnabled()
    menu.close()


def test_reset_forgets_the_arrangement_and_fits_again(make_columns, model):
    columns = make_columns()
    show(model, card(1))
    columns.fit()
    header = columns.table.horizontalHeader()
    fitted = [header.sectionSize(i) for i in range(header.count())]
    header.moveSection(1, 3)
    header.resizeSection(2, 300)
    columns.set_visible(3, False)
    columns.reset()
    assert columns.layout.places == {}
    assert [header.logicalIndex(v) for v in range(header.count())] == list(range(header.count()))
    hidden = [header.isSectionHidden(i) for i in range(header.count())]
    assert hidden == [key == "uuid" for key in columns.keys], "as at first: the id on request"
    last = header.logicalIndex(header.count() - 1)  # it stretches with the table
    assert [header.sectionSize(i) for i in range(header.count()) if i != last] == [
        size for i, size in enumerate(fitted) if i != last
    ]


def test_the_id_column_is_hidden_until_shown_from_the_header_menu_then_remembered(
    make_columns, model, qtbot
):
    columns = make_columns()
    show(model, card(1))
    columns.fit()
    header = columns.table.horizontalHeader()
    ids = logical(columns, "uuid")
    assert header.isSectionHidden(ids)
    menu = columns.header_menu(columns.table)
    qtbot.addWidget(menu)
    shown = {action.text(): action for action in menu.actions()}
    assert not shown["ID"].isChecked()
    shown["ID"].trigger()
    assert not header.isSectionHidden(ids)
    again = make_columns(columns.layout)  # the next start, with what was remembered
    show(model, card(2))
    again.fit(force=True)
    assert not again.table.horizontalHeader().isSectionHidden(logical(again, "uuid"))


@pytest.fixture
def filtered_columns(make_columns, model) -> TableColumns:
    show(model)  # the window shows its table once there is a page
    columns: TableColumns = make_columns(filtered=True)
    return columns


def proxy_of(columns: TableColumns) -> CardFilterModel:
    proxy = columns.table.model()
    assert isinstance(proxy, CardFilterModel)
    return proxy


def named(number: int, **fields: Any) -> dict[str, Any]:
    """A card whose name is wider than its column's heading."""
    name = f'=HYPERLINK("#{number}";"Person {number}")'
    return card(number, display_name=name, **fields)


def fitted_width(columns: TableColumns, key: str) -> int:
    return min(columns.content_width(logical(columns, key)) + 16, MAX_COLUMN_WIDTH)


def test_widths_fitted_on_no_rows_are_fitted_again_when_rows_come_back(filtered_columns, model):
    columns, header = filtered_columns, filtered_columns.table.horizontalHeader()
    show(model, named(1), named(2))
    columns.fit()
    name = logical(columns, "display_name")
    wide = header.sectionSize(name)
    proxy_of(columns).set_filter_text("ab")  # matches no card
    show(model, named(3, department="Sales"))  # the last page: a field the first has not
    columns.fit()
    show(model, named(1), named(2))  # the first page again, its columns again
    columns.fit()
    assert proxy_of(columns).rowCount() == 0
    assert header.sectionSize(name) < wide

    proxy_of(columns).set_filter_text("")
    assert header.sectionSize(name) == wide == fitted_width(columns, "display_name")
    show(model, named(4), named(5))  # a later page
    columns.fit()
    assert header.sectionSize(name) == wide
    assert columns.layout.places == {}, "the app's own widths are not the person's"


def test_a_page_after_fitting_on_no_rows_fits_the_same_columns_again(filtered_columns, model):
    columns, header = filtered_columns, filtered_columns.table.horizontalHeader()
    show(model, named(1))
    proxy_of(columns).set_filter_text("2")
    columns.reset()  # Reset View while the filter hides every card
    show(model, named(2))
    columns.fit()
    name = logical(columns, "display_name")
    assert header.sectionSize(name) == fitted_width(columns, "display_name")


def test_widths_the_person_chose_on_no_rows_are_kept(filtered_columns, model):
    columns, header = filtered_columns, filtered_columns.table.horizontalHeader()
    show(model, named(1))
    proxy_of(columns).set_filter_text("ab")
    columns.reset()
    name, username = logical(columns, "display_name"), logical(columns, "username")
    header.resizeSection(username, 150)
    header.moveSection(header.visualIndex(logical(columns, "position")), 1)
    proxy_of(columns).set_filter_text("")
    assert header.sectionSize(username) == 150
    assert header.sectionSize(name) == fitted_width(columns, "display_name")
    assert columns.layout.places["username"].width == 150
    assert columns.layout.places["display_name"].width == header.sectionSize(name)
    assert columns.layout.places["position"].position == 1


def narrow_table_with_columns_beyond_its_edge(make_columns, model) -> tuple[TableColumns, int]:
    """A table 300 px wide, whose `redirection` column starts beyond its right edge."""
    columns = make_columns()
    columns.table.resize(300, 300)
    columns.table.setHorizontalScrollMode(QTableView.ScrollMode.ScrollPerPixel)
    long_fields = {"redirection": "https://example.com/" + "x" * 40, "theme": "y" * 60}
    show(model, card(1, position="Director", **long_fields))
    columns.fit(force=True)
    header = columns.table.horizontalHeader()
    edge = columns.table.viewport().width()
    beyond = [
        index
        for index in range(header.count())
        if not header.isSectionHidden(index) and header.sectionViewportPosition(index) > edge
    ]
    redirection = logical(columns, "redirection")
    assert redirection in beyond, "some columns start beyond the right edge"
    return columns, redirection


def fitted_width_of(columns: TableColumns, index: int) -> int:
    return min(columns.content_width(index) + 16, MAX_COLUMN_WIDTH)


def test_columns_beyond_the_right_edge_are_fitted_once_the_table_is_scrolled_there(
    make_columns, model
):
    """The first paint measures only the columns in view; the rest wait for the scroll."""
    columns, redirection = narrow_table_with_columns_beyond_its_edge(make_columns, model)
    header = columns.table.horizontalHeader()
    fitted = fitted_width_of(columns, redirection)
    assert header.sectionSize(redirection) != fitted, "not measured while out of view"
    bar = columns.table.horizontalScrollBar()
    while header.sectionSize(redirection) != fitted and bar.value() < bar.maximum():
        bar.setValue(bar.value() + bar.pageStep())
    assert header.sectionSize(redirection) == fitted


def test_columns_beyond_the_right_edge_are_fitted_just_after_the_first_paint(
    make_columns, model, qtbot
):
    columns, redirection = narrow_table_with_columns_beyond_its_edge(make_columns, model)
    header = columns.table.horizontalHeader()
    fitted = fitted_width_of(columns, redirection)
    assert header.sectionSize(redirection) != fitted
    qtbot.waitUntil(lambda: header.sectionSize(redirection) == fitted, timeout=2000)
    theme = logical(columns, "theme")
    assert header.sectionSize(theme) == fitted_width_of(columns, theme)


def test_a_table_scrolled_to_its_right_end_stays_there_as_columns_are_fitted(make_columns, model):
    """One scroll to the end shows the last column whole, not a column pushed further."""
    columns, _redirection = narrow_table_with_columns_beyond_its_edge(make_columns, model)
    table, header = columns.table, columns.table.horizontalHeader()
    bar = table.horizontalScrollBar()
    bar.setValue(bar.maximum())
    last = header.logicalIndex(header.count() - 1)
    assert bar.value() == bar.maximum()
    right = header.sectionViewportPosition(last) + header.sectionSize(last)
    assert right <= table.viewport().width()


def test_columns_out_of_view_are_fitted_once_the_table_is_wide_enough(make_columns, model):
    """Arranged before the window laid the table out, they are fitted when it has."""
    columns = make_columns()
    columns.table.resize(150, 300)
    show(model, card(1, position="Regional Sales Director, Southern Europe"))
    columns.fit(force=True)
    position = logical(columns, "position")
    fitted = min(columns.content_width(position) + 16, MAX_COLUMN_WIDTH)
    header = columns.table.horizontalHeader()
    assert header.sectionSize(position) != fitted, "beyond the edge: not measured"
    columns.table.resize(1400, 300)
    assert header.sectionSize(position) == fitted


def test_the_rows_of_the_model_followed_are_watched(make_columns):
    """A whole space's model shown in the table: its rows arriving fit what waited."""
    columns = make_columns()
    space = CardTableModel()
    columns.table.setModel(space)
    columns.follow(space)  # no rows yet: every column waits for them
    show(space, card(1, position="Regional Sales Director, Southern Europe"))
    position = logical(columns, "position")
    fitted = min(columns.content_width(position) + 16, MAX_COLUMN_WIDTH)
    assert columns.table.horizontalHeader().sectionSize(position) == fitted


def test_a_view_of_other_cards_and_back_never_narrows_a_column(make_columns, model):
    """The whole space's Username fitted to a long one; a view of a few short ones (the
    cards a sync removed) and back: the name read whole is whole still. Reset fits anew."""
    columns = make_columns()
    show(model, card(1))
    columns.fit()
    header = columns.table.horizontalHeader()

    def followed(*cards: dict[str, Any]) -> int:
        space = CardTableModel()
        show(space, *cards)
        columns.table.setModel(space)
        columns.follow(space)
        return int(header.sectionSize(logical(columns, "username")))

    wide = followed(card(1, username="a-rather-long-username"), card(2))
    assert wide == columns.content_width(logical(columns, "username")) + 16
    assert followed(card(3)) == wide
    assert followed(card(1, username="a-rather-long-username"), card(2)) == wide
    followed(card(3))
    columns.reset()
    narrow = header.sectionSize(logical(columns, "username"))
    assert narrow == columns.content_width(logical(columns, "username")) + 16 < wide
