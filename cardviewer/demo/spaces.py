"""The demo server's spaces: the sample space and an empty one, and their avatars by id.

A space of more than `MADE_AT_ONCE` cards is made while the server already answers
(`CardsInTheMaking`); a smaller one is made before it starts.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Iterable, Mapping, Sequence

from cardviewer.demo.cards_in_the_making import CardsInTheMaking
from cardviewer.demo.data import (
    DEMO_SPACE_ID,
    DEMO_SPACE_NAME,
    EMPTY_SPACE_ID,
    EMPTY_SPACE_NAME,
    DemoCard,
    DemoSpace,
    generate_cards,
)

MADE_AT_ONCE = 10_000
"""Spaces of up to this many cards are made before the server starts (under a second)."""


def build_spaces(card_count: int, seed: int = 1) -> dict[str, DemoSpace]:
    """The demo space with `card_count` cards and the empty space, by id.

    Of more than `MADE_AT_ONCE` cards, the cards are made while the server already runs
    (`CardsInTheMaking`): it starts in a moment whatever the space's size.
    """
    if card_count > MADE_AT_ONCE:
        cards: Sequence[DemoCard] = CardsInTheMaking(card_count, seed)
    else:
        cards = generate_cards(card_count, seed)
    return {
        DEMO_SPACE_ID: DemoSpace(DEMO_SPACE_ID, DEMO_SPACE_NAME, cards),
        EMPTY_SPACE_ID: DemoSpace(EMPTY_SPACE_ID, EMPTY_SPACE_NAME, ()),
    }


def avatar_index(spaces: Iterable[DemoSpace]) -> Mapping[str, DemoCard]:
    """Cards by the id of their own avatar, for the image server: of cards still in the
    making, those made so far."""
    made: dict[str, DemoCard] = {}
    making: list[dict[str, DemoCard]] = []
    for space in spaces:
        if isinstance(space.cards, CardsInTheMaking):
            making.append(space.cards.avatars)
        else:
            made.update((c.avatar_uuid, c) for c in space.cards if c.avatar_uuid is not None)
    return ChainMap(made, *making) if making else made
