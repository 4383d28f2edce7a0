"""What the search looks through, and how text is folded for it, without Qt.

The window's filter (`CardFilterModel`) and the local store's (`CardStore.ordered`)
follow these rules, so a space searched on screen and in its local copy finds the same
cards: every word typed must occur in the card's name, username ("@handle" too),
position or e-mail addresses, regardless of case and accents ("zoe" finds "Zoë").
Both hold the text as SQLite can: a lone surrogate as U+FFFD, a NUL as a line break.
"""

from __future__ import annotations

import unicodedata

from cardviewer.api.models import Card

_FIELD_SEPARATOR = "\n"
"""Between the fields of a card's searchable text; no search term contains it."""


def fold_text(text: str) -> str:
    """Text as compared by the search: case folded, accents and ligatures taken apart.

    "Zoë", "ZOE" and "zoe" all fold to "zoe"; "ß" folds to "ss" and "ﬁ" to "fi".
    """
    if text.isascii():  # most names and addresses: nothing to take apart
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def storable(text: str) -> str:
    """`text` with a lone surrogate as U+FFFD: SQLite keeps UTF-8, which cannot carry one."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _searchable(folded: str) -> str:
    """Folded text as SQLite can search it; a NUL, where its text search ends, parts
    words as a line break does (a pasted search holds one as a card's text may)."""
    return storable(folded).replace("\x00", _FIELD_SEPARATOR)


def search_terms(text: str) -> tuple[str, ...]:
    """The folded words of a search, each only once; none means "show everything"."""
    return tuple(dict.fromkeys(_searchable(fold_text(text)).split()))


def card_search_text(card: Card) -> str:
    """The folded text the search looks through: name, username, position, e-mails.

    The username also appears as "@username", the way handles are written, so
    "@jane" finds her too.
    """
    fields: list[str] = []
    if card.display_name:
        fields.append(card.display_name)
    if card.username:
        fields.extend((card.username, "@" + card.username))
    if card.position:
        fields.append(card.position)
    if card.emails:
        fields.extend(card.emails)
    return _searchable(fold_text(_FIELD_SEPARATOR.join(fields)))
