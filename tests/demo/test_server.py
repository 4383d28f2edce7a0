"""The server's lifecycle, addresses, latency, concurrency and request log."""

from __future__ import annotations

import logging
import socket
import threading
import time
from datetime import timedelta

import httpx
import pytest

from cardviewer.demo import (
    DEMO_EMAIL,
    DEMO_PASSWORD,
    DEMO_SPACE_ID,
    EMPTY_SPACE_ID,
    DemoConfig,
    DemoServer,
    Fault,
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_addresses_are_known_once_started():
    server = DemoServer(DemoConfig(card_count=5))
    with pytest.raises(RuntimeError):
        _ = server.base_url
    with server:
        assert server.is_running
        assert server.base_url == f"http://127.0.0.1:{server.port}"
        assert server.avatar_base_url == f"http://127.0.0.1:{server.avatar_port}"
        assert server.port != server.avatar_port
    assert not server.is_running


def test_identity_of_the_demo_account_and_spaces():
    server = DemoServer()
    assert (server.email, server.password) == (DEMO_EMAIL, DEMO_PASSWORD)
    assert (server.space_id, server.empty_space_id) == (DEMO_SPACE_ID, EMPTY_SPACE_ID)
    assert server.config == DemoConfig()
    assert server.config.token_lifetime == timedelta(hours=8)


def test_chosen_ports_are_used_and_freed():
    port, avatar_port = free_port(), free_port()
    with DemoServer(DemoConfig(card_count=5), port=port, avatar_port=avatar_port) as server:
        assert (server.port, server.avatar_port) == (port, avatar_port)
        assert httpx.get(f"{server.base_url}/").status_code == 404
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))  # free again


def test_a_busy_port_fails_start_and_leaves_nothing_open():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        api_port = free_port()
        server = DemoServer(DemoConfig(card_count=5), port=api_port, avatar_port=port)
        with pytest.raises(OSError, match="in use"):
            server.start()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", api_port))


def test_taken_ports_can_give_way_to_free_ones(caplog):
    caplog.set_level(logging.INFO, logger="cardviewer.demo")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        server = DemoServer(DemoConfig(card_count=5), port=port, avatar_port=free_port())
        server.start(free_ports_if_taken=True)
        try:
            assert server.port != port
            assert httpx.get(f"{server.base_url}/").status_code == 404
        finally:
            server.stop()
    assert "are taken" in caplog.text


def test_stop_is_idempotent_and_final():
    server = DemoServer(DemoConfig(card_count=5)).start()
    with pytest.raises(RuntimeError):
        server.start()
    server.stop()
    server.stop()
    with pytest.raises(RuntimeError):
        server.start()


def test_stopping_a_never_started_server_is_harmless():
    DemoServer().stop()


def test_stop_ends_waiting_requests_and_kept_alive_connections():
    server = DemoServer(DemoConfig(card_count=5)).start()
    server.faults.inject(Fault.SLOW, delay=30)
    token = server.issue_token()["access_token"]
    errors: list[BaseException] = []

    def wait_for_slow_answer():
        try:
            httpx.get(
                f"{server.base_url}/v1/spaces/{server.space_id}/cards",
                headers={"Authorization": f"Bearer {token}"},
                timeout=10,
            )
        except httpx.HTTPError as exc:
            errors.append(exc)

    thread = threading.Thread(target=wait_for_slow_answer)
    thread.start()
    while not server.requests:
        time.sleep(0.01)
    started = time.perf_counter()
    server.stop()
    thread.join(timeout=5)
    assert not thread.is_alive()
    assert time.perf_counter() - started < 3
    assert errors


def test_latency_delays_every_api_answer(client, demo):
    demo.config.latency = 0.25
    started = time.perf_counter()
    assert client.get("/").status_code == 404
    assert time.perf_counter() - started >= 0.25


def test_latency_does_not_serialise_requests(demo):
    demo.config.latency = 0.4
    statuses: list[int] = []

    def request():
        statuses.append(httpx.get(f"{demo.base_url}/", timeout=5).status_code)

    threads = [threading.Thread(target=request) for _ in range(8)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [404] * 8
    assert time.perf_counter() - started < 1.6


def test_both_servers_are_recorded(client, cdn, demo):
    client.get("/")
    cdn.get("/avatars/default.png", headers={"X-Test": "1"})
    assert [(r.server, r.method, r.path) for r in demo.requests] == [
        ("api", "GET", "/"),
        ("avatar", "GET", "/avatars/default.png"),
    ]
    assert demo.requests[1].headers["x-test"] == "1"
    assert all(name == name.lower() for r in demo.requests for name in r.headers)


def test_issue_token_and_revoke_all(client, demo):
    session = demo.issue_token()
    assert set(session) == {"access_token", "session_id", "expires_at"}
    url = f"/v1/spaces/{demo.space_id}/cards"
    headers = {"Authorization": f"Bearer {session['access_token']}"}
    assert client.get(url, headers=headers).status_code == 200
    demo.revoke_all_tokens()
    assert client.get(url, headers=headers).status_code == 401


def test_the_configured_card_count():
    with DemoServer(DemoConfig(card_count=3, per_page=2)) as server:
        token = server.issue_token()["access_token"]
        body = httpx.get(
            f"{server.base_url}/v1/spaces/{server.space_id}/cards?page=2",
            headers={"Authorization": f"Bearer {token}"},
        ).json()
    assert body["meta"]["total"] == 3
    assert body["meta"]["last_page"] == 2
    assert len(body["data"]) == 1


def test_the_configured_token_lifetime():
    with DemoServer(DemoConfig(card_count=1, token_lifetime=timedelta(seconds=-5))) as server:
        session = httpx.post(
            f"{server.base_url}/v1/auth/login",
            json={"email": server.email, "password": server.password},
        ).json()
        response = httpx.get(
            f"{server.base_url}/v1/spaces/{server.space_id}/cards",
            headers={"Authorization": f"Bearer {session['access_token']}"},
        )
    assert response.status_code == 401
