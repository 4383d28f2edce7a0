"""How text sorts for a reader: Qt's collator for the reader's locale, by its name too.

A local copy ranks its texts under a collation (`CardStore.rank_texts`) and records its
name: the locale's name (`collation_of`), or "folded", the store's own rule without a
locale. The sorting worker and the process writing a sync build the key from the name
alone (`store_sort_keys.text_key_for`, which calls `locale_text_key`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCollator, QCollatorSortKey, QLocale, Qt


def text_collator(locale: QLocale | None = None) -> QCollator:
    """Compares text as people sort it: "Item 2" before "Item 10", case ignored.

    In the bare "C" locale Qt compares code points (so "Zebra" before "apple" and "é"
    after "z"); English collation is used there instead, which sorts sensibly for
    every Latin script.
    """
    locale = locale if locale is not None else QLocale()
    if locale.language() == QLocale.Language.C:
        locale = QLocale("en_US")
    collator = QCollator(locale)
    collator.setNumericMode(True)
    collator.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    return collator


def collation_of(locale: QLocale) -> str:
    """The name of the collation `text_collator(locale)` sorts by.

    The locale's name, with its script where the name alone means another:
    `QLocale("sr_Latn_RS").name()` is "sr_RS", which Qt reads as Cyrillic Serbian.
    """
    name = locale.name()
    if QLocale(name).script() == locale.script():
        return name
    return "_".join(
        (
            QLocale.languageToCode(locale.language()),
            QLocale.scriptToCode(locale.script()),
            QLocale.territoryToCode(locale.territory()),
        )
    )


def system_collation() -> str:
    """The collation the window sorts by: the system locale's (`i18n` makes it `QLocale()`)."""
    return collation_of(QLocale.system())


def locale_text_key(collation: str) -> Callable[[str], QCollatorSortKey]:
    """The sort key of the collation named `collation_of(locale)`, from that name."""
    return text_collator(QLocale(collation)).sortKey
