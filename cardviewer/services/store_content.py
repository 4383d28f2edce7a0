"""A card's content as two copies of a space compare it: blind to the order of keys.

A copy keeps each card as JSON whose fields the app knows come in its own order, but
whose fields it does not know, and the keys inside them, come in the order the server
sent them. A server may send the same card with its keys in another order; that card
is not changed. `card_content` is registered on every connection to a store
(`connect_store`) and called only where a card's JSON differs between the copies.
"""

from __future__ import annotations

import json
import sqlite3

from cardviewer.services.card_columns import EMAILS_KEY

CARD_CONTENT = "card_content"
"""The SQL function: `card_content(json, with_emails)`."""

_CANONICAL = json.JSONEncoder(separators=(",", ":"), sort_keys=True)


def card_content(text: str | bytes, with_emails: int) -> str | bytes:
    """The card `text` holds, with its keys in one order; without its e-mail addresses
    unless `with_emails` (a copy synced without them leaves them out, one an older
    version wrote holds `null`). Text that is not a card's JSON is its own content."""
    try:
        card = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return text
    if not isinstance(card, dict):
        return text
    if not with_emails:
        card.pop(EMAILS_KEY, None)
    try:
        return _CANONICAL.encode(card)
    except (ValueError, RecursionError):
        return text


def add_card_content(connection: sqlite3.Connection) -> None:
    """Make `card_content` known to the queries of `connection`."""
    connection.create_function(CARD_CONTENT, 2, card_content, deterministic=True)
