"""The server address a person types, made into the base URL the client uses."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit, urlunsplit

from cardviewer.api.errors import QT_TRANSLATE_NOOP, InvalidInput, Sentence


def is_loopback_host(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def has_user_info(text: str) -> bool:
    """Whether `text` has a user name or password before its host (an "@" there).

    Looked for in the text itself, before any parsing, so that no other check can
    repeat it in a message. The host part ends at the first "/", "?" or "#" after the
    scheme, as `urlsplit` reads it; a browser would end it at a "\\" too, so an "@"
    behind one counts as well.
    """
    _, separator, rest = text.partition("://")
    authority = re.split(r"[/?#]", rest if separator else text, maxsplit=1)[0]
    return "@" in authority


_LABEL = re.compile(r"(?!-)[\w-]{1,63}(?<!-)")
"""One name of a host between dots: letters of any script, digits, "-" and "_"."""


def is_host(host: str) -> bool:
    """Whether `host` can name a server: an IP address, or names joined by dots.

    A name is letters (of any script, as international domain names have), digits,
    hyphens inside and underscores (some company networks use them); a final dot is
    allowed. Spaces and any other sign are not.
    """
    try:
        ipaddress.ip_address(host)
    except ValueError:
        labels = host.removesuffix(".").split(".")
        return all(_LABEL.fullmatch(label) for label in labels)
    return True


def _not_a_web_address(typed: str) -> InvalidInput:
    return InvalidInput(
        Sentence(
            QT_TRANSLATE_NOOP(
                "ApiErrors",
                "“%1” is not a web address. A server's address looks like "
                "https://cards.example.com.",
            ),
            typed,
        )
    )


def normalize_server_url(text: str) -> str:
    """Return `scheme://host[:port][/prefix]` without the API's `/v1` or a trailing slash.

    People paste addresses in many forms: without a scheme, with a trailing slash, or
    with the `/v1` version prefix. Plain `http://` is refused except on this computer,
    because the token and password would cross the network readable by anyone. A user
    name or password before the host (`https://admin:secret@host`) is refused without
    repeating the address: it would be sent as Basic authentication, shown in messages,
    logged and saved as the last server. Text that cannot be a web address (spaces, no
    host, a port that is no number) is called that before anything is sent.
    """
    text = text.strip()
    if not text:
        raise InvalidInput(
            Sentence(QT_TRANSLATE_NOOP("ApiErrors", "Please enter the server address."))
        )
    if has_user_info(text):
        raise InvalidInput(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors",
                    "The server address must not contain a user name or password. "
                    "Remove the part before “@”.",
                )
            )
        )
    typed = text
    if any(character.isspace() for character in typed):
        raise _not_a_web_address(typed)
    if "://" not in text:
        text = "https://" + text
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (raises ValueError for a port that is no number up to 65535)
    except ValueError:
        raise _not_a_web_address(typed) from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise InvalidInput(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors", "“%1” is not a web address (it should start with https://)."
                ),
                text,
            )
        )
    if not parts.hostname or not is_host(parts.hostname):
        raise _not_a_web_address(typed)
    if scheme == "http" and not is_loopback_host(parts.hostname):
        raise InvalidInput(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors",
                    "The address %1 is not encrypted (http://). Use https:// so that "
                    "your password and sign-in token cannot be read on the network.",
                ),
                text,
            )
        )
    path = parts.path.rstrip("/")
    if path.endswith("/v1"):
        path = path[: -len("/v1")]
    return urlunsplit((scheme, _host_and_port(scheme, parts.hostname, parts.port), path, "", ""))


def canonical_server_url(text: str) -> str:
    """`normalize_server_url(text)`, or `text` as it is where it is no usable address:
    for addresses saved by earlier versions, whose forms may differ from today's."""
    try:
        return normalize_server_url(text)
    except InvalidInput:
        return text


def same_server(one: str, other: str) -> bool:
    """Whether two addresses name one server, however each was written."""
    return canonical_server_url(one) == canonical_server_url(other)


def same_email(one: str, other: str) -> bool:
    """Whether two e-mail addresses name one account: their case and spaces around them
    aside, as the sign-in takes them and the local copies are named."""
    return one.strip().casefold() == other.strip().casefold()


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _host_and_port(scheme: str, host: str, port: int | None) -> str:
    """The address's host in lower case, its port only where it is not the scheme's own:
    one server has one address, so one account's local copies are found under one name."""
    host = f"[{host}]" if ":" in host else host  # an IPv6 address keeps its brackets
    return host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
