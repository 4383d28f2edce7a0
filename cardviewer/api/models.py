"""Typed views of the API's JSON: the login session and a page of cards.

Parsing is strict about the envelope (without `meta` there is no page) and lenient
about single cards: a field with a wrong type becomes `None` and is remembered in
`Card.invalid_fields`, so one bad value never hides a card or the rest of the page.
Fields the specification does not list are kept in `Card.extra_fields`.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    Strict,
    StringConstraints,
    ValidationError,
)

log = logging.getLogger(__name__)


def _assume_utc(value: datetime) -> datetime:
    """The API sends UTC with a `Z`; a timestamp without a zone is read as UTC too."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


Timestamp = Annotated[datetime, AfterValidator(_assume_utc)]
NonEmptyStr = Annotated[str, StringConstraints(min_length=1)]
# A count sent as `true` or `"12"` is a server fault, not a number to guess at.
Count = Annotated[int, Strict()]
Flag = Annotated[bool, Strict()]


def _email_addresses(value: Any) -> Any:
    """Accept the shapes an e-mail list takes: strings, or objects with an address."""
    if value is None or isinstance(value, str):
        return [value] if value else []
    if not isinstance(value, list):
        return value  # let validation reject it
    addresses: list[Any] = []
    for item in value:
        if isinstance(item, Mapping):
            item = next((item[k] for k in ("email", "address", "value") if k in item), item)
        addresses.append(item)
    return addresses


class Session(BaseModel):
    """What login returns: the bearer token and when it stops working."""

    model_config = ConfigDict(frozen=True)

    access_token: NonEmptyStr
    session_id: str
    expires_at: Timestamp

    def is_expired(self, now: datetime | None = None) -> bool:
        return (now or datetime.now(UTC)) >= self.expires_at


class Avatar(BaseModel):
    """A card's picture; `uuid` is null when the platform's default image is used."""

    model_config = ConfigDict(frozen=True, extra="allow")

    uuid: str | None = None
    src: str | None = None

    @property
    def is_default(self) -> bool:
        return self.uuid is None


class Card(BaseModel):
    """One digital business card, as listed in a space."""

    model_config = ConfigDict(frozen=True, extra="allow")

    uuid: str | None = None
    avatar: Avatar | None = None
    username: str | None = None
    display_name: str | None = None
    position: str | None = None
    public: Flag | None = None
    connected_cards: Count | None = None
    connects: Count | None = None
    subscriptions: Any = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    # Only present with `with=emails`; the specification leaves its shape open.
    emails: Annotated[tuple[str, ...] | None, BeforeValidator(_email_addresses)] = None

    _invalid: dict[str, Any] = PrivateAttr(default_factory=dict)

    @property
    def extra_fields(self) -> dict[str, Any]:
        """Fields the specification does not list, exactly as the server sent them."""
        return dict(self.model_extra or {})

    @property
    def invalid_fields(self) -> dict[str, Any]:
        """Fields whose value had the wrong type, with the raw value that was sent."""
        return dict(self._invalid)


KNOWN_CARD_FIELDS: tuple[str, ...] = tuple(Card.model_fields)


def parse_card(raw: Mapping[str, Any]) -> Card:
    """Validate one card; fields that do not validate are set aside, not fatal."""
    try:
        return Card.model_validate(raw)
    except ValidationError as exc:
        bad = {str(err["loc"][0]) for err in exc.errors() if err["loc"]}
    card = Card.model_validate({k: v for k, v in raw.items() if k not in bad})
    card._invalid.update({k: raw[k] for k in bad if k in raw})
    log.warning("card %s: ignored invalid fields %s", card.uuid, sorted(bad))
    return card


class PageLink(BaseModel):
    """One entry of `meta.links`: previous, a page number, or next."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    url: str | None = None
    label: str = ""
    active: bool = False

    @property
    def text(self) -> str:
        """The label without HTML escapes (`&laquo; Previous` → `« Previous`)."""
        return html.unescape(self.label)


class PageLinks(BaseModel):
    """The envelope's `links`: URLs of neighbouring pages, null where there is none."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    first: str | None = None
    last: str | None = None
    prev: str | None = None
    next: str | None = None


# No space has more cards or pages; larger numbers are junk, and would overflow the
# 32-bit integers of the widgets that show them.
MAX_COUNT = 2**31 - 1


class PageMeta(BaseModel):
    """The envelope's `meta`: where this page sits in the whole list."""

    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)

    current_page: int = Field(ge=1, le=MAX_COUNT)
    last_page: int = Field(ge=1, le=MAX_COUNT)
    per_page: int = Field(ge=1, le=MAX_COUNT)
    total: int = Field(ge=0, le=MAX_COUNT)
    from_: int | None = Field(default=None, alias="from", ge=0, le=MAX_COUNT)
    to: int | None = Field(default=None, ge=0, le=MAX_COUNT)
    path: str | None = None
    links: tuple[PageLink, ...] = ()

    @property
    def has_previous(self) -> bool:
        return self.current_page > 1

    @property
    def has_next(self) -> bool:
        return self.current_page < self.last_page


class _Envelope(BaseModel):
    """The paginator as sent; cards stay raw so each is parsed on its own."""

    model_config = ConfigDict(extra="ignore")

    data: list[Any]
    links: PageLinks = PageLinks()
    meta: PageMeta


class CardPage(BaseModel):
    """One page of a space's cards with its place in the list."""

    model_config = ConfigDict(frozen=True)

    cards: tuple[Card, ...]
    meta: PageMeta
    links: PageLinks
    skipped: int = 0
    """Entries of `data` that were not card objects at all and could not be shown."""

    @property
    def is_empty(self) -> bool:
        return not self.cards


def parse_page(payload: Any) -> CardPage:
    """Build a `CardPage`; raises `ValidationError` when the envelope itself is wrong."""
    envelope = _Envelope.model_validate(payload)
    cards = [parse_card(item) for item in envelope.data if isinstance(item, Mapping)]
    skipped = len(envelope.data) - len(cards)
    if skipped:
        log.warning(
            "page %d: skipped %d entries that are not cards", envelope.meta.current_page, skipped
        )
    return CardPage(cards=tuple(cards), meta=envelope.meta, links=envelope.links, skipped=skipped)
