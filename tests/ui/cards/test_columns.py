"""How the card table's columns read on screen: headings, cell text, tooltips, alignment."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QCoreApplication, QLocale, Qt, QTranslator

from cardviewer import i18n
from cardviewer.api.models import Card
from cardviewer.services.card_columns import ENGLISH_TITLES, build_columns
from cardviewer.services.card_export import write_cards_now
from cardviewer.ui.cards.columns import (
    alignment,
    column_titles,
    display_text,
    tooltip_text,
)
from cardviewer.ui.cards.value_text import full_year_format
from tests.properties import examples
from tests.services.test_card_columns import card, column, json_values


@pytest.fixture
def german_berlin(monkeypatch: pytest.MonkeyPatch):
    """A German user in Berlin: other number and date formats, and not UTC."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    previous = QLocale()
    QLocale.setDefault(QLocale("de_DE"))
    yield
    QLocale.setDefault(previous)
    monkeypatch.undo()
    time.tzset()


# Headings


def test_untranslated_headings_are_the_english_ones(qapp):
    assert column_titles() == ENGLISH_TITLES


def test_titles_and_words_go_through_translation(qapp):
    class Shouting(QTranslator):
        def translate(self, context, source, disambiguation=None, n=-1):
            return source.upper() if context == "CardColumns" else None

    translator = Shouting()
    QCoreApplication.installTranslator(translator)
    try:
        titles = column_titles()
        columns = build_columns([card()], with_emails=True, titles=titles)
        yes = display_text(column("public"), card(public=True))
        invalid = display_text(column("connects"), card(connects="many"))
    finally:
        QCoreApplication.removeTranslator(translator)
    assert [c.title for c in columns][:4] == ["ID", "AVATAR", "NAME", "USERNAME"]
    assert columns[-1].title == "E-MAILS"
    assert titles.avatar_url == "AVATAR URL"
    assert yes == "YES"
    assert invalid == "(INVALID)"
    assert display_text(column("public"), card(public=True)) == "Yes"


def test_in_german_known_fields_flags_and_counts_are_german(qapp, tmp_path):
    i18n.install_translators(qapp, "de")
    try:
        titles = column_titles()
        jane = card(
            public=False,
            is_business=True,
            redirection="https://acme.example/jane",
            space={"name": "Acme"},
            theme="dark",
            favourite_colour="blue",
            subscriptions=[{"plan": "business"}, {"plan": "premium"}],
        )
        columns = build_columns([jane], with_emails=False, titles=titles)
        subscriptions = display_text(column("subscriptions"), jane)
        target = tmp_path / "karten.csv"
        write_cards_now(target, [jane], with_emails=False, titles=titles, delimiter=";")
    finally:
        i18n.remove_translators()
        QLocale.setDefault(QLocale.system())
    extra = {c.key: c.title for c in columns if c.extra}
    assert extra == {
        "is_business": "Geschäftlich",
        "redirection": "Weiterleitung",
        "space": "Bereich",
        "theme": "Design",
        "favourite_colour": "Favourite colour",
    }
    assert (titles.yes, titles.no) == ("ja", "nein")
    assert subscriptions == "2 Abonnements"
    with target.open(encoding="utf-8-sig", newline="") as handle:
        header, row = csv.reader(handle, delimiter=";")
    cells = dict(zip(header, row, strict=True))
    assert cells["Öffentlich"] == "nein"
    assert cells["Geschäftlich"] == "ja"
    assert cells["Bereich"] == '{"name":"Acme"}', "a file keeps the exact value"


def test_without_a_window_flags_are_english(qapp):
    jane = card(public=True)
    assert column("public").export(jane) == "yes"


# How values read


def test_text(qapp):
    name = column("display_name")
    jane = card(display_name="Smith, Jane\nLegal")
    assert display_text(name, jane) == "Smith, Jane Legal"  # one line in a table cell
    assert name.export(jane) == "Smith, Jane\nLegal"  # the exact value in a file
    assert tooltip_text(name, jane) == "Smith, Jane\nLegal"
    assert alignment(name) == Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter


def test_a_tab_in_a_text_is_a_space_in_its_cell(qapp):
    """Drawn as a tab, it jumped to the next tab stop: a wide gap amid the words."""
    position = column("position")
    lead = card(position="Line one\tTab")
    assert display_text(position, lead) == "Line one Tab"
    assert position.export(lead) == "Line one\tTab"  # the exact value in a file


def test_missing_values_are_blank(qapp):
    blank = card(position=None, public=None, connects=None, created_at=None, avatar=None)
    for key in ("position", "public", "connects", "created_at", "avatar", "subscriptions"):
        assert display_text(column(key), blank) == ""
        assert tooltip_text(column(key), blank) is None


def test_flags(qapp):
    public = column("public")
    assert display_text(public, card(public=True)) == "Yes"
    assert display_text(public, card(public=False)) == "No"
    assert tooltip_text(public, card(public=True)) is None
    assert alignment(public) == Qt.AlignmentFlag.AlignCenter


def test_numbers_read_in_the_users_locale(qapp, german_berlin):
    connects = column("connects")
    assert display_text(connects, card(connects=1234567)) == "1.234.567"
    assert connects.export(card(connects=1234567)) == "1234567"
    assert alignment(connects) == Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def test_times_read_in_local_time_and_locale(qapp, german_berlin):
    created = column("created_at")
    jane = card(created_at="2024-04-19T22:53:03.000000Z")
    assert display_text(created, jane) == "20.04.2024 00:53"  # CEST is UTC+2; the year in full
    assert created.export(jane) == "2024-04-20 00:53:03"
    assert tooltip_text(created, jane) == "2024-04-19T22:53:03.000000Z"


def test_times_read_as_iso_dates_without_a_configured_locale(qapp, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    previous = QLocale()
    QLocale.setDefault(QLocale.c())
    try:
        shown = display_text(column("created_at"), card(created_at="2019-04-05T14:03:00.000000Z"))
    finally:
        QLocale.setDefault(previous)
        monkeypatch.undo()
        time.tzset()
    assert shown == "2019-04-05 14:03"


def test_times_read_as_iso_dates_where_only_the_language_is_configured():
    """LANGUAGE=de on a system whose LANG is C.UTF-8: German words, C's date formats."""
    code = (
        "from datetime import datetime, UTC\n"
        "from PySide6.QtCore import QCoreApplication\n"
        "app = QCoreApplication([])\n"
        "from cardviewer import i18n\n"
        "i18n.install_translators(app)\n"
        "from cardviewer.ui.cards.value_text import format_local_time, time_text\n"
        "print(format_local_time(datetime(2019, 4, 5, 14, 3, tzinfo=UTC)))\n"
        "print(time_text('2019-04-05'))\n"
    )
    env = {**os.environ, "LANGUAGE": "de", "LANG": "C.UTF-8", "LC_ALL": "", "TZ": "UTC"}
    env.pop("LC_TIME", None)
    shown = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert shown == ["2019-04-05", "14:03", "2019-04-05"]


def test_time_tooltip_keeps_microseconds(qapp):
    assert tooltip_text(column("updated_at"), card()) == "2024-04-20T08:00:00.500000Z"


def test_emails(qapp):
    emails = column("emails", with_emails=True)
    jane = card(emails=[{"email": "jane@acme.example"}, {"email": "j.smith@acme.example"}])
    assert display_text(emails, jane) == "jane@acme.example; j.smith@acme.example"
    assert tooltip_text(emails, jane) == "jane@acme.example\nj.smith@acme.example"


def test_a_nested_object_reads_as_a_short_line(qapp):
    subscriptions = column("subscriptions")
    jane = card(subscriptions={"plan": "business", "status": "active"})
    assert display_text(subscriptions, jane) == "business \N{MIDDLE DOT} active"
    shown = json.loads(tooltip_text(subscriptions, jane) or "")
    assert shown == {"plan": "business", "status": "active"}


SUBSCRIPTIONS = [
    {
        "uuid": "s1",
        "plan": "business",
        "status": "active",
        "seats": 12,
        "renews_at": "2026-03-01T09:00:00.000000Z",
    },
    {"uuid": "s2", "plan": "premium", "status": "cancelled", "seats": 1},
]


def test_a_list_of_subscriptions_is_counted_not_json(qapp):
    subscriptions = column("subscriptions")
    jane = card(subscriptions=SUBSCRIPTIONS)
    assert display_text(subscriptions, jane) == "2 subscriptions"
    assert json.loads(tooltip_text(subscriptions, jane) or "") == SUBSCRIPTIONS
    assert json.loads(subscriptions.export(jane)) == SUBSCRIPTIONS, "a file keeps it whole"


def test_one_subscription_in_a_list_reads_as_its_line(qapp, german_berlin):
    shown = display_text(column("subscriptions"), card(subscriptions=SUBSCRIPTIONS[:1]))
    dot = " \N{MIDDLE DOT} "
    assert shown == dot.join(["business", "active", "12 seats", "renews 01.03.2026 10:00"])


def test_other_nested_values_read_as_their_items_or_a_count(qapp):
    cards = [
        card(tags=["a", "b"], links=[{"url": "https://a.example"}, {"url": "https://b"}] * 2),
        card(space={"uuid": "s1", "name": "Acme Europe GmbH"}),
    ]
    assert display_text(column("tags", *cards), cards[0]) == "a, b"
    assert display_text(column("links", *cards), cards[0]) == "4 items"
    assert display_text(column("space", *cards), cards[1]) == "Acme Europe GmbH"
    assert "{" not in display_text(column("space", *cards), cards[1])


def test_a_huge_nested_value_has_a_short_tooltip(qapp):
    jane = card(subscriptions=[{"plan": f"plan {n}"} for n in range(500)])
    tooltip = tooltip_text(column("subscriptions"), jane) or ""
    assert tooltip.count("\n") <= 40
    assert tooltip.endswith("\N{HORIZONTAL ELLIPSIS}")


def test_unknown_fields_read_by_their_type(qapp):
    cards = [card(is_business=True, tags=["a", "b"]), card(is_business=None, tags=[])]
    assert display_text(column("is_business", *cards), cards[0]) == "Yes"
    assert display_text(column("tags", *cards), cards[0]) == "a, b"


def test_mixed_unknown_field_is_shown_as_sent(qapp):
    cards = [card(extra_flag=True), card(extra_flag="sometimes")]
    flag = column("extra_flag", *cards)
    assert display_text(flag, cards[0]) == "Yes"
    assert display_text(flag, cards[1]) == "sometimes"


def test_avatar_column_shows_no_text(qapp):
    avatar = column("avatar")
    assert display_text(avatar, card()) == ""
    assert alignment(avatar) == Qt.AlignmentFlag.AlignCenter


# Values the server got wrong


@pytest.mark.parametrize(
    ("key", "raw", "shown"),
    [
        ("connects", "many", '"many"'),
        ("public", "maybe", '"maybe"'),
        ("created_at", "yesterday", '"yesterday"'),
        ("display_name", 4711, "4711"),
    ],
)
def test_invalid_value_is_marked_and_explained(qapp, key, raw, shown):
    bad = card(**{key: raw})
    col = column(key, bad)
    assert display_text(col, bad) == "(invalid)"
    assert tooltip_text(col, bad) == f"The server sent an invalid value: {shown}"


def test_invalid_avatar_keeps_the_picture_cell_empty(qapp):
    bad = card(avatar="https://cdn.example/a.jpg")
    avatar = column("avatar", bad)
    assert display_text(avatar, bad) == ""
    assert (
        tooltip_text(avatar, bad) == 'The server sent an invalid value: "https://cdn.example/a.jpg"'
    )


def test_a_long_invalid_value_is_shortened_in_the_tooltip(qapp):
    bad = card(connects="x" * 1000)
    tooltip = tooltip_text(column("connects", bad), bad) or ""
    assert len(tooltip) < 300
    assert tooltip.endswith("…")


# Whatever the server sends, every cell has text


@settings(max_examples=examples(150), deadline=None)
@given(extra=st.dictionaries(st.text(min_size=1), json_values, max_size=4))
def test_any_unknown_field_reads(qapp, extra):
    raw_card = card(**{k: v for k, v in extra.items() if k not in Card.model_fields})
    for col in build_columns([raw_card], with_emails=True):
        assert isinstance(display_text(col, raw_card), str)
        tooltip = tooltip_text(col, raw_card)
        assert tooltip is None or isinstance(tooltip, str)


@pytest.mark.parametrize(
    ("name", "year"),
    [("de_DE", "2024"), ("en_US", "2024"), ("fr_FR", "2024"), ("ja_JP", "2024")],
)
def test_every_locale_writes_the_year_in_full(qapp, name, year):
    QLocale.setDefault(QLocale(name))
    try:
        shown = display_text(column("created_at"), card(created_at="2024-04-19T12:00:00Z"))
    finally:
        QLocale.setDefault(QLocale.system())
    assert year in shown
    assert "yyyy" in full_year_format(QLocale(name))
