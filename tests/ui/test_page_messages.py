"""The window's sentences about a page: empty states, unread entries, failures and waits."""

from __future__ import annotations

from typing import Any

import pytest

from cardviewer import APP_NAME
from cardviewer.api import CardPage
from cardviewer.api.errors import ConnectFailed, RateLimited, ServerError
from cardviewer.api.models import parse_card
from cardviewer.services.page_loader import PageRequest
from cardviewer.ui.page_messages import PageMessages, Plurals, StateText

SPACE = "messages-space"


def page(*cards: dict[str, Any], skipped: int = 0, total: int = 3, last: int = 1) -> CardPage:
    meta = {"current_page": 1, "last_page": last, "per_page": 3, "total": total}
    return CardPage.model_validate(
        {"cards": tuple(map(parse_card, cards)), "meta": meta, "links": {}, "skipped": skipped}
    )


GOOD = {"uuid": "c1", "display_name": "Anna"}
BAD = {"uuid": "c2", "display_name": "Ben", "connects": "x"}


@pytest.fixture
def messages() -> PageMessages:
    return PageMessages(
        Plurals(
            entries_skipped=lambda n: f"{n} entries skipped",
            seconds_to_wait=lambda n: f"{n} seconds",
            minutes_to_wait=lambda n: f"{n} minutes",
        )
    )


def test_an_empty_space_and_a_page_past_the_last_read_differently(messages):
    assert messages.empty_page(page(total=0).meta) == StateText(
        "No cards", "This space has no cards yet."
    )
    past = messages.empty_page(page(total=7, last=3).meta)
    assert past == StateText(
        "Nothing here", "There are no cards on this page.", "Go to the Last Page (3)"
    )


def test_before_a_space_is_open_the_hint_says_how_to_open_one(messages):
    assert messages.no_space() == StateText("No space open", "Enter a space id and press Open.")


def test_the_window_title_names_the_space_then_the_app(messages):
    assert messages.window_title(SPACE) == f"{SPACE} \u2014 {APP_NAME}"


def test_a_page_read_in_full_has_no_note(messages):
    assert messages.unread_note(page(GOOD)) is None


def test_entries_left_out_are_counted_and_come_before_bad_fields(messages):
    one = messages.unread_note(page(BAD, skipped=1))
    assert one == "1 entry on this page could not be read and is not shown."
    assert messages.unread_note(page(BAD, skipped=4)) == "4 entries skipped"


def test_bad_fields_are_pointed_at(messages):
    note = messages.unread_note(page(GOOD, BAD))
    assert note == (
        "Some details on this page could not be read; they are marked \u201c(invalid)\u201d."
    )


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(None, None), (1.5, None), (2, "2 seconds"), (119.4, "119 seconds"), (200, "3 minutes")],
)
def test_the_server_wait_is_said_when_it_is_worth_saying(messages, seconds, said):
    error = RateLimited("Too many requests.", 429, seconds)
    assert messages.server_wait(error) == said


def test_only_the_server_can_ask_for_a_wait(messages):
    error = ConnectFailed("No connection.")
    error.retry_after = 30  # type: ignore[attr-defined]
    assert messages.server_wait(error) is None


def test_a_failure_says_the_error_the_wait_and_what_is_still_shown(messages):
    error = RateLimited("Too many requests.", 429, 30)
    asked = PageRequest(SPACE, 3, False)
    same_space = messages.failure(asked, error, PageRequest(SPACE, 2, False))
    assert same_space == "Too many requests. 30 seconds Page 2 is still shown."
    other_space = messages.failure(asked, error, PageRequest("other", 1, False))
    assert other_space == "Too many requests. 30 seconds The cards of other are still shown."


def test_with_nothing_on_screen_a_failure_is_the_error_alone(messages):
    error = ServerError("The server failed.", 500)
    assert messages.failure(PageRequest(SPACE, 1, False), error, None) == "The server failed."
