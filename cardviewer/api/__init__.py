"""HTTP client and data models of the card platform's API (no Qt here).

The names below are loaded when first used, so that importing only the models or the
address rules (as the settings and the sign-in window do) does not also import the
HTTP client and its network stack, which take a noticeable part of a start.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardviewer.api.address import normalize_server_url
    from cardviewer.api.client import CardsClient
    from cardviewer.api.errors import (
        ApiError,
        CardViewerError,
        ConnectFailed,
        InvalidCredentials,
        InvalidInput,
        NetworkError,
        NotAuthenticated,
        RateLimited,
        RequestTimeout,
        ResponseTooLarge,
        ServerError,
        SpaceUnavailable,
        TlsError,
        UnexpectedResponse,
    )
    from cardviewer.api.models import (
        Avatar,
        Card,
        CardPage,
        PageLink,
        PageLinks,
        PageMeta,
        Session,
    )

_MODULE_OF = {
    "normalize_server_url": "address",
    "CardsClient": "client",
    **dict.fromkeys(
        (
            "ApiError",
            "CardViewerError",
            "ConnectFailed",
            "InvalidCredentials",
            "InvalidInput",
            "NetworkError",
            "NotAuthenticated",
            "RateLimited",
            "RequestTimeout",
            "ResponseTooLarge",
            "ServerError",
            "SpaceUnavailable",
            "TlsError",
            "UnexpectedResponse",
        ),
        "errors",
    ),
    **dict.fromkeys(
        ("Avatar", "Card", "CardPage", "PageLink", "PageLinks", "PageMeta", "Session"), "models"
    ),
}

__all__ = [
    "ApiError",
    "Avatar",
    "Card",
    "CardPage",
    "CardViewerError",
    "CardsClient",
    "ConnectFailed",
    "InvalidCredentials",
    "InvalidInput",
    "NetworkError",
    "NotAuthenticated",
    "PageLink",
    "PageLinks",
    "PageMeta",
    "RateLimited",
    "RequestTimeout",
    "ResponseTooLarge",
    "ServerError",
    "Session",
    "SpaceUnavailable",
    "TlsError",
    "UnexpectedResponse",
    "normalize_server_url",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # once loaded, a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
