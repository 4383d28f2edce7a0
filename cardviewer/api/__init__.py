"""HTTP client and data models of the card platform's API (no Qt here)."""

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
    ServerError,
    SpaceUnavailable,
    TlsError,
    UnexpectedResponse,
)
from cardviewer.api.models import Avatar, Card, CardPage, PageLink, PageLinks, PageMeta, Session

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
    "ServerError",
    "Session",
    "SpaceUnavailable",
    "TlsError",
    "UnexpectedResponse",
    "normalize_server_url",
]
