"""The API over real loopback HTTP: login, the card list and its envelope, errors, encoding."""

from __future__ import annotations

import json
import re
import socket
from datetime import UTC, datetime, timedelta
from typing import Any, BinaryIO
from urllib.parse import quote

import httpx
import pytest

from cardviewer.demo import DEMO_SPACE_NAME, DemoServer
from cardviewer.demo.pagination import NEXT_LABEL, PREVIOUS_LABEL

LOGIN = "/v1/auth/login"
UNAUTHENTICATED = {"message": "Unauthenticated."}
NO_MATCH = {"message": "Access data do not match!"}
SPACE_NOT_FOUND = {"message": "No query results for model [App\\Models\\Space]."}
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")


def cards_path(space_id: str) -> str:
    # Dots too: httpx would resolve an id of ".." as a path segment.
    return f"/v1/spaces/{quote(space_id, safe='').replace('.', '%2E')}/cards"


def missing_key(key: str) -> dict[str, str]:
    return {"message": f'Undefined array key "{key}"', "exception": "ErrorException"}


def post_login(client: httpx.Client, body: object) -> httpx.Response:
    return client.post(LOGIN, json=body, headers={"Accept": "application/json"})


# Login


def test_login_returns_a_session(client, demo):
    response = post_login(client, {"email": demo.email, "password": demo.password})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    session = response.json()
    assert list(session) == ["access_token", "session_id", "expires_at"]
    assert session["access_token"].startswith("eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.")
    assert session["access_token"].count(".") == 2
    assert len(session["session_id"]) > 100
    assert TIMESTAMP.fullmatch(session["expires_at"])
    expires = datetime.fromisoformat(session["expires_at"])
    assert abs(expires - (datetime.now(UTC) + demo.config.token_lifetime)) < timedelta(seconds=5)


def test_the_login_token_opens_the_card_list(client, demo):
    token = post_login(client, {"email": demo.email, "password": demo.password}).json()
    response = client.get(
        cards_path(demo.space_id), headers={"Authorization": f"Bearer {token['access_token']}"}
    )
    assert response.status_code == 200


def test_login_reads_the_email_as_laravel_does(client, demo):
    """TrimStrings trims the e-mail, and the database compares it without case."""
    email = f"  {demo.email.upper()} "
    assert post_login(client, {"email": email, "password": demo.password}).status_code == 200


@pytest.mark.parametrize(
    "credentials",
    [
        {"email": "demo@cardviewer.example", "password": "wrong"},
        {"email": "nobody@cardviewer.example", "password": "demo"},
        {"email": "demo@cardviewer.example", "password": " demo"},
        {"email": "", "password": ""},
        {"email": "demo@cardviewer.example", "password": ""},
        {"email": None, "password": None},
        {"email": ["demo@cardviewer.example"], "password": "demo"},
        {"email": "demo@cardviewer.example", "password": 1234},
    ],
)
def test_login_refuses_credentials_that_do_not_match(client, credentials):
    response = post_login(client, credentials)
    assert response.status_code == 422
    assert response.json() == NO_MATCH


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ({"password": "demo"}, "email"),
        ({"email": "demo@cardviewer.example"}, "password"),
        ({}, "email"),
        ({"Email": "demo@cardviewer.example", "Password": "demo"}, "email"),
    ],
)
def test_login_without_a_key_is_a_500_naming_it(client, body, key):
    response = post_login(client, body)
    assert response.status_code == 500
    assert response.json() == missing_key(key)


@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        (b'{"email": "demo@cardviewer.example", "password": "de', "application/json"),
        (b'["demo@cardviewer.example", "demo"]', "application/json"),
        (b'"demo"', "application/json"),
        (b"email=demo%40cardviewer.example&password=demo", "application/x-www-form-urlencoded"),
        (b"", "application/json"),
        (b'{"email": "demo@cardviewer.example", "password": "demo"}', "text/plain"),
    ],
)
def test_login_with_a_body_that_is_not_a_json_object_has_no_keys(client, content, content_type):
    response = client.post(LOGIN, content=content, headers={"Content-Type": content_type})
    assert response.status_code == 500
    assert response.json() == missing_key("email")


def test_login_is_post_only(client):
    response = client.get(LOGIN)
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert response.json() == {
        "message": "The GET method is not supported for route v1/auth/login. "
        "Supported methods: POST."
    }


# Authentication of the card list


def test_a_token_from_issue_token_works(client, demo, auth):
    assert client.get(cards_path(demo.space_id), headers=auth).status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": ""},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer not-a-token"},
        {"Authorization": "Basic ZGVtbzpkZW1v"},
    ],
)
def test_the_card_list_needs_a_known_token(client, demo, headers):
    response = client.get(cards_path(demo.space_id), headers=headers)
    assert response.status_code == 401
    assert response.json() == UNAUTHENTICATED


def test_an_expired_token_is_refused(client, demo):
    expired = demo.issue_token(timedelta(seconds=-1))
    assert datetime.fromisoformat(expired["expires_at"]) < datetime.now(UTC)
    response = client.get(
        cards_path(demo.space_id), headers={"Authorization": f"Bearer {expired['access_token']}"}
    )
    assert response.status_code == 401
    assert response.json() == UNAUTHENTICATED


def test_revoked_tokens_are_refused(client, demo):
    headers = {"Authorization": f"Bearer {demo.issue_token()['access_token']}"}
    demo.revoke_all_tokens()
    response = client.get(cards_path(demo.space_id), headers=headers)
    assert response.status_code == 401
    assert response.json() == UNAUTHENTICATED


def test_the_scheme_name_is_case_insensitive(client, demo):
    token = demo.issue_token()["access_token"]
    response = client.get(cards_path(demo.space_id), headers={"Authorization": f"bearer {token}"})
    assert response.status_code == 200


def test_authentication_comes_before_the_space_lookup(client):
    response = client.get(cards_path("no-such-space"))
    assert response.status_code == 401


# The envelope


def get_page(
    client: httpx.Client, demo: DemoServer, auth: dict[str, str], page: int | str, **params: str
) -> Any:
    response = client.get(cards_path(demo.space_id), params={"page": page, **params}, headers=auth)
    assert response.status_code == 200
    return response.json()


def check_envelope(
    body: Any,
    demo: DemoServer,
    *,
    page: int,
    last: int,
    total: int,
    first_item: int | None,
    last_item: int | None,
    count: int,
) -> None:
    path = f"{demo.base_url}/v1/spaces/{demo.space_id}/cards"

    def url(n: int) -> str:
        return f"{path}?page={n}"

    prev_url = url(page - 1) if page > 1 else None
    next_url = url(page + 1) if page < last else None
    assert list(body) == ["data", "links", "meta"]
    assert len(body["data"]) == count
    assert body["links"] == {"first": url(1), "last": url(last), "prev": prev_url, "next": next_url}
    meta = body["meta"]
    assert list(meta) == [
        "current_page",
        "from",
        "last_page",
        "links",
        "path",
        "per_page",
        "to",
        "total",
    ]
    assert meta["current_page"] == page
    assert meta["from"] == first_item
    assert meta["to"] == last_item
    assert meta["last_page"] == last
    assert meta["per_page"] == 10
    assert meta["total"] == total
    assert meta["path"] == path
    assert meta["links"][0] == {"url": prev_url, "label": PREVIOUS_LABEL, "active": False}
    assert meta["links"][-1] == {"url": next_url, "label": NEXT_LABEL, "active": False}
    assert meta["links"][1:-1] == [
        {"url": url(n), "label": str(n), "active": n == page} for n in range(1, last + 1)
    ]


def test_the_first_page(client, demo, auth):
    body = get_page(client, demo, auth, 1)
    check_envelope(body, demo, page=1, last=24, total=240, first_item=1, last_item=10, count=10)


def test_a_middle_page(client, demo, auth):
    body = get_page(client, demo, auth, 7)
    check_envelope(body, demo, page=7, last=24, total=240, first_item=61, last_item=70, count=10)


def test_the_last_page(client, demo, auth):
    body = get_page(client, demo, auth, 24)
    check_envelope(body, demo, page=24, last=24, total=240, first_item=231, last_item=240, count=10)


def test_a_page_past_the_last_is_empty(client, demo, auth):
    body = get_page(client, demo, auth, 30)
    check_envelope(
        body, demo, page=30, last=24, total=240, first_item=None, last_item=None, count=0
    )


def test_a_short_last_page(client, demo, auth):
    demo.config.per_page = 7
    body = get_page(client, demo, auth, 35)
    assert body["meta"]["per_page"] == 7
    assert (body["meta"]["from"], body["meta"]["to"], body["meta"]["last_page"]) == (239, 240, 35)
    assert len(body["data"]) == 2


def test_the_empty_space(client, demo, auth):
    response = client.get(cards_path(demo.empty_space_id), headers=auth)
    body = response.json()
    path = f"{demo.base_url}/v1/spaces/{demo.empty_space_id}/cards"
    assert body["data"] == []
    assert body["links"] == {
        "first": f"{path}?page=1",
        "last": f"{path}?page=1",
        "prev": None,
        "next": None,
    }
    assert body["meta"] == {
        "current_page": 1,
        "from": None,
        "last_page": 1,
        "links": [
            {"url": None, "label": PREVIOUS_LABEL, "active": False},
            {"url": f"{path}?page=1", "label": "1", "active": True},
            {"url": None, "label": NEXT_LABEL, "active": False},
        ],
        "path": path,
        "per_page": 10,
        "to": None,
        "total": 0,
    }


@pytest.mark.parametrize("page", ["0", "-1", "abc", "2.5", "", "01"])
def test_an_invalid_page_is_the_first(client, demo, auth, page):
    assert get_page(client, demo, auth, page)["meta"]["current_page"] == 1


def test_without_a_page_parameter_the_first_page_is_served(client, demo, auth):
    body = client.get(cards_path(demo.space_id), headers=auth).json()
    assert body["meta"]["current_page"] == 1
    assert body["meta"]["from"] == 1


def test_the_last_page_parameter_wins(client, demo, auth):
    response = client.get(f"{cards_path(demo.space_id)}?page=2&page=3", headers=auth)
    assert response.json()["meta"]["current_page"] == 3


def test_pages_follow_each_other_without_gaps(client, demo, auth):
    first = get_page(client, demo, auth, 1)["data"]
    second = get_page(client, demo, auth, 2)["data"]
    uuids = [c["uuid"] for c in first + second]
    assert len(set(uuids)) == 20
    assert first[-1]["created_at"] <= second[0]["created_at"]


def test_cards_have_the_documented_fields_and_more(client, demo, auth):
    for card in get_page(client, demo, auth, 1)["data"]:
        assert isinstance(card["uuid"], str)
        assert card["uuid"]
        assert set(card["avatar"]) == {"uuid", "src", "src_large", "mim_type", "extension", "size"}
        assert card["avatar"]["src"].startswith(f"{demo.avatar_base_url}/avatars/")
        assert isinstance(card["username"], str)
        assert isinstance(card["display_name"], str)
        assert isinstance(card["position"], str)
        assert isinstance(card["public"], bool)
        assert type(card["connected_cards"]) is int
        assert type(card["connects"]) is int
        assert card["subscriptions"] is None or isinstance(card["subscriptions"], dict)
        assert TIMESTAMP.fullmatch(card["created_at"])
        assert TIMESTAMP.fullmatch(card["updated_at"])
        assert card["space"] == {"uuid": demo.space_id, "name": DEMO_SPACE_NAME}
        assert isinstance(card["is_business"], bool)
        assert "emails" not in card


def test_with_emails(client, demo, auth):
    cards = []
    for page in range(1, 6):
        cards += get_page(client, demo, auth, page, **{"with": "emails"})["data"]
    assert all(isinstance(c["emails"], list) for c in cards)
    assert any(len(c["emails"]) == 2 for c in cards)
    for card in cards:
        for email in card["emails"]:
            assert set(email) == {"uuid", "email", "is_primary"}
            assert "@" in email["email"]
        if card["emails"]:
            assert card["emails"][0]["is_primary"] is True


def test_emails_are_not_part_of_the_page_links(client, demo, auth):
    body = get_page(client, demo, auth, 2, **{"with": "emails"})
    assert body["links"]["next"].endswith("/cards?page=3")


def test_the_demo_data_is_in_the_listing(client, demo, auth):
    names = [
        card["display_name"]
        for page in range(1, 25)
        for card in get_page(client, demo, auth, page)["data"]
    ]
    assert len(names) == 240
    assert "Dr. Ana O'Neil, PhD" in names
    assert any(not n.isascii() for n in names)


# Spaces and routes


@pytest.mark.parametrize(
    "space_id", ["a/b", "with space", "ümlaut", "..", "?page=2", "enuh1mF01XXXXXX"]
)
def test_an_unknown_space_is_a_laravel_404(client, auth, space_id):
    response = client.get(cards_path(space_id), headers=auth)
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
    assert response.json() == SPACE_NOT_FOUND


def test_an_encoded_space_id_is_decoded(client, demo, auth):
    encoded = "".join(f"%{b:02X}" for b in demo.space_id.encode())
    response = client.get(f"/v1/spaces/{encoded}/cards", headers=auth)
    assert response.status_code == 200
    assert response.json()["meta"]["path"] == f"{demo.base_url}/v1/spaces/{demo.space_id}/cards"


@pytest.mark.parametrize("path", ["/", "/v1", "/v2/auth/login", "/v1/spaces//cards", "/v1/cards"])
def test_an_unknown_route_is_a_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    route = path.strip("/") or "/"
    assert response.json() == {"message": f"The route {route} could not be found."}


def test_avatars_are_not_served_by_the_api(client):
    assert client.get("/avatars/default.png").status_code == 404


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
def test_the_card_list_is_get_only(client, demo, auth, method):
    response = client.request(method, cards_path(demo.space_id), headers=auth)
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"
    assert response.json()["message"] == (
        f"The {method} method is not supported for route "
        f"v1/spaces/{demo.space_id}/cards. Supported methods: GET, HEAD."
    )


def test_head_answers_headers_only(client, demo, auth):
    get = client.get(cards_path(demo.space_id), headers=auth)
    head = client.head(cards_path(demo.space_id), headers=auth)
    assert head.status_code == 200
    assert head.content == b""
    assert head.headers["content-length"] == get.headers["content-length"]


def test_options_lists_the_methods(client):
    response = client.options(LOGIN)
    assert response.status_code == 200
    assert response.headers["allow"] == "POST"


# Encoding and transport


def test_json_is_written_as_php_writes_it(client, demo, auth):
    response = client.get(cards_path(demo.space_id), params={"page": 1}, headers=auth)
    raw = response.content
    assert raw.isascii()
    assert b"http:\\/\\/" in raw
    assert b"\\u" in raw
    assert b"&laquo; Previous" in raw
    assert b": " not in raw
    assert response.headers["cache-control"] == "no-cache, private"
    assert json.loads(raw)["data"]


def test_errors_are_json_too(client):
    response = client.get(cards_path("x"))
    assert response.headers["content-type"] == "application/json"
    assert response.headers["cache-control"] == "no-cache, private"


def test_links_name_the_host_the_client_used(demo, auth):
    with httpx.Client(base_url=f"http://localhost:{demo.port}") as client:
        body = client.get(cards_path(demo.space_id), headers=auth).json()
    assert body["meta"]["path"] == f"http://localhost:{demo.port}/v1/spaces/{demo.space_id}/cards"
    src = next(c["avatar"]["src"] for c in body["data"])
    assert src.startswith(f"http://localhost:{demo.avatar_port}/avatars/")


def read_response(stream: BinaryIO) -> tuple[bytes, dict[str, str], bytes]:
    status = stream.readline()
    headers = {}
    while (line := stream.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, stream.read(int(headers["content-length"]))


def test_connections_are_kept_alive(demo):
    request = (
        f"POST {LOGIN} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: 2\r\n\r\n{}"
    ).encode()
    with socket.create_connection(("127.0.0.1", demo.port), timeout=5) as sock:
        stream = sock.makefile("rb")
        for _ in range(3):
            sock.sendall(request)
            status, headers, body = read_response(stream)
            assert status.startswith(b"HTTP/1.1 500")
            assert "connection" not in headers
            assert json.loads(body) == missing_key("email")


def test_a_chunked_body_is_read(demo):
    body = json.dumps({"email": demo.email, "password": "wrong"}).encode()
    request = (
        (
            f"POST {LOGIN} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Transfer-Encoding: chunked\r\n\r\n{len(body):x}\r\n"
        ).encode()
        + body
        + b"\r\n0\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", demo.port), timeout=5) as sock:
        sock.sendall(request)
        status, _, answer = read_response(sock.makefile("rb"))
    assert status.startswith(b"HTTP/1.1 422")
    assert json.loads(answer) == NO_MATCH


def test_a_huge_body_is_refused_before_it_is_read(demo):
    request = f"POST {LOGIN} HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n"
    with socket.create_connection(("127.0.0.1", demo.port), timeout=5) as sock:
        sock.sendall(request.encode())
        status, headers, body = read_response(sock.makefile("rb"))
    assert status.startswith(b"HTTP/1.1 413")
    assert headers["connection"] == "close"
    assert b"413 Request Entity Too Large" in body


def test_requests_are_recorded(client, demo, auth):
    client.get(cards_path(demo.space_id), params={"page": 2}, headers=auth)
    post_login(client, {"email": demo.email, "password": "x"})
    listing, login = demo.requests
    assert listing.method == "GET"
    assert listing.path == f"/v1/spaces/{demo.space_id}/cards?page=2"
    assert listing.server == "api"
    assert listing.headers["authorization"] == auth["Authorization"]
    assert listing.headers["host"] == f"127.0.0.1:{demo.port}"
    assert login.method == "POST"
    assert json.loads(login.body) == {"email": demo.email, "password": "x"}
    demo.clear_requests()
    assert demo.requests == []


def test_the_log_never_shows_the_token(client, demo, auth, caplog):
    caplog.set_level("DEBUG", logger="cardviewer.demo")
    client.get(cards_path(demo.space_id), headers=auth)
    assert caplog.records
    token = auth["Authorization"].split()[1]
    assert not any(token in r.getMessage() for r in caplog.records)
