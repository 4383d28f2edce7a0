"""The search rules the window's filter and the local store share."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from cardviewer.api.models import Card, parse_card
from cardviewer.services.card_search import card_search_text, fold_text, search_terms
from tests.properties import examples


def test_fold_text_and_terms():
    assert fold_text("Zoë ÅSA ﬁne Straße") == "zoe asa fine strasse"
    assert search_terms("  Zoë  zoe\tMÜLLER\n") == ("zoe", "muller")
    assert search_terms("") == ()


def test_both_searches_hold_a_nul_and_a_lone_surrogate_as_sqlite_can():
    """SQLite's text search ends at a NUL, and UTF-8 cannot carry a lone surrogate: a
    pasted search holding either failed in the local copy, or found nothing there."""
    assert search_terms("ab\x00cd \x00") == ("ab", "cd")
    assert search_terms("x\udfff") == ("x\ufffd",)
    card = parse_card({"uuid": "c1", "display_name": "Ab\x00cd x\udfff"})
    assert card_search_text(card) == "ab\ncd x\ufffd"


@given(st.text())
@settings(max_examples=examples(500))
def test_folding_is_case_folding_with_the_accents_taken_apart(text):
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    expected = "".join(char for char in decomposed if not unicodedata.combining(char))
    assert fold_text(text) == expected
    assert fold_text("ABC xyz 123 @._-") == "abc xyz 123 @._-"


def test_search_text_of_a_card_holds_only_its_searchable_fields():
    card = parse_card(
        {
            "uuid": "c1",
            "display_name": "Zoë Müller",
            "username": "zoe-m",
            "position": "Head of Legal",
            "emails": ["zoe@legal.example", "ZM@private.example"],
            "connects": 12,
            "theme": "not searched",
        }
    )
    assert card_search_text(card).split("\n") == [
        "zoe muller",
        "zoe-m",
        "@zoe-m",
        "head of legal",
        "zoe@legal.example",
        "zm@private.example",
    ]
    assert card_search_text(Card()) == ""


def test_each_field_alone_is_searched():
    assert card_search_text(parse_card({"display_name": "Ann"})) == "ann"
    assert card_search_text(parse_card({"username": "ann"})) == "ann\n@ann"
    assert card_search_text(parse_card({"position": "CEO"})) == "ceo"
    assert card_search_text(parse_card({"emails": ["a@b.c"]})) == "a@b.c"
