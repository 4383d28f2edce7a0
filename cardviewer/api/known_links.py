"""A page's body with `meta.links` cut out, where that list is known to be well-formed.

The specification's `meta.links` has an entry for every page of the space, so at
100,000 cards a page of ten cards is a 1.1 MB body of which the cards are 10 KB, and
reading the list took nearly all of the time a page cost, though nothing in the
cards depends on it. Two pages of one space differ in that list only in its first
and last entries (previous and next) and in which entry is active. So once one
page's list has been read whole, the next page's list is proved well-formed by
comparing its middle with the one already read, byte for byte, and reading its two
small ends. A body that does not match (the first page, another space, a new page
count, another server's shape) is read whole, as before. The list itself is still
read from the body if it is ever used (`models._LazyLinks`).
"""

from __future__ import annotations

import json
import threading
from collections import deque

MARKER = "\x00meta.links cut out\x00"
"""What stands in the cut body where `meta.links` was; no server sends it."""

MIN_LIST_BYTES = 64 * 1024
"""Shorter lists are read whole: cutting them saves too little to be worth it."""

_KEY = b'"links":['
_MARKER_JSON = json.dumps(MARKER).encode()
_ACTIVE = b'"active":true'
_INACTIVE = b'"active":false'


class KnownLinks:
    """The middles of `meta.links` read whole lately, for proving the next ones.

    Safe to use from several threads. A body whose list matches none of them is
    remembered only after 1, 2, 4, 8, … such misses in a row, so a server whose
    lists never repeat costs one extra read of its list now and then, not every time.
    """

    def __init__(self, kept: int = 4) -> None:
        self._known: deque[_Middle] = deque(maxlen=kept)
        self._misses = 0
        self._lock = threading.Lock()

    def cut(self, body: bytes) -> bytes | None:
        """`body` with its `meta.links` replaced by `MARKER`, or None if not proved safe.

        The caller must still check that the cut body, read as JSON, has `MARKER` as
        `meta.links`: only then is the cut list that one, and the body well-formed.
        The list is compared where it lies, never copied: copying a megabyte costs
        about as much as the rest of the page.
        """
        found = _long_list(body)
        parts = None if found is None else _middle_of(body, *found)
        if found is None or parts is None:
            return None
        with self._lock:
            known = any(middle.is_in(body, *parts) for middle in self._known)
            self._misses = 0 if known else self._misses + 1
        if not known:
            return None
        start, end = found
        return b"".join((body[:start], _MARKER_JSON, body[end:]))

    def learn(self, body: bytes) -> None:
        """Remember `body`'s list if this miss is one to learn from and it reads whole.

        Call it for a body read whole and found to be a page, after `cut` refused it.
        """
        with self._lock:
            misses = self._misses
        if misses & (misses - 1):  # not a power of two
            return
        found = _long_list(body)
        parts = None if found is None else _middle_of(body, *found)
        if found is None or parts is None or not _is_json_list(body[found[0] : found[1]]):
            return
        middle = _Middle(body[parts[0] : parts[1]].replace(_ACTIVE, _INACTIVE))
        with self._lock:
            if middle not in self._known:
                self._known.append(middle)


class _Middle:
    """A list's middle as read whole, with no entry active, in pieces to compare in place."""

    PIECE = 16 * 1024

    def __init__(self, text: bytes) -> None:
        self.text = text
        self.piece = self.PIECE
        self.pieces = tuple(text[at : at + self.piece] for at in range(0, len(text), self.piece))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Middle) and other.text == self.text

    __hash__ = None  # type: ignore[assignment]

    def is_in(self, body: bytes, start: int, end: int) -> bool:
        """Whether `body[start:end]` is this middle, but for one entry at most being active."""
        size = len(self.text)
        if end - start == size:
            return self._equal(body, start, 0, size)
        if end - start != size - (len(_INACTIVE) - len(_ACTIVE)):
            return body[start:end].replace(_ACTIVE, _INACTIVE) == self.text
        active, same = self._active_entry(body, start, end)
        if active < 0:
            return False
        at = active - start
        same = min(same, at)
        return (
            self.text.startswith(_INACTIVE, at)
            and self._equal(body, start + same, same, at)
            and self._equal(body, active + len(_ACTIVE), at + len(_INACTIVE), size)
        )

    def _active_entry(self, body: bytes, start: int, end: int) -> tuple[int, int]:
        """Where `"active":true` is in `body[start:end]`, and how many bytes before it are
        this middle's already.

        Up to the active entry, the body holds this middle byte for byte; the first
        piece that differs holds the entry's `true` (its start may lie in the piece
        before), so only the pieces before it are compared and only that piece is
        searched: searching the whole list took as long as comparing it.
        """
        piece = self.piece
        number = 0
        while number < len(self.pieces) and body.startswith(
            self.pieces[number], start + number * piece
        ):
            number += 1
        low = max(start, start + number * piece - len(_ACTIVE))
        high = min(end, start + (number + 1) * piece + len(_ACTIVE))
        return body.find(_ACTIVE, low, high), number * piece

    def _equal(self, body: bytes, where: int, low: int, high: int) -> bool:
        """Whether `body` from `where` on holds `self.text[low:high]`.

        Whole pieces are compared in place; only the parts of a piece at either end
        are copied.
        """
        piece = self.piece
        first = -(-low // piece)  # the first whole piece at or after `low`
        last = high // piece  # pieces before this one end at or before `high`
        if first >= last:
            return body[where : where + high - low] == self.text[low:high]
        head, tail = first * piece, last * piece
        if body[where : where + head - low] != self.text[low:head]:
            return False
        for number in range(first, last):
            if not body.startswith(self.pieces[number], where + number * piece - low):
                return False
        return body[where + tail - low : where + high - low] == self.text[tail:high]


def _long_list(body: bytes) -> tuple[int, int] | None:
    """Where the first `"links":[…]` of a body at least `MIN_LIST_BYTES` long starts and ends.

    Looked for from the start: the cards come first and are small, so it is found
    after some 10 KB, where looking back from the end crossed the whole megabyte
    (0.18 ms a page). A card's own long `links` list, found first when there is one,
    is cut in vain and the body read whole: the caller's check finds `meta.links`
    not cut. A list's end is taken to be the first `]` after it: the list's entries
    hold no brackets. A list that does not fit that is refused later, by
    `_middle_of` or by the comparison, never trusted.
    """
    key = body.find(_KEY)
    while key >= 0:
        start = key + len(_KEY) - 1
        end = body.find(b"]", start) + 1
        if end == 0:
            return None
        if end - start >= MIN_LIST_BYTES:
            return start, end
        key = body.find(_KEY, end)
    return None


def _middle_of(body: bytes, start: int, end: int) -> tuple[int, int] | None:
    """Where the middle of the list at `body[start:end]` lies, if both its ends read alone.

    The middle runs from the comma after the first entry to the comma before the
    last; lists whose ends are well-formed and whose middles are equal are equally
    well-formed.
    """
    first_end = body.find(b"},{", start, end)
    last_start = body.rfind(b"},{", start, end)
    if first_end < 0 or last_start <= first_end:
        return None
    first = body[start + 1 : first_end + 1]
    last = body[last_start + 2 : end - 1]
    if not (_is_json_object(first) and _is_json_object(last)):
        return None
    return first_end + 1, last_start + 2


def _is_json_object(text: bytes) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def _is_json_list(text: bytes) -> bool:
    try:
        return isinstance(json.loads(text), list)
    except (ValueError, RecursionError):
        return False
