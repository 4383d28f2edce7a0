"""Fault injection: the queue itself, and every fault as a client meets it over HTTP."""

from __future__ import annotations

import io
import json
import threading
import time
from urllib.parse import urlsplit

import httpx
import pytest
from PIL import Image

from cardviewer.demo import Fault, FaultInjector
from cardviewer.demo.faults import ActiveFault, RequestKind, corrupt_cards

LOGIN = "/v1/auth/login"


@pytest.fixture
def cards_url(demo):
    return f"/v1/spaces/{demo.space_id}/cards"


@pytest.fixture
def avatar_path(demo, client, auth, cards_url):
    cards = client.get(cards_url, headers=auth).json()["data"]
    return urlsplit(next(c["avatar"]["src"] for c in cards if c["avatar"]["uuid"])).path


# The queue


def test_faults_are_taken_in_order_and_used_up():
    faults = FaultInjector()
    faults.inject(Fault.HTML_502, times=2)
    faults.inject(Fault.RATE_LIMITED, retry_after=5)
    assert faults.pending() == 3
    assert [faults.take("cards") for _ in range(4)] == [
        ActiveFault(Fault.HTML_502),
        ActiveFault(Fault.HTML_502),
        ActiveFault(Fault.RATE_LIMITED, retry_after=5),
        None,
    ]
    assert faults.pending() == 0


def test_a_fault_waits_for_its_target():
    faults = FaultInjector()
    faults.inject(Fault.DROP_CONNECTION, target="login")
    assert faults.take("cards") is None
    assert faults.take("avatar") is None
    taken = faults.take("login")
    assert taken is not None
    assert taken.fault is Fault.DROP_CONNECTION
    assert faults.pending() == 0


def test_any_matches_every_kind_of_request():
    faults = FaultInjector()
    faults.inject(Fault.SLOW, target="any", times=4, delay=0.5)
    kinds: tuple[RequestKind, ...] = ("cards", "login", "avatar", "other")
    for kind in kinds:
        taken = faults.take(kind)
        assert taken is not None
        assert taken.delay == 0.5
    assert faults.take("cards") is None


def test_slow_waits_thirty_seconds_unless_told():
    faults = FaultInjector()
    faults.inject(Fault.SLOW)
    taken = faults.take("cards")
    assert taken is not None
    assert taken.delay == 30.0


def test_clear():
    faults = FaultInjector()
    faults.inject(Fault.HTML_502, times=10, target="any")
    faults.clear()
    assert faults.pending() == 0
    assert faults.take("cards") is None


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"times": 0}, ValueError),
        ({"target": "everything"}, ValueError),
        ({"delay": -1}, ValueError),
        ({"retry_after": -1}, ValueError),
    ],
)
def test_nonsense_is_refused(kwargs, error):
    with pytest.raises(error):
        FaultInjector().inject(Fault.SLOW, **kwargs)


def test_only_faults_are_injected():
    with pytest.raises(TypeError):
        FaultInjector().inject("slow")  # type: ignore[arg-type]


def test_each_fault_is_taken_once_across_threads():
    faults = FaultInjector()
    faults.inject(Fault.HTML_502, times=500, target="any")
    taken: list[object] = []
    lock = threading.Lock()

    def worker():
        for _ in range(100):
            if faults.take("cards") is not None:
                with lock:
                    taken.append(1)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(taken) == 500
    assert faults.pending() == 0


def test_corrupt_cards_makes_every_kind_of_mistake():
    cards = [
        {
            "connects": 1,
            "created_at": "2020-01-01T00:00:00.000000Z",
            "public": True,
            "avatar": {"uuid": None, "src": "http://x/a.png"},
            "display_name": "A",
        }
        for _ in range(10)
    ]
    corrupt_cards(cards)
    assert cards[0]["connects"] == "many"
    assert cards[2]["created_at"] == "yesterday"
    assert cards[4]["public"] == "maybe"
    assert cards[6]["avatar"] == "http://x/a.png"
    assert cards[8]["display_name"] == 4711
    assert all(card["connects"] == 1 for card in cards[1::2])


# Over HTTP


def test_html_502(client, demo, auth, cards_url):
    demo.faults.inject(Fault.HTML_502)
    response = client.get(cards_url, headers=auth)
    assert response.status_code == 502
    assert response.headers["content-type"] == "text/html"
    assert response.headers["server"] == "nginx"
    assert "<title>502 Bad Gateway</title>" in response.text
    with pytest.raises(json.JSONDecodeError):
        response.json()
    assert client.get(cards_url, headers=auth).status_code == 200


def test_truncated_json(client, demo, auth, cards_url):
    whole = client.get(cards_url, headers=auth).content
    demo.faults.inject(Fault.TRUNCATED_JSON)
    response = client.get(cards_url, headers=auth)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.headers["connection"] == "close"
    assert "content-length" not in response.headers
    assert 0 < len(response.content) < len(whole)
    assert whole.startswith(response.content)
    with pytest.raises(json.JSONDecodeError):
        json.loads(response.content)
    assert client.get(cards_url, headers=auth).json()["data"]


def test_dropped_connection(client, demo, auth, cards_url):
    demo.faults.inject(Fault.DROP_CONNECTION)
    with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
        client.get(cards_url, headers=auth)
    assert client.get(cards_url, headers=auth).status_code == 200


def test_slow_answer_times_out_the_client(demo, auth, cards_url):
    demo.faults.inject(Fault.SLOW, delay=1.0)
    with (
        httpx.Client(base_url=demo.base_url, timeout=0.2) as client,
        pytest.raises(httpx.ReadTimeout),
    ):
        client.get(cards_url, headers=auth)
    assert demo.faults.pending() == 0


def test_slow_answer_comes_after_the_delay(client, demo, auth, cards_url):
    demo.faults.inject(Fault.SLOW, delay=0.3)
    started = time.perf_counter()
    response = client.get(cards_url, headers=auth)
    assert time.perf_counter() - started >= 0.3
    assert response.status_code == 200
    assert len(response.json()["data"]) == 10


def test_a_slow_answer_does_not_hold_up_others(demo, auth, cards_url):
    demo.faults.inject(Fault.SLOW, delay=1.0)
    results: list[int] = []

    def slow_request():
        with httpx.Client(base_url=demo.base_url, timeout=5) as slow_client:
            results.append(slow_client.get(cards_url, headers=auth).status_code)

    thread = threading.Thread(target=slow_request)
    thread.start()
    while not demo.requests:
        time.sleep(0.01)
    started = time.perf_counter()
    with httpx.Client(base_url=demo.base_url, timeout=5) as fast_client:
        assert fast_client.get(cards_url, headers=auth).status_code == 200
    assert time.perf_counter() - started < 0.5
    thread.join()
    assert results == [200]


def test_rate_limited(client, demo, auth, cards_url):
    demo.faults.inject(Fault.RATE_LIMITED, retry_after=7)
    response = client.get(cards_url, headers=auth)
    assert response.status_code == 429
    assert response.headers["retry-after"] == "7"
    assert response.json() == {"message": "Too Many Attempts."}


def test_service_unavailable_speaks_json_to_json_clients(client, demo, auth, cards_url):
    demo.faults.inject(Fault.SERVICE_UNAVAILABLE, times=2)
    json_answer = client.get(cards_url, headers={**auth, "Accept": "application/json"})
    assert json_answer.status_code == 503
    assert json_answer.json() == {"message": "Service Unavailable"}
    html_answer = client.get(cards_url, headers={**auth, "Accept": "text/html"})
    assert html_answer.status_code == 503
    assert html_answer.headers["content-type"] == "text/html"


def test_revoked_token(client, demo, auth, cards_url):
    demo.faults.inject(Fault.REVOKED_TOKEN)
    response = client.get(cards_url, headers=auth)
    assert response.status_code == 401
    assert response.json() == {"message": "Unauthenticated."}
    assert client.get(cards_url, headers=auth).status_code == 200


def test_wrong_types(client, demo, auth, cards_url):
    demo.faults.inject(Fault.WRONG_TYPES)
    body = client.get(cards_url, headers=auth).json()
    cards = body["data"]
    assert len(cards) == 10
    assert body["meta"]["total"] == 240
    assert cards[0]["connects"] == "many"
    assert cards[2]["created_at"] == "yesterday"
    assert cards[4]["public"] == "maybe"
    assert isinstance(cards[6]["avatar"], str)
    assert cards[8]["display_name"] == 4711
    assert isinstance(cards[1]["connects"], int)
    again = client.get(cards_url, headers=auth).json()["data"]
    assert all(isinstance(card["connects"], int) for card in again)


def test_faults_for_cards_leave_login_alone(client, demo, cards_url, auth):
    demo.faults.inject(Fault.HTML_502)
    login = client.post(LOGIN, json={"email": demo.email, "password": demo.password})
    assert login.status_code == 200
    assert demo.faults.pending() == 1
    assert client.get(cards_url, headers=auth).status_code == 502


def test_a_fault_for_login(client, demo):
    demo.faults.inject(Fault.RATE_LIMITED, target="login", retry_after=60)
    response = client.post(LOGIN, json={"email": demo.email, "password": demo.password})
    assert response.status_code == 429
    assert response.headers["retry-after"] == "60"


def test_wrong_types_at_login(client, demo):
    demo.faults.inject(Fault.WRONG_TYPES, target="login")
    session = client.post(LOGIN, json={"email": demo.email, "password": demo.password}).json()
    assert not isinstance(session["access_token"], str)
    assert session["expires_at"] == "tomorrow"


def test_a_fault_for_any_request(client, demo, auth, cards_url):
    demo.faults.inject(Fault.HTML_502, target="any", times=2)
    assert client.get("/no/such/route").status_code == 502
    assert client.post(LOGIN, json={}).status_code == 502
    assert client.post(LOGIN, json={}).status_code == 500


@pytest.mark.parametrize(
    ("fault", "status"),
    [(Fault.HTML_502, 502), (Fault.RATE_LIMITED, 429), (Fault.SERVICE_UNAVAILABLE, 503)],
)
def test_faults_for_avatars(cdn, demo, avatar_path, fault, status):
    demo.faults.inject(fault, target="avatar")
    assert cdn.get(avatar_path).status_code == status
    assert cdn.get(avatar_path).status_code == 200


def test_a_truncated_avatar(cdn, demo, avatar_path):
    demo.faults.inject(Fault.TRUNCATED_JSON, target="avatar")
    response = cdn.get(avatar_path)
    assert response.headers["content-type"] == "image/jpeg"
    with pytest.raises(OSError):  # noqa: PT011 (Pillow raises plain OSError)
        Image.open(io.BytesIO(response.content)).load()


def test_a_dropped_avatar(cdn, demo, avatar_path):
    demo.faults.inject(Fault.DROP_CONNECTION, target="avatar")
    with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
        cdn.get(avatar_path)


def test_an_avatar_that_is_not_an_image(cdn, demo, avatar_path):
    demo.faults.inject(Fault.WRONG_TYPES, target="avatar")
    response = cdn.get(avatar_path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
