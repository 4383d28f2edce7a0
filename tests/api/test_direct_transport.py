"""The transport to the server itself: httpx's behaviour over `AsyncioNetworkBackend`."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import AsyncIterator

import httpcore
import httpx
import pytest
import trustme

from cardviewer.api import CardsClient, TlsError
from cardviewer.api import client as client_module
from cardviewer.api.direct_transport import DirectTransport, httpx_errors, names_a_proxy
from cardviewer.api.retry import RetryPolicy

pytestmark = pytest.mark.anyio

LIMITS = httpx.Limits(max_connections=8, max_keepalive_connections=8)
PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def no_proxy_named(monkeypatch):
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


# Failures


@pytest.mark.parametrize(
    ("raised", "expected"),
    [
        (httpcore.ConnectTimeout, httpx.ConnectTimeout),
        (httpcore.ReadTimeout, httpx.ReadTimeout),
        (httpcore.WriteTimeout, httpx.WriteTimeout),
        (httpcore.PoolTimeout, httpx.PoolTimeout),
        (httpcore.ConnectError, httpx.ConnectError),
        (httpcore.ReadError, httpx.ReadError),
        (httpcore.WriteError, httpx.WriteError),
        (httpcore.ProxyError, httpx.ProxyError),
        (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
        (httpcore.LocalProtocolError, httpx.LocalProtocolError),
        (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
        (httpcore.NetworkError, httpx.NetworkError),
        (httpcore.TimeoutException, httpx.TimeoutException),
    ],
)
def test_httpcore_failures_become_httpx_ones_with_their_cause(raised, expected):
    failure = raised("it went wrong")
    with pytest.raises(expected) as info, httpx_errors():
        raise failure
    assert type(info.value) is expected
    assert str(info.value) == "it went wrong"
    assert info.value.__cause__ is failure


def test_other_failures_pass_unchanged():
    with pytest.raises(KeyError), httpx_errors():
        raise KeyError("not a network failure")


# Over loopback


@contextlib.asynccontextmanager
async def http_server(
    answer: bytes, tls: ssl.SSLContext | None = None, *, cut_after: int | None = None
) -> AsyncIterator[tuple[int, list[int]]]:
    """A server answering every request on a connection with `answer`; it counts the
    requests of each connection, and with `cut_after` closes after that many bytes.
    Over TLS it offers HTTP/2 first and notes the protocol each connection chose."""
    requests_per_connection: list[int] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        secure = writer.get_extra_info("ssl_object")
        if secure is not None:
            protocols.append(secure.selected_alpn_protocol())
        requests_per_connection.append(0)
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            while await reader.readuntil(b"\r\n\r\n"):
                requests_per_connection[-1] += 1
                writer.write(answer[:cut_after])
                await writer.drain()
                if cut_after is not None:
                    break
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=tls)
    async with server:
        yield server.sockets[0].getsockname()[1], requests_per_connection


protocols: list[str | None] = []


def ok(body: bytes) -> bytes:
    head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}"
    return head.encode() + b"\r\n\r\n" + body


@pytest.fixture(scope="module")
def authority() -> trustme.CA:
    return trustme.CA()


def server_tls(authority: trustme.CA) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("localhost").configure_cert(context)
    context.set_alpn_protocols(["h2", "http/1.1"])
    return context


async def test_answers_over_https_come_whole_on_one_kept_connection(authority):
    body = b'{"data": [' + b'"card",' * 200_000 + b'"last"]}'
    trusted = ssl.create_default_context()
    authority.configure_trust(trusted)
    protocols.clear()
    async with http_server(ok(body), server_tls(authority)) as (port, requests):
        transport = DirectTransport(trusted, LIMITS)
        assert transport.ssl_context is trusted
        async with httpx.AsyncClient(transport=transport) as client:
            for _ in range(3):
                answer = await client.get(f"https://localhost:{port}/v1/spaces/1/cards")
                assert answer.status_code == 200
                assert answer.content == body
    assert requests == [3]
    assert protocols == ["http/1.1"], "HTTP/1.1 only: HTTP/2 is never offered"


async def test_a_body_cut_short_is_httpx_remote_protocol_error():
    answer = ok(b"x" * 100)
    async with http_server(answer, cut_after=len(answer) - 40) as (port, _):  # in the body
        transport = DirectTransport(ssl.create_default_context(), LIMITS)
        async with httpx.AsyncClient(transport=transport) as client:
            with pytest.raises(httpx.RemoteProtocolError):
                await client.get(f"http://127.0.0.1:{port}/")


async def test_the_client_says_an_untrusted_certificate_is_one(authority, no_proxy_named):
    async with http_server(ok(b"{}"), server_tls(authority)) as (port, _):
        client = CardsClient(f"https://localhost:{port}", retry=RetryPolicy(attempts=1))
        async with client:
            with pytest.raises(TlsError) as info:
                await client.login("ada@example.com", "pw")
    assert "certificate is not trusted" in str(info.value)


# Which transport


async def test_the_client_uses_it_unless_a_proxy_is_named(monkeypatch, no_proxy_named):
    made: list[DirectTransport] = []

    class Counted(DirectTransport):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(client_module, "DirectTransport", Counted)
    assert not names_a_proxy()
    async with CardsClient("https://api.example") as client:
        assert len(made) == 1
        assert made[0].ssl_context is client.ssl_context
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    assert names_a_proxy()
    async with CardsClient("https://api.example"):
        assert len(made) == 1
