"""Sign-ins that fail in each way the sign-in dialog explains, as the UI tests use them."""

from __future__ import annotations

import asyncio
import socket
import ssl
from urllib.parse import urlsplit

import httpx

from cardviewer.api import CardsClient, Session
from cardviewer.demo import DemoServer


def closed_port() -> int:
    """A port on this computer where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server_error(exception: str) -> httpx.MockTransport:
    def answer(request: httpx.Request) -> httpx.Response:
        body = {"message": 'Undefined array key "email"', "exception": exception}
        return httpx.Response(500, json=body)

    return httpx.MockTransport(answer)


def _html_502(request: httpx.Request) -> httpx.Response:
    return httpx.Response(502, text="<html><h1>502 Bad Gateway</h1></html>")


def _timeout(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("timed out", request=request)


def _untrusted(request: httpx.Request) -> httpx.Response:
    failure = httpx.ConnectError("handshake failed", request=request)
    failure.__cause__ = ssl.SSLCertVerificationError(1, "certificate verify failed")
    raise failure


MOCKED_SERVERS = {
    "https://unreadable.example.com": _server_error("ErrorException"),
    "https://failing.example.com": _server_error("QueryException"),
    "https://proxy.example.com": httpx.MockTransport(_html_502),
    "https://slow.example.com": httpx.MockTransport(_timeout),
    "https://untrusted.example.com": httpx.MockTransport(_untrusted),
}
"""Servers whose answers the sign-in gets from a mock transport, by address."""
BROKEN_SERVER = "https://broken.example.com"
"""Signing in there fails unexpectedly (a fault of the app, not of the server)."""
SILENT_SERVER = "https://silent.example.com"
"""Signing in there waits for an answer that never comes."""


async def authenticate(server: str, email: str, password: str) -> Session:
    """Sign in as the app does; the addresses above get their own answers."""
    if server == BROKEN_SERVER:
        raise RuntimeError("a fault of the app")
    if server == SILENT_SERVER:
        await asyncio.Event().wait()
    async with CardsClient(server, transport=MOCKED_SERVERS.get(server)) as client:
        return await client.login(email, password)


def failed_sign_ins(demo_server: DemoServer) -> list[tuple[str, str]]:
    """(server typed, password) of each failed sign-in the dialog explains."""
    port = urlsplit(demo_server.base_url).port
    wrong = "not the password"
    typed = [
        "not a url",
        "text with spaces.example.com",
        "https://",
        "ftp://x",
        "http://cards.example.com",
        "https://admin:secret@cards.example.com",
        f"http://127.0.0.1:{closed_port()}",
        f"https://127.0.0.1:{port}",  # a server that speaks plain HTTP only
        *MOCKED_SERVERS,
        BROKEN_SERVER,
    ]
    return [(server, wrong) for server in typed] + [(demo_server.base_url, wrong)]
