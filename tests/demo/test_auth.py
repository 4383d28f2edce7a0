"""Tokens: their shape, their expiry, revocation, and reading the Authorization header."""

from __future__ import annotations

import base64
import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from cardviewer.demo.auth import JWT_HEADER, TokenStore, bearer_token


def claims(token: str) -> dict[str, object]:
    payload = token.split(".")[1]
    decoded: dict[str, object] = json.loads(base64.urlsafe_b64decode(payload + "=="))
    return decoded


def test_a_token_looks_like_the_platforms():
    issued = TokenStore().issue(timedelta(hours=8))
    header, _, signature = issued.access_token.split(".")
    assert header == JWT_HEADER
    assert json.loads(base64.urlsafe_b64decode(header + "==")) == {"typ": "JWT", "alg": "RS256"}
    assert claims(issued.access_token)["exp"] == int(issued.expires_at.timestamp())
    assert len(signature) > 300
    assert re.fullmatch(r"[A-Za-z0-9+/=]{100,}", issued.session_id)


def test_expiry_is_in_whole_seconds_and_formatted_with_microseconds():
    issued = TokenStore().issue(timedelta(hours=8))
    assert issued.expires_at.microsecond == 0
    expected = datetime.now(UTC) + timedelta(hours=8)
    assert abs((issued.expires_at - expected).total_seconds()) < 2
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000Z", issued.to_json()["expires_at"])


def test_tokens_are_valid_until_they_expire_or_are_revoked():
    store = TokenStore()
    live = store.issue(timedelta(hours=1)).access_token
    dead = store.issue(timedelta(seconds=-1)).access_token
    assert store.is_valid(live)
    assert not store.is_valid(dead)
    assert not store.is_valid("eyJ.unknown.token")
    assert not store.is_valid(None)
    assert not store.is_valid("")
    store.revoke_all()
    assert not store.is_valid(live)


def test_every_token_is_new():
    store = TokenStore()
    first, second = store.issue(timedelta(hours=1)), store.issue(timedelta(hours=1))
    assert first.access_token != second.access_token
    assert first.session_id != second.session_id
    assert store.is_valid(first.access_token)


@pytest.mark.parametrize(
    ("header", "token"),
    [
        ("Bearer abc.def", "abc.def"),
        ("bearer abc", "abc"),
        ("  Bearer   abc  ", "abc"),
        ("Bearer", None),
        ("Bearer ", None),
        ("Basic dXNlcjpwdw==", None),
        ("Token abc", None),
        ("Bearer a b", None),
        ("", None),
        (None, None),
    ],
)
def test_bearer_token(header, token):
    assert bearer_token(header) == token
