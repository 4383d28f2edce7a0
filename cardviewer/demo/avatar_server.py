"""The image host ("CDN") that serves avatars, on an origin of its own and without tokens."""

from __future__ import annotations

import re
from datetime import datetime
from email.utils import format_datetime, parsedate_to_datetime
from urllib.parse import SplitResult

from cardviewer.demo import avatars
from cardviewer.demo.data import FIRST_CREATED
from cardviewer.demo.faults import ActiveFault, Fault, RequestKind
from cardviewer.demo.handler import DemoHandler, nginx_page

AVATAR_PATH = re.compile(r"/avatars/(large/)?([A-Za-z0-9]+)\.jpg")
CACHE_CONTROL = "public, max-age=86400"
# What a captive portal or misrouted proxy sends in place of the image.
NOT_AN_IMAGE = (
    b"<!DOCTYPE html>\n<html><head><title>Sign in to the network</title></head>"
    b"<body><h1>Please sign in to use the Wi-Fi</h1></body></html>\n"
)


class AvatarHandler(DemoHandler):
    kind = "avatar"

    def request_kind(self, path: str) -> RequestKind:
        return "avatar"

    def latency(self) -> float:
        return self.app.config.avatar_latency

    def respond(self, url: SplitResult, body: bytes, fault: ActiveFault | None) -> None:
        image = self._image(url.path)
        if image is None:
            self.send_html(404, nginx_page(404, "Not Found"))
            return
        if self.command not in ("GET", "HEAD"):
            self.send_html(405, nginx_page(405, "Not Allowed"), {"Allow": "GET, HEAD"})
            return
        if fault is not None and fault.fault is Fault.WRONG_TYPES:
            self.send_html(200, NOT_AN_IMAGE)
            return
        content, content_type, modified = image
        tag = avatars.etag(content)
        headers = {
            "ETag": tag,
            "Last-Modified": format_datetime(modified, usegmt=True),
            "Cache-Control": CACHE_CONTROL,
        }
        if self._not_modified(tag, modified):
            self.send_bytes(304, b"", None, headers)
        else:
            self.send_bytes(200, content, content_type, headers)

    def _image(self, path: str) -> tuple[bytes, str, datetime] | None:
        """Body, type and modification time of the image at `path`, if there is one."""
        if path == "/avatars/default.png":
            return avatars.default_png(), "image/png", FIRST_CREATED
        if path == "/avatars/huge.jpg":
            return avatars.huge_jpeg(), "image/jpeg", FIRST_CREATED
        if path == "/avatars/broken.jpg":
            return avatars.BROKEN_JPEG, "image/jpeg", FIRST_CREATED
        match = AVATAR_PATH.fullmatch(path)
        card = self.app.avatar_card(match.group(2)) if match else None
        if match is None or card is None or card.avatar_uuid is None:
            return None
        size = avatars.LARGE_AVATAR_SIZE if match.group(1) else avatars.AVATAR_SIZE
        content = avatars.initials_jpeg(card.initials, card.avatar_uuid, size)
        return content, "image/jpeg", card.updated_at

    def _not_modified(self, tag: str, modified: datetime) -> bool:
        """RFC 9110: If-None-Match decides when present, else If-Modified-Since."""
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None:
            tags = {t.strip().removeprefix("W/") for t in if_none_match.split(",")}
            return "*" in tags or tag in tags
        if_modified_since = self.headers.get("If-Modified-Since")
        if if_modified_since is None:
            return False
        try:
            since = parsedate_to_datetime(if_modified_since)
        except (TypeError, ValueError):
            return False
        return since.tzinfo is not None and modified <= since
