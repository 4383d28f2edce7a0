"""The card table's column layout, remembered by column key rather than by position.

Qt's own `QHeaderView.saveState()` remembers sections by number. The card table's
columns are not fixed: "Include e-mails" adds one, and a field only some spaces have
adds others. So the order, width and visibility a person chose are kept per column
key, and applied to whichever of those columns the page on screen has; a column never
seen before keeps its natural place and a width that fits its content.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import QHeaderView

log = logging.getLogger(__name__)

MAX_REMEMBERED_COLUMNS = 200
"""Keys of columns from other spaces are kept, but not without end."""


@dataclass(frozen=True)
class ColumnPlace:
    """Where one column was shown, how wide, and whether it was hidden."""

    position: int
    width: int
    hidden: bool = False


class ColumnLayout:
    """Column places by key; `capture()` reads a header, `apply()` arranges one."""

    def __init__(self, places: dict[str, ColumnPlace] | None = None) -> None:
        self.places: dict[str, ColumnPlace] = dict(places or {})

    # Saving as text

    def to_json(self) -> str:
        return json.dumps(
            {key: [p.position, p.width, p.hidden] for key, p in self.places.items()},
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> ColumnLayout:
        """The layout `to_json()` wrote; anything unreadable gives an empty layout."""
        if not text:
            return cls()
        try:
            document: Any = json.loads(text)
        except ValueError:
            log.warning("ignoring a damaged column layout")
            return cls()
        if not isinstance(document, dict):
            return cls()
        places: dict[str, ColumnPlace] = {}
        for key, value in list(document.items())[:MAX_REMEMBERED_COLUMNS]:
            if (
                isinstance(value, list)
                and len(value) == 3
                and all(type(v) is int for v in value[:2])
                and isinstance(value[2], bool)
                and value[0] >= 0
                and value[1] > 0
            ):
                places[key] = ColumnPlace(value[0], value[1], value[2])
        return cls(places)

    # Reading and arranging a header

    def capture(self, header: QHeaderView, keys: Sequence[str], only: int | None = None) -> None:
        """Remember how `header`, whose logical sections are `keys`, is arranged now.

        With `only`, just that section is remembered (a width the person dragged).
        """
        for logical, key in enumerate(keys):
            if only is not None and logical != only:
                continue
            size = header.sectionSize(logical)
            if header.isSectionHidden(logical):
                # A hidden section reports 0; keep the width it had when shown.
                previous = self.places.get(key)
                size = previous.width if previous is not None else header.defaultSectionSize()
            self.places[key] = ColumnPlace(
                header.visualIndex(logical), max(size, 1), header.isSectionHidden(logical)
            )
        if len(self.places) > MAX_REMEMBERED_COLUMNS:
            current = set(keys)
            for key in [k for k in self.places if k not in current]:
                del self.places[key]
                if len(self.places) <= MAX_REMEMBERED_COLUMNS:
                    break

    def apply(self, header: QHeaderView, keys: Sequence[str]) -> set[int]:
        """Arrange `header` as remembered; returns the logical sections it knew nothing of.

        Known columns get their width and visibility, and are ordered among themselves
        as they were; unknown ones keep their natural place (the caller sizes them).
        """
        known = [
            (self.places[key].position, logical)
            for logical, key in enumerate(keys)
            if key in self.places
        ]
        # Visual slots the known columns occupy now, refilled in their remembered order.
        slots = sorted(header.visualIndex(logical) for _, logical in known)
        for slot, (_, logical) in zip(slots, sorted(known), strict=True):
            header.moveSection(header.visualIndex(logical), slot)
        for _, logical in known:
            place = self.places[keys[logical]]
            header.resizeSection(logical, place.width)
            header.setSectionHidden(logical, place.hidden)
        if keys and all(header.isSectionHidden(i) for i in range(len(keys))):
            header.setSectionHidden(0, False)  # never an empty table
        return {logical for logical, key in enumerate(keys) if key not in self.places}

    def clear(self) -> None:
        self.places.clear()


def reset_header(header: QHeaderView) -> None:
    """Every section shown, in its natural order."""
    for logical in range(header.count()):
        header.setSectionHidden(logical, False)
        header.moveSection(header.visualIndex(logical), logical)
