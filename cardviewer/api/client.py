"""Async client for the card platform's API: log in, then list a space's cards."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import ssl
import time
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self, TypeVar, cast
from urllib.parse import quote, urlsplit

import httpx
import truststore
from pydantic import ValidationError

from cardviewer import __version__
from cardviewer.api.address import normalize_server_url
from cardviewer.api.answer_heard import try_answered
from cardviewer.api.direct_transport import DirectTransport, names_a_proxy
from cardviewer.api.errors import (
    QT_TRANSLATE_NOOP,
    ApiError,
    InvalidCredentials,
    InvalidInput,
    MalformedRequest,
    NetworkError,
    NotAuthenticated,
    RateLimited,
    ResponseTooLarge,
    Sentence,
    ServerError,
    SpaceUnavailable,
    UnexpectedResponse,
    UnreadableAnswer,
    excerpt,
    map_exceptions,
)
from cardviewer.api.models import CardPage, Session, check_page, parse_page, parse_page_json
from cardviewer.api.retry import NO_RETRY, RetryPolicy, parse_retry_after

log = logging.getLogger(__name__)

T = TypeVar("T")

USER_AGENT = f"cardviewer/{__version__}"
DEFAULT_TIMEOUT = httpx.Timeout(20.0, connect=10.0)
JSON_HEADERS = {"Accept": "application/json", "Content-Type": "application/json"}
MISSING_FIELD_EXCEPTION = "ErrorException"
"""The exception the platform names in its 500 answer to a login without a required field."""

KiB = 1024
MiB = 1024 * KiB


@dataclass(frozen=True, slots=True)
class BodyLimits:
    """The most bytes of an answer's body the client reads, after decoding (gzip).

    A body over `page` or `session` fails the request with `ResponseTooLarge`, which
    is not retried; of an error's body only the first `error` bytes are read, enough
    for its `message` and the excerpt in the log.
    """

    page: int = 16 * MiB
    """A page of 10 cards is about 10 KB; `meta.links` adds about 110 bytes for every
    page of the space, so a space of `MAX_CARDS` cards at 10 a page sends about 11 MB."""
    session: int = 1 * MiB
    """The login answer: a token, a session id and a time, a few KB."""
    error: int = 64 * KiB
    """The start of an error's body: a JSON `message`, or a proxy's HTML page."""


BODY_LIMITS = BodyLimits()


def tls_context() -> ssl.SSLContext:
    """Verify certificates against the operating system's store (corporate roots work).

    `PROTOCOL_TLS_CLIENT` requires a valid certificate for the host name; nothing in
    the app turns that off.
    """
    context = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context


_GONE_OUT = ("send_request_body.complete", ".failed")
"""httpcore's trace events after which a request is on its way, or will not be."""


class CardsClient:
    """One connection pool to one server; holds the bearer token once signed in.

    Reads are retried after failures that pass by themselves, as `retry` says (the
    default `RetryPolicy()` unless given; `RetryPolicy(attempts=1)` never retries).
    Login is sent once only: a second try could count as a second failed attempt.
    Proxies set in the environment (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`) are used
    through httpx's own transports; without one, connections go through `DirectTransport`.
    """

    def __init__(
        self,
        server_url: str,
        *,
        token: str | None = None,
        timeout: httpx.Timeout = DEFAULT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.server_url = normalize_server_url(server_url)
        self.token = token
        self.retry = retry if retry is not None else RetryPolicy()
        self.ssl_context = tls_context()
        self._host = urlsplit(self.server_url).netloc
        limits = httpx.Limits(max_connections=8, max_keepalive_connections=8)
        if transport is None and not names_a_proxy():
            transport = DirectTransport(self.ssl_context, limits)
        self._http = httpx.AsyncClient(
            base_url=self.server_url,
            headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
            timeout=timeout,
            verify=self.ssl_context,
            transport=transport,
            trust_env=True,
            follow_redirects=False,
            limits=limits,
        )
        self._first_out: asyncio.Event | None = asyncio.Event()
        """Set once the first request has gone out whole, or failed on its way; None
        after that, when requests are sent without following them (`first_request_out`)."""

    async def first_request_out(self, within: float) -> bool:
        """Wait until this client's first request has gone out whole (its answer is now
        the server's to give) or failed on its way, at most `within` seconds; True if so.

        For work that can be done while the answer travels, once the request is on its
        way: the main window is built while its first page comes. A new connection takes
        a few turns of the event loop before a request leaves, which work holding the
        loop would put off.
        """
        out = self._first_out
        if out is None or out.is_set():
            return True
        try:
            await asyncio.wait_for(out.wait(), within)
        except TimeoutError:
            return False
        return True

    async def _follow(self, event: str, _info: Mapping[str, Any]) -> None:
        """httpcore's trace of a request: tells `first_request_out` when it has left."""
        if self._first_out is not None and event.endswith(_GONE_OUT):
            self._first_out.set()
            self._first_out = None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    @property
    def is_closed(self) -> bool:
        return self._http.is_closed

    async def login(self, email: str, password: str) -> Session:
        """Exchange e-mail and password for a session; the client keeps its token."""
        if not email.strip():
            raise InvalidInput(
                Sentence(QT_TRANSLATE_NOOP("ApiErrors", "Please enter your e-mail address."))
            )
        if not password:
            raise InvalidInput(
                Sentence(QT_TRANSLATE_NOOP("ApiErrors", "Please enter your password."))
            )
        session = await self._send(
            "POST",
            "/v1/auth/login",
            read_session,
            content=json.dumps({"email": email.strip(), "password": password}),
            headers=JSON_HEADERS,
            retry=NO_RETRY,
            limit=BODY_LIMITS.session,
        )
        self.token = session.access_token
        return session

    async def list_cards(
        self,
        space_id: str,
        page: int = 1,
        *,
        with_emails: bool = False,
        retry: RetryPolicy | None = None,
    ) -> CardPage:
        """Fetch one page of the space's cards (the server decides the page size).

        The page must be the one asked for and its numbers must add up (`check_page`);
        a page past the last is an empty page, as the platform sends it. `retry`
        replaces the client's own policy for this page (`WAITS_LEFT_TO_CALLER`).
        """
        if not space_id:
            raise InvalidInput(
                Sentence(QT_TRANSLATE_NOOP("ApiErrors", "Please enter the id of a space."))
            )
        if page < 1:
            raise InvalidInput(
                Sentence(
                    QT_TRANSLATE_NOOP("ApiErrors", "There is no page %1; pages start at 1."),
                    page,
                )
            )
        if not self.token:
            raise NotAuthenticated(
                Sentence(QT_TRANSLATE_NOOP("ApiErrors", "Please sign in first.")), status=401
            )
        params: dict[str, str | int] = {"page": page}
        if with_emails:
            params["with"] = "emails"
        answered = await self._send(
            "GET",
            f"/v1/spaces/{space_path_segment(space_id)}/cards",
            read_page,
            params=params,
            headers={"Authorization": f"Bearer {self.token}"},
            retry=retry or self.retry,
            limit=BODY_LIMITS.page,
        )
        check_page(answered, page)
        return answered

    async def _send(
        self,
        method: str,
        path: str,
        read: Callable[[httpx.Response], T],
        *,
        retry: RetryPolicy,
        limit: int,
        **kwargs: Any,
    ) -> T:
        """Send until a 200 answer is read by `read`, or `retry` gives up; raise then.

        The answer is read with at most `limit` bytes of body; a body that cannot be
        read (`UnreadableAnswer`: cut short, not JSON) counts as a failed try.
        """
        attempt = 1
        while True:
            try:
                return read(await self._send_once(method, path, limit, **kwargs))
            except (ApiError, NetworkError) as error:
                delay = retry.delay_before_retry(error, attempt)
                if delay is None:
                    raise
                if isinstance(error, ApiError):  # an answer came: not the server's silence
                    try_answered()  # (a timeout is the very silence, and is not told)
                failure = _failure_name(error)
            # The path has no query and no token; a space id in it is no secret.
            log.info(
                "%s %s: %s on attempt %d/%d; trying again in %.2f s",
                method,
                path,
                failure,
                attempt,
                retry.attempts,
                delay,
            )
            await retry.sleep(delay)
            attempt += 1

    async def _send_once(self, method: str, path: str, limit: int, **kwargs: Any) -> httpx.Response:
        started = time.perf_counter()
        if self._first_out is not None:  # followed until the first has gone out
            kwargs["extensions"] = {**kwargs.get("extensions", {}), "trace": self._follow}
        request = self._http.build_request(method, path, **kwargs)
        with map_exceptions(self._host):
            # Streamed, so that an endless or enormous body is never held whole.
            streamed = await self._http.send(request, stream=True)
            try:
                if streamed.status_code == 200:
                    body = await read_body(streamed, limit)
                else:
                    body = await read_start(streamed, BODY_LIMITS.error)
            finally:
                await streamed.aclose()
        response = as_read(streamed, body)
        if log.isEnabledFor(logging.DEBUG):  # the address is parsed again to drop the query
            log.debug(
                "%s %s -> %d in %.0f ms",
                method,
                response.request.url.copy_with(query=None),
                response.status_code,
                (time.perf_counter() - started) * 1000,
            )
        if response.status_code != 200:
            raise self._status_error(response)
        return response

    def _status_error(self, response: httpx.Response) -> ApiError:
        status = response.status_code
        body = self._error_body(response)
        message = str(body.get("message", "")).strip()
        detail = f"HTTP {status}: {excerpt(response.text)!r}"
        path = response.request.url.path
        if status == 422 and path.endswith("/auth/login"):
            return InvalidCredentials(
                message
                or Sentence(
                    QT_TRANSLATE_NOOP("ApiErrors", "The e-mail address or password is not correct.")
                ),
                status,
                detail,
            )
        if status == 500 and path.endswith("/auth/login"):
            exception = str(body.get("exception", ""))
            if exception == MISSING_FIELD_EXCEPTION:
                return MalformedRequest(
                    Sentence(
                        QT_TRANSLATE_NOOP(
                            "ApiErrors",
                            "The server could not read the sign-in request: a required field "
                            "did not arrive. Check the server address; if it is right, "
                            "please tell your administrator.",
                        )
                    ),
                    status,
                    exception,
                    detail,
                )
        if status == 401:
            return NotAuthenticated(
                Sentence(
                    QT_TRANSLATE_NOOP(
                        "ApiErrors", "Your sign-in has expired or was ended. Please sign in again."
                    )
                ),
                status,
                detail,
            )
        if status in (403, 404) and "/spaces/" in path:
            return SpaceUnavailable(
                Sentence(
                    QT_TRANSLATE_NOOP(
                        "ApiErrors",
                        "This space was not found, or your account has no access to it. "
                        "Check the space id.",
                    )
                ),
                status,
                detail,
            )
        retry_after = parse_retry_after(response.headers.get("Retry-After"))
        if status == 429:
            return RateLimited(
                Sentence(
                    QT_TRANSLATE_NOOP(
                        "ApiErrors",
                        "The server is busy with too many requests. Please wait a moment.",
                    )
                ),
                status,
                retry_after,
                detail,
            )
        error = self._server_error(status, message, body, detail)
        if status == 503:
            error.retry_after = retry_after
        return error

    @staticmethod
    def _server_error(status: int, message: str, body: Mapping[str, Any], detail: str) -> ApiError:
        if 500 <= status < 600 and message:
            exception = str(body.get("exception", ""))
            return ServerError(
                Sentence(
                    QT_TRANSLATE_NOOP(
                        "ApiErrors",
                        "The server ran into a problem and could not answer (“%1”). "
                        "Please try again later.",
                    ),
                    excerpt(message, 120),
                ),
                status,
                exception,
                detail,
            )
        if 500 <= status < 600:
            return UnexpectedResponse(
                Sentence(
                    QT_TRANSLATE_NOOP(
                        "ApiErrors",
                        "The server is unavailable right now (error %1). Please try again later.",
                    ),
                    status,
                ),
                status,
                detail,
            )
        return UnexpectedResponse(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors", "The server answered with an unexpected error (HTTP %1)."
                ),
                status,
            ),
            status,
            detail,
        )

    @staticmethod
    def _error_body(response: httpx.Response) -> Mapping[str, Any]:
        try:
            body = json.loads(response.content)
        except (ValueError, RecursionError):
            return {}
        return body if isinstance(body, dict) else {}


async def read_body(response: httpx.Response, limit: int) -> bytes:
    """The whole body, decoded; more than `limit` bytes of it is `ResponseTooLarge`.

    A `Content-Length` over the limit is refused before anything is read. Decoded
    bytes are counted, so a small compressed body that unpacks to gigabytes stops
    at the limit too (a chunk of it past the limit at most). The chunks are joined
    once at the end: growing one buffer and copying it out cost a page of a large
    space (1.1 MB) 1 to 1.5 ms more of the client's CPU.
    """
    declared = content_length(response)
    if declared is not None and declared > limit:
        raise too_large(response, limit, f"Content-Length is {declared} bytes")
    parts: list[bytes] = []
    size = 0
    async with _closing(response.aiter_bytes()) as chunks:
        async for chunk in chunks:
            parts.append(chunk)
            size += len(chunk)
            if size > limit:
                raise too_large(response, limit, f"more than {limit} bytes were sent")
    return b"".join(parts)


async def read_start(response: httpx.Response, limit: int) -> bytes:
    """The first `limit` bytes of the body, decoded; the rest is never read."""
    body = bytearray()
    async with _closing(response.aiter_bytes()) as chunks:
        async for chunk in chunks:
            body += chunk[: limit - len(body)]
            if len(body) >= limit:
                break
    return bytes(body)


def _closing(chunks: Any) -> contextlib.aclosing[AsyncGenerator[bytes, None]]:
    """Close the body's iterator when reading stops early, not when it is collected."""
    return contextlib.aclosing(cast(AsyncGenerator[bytes, None], chunks))


def content_length(response: httpx.Response) -> int | None:
    """The size the answer declares, if it declares a readable one."""
    value = response.headers.get("Content-Length", "").strip()
    return int(value) if value.isascii() and value.isdigit() else None


def too_large(response: httpx.Response, limit: int, seen: str) -> ResponseTooLarge:
    """The error for a body over `limit`; `seen` says how large it was found to be."""
    return ResponseTooLarge(
        Sentence(QT_TRANSLATE_NOOP("ApiErrors", "The server sent an unexpectedly large answer.")),
        status=response.status_code,
        detail=f"{seen}; the client reads at most {limit} bytes of this answer",
    )


def as_read(streamed: httpx.Response, body: bytes) -> httpx.Response:
    """The answer with the body as read: decoded already, perhaps only its start."""
    headers = [
        (name, value)
        for name, value in streamed.headers.multi_items()
        if name not in ("content-encoding", "content-length", "transfer-encoding")
    ]
    return httpx.Response(
        streamed.status_code, headers=headers, content=body, request=streamed.request
    )


def read_page(response: httpx.Response) -> CardPage:
    """The page of cards in a 200 answer; any other content is `UnexpectedResponse`.

    A well-formed page is read straight from the bytes; anything else is read again
    the slow way, which says exactly what is wrong with it.
    """
    try:
        return parse_page_json(response.content)
    except ValueError:
        pass
    payload = read_json(response)
    try:
        return parse_page(payload)
    except ValidationError as exc:
        raise shape_error(response, exc) from exc


def read_session(response: httpx.Response) -> Session:
    """The session in a 200 answer to login; any other content is `UnexpectedResponse`."""
    payload = read_json(response)
    try:
        return Session.model_validate(payload)
    except ValidationError as exc:
        raise shape_error(response, exc) from exc


def read_json(response: httpx.Response) -> Any:
    """The answer's JSON; a body that is not JSON is `UnexpectedResponse`."""
    try:
        return json.loads(response.content)
    except (ValueError, RecursionError) as exc:  # nesting too deep for the parser
        raise UnreadableAnswer(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors",
                    "The server sent a reply that is not readable data. "
                    "It may be busy or misconfigured; please try again later.",
                )
            ),
            status=response.status_code,
            detail=f"not JSON: {excerpt(response.text)!r}",
        ) from exc


def shape_error(response: httpx.Response, exc: ValidationError) -> UnexpectedResponse:
    """JSON of the wrong shape, reported with the first few problems for the log."""
    problems = "; ".join(
        f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in exc.errors()[:3]
    )
    return UnexpectedResponse(
        Sentence(
            QT_TRANSLATE_NOOP(
                "ApiErrors",
                "The server's reply does not look like the card platform's. "
                "Check the server address.",
            )
        ),
        status=response.status_code,
        detail=f"{problems} in {excerpt(response.text)!r}",
    )


def _failure_name(error: ApiError | NetworkError) -> str:
    """What went wrong, in a few words for the log: the status, or the transport error."""
    if isinstance(error, ApiError):
        return f"HTTP {error.status}"
    return type(error.__cause__ or error).__name__


def space_path_segment(space_id: str) -> str:
    """Percent-encode a space id as exactly one URL path segment.

    ``quote`` leaves dots alone, so an id of ``.`` or ``..`` would be folded away
    by path normalisation and address a different resource; dots are encoded too.
    """
    return quote(space_id, safe="").replace(".", "%2E")
