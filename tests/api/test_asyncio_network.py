"""httpcore's network on asyncio's transports: what is read, how it waits, how it fails."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpcore
import pytest
import trustme
from hypothesis import given
from hypothesis import strategies as st

from cardviewer.api import asyncio_network
from cardviewer.api.asyncio_network import (
    READ_HIGH_WATER,
    READ_LOW_WATER,
    AsyncioNetworkBackend,
    _ReceivingProtocol,
)

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


class FakeTransport(asyncio.Transport):
    """Records what the protocol asks of its transport."""

    def __init__(self, sock: socket.socket | None = None) -> None:
        super().__init__()
        self.calls: list[str] = []
        self.written: list[bytes] = []
        self.closing = False
        self.sock = sock

    def pause_reading(self) -> None:
        self.calls.append("pause")

    def resume_reading(self) -> None:
        self.calls.append("resume")

    def is_closing(self) -> bool:
        return self.closing

    def write(self, data: Any) -> None:
        self.written.append(bytes(data))

    def close(self) -> None:
        self.closing = True

    def abort(self) -> None:
        self.calls.append("abort")
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.sock if name == "socket" else default


def protocol_on(transport: asyncio.Transport) -> _ReceivingProtocol:
    protocol = _ReceivingProtocol()
    protocol.connection_made(transport)
    return protocol


# What is read


@given(
    chunks=st.lists(st.binary(min_size=1, max_size=300), max_size=12),
    sizes=st.lists(st.integers(min_value=1, max_value=400), min_size=1, max_size=8),
)
def test_reads_give_back_every_byte_in_order_and_never_more_than_asked(chunks, sizes):
    protocol = protocol_on(FakeTransport())
    for chunk in chunks:
        protocol.data_received(chunk)
    protocol.eof_received()
    read = []
    for turn in range(10_000):
        part = protocol.take(sizes[turn % len(sizes)])
        if not part:
            break
        assert len(part) <= sizes[turn % len(sizes)]
        read.append(part)
    assert b"".join(read) == b"".join(chunks)
    assert protocol.take(10) == b""  # and the end stays the end


def test_a_whole_chunk_is_handed_out_as_received_not_copied():
    protocol = protocol_on(FakeTransport())
    chunk = b"x" * 1000
    protocol.data_received(chunk)
    assert protocol.take(65536) is chunk


def test_after_the_data_a_lost_connection_is_a_read_error():
    protocol = protocol_on(FakeTransport())
    protocol.data_received(b"HTTP/1.1 200 OK\r\n")
    protocol.connection_lost(ConnectionResetError(104, "Connection reset by peer"))
    assert protocol.take(100) == b"HTTP/1.1 200 OK\r\n"
    with pytest.raises(httpcore.ReadError, match="reset"):
        protocol.take(100)


def test_a_connection_closed_cleanly_reads_as_its_end():
    protocol = protocol_on(FakeTransport())
    protocol.connection_lost(None)
    assert protocol.take(100) == b""


# Flow control


def test_reading_pauses_while_a_megabyte_waits_and_resumes_once_it_is_read():
    transport = FakeTransport()
    protocol = protocol_on(transport)
    piece = b"y" * (64 * 1024)
    for _ in range(READ_HIGH_WATER // len(piece) - 1):
        protocol.data_received(piece)
    assert transport.calls == []
    protocol.data_received(piece)
    protocol.data_received(piece)  # the socket's last read before the pause took hold
    assert transport.calls == ["pause"]
    while protocol._buffered > READ_LOW_WATER + len(piece):
        protocol.take(len(piece))
    assert transport.calls == ["pause"]
    protocol.take(len(piece))
    assert transport.calls == ["pause", "resume"]
    protocol.take(len(piece))
    assert transport.calls == ["pause", "resume"]


def test_reading_pauses_once_past_the_mark_and_resumes_once_back_under_the_other():
    transport = FakeTransport()
    protocol = protocol_on(transport)
    protocol.data_received(b"a" * (READ_HIGH_WATER - 10))
    assert transport.calls == []
    protocol.data_received(b"b" * 20)  # past the mark, never on it
    assert transport.calls == ["pause"]
    protocol.take(READ_HIGH_WATER - READ_LOW_WATER - 5)  # 15 bytes above the low mark
    assert transport.calls == ["pause"]
    protocol.take(30)  # 15 under it
    assert transport.calls == ["pause", "resume"]


def test_a_closing_connection_is_not_asked_to_read_again():
    transport = FakeTransport()
    protocol = protocol_on(transport)
    protocol.data_received(b"a" * READ_HIGH_WATER)
    transport.closing = True
    protocol.take(READ_HIGH_WATER)
    assert transport.calls == ["pause"]


def test_the_end_of_what_the_server_sends_reads_as_the_end_and_closes_the_transport():
    protocol = protocol_on(FakeTransport())
    protocol.data_received(b"last")
    assert protocol.eof_received() is False  # asyncio closes the transport then
    assert protocol.take(100) == b"last"
    assert protocol.take(100) == b""


async def test_a_write_the_transport_takes_returns_at_once():
    transport = FakeTransport()
    stream = asyncio_network.AsyncioStream(transport, protocol_on(transport))
    await asyncio.wait_for(stream.write(b"GET / HTTP/1.1\r\n\r\n"), 1)
    assert transport.written == [b"GET / HTTP/1.1\r\n\r\n"]


def test_an_idle_connection_is_readable_once_anything_came_or_it_ended():
    quiet, other = socket.socketpair()
    with quiet, other:
        for got, ended, expected in [
            (False, False, False),
            (True, False, True),
            (False, True, True),
        ]:
            transport = FakeTransport(quiet)
            protocol = protocol_on(transport)
            if got:
                protocol.data_received(b"HTTP/1.1 408 Request Timeout\r\n")
            if ended:
                protocol.connection_lost(None)
            stream = asyncio_network.AsyncioStream(transport, protocol)
            assert stream.get_extra_info("is_readable") is expected, (got, ended)
        other.send(b"x")  # in the kernel, not yet read by the loop
        stream = asyncio_network.AsyncioStream(FakeTransport(quiet), protocol_on(FakeTransport()))
        assert stream.get_extra_info("is_readable") is True
    closed = asyncio_network.AsyncioStream(FakeTransport(None), protocol_on(FakeTransport()))
    assert closed.get_extra_info("is_readable") is True, "a transport without its socket"


async def test_a_write_the_transport_cannot_take_waits_for_it_within_the_timeout():
    transport = FakeTransport()
    protocol = protocol_on(transport)
    stream = asyncio_network.AsyncioStream(transport, protocol)
    protocol.pause_writing()
    with pytest.raises(httpcore.WriteTimeout):
        await stream.write(b"GET / HTTP/1.1\r\n\r\n", timeout=0.05)
    loop = asyncio.get_running_loop()
    loop.call_later(0.02, protocol.resume_writing)
    await stream.write(b"more", timeout=5)
    assert transport.written == [b"GET / HTTP/1.1\r\n\r\n", b"more"]


async def test_a_write_waiting_when_the_connection_is_lost_is_a_write_error():
    transport = FakeTransport()
    protocol = protocol_on(transport)
    stream = asyncio_network.AsyncioStream(transport, protocol)
    protocol.pause_writing()
    writing = asyncio.ensure_future(stream.write(b"GET / HTTP/1.1\r\n\r\n", timeout=5))
    await asyncio.sleep(0.01)
    assert not writing.done()
    transport.closing = True
    protocol.connection_lost(ConnectionResetError(104, "Connection reset by peer"))
    with pytest.raises(httpcore.WriteError):
        await asyncio.wait_for(writing, 1)


def test_a_failure_that_ended_the_connection_is_the_read_errors_cause():
    protocol = protocol_on(FakeTransport())
    failure = ssl.SSLError(1, "[SSL: DECRYPTION_FAILED_OR_BAD_RECORD_MAC]")
    protocol.connection_lost(failure)
    with pytest.raises(httpcore.ReadError) as info:
        protocol.take(100)
    assert info.value.__cause__ is failure


async def test_writing_to_a_closed_connection_is_a_write_error():
    transport = FakeTransport()
    stream = asyncio_network.AsyncioStream(transport, protocol_on(transport))
    await stream.aclose()
    with pytest.raises(httpcore.WriteError):
        await stream.write(b"GET / HTTP/1.1\r\n\r\n")
    await stream.write(b"")  # nothing to send is no failure


# Over loopback

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@contextlib.asynccontextmanager
async def loopback_server(handle: Handler, tls: ssl.SSLContext | None = None) -> AsyncIterator[int]:
    server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=tls)
    async with server:
        yield server.sockets[0].getsockname()[1]


async def keep_open(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A server that answers nothing and keeps the connection until the client closes it."""
    await reader.read()


LARGE_BODY = bytes(range(256)) * (3 * READ_HIGH_WATER // 256)


async def send_large_body(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(LARGE_BODY)
    await writer.drain()
    writer.close()


async def read_slowly(stream: httpcore.AsyncNetworkStream) -> bytes:
    """Everything until the end, pausing now and then so that the buffer fills to its mark."""
    received = []
    while part := await stream.read(65536, timeout=5):
        received.append(part)
        if len(received) % 8 == 0:
            await asyncio.sleep(0.005)
    return b"".join(received)


async def test_a_body_larger_than_the_buffer_arrives_whole_while_read_slowly():
    async with loopback_server(send_large_body) as port:
        stream = await AsyncioNetworkBackend().connect_tcp("127.0.0.1", port, timeout=5)
        assert await read_slowly(stream) == LARGE_BODY
        await stream.aclose()


async def test_a_read_with_nothing_sent_times_out():
    async with loopback_server(keep_open) as port:
        stream = await AsyncioNetworkBackend().connect_tcp("127.0.0.1", port, timeout=5)
        with pytest.raises(httpcore.ReadTimeout):
            await stream.read(65536, timeout=0.05)
        await stream.aclose()


async def test_an_idle_connection_the_server_closed_is_readable_and_one_it_kept_is_not():
    closed = asyncio.Event()

    async def close_second(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readexactly(3)
        writer.close()
        closed.set()

    backend = AsyncioNetworkBackend()
    async with loopback_server(keep_open) as kept_port, loopback_server(close_second) as port:
        kept = await backend.connect_tcp("127.0.0.1", kept_port, timeout=5)
        closing = await backend.connect_tcp("127.0.0.1", port, timeout=5)
        assert kept.get_extra_info("is_readable") is False
        assert closing.get_extra_info("is_readable") is False
        await closing.write(b"bye")
        await closed.wait()
        for _ in range(100):  # the close reaches the kernel, perhaps not yet the loop
            if closing.get_extra_info("is_readable"):
                break
            await asyncio.sleep(0.01)
        assert closing.get_extra_info("is_readable") is True
        assert kept.get_extra_info("is_readable") is False
        sock = kept.get_extra_info("socket")
        assert sock.fileno() >= 0
        assert kept.get_extra_info("client_addr") == sock.getsockname()
        assert kept.get_extra_info("server_addr") == ("127.0.0.1", kept_port)
        assert kept.get_extra_info("ssl_object") is None
        assert kept.get_extra_info("unknown") is None
        await kept.aclose()
        await closing.aclose()


async def test_a_connection_takes_the_local_address_and_socket_options_asked_for():
    async with loopback_server(keep_open) as port:
        stream = await AsyncioNetworkBackend().connect_tcp(
            "127.0.0.1",
            port,
            timeout=5,
            local_address="127.0.0.2",
            socket_options=[(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)],
        )
        sock = stream.get_extra_info("socket")
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        assert stream.get_extra_info("client_addr")[0] == "127.0.0.2"
        await stream.aclose()


async def test_closing_lets_go_of_the_socket_at_once_even_with_data_unsent():
    async def never_read(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(5)

    async with loopback_server(never_read) as port:
        stream = await AsyncioNetworkBackend().connect_tcp("127.0.0.1", port, timeout=5)
        sock = stream.get_extra_info("socket")
        with pytest.raises(httpcore.WriteTimeout):
            await stream.write(b"x" * 20_000_000, timeout=0.2)
        await stream.aclose()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert sock.fileno() == -1


async def test_a_socket_option_the_system_refuses_is_a_connect_error():
    async with loopback_server(keep_open) as port:
        with pytest.raises(httpcore.ConnectError) as info:
            await AsyncioNetworkBackend().connect_tcp(
                "127.0.0.1", port, timeout=5, socket_options=[(socket.SOL_SOCKET, 12345, 1)]
            )
    assert isinstance(info.value.__cause__, OSError)


async def test_a_refused_connection_is_a_connect_error_with_its_cause():
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    with pytest.raises(httpcore.ConnectError) as info:
        await AsyncioNetworkBackend().connect_tcp("127.0.0.1", port, timeout=5)
    assert isinstance(info.value.__cause__, OSError)


async def test_a_connection_that_takes_too_long_is_a_connect_timeout(monkeypatch):
    loop = asyncio.get_running_loop()

    async def never(*args: Any, **kwargs: Any) -> Any:
        await asyncio.Event().wait()

    monkeypatch.setattr(loop, "create_connection", never)
    with pytest.raises(httpcore.ConnectTimeout):
        await AsyncioNetworkBackend().connect_tcp("127.0.0.1", 9, timeout=0.05)


# TLS


@pytest.fixture(scope="module")
def authority() -> trustme.CA:
    return trustme.CA()


def server_tls(authority: trustme.CA) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("localhost", "127.0.0.1").configure_cert(context)
    return context


def client_tls(authority: trustme.CA | None) -> ssl.SSLContext:
    context = ssl.create_default_context()
    if authority is not None:
        authority.configure_trust(context)
    return context


async def echo_line(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(b"you said: " + await reader.readline())
    await writer.drain()
    writer.close()


async def test_a_secure_connection_carries_data_both_ways(authority):
    async with loopback_server(echo_line, server_tls(authority)) as port:
        plain = await AsyncioNetworkBackend().connect_tcp("127.0.0.1", port, timeout=5)
        secure = await plain.start_tls(client_tls(authority), "localhost", timeout=5)
        assert isinstance(secure.get_extra_info("ssl_object"), ssl.SSLObject)
        assert secure.get_extra_info("server_addr") == ("127.0.0.1", port)
        assert secure.get_extra_info("client_addr") == plain.get_extra_info("client_addr")
        assert secure.get_extra_info("unknown") is None
        await secure.write(b"hello\n", timeout=5)
        received = b""
        while part := await secure.read(4, timeout=5):
            received += part
        await secure.aclose()
    assert received == b"you said: hello\n"


async def test_an_untrusted_certificate_fails_the_handshake_with_the_ssl_error_as_cause():
    async with loopback_server(echo_line, server_tls(trustme.CA())) as port:
        plain = await AsyncioNetworkBackend().connect_tcp("127.0.0.1", port, timeout=5)
        with pytest.raises(httpcore.ConnectError) as info:
            await plain.start_tls(client_tls(None), "localhost", timeout=5)
    assert isinstance(info.value.__cause__, ssl.SSLCertVerificationError)


async def test_a_large_body_over_tls_read_slowly_arrives_whole(authority):
    async with loopback_server(send_large_body, server_tls(authority)) as port:
        plain = await AsyncioNetworkBackend().connect_tcp("127.0.0.1", port, timeout=5)
        secure = await plain.start_tls(client_tls(authority), "localhost", timeout=5)
        assert await read_slowly(secure) == LARGE_BODY
        await secure.aclose()


@pytest.mark.parametrize("waits_in", ["read", "write"])
async def test_a_task_cancelled_while_it_waits_is_cancelled_and_waits_no_more(waits_in):
    transport = FakeTransport()
    protocol = protocol_on(transport)
    stream = asyncio_network.AsyncioStream(transport, protocol)
    waiting: asyncio.Future[object]
    if waits_in == "write":
        protocol.pause_writing()
        waiting = asyncio.ensure_future(stream.write(b"GET / HTTP/1.1\r\n\r\n", timeout=30))
    else:
        waiting = asyncio.ensure_future(stream.read(65536, timeout=30))
    await asyncio.sleep(0.01)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert protocol._read_waiter is None
    assert protocol._drain_waiter is None
    protocol.data_received(b"late")  # nobody is woken, nothing fails
    protocol.resume_writing()
    assert protocol.take(100) == b"late"


async def test_a_handshake_on_a_connection_already_ended_fails_at_once():
    transport = FakeTransport()
    protocol = protocol_on(transport)
    protocol.eof_received()
    stream = asyncio_network.AsyncioStream(transport, protocol)
    with pytest.raises(httpcore.ConnectError):
        await asyncio.wait_for(stream.start_tls(client_tls(None), "localhost", timeout=30), 1)
    assert "abort" in transport.calls


async def test_a_handshake_with_no_answer_is_a_connect_timeout():
    async with loopback_server(keep_open) as port:
        plain = await AsyncioNetworkBackend().connect_tcp("127.0.0.1", port, timeout=5)
        with pytest.raises(httpcore.ConnectTimeout):
            await plain.start_tls(client_tls(None), "localhost", timeout=0.1)
