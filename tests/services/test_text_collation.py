"""The reader's collation, built again from its name by a process with no window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale

from cardviewer.services.text_collation import collation_of, locale_text_key, text_collator

WORDS = ["Zebra", "Ärger", "item 10", "Abend", "item 2", "émile"]


def test_the_bare_c_locale_still_sorts_text_sensibly():
    collator = text_collator(QLocale.c())
    words = ["apple", "Zebra", "émile", "item 10", "item 2"]
    ordered = sorted(words, key=collator.sortKey)
    assert ordered == ["apple", "émile", "item 2", "item 10", "Zebra"]


@pytest.mark.parametrize("name", ["de_DE", "sv_SE", "en_US", "C"])
def test_a_locale_s_collation_sorts_as_its_collator_from_its_name_alone(name):
    locale = QLocale(name)
    by_name = sorted(WORDS, key=locale_text_key(collation_of(locale)))
    assert by_name == sorted(WORDS, key=text_collator(locale).sortKey)


def test_languages_that_sort_differently_have_collations_of_their_own():
    german, swedish = (locale_text_key(collation_of(QLocale(name))) for name in ("de_DE", "sv_SE"))
    assert sorted(["Zebra", "Ärger", "Abend"], key=german) == ["Abend", "Ärger", "Zebra"]
    assert sorted(["Zebra", "Ärger", "Abend"], key=swedish) == ["Abend", "Zebra", "Ärger"]
