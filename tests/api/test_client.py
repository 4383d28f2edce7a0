"""The API client against the demo server over real loopback HTTP.

These tests see how each failure is reported, so their client tries only once;
tests/api/test_retry.py covers the retries.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from cardviewer import __version__
from cardviewer.api import (
    CardsClient,
    ConnectFailed,
    InvalidCredentials,
    InvalidInput,
    NetworkError,
    NotAuthenticated,
    RateLimited,
    RequestTimeout,
    ServerError,
    SpaceUnavailable,
    TlsError,
    UnexpectedResponse,
)
from cardviewer.api.client import BODY_LIMITS, tls_context
from cardviewer.api.direct_transport import DirectTransport
from cardviewer.api.errors import CardViewerError, MalformedRequest, ResponseTooLarge, Sentence
from cardviewer.api.retry import RetryPolicy
from cardviewer.demo import Fault

pytestmark = pytest.mark.anyio

ONE_TRY = RetryPolicy(attempts=1)


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
async def client(demo_server):
    async with CardsClient(demo_server.base_url, retry=ONE_TRY) as client:
        yield client


@pytest.fixture
async def signed_in(client, demo_server):
    await client.login(demo_server.email, demo_server.password)
    return client


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def last_api_request(demo_server):
    return [r for r in demo_server.requests if r.server == "api"][-1]


# Login


async def test_login_returns_a_session_and_keeps_the_token(client, demo_server):
    session = await client.login(demo_server.email, demo_server.password)
    assert session.access_token.startswith("eyJ")
    assert session.session_id
    assert session.expires_at.tzinfo is not None
    assert session.expires_at > datetime.now(UTC)
    assert client.token == session.access_token


async def test_login_sends_json_headers_and_user_agent(client, demo_server):
    await client.login(demo_server.email, demo_server.password)
    request = last_api_request(demo_server)
    assert request.method == "POST"
    assert request.path == "/v1/auth/login"
    assert request.headers["accept"] == "application/json"
    assert request.headers["content-type"] == "application/json"
    assert request.headers["user-agent"] == f"cardviewer/{__version__}"


async def test_wrong_password_is_invalid_credentials_with_the_servers_message(client, demo_server):
    with pytest.raises(InvalidCredentials) as info:
        await client.login(demo_server.email, "wrong")
    assert info.value.status == 422
    assert str(info.value) == "Access data do not match!"
    assert client.token is None


async def test_unknown_account_is_invalid_credentials(client, demo_server):
    with pytest.raises(InvalidCredentials):
        await client.login("nobody@example.com", demo_server.password)


@pytest.mark.parametrize(("email", "password"), [("", "x"), ("  ", "x"), ("a@b.example", "")])
async def test_empty_credentials_are_refused_before_any_request(
    client, demo_server, email, password
):
    with pytest.raises(InvalidInput):
        await client.login(email, password)
    assert not [r for r in demo_server.requests if r.server == "api"]


async def test_login_500_for_a_missing_field_says_the_request_was_not_readable(demo_server):
    # The client never sends a body without keys, so speak to the server directly.
    async with httpx.AsyncClient(base_url=demo_server.base_url) as raw:
        response = await raw.post(
            "/v1/auth/login", json={"password": "x"}, headers={"Accept": "application/json"}
        )
    transport = httpx.MockTransport(
        lambda request: httpx.Response(response.status_code, content=response.content)
    )
    single = RetryPolicy(attempts=1)
    async with CardsClient(demo_server.base_url, transport=transport, retry=single) as client:
        with pytest.raises(MalformedRequest) as info:
            await client.login("ada@example.com", "x")
    error = info.value
    assert error.status == 500
    assert error.exception == "ErrorException"
    assert str(error).startswith("The server could not read the sign-in request")
    assert "try again later" not in str(error)
    assert "Undefined array key" not in str(error), "the server's words are for the log"
    assert "Undefined array key" in error.detail
    assert isinstance(error.message, Sentence)


async def test_login_with_a_body_the_server_cannot_read_is_a_malformed_request(demo_server):
    """What a proxy that drops the body would bring about, through the whole client."""

    async def drop_the_body(request: httpx.Request) -> httpx.Response:
        async with httpx.AsyncClient() as plain:
            return await plain.post(
                str(request.url), json={}, headers={"Accept": "application/json"}
            )

    transport = httpx.MockTransport(drop_the_body)
    async with CardsClient(demo_server.base_url, transport=transport) as client:
        with pytest.raises(MalformedRequest) as info:
            await client.login(demo_server.email, demo_server.password)
    assert "required field" in str(info.value)
    assert client.token is None


@pytest.mark.parametrize(
    ("path", "exception"),
    [
        ("/v1/auth/login", "PDOException"),
        ("/v1/auth/login", ""),
        ("/v1/spaces/s/cards", "ErrorException"),
    ],
)
async def test_other_500s_stay_failures_of_the_server(path, exception):
    body = {"message": "Something broke", "exception": exception}
    transport = httpx.MockTransport(lambda request: httpx.Response(500, json=body))
    single = RetryPolicy(attempts=1)
    async with CardsClient(
        "https://cards.example.com", token="t", transport=transport, retry=single
    ) as client:
        ask = (
            client.login("ada@example.com", "x")
            if path.endswith("/auth/login")
            else client.list_cards("s", 1)
        )
        with pytest.raises(ServerError) as info:
            await ask
    error = info.value
    assert type(error) is ServerError
    assert "Something broke" in str(error)


# Listing cards


async def test_list_cards_returns_a_typed_page(signed_in, demo_server):
    page = await signed_in.list_cards(demo_server.space_id)
    assert page.meta.current_page == 1
    assert page.meta.per_page == 10
    assert len(page.cards) == 10
    assert page.meta.total == demo_server.config.card_count
    assert page.links.prev is None
    assert all(card.uuid for card in page.cards)
    assert all(card.created_at and card.created_at.tzinfo for card in page.cards)
    assert all(card.emails is None for card in page.cards)
    assert any(card.extra_fields for card in page.cards)


async def test_list_cards_sends_the_bearer_token(signed_in, demo_server):
    await signed_in.list_cards(demo_server.space_id, page=2)
    request = last_api_request(demo_server)
    assert request.headers["authorization"] == f"Bearer {signed_in.token}"
    assert request.path.startswith(f"/v1/spaces/{demo_server.space_id}/cards?")
    assert "page=2" in request.path


async def test_later_pages_and_emails(signed_in, demo_server):
    page = await signed_in.list_cards(demo_server.space_id, page=3, with_emails=True)
    assert page.meta.current_page == 3
    assert page.meta.from_ == 21
    assert "with=emails" in last_api_request(demo_server).path
    assert all(card.emails is not None for card in page.cards)
    assert any(card.emails for card in page.cards)


async def test_page_past_the_last_is_empty(signed_in, demo_server):
    page = await signed_in.list_cards(demo_server.space_id, page=10_000)
    assert page.is_empty
    assert page.meta.current_page == 10_000
    assert not page.meta.has_next


async def test_empty_space(signed_in, demo_server):
    page = await signed_in.list_cards(demo_server.empty_space_id)
    assert page.is_empty
    assert page.meta.total == 0


@pytest.mark.parametrize("space_id", ["a/b", "with space", "ümlaut", "..", "?page=2"])
async def test_any_space_id_is_one_encoded_path_segment(signed_in, demo_server, space_id):
    with pytest.raises(SpaceUnavailable) as info:
        await signed_in.list_cards(space_id)
    assert info.value.status == 404
    path = last_api_request(demo_server).path
    assert path.startswith("/v1/spaces/")
    assert path.split("?")[0].count("/") == 4


async def test_without_sign_in_nothing_is_sent(client, demo_server):
    with pytest.raises(NotAuthenticated) as info:
        await client.list_cards(demo_server.space_id)
    assert info.value.status == 401
    assert not demo_server.requests


@pytest.mark.parametrize(("space_id", "page"), [("", 1), ("x", 0), ("x", -1)])
async def test_bad_arguments_are_refused(signed_in, space_id, page):
    with pytest.raises(InvalidInput):
        await signed_in.list_cards(space_id, page)


async def test_unknown_token_is_not_authenticated(demo_server):
    async with CardsClient(demo_server.base_url, token="not-a-token") as client:
        with pytest.raises(NotAuthenticated) as info:
            await client.list_cards(demo_server.space_id)
    assert info.value.status == 401


async def test_expired_token_is_not_authenticated(demo_server):
    expired = demo_server.issue_token(timedelta(seconds=-1))
    async with CardsClient(demo_server.base_url, token=expired["access_token"]) as client:
        with pytest.raises(NotAuthenticated):
            await client.list_cards(demo_server.space_id)


async def test_revoked_token_is_not_authenticated(signed_in, demo_server):
    demo_server.faults.inject(Fault.REVOKED_TOKEN)
    with pytest.raises(NotAuthenticated):
        await signed_in.list_cards(demo_server.space_id)


# Faults


async def test_html_502_is_an_unexpected_response_with_an_excerpt(signed_in, demo_server):
    demo_server.faults.inject(Fault.HTML_502)
    with pytest.raises(UnexpectedResponse) as info:
        await signed_in.list_cards(demo_server.space_id)
    assert info.value.status == 502
    assert "502" in str(info.value)
    assert "<" in info.value.detail
    assert len(info.value.detail) < 300


async def test_truncated_json_is_an_error_of_the_client(signed_in, demo_server):
    demo_server.faults.inject(Fault.TRUNCATED_JSON)
    with pytest.raises((UnexpectedResponse, NetworkError)):
        await signed_in.list_cards(demo_server.space_id)


async def test_dropped_connection_is_a_network_error(signed_in, demo_server):
    demo_server.faults.inject(Fault.DROP_CONNECTION)
    with pytest.raises(NetworkError):
        await signed_in.list_cards(demo_server.space_id)


async def test_slow_answer_is_a_timeout(demo_server):
    async with CardsClient(
        demo_server.base_url, timeout=httpx.Timeout(0.3), retry=ONE_TRY
    ) as client:
        await client.login(demo_server.email, demo_server.password)
        demo_server.faults.inject(Fault.SLOW, delay=2.0)
        with pytest.raises(RequestTimeout):
            await client.list_cards(demo_server.space_id)


async def test_429_carries_retry_after(signed_in, demo_server):
    demo_server.faults.inject(Fault.RATE_LIMITED, retry_after=7)
    with pytest.raises(RateLimited) as info:
        await signed_in.list_cards(demo_server.space_id)
    assert info.value.retry_after == 7


async def test_503_is_reported_as_unavailable(signed_in, demo_server):
    demo_server.faults.inject(Fault.SERVICE_UNAVAILABLE)
    with pytest.raises((UnexpectedResponse, ServerError)) as info:
        await signed_in.list_cards(demo_server.space_id)
    assert info.value.status == 503


async def test_wrong_types_keep_the_page(signed_in, demo_server):
    demo_server.faults.inject(Fault.WRONG_TYPES)
    page = await signed_in.list_cards(demo_server.space_id)
    assert len(page.cards) == 10
    assert any(card.invalid_fields for card in page.cards)


async def test_a_fault_then_success(signed_in, demo_server):
    demo_server.faults.inject(Fault.HTML_502)
    with pytest.raises(UnexpectedResponse):
        await signed_in.list_cards(demo_server.space_id)
    assert len((await signed_in.list_cards(demo_server.space_id)).cards) == 10


# Transport


async def test_nothing_listening_is_connect_failed():
    async with CardsClient(f"http://127.0.0.1:{free_port()}") as client:
        with pytest.raises(ConnectFailed) as info:
            await client.login("a@b.example", "pw")
    assert "127.0.0.1" in str(info.value)


async def test_tls_to_a_plain_server_is_a_tls_error(demo_server):
    port = demo_server.base_url.rsplit(":", 1)[1]
    async with CardsClient(f"https://127.0.0.1:{port}") as client:
        with pytest.raises(TlsError):
            await client.login("a@b.example", "pw")


async def test_a_server_that_is_not_the_platform(demo_server):
    async with CardsClient(demo_server.avatar_base_url) as client:
        with pytest.raises(CardViewerError) as info:
            await client.login("a@b.example", "pw")
    assert info.value.status == 404  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("status", "body", "error"),
    [
        (200, b"<html>hello</html>", UnexpectedResponse),
        (200, b'{"data": 1}', UnexpectedResponse),
        (200, b"[]", UnexpectedResponse),
        (418, b"teapot", UnexpectedResponse),
        (403, b'{"message": "Forbidden"}', SpaceUnavailable),
        (500, b"<html>oops</html>", UnexpectedResponse),
    ],
)
async def test_odd_answers_become_client_errors(status, body, error):
    transport = httpx.MockTransport(lambda request: httpx.Response(status, content=body))
    async with CardsClient("https://api.example", token="t", transport=transport) as client:
        with pytest.raises(error) as info:
            await client.list_cards("space")
    assert info.value.status == status


async def test_login_answer_without_a_token_is_unexpected():
    body = json.dumps({"session_id": "s", "expires_at": "2024-01-01T00:00:00Z"}).encode()
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=body))
    async with CardsClient("https://api.example", transport=transport) as client:
        with pytest.raises(UnexpectedResponse) as info:
            await client.login("a@b.example", "pw")
    assert "access_token" in info.value.detail


@pytest.mark.parametrize("status", [200, 500, 502])
@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"message":' * 5_000 + b"1" + b"}" * 5_000])
async def test_json_nested_too_deep_for_the_parser_is_unexpected(status, body):
    """Regression: the parser's RecursionError escaped as a crash instead of an error."""
    transport = httpx.MockTransport(lambda request: httpx.Response(status, content=body))
    async with CardsClient(
        "https://api.example", token="t", transport=transport, retry=ONE_TRY
    ) as client:
        with pytest.raises(UnexpectedResponse) as info:
            await client.list_cards("space")
    assert info.value.status == status
    assert len(info.value.detail) < 300


async def test_page_numbers_too_large_to_show_are_unexpected():
    """Regression: 2**31 pages parsed fine, then overflowed the page bar's spin box."""
    body = {
        "data": [],
        "links": {},
        "meta": {"current_page": 1, "last_page": 2**31, "per_page": 10, "total": 0},
    }
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=body))
    async with CardsClient("https://api.example", token="t", transport=transport) as client:
        with pytest.raises(UnexpectedResponse) as info:
            await client.list_cards("space")
    assert "meta.last_page" in info.value.detail


async def test_a_proxy_refusing_the_tunnel_is_connect_failed():
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ProxyError("403 Forbidden")

    transport = httpx.MockTransport(refuse)
    async with CardsClient("https://api.example", token="t", transport=transport) as client:
        with pytest.raises(ConnectFailed) as info:
            await client.list_cards("space")
    assert "proxy" in str(info.value)


# What the client reads, and how it asks


MEBIBYTE = 1024 * 1024
SESSION = {
    "access_token": "eyJ0eXAiOiJKV1Q.token",
    "session_id": "s",
    "expires_at": "2030-01-01T00:00:00.000000Z",
}


def page_body(cards: int = 1) -> dict[str, Any]:
    return {
        "data": [{"uuid": f"c{n}", "display_name": f"Card {n}"} for n in range(cards)],
        "links": {},
        "meta": {"current_page": 1, "last_page": 1, "per_page": 10, "total": cards},
    }


def padded(body: dict[str, Any], place: Callable[[dict[str, Any], str], None], size: int) -> bytes:
    """`body` as JSON of exactly `size` bytes, made up by a long text that `place` puts in."""
    place(body, "")
    bare = len(json.dumps(body).encode())
    place(body, "x" * (size - bare))
    data = json.dumps(body).encode()
    assert len(data) == size
    return data


class Chunks:
    """A body sent chunk by chunk, without a declared length, that notes how many were taken."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self.chunks = list(chunks)
        self.taken = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            self.taken += 1
            yield chunk


def mock_client(handler: Callable[[httpx.Request], httpx.Response], **kwargs: Any) -> CardsClient:
    retry = kwargs.pop("retry", ONE_TRY)
    return CardsClient(
        "https://api.example",
        token="t",
        transport=httpx.MockTransport(handler),
        retry=retry,
        **kwargs,
    )


def answer_with(status: int, body: Any = b"", **kwargs: Any) -> Callable[[httpx.Request], Any]:
    def answer(request: httpx.Request) -> httpx.Response:
        if isinstance(body, bytes | Chunks):
            return httpx.Response(status, content=body, **kwargs)
        return httpx.Response(status, json=body, **kwargs)

    return answer


def in_pieces(data: bytes) -> Chunks:
    return Chunks(data[start : start + MEBIBYTE] for start in range(0, len(data), MEBIBYTE))


@pytest.mark.parametrize("declared", [True, False], ids=["declared", "streamed"])
async def test_a_page_may_have_sixteen_mebibytes(declared):
    def with_name(body: dict[str, Any], text: str) -> None:
        body["data"][0]["display_name"] = text

    for size, fits in [(16 * MEBIBYTE, True), (16 * MEBIBYTE + 1, False)]:
        data = padded(page_body(), with_name, size)
        async with mock_client(answer_with(200, data if declared else in_pieces(data))) as client:
            if fits:
                page = await client.list_cards("space")
                assert len(page.cards[0].display_name or "") > 15 * MEBIBYTE
            else:
                with pytest.raises(ResponseTooLarge) as info:
                    await client.list_cards("space")
                assert info.value.status == 200


@pytest.mark.parametrize("declared", [True, False], ids=["declared", "streamed"])
async def test_a_login_answer_may_have_one_mebibyte(declared):
    def with_session_id(body: dict[str, Any], text: str) -> None:
        body["session_id"] = text

    for size, fits in [(MEBIBYTE, True), (MEBIBYTE + 1, False)]:
        data = padded(dict(SESSION), with_session_id, size)
        async with mock_client(answer_with(200, data if declared else in_pieces(data))) as client:
            if fits:
                session = await client.login("ada@example.com", "pw")
                assert len(session.session_id) > MEBIBYTE - 200
            else:
                with pytest.raises(ResponseTooLarge):
                    await client.login("ada@example.com", "pw")


async def test_a_declared_length_over_the_limit_is_refused_before_reading():
    body = Chunks([b"{}"])
    headers = {"Content-Length": str(16 * MEBIBYTE + 1)}
    async with mock_client(answer_with(200, body, headers=headers)) as client:
        with pytest.raises(ResponseTooLarge) as info:
            await client.list_cards("space")
    assert body.taken == 0
    assert info.value.detail.startswith(f"Content-Length is {16 * MEBIBYTE + 1} bytes")


@pytest.mark.parametrize(("size", "whole"), [(64 * 1024, True), (64 * 1024 + 1, False)])
async def test_of_an_error_only_the_first_64_kib_are_read(size, whole):
    """A message that ends past 64 KiB is not read: the error says only that the server failed."""

    def with_message(body: dict[str, Any], text: str) -> None:
        body["message"] = text

    data = padded({}, with_message, size)
    body = Chunks([data[: 40 * 1024], data[40 * 1024 :], *[b" " * 1024] * 5])
    async with mock_client(answer_with(500, body)) as client:
        with pytest.raises((ServerError, UnexpectedResponse)) as info:
            await client.list_cards("space")
    assert (type(info.value) is ServerError) is whole
    if not whole:
        assert "unavailable right now (error 500)" in str(info.value)
    assert body.taken == 2


@pytest.mark.parametrize(
    ("status", "words"),
    [
        (499, "an unexpected error (HTTP 499)"),
        (500, "unavailable right now (error 500)"),
        (502, "unavailable right now (error 502)"),
        (599, "unavailable right now (error 599)"),
        (600, "an unexpected error (HTTP 600)"),
        (601, "an unexpected error (HTTP 601)"),
    ],
)
async def test_an_error_without_a_message_says_whether_the_server_failed(status, words):
    async with mock_client(answer_with(status, b"<html>oops</html>")) as client:
        with pytest.raises(UnexpectedResponse) as info:
            await client.list_cards("space")
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("status", "failed"), [(499, False), (500, True), (599, True), (600, False), (601, False)]
)
async def test_the_message_of_an_error_is_quoted_if_the_server_failed(status, failed):
    async with mock_client(answer_with(status, {"message": "Busy"})) as client:
        with pytest.raises(CardViewerError) as info:
            await client.list_cards("space")
    assert (type(info.value) is ServerError) is failed
    assert ("Busy" in str(info.value)) is failed


@pytest.mark.parametrize("status", [500, 599])
async def test_a_failure_of_the_server_with_a_message_quotes_its_start(status):
    message = "Something broke " * 20
    async with mock_client(answer_with(status, {"message": message})) as client:
        with pytest.raises(ServerError) as info:
            await client.list_cards("space")
    quoted = str(info.value).split("\u201c")[1].split("\u201d")[0]
    assert len(quoted) == 120
    assert quoted.endswith("\u2026")
    assert message.startswith(quoted[:-1])


@pytest.mark.parametrize(
    ("status", "retry_after"), [(500, None), (502, None), (503, 7.0), (504, None)]
)
async def test_only_a_503_says_when_to_come_back(status, retry_after):
    headers = {"Retry-After": "7"}
    async with mock_client(answer_with(status, {"message": "Busy"}, headers=headers)) as client:
        with pytest.raises(ServerError) as info:
            await client.list_cards("space")
    assert info.value.status == status
    assert info.value.retry_after == retry_after


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (400, UnexpectedResponse),
        (401, NotAuthenticated),
        (422, InvalidCredentials),
        (500, MalformedRequest),
        (503, ServerError),
    ],
)
async def test_only_a_422_to_login_is_wrong_access_data(status, error):
    body = {"message": "Nope", "exception": "ErrorException"}
    async with mock_client(answer_with(status, body)) as client:
        with pytest.raises(CardViewerError) as info:
            await client.login("ada@example.com", "pw")
    assert type(info.value) is error


async def test_a_reply_of_the_wrong_shape_names_its_first_three_problems():
    body = {"data": 1, "links": 1, "meta": {"current_page": "x", "last_page": "y"}}
    async with mock_client(answer_with(200, body)) as client:
        with pytest.raises(UnexpectedResponse) as info:
            await client.list_cards("space")
    problems = info.value.detail.split(" in '")[0].split("; ")
    assert [problem.split(":")[0] for problem in problems] == [
        "data",
        "links",
        "meta.current_page",
    ]


async def test_each_answer_is_logged_with_its_time_and_without_the_query(monkeypatch, caplog):
    caplog.set_level(logging.DEBUG, logger="cardviewer.api.client")
    ticks = iter([100.0])
    async with mock_client(answer_with(200, page_body())) as client:
        monkeypatch.setattr(time, "perf_counter", lambda: next(ticks, 102.0))
        await client.list_cards("space", with_emails=True)
    [line] = [r.getMessage() for r in caplog.records if r.name == "cardviewer.api.client"]
    assert line == "GET https://api.example/v1/spaces/space/cards -> 200 in 2000 ms"


async def test_each_retry_is_logged_with_what_went_wrong(caplog):
    caplog.set_level(logging.INFO, logger="cardviewer.api.client")
    failures: list[Callable[[httpx.Request], httpx.Response]] = [
        answer_with(503, b""),
        answer_with(502, b""),
    ]

    def answer(request: httpx.Request) -> httpx.Response:
        if failures:
            return failures.pop(0)(request)
        if len(caplog.records) == 2:
            raise httpx.ConnectError("refused")
        return httpx.Response(200, json=page_body())

    async def no_wait(seconds: float) -> None:
        pass

    retry = RetryPolicy(attempts=4, sleep=no_wait, jitter=lambda: 0.0)
    async with mock_client(answer, retry=retry) as client:
        await client.list_cards("space")
    assert [r.getMessage() for r in caplog.records] == [
        "GET /v1/spaces/space/cards: HTTP 503 on attempt 1/4; trying again in 0.00 s",
        "GET /v1/spaces/space/cards: HTTP 502 on attempt 2/4; trying again in 0.00 s",
        "GET /v1/spaces/space/cards: ConnectError on attempt 3/4; trying again in 0.00 s",
    ]


async def test_a_redirect_is_not_followed():
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        if request.url.host == "api.example":
            return httpx.Response(302, headers={"Location": "https://other.example/cards"})
        return httpx.Response(200, json=page_body())

    async with mock_client(answer) as client:
        with pytest.raises(UnexpectedResponse) as info:
            await client.list_cards("space")
    assert info.value.status == 302
    assert asked == ["https://api.example/v1/spaces/space/cards?page=1"]


async def test_a_request_waits_10_s_to_connect_and_20_s_for_the_rest():
    timeouts: list[Any] = []

    def answer(request: httpx.Request) -> httpx.Response:
        timeouts.append(request.extensions["timeout"])
        return httpx.Response(200, json=page_body())

    async with mock_client(answer) as client:
        await client.list_cards("space")
    assert timeouts == [{"connect": 10.0, "read": 20.0, "write": 20.0, "pool": 20.0}]


async def test_the_proxy_set_in_the_environment_is_used(monkeypatch):
    for name in [name for name in os.environ if name.lower().endswith("_proxy")]:
        monkeypatch.delenv(name)
    heard: list[bytes] = []

    async def refuse_the_tunnel(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        heard.append((await reader.readuntil(b"\r\n\r\n")).split(b"\r\n")[0])
        writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    proxy = await asyncio.start_server(refuse_the_tunnel, "127.0.0.1", 0)
    async with proxy:
        port = proxy.sockets[0].getsockname()[1]
        monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{port}")
        async with CardsClient("https://cards.invalid", retry=ONE_TRY) as client:
            with pytest.raises(ConnectFailed) as info:
                await client.login("ada@example.com", "pw")
    assert heard == [b"CONNECT cards.invalid:443 HTTP/1.1"]
    assert "proxy" in str(info.value)


class HeldServer:
    """A server on loopback that counts its connections; each answer waits for a permit."""

    def __init__(self) -> None:
        self.connections = 0
        self.arrived = 0
        self.permits = asyncio.Semaphore(0)
        self.body = json.dumps(page_body()).encode()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
        try:
            while True:
                try:
                    await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                self.arrived += 1
                await self.permits.acquire()
                writer.write(head % len(self.body) + self.body)
                await writer.drain()
        finally:
            writer.close()

    def answer(self, count: int) -> None:
        for _ in range(count):
            self.permits.release()


async def until(condition: Callable[[], bool]) -> None:
    """Let the loop run until `condition` holds (5 s at most)."""
    async with asyncio.timeout(5):
        while not condition():  # noqa: ASYNC110 - the conditions are plain attributes
            await asyncio.sleep(0)


async def test_eight_connections_at_most_and_all_eight_are_kept(monkeypatch):
    for name in [name for name in os.environ if name.lower().endswith("_proxy")]:
        monkeypatch.delenv(name)
    server = HeldServer()
    listening = await asyncio.start_server(server.serve, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    async with listening, CardsClient(f"http://127.0.0.1:{port}", token="t") as client:
        asking = [asyncio.ensure_future(client.list_cards("space")) for _ in range(9)]
        await until(lambda: server.arrived == 8)
        server.answer(1)  # the ninth request takes the connection this answer frees
        await until(lambda: server.arrived == 9)
        server.answer(8)
        await asyncio.gather(*asking)
        assert server.connections == 8
        asking = [asyncio.ensure_future(client.list_cards("space")) for _ in range(8)]
        await until(lambda: server.arrived == 17)
        server.answer(8)
        await asyncio.gather(*asking)
        assert server.connections == 8  # every one of them kept


async def test_a_client_knows_whether_it_is_closed():
    client = mock_client(answer_with(200, page_body()))
    assert client.is_closed is False
    await client.aclose()
    assert client.is_closed is True


def test_the_limits_cannot_be_changed_and_the_options_go_by_name():
    with pytest.raises(dataclasses.FrozenInstanceError):
        BODY_LIMITS.page = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        CardsClient("https://api.example", "token")  # type: ignore[call-arg]


# The first request on its way


async def test_the_first_request_is_out_before_its_answer_comes(demo_server):
    """The window is built while the first page travels: the request has left (its
    answer is the server's to give) long before that answer is in."""
    demo_server.config.latency = 0.5
    async with CardsClient(demo_server.base_url, retry=ONE_TRY) as fresh:
        login = asyncio.ensure_future(fresh.login(demo_server.email, demo_server.password))
        started = time.monotonic()
        assert await fresh.first_request_out(5.0)
        assert time.monotonic() - started < 0.4
        assert not login.done()
        await login
        assert await fresh.first_request_out(0.0), "said at once once it has been"


async def test_no_request_sent_is_waited_for_no_longer_than_asked(demo_server):
    async with CardsClient(demo_server.base_url, retry=ONE_TRY) as fresh:
        started = time.monotonic()
        assert not await fresh.first_request_out(0.05)
        assert time.monotonic() - started < 1.0


async def test_a_first_request_that_cannot_connect_ends_the_wait_at_once():
    nowhere = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    async with CardsClient(nowhere, token="t", retry=ONE_TRY) as fresh:
        page = asyncio.ensure_future(fresh.list_cards("space", 1))
        started = time.monotonic()
        assert await fresh.first_request_out(5.0)
        assert time.monotonic() - started < 2.0
        with pytest.raises(CardViewerError):
            await page


async def test_only_requests_before_the_first_has_gone_out_are_followed(demo_server):
    """Following a request costs a call for each of httpcore's steps; a sync sends
    thousands. Only the first is followed."""

    class Recording(httpx.AsyncBaseTransport):
        def __init__(self) -> None:
            self.inner = DirectTransport(tls_context(), httpx.Limits())
            self.followed: list[bool] = []

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            self.followed.append("trace" in request.extensions)
            return await self.inner.handle_async_request(request)

        async def aclose(self) -> None:
            await self.inner.aclose()

    transport = Recording()
    async with CardsClient(demo_server.base_url, transport=transport, retry=ONE_TRY) as fresh:
        await fresh.login(demo_server.email, demo_server.password)
        await fresh.list_cards(demo_server.space_id, 1)
        await fresh.list_cards(demo_server.space_id, 2)
    assert transport.followed == [True, False, False]
