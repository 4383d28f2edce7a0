"""The platform's REST API: log in, and list a space's cards, answered as Laravel does."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import SplitResult, parse_qs, quote, unquote

from cardviewer.demo.auth import bearer_token
from cardviewer.demo.faults import ActiveFault, Fault, RequestKind, corrupt_cards, wrong_session
from cardviewer.demo.handler import JSON_HEADERS, JSON_TYPE, DemoHandler, laravel_json
from cardviewer.demo.pagination import envelope_json, page_number, page_slice

LOGIN_PATH = "/v1/auth/login"
CARDS_PATH = re.compile(r"/v1/spaces/([^/]+)/cards/?")
SPACE_NOT_FOUND = "No query results for model [App\\Models\\Space]."
_HOST = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


def _input(body: bytes, content_type: str) -> dict[str, Any]:
    """The request's parameters as Laravel reads them; anything but a JSON object has none."""
    if "/json" not in content_type and "+json" not in content_type:
        return {}
    try:
        value = json.loads(body)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _trimmed(value: Any) -> Any:
    """Laravel's TrimStrings and ConvertEmptyStringsToNull middleware."""
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return value


class ApiHandler(DemoHandler):
    kind = "api"

    def request_kind(self, path: str) -> RequestKind:
        if path == LOGIN_PATH:
            return "login"
        if CARDS_PATH.fullmatch(path):
            return "cards"
        return "other"

    def latency(self) -> float:
        return self.app.config.latency

    def respond(self, url: SplitResult, body: bytes, fault: ActiveFault | None) -> None:
        wrong_types = fault is not None and fault.fault is Fault.WRONG_TYPES
        cards = CARDS_PATH.fullmatch(url.path)
        if url.path == LOGIN_PATH:
            if self._allowed("POST", url.path):
                self._login(body, wrong_types=wrong_types)
        elif cards:
            if self._allowed("GET", url.path):
                self._cards(cards.group(1), url.query, wrong_types=wrong_types)
        else:
            route = url.path.strip("/") or "/"
            self.send_json(404, {"message": f"The route {route} could not be found."})

    def _allowed(self, method: str, path: str) -> bool:
        """Answer a method the route does not have with 405, as Laravel's router does."""
        methods = "GET, HEAD" if method == "GET" else method
        if self.command == method or (method == "GET" and self.command == "HEAD"):
            return True
        if self.command == "OPTIONS":
            self.send_bytes(200, b"", None, {"Allow": methods})
            return False
        message = (
            f"The {self.command} method is not supported for route {path.lstrip('/')}. "
            f"Supported methods: {methods}."
        )
        self.send_json(405, {"message": message}, {"Allow": methods})
        return False

    def _login(self, body: bytes, *, wrong_types: bool) -> None:
        params = _input(body, self.headers.get("Content-Type", ""))
        for key in ("email", "password"):
            if key not in params:
                self.send_json(
                    500,
                    {"message": f'Undefined array key "{key}"', "exception": "ErrorException"},
                )
                return
        email, password = _trimmed(params["email"]), params["password"]
        if password == "":
            password = None  # ConvertEmptyStringsToNull; passwords are never trimmed
        known = isinstance(email, str) and email.lower() == self.app.email.lower()
        if not known or password != self.app.password:
            self.send_json(422, {"message": "Access data do not match!"})
            return
        session = self.app.issue_token()
        self.send_json(200, wrong_session() if wrong_types else session)

    def _host(self) -> str:
        """The host the client asked for; Laravel builds its absolute URLs from it."""
        host = self.headers.get("Host", "")
        return host if _HOST.fullmatch(host) else self.app.base_url.split("://", 1)[1]

    def _avatar_base_url(self) -> str:
        """The image host, named as the client named this one: same host, the other port."""
        host = self._host()
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return f"http://{name}:{self.app.avatar_port}"

    def _cards(self, raw_id: str, query: str, *, wrong_types: bool) -> None:
        if not self.app.tokens.is_valid(bearer_token(self.headers.get("Authorization"))):
            self.send_json(401, {"message": "Unauthenticated."})
            return
        space_id = unquote(raw_id)
        space = self.app.spaces.get(space_id)
        if space is None:
            self.send_json(404, {"message": SPACE_NOT_FOUND})
            return
        params = parse_qs(query, keep_blank_values=True)
        page = page_number(params["page"][-1] if "page" in params else None)
        relations = {r.strip() for value in params.get("with", ()) for r in value.split(",")}
        per_page = max(1, self.app.config.per_page)
        avatars = self._avatar_base_url()
        data = [
            card.to_json(space, avatars, with_emails="emails" in relations)
            for card in page_slice(space.cards, page, per_page)
        ]
        if wrong_types:
            corrupt_cards(data)
        path = f"http://{self._host()}/v1/spaces/{quote(space_id, safe='')}/cards"
        body = envelope_json(
            data,
            page=page,
            per_page=per_page,
            total=len(space.cards),
            path=path,
            encode=laravel_json,
        )
        self.send_bytes(200, body, JSON_TYPE, JSON_HEADERS)
