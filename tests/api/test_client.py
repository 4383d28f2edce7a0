"""The API client against the demo server over real loopback HTTP.

These tests see how each failure is reported, so their client tries only once;
tests/api/test_retry.py covers the retries.
"""

from __future__ import annotations

import json
import socket
from datetime import UTC, datetime, timedelta

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
from cardviewer.api.errors import CardViewerError, MalformedRequest, Sentence
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
    with pytest.raises(NotAuthenticated):
        await client.list_cards(demo_server.space_id)
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
