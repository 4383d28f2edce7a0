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


def normalize_server_url(text: str) -> str:
    """Return `scheme://host[:port][/prefix]` without the API's `/v1` or a trailing slash.

    People paste addresses in many forms: without a scheme, with a trailing slash, or
    with the `/v1` version prefix. Plain `http://` is refused except on this computer,
    because the token and password would cross the network readable by anyone. A user
    name or password before the host (`https://admin:secret@host`) is refused without
    repeating the address: it would be sent as Basic authentication, shown in messages,
    logged and saved as the last server.
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
    if "://" not in text:
        text = "https://" + text
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        raise InvalidInput(
            Sentence(
                QT_TRANSLATE_NOOP(
                    "ApiErrors", "“%1” is not a web address (it should start with https://)."
                ),
                text,
            )
        )
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
    return urlunsplit((scheme, parts.netloc, path, "", ""))
