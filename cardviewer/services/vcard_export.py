"""Cards as vCards (.vcf): colleagues into Outlook or the contacts of a phone.

vCard 3.0 (RFC 2426) by default, which Outlook and phones import; 4.0 (RFC 6350) on
request. Per card: the name as FN and, split into its parts (`split_name`), as N; the
position as TITLE; one EMAIL per address (work), the first marked as preferred (the one
marked primary, `models`); the space's name as ORG where the card carries it; on request, its avatar
as an embedded JPEG PHOTO (made by `vcard_photo`, found by `vcard_photos`); the card's
id as UID; its last change as REV. Text is escaped and lines are folded at 75 octets
as both RFCs say, in UTF-8 with CRLF line ends. A file holds one vCard after another,
written page by page (`streamed_export`), so a whole space is never in memory.
"""

from __future__ import annotations

import base64
import enum
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from cardviewer.api.models import Card, CardPage
from cardviewer.services.card_export import stored_cards
from cardviewer.services.card_store import CardStore
from cardviewer.services.stoppable import PROGRESS_EVERY, Painted, check
from cardviewer.services.store_schema import Generation
from cardviewer.services.streamed_export import write_stream

SUFFIX = ".vcf"
LINE_OCTETS = 75
"""The longest a line may be before it is folded, line end not counted (both RFCs)."""
SPACE_KEY = "space"
PHOTO_BATCH = 64
"""Cards whose photos are asked for at once: enough to download a few side by side,
few enough that their pictures take little memory."""

PhotoLookup = Callable[[Sequence[Card]], Mapping[str, bytes]]
"""The JPEG photos of some cards, by their avatar's address (`avatar_address`); a card
missing from it gets no PHOTO."""


class VCardVersion(enum.Enum):
    V3 = "3.0"
    V4 = "4.0"


def escape(text: str) -> str:
    """A text value as vCard writes it: backslash, comma, semicolon and line breaks escaped."""
    text = text.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;")
    return text.replace("\r\n", "\\n").replace("\r", "\\n").replace("\n", "\\n")


def fold(line: str) -> str:
    """`line` folded into pieces of at most 75 octets, each continued with CRLF and a space.

    A character is never split: a piece ends before the character that would not fit.
    """
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    limit = LINE_OCTETS
    for character in line:
        octets = len(character.encode("utf-8", "surrogatepass"))
        if size + octets > limit:
            pieces.append("".join(current))
            current, size = [], 0
            limit = LINE_OCTETS - 1  # a continued line starts with its space
        current.append(character)
        size += octets
    pieces.append("".join(current))
    return "\r\n ".join(pieces)


class PersonName(NamedTuple):
    """The parts of a name as vCard's N has them."""

    family: str
    given: str
    prefixes: str = ""
    suffixes: str = ""


# fmt: off
SUFFIXES = frozenset({
    "jr", "sr", "ii", "iii", "iv", "phd", "md", "mba", "msc", "bsc", "ma", "ba", "llm",
    "esq", "dds", "rn", "cpa", "pe", "ceng", "dipl-ing",
    # A company's legal form: "Acme, Inc." is no Inc. Acme.
    "inc", "llc", "llp", "lp", "ltd", "plc", "corp", "co", "gmbh", "ag", "kg", "kgaa", "ug",
    "se", "sa", "sarl", "sas", "srl", "spa", "bv", "nv", "oy", "oyj", "ab", "as", "pty",
    "ev",
})
# fmt: on
"""Words after a comma that end a name ("…, PhD", "…, Inc.", "…, A/S"), in small
letters without full stops or slashes; other words there are the given names of
"Family, Given"."""

# fmt: off
TITLES = frozenset({
    "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "hr", "herr", "fr", "frau",
})
# fmt: on
"""Words before the given names of "Family, Given" that are a title ("Smith, Mr."), in
small letters without full stops; another word there ending in one is an initial
("Smith, J.")."""


def split_name(name: str) -> PersonName:
    """The parts of a display name: the last word is taken for the family name.

    People's names come as one text; N is what a contacts list sorts by. What follows a
    comma is a suffix ("…, PhD"), unless the name is "Family, Given" (one word before
    the comma, no suffix after it). Leading words ending in a full stop are prefixes
    ("Dr.", "Prof."). A name in Chinese, Japanese or Korean script puts the family name
    first ("渡辺 由美"). A name of one word (or in a script without spaces) is the
    family name alone.
    """
    main, comma, after = name.partition(",")
    words = main.split()
    given_part, _, more = after.partition(",")
    if comma and len(words) == 1 and given_part.split() and not _is_suffix(given_part):
        # "Smith, Jane", "Smith, Jane, PhD", "Smith, Mr."
        family, words, suffixes = words[0], given_part.split(), more.strip()
    else:
        family, suffixes = "", after.strip()
    prefixes: list[str] = []
    while words and words[0].endswith(".") and (_is_title(words[0]) if family else len(words) > 1):
        prefixes.append(words.pop(0))
    if family:
        given = " ".join(words)
    elif len(words) > 1 and _family_first(words[0]):
        family, given = words[0], " ".join(words[1:])
    else:
        family = words[-1] if words else ""
        given = " ".join(words[:-1])
    return PersonName(family, given, " ".join(prefixes), suffixes)


def _is_title(word: str) -> bool:
    return word.replace(".", "").casefold() in TITLES


def _is_suffix(text: str) -> bool:
    words = text.replace(",", " ").replace(".", "").replace("/", "").split()
    return all(word.casefold() in SUFFIXES for word in words if any(map(str.isalnum, word)))


def _family_first(word: str) -> bool:
    """Whether `word` is in a script whose names put the family name first: Chinese
    characters, Japanese kana, Korean Hangul."""
    return any(
        "\u1100" <= character <= "\u11ff"  # Hangul Jamo
        or "\u3040" <= character <= "\u30ff"  # Hiragana, Katakana
        or "\u3400" <= character <= "\u4dbf"  # CJK Extension A
        or "\u4e00" <= character <= "\u9fff"  # CJK Unified Ideographs
        or "\uac00" <= character <= "\ud7af"  # Hangul syllables
        for character in word
    )


def card_vcard(
    card: Card, version: VCardVersion = VCardVersion.V3, photo: bytes | None = None
) -> str:
    """One card as a vCard, CRLF line ends, each line folded; `photo` a JPEG, if any."""
    name = card.display_name or card.username or card.uuid or ""
    parts = split_name(name)
    lines = ["BEGIN:VCARD", f"VERSION:{version.value}", f"FN:{escape(name)}"]
    lines.append(
        f"N:{escape(parts.family)};{escape(parts.given)};;"
        f"{escape(parts.prefixes)};{escape(parts.suffixes)}"
    )
    if card.position:
        lines.append(f"TITLE:{escape(card.position)}")
    for number, address in enumerate(card.emails or ()):
        lines.append(_email(address, preferred=number == 0, version=version))
    organization = space_name(card)
    if organization:
        lines.append(f"ORG:{escape(organization)}")
    if photo:
        lines.append(photo_line(photo, version))
    if card.uuid:
        lines.append(f"UID:{escape(card.uuid)}")
    if card.updated_at is not None:
        lines.append(f"REV:{_timestamp(card.updated_at, version)}")
    lines.append("END:VCARD")
    return "".join(fold(line) + "\r\n" for line in lines)


def _email(address: str, *, preferred: bool, version: VCardVersion) -> str:
    if version is VCardVersion.V3:
        kinds = "INTERNET,WORK,PREF" if preferred else "INTERNET,WORK"
        return f"EMAIL;TYPE={kinds}:{escape(address)}"
    return f"EMAIL;TYPE=work{';PREF=1' if preferred else ''}:{escape(address)}"


def photo_line(jpeg: bytes, version: VCardVersion) -> str:
    """The PHOTO property embedding `jpeg`, unfolded: 3.0 as base64 (RFC 2426 §3.1.4),
    4.0 as a `data:` address (RFC 6350 §6.2.4)."""
    encoded = base64.b64encode(jpeg).decode("ascii")
    if version is VCardVersion.V3:
        return f"PHOTO;ENCODING=b;TYPE=JPEG:{encoded}"
    return f"PHOTO:data:image/jpeg;base64,{encoded}"


def avatar_address(card: Card) -> str | None:
    """The address of the card's own picture; the platform's default image is no one's photo."""
    if card.avatar is None or card.avatar.is_default:
        return None
    return card.avatar.src or None


def space_name(card: Card) -> str | None:
    """The name of the space the card belongs to, where the card carries its space."""
    space = (card.model_extra or {}).get(SPACE_KEY)
    if isinstance(space, Mapping):
        name = space.get("name")
        if isinstance(name, str) and name.strip():
            return name.strip()
    return None


def _timestamp(value: datetime, version: VCardVersion) -> str:
    moment = value.astimezone(UTC) if value.tzinfo is not None else value
    year = f"{moment.year:04}"  # strftime's %Y writes the year 1 as "1"
    if version is VCardVersion.V3:
        return f"{year}-{moment:%m-%dT%H:%M:%SZ}"
    return f"{year}{moment:%m%dT%H%M%SZ}"


def vcards(
    cards: Iterable[Card],
    version: VCardVersion = VCardVersion.V3,
    photos: PhotoLookup | None = None,
    *,
    stop: threading.Event | None = None,
    painted: Painted | None = None,
) -> Iterator[bytes]:
    """Each card as a vCard in UTF-8 (a lone surrogate, which UTF-8 cannot carry, as "?").

    With `photos`, their photos are asked for `PHOTO_BATCH` cards at a time, just
    before those cards are written, and let go after. `stop`, when set, ends it
    before the next card (`Stopped`); `painted` hears the count of cards taken every
    `PROGRESS_EVERY` cards and at the end.
    """
    count = 0
    # Without photos a card at a time: each is read only when it is written.
    for batch in in_batches(cards, PHOTO_BATCH if photos is not None else 1):
        found = photos(batch) if photos is not None else {}
        for card in batch:
            check(stop)
            address = avatar_address(card) if photos is not None else None
            photo = found.get(address) if address is not None else None
            yield card_vcard(card, version, photo).encode("utf-8", "replace")
            count += 1
            if painted is not None and count % PROGRESS_EVERY == 0:
                painted(count)
    if painted is not None:
        painted(count)


def in_batches(cards: Iterable[Card], size: int) -> Iterator[list[Card]]:
    """`cards` in lists of `size` (the last may be shorter), each read only when asked for."""
    batch: list[Card] = []
    for card in cards:
        batch.append(card)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def page_vcards(version: VCardVersion) -> Callable[[CardPage], Iterator[bytes]]:
    """The vCards of a page's cards (for `streamed_export`)."""
    return lambda page: vcards(page.cards, version)


def write_vcards(
    path: Path,
    cards: Iterable[Card],
    version: VCardVersion = VCardVersion.V3,
    photos: PhotoLookup | None = None,
    *,
    stop: threading.Event | None = None,
    painted: Painted | None = None,
) -> int:
    """Write `cards` to `path` one vCard after another; returns how many (see `write_stream`).

    Stopped (`stop`, see `vcards`), the file `path` named before stays as it was.
    """
    return write_stream(path, vcards(cards, version, photos, stop=stop, painted=painted))


def write_stored_vcards(
    path: Path,
    store_path: Path,
    positions: Sequence[int],
    version: VCardVersion = VCardVersion.V3,
    photos: PhotoLookup | None = None,
    *,
    stop: threading.Event | None = None,
    painted: Painted | None = None,
    generation: Generation | None = None,
) -> int:
    """The cards at `positions` of the local copy at `store_path` (of its copy
    `generation`, the one shown, when given) as vCards, in that order.

    Read a block at a time as they are written: a whole space is never in memory.
    """
    with CardStore.open(store_path, create=False) as store:
        cards = stored_cards(store, positions, generation=generation)
        return write_vcards(path, cards, version, photos, stop=stop, painted=painted)
