"""The cards of a large demo space, made on a thread of their own while the server runs.

Making 100,000 sample cards takes some six seconds (one after another: handles and
addresses are unique across the space). The server does not wait for them: it answers
at once, each page as soon as its cards are made, and says how many the space holds
from the start. The cards are those `generate_cards` makes, in the same order.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from typing import overload

from cardviewer.demo.data import DemoCard, make_cards

BATCH = 500
"""Cards handed over at once: waiting requests are woken a batch at a time."""


class CardsInTheMaking(Sequence[DemoCard]):
    """`count` cards of `seed`, made in the background; reading one waits until it is made.

    `avatars` holds the cards made so far by the id of their own picture, for the image
    host. `wait()` waits for every card (a benchmark measures the client, not this).
    """

    def __init__(self, count: int, seed: int) -> None:
        self._count = count
        self._made: list[DemoCard] = []
        self._ready = threading.Condition()
        self._failure: BaseException | None = None
        self.avatars: dict[str, DemoCard] = {}
        self._thread = threading.Thread(
            target=self._make, args=(seed,), name="demo-cards", daemon=True
        )
        self._thread.start()

    def _make(self, seed: int) -> None:
        batch: list[DemoCard] = []
        try:
            for card in make_cards(self._count, seed):
                batch.append(card)
                if card.avatar_uuid is not None:
                    self.avatars[card.avatar_uuid] = card
                if len(batch) == BATCH:
                    self._hand_over(batch)
                    batch = []
        except BaseException as error:  # said to every reader rather than lost on a thread
            self._failure = error
        self._hand_over(batch)

    def _hand_over(self, batch: list[DemoCard]) -> None:
        with self._ready:
            self._made.extend(batch)
            self._ready.notify_all()

    @property
    def made(self) -> int:
        """How many cards are made so far."""
        return len(self._made)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every card is made; False if `timeout` seconds passed first."""
        return self._wait_for(lambda: len(self._made) >= self._count, timeout)

    def _wait_for(self, made: Callable[[], bool], timeout: float | None = None) -> bool:
        with self._ready:
            done = self._ready.wait_for(lambda: made() or self._failure is not None, timeout)
        if self._failure is not None and not made():
            raise RuntimeError("the demo cards could not be made") from self._failure
        return done

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> DemoCard: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[DemoCard]: ...

    def __getitem__(self, index: int | slice) -> DemoCard | Sequence[DemoCard]:
        if isinstance(index, slice):
            places = range(*index.indices(self._count))
            if places:
                last = max(places[0], places[-1])
                self._wait_for(lambda: len(self._made) > last)
            return tuple(self._made[place] for place in places)
        place = index + self._count if index < 0 else index
        if not 0 <= place < self._count:
            raise IndexError("demo card index out of range")
        self._wait_for(lambda: len(self._made) > place)
        return self._made[place]

    def __iter__(self) -> Iterator[DemoCard]:
        for place in range(self._count):
            yield self[place]
