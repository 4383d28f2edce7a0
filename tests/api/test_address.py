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
    [("localhost", True), ("127.0.0.5", True), ("::1", True), ("example.com", False)],
)
def test_loopback_hosts(host, loopback):
    assert is_loopback_host(host) is loopback
