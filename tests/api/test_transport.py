"""Transport security: certificates are always checked, plain HTTP stays on this computer,
and the proxies the environment names are used."""

from __future__ import annotations

import http.client
import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import httpx
import pytest
import truststore

from cardviewer.api import CardsClient, ConnectFailed, InvalidInput, TlsError
from cardviewer.api.client import tls_context
from cardviewer.api.errors import PLAIN_HTTP_REASONS, CardViewerError, map_exceptions
from cardviewer.api.retry import RetryPolicy

pytestmark = pytest.mark.anyio

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")
HOP_BY_HOP = {"connection", "proxy-connection", "keep-alive", "transfer-encoding", "te"}


@pytest.fixture
def anyio_backend():
    return "asyncio"


# Certificates


def assert_verifies_certificates(context: ssl.SSLContext) -> None:
    assert isinstance(context, truststore.SSLContext)
    assert context.verify_mode == ssl.CERT_REQUIRED
    assert context.check_hostname
    assert context.minimum_version >= ssl.TLSVersion.TLSv1_2


def test_tls_context_uses_the_system_store_and_checks_host_names():
    assert_verifies_certificates(tls_context())
    assert tls_context() is not tls_context()  # each client may configure its own


async def test_the_client_connects_with_that_context():
    async with CardsClient("https://api.example") as client:
        assert_verifies_certificates(client.ssl_context)
        pool = client._http._transport._pool  # type: ignore[attr-defined]
        assert pool._ssl_context is client.ssl_context


# Plain HTTP


@pytest.mark.parametrize(
    "address",
    [
        "http://api.example.com",
        "http://10.1.2.3:8080",
        "http://0.0.0.0:8000",
        "http://localhost.evil.example",
        "http://127.0.0.1.nip.io",
        "http://[fe80::1]",
    ],
)
def test_plain_http_off_this_computer_is_refused_with_a_reason(address):
    with pytest.raises(InvalidInput) as info:
        CardsClient(address)
    assert "not encrypted" in str(info.value)
    assert "https://" in str(info.value)


def test_loopback_written_as_a_user_name_does_not_pass_for_this_computer():
    # The host is evil.example; "127.0.0.1" before "@" is a user name, refused as such.
    with pytest.raises(InvalidInput) as info:
        CardsClient("http://127.0.0.1@evil.example")
    assert "user name or password" in str(info.value)
    assert "evil.example" not in str(info.value)


@pytest.mark.parametrize(
    "address",
    [
        "http://127.0.0.1:8000",
        "http://127.45.6.7",
        "http://localhost:8000",
        "http://LOCALHOST",
        "http://[::1]:8000",
    ],
)
async def test_plain_http_on_this_computer_is_allowed(address):
    async with CardsClient(address) as client:
        assert client.server_url.startswith("http://")


async def test_redirects_are_not_followed():
    """A redirect could lead from https:// to http:// and carry the token along."""
    async with CardsClient("https://api.example") as client:
        assert not client._http.follow_redirects


# Proxies from the environment


class ProxyHandler(BaseHTTPRequestHandler):
    """A small HTTP proxy: forwards plain requests, refuses every CONNECT tunnel."""

    protocol_version = "HTTP/1.1"
    server: RecordingProxy

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_CONNECT(self) -> None:
        self.server.seen.append(f"CONNECT {self.path}")
        self.send_response(403, "Forbidden")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def forward(self) -> None:
        self.server.seen.append(f"{self.command} {self.path}")
        url = urlsplit(self.path)  # a proxy is sent the whole URL
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
        upstream = http.client.HTTPConnection(url.hostname or "", url.port, timeout=10)
        try:
            target = url.path + (f"?{url.query}" if url.query else "")
            upstream.request(self.command, target, body=body, headers=headers)
            answer = upstream.getresponse()
            content = answer.read()
        finally:
            upstream.close()
        self.send_response(answer.status, answer.reason)
        for name, value in answer.getheaders():
            if name.lower() not in HOP_BY_HOP | {"content-length"}:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    do_GET = forward
    do_POST = forward


class RecordingProxy(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), ProxyHandler)
        self.seen: list[str] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_port}"


@pytest.fixture
def proxy(monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingProxy]:
    """A running proxy, and an environment that names no other proxy (nor exceptions)."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    server = RecordingProxy()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


async def test_http_proxy_from_the_environment_carries_the_requests(
    proxy, demo_server, monkeypatch
):
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    async with CardsClient(demo_server.base_url) as client:
        await client.login(demo_server.email, demo_server.password)
        page = await client.list_cards(demo_server.space_id)
    assert len(page.cards) == 10
    assert proxy.seen == [
        f"POST {demo_server.base_url}/v1/auth/login",
        f"GET {demo_server.base_url}/v1/spaces/{demo_server.space_id}/cards?page=1",
    ]
    assert [r.path for r in demo_server.requests if r.server == "api"] == [
        "/v1/auth/login",
        f"/v1/spaces/{demo_server.space_id}/cards?page=1",
    ]


async def test_no_proxy_from_the_environment_is_respected(proxy, demo_server, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    async with CardsClient(demo_server.base_url) as client:
        await client.login(demo_server.email, demo_server.password)
    assert proxy.seen == []
    assert [r.path for r in demo_server.requests if r.server == "api"] == ["/v1/auth/login"]


async def test_https_goes_through_the_https_proxy(proxy, monkeypatch):
    monkeypatch.setenv("HTTPS_PROXY", proxy.url)
    retry = RetryPolicy(base_delay=0.0)
    async with CardsClient("https://cards.example.invalid", token="t", retry=retry) as client:
        with pytest.raises(ConnectFailed) as info:
            await client.list_cards("space")
    assert proxy.seen == ["CONNECT cards.example.invalid:443"]  # refused once, not retried
    assert "proxy" in str(info.value)
    assert "cards.example.invalid" in str(info.value)


# https to a server that answers in plain HTTP

PLAIN_HTTP_WORDS = "does not accept secure (https) connections"


def ssl_error(reason: str, text: str) -> ssl.SSLError:
    """An `ssl.SSLError` as OpenSSL raises it, with its reason code."""
    error = ssl.SSLError(1, f"[SSL: {reason}] {text} (_ssl.c:1006)")
    error.reason = reason
    error.library = "SSL"
    return error


def mapped(failure: Exception) -> CardViewerError:
    with pytest.raises(CardViewerError) as info, map_exceptions("cards.example.com"):
        raise failure
    assert info.value.__cause__ is failure
    assert info.value.detail == repr(failure)
    return info.value


@pytest.mark.parametrize("reason", sorted(PLAIN_HTTP_REASONS))
@pytest.mark.parametrize("kind", [httpx.ConnectError, httpx.ReadError])
def test_a_plain_http_answer_to_tls_is_said_to_be_one(kind, reason):
    failure = kind("handshake failed")
    failure.__cause__ = ssl_error(reason, "wrong version number")
    error = mapped(failure)
    assert isinstance(error, TlsError)
    assert str(error) == (
        "The server at cards.example.com does not accept secure (https) connections at "
        "this address. Check the server address and its port number."
    )
    assert "certificate" not in str(error)


def test_an_untrusted_certificate_is_still_said_to_be_one():
    failure = httpx.ConnectError("handshake failed")
    failure.__cause__ = ssl.SSLCertVerificationError(1, "certificate verify failed")
    error = mapped(failure)
    assert isinstance(error, TlsError)
    assert "Its certificate is not trusted by this computer." in str(error)


def test_another_tls_failure_keeps_its_own_sentence():
    failure = httpx.ConnectError("handshake failed")
    failure.__cause__ = ssl_error("TLSV1_ALERT_PROTOCOL_VERSION", "tlsv1 alert protocol version")
    assert PLAIN_HTTP_WORDS not in str(mapped(failure))


@pytest.mark.parametrize("scheme", ["https://", ""], ids=["https", "no-scheme"])
async def test_https_to_a_plain_http_server_says_it_does_not_speak_https(demo_server, scheme):
    """Over real sockets: the demo server speaks plain HTTP only."""
    port = urlsplit(demo_server.base_url).port
    async with CardsClient(f"{scheme}127.0.0.1:{port}", retry=RetryPolicy(attempts=1)) as client:
        assert client.server_url.startswith("https://")
        with pytest.raises(TlsError) as info:
            await client.login("a@b.example", "pw")
    assert PLAIN_HTTP_WORDS in str(info.value)
    assert f"127.0.0.1:{port}" in str(info.value)
    assert "WRONG_VERSION_NUMBER" in info.value.detail
