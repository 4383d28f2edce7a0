"""The account label: who is signed in where, and "signed out" once the session ended."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from cardviewer.ui.session_state import AccountLabel, session_ended_message

EMAIL = "anna@example.com"
SERVER = "https://cards.example.com/api"


@pytest.fixture
def label(qtbot) -> AccountLabel:
    widget = AccountLabel()
    qtbot.addWidget(widget)
    return widget


def test_it_names_the_account_and_the_host(label):
    label.set_account(EMAIL, SERVER)
    assert label.text() == f"{EMAIL} on cards.example.com"
    assert SERVER in label.toolTip()
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert not label.signed_out


@pytest.mark.parametrize(
    ("email", "server", "text"),
    [(EMAIL, "", EMAIL), ("", SERVER, "cards.example.com"), ("", "", "")],
)
def test_what_is_known_is_said(label, email, server, text):
    label.set_account(email, server)
    assert label.text() == text


def test_signed_out_keeps_the_account_and_says_so(label):
    label.set_account(EMAIL, SERVER)
    label.set_signed_out(True)
    assert label.signed_out
    assert label.text() == f"Signed out ({EMAIL} on cards.example.com)"
    label.set_account("ben@example.com", SERVER)
    assert label.text() == "Signed out (ben@example.com on cards.example.com)"
    label.set_signed_out(False)
    assert label.text() == "ben@example.com on cards.example.com"


def test_signed_out_of_nothing_known_is_plain(label):
    label.set_signed_out(True)
    assert label.text() == "Signed out"


def test_the_end_of_the_session_says_what_it_stopped():
    plain = session_ended_message(None)
    assert plain.startswith("You are signed out because your session has ended.")
    assert session_ended_message("Export All stopped.") == f"{plain} Export All stopped."


def test_with_no_card_shown_the_end_of_the_session_claims_none_stays():
    """It said "The cards shown stay here" over an empty window."""
    assert session_ended_message(None, cards_shown=False) == (
        "You are signed out because your session has ended; sign in to load cards."
    )


def test_another_account_is_told_and_the_same_one_again_is_not(label, qtbot):
    changes: list[None] = []
    label.accountChanged.connect(lambda: changes.append(None))
    label.set_account(EMAIL, SERVER)  # the first: no change of account
    label.set_signed_out(True)
    label.set_signed_out(False)
    label.set_account(EMAIL, SERVER)
    label.set_account(f" {EMAIL.upper()}", SERVER)
    label.set_account(EMAIL, f"{SERVER}/")  # as a session saved by an earlier version
    label.set_account(EMAIL, "https://CARDS.example.com:443/api")
    assert changes == []
    label.set_account("ben@example.com", SERVER)
    label.set_account("ben@example.com", "https://other.example")
    assert len(changes) == 2
