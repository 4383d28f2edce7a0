"""The demo server's sample cards as the client reads them: every kind of tricky name."""

from __future__ import annotations

import functools

from cardviewer.api.models import Card, parse_card
from cardviewer.demo.spaces import build_spaces


@functools.cache
def demo_space_cards() -> tuple[Card, ...]:
    """The 240 cards of the demo space with their e-mail addresses, as from the server."""
    space = next(iter(build_spaces(240).values()))
    return tuple(
        parse_card(demo.to_json(space, "https://img.example", with_emails=True))
        for demo in space.cards
    )
