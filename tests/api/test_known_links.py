"""A large page is read without its `meta.links` only where that list is proved good.

Pages here are the demo server's own bodies for a space of 8,000 pages, whose
`meta.links` is about 600 KB. Every page read must be the page `json.loads` and
`parse_page` make, its links included, and a body `json.loads` refuses must be
refused: the list that is not read must still be checked.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardviewer.api import known_links
from cardviewer.api.client import read_page
from cardviewer.api.errors import UnexpectedResponse
from cardviewer.api.known_links import MARKER, KnownLinks
from cardviewer.api.models import parse_page
from cardviewer.demo.pagination import envelope
from tests.api.test_models import card_json
from tests.api.test_page_body import seen
from tests.api.test_parsing_properties import PROPERTY_SETTINGS, REQUEST
from tests.properties import examples

PATH = "https://cards.example/v1/spaces/space-1/cards"
PAGES = 8_000


def page_body(page: int, *, pages: int = PAGES, path: str = PATH, cards: Any = None) -> bytes:
    data = [card_json(id=f"card-{page}-{n}") for n in range(3)] if cards is None else cards
    payload = envelope(data, page=page, per_page=3, total=pages * 3, path=path)
    return json.dumps(payload, separators=(",", ":")).encode()


def read(body: bytes) -> Any:
    try:
        return read_page(httpx.Response(200, content=body, request=REQUEST))
    except UnexpectedResponse:
        return None


def slow(body: bytes) -> Any:
    try:
        return parse_page(json.loads(body))
    except ValueError:
        return None


@pytest.fixture(autouse=True)
def fresh_memory(monkeypatch):
    """Each test starts with no list known, as a new process does."""
    monkeypatch.setattr("cardviewer.api.models._KNOWN_LINKS", KnownLinks())


@pytest.fixture
def cuts(monkeypatch) -> list[bytes]:
    """The cut bodies `read_page` went on to read, in order."""
    made: list[bytes] = []
    cut = KnownLinks.cut

    def spy(self: KnownLinks, body: bytes) -> bytes | None:
        result = cut(self, body)
        if result is not None:
            made.append(result)
        return result

    monkeypatch.setattr(KnownLinks, "cut", spy)
    return made


def test_after_one_page_is_read_whole_the_next_pages_are_read_without_their_list(cuts):
    first, second, last = page_body(1), page_body(2), page_body(PAGES)
    assert len(first) > 10 * known_links.MIN_LIST_BYTES

    pages = [read(body) for body in (first, second, last)]

    assert len(cuts) == 2  # the first page taught the list; the other two used it
    assert all(len(cut) < 2_000 and json.dumps(MARKER).encode() in cut for cut in cuts)
    for page, body in zip(pages, (first, second, last), strict=True):
        assert seen(page) == seen(slow(body))  # links included
    assert [link.label for link in pages[1].meta.links if link.active] == ["2"]


def test_another_space_or_page_count_is_read_whole_and_learned_in_its_turn(cuts):
    read(page_body(1))
    for body in (page_body(5, pages=PAGES + 1), page_body(5, path=PATH + "x")):
        assert seen(read(body)) == seen(slow(body))
    assert cuts == []
    read(page_body(6, pages=PAGES + 1))
    assert len(cuts) == 1


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (b'"label":"4000"', b'"label":4000"'),  # a broken entry in the middle
        (b'"active":false},{"url":"' + PATH.encode() + b'?page=4001"', b"]"),
        (b'"label":"4000"', b'"label":"4001"'),  # well-formed, but another list
    ],
)
def test_a_list_that_differs_from_the_one_known_is_read_whole(cuts, old, new):
    read(page_body(1))
    body = page_body(2).replace(old, new, 1)
    assert body != page_body(2)
    assert seen_or_none(read(body)) == seen_or_none(slow(body))
    assert cuts == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (b'"label":"&laquo; Previous"', b'"label":&laquo; Previous"'),
        (b'"label":"Next &raquo;"', b'"label":"Next &raquo;'),
        (b'"label":"Next &raquo;","active":false}]', b'"label":"Next &raquo;","active":false]'),
    ],
)
def test_a_broken_first_or_last_entry_is_refused_as_json_refuses_it(old, new):
    read(page_body(1))
    body = page_body(2).replace(old, new, 1)
    assert body != page_body(2)
    assert slow(body) is None
    assert read(body) is None


@pytest.mark.parametrize("meta_first", [False, True])
def test_a_cards_own_links_are_never_cut_even_when_they_look_like_the_known_list(cuts, meta_first):
    read(page_body(1))
    # The same page with a card holding a copy of the list: found first, or after
    # the page's own list when `meta` comes before `data`.
    payload = json.loads(page_body(3))
    card = card_json(id="with-links")
    card["links"] = payload["meta"]["links"]
    parts = {"data": [card], "links": payload["links"], "meta": payload["meta"]}
    if meta_first:
        parts = {key: parts[key] for key in ("meta", "links", "data")}
    body = json.dumps(parts, separators=(",", ":")).encode()

    page = read(body)

    assert page.sent_cards()[0]["links"] == card["links"]
    assert seen(page) == seen(slow(body))
    assert len(cuts) == 1
    # Only the page's own list may be the one cut out and kept out.
    assert json.loads(cuts[0].replace(json.dumps(MARKER).encode(), b"null")) is not None
    cut_payload = json.loads(cuts[0])
    assert (cut_payload["meta"]["links"] == MARKER) is meta_first
    assert cut_payload["data"][0]["links"] == (card["links"] if meta_first else MARKER)


def test_a_list_too_short_to_matter_is_always_read_whole(cuts):
    for page in (1, 2, 3):
        body = page_body(page, pages=50)
        assert seen(read(body)) == seen(slow(body))
    assert cuts == []


def test_lists_that_never_repeat_are_read_again_only_after_1_2_4_8_misses(monkeypatch):
    reads: list[bytes] = []

    def is_json_list(text: bytes) -> bool:
        reads.append(text)
        return True

    monkeypatch.setattr(known_links, "_is_json_list", is_json_list)
    known = KnownLinks()

    for n in range(1, 21):
        body = page_body(1, path=f"{PATH}/{n}")
        assert known.cut(body) is None
        known.learn(body)

    assert len(reads) == 5  # misses 1, 2, 4, 8 and 16
    assert known.cut(page_body(7, path=f"{PATH}/16")) is not None


def test_only_the_newest_lists_are_kept():
    known = KnownLinks(kept=2)
    for n in (1, 2, 3):
        body = page_body(1, path=f"{PATH}/{n}")
        known.cut(body)
        known.learn(body)
        assert known.cut(page_body(2, path=f"{PATH}/{n}")) is not None
    assert known.cut(page_body(3, path=f"{PATH}/1")) is None
    assert known.cut(page_body(2, path=f"{PATH}/3")) is not None


def seen_or_none(page: Any) -> str | None:
    return None if page is None else seen(page)


@settings(PROPERTY_SETTINGS, max_examples=examples(150))
@given(data=st.data())
def test_a_byte_changed_anywhere_in_a_known_pages_list_reads_as_json_reads_it(data):
    known_links_memory = KnownLinks()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("cardviewer.api.models._KNOWN_LINKS", known_links_memory)
        read(page_body(1, pages=1_000))
        body = bytearray(page_body(2, pages=1_000))
        start = body.rfind(b'"links":[')
        where = data.draw(st.integers(start, len(body) - 1), label="where")
        body[where] = data.draw(st.sampled_from(b'"{}[],:\\ 0tfnx\x00\xff'), label="byte")
        changed = bytes(body)
        assert seen_or_none(read(changed)) == seen_or_none(slow(changed))


ENTRY_TEXT = st.text(alphabet='ab"\\:,{}', max_size=4)


@settings(PROPERTY_SETTINGS, max_examples=examples(400))
@given(
    labels=st.lists(ENTRY_TEXT, min_size=1, max_size=12),
    actives=st.sets(st.integers(0, 11), max_size=3),
    change=st.one_of(
        st.none(),
        st.tuples(
            st.sampled_from(["replace", "insert", "delete"]),
            st.integers(0, 400),
            st.sampled_from(b'"ax:,{}\x00'),
        ),
    ),
    around=st.tuples(st.binary(max_size=5), st.binary(max_size=5)),
    piece=st.integers(1, 9),
)
def test_a_middle_is_found_in_a_body_exactly_when_it_is_the_same_but_for_active_entries(
    labels, actives, change, around, piece
):
    """`is_in` compares in place, a piece at a time; it must say what comparing copies says."""
    entries = [f'{{"label":"{label}","active":false}}'.encode() for label in labels]
    text = b"," + b",".join(entries) + b","
    sent = [
        entry.replace(b"false", b"true") if number in actives else entry
        for number, entry in enumerate(entries)
    ]
    middle = bytearray(b"," + b",".join(sent) + b",")
    if change is not None:  # a byte changed, added or taken away
        how, where, byte = change
        where %= len(middle) + 1
        if how == "insert":
            middle.insert(where, byte)
        elif where == len(middle):
            pass
        elif how == "replace":
            middle[where] = byte
        else:
            del middle[where]
    body = around[0] + bytes(middle) + around[1]
    start, end = len(around[0]), len(around[0]) + len(middle)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(known_links._Middle, "PIECE", piece)
        known = known_links._Middle(text)
        expected = body[start:end].replace(b'"active":true', b'"active":false') == text
        assert known.is_in(body, start, end) == expected


def test_a_known_list_whose_end_is_broken_is_refused_not_raised():
    known = KnownLinks()
    first = page_body(1)
    known.learn(first)
    broken = page_body(2).replace(b'"label":"Next &raquo;"', b'"label":Next', 1)
    assert known.cut(page_body(2)) is not None
    assert known.cut(broken) is None
    last = page_body(PAGES)
    assert known.cut(last) is not None
    assert known.cut(last.replace(b'{"url":null', b'{"url":nul', 1)) is None


def body_with_list_of(size: int) -> bytes:
    """A page whose `meta.links` is exactly `size` bytes long, `[` to `]`."""
    first = b'{"url":null,"label":"prev","active":false}'
    last = b'{"url":null,"label":"next","active":false}'
    entries = [first]
    while True:
        entry = b'{"url":"u","label":"%d","active":false}' % len(entries)
        if len(b"[" + b",".join([*entries, entry, last]) + b"]") > size:
            break
        entries.append(entry)
    listed = b"[" + b",".join([*entries, last])
    listed += b" " * (size - len(listed) - 1) + b"]"  # JSON allows the spaces
    assert len(listed) == size
    return b'{"data":[],"meta":{"current_page":1,"links":' + listed + b',"total":0}}'


@pytest.mark.parametrize(
    ("size", "cut"),
    [(known_links.MIN_LIST_BYTES - 1, False), (known_links.MIN_LIST_BYTES, True)],
)
def test_only_lists_of_min_list_bytes_or_more_are_cut(size, cut):
    known = KnownLinks()
    body = body_with_list_of(size)
    json.loads(body)
    known.learn(body)
    assert (known.cut(body) is not None) == cut


def test_four_lists_are_kept_by_default():
    known = KnownLinks()
    for n in range(1, 6):
        known.cut(page_body(1, path=f"{PATH}/{n}"))
        known.learn(page_body(1, path=f"{PATH}/{n}"))
        assert known.cut(page_body(2, path=f"{PATH}/{n}")) is not None
    assert known.cut(page_body(3, path=f"{PATH}/1")) is None
    assert known.cut(page_body(3, path=f"{PATH}/2")) is not None


def test_a_body_without_a_list_or_without_an_end_to_it_is_not_cut():
    known = KnownLinks()
    known.learn(page_body(1))
    body = page_body(2)
    assert known.cut(body.replace(b'"links":[', b'"links": [')) is None
    assert known.cut(body[: body.rfind(b"]")]) is None


@pytest.mark.parametrize("piece", [1, 4, 16 * 1024])
def test_a_middle_with_bytes_added_or_taken_away_is_not_the_known_one(piece):
    entries = [b'{"label":"%d","active":false}' % n for n in range(40)]
    text = b"," + b",".join(entries) + b","
    active = text.replace(b'"label":"7","active":false', b'"label":"7","active":true')
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(known_links._Middle, "PIECE", piece)
        known = known_links._Middle(text)
    for body in (text, active):
        assert known.is_in(b"[" + body + b"]", 1, 1 + len(body))
        for changed in (body + b",", b"," + body, body[:-1], body[1:], body[:50] + body[51:]):
            assert not known.is_in(b"[" + changed + b"]", 1, 1 + len(changed)), changed
        longer = b"[" + body + b"x]"
        assert not known.is_in(longer, 1, len(longer) - 1)


def test_a_list_whose_label_holds_a_bracket_is_not_learned_and_nothing_is_raised():
    """The list is taken to end at its first `]`; a label holding one makes that no list."""
    body = page_body(1).replace(b'"label":"2"', b'"label":"2]"', 1)
    json.loads(body)
    known = KnownLinks()
    known.learn(body)
    assert known.cut(page_body(3).replace(b'"label":"2"', b'"label":"2]"', 1)) is None
    assert seen(read(body)) == seen(slow(body))
