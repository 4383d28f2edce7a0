"""Turning what a person types into the API's base URL."""

import pytest

from cardviewer.api.address import is_loopback_host, normalize_server_url
from cardviewer.api.errors import InvalidInput


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("api.example.com", "https://api.example.com"),
        ("https://api.example.com/", "https://api.example.com"),
        ("https://api.example.com/v1", "https://api.example.com"),
        ("https://api.example.com/v1/", "https://api.example.com"),
        ("  HTTPS://api.example.com/prefix  ", "https://api.example.com/prefix"),
        ("https://api.example.com/prefix/v1/", "https://api.example.com/prefix"),
        ("http://127.0.0.1:8765", "http://127.0.0.1:8765"),
        ("http://localhost:8765/", "http://localhost:8765"),
        ("http://[::1]:8765", "http://[::1]:8765"),
    ],
)
def test_addresses_are_normalized(typed, expected):
    assert normalize_server_url(typed) == expected


@pytest.mark.parametrize(
    "typed", ["", "   ", "ftp://example.com", "https://", "http://api.example.com"]
)
def test_unusable_addresses_are_refused_with_a_sentence(typed):
    with pytest.raises(InvalidInput) as info:
        normalize_server_url(typed)
    assert str(info.value).endswith(".")


def test_plain_http_is_refused_off_this_computer():
    with pytest.raises(InvalidInput, match="not encrypted"):
        normalize_server_url("http://10.1.2.3")


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("LocalHost", True),
        ("127.0.0.5", True),
        ("::1", True),
        ("example.com", False),
        ("server.example", False),
        ("localhost.example", False),
    ],
)
def test_loopback_hosts(host, loopback):
    assert is_loopback_host(host) is loopback


@pytest.mark.parametrize(
    "typed",
    [
        "https://admin:s3cret-pw@api.example.com",
        "admin:s3cret-pw@api.example.com/v1",
        "https://s3cret-pw@api.example.com",
        "http://admin:s3cret-pw@127.0.0.1:8765",
        "ftp://admin:s3cret-pw@api.example.com",
        "http://admin:s3cret-pw@10.1.2.3",
        "https://admin:s3cret-pw@[::1",
        "https://api.example.com\\@s3cret-pw.example",
        "  HTTPS://admin:s3cret-pw@api.example.com/  ",
    ],
)
def test_a_user_name_or_password_in_the_address_is_refused_without_repeating_it(typed):
    with pytest.raises(InvalidInput) as info:
        normalize_server_url(typed)
    error = info.value
    assert str(error) == (
        "The server address must not contain a user name or password. Remove the part before “@”."
    )
    assert "s3cret-pw" not in f"{error} {error.detail!r} {error.args!r}"


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("https://api.example.com/@team", "https://api.example.com/@team"),
        ("https://api.example.com/v1?who=a@b", "https://api.example.com"),
    ],
)
def test_an_at_sign_after_the_host_is_no_user_name(typed, expected):
    assert normalize_server_url(typed) == expected
