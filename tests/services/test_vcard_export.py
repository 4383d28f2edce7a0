"""vCards of cards, read back as a contacts program reads them, and against a golden file."""

from __future__ import annotations

import base64
import io
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import vobject
from PIL import Image

from cardviewer.api.models import Card, CardPage, PageLinks, PageMeta, parse_card
from cardviewer.services.card_store import CardStore
from cardviewer.services.stoppable import PROGRESS_EVERY, Stopped
from cardviewer.services.streamed_export import write_page
from cardviewer.services.vcard_export import (
    LINE_OCTETS,
    PHOTO_BATCH,
    VCardVersion,
    avatar_address,
    card_vcard,
    escape,
    fold,
    page_vcards,
    split_name,
    vcards,
    write_stored_vcards,
    write_vcards,
)
from tests.demo_cards import demo_space_cards

GOLDEN = Path(__file__).with_name("golden")


def card(**fields: Any) -> Card:
    return parse_card({"uuid": "enuh1mF01XXXXXX", **fields})


def demo_cards() -> list[Card]:
    return list(demo_space_cards())


def read_back(text: str) -> list[Any]:
    return list(vobject.readComponents(text))


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("plain", "plain"),
        ("a,b;c\\d", "a\\,b\\;c\\\\d"),
        ("two\nlines\r\nthree\rfour", "two\\nlines\\nthree\\nfour"),
    ],
)
def test_text_is_escaped_as_the_rfcs_say(text, written):
    assert escape(text) == written


def test_long_lines_fold_at_75_octets_without_splitting_a_character():
    line = "NOTE:" + "Zoë Müller 陈雪 " * 20
    folded = fold(line)
    pieces = folded.split("\r\n")
    assert all(len(piece.encode()) <= LINE_OCTETS for piece in pieces)
    assert all(piece.startswith(" ") for piece in pieces[1:])
    assert "".join(piece.removeprefix(" ") if n else piece for n, piece in enumerate(pieces)) == (
        line
    )
    assert fold("short") == "short"


def test_the_first_line_holds_75_octets_and_each_continued_one_74_after_its_space():
    folded = fold("X" * (75 + 74 + 10))
    assert [len(piece) for piece in folded.split("\r\n")] == [75, 1 + 74, 1 + 10]


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("Zoë Müller", ("Müller", "Zoë", "", "")),
        ("陈雪", ("陈雪", "", "", "")),
        ("Ana María López", ("López", "Ana María", "", "")),
        ("Dr. Ana O'Neil, PhD", ("O'Neil", "Ana", "Dr.", "PhD")),
        ("Prof. Dr. Jürgen Weber", ("Weber", "Jürgen", "Prof. Dr.", "")),
        ("Dr. Weber", ("Weber", "", "Dr.", "")),
        ("Dr.", ("Dr.", "", "", "")),
        ("", ("", "", "", "")),
        # "Family, Given": the given name was taken for a suffix, and N had none.
        ("Smith, Jane", ("Smith", "Jane", "", "")),
        ("Müller, Dr. Hans Peter", ("Müller", "Hans Peter", "Dr.", "")),
        ("Weber, PhD", ("Weber", "", "", "PhD")),
        ("Weber, Jr., MBA", ("Weber", "", "", "Jr., MBA")),
        ("Martin Luther King, Jr.", ("King", "Martin Luther", "", "Jr.")),
        ("Smith, Jane, PhD", ("Smith", "Jane", "", "PhD")),
        ("Smith, Mr.", ("Smith", "", "Mr.", "")),
        # A company's legal form after the comma is no given name.
        ("Acme, Inc.", ("Acme", "", "", "Inc.")),
        ("Müller, GmbH & Co. KG", ("Müller", "", "", "GmbH & Co. KG")),
        ("Foo, LLC", ("Foo", "", "", "LLC")),
        ("Maersk, A/S", ("Maersk", "", "", "A/S")),
        ("Verein, e.V.", ("Verein", "", "", "e.V.")),
        # After a comma, an initial is a given name, not a title.
        ("Smith, J.", ("Smith", "J.", "", "")),
        ("Smith, J. Robert", ("Smith", "J. Robert", "", "")),
        ("Smith, Dr. J. Robert", ("Smith", "J. Robert", "Dr.", "")),
        # Chinese, Japanese and Korean names: the family name first.
        ("渡辺\u3000由美", ("渡辺", "由美", "", "")),
        ("王 小明", ("王", "小明", "", "")),
        ("김 민준", ("김", "민준", "", "")),
        ("Zhang Wei", ("Wei", "Zhang", "", "")),
    ],
)
def test_a_name_splits_into_its_parts(name, parts):
    assert split_name(name) == parts


@pytest.mark.parametrize("version", list(VCardVersion))
def test_every_demo_card_reads_back_as_it_is(version):
    cards = demo_cards()
    text = "".join(card_vcard(one, version) for one in cards)
    assert all(len(line.encode()) <= LINE_OCTETS for line in text.split("\r\n"))
    read = read_back(text)
    assert len(read) == len(cards)
    for one, contact in zip(cards, read, strict=True):
        assert contact.version.value == version.value
        assert contact.fn.value == one.display_name
        parts = split_name(one.display_name or "")
        assert (contact.n.value.family, contact.n.value.given) == parts[:2]
        assert (contact.n.value.prefix, contact.n.value.suffix) == parts[2:]
        assert contact.uid.value == one.uuid
        if one.position:
            assert contact.title.value == one.position
        emails = [line.value for line in contact.contents.get("email", [])]
        assert emails == list(one.emails or ())
        space = (one.model_extra or {}).get("space")
        if isinstance(space, dict) and space.get("name"):
            assert contact.org.value == [space["name"]]


def test_the_first_address_is_preferred_and_every_one_is_for_work():
    one = card(display_name="Ada Lovelace", emails=["ada@work.example", "ada@home.example"])
    three = read_back(card_vcard(one))[0].contents["email"]
    assert [line.params["TYPE"] for line in three] == [
        ["INTERNET", "WORK", "PREF"],
        ["INTERNET", "WORK"],
    ]
    four = read_back(card_vcard(one, VCardVersion.V4))[0].contents["email"]
    assert [line.params.get("PREF") for line in four] == [["1"], None]


def test_a_card_without_a_name_or_username_is_named_by_its_id():
    contact = read_back(card_vcard(parse_card({"uuid": "x3"})))[0]
    assert contact.fn.value == "x3"
    assert contact.n.value.family == "x3"


@pytest.mark.parametrize("name", [42, None, ["Acme"], "  "])
def test_a_space_without_a_usable_name_gives_no_organization(name):
    one = card(display_name="Ada Lovelace", space={"uuid": "acme1", "name": name})
    assert "ORG" not in read_back(card_vcard(one))[0].contents


@pytest.mark.parametrize(
    ("version", "updated", "written"),
    [
        (VCardVersion.V3, "2024-04-19T22:53:03+02:00", "REV:2024-04-19T20:53:03Z"),
        (VCardVersion.V4, "2024-04-19T22:53:03+02:00", "REV:20240419T205303Z"),
        # A placeholder keeps a four-digit year: strftime wrote "REV:1-01-01T00:00:00Z".
        (VCardVersion.V3, "0001-01-01T00:00:00Z", "REV:0001-01-01T00:00:00Z"),
        (VCardVersion.V4, "0001-01-01T00:00:00Z", "REV:00010101T000000Z"),
    ],
)
def test_the_last_change_is_written_in_utc(version, updated, written):
    one = card(display_name="Ada Lovelace", updated_at=updated)
    assert written in card_vcard(one, version).split("\r\n")


def test_cards_match_the_golden_files():
    cards = [
        card(
            display_name="Dr. Ana O'Neil, PhD",
            position="Head of Legal; EMEA",
            emails=["ana@legal.example"],
            updated_at="2024-04-19T22:53:03.000000Z",
            space={"uuid": "acme1", "name": "Acme Europe GmbH"},
        ),
        parse_card({"uuid": "x2", "username": "no-name", "connects": "many"}),
        card(display_name="陈雪 " * 12, position="A\nposition\\with, everything;"),
    ]
    for version, name in ((VCardVersion.V3, "cards-3.0.vcf"), (VCardVersion.V4, "cards-4.0.vcf")):
        written = "".join(card_vcard(one, version) for one in cards)
        assert written.encode() == (GOLDEN / name).read_bytes(), name


def test_a_page_of_vcards_is_written_whole_or_not_at_all(tmp_path):
    cards = tuple(demo_cards()[:5])
    meta = PageMeta(current_page=1, last_page=1, per_page=10, total=5)
    page = CardPage.model_construct(cards=cards, meta=meta, links=PageLinks())
    target = tmp_path / "cards.vcf"
    assert write_page(target, page, page_vcards(VCardVersion.V3)) == 5
    assert len(read_back(target.read_text(encoding="utf-8"))) == 5
    with pytest.raises(FileNotFoundError, match="does not exist"):
        write_page(tmp_path / "gone" / "cards.vcf", page, page_vcards(VCardVersion.V4))


# Photos


PHOTO = (GOLDEN / "photo.jpg").read_bytes()
"""A photo as `vcard_photo` makes it: a 96-pixel square JPEG."""


def with_avatar(uuid: str, src: str | None = None, **fields: Any) -> Card:
    avatar = {"uuid": f"av-{uuid}", "src": src or f"https://cdn.example/{uuid}.jpg"}
    return parse_card({"uuid": uuid, "display_name": f"Card {uuid}", "avatar": avatar, **fields})


def jpeg_size(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "JPEG"
    image.load()
    return image.size


def test_a_photo_reads_back_as_the_jpeg_in_vcard_3():
    text = card_vcard(with_avatar("c1"), VCardVersion.V3, PHOTO)
    assert all(len(line.encode()) <= LINE_OCTETS for line in text.split("\r\n"))
    photo = read_back(text)[0].photo
    assert {k.upper(): [v.upper() for v in vs] for k, vs in photo.params.items()} == {
        "ENCODING": ["B"],
        "TYPE": ["JPEG"],
    }
    assert photo.value == PHOTO
    assert jpeg_size(photo.value) == (96, 96)


def photo_uris(text: str) -> list[str]:
    """The PHOTO values of vCard 4.0 text, unfolded and parsed by vobject.

    vobject reads a value as vCard 3.0's text, which ends a 4.0 `data:` address at its
    comma (a URI is not escaped, RFC 6350 §6.2.4), so the line is taken as it parses it.
    """
    lines = vobject.base.getLogicalLines(io.StringIO(text))
    parsed = (vobject.base.parseLine(line) for line, _number in lines)
    return [value for name, _params, value, _group in parsed if name.upper() == "PHOTO"]


def data_address_photo(value: str) -> bytes:
    prefix = "data:image/jpeg;base64,"
    assert value.startswith(prefix)
    return base64.b64decode(value.removeprefix(prefix), validate=True)


def test_a_photo_reads_back_as_a_data_address_in_vcard_4():
    text = card_vcard(with_avatar("c1"), VCardVersion.V4, PHOTO)
    assert all(len(line.encode()) <= LINE_OCTETS for line in text.split("\r\n"))
    assert read_back(text)[0].version.value == "4.0"
    [value] = photo_uris(text)
    assert data_address_photo(value) == PHOTO
    assert jpeg_size(data_address_photo(value)) == (96, 96)


def test_without_a_photo_there_is_no_photo_line():
    for version in VCardVersion:
        assert "PHOTO" not in read_back(card_vcard(with_avatar("c1"), version))[0].contents


def test_cards_with_a_photo_match_the_golden_files():
    cards = [
        card(
            display_name="Dr. Ana O'Neil, PhD",
            position="Head of Legal; EMEA",
            emails=["ana@legal.example"],
            updated_at="2024-04-19T22:53:03.000000Z",
            space={"uuid": "acme1", "name": "Acme Europe GmbH"},
        ),
        card(display_name="陈雪 " * 12, position="A\nposition\\with, everything;"),
    ]
    for version, name in (
        (VCardVersion.V3, "cards-photo-3.0.vcf"),
        (VCardVersion.V4, "cards-photo-4.0.vcf"),
    ):
        written = "".join(card_vcard(one, version, PHOTO) for one in cards)
        assert written.encode() == (GOLDEN / name).read_bytes(), name


def test_only_a_card_s_own_picture_is_its_photo():
    assert avatar_address(with_avatar("c1", "https://cdn.example/a.jpg")) == (
        "https://cdn.example/a.jpg"
    )
    default = parse_card({"uuid": "c2", "avatar": {"uuid": None, "src": "https://cdn/d.png"}})
    assert avatar_address(default) is None
    assert avatar_address(parse_card({"uuid": "c3"})) is None
    assert avatar_address(parse_card({"uuid": "c4", "avatar": {"uuid": "a", "src": ""}})) is None


class Lookup:
    """Photos for the cards whose avatar address is in `known`; records each question."""

    def __init__(self, known: Mapping[str, bytes]) -> None:
        self.known = known
        self.asked: list[list[str]] = []

    def __call__(self, cards: Sequence[Card]) -> Mapping[str, bytes]:
        self.asked.append([one.uuid or "" for one in cards])
        addresses = [avatar_address(one) for one in cards]
        return {url: self.known[url] for url in addresses if url is not None and url in self.known}


def test_photos_are_asked_for_a_batch_at_a_time_as_the_cards_are_written(tmp_path):
    cards = [with_avatar(f"c{n}") for n in range(PHOTO_BATCH * 2 + 3)]
    lookup = Lookup({"https://cdn.example/c1.jpg": PHOTO, "https://cdn.example/c130.jpg": PHOTO})
    written = vcards(iter(cards), VCardVersion.V3, lookup)
    next(written)
    assert len(lookup.asked) == 1, "the next batch's photos are not asked for yet"
    target = tmp_path / "cards.vcf"
    assert write_vcards(target, cards, VCardVersion.V3, lookup) == len(cards)
    assert [len(batch) for batch in lookup.asked[1:]] == [PHOTO_BATCH, PHOTO_BATCH, 3]
    contacts = read_back(target.read_text(encoding="utf-8"))
    with_photo = [c.uid.value for c in contacts if "photo" in c.contents]
    assert with_photo == ["c1", "c130"]
    assert [c.uid.value for c in contacts] == [one.uuid for one in cards]


@pytest.mark.parametrize("photos", [False, True])
def test_the_cards_written_are_told_every_few_hundred_and_at_the_end(tmp_path, photos):
    cards = [with_avatar(f"c{n}") for n in range(600)]
    counts: list[int] = []
    lookup = Lookup({}) if photos else None
    target = tmp_path / "cards.vcf"
    written = write_vcards(target, cards, VCardVersion.V3, lookup, painted=counts.append)
    assert written == 600
    assert counts == [PROGRESS_EVERY, 2 * PROGRESS_EVERY, 600]
    assert len(read_back(target.read_text(encoding="utf-8"))) == 600


@pytest.mark.parametrize("photos", [False, True])
def test_a_stop_ends_the_writing_between_cards_and_keeps_the_earlier_file(tmp_path, photos):
    cards = [with_avatar(f"c{n}") for n in range(600)]
    target = tmp_path / "cards.vcf"
    target.write_bytes(b"the cards before")
    stop = threading.Event()
    counts: list[int] = []

    def painted(count: int) -> None:
        counts.append(count)
        stop.set()

    lookup = Lookup({}) if photos else None
    with pytest.raises(Stopped):
        write_vcards(target, cards, VCardVersion.V3, lookup, stop=stop, painted=painted)
    assert counts == [PROGRESS_EVERY]
    if lookup is not None:
        assert len(lookup.asked) == PROGRESS_EVERY // PHOTO_BATCH + 1, "no photos asked after"
    stop.clear()
    del counts[:]
    made: list[bytes] = []
    with pytest.raises(Stopped):
        made.extend(vcards(cards, VCardVersion.V3, lookup, stop=stop, painted=painted))
    assert len(made) == PROGRESS_EVERY, "stopped before the next card, not the next batch"
    assert target.read_bytes() == b"the cards before"
    assert [path.name for path in tmp_path.iterdir()] == ["cards.vcf"]


def test_stored_cards_written_stop_too(tmp_path):
    store_path = tmp_path / "space.sqlite"
    with CardStore.open(store_path) as store:
        sync = store.begin_sync()
        sync.add([with_avatar(f"c{n}") for n in range(300)])
        sync.finish()
    stop = threading.Event()
    stop.set()
    target = tmp_path / "cards.vcf"
    with pytest.raises(Stopped):
        write_stored_vcards(target, store_path, range(300), stop=stop)
    assert not target.exists()
    counts: list[int] = []
    assert write_stored_vcards(target, store_path, range(300), painted=counts.append) == 300
    assert counts == [PROGRESS_EVERY, 300]
