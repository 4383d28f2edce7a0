"""What the API and the avatar server share: HTTP/1.1 plumbing, recording and faults.

Responses are written byte by byte with `http.server`, so a fault can cut a body short
or close the connection without an answer, as broken networks and proxies do.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import socketserver
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol
from urllib.parse import SplitResult, urlsplit

from cardviewer.demo.faults import ActiveFault, Fault, RequestKind

if TYPE_CHECKING:
    from cardviewer.demo.auth import TokenStore
    from cardviewer.demo.config import DemoConfig
    from cardviewer.demo.data import DemoCard, DemoSpace
    from cardviewer.demo.faults import FaultInjector

log = logging.getLogger("cardviewer.demo")

ServerKind = Literal["api", "avatar"]
MAX_BODY = 1024 * 1024  # nginx's default client_max_body_size
JSON_TYPE = "application/json"
HTML_TYPE = "text/html"
JSON_HEADERS = {"Cache-Control": "no-cache, private"}


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """A request as it arrived; `headers` has lower-case names."""

    method: str
    path: str
    headers: dict[str, str]
    server: ServerKind
    body: bytes = field(default=b"", repr=False)


def laravel_json(value: Any) -> bytes:
    """JSON as PHP's `json_encode` writes it: compact, `\\uXXXX` for non-ASCII, `\\/`."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("/", "\\/").encode("ascii")


def nginx_page(status: int, reason: str) -> bytes:
    """The error page nginx writes itself, byte for byte."""
    title = f"{status} {reason}"
    return (
        f"<html>\r\n<head><title>{title}</title></head>\r\n<body>\r\n"
        f"<center><h1>{title}</h1></center>\r\n<hr><center>nginx</center>\r\n"
        "</body>\r\n</html>\r\n"
    ).encode("ascii")


class DemoApp(Protocol):
    """What the handlers ask of the server they answer for (`DemoServer`).

    Named here rather than imported, since the server imports the handlers.
    """

    @property
    def config(self) -> DemoConfig: ...
    @property
    def email(self) -> str: ...
    @property
    def password(self) -> str: ...
    @property
    def faults(self) -> FaultInjector: ...
    @property
    def tokens(self) -> TokenStore: ...
    @property
    def spaces(self) -> Mapping[str, DemoSpace]: ...
    @property
    def base_url(self) -> str: ...
    @property
    def avatar_port(self) -> int: ...

    def issue_token(self) -> dict[str, str]: ...
    def avatar_card(self, avatar_uuid: str) -> DemoCard | None: ...
    def pause(self, seconds: float) -> bool: ...
    def record(self, request: RecordedRequest) -> None: ...


class BadRequestBody(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


class DemoHTTPServer(ThreadingHTTPServer):
    """One listening socket; a thread per connection; knows its connections to end them."""

    daemon_threads = True
    request_queue_size = 128

    def __init__(
        self,
        address: tuple[str, int],
        handler: type[DemoHandler],
        app: DemoApp,
        kind: ServerKind,
    ) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.app = app
        self.kind = kind
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()
        super().__init__(address, handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind looks up the host's full DNS name, which can take seconds.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name = str(host)
        self.server_port = int(port)

    def handle_error(self, request: Any, client_address: Any) -> None:
        log.debug(
            "%s server: error on a connection from %s", self.kind, client_address[0], exc_info=True
        )

    def track(self, connection: socket.socket) -> None:
        with self._connections_lock:
            self._connections.add(connection)

    def untrack(self, connection: socket.socket) -> None:
        with self._connections_lock:
            self._connections.discard(connection)

    def close_connections(self) -> None:
        """End kept-alive connections, which would otherwise outlive the server."""
        with self._connections_lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)


class DemoHandler(BaseHTTPRequestHandler):
    """Reads the request, records it, waits the configured latency, applies a fault, answers.

    Subclasses say which kind of request a path is (`request_kind`) and answer it
    (`respond`).
    """

    protocol_version = "HTTP/1.1"
    server_version = "nginx"
    sys_version = ""
    timeout = 120  # seconds an idle kept-alive connection stays open
    disable_nagle_algorithm = True  # headers and body go out at once on keep-alive
    server: DemoHTTPServer
    kind: ClassVar[ServerKind]

    _truncate = False
    _responded = False

    @property
    def app(self) -> DemoApp:
        return self.server.app

    # Subclass hooks

    def request_kind(self, path: str) -> RequestKind:
        raise NotImplementedError

    def latency(self) -> float:
        raise NotImplementedError

    def respond(self, url: SplitResult, body: bytes, fault: ActiveFault | None) -> None:
        raise NotImplementedError

    # Connection lifecycle

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection)

    def finish(self) -> None:
        self.server.untrack(self.connection)
        super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        # Request lines only: headers, and so tokens, are never logged.
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s %s: %s", self.kind, self.address_string(), format % args)

    def do_GET(self) -> None:
        self._serve()

    def do_HEAD(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def do_PUT(self) -> None:
        self._serve()

    def do_PATCH(self) -> None:
        self._serve()

    def do_DELETE(self) -> None:
        self._serve()

    def do_OPTIONS(self) -> None:
        self._serve()

    def _serve(self) -> None:
        self._truncate = False
        self._responded = False
        try:
            body = self._read_body()
        except BadRequestBody as exc:
            self.close_connection = True
            self.send_html(exc.status, nginx_page(exc.status, exc.reason))
            return
        self.app.record(
            RecordedRequest(
                method=self.command,
                path=self.path,
                headers=self._header_dict(),
                server=self.kind,
                body=body,
            )
        )
        url = urlsplit(self.path)
        try:
            if self.app.pause(self.latency()):
                self.close_connection = True  # the server is stopping
                return
            fault = self.app.faults.take(self.request_kind(url.path))
            if fault is not None and self._apply_fault(fault):
                return
            self.respond(url, body, fault)
        except ConnectionError:
            log.debug("%s: the client went away", self.kind)
            self.close_connection = True
        except Exception:
            log.exception("%s server: failed to answer %s %s", self.kind, self.command, url.path)
            self.close_connection = True
            if not self._responded:
                self.send_json(500, {"message": "Server Error"})

    def _header_dict(self) -> dict[str, str]:
        headers: dict[str, str] = {}
        for name, value in self.headers.items():
            key = name.lower()
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
        return headers

    def _read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._read_chunked()
        length = self.headers.get("Content-Length")
        if not length:
            return b""
        try:
            size = int(length)
        except ValueError:
            raise BadRequestBody(400, "Bad Request") from None
        if size < 0:
            raise BadRequestBody(400, "Bad Request")
        if size > MAX_BODY:
            raise BadRequestBody(413, "Request Entity Too Large")
        return self.rfile.read(size)

    def _read_chunked(self) -> bytes:
        chunks: list[bytes] = []
        total = 0
        while True:
            line = self.rfile.readline(1024).split(b";")[0].strip()
            try:
                size = int(line, 16)
            except ValueError:
                raise BadRequestBody(400, "Bad Request") from None
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return b"".join(chunks)
            total += size
            if total > MAX_BODY:
                raise BadRequestBody(413, "Request Entity Too Large")
            chunks.append(self.rfile.read(size))
            self.rfile.readline(1024)

    def _apply_fault(self, active: ActiveFault) -> bool:
        """Act out a fault; True when it has produced the whole answer (or none at all)."""
        fault = active.fault
        log.debug("%s: injecting %s", self.kind, fault.name)
        if fault is Fault.SLOW:
            if self.app.pause(active.delay):
                self.close_connection = True
                return True
            return False
        if fault is Fault.TRUNCATED_JSON:
            self._truncate = True
            return False
        if fault is Fault.WRONG_TYPES:
            return False  # `respond` alters its answer
        if fault is Fault.DROP_CONNECTION:
            self.close_connection = True
        elif fault is Fault.HTML_502:
            self.send_html(502, nginx_page(502, "Bad Gateway"))
        elif fault is Fault.RATE_LIMITED:
            self.send_json(
                429,
                {"message": "Too Many Attempts."},
                {
                    "Retry-After": str(active.retry_after),
                    "X-RateLimit-Limit": "60",
                    "X-RateLimit-Remaining": "0",
                },
            )
        elif fault is Fault.SERVICE_UNAVAILABLE:
            if "json" in self.headers.get("Accept", ""):
                self.send_json(503, {"message": "Service Unavailable"})
            else:
                self.send_html(503, nginx_page(503, "Service Temporarily Unavailable"))
        elif fault is Fault.REVOKED_TOKEN:
            self.send_json(401, {"message": "Unauthenticated."})
        return True

    # Writing answers

    def send_response(self, code: int, message: str | None = None) -> None:
        self._responded = True
        super().send_response(code, message)

    def send_bytes(
        self,
        status: int,
        body: bytes,
        content_type: str | None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """A complete answer with Content-Length, or half of one when a fault truncates it."""
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        no_body = self.command == "HEAD" or status in (204, 304)
        if self._truncate and not no_body:
            # No Content-Length: the body ends where the connection does, after half of it.
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            return
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if not no_body:
            self.wfile.write(body)

    def send_json(self, status: int, value: Any, headers: Mapping[str, str] | None = None) -> None:
        self.send_bytes(status, laravel_json(value), JSON_TYPE, {**JSON_HEADERS, **(headers or {})})

    def send_html(self, status: int, body: bytes, headers: Mapping[str, str] | None = None) -> None:
        self.send_bytes(status, body, HTML_TYPE, headers)
