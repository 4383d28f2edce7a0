"""Typed views of the API's JSON: the login session and a page of cards.

Parsing is strict about the envelope (without `meta` there is no page) and lenient
about single cards: a field with a wrong type becomes `None` and is remembered in
`Card.invalid_fields`, so one bad value never hides a card or the rest of the page.
Fields the specification does not list are kept in `Card.extra_fields`. The
paginator's `meta.links` is read only when used, and its bad entries are left out.
A page whose numbers contradict the request or each other is refused (`check_page`).
"""

from __future__ import annotations

import html
import logging
from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    Strict,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    computed_field,
    model_validator,
)

from cardviewer.api.errors import QT_TRANSLATE_NOOP, Sentence, SpaceChanged, UnexpectedResponse
from cardviewer.api.expiry import has_expired
from cardviewer.api.known_links import MARKER, KnownLinks

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
    """Accept the shapes an e-mail list takes: strings, or objects with an address.

    An object marked primary (`is_primary`, as the demo server sends) comes first,
    wherever the server lists it: the first address is the one a vCard prefers and the
    E-mails column shows first.
    """
    if value is None or isinstance(value, str):
        return [value] if value else []
    if not isinstance(value, list):
        return value  # let validation reject it
    addresses: list[Any] = []
    primary: list[Any] = []
    for item in value:
        if isinstance(item, Mapping):
            first = item.get("is_primary") is True
            item = next((item[k] for k in ("email", "address", "value") if k in item), item)
            if first:
                primary.append(item)
                continue
        addresses.append(item)
    return primary + addresses


class Session(BaseModel):
    """What login returns: the bearer token and when it stops working."""

    model_config = ConfigDict(frozen=True)

    access_token: NonEmptyStr
    session_id: str
    expires_at: Timestamp

    def is_expired(self, now: datetime | None = None) -> bool:
        return has_expired(self.expires_at, now)


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
        return dict(self._invalid_values())

    def is_invalid(self, key: str) -> bool:
        """The server sent the field `key` with a value of the wrong type."""
        return key in self._invalid_values()

    def _invalid_values(self) -> dict[str, Any]:
        # Straight from the instance: pydantic's lookup of a private attribute by name
        # takes microseconds, and tables and exports ask once per cell.
        private = self.__pydantic_private__
        return private["_invalid"] if private else {}


KNOWN_CARD_FIELDS: tuple[str, ...] = tuple(Card.model_fields)


def parse_card(raw: Mapping[str, Any]) -> Card:
    """Validate one card; fields that do not validate are set aside, not fatal.

    Nothing is logged here: a card is read again and again from the local copy and
    from exports' spools; what received it says so, once (`WrongTypes`).
    """
    try:
        return Card.model_validate(raw)
    except ValidationError as exc:
        bad = {str(err["loc"][0]) for err in exc.errors() if err["loc"]}
    card = Card.model_validate({k: v for k, v in raw.items() if k not in bad})
    card._invalid.update({k: raw[k] for k in bad if k in raw})
    return card


class WrongTypes:
    """The values of the wrong type set aside in the cards received, told in one line.

    A server that sends one bad value mostly sends it in many cards: a line per card
    filled a job's output with hundreds of lines that named no page.
    """

    __slots__ = ("cards", "fields", "first", "seen")

    def __init__(self) -> None:
        self.seen = 0
        self.cards = 0
        self.fields: Counter[str] = Counter()
        self.first: str | None = None
        """The first card with such a value, as the line names it."""

    def note(self, cards: Iterable[Card]) -> None:
        for card in cards:
            self.seen += 1
            bad = card._invalid_values()
            if bad:
                self.cards += 1
                self.fields.update(bad.keys())
                if self.first is None:
                    self.first = f"card {card.uuid}" if card.uuid else "a card without a valid id"

    def tell(self, where: str) -> None:
        """Log the values set aside, if any, as found in `where` ("page 3")."""
        if not self.cards:
            return
        fields = ", ".join(f"{name} ({count:,})" for name, count in sorted(self.fields.items()))
        log.warning(
            "%s: ignored invalid fields in %s of %s: %s; the first is %s",
            where,
            f"{self.cards:,}",
            "1 card" if self.seen == 1 else f"{self.seen:,} cards",
            fields,
            self.first,
        )


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

MAX_CARDS = 1_000_000
"""The most cards a space may have; a page whose `meta.total` is larger is refused.

It bounds a whole-space fetch (at 10 cards a page, 100,000 requests), which a server
claiming a billion pages would otherwise keep running for ever.
"""


class _PagePosition(BaseModel):
    """The numbers of `meta`: where a page sits in the whole list."""

    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)

    current_page: int = Field(ge=1, le=MAX_COUNT)
    last_page: int = Field(ge=1, le=MAX_COUNT)
    per_page: int = Field(ge=1, le=MAX_COUNT)
    total: int = Field(ge=0, le=MAX_COUNT)
    from_: int | None = Field(default=None, alias="from", ge=0, le=MAX_COUNT)
    to: int | None = Field(default=None, ge=0, le=MAX_COUNT)
    path: str | None = None


class _LazyLinks:
    """`meta.links`, kept as it came until someone asks for it.

    The list has an entry per page of the space (a thousand for 10,000 cards) and
    nothing in a page's cards depends on it; reading it every time was most of the
    work of reading a page. Read from a response, it stays in the body's bytes, which
    the garbage collector never has to look at, instead of thousands of small objects.
    """

    __slots__ = ("_body", "_links", "_raw")

    def __init__(self, raw: Any = (), *, body: bytes | None = None) -> None:
        self._raw = list(raw) if isinstance(raw, list | tuple) else raw
        self._body = body
        self._links: tuple[PageLink, ...] | None = None

    def get(self, page: int) -> tuple[PageLink, ...]:
        if self._links is None:
            raw = self._raw if self._body is None else _links_in_body(self._body)
            self._links = _page_links(raw, page)
            self._raw = self._body = None
        return self._links

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _LazyLinks) and self.get(0) == other.get(0)

    __hash__ = None  # type: ignore[assignment]


class PageMeta(_PagePosition):
    """The envelope's `meta`: where this page sits in the whole list.

    `links` is read when first used. An entry that is not a page link is left out
    (and logged) rather than failing the page: the cards do not depend on it.
    """

    _links: _LazyLinks = PrivateAttr(default_factory=_LazyLinks)

    @model_validator(mode="wrap")
    @classmethod
    def _keep_links_raw(cls, data: Any, handler: ModelWrapValidatorHandler[PageMeta]) -> PageMeta:
        meta = handler(data)
        if isinstance(data, Mapping) and "links" in data:
            meta._links = _LazyLinks(data["links"])
        return meta

    @computed_field(repr=False)  # type: ignore[prop-decorator]
    @property
    def links(self) -> tuple[PageLink, ...]:
        """The paginator's links: previous, one per page, next."""
        return self._links.get(self.current_page)

    @property
    def has_previous(self) -> bool:
        return self.current_page > 1

    @property
    def has_next(self) -> bool:
        return self.current_page < self.last_page


_PAGE_LINKS: TypeAdapter[tuple[PageLink, ...]] = TypeAdapter(tuple[PageLink, ...])


def _page_links(raw: Any, page: int) -> tuple[PageLink, ...]:
    """Every entry of `raw` that is a page link; the others are logged and left out."""
    if raw is None:
        return ()
    try:
        return _PAGE_LINKS.validate_python(raw)
    except ValidationError:
        pass
    if not isinstance(raw, list):
        log.warning("page %d: ignored meta.links, which is not a list", page)
        return ()
    links: list[PageLink] = []
    for entry in raw:
        try:
            links.append(PageLink.model_validate(entry))
        except ValidationError:
            continue
    log.warning("page %d: ignored %d entries of meta.links", page, len(raw) - len(links))
    return tuple(links)


def _links_in_body(body: bytes) -> Any:
    try:
        return _LinksOnly.model_validate_json(body).meta.links
    except ValidationError:
        return None


class _LinksOfMeta(BaseModel):
    model_config = ConfigDict(extra="ignore")

    links: Any = ()


class _LinksOnly(BaseModel):
    """Just `meta.links` of a body; everything else in it is skipped."""

    model_config = ConfigDict(extra="ignore")

    meta: _LinksOfMeta


class _Envelope(BaseModel):
    """The paginator as sent; cards stay raw so each is parsed on its own."""

    model_config = ConfigDict(extra="ignore")

    data: list[Any]
    links: PageLinks = PageLinks()
    meta: PageMeta


class _BodyEnvelope(BaseModel):
    """The paginator read straight from the body, without `meta.links` (see `_LazyLinks`)."""

    model_config = ConfigDict(extra="ignore")

    data: list[Any]
    links: PageLinks = PageLinks()
    meta: _PagePosition


class _CutPosition(_PagePosition):
    links: Any = None


class _CutBodyEnvelope(_BodyEnvelope):
    """`_BodyEnvelope` of a body whose `meta.links` was cut out (see `known_links`)."""

    meta: _CutPosition


class CardPage(BaseModel):
    """One page of a space's cards with its place in the list.

    The cards of a page read from an answer are read (`parse_card`) when first asked
    for: a sync hands them on as sent (`sent_cards`), to the process that writes them,
    and reading them on the window's thread as well was a tenth of a sync's time.
    """

    model_config = ConfigDict(frozen=True)

    cards: tuple[Card, ...]
    meta: PageMeta
    links: PageLinks
    skipped: int = 0
    """Entries of `data` that were not card objects at all and could not be shown."""
    _sent: tuple[Mapping[str, Any], ...] | None = PrivateAttr(default=None)

    if not TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any:
            if name == "cards" and self._sent is not None:
                return self._read_cards(self._sent)
            return super().__getattr__(name)

    def _read_cards(self, sent: tuple[Mapping[str, Any], ...]) -> tuple[Card, ...]:
        """The cards of `sent`, the page's `cards` from now on (first, as declared)."""
        cards = tuple(parse_card(item) for item in sent)
        wrong = WrongTypes()
        wrong.note(cards)
        wrong.tell(f"page {self.meta.current_page}")
        object.__setattr__(self, "__dict__", {"cards": cards, **self.__dict__})
        self.__pydantic_fields_set__.add("cards")
        return cards

    # What compares, hashes, shows or writes the page's fields reads its cards first.

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardPage):
            _ = (self.cards, other.cards)
        return super().__eq__(other)

    def __hash__(self) -> int:
        return hash((self.cards, self.meta, self.links, self.skipped))

    def __repr_args__(self) -> Any:
        _ = self.cards
        return super().__repr_args__()

    def model_dump(self, **options: Any) -> dict[str, Any]:
        _ = self.cards
        return super().model_dump(**options)

    def model_dump_json(self, **options: Any) -> str:
        _ = self.cards
        return super().model_dump_json(**options)

    @property
    def card_count(self) -> int:
        """How many cards the page has, without reading them."""
        if "cards" in self.__dict__ or self._sent is None:
            return len(self.cards)
        return len(self._sent)

    @property
    def is_empty(self) -> bool:
        return self.card_count == 0

    def card_ids(self) -> list[str]:
        """The ids of the page's cards that have one (not empty), in order, without
        reading them."""
        if "cards" in self.__dict__ or self._sent is None:
            return [card.uuid for card in self.cards if card.uuid]
        return [uuid for item in self._sent if isinstance(uuid := item.get("uuid"), str) and uuid]

    def sent_cards(self) -> tuple[Mapping[str, Any], ...]:
        """The card objects of `data` exactly as the server sent them, one per card.

        Unknown fields and values of the wrong type included, in the server's order of
        keys: what `cardviewer export --format jsonl` writes. A page made from cards
        rather than read from an answer gives each card as the parser reads it back.
        """
        if self._sent is not None:
            return self._sent
        return tuple(_sent_form(card) for card in self.cards)


def laravel_last_page(total: int, per_page: int) -> int:
    """The last page as Laravel's paginator computes it: `max(1, ceil(total / per_page))`."""
    return max(1, -(-total // per_page))


def check_page(page: CardPage, asked: int) -> None:
    """Refuse a page that is not the one asked for, or whose numbers do not add up.

    A page past the last is no contradiction: the platform answers it as the page
    asked for, without cards. Raises `UnexpectedResponse`; `detail` says what is wrong.
    """
    meta = page.meta
    if meta.current_page != asked:
        raise UnexpectedResponse(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors", "The server sent page %1 when page %2 was asked for."
                ),
                meta.current_page,
                asked,
            ),
            status=200,
            detail=f"meta.current_page is {meta.current_page}, not {asked}",
        )
    if meta.total > MAX_CARDS:
        raise UnexpectedResponse(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors", "The server reports more cards in this space than can be listed."
                )
            ),
            status=200,
            detail=f"meta.total is {meta.total}; at most {MAX_CARDS} cards are listed",
        )
    expected = laravel_last_page(meta.total, meta.per_page)
    entries = page.card_count + page.skipped
    if meta.last_page != expected:
        problem = (
            f"meta.last_page is {meta.last_page}, but {meta.total} cards at "
            f"{meta.per_page} a page make {expected}"
        )
    elif entries > meta.per_page:
        problem = f"{entries} entries in data, but meta.per_page is {meta.per_page}"
    elif meta.from_ is not None and meta.to is not None and meta.to - meta.from_ + 1 != entries:
        # A page that left cards out would have them counted as removed by a sync.
        problem = f"{entries} entries in data, but meta.from is {meta.from_} and meta.to {meta.to}"
    else:
        return
    raise UnexpectedResponse(
        Sentence(
            QT_TRANSLATE_NOOP("ApiErrors", "The server's numbers of pages and cards do not add up.")
        ),
        status=200,
        detail=f"page {asked}: {problem}",
    )


def check_same_space(page: CardPage, total: int) -> None:
    """Refuse a page of a whole-space fetch whose `meta.total` is not page 1's `total`,
    or that has fewer cards than `total` leaves for it.

    The cards are listed in the server's order, which the API leaves unsaid: a card
    added or removed before a page shifts every later page, which then misses a card
    or repeats one. The count is the only sign of it the pages give.
    """
    if page.meta.total != total:
        raise _space_changed(
            f"page {page.meta.current_page} says meta.total is {page.meta.total}; "
            f"page 1 said {total}"
        )
    meta = page.meta
    due = min(meta.per_page, max(0, total - (meta.current_page - 1) * meta.per_page))
    entries = page.card_count + page.skipped
    if entries < due:
        # A card removed between the server's count and its page (each its own query)
        # leaves the page short: a sync would have said that the card was removed.
        raise _space_changed(
            f"page {meta.current_page} has {entries} entries; {total} cards at "
            f"{meta.per_page} a page make {due}"
        )


def check_no_repeats(page: CardPage, seen: set[str]) -> None:
    """Refuse a page of a whole-space fetch with a card that an earlier page had, or that
    it has twice; note its cards in `seen`, the ids of the pages so far.

    As many cards added as removed leave `meta.total` as it was: a card added before a
    page fetched earlier pushes the last card of each later page to the next one, where
    it comes again (a sync stored it twice, an export wrote it twice).
    """
    ids = page.card_ids()
    # Set operations in C: a loop over the ids took twice as long, 0.1 s at 100,000 cards.
    if seen.isdisjoint(ids) and len(set(ids)) == len(ids):
        seen.update(ids)
        return
    repeated = next((uuid for uuid in ids if uuid in seen), None)
    if repeated is None:  # twice on this page
        repeated = next(uuid for uuid, count in Counter(ids).items() if count > 1)
    raise _space_changed(f"card {repeated} comes a second time, on page {page.meta.current_page}")


def _space_changed(detail: str) -> SpaceChanged:
    return SpaceChanged(
        Sentence(
            QT_TRANSLATE_NOOP(
                "ApiErrors",
                "The space changed while its cards were fetched: cards were added or "
                "removed, so some could be missing. Try again.",
            )
        ),
        status=200,
        detail=detail,
    )


def check_card_count(count: int, total: int) -> None:
    """Refuse more cards in a whole-space fetch than the space has (`total`)."""
    if count > total:
        raise UnexpectedResponse(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors", "The server sent more cards than it says the space has."
                )
            ),
            status=200,
            detail=f"{count} cards on the pages so far, but meta.total is at most {total}",
        )


def parse_page(payload: Any) -> CardPage:
    """Build a `CardPage`; raises `ValidationError` when the envelope itself is wrong."""
    envelope = _Envelope.model_validate(payload)
    return _page(envelope.data, envelope.meta, envelope.links)


def parse_page_json(body: bytes) -> CardPage:
    """`parse_page` of a response body, without building `meta.links` until it is used.

    Raises `ValidationError` for a body that is not JSON, or not UTF-8, as well; then
    `json.loads` and `parse_page` tell exactly what is wrong (see `client.read_page`).
    """
    envelope = _cut_envelope(body)
    if envelope is None:
        envelope = _BodyEnvelope.model_validate_json(body)
        _KNOWN_LINKS.learn(body)
    position = envelope.meta
    fields = {name: getattr(position, name) for name in _PagePosition.model_fields}
    meta = PageMeta.model_construct(position.model_fields_set & fields.keys(), **fields)
    meta._links = _LazyLinks(body=body)
    return _page(envelope.data, meta, envelope.links)


_KNOWN_LINKS = KnownLinks()


def _cut_envelope(body: bytes) -> _BodyEnvelope | None:
    """The envelope read without reading `meta.links`, where that list is known good."""
    cut = _KNOWN_LINKS.cut(body)
    if cut is None:
        return None
    try:
        envelope = _CutBodyEnvelope.model_validate_json(cut)
    except ValidationError:
        return None
    return envelope if envelope.meta.links == MARKER else None


def _page(data: list[Any], meta: PageMeta, links: PageLinks) -> CardPage:
    """A page of `data`'s card objects, read when first asked for (`CardPage.cards`)."""
    sent = tuple(item for item in data if isinstance(item, Mapping))
    skipped = len(data) - len(sent)
    if skipped:
        log.warning("page %d: skipped %d entries that are not cards", meta.current_page, skipped)
    # No `cards` yet: they are read from `sent` when first asked for.
    page = CardPage.model_construct(meta=meta, links=links, skipped=skipped)  # type: ignore[call-arg]
    page._sent = sent
    return page


def _sent_form(card: Card) -> dict[str, Any]:
    """A card as JSON that `parse_card` reads back to it, set-aside values as they came."""
    raw: dict[str, Any] = card.model_dump(mode="json", exclude_unset=True)
    raw.update(card.invalid_fields)
    return raw
