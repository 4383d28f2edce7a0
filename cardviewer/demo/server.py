"""The demo server: the API and the avatar host on two local ports, in background threads."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from types import TracebackType
from typing import Self

from cardviewer.demo import avatars
from cardviewer.demo.api_server import ApiHandler
from cardviewer.demo.auth import TokenStore
from cardviewer.demo.avatar_server import AvatarHandler
from cardviewer.demo.config import DemoConfig
from cardviewer.demo.data import (
    DEMO_EMAIL,
    DEMO_PASSWORD,
    DEMO_SPACE_ID,
    EMPTY_SPACE_ID,
    DemoCard,
)
from cardviewer.demo.faults import FaultInjector
from cardviewer.demo.handler import DemoHTTPServer, RecordedRequest
from cardviewer.demo.spaces import avatar_index, build_spaces

log = logging.getLogger("cardviewer.demo")


def _url_host(host: str) -> str:
    """How a client on this computer reaches a server bound to `host`."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


class DemoServer:
    """A faithful local stand-in for the platform, with sample data and fault injection.

    `start()` binds both ports (0 picks free ones) and serves until `stop()`; as a
    context manager it does both. Every request either server sees is kept in
    `requests`.
    """

    def __init__(
        self,
        config: DemoConfig | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        avatar_port: int = 0,
    ) -> None:
        self.config = config if config is not None else DemoConfig()
        self.host = host
        self.space_id = DEMO_SPACE_ID
        self.empty_space_id = EMPTY_SPACE_ID
        self.email = DEMO_EMAIL
        self.password = DEMO_PASSWORD
        self.faults = FaultInjector()
        self.tokens = TokenStore()
        self.requests: list[RecordedRequest] = []
        self.spaces = build_spaces(self.config.card_count, self.config.seed)
        self._avatars = avatar_index(self.spaces.values())
        self._ports = (port, avatar_port)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._servers: list[DemoHTTPServer] = []
        self._threads: list[threading.Thread] = []

    # Lifecycle

    def start(
        self, *, free_ports_if_taken: bool = False, free_avatar_port_if_taken: bool = False
    ) -> Self:
        """Bind the ports given, or with `free_ports_if_taken` free ones where either is
        taken (another demo server on them, say), and serve. `free_avatar_port_if_taken`:
        the API's port given or none, the avatars' given or a free one."""
        if self._servers:
            raise RuntimeError("the demo server is already started")
        if self._stopping.is_set():
            raise RuntimeError("a stopped demo server cannot start again")
        avatars.claim_qt_main_thread()  # before its threads draw the first picture
        try:
            self._servers = self._bound(self._ports)
        except OSError as error:
            if free_avatar_port_if_taken and self._ports[1]:
                log.info("the avatar port %d is taken (%s); a free one is used",
                         self._ports[1], error)  # fmt: skip
                self._servers = self._bound((self._ports[0], 0))
            elif not free_ports_if_taken or self._ports == (0, 0):
                raise
            else:
                log.info("the demo server's ports %s are taken (%s); free ones are used",
                         self._ports, error)  # fmt: skip
                self._servers = self._bound((0, 0))
        for server in self._servers:
            thread = threading.Thread(
                target=server.serve_forever,
                kwargs={"poll_interval": 0.1},
                name=f"demo-{server.kind}-{server.server_port}",
                daemon=True,
            )
            thread.start()
            self._threads.append(thread)
        log.info("demo API at %s, avatars at %s", self.base_url, self.avatar_base_url)
        return self

    def _bound(self, ports: tuple[int, int]) -> list[DemoHTTPServer]:
        """The API's server and the avatar host's, bound to `ports` (0: a free one)."""
        api = DemoHTTPServer((self.host, ports[0]), ApiHandler, self, "api")
        try:
            cdn = DemoHTTPServer((self.host, ports[1]), AvatarHandler, self, "avatar")
        except BaseException:
            api.server_close()
            raise
        return [api, cdn]

    def stop(self) -> None:
        """Stop serving, end open connections and free both ports; safe to call again."""
        if self._stopping.is_set():
            return
        self._stopping.set()  # wakes requests that wait for latency or a slow fault
        for server in self._servers:
            server.shutdown()
            server.close_connections()
            server.server_close()
        for thread in self._threads:
            thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def is_running(self) -> bool:
        return bool(self._servers) and not self._stopping.is_set()

    # Addresses

    def _server(self, index: int) -> DemoHTTPServer:
        if not self._servers:
            raise RuntimeError("the demo server is not started")
        return self._servers[index]

    @property
    def port(self) -> int:
        return self._server(0).server_port

    @property
    def avatar_port(self) -> int:
        return self._server(1).server_port

    @property
    def base_url(self) -> str:
        return f"http://{_url_host(self.host)}:{self.port}"

    @property
    def avatar_base_url(self) -> str:
        return f"http://{_url_host(self.host)}:{self.avatar_port}"

    # Sessions

    def issue_token(self, lifetime: timedelta | None = None) -> dict[str, str]:
        """A session as login returns it; a negative `lifetime` gives one already expired."""
        issued = self.tokens.issue(self.config.token_lifetime if lifetime is None else lifetime)
        return issued.to_json()

    def revoke_all_tokens(self) -> None:
        self.tokens.revoke_all()

    # What the handlers use

    def avatar_card(self, avatar_uuid: str) -> DemoCard | None:
        return self._avatars.get(avatar_uuid)

    def pause(self, seconds: float) -> bool:
        """Wait, unless the server stops meanwhile; True when it is stopping."""
        if seconds <= 0:
            return self._stopping.is_set()
        return self._stopping.wait(seconds)

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def clear_requests(self) -> None:
        with self._lock:
            self.requests.clear()
