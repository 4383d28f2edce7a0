"""Access tokens as the platform issues them: JWT-shaped, remembered with their expiry."""

from __future__ import annotations

import base64
import json
import re
import secrets
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from cardviewer.demo.data import timestamp

# base64url of {"typ":"JWT","alg":"RS256"}, the header every platform token starts with.
JWT_HEADER = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9"
_BEARER = re.compile(r"[ \t]*Bearer[ \t]+(\S+)[ \t]*", re.IGNORECASE)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def bearer_token(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, or None."""
    if header is None:
        return None
    match = _BEARER.fullmatch(header)
    return match.group(1) if match else None


@dataclass(frozen=True, slots=True)
class IssuedToken:
    access_token: str
    session_id: str
    expires_at: datetime

    def to_json(self) -> dict[str, str]:
        return {
            "access_token": self.access_token,
            "session_id": self.session_id,
            "expires_at": timestamp(self.expires_at),
        }


class TokenStore:
    """Tokens this server issued; a token is valid until it expires or all are revoked."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._expiry: dict[str, datetime] = {}

    def issue(self, lifetime: timedelta, subject: str = "1") -> IssuedToken:
        now = datetime.now(UTC)
        # The platform stores expiry in whole seconds; so does the answer.
        expires = (now + lifetime).replace(microsecond=0)
        claims = {
            "aud": "1",
            "jti": secrets.token_hex(40),
            "iat": int(now.timestamp()),
            "nbf": int(now.timestamp()),
            "exp": int(expires.timestamp()),
            "sub": subject,
            "scopes": [],
        }
        payload = _b64url(json.dumps(claims, separators=(",", ":")).encode())
        token = f"{JWT_HEADER}.{payload}.{_b64url(secrets.token_bytes(256))}"
        session_id = base64.b64encode(secrets.token_bytes(120)).decode("ascii")
        with self._lock:
            self._expiry = {t: e for t, e in self._expiry.items() if e > now}
            self._expiry[token] = expires
        return IssuedToken(token, session_id, expires)

    def is_valid(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            expires = self._expiry.get(token)
        return expires is not None and datetime.now(UTC) < expires

    def revoke_all(self) -> None:
        with self._lock:
            self._expiry.clear()
