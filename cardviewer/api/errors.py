"""Every error the API client raises, and the one place lower-layer errors become them.

The UI catches only `CardViewerError`. Each error's `str()` is the sentence a person
reads; `detail` carries what a log or a tooltip needs (status, excerpt, exception).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Sequence

EXCERPT_LENGTH = 200
TRANSLATION_CONTEXT = "ApiErrors"
"""The catalogs' context of the sentences below (the interface translates them)."""


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name lupdate knows
    """Marks `text` for the translation catalogs and returns it; this layer has no Qt."""
    return text


class Sentence(str):
    """A sentence for people: as a `str` it is English, and the interface can translate it.

    `template` is the English text with Qt's markers `%1`, `%2`…, as the catalogs hold
    it, and `values` fill them in order. A message from the server itself is a plain `str`.
    """

    template: str
    values: tuple[str, ...]

    def __new__(cls, template: str, *values: object) -> Sentence:
        texts = tuple(str(value) for value in values)
        sentence = super().__new__(cls, fill_markers(template, texts))
        sentence.template = template
        sentence.values = texts
        return sentence


_MARKER = re.compile(r"%([1-9][0-9]?)")


def fill_markers(text: str, values: Sequence[str]) -> str:
    """`text` with each `%1`, `%2`… replaced by that value, in one pass as Qt's `arg()`
    does, so a value holding `%2` stays as it is; IndexError for a marker with no value."""

    def value(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if number > len(values):
            raise IndexError(f"no value for %{number}")
        return values[number - 1]

    return _MARKER.sub(value, text)


def excerpt(text: str, limit: int = EXCERPT_LENGTH) -> str:
    """Shorten a response body to one readable line for messages and logs."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class CardViewerError(Exception):
    """Base class: `message` is for people, `detail` for logs.

    `retry_may_help` is False where asking the same again must fail the same way.
    """

    retry_may_help = True

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail

    def __str__(self) -> str:
        return self.message


# Refused before anything was sent...


class InvalidInput(CardViewerError, ValueError):
    """An argument (e-mail, password, space id, server address) cannot be used."""

    retry_may_help = False


# The server answered, but not with what was asked for...


class ApiError(CardViewerError):
    """The server answered with an error; `status` is its HTTP status.

    `retry_after` is the wait in seconds the server asked for (`Retry-After`), if any.
    """

    retry_after: float | None = None

    def __init__(self, message: str, status: int, detail: str = "") -> None:
        super().__init__(message, detail)
        self.status = status


class InvalidCredentials(ApiError):
    """Login refused (422): the account is unknown or the password is wrong."""


class NotAuthenticated(ApiError):
    """The token is missing, expired or revoked (401): sign in again."""


class SpaceUnavailable(ApiError):
    """The space does not exist or this account may not see it (403 / 404)."""

    retry_may_help = False


class RateLimited(ApiError):
    """Too many requests (429); `retry_after` is the server's wait in seconds, if given."""

    def __init__(self, message: str, status: int, retry_after: float | None, detail: str = ""):
        super().__init__(message, status, detail)
        self.retry_after = retry_after


class ServerError(ApiError):
    """The server failed (5xx); `exception` is the class it named, if any."""

    def __init__(self, message: str, status: int, exception: str = "", detail: str = ""):
        super().__init__(message, status, detail)
        self.exception = exception


class MalformedRequest(ServerError):
    """The server could not read what was sent: a field it needs did not arrive.

    The platform answers a login without its e-mail or password so: 500, with
    `exception` "ErrorException". Trying again sends the same request, so it is no
    passing failure of the server; the server's own words go to `detail` only.
    """


class UnexpectedResponse(ApiError):
    """The answer has a status, content or shape the client does not understand."""


class SpaceChanged(ApiError):
    """Cards were added to or removed from the space while its pages were fetched.

    The pages after the change are shifted by as many cards: a card may be missed, or
    come twice. A whole-space fetch stops rather than keep such a copy; the next one,
    begun afresh, sees the space as it is then.
    """


class UnreadableAnswer(UnexpectedResponse):
    """The body is no readable data (cut short, or not JSON): another try may read it."""


class ResponseTooLarge(UnexpectedResponse):
    """The answer's body is larger than the client reads (see `client.BODY_LIMITS`)."""


# The request did not get an answer...


class NetworkError(CardViewerError):
    """No usable answer: the connection failed or broke off."""


class ConnectFailed(NetworkError):
    """The server could not be reached at all."""


class RequestTimeout(NetworkError):
    """The server did not answer in time."""


class TlsError(NetworkError):
    """The secure connection failed, usually an untrusted certificate."""


PLAIN_HTTP_REASONS = frozenset({"WRONG_VERSION_NUMBER", "PACKET_LENGTH_TOO_LONG"})
"""What OpenSSL calls a plain HTTP answer to its greeting: the server does not speak TLS."""


def _tls_failure(exc: BaseException) -> BaseException | None:
    """The `ssl.SSLError` behind `exc`, if the failure was one of the secure connection."""
    import ssl  # only once a connection has failed; reading an address does not need it

    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, ssl.SSLError):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def _tls_error(exc: Exception, host: str, otherwise: str) -> TlsError | None:
    """The error for a failed secure connection, None when `exc` is none.

    A server that answers in plain HTTP is said to be one, since no certificate was
    ever looked at; any other failure gets the sentence `otherwise`.
    """
    failure = _tls_failure(exc)
    if failure is None:
        return None
    if getattr(failure, "reason", None) in PLAIN_HTTP_REASONS:
        message = Sentence(
            QT_TRANSLATE_NOOP(
                "ApiErrors",
                "The server at %1 does not accept secure (https) connections at this "
                "address. Check the server address and its port number.",
            ),
            host,
        )
    else:
        message = Sentence(otherwise, host)
    return TlsError(message, detail=repr(exc))


@contextlib.contextmanager
def map_exceptions(host: str) -> Iterator[None]:
    """Turn httpx's transport errors into the client's own, most specific first."""
    # Imported here, not above: the sign-in window and the site file need these errors
    # long before anything is sent, and httpx is slow to import.
    import httpx

    try:
        yield
    except httpx.TimeoutException as exc:
        raise RequestTimeout(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors", "The server at %1 did not answer in time. Please try again."
                ),
                host,
            ),
            detail=repr(exc),
        ) from exc
    except httpx.ConnectError as exc:
        tls = _tls_error(
            exc,
            host,
            QT_TRANSLATE_NOOP(
                "ApiErrors",
                "A secure connection to %1 could not be established. "
                "Its certificate is not trusted by this computer.",
            ),
        )
        if tls is not None:
            raise tls from exc
        raise ConnectFailed(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors",
                    "Cannot reach the server at %1. "
                    "Check the server address and your network connection.",
                ),
                host,
            ),
            detail=repr(exc),
        ) from exc
    except httpx.ProxyError as exc:
        raise ConnectFailed(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors",
                    "The proxy server would not connect to %1. Check the proxy settings "
                    "(HTTPS_PROXY, HTTP_PROXY) or ask your administrator.",
                ),
                host,
            ),
            detail=repr(exc),
        ) from exc
    except (httpx.UnsupportedProtocol, httpx.InvalidURL) as exc:
        raise InvalidInput(
            Sentence(QT_TRANSLATE_NOOP("ApiErrors", "The server address %1 is not valid."), host),
            detail=repr(exc),
        ) from exc
    except (httpx.TransportError, httpx.DecodingError) as exc:
        tls = _tls_error(
            exc, host, QT_TRANSLATE_NOOP("ApiErrors", "The secure connection to %1 failed.")
        )
        if tls is not None:
            raise tls from exc
        raise NetworkError(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors", "The connection to %1 was interrupted. Please try again."
                ),
                host,
            ),
            detail=repr(exc),
        ) from exc
