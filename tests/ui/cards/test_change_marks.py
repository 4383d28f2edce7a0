"""What the last sync changed within a card: which fields, what they were, how marked."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from cardviewer.api.models import Card, parse_card
from cardviewer.services.card_columns import build_columns
from cardviewer.ui.cards.change_marks import (
    BEFORE_EXCERPT,
    before_text,
    change_tint,
    changed_columns,
    changed_fields_text,
    was_text,
)
from cardviewer.ui.colour_scheme import TEXT_CONTRAST, contrast, dark_palette


def test_a_field_changes_with_its_value_or_the_bad_value_sent_for_it():
    first = parse_card({"uuid": "c1", "display_name": "Ada", "connects": "many"})
    columns = build_columns((first,), with_emails=False)
    titles = [column.title for column in columns]

    def changed(**fields: object) -> list[str]:
        now = parse_card({"uuid": "c1", "display_name": "Ada", **fields})
        return [titles[number] for number in sorted(changed_columns(columns, now, first))]

    assert changed(connects="many") == []
    assert changed(connects="lots") == ["Connects"], "another invalid value"
    assert changed(connects=3) == ["Connects"]
    assert changed(connects="many", display_name="Ada B.") == ["Name"]


def test_the_addresses_change_only_where_both_syncs_asked_for_them():
    without = parse_card({"uuid": "c1", "display_name": "Ada"})
    now = parse_card({"uuid": "c1", "display_name": "Ada B.", "emails": ["ada@example.com"]})
    columns = build_columns((now,), with_emails=True)
    titles = [column.title for column in columns]

    def changed(card: Card, before: Card) -> list[str]:
        return [titles[number] for number in sorted(changed_columns(columns, card, before))]

    assert changed(now, without) == ["Name"]
    assert changed(without, now) == ["Name"]
    before = parse_card({"uuid": "c1", "display_name": "Ada", "emails": []})
    assert changed(now, before) == ["Name", "E-mails"]


def test_what_a_field_was_is_said_in_a_line_however_long_or_empty():
    long = parse_card({"uuid": "c1", "position": "x" * 1000, "username": ""})
    columns = {column.key: column for column in build_columns((long,), with_emails=False)}
    said = before_text(columns["position"], long, long)
    assert said.startswith("Before the last sync: xxx")
    assert said.endswith("…")
    assert len(said) == len("Before the last sync: ") + BEFORE_EXCERPT
    assert was_text(columns["username"], long, long) == "Before: empty"
    assert was_text(columns["avatar"], long, long) == "Before: no picture"
    pictured = parse_card(
        {"uuid": "c1", "avatar": {"uuid": "a1", "src": "https://cdn.example/a.png"}}
    )
    assert before_text(columns["avatar"], pictured, pictured) == (
        "Before the last sync: another picture"
    )
    assert before_text(columns["avatar"], long, pictured) == "Before the last sync: a picture"
    assert changed_fields_text([]) == "Changed by the last sync"
    assert changed_fields_text(["Name", "Position"]) == "Changed by the last sync: Name, Position"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_changed_cell_reads_as_well_as_any_and_stands_apart(qapp, scheme):
    palette = QApplication.palette() if scheme == "light" else dark_palette()
    tint = change_tint(palette)
    assert contrast(tint, palette.color(QPalette.ColorRole.Text)) >= TEXT_CONTRAST
    for role in (QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase):
        assert tint != palette.color(role)
        assert tint != palette.color(QPalette.ColorRole.Highlight)
