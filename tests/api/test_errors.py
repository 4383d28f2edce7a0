"""The client's errors: their sentences, and how transport failures become them."""

from __future__ import annotations

import ssl
import threading

import httpx
import pytest

from cardviewer.api.errors import (
    EXCERPT_LENGTH,
    QT_TRANSLATE_NOOP,
    ApiError,
    CardViewerError,
    ConnectFailed,
    InvalidInput,
    NetworkError,
    RateLimited,
    RequestTimeout,
    Sentence,
    ServerError,
    SpaceUnavailable,
    TlsError,
    excerpt,
    map_exceptions,
)

HOST = "cards.example.com"


def untrusted_certificate() -> ssl.SSLError:
    return ssl.SSLCertVerificationError(1, "certificate verify failed")


def mapped(failure: BaseException) -> CardViewerError:
    """The error `map_exceptions` raises for `failure`, with `failure` as its cause."""
    with pytest.raises(CardViewerError) as info, map_exceptions(HOST):
        raise failure
    assert info.value.__cause__ is failure
    assert info.value.detail == repr(failure)
    assert HOST in str(info.value)
    return info.value


def raised_while_handling(failure: BaseException, context: BaseException) -> BaseException:
    """`failure` as raised inside an `except` block for `context`, without `from`."""
    try:
        try:
            raise context
        except type(context):
            raise failure  # noqa: B904 - the implicit context is what is tested
    except type(failure) as raised:
        return raised


# Sentences and excerpts


def test_a_sentence_is_its_english_text_and_keeps_template_and_values():
    sentence = Sentence("Page %1 of %2.", 3, "acme")
    assert sentence == "Page 3 of acme."
    assert sentence.template == "Page %1 of %2."
    assert sentence.values == ("3", "acme")


def test_a_sentence_fills_its_markers_once_like_qt():
    """A value that holds a marker is not filled in again."""
    assert Sentence("%2 and %1", "%2", "b") == "b and %2"


def test_the_translation_marker_returns_its_text():
    assert QT_TRANSLATE_NOOP("ApiErrors", "Hello") == "Hello"


def test_an_excerpt_is_one_line_with_single_spaces():
    text = "  <html>\n\t<body>  oops </body>\r\n</html> "
    assert excerpt(text) == "<html> <body> oops </body> </html>"


def test_an_excerpt_keeps_a_text_of_exactly_the_limit():
    assert EXCERPT_LENGTH == 200
    assert excerpt("x" * 200) == "x" * 200
    assert excerpt("abcdef", limit=6) == "abcdef"


def test_an_excerpt_of_a_longer_text_is_the_limit_long_and_ends_in_an_ellipsis():
    shortened = excerpt("x" * 201)
    assert len(shortened) == 200
    assert shortened == "x" * 199 + "…"
    assert excerpt("abcdefg", limit=6) == "abcde…"


# The errors themselves


def test_an_error_reads_as_its_message_and_keeps_the_detail():
    error = CardViewerError("Something went wrong.", detail="HTTP 500")
    assert str(error) == error.message == "Something went wrong."
    assert error.detail == "HTTP 500"
    assert CardViewerError("No detail.").detail == ""


def test_api_errors_carry_status_retry_after_and_exception():
    plain = ApiError("Gone.", 410, detail="d")
    assert (plain.status, plain.detail, plain.retry_after) == (410, "d", None)
    limited = RateLimited("Slow down.", 429, 12.5, detail="d")
    assert (limited.status, limited.retry_after, limited.detail) == (429, 12.5, "d")
    failed = ServerError("Failed.", 500, exception="QueryException", detail="d")
    assert (failed.status, failed.exception, failed.detail) == (500, "QueryException", "d")
    assert ServerError("Failed.", 500).exception == ""


def test_invalid_input_is_also_a_value_error():
    assert isinstance(InvalidInput("No."), ValueError)


def test_only_what_must_fail_the_same_again_says_a_retry_cannot_help():
    assert not InvalidInput("No.").retry_may_help
    assert not SpaceUnavailable("Not there.", 404).retry_may_help
    assert ServerError("Failed.", 500).retry_may_help
    assert RateLimited("Slow down.", 429, 1).retry_may_help
    assert ConnectFailed("Refused.").retry_may_help


# Transport failures, most specific first


def test_a_timeout_is_request_timeout():
    assert type(mapped(httpx.ReadTimeout("slow"))) is RequestTimeout
    assert type(mapped(httpx.ConnectTimeout("slow"))) is RequestTimeout


def test_a_refused_connection_is_connect_failed():
    error = mapped(httpx.ConnectError("[Errno 111] Connection refused"))
    assert type(error) is ConnectFailed
    assert "Cannot reach the server" in str(error)


def test_a_connection_refused_for_its_certificate_is_a_tls_error():
    failure = raised_while_handling(httpx.ConnectError("handshake"), untrusted_certificate())
    error = mapped(failure)
    assert type(error) is TlsError
    assert "certificate is not trusted" in str(error)


def test_a_tls_failure_given_as_the_explicit_cause_is_a_tls_error():
    failure = httpx.ConnectError("handshake")
    failure.__cause__ = untrusted_certificate()
    assert type(mapped(failure)) is TlsError


def test_a_proxy_refusal_is_connect_failed_and_names_the_proxy():
    error = mapped(httpx.ProxyError("403 Forbidden"))
    assert type(error) is ConnectFailed
    assert "proxy" in str(error)


@pytest.mark.parametrize(
    "failure", [httpx.UnsupportedProtocol("ftp://"), httpx.InvalidURL("bad host")]
)
def test_an_unusable_address_is_invalid_input(failure):
    error = mapped(failure)
    assert type(error) is InvalidInput
    assert str(error) == f"The server address {HOST} is not valid."


@pytest.mark.parametrize(
    "failure",
    [
        httpx.ReadError("connection reset"),
        httpx.RemoteProtocolError("closed without an answer"),
        httpx.DecodingError("bad gzip"),
    ],
)
def test_a_failure_in_the_middle_of_a_request_is_a_network_error(failure):
    error = mapped(failure)
    assert type(error) is NetworkError
    assert "was interrupted" in str(error)


def test_a_tls_failure_in_the_middle_of_a_request_is_a_tls_error():
    failure = raised_while_handling(httpx.ReadError("read"), ssl.SSLError(1, "bad record mac"))
    error = mapped(failure)
    assert type(error) is TlsError
    assert str(error) == f"The secure connection to {HOST} failed."


def test_other_exceptions_pass_unchanged():
    failure = ValueError("not a transport error")
    with pytest.raises(ValueError, match="not a transport error") as info, map_exceptions(HOST):
        raise failure
    assert info.value is failure


def test_without_a_failure_nothing_is_raised():
    with map_exceptions(HOST):
        pass


def test_a_cycle_of_exceptions_without_tls_ends_as_a_network_error():
    """Exceptions can name each other as context; the search for TLS must still end."""
    first, second = httpx.ReadError("first"), OSError("second")
    first.__context__, second.__context__ = second, first
    outcome: list[CardViewerError] = []
    worker = threading.Thread(target=lambda: outcome.append(mapped(first)), daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert not worker.is_alive(), "the search for a TLS failure did not end"
    assert [type(error) for error in outcome] == [NetworkError]
