"""The reader's collation, built again from its name by a process with no window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale

from cardviewer.services.text_collation import collation_of, locale_text_key, text_collator

WORDS = ["Zebra", "Ärger", "item 10", "Abend", "item 2", "émile", "čad", "cz", "чай", "ćup"]


def test_the_bare_c_locale_still_sorts_text_sensibly():
    collator = text_collator(QLocale.c())
    words = ["apple", "Zebra", "émile", "item 10", "item 2"]
    ordered = sorted(words, key=collator.sortKey)
    assert ordered == ["apple", "émile", "item 2", "item 10", "Zebra"]


@pytest.mark.parametrize(
    "name", ["de_DE", "sv_SE", "en_US", "C", "sr_Latn_RS", "sr_RS", "uz_Cyrl_UZ", "zh_Hant_TW"]
)
def test_a_locale_s_collation_sorts_as_its_collator_from_its_name_alone(name):
    locale = QLocale(name)
    by_name = sorted(WORDS, key=locale_text_key(collation_of(locale)))
    assert by_name == sorted(WORDS, key=text_collator(locale).sortKey)


def test_a_collation_is_named_by_the_locale_s_name_and_its_script_where_that_differs():
    """`QLocale("sr_Latn_RS").name()` is "sr_RS": Serbian in Cyrillic, which sorts
    "čad" after "cz" where the Latin alphabet puts it before."""
    assert collation_of(QLocale("de_DE")) == "de_DE"  # the names copies were ranked by
    assert collation_of(QLocale("sr_RS")) == "sr_RS"
    assert collation_of(QLocale("zh_Hant_TW")) == "zh_TW"
    assert collation_of(QLocale("sr_Latn_RS")) == "sr_Latn_RS"
    latin = locale_text_key(collation_of(QLocale("sr_Latn_RS")))
    assert sorted(["cz", "čad", "dom"], key=latin) == ["cz", "čad", "dom"]


def test_languages_that_sort_differently_have_collations_of_their_own():
    german, swedish = (locale_text_key(collation_of(QLocale(name))) for name in ("de_DE", "sv_SE"))
    assert sorted(["Zebra", "Ärger", "Abend"], key=german) == ["Abend", "Ärger", "Zebra"]
    assert sorted(["Zebra", "Ärger", "Abend"], key=swedish) == ["Abend", "Zebra", "Ärger"]
