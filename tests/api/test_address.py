"""Turning what a person types into the API's base URL."""

import pytest

from cardviewer.api.address import is_loopback_host, normalize_server_url, same_server
from cardviewer.api.errors import InvalidInput, Sentence


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
        # One server, one address: the account's local copies are found under it.
        ("https://Cards.Example.COM:443/", "https://cards.example.com"),
        ("http://LocalHost:80", "http://localhost"),
        ("https://api.example.com:8443", "https://api.example.com:8443"),
        ("http://[::1]", "http://[::1]"),
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


@pytest.mark.parametrize(
    "typed",
    [
        "not a url",
        "text with spaces.example.com",
        "https://cards example.com",
        "https://cards.example.com/my prefix",
        "cards.example.com\tx",
        "https://",
        "https:///v1",
        "https://:8765",
        "cards!.example.com",
        "https://cards..example.com",
        "https://-cards.example.com",
        "https://cards.example.com:port",
        "https://cards.example.com:99999",
        "https://[::1",
    ],
)
def test_text_that_cannot_be_a_web_address_is_called_that(typed):
    with pytest.raises(InvalidInput) as info:
        normalize_server_url(typed)
    assert str(info.value) == (
        f"“{typed.strip()}” is not a web address. "
        "A server's address looks like https://cards.example.com."
    )
    message = info.value.message
    assert isinstance(message, Sentence), "translatable"
    assert message.values == (typed.strip(),)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("karten.bücher.example", "https://karten.bücher.example"),
        ("https://cards-1.example.com:8443/", "https://cards-1.example.com:8443"),
        ("https://cards.example.com.", "https://cards.example.com."),
        ("https://my_host.internal", "https://my_host.internal"),
        ("https://203.0.113.7", "https://203.0.113.7"),
        ("https://[2001:db8::1]:8443", "https://[2001:db8::1]:8443"),
    ],
)
def test_unusual_but_real_addresses_are_kept(typed, expected):
    assert normalize_server_url(typed) == expected


def test_a_scheme_other_than_https_is_said_to_be_wrong():
    with pytest.raises(InvalidInput) as info:
        normalize_server_url("ftp://cards.example.com")
    assert str(info.value) == (
        "“ftp://cards.example.com” is not a web address (it should start with https://)."
    )


def test_one_server_however_its_address_was_saved():
    """Sessions and site files an earlier version wrote keep the form it normalised to."""
    assert same_server("https://Cards.Example.com:443", "cards.example.com/v1/")
    assert not same_server("https://cards.example.com", "https://cards.example.com:8443")
    assert same_server("not an address", "not an address")
