"""httpcore's network on asyncio's own transports: a body read without a task switch per chunk.

httpx reads through httpcore, which reaches the network through anyio by default.
anyio's stream pauses the socket after every chunk it hands out and resumes it before
the next, yields to the event loop even when data is waiting, copies the rest of a
chunk larger than asked for, and opens a cancel scope for each read. A page of a
100,000-card space is 1.1 MB, read 64 KB at a time: that machinery was about a quarter
of the client's CPU for a page, on the window's thread (4.7 to 5.7 ms a page, now 3.8
to 4.3, measured alternately).

`AsyncioNetworkBackend` keeps a connection reading into a queue (paused only while a
megabyte waits unread), hands out what is there without copying more than the part
asked for, and starts a timer only when a read has to wait. It speaks httpcore's
public network interface (`AsyncNetworkBackend`, `AsyncNetworkStream`) and maps
failures to httpcore's errors as its own anyio backend does.
"""

from __future__ import annotations

import asyncio
import select
import ssl
from collections import deque
from collections.abc import Iterable
from typing import Any

import httpcore

READ_HIGH_WATER = 1024 * 1024
"""Bytes received and not yet read at which the connection stops reading…"""
READ_LOW_WATER = 256 * 1024
"""…and at or under which it reads again."""
HAPPY_EYEBALLS_DELAY = 0.25
"""Seconds before trying a host's next address while the first still connects (RFC 8305,
anyio's choice too)."""

SocketOption = (
    tuple[int, int, int] | tuple[int, int, bytes | bytearray] | tuple[int, int, None, int]
)


class _ReceivingProtocol(asyncio.Protocol):
    """What a connection received and nobody has read yet, and who waits for it."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self._chunks: deque[bytes] = deque()
        self._offset = 0
        self._buffered = 0
        self._reading_paused = False
        self._writing_paused = False
        self._ended = False
        self._error: Exception | None = None
        self._read_waiter: asyncio.Future[None] | None = None
        self._drain_waiter: asyncio.Future[None] | None = None

    # asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self._chunks.append(data)
        self._buffered += len(data)
        if self._buffered >= READ_HIGH_WATER and not self._reading_paused:
            self._reading_paused = True
            assert self.transport is not None
            self.transport.pause_reading()
        _wake(self._read_waiter)

    def eof_received(self) -> bool:
        self._ended = True
        _wake(self._read_waiter)
        return False  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended = True
        self._error = exc
        _wake(self._read_waiter)
        _wake(self._drain_waiter)

    def pause_writing(self) -> None:
        self._writing_paused = True

    def resume_writing(self) -> None:
        self._writing_paused = False
        _wake(self._drain_waiter)

    # For the stream

    @property
    def has_data(self) -> bool:
        return bool(self._chunks)

    @property
    def ended(self) -> bool:
        return self._ended

    @property
    def writing_paused(self) -> bool:
        return self._writing_paused and not self._ended

    def take(self, max_bytes: int) -> bytes:
        """Up to `max_bytes` of what was received: b"" at the end, the failure if lost."""
        if not self._chunks:
            if self._error is not None:
                message = str(self._error) or type(self._error).__name__
                raise httpcore.ReadError(message) from self._error  # a TLS failure, say
            return b""
        chunk = self._chunks[0]
        start = self._offset
        end = start + max_bytes
        if end >= len(chunk):
            self._chunks.popleft()
            self._offset = 0
            part = chunk[start:] if start else chunk
        else:
            self._offset = end
            part = chunk[start:end]
        self._buffered -= len(part)
        if self._reading_paused and self._buffered <= READ_LOW_WATER:
            self._reading_paused = False
            if self.transport is not None and not self.transport.is_closing():
                self.transport.resume_reading()
        return part

    async def readable(self) -> None:
        """Return once there is something to read, or the connection has ended."""
        while not self._chunks and not self._ended:
            self._read_waiter = asyncio.get_running_loop().create_future()
            try:
                await self._read_waiter
            finally:
                self._read_waiter = None

    async def drained(self) -> None:
        """Return once the transport takes writes again, or the connection has ended."""
        while self.writing_paused:
            self._drain_waiter = asyncio.get_running_loop().create_future()
            try:
                await self._drain_waiter
            finally:
                self._drain_waiter = None


def _wake(waiter: asyncio.Future[None] | None) -> None:
    if waiter is not None and not waiter.done():
        waiter.set_result(None)


class AsyncioStream(httpcore.AsyncNetworkStream):
    """One connection, plain or secure, as httpcore reads and writes it."""

    def __init__(self, transport: asyncio.Transport, protocol: _ReceivingProtocol) -> None:
        self._transport = transport
        self._protocol = protocol
        self._poll: select.poll | None = None

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:  # noqa: ASYNC109
        if not self._protocol.has_data and not self._protocol.ended:
            try:
                async with asyncio.timeout(timeout):
                    await self._protocol.readable()
            except TimeoutError as exc:
                raise httpcore.ReadTimeout(f"no data within {timeout} s") from exc
        return self._protocol.take(max_bytes)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:  # noqa: ASYNC109
        if not buffer:
            return
        if self._transport.is_closing() or self._protocol.ended:
            raise httpcore.WriteError("the connection is closed")
        self._transport.write(buffer)
        if self._protocol.writing_paused:
            try:
                async with asyncio.timeout(timeout):
                    await self._protocol.drained()
            except TimeoutError as exc:
                raise httpcore.WriteTimeout(f"not sent within {timeout} s") from exc
            if self._transport.is_closing():
                raise httpcore.WriteError("the connection closed before all was sent")

    async def aclose(self) -> None:
        # At once, as anyio does: `close()` would wait for unsent data (after a write
        # timeout, for good) or for a stalled server's answer to TLS's closing (30 s).
        self._transport.abort()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
    ) -> httpcore.AsyncNetworkStream:
        if self._protocol.ended or self._transport.is_closing():
            self._transport.abort()
            raise httpcore.ConnectError("the connection closed before the TLS handshake")
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout):
                secure = await loop.start_tls(
                    self._transport,
                    self._protocol,
                    ssl_context,
                    server_hostname=server_hostname,
                )
        except TimeoutError as exc:
            self._transport.abort()
            raise httpcore.ConnectTimeout(f"no secure connection within {timeout} s") from exc
        except (OSError, ssl.SSLError, ConnectionError) as exc:
            self._transport.abort()
            raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
        if secure is None:  # the connection closed during the handshake
            raise httpcore.ConnectError("the connection closed during the TLS handshake")
        self._protocol.transport = secure
        return AsyncioStream(secure, self._protocol)

    def get_extra_info(self, info: str) -> Any:
        if info == "ssl_object":
            return self._transport.get_extra_info("ssl_object")
        if info == "client_addr":
            return self._transport.get_extra_info("sockname")
        if info == "server_addr":
            return self._transport.get_extra_info("peername")
        if info == "socket":
            return self._transport.get_extra_info("socket")
        if info == "is_readable":
            # Asked of an idle connection before it is used again: anything received
            # (most often the server's close) means it must not be.
            return self._protocol.has_data or self._protocol.ended or self._socket_readable()
        return None

    def _socket_readable(self) -> bool:
        """Whether the kernel holds data or an end that the loop has not read yet."""
        sock = self._transport.get_extra_info("socket")  # asyncio's TransportSocket
        if sock is None or sock.fileno() < 0:
            return True
        if not hasattr(select, "poll"):  # Windows
            readable, _, _ = select.select([sock], [], [], 0)
            return bool(readable)
        if self._poll is None:
            self._poll = select.poll()
            self._poll.register(sock.fileno(), select.POLLIN)
        return bool(self._poll.poll(0))


class AsyncioNetworkBackend(httpcore.AsyncNetworkBackend):
    """Connections for httpcore's pool from the running asyncio loop (qasync's in the app)."""

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
        local_address: str | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout):
                transport, protocol = await loop.create_connection(
                    _ReceivingProtocol,
                    host,
                    port,
                    local_addr=(local_address, 0) if local_address else None,
                    happy_eyeballs_delay=HAPPY_EYEBALLS_DELAY,
                )
        except TimeoutError as exc:
            raise httpcore.ConnectTimeout(f"no connection within {timeout} s") from exc
        except OSError as exc:
            raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
        assert isinstance(transport, asyncio.Transport)
        sock = transport.get_extra_info("socket")
        try:
            for option in socket_options or ():
                sock.setsockopt(*option)
        except OSError as exc:
            transport.abort()
            raise httpcore.ConnectError(f"socket option refused: {exc}") from exc
        return AsyncioStream(transport, protocol)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
