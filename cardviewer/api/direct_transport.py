"""httpx's transport to the server itself, on `AsyncioNetworkBackend`.

What `httpx.AsyncHTTPTransport` does for a connection without a proxy, through
httpx's public transport interface and httpcore's public pool: the request handed to
the pool, its failures turned into httpx's exceptions. Only the network under the
pool differs (see `asyncio_network`).

httpx reads the proxies the environment names only when it is given no transport of
its own, so a client uses this one only when no proxy is named (`names_a_proxy`).
"""

from __future__ import annotations

import contextlib
import ssl
import urllib.request
from collections.abc import AsyncIterable, AsyncIterator, Iterator

import httpcore
import httpx

from cardviewer.api.asyncio_network import AsyncioNetworkBackend

# httpcore's errors and httpx's own for each, as httpx's transport maps them. The most
# specific class of a failure that is listed here decides.
_HTTPX_ERRORS: dict[type[Exception], type[httpx.TransportError]] = {
    httpcore.TimeoutException: httpx.TimeoutException,
    httpcore.ConnectTimeout: httpx.ConnectTimeout,
    httpcore.ReadTimeout: httpx.ReadTimeout,
    httpcore.WriteTimeout: httpx.WriteTimeout,
    httpcore.PoolTimeout: httpx.PoolTimeout,
    httpcore.NetworkError: httpx.NetworkError,
    httpcore.ConnectError: httpx.ConnectError,
    httpcore.ReadError: httpx.ReadError,
    httpcore.WriteError: httpx.WriteError,
    httpcore.ProxyError: httpx.ProxyError,
    httpcore.UnsupportedProtocol: httpx.UnsupportedProtocol,
    httpcore.ProtocolError: httpx.ProtocolError,
    httpcore.LocalProtocolError: httpx.LocalProtocolError,
    httpcore.RemoteProtocolError: httpx.RemoteProtocolError,
}


def names_a_proxy() -> bool:
    """Whether the environment (or the system's settings) names a proxy, as httpx reads them."""
    proxies = urllib.request.getproxies()
    return any(proxies.get(scheme) for scheme in ("http", "https", "all"))


@contextlib.contextmanager
def httpx_errors() -> Iterator[None]:
    """Raise httpcore's failures as the httpx exceptions the client handles."""
    try:
        yield
    except Exception as exc:
        mapped = next((_HTTPX_ERRORS[k] for k in type(exc).__mro__ if k in _HTTPX_ERRORS), None)
        if mapped is None:
            raise
        raise mapped(str(exc)) from exc


class DirectTransport(httpx.AsyncBaseTransport):
    """HTTP/1.1 to the server, `limits.max_connections` connections at most, over TLS
    with `ssl_context` for https."""

    def __init__(self, ssl_context: ssl.SSLContext, limits: httpx.Limits) -> None:
        self.ssl_context = ssl_context
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            http1=True,
            http2=False,
            network_backend=AsyncioNetworkBackend(),
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.AsyncByteStream)
        sent = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with httpx_errors():
            answer = await self._pool.handle_async_request(sent)
        assert isinstance(answer.stream, AsyncIterable)
        return httpx.Response(
            status_code=answer.status,
            headers=answer.headers,
            stream=_Body(answer.stream),
            extensions=answer.extensions,
        )

    async def aclose(self) -> None:
        await self._pool.aclose()


class _Body(httpx.AsyncByteStream):
    """An answer's body as httpcore reads it, its failures as httpx's."""

    def __init__(self, parts: AsyncIterable[bytes]) -> None:
        self._parts = parts

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with httpx_errors():
            async for part in self._parts:
                yield part

    async def aclose(self) -> None:
        close = getattr(self._parts, "aclose", None)
        if close is not None:
            await close()
