"""Retries of reads: which failures are tried again, how long the client waits, and when not."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

import httpx
import pytest

from cardviewer.api import (
    CardsClient,
    ConnectFailed,
    InvalidInput,
    NetworkError,
    RateLimited,
    RequestTimeout,
    ServerError,
    TlsError,
    UnexpectedResponse,
)
from cardviewer.api.errors import (
    ApiError,
    CardViewerError,
    ResponseTooLarge,
    UnreadableAnswer,
)
from cardviewer.api.retry import (
    WAITS_LEFT_TO_CALLER,
    RetryPolicy,
    Wait,
    WaitUnit,
    is_transient,
    parse_retry_after,
    wait_to_tell,
)
from cardviewer.demo import Fault

pytestmark = pytest.mark.anyio

PERSISTENT = 20  # more failures than any policy here tries


@pytest.fixture
def anyio_backend():
    return "asyncio"


class RecordedSleep:
    """Stands in for `asyncio.sleep`: notes each wait and how many reads had been sent."""

    def __init__(self, demo_server=None) -> None:
        self.delays: list[float] = []
        self.reads_before: list[int] = []
        self._demo_server = demo_server

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)
        if self._demo_server is not None:
            self.reads_before.append(card_requests(self._demo_server))
        await asyncio.sleep(0)


def card_requests(demo_server) -> int:
    return sum(1 for r in demo_server.requests if r.server == "api" and "/cards" in r.path)


def login_requests(demo_server) -> int:
    return sum(1 for r in demo_server.requests if r.server == "api" and r.path.endswith("/login"))


@pytest.fixture
def sleep(demo_server) -> RecordedSleep:
    return RecordedSleep(demo_server)


@pytest.fixture
async def signed_in(demo_server, sleep):
    policy = RetryPolicy(base_delay=0.01, sleep=sleep)
    async with CardsClient(demo_server.base_url, retry=policy) as client:
        await client.login(demo_server.email, demo_server.password)
        demo_server.clear_requests()
        yield client


def caused_by(error: CardViewerError, cause: Exception) -> CardViewerError:
    """The error as `map_exceptions` raises it, with the httpx error as its cause."""
    error.__cause__ = cause
    return error


# The delay computation


@pytest.mark.parametrize(
    ("attempt", "ceiling"), [(1, 0.5), (2, 1.0), (3, 2.0), (4, 4.0), (5, 8.0), (6, 8.0)]
)
def test_backoff_doubles_up_to_the_cap(attempt, ceiling):
    top = RetryPolicy(jitter=lambda: 1.0)
    bottom = RetryPolicy(jitter=lambda: 0.0)
    half = RetryPolicy(jitter=lambda: 0.5)
    assert top.backoff(attempt) == ceiling
    assert bottom.backoff(attempt) == 0.0
    assert half.backoff(attempt) == ceiling / 2


def test_backoff_of_a_huge_attempt_number_is_the_cap():
    assert RetryPolicy(jitter=lambda: 1.0).backoff(100_000) == 8.0


def test_without_a_practical_cap_the_backoff_stops_doubling_at_two_to_the_64th():
    policy = RetryPolicy(base_delay=1.0, max_delay=1e300, jitter=lambda: 1.0)
    assert policy.backoff(65) == 2.0**64
    assert policy.backoff(66) == 2.0**64
    assert policy.backoff(100_000) == 2.0**64
    assert policy.backoff(64) == 2.0**63


def test_an_attempt_number_below_one_waits_as_the_first():
    policy = RetryPolicy(jitter=lambda: 1.0)
    assert policy.backoff(0) == policy.backoff(1) == 0.5
    assert policy.backoff(-3) == 0.5


def test_policies_that_differ_only_in_sleep_and_jitter_are_equal():
    async def no_sleep(delay: float) -> None:
        return None

    assert RetryPolicy(sleep=no_sleep, jitter=lambda: 0.5) == RetryPolicy()
    assert RetryPolicy(attempts=2) != RetryPolicy()


def test_a_policy_cannot_be_changed():
    policy = RetryPolicy()
    with pytest.raises(AttributeError):
        policy.attempts = 9  # type: ignore[misc]
    assert policy.attempts == 4


def test_a_policy_without_waits_is_allowed():
    policy = RetryPolicy(base_delay=0.0, max_delay=0.0, max_retry_after=0.0)
    assert policy.backoff(3) == 0.0
    assert policy.delay_before_retry(api_error(429, retry_after=0.0), 1) == 0.0


def test_a_policy_shows_its_numbers_not_its_functions():
    text = repr(RetryPolicy())
    assert text == ("RetryPolicy(attempts=4, base_delay=0.5, max_delay=8.0, max_retry_after=30.0)")


def test_jitter_spreads_the_waits_over_the_whole_range():
    policy = RetryPolicy(base_delay=1.0, max_delay=3.0)
    waits = [policy.backoff(3) for _ in range(2000)]  # ceiling: min(3, 1 * 2**2)
    assert all(0.0 <= wait <= 3.0 for wait in waits)
    assert min(waits) < 0.3
    assert max(waits) > 2.7


def test_a_jitter_source_out_of_range_is_clamped():
    assert RetryPolicy(jitter=lambda: 7.0).backoff(1) == 0.5
    assert RetryPolicy(jitter=lambda: -1.0).backoff(1) == 0.0


@pytest.mark.parametrize(
    "arguments",
    [
        {"attempts": 0},
        {"base_delay": -1.0},
        {"max_delay": float("inf")},
        {"max_retry_after": float("nan")},
    ],
)
def test_a_policy_that_makes_no_sense_is_refused(arguments):
    with pytest.raises(ValueError, match="must"):
        RetryPolicy(**arguments)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("5", 5.0),
        (" 5 ", 5.0),
        ("0", 0.0),
        ("1.5", 1.5),
        ("Wed, 21 Oct 2015 07:28:30 GMT", 30.0),
        ("Wed, 21 Oct 2015 09:28:30 +0200", 30.0),
        ("Wednesday, 21-Oct-15 07:28:30 GMT", 30.0),  # RFC 850
        ("Wed Oct 21 07:28:30 2015", 30.0),  # asctime, read as GMT
        ("Wed, 21 Oct 2015 07:00:00 GMT", 0.0),  # in the past: now
    ],
)
def test_retry_after_in_seconds_or_as_a_date(value, seconds):
    now = datetime(2015, 10, 21, 7, 28, 0, tzinfo=UTC)
    assert parse_retry_after(value, now=now) == seconds


@pytest.mark.parametrize(
    "value",
    [
        None,
        "",
        "soon",
        "-1",
        "+5",
        "1e3",
        "nan",
        "inf",
        "0x10",
        "5 seconds",
        "Wed, 32 Oct 2015 07:28:00 GMT",
        "Mon, 1 Jan 99999 00:00:00 GMT",
    ],
)
def test_garbage_retry_after_is_ignored(value):
    assert parse_retry_after(value) is None


def api_error(status: int, retry_after: float | None = None) -> ApiError:
    error = (
        RateLimited("busy", status, retry_after)
        if status == 429
        else UnexpectedResponse("failed", status)
    )
    error.retry_after = retry_after
    return error


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504])
def test_overload_failing_and_gateway_errors_are_retried_with_backoff(status):
    policy = RetryPolicy(jitter=lambda: 1.0)
    assert policy.delay_before_retry(api_error(status), 1) == 0.5
    assert policy.delay_before_retry(api_error(status), 3) == 2.0


@pytest.mark.parametrize("status", [200, 400, 401, 403, 404, 405, 418, 422, 501])
def test_other_statuses_are_not_retried(status):
    assert RetryPolicy().delay_before_retry(api_error(status), 1) is None


@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_is_waited_exactly_up_to_the_cap(status):
    policy = RetryPolicy(max_retry_after=30.0, jitter=lambda: 1.0)
    assert policy.delay_before_retry(api_error(status, retry_after=3.0), 1) == 3.0
    assert policy.delay_before_retry(api_error(status, retry_after=30.0), 1) == 30.0
    assert policy.delay_before_retry(api_error(status, retry_after=30.5), 1) is None


def test_the_default_policy_waits_for_retry_after_up_to_thirty_seconds():
    policy = RetryPolicy()
    assert policy.delay_before_retry(api_error(429, retry_after=30.0), 1) == 30.0
    assert policy.delay_before_retry(api_error(503, retry_after=30.001), 1) is None


@pytest.mark.parametrize(
    ("retry_after", "told"),
    [
        (None, None),
        (0.0, None),
        (1.99, None),
        (2.0, Wait(2, WaitUnit.SECONDS)),
        (89.6, Wait(90, WaitUnit.SECONDS)),
        (119.4, Wait(119, WaitUnit.SECONDS)),
        (120.0, Wait(2, WaitUnit.MINUTES)),
        (600.0, Wait(10, WaitUnit.MINUTES)),
        (3600.0, Wait(60, WaitUnit.MINUTES)),
        (float("inf"), None),
        (float("nan"), None),
    ],
)
def test_the_wait_to_tell_is_whole_seconds_then_whole_minutes(retry_after, told):
    assert wait_to_tell(RateLimited("busy", 429, retry_after)) == told


def test_only_a_server_answer_carries_a_wait_to_tell():
    error = NetworkError("no answer")
    error.retry_after = 30.0  # type: ignore[attr-defined]
    assert wait_to_tell(error) is None


def test_retry_after_counts_only_on_429_and_503():
    policy = RetryPolicy(jitter=lambda: 1.0)
    assert policy.delay_before_retry(api_error(502, retry_after=120.0), 1) == 0.5


def test_no_retry_after_the_last_attempt():
    policy = RetryPolicy(attempts=3)
    assert policy.delay_before_retry(api_error(502), 2) is not None
    assert policy.delay_before_retry(api_error(502), 3) is None
    assert RetryPolicy(attempts=1).delay_before_retry(api_error(502), 1) is None
    assert policy.delay_before_retry(api_error(502), 4) is None, "past the last attempt"


@pytest.mark.parametrize(
    ("error", "transient"),
    [
        (caused_by(ConnectFailed("x"), httpx.ConnectError("refused")), True),
        (caused_by(RequestTimeout("x"), httpx.ReadTimeout("slow")), True),
        (caused_by(RequestTimeout("x"), httpx.ConnectTimeout("slow")), True),
        (caused_by(NetworkError("x"), httpx.RemoteProtocolError("closed")), True),
        (caused_by(NetworkError("x"), httpx.ReadError("reset")), True),
        (caused_by(TlsError("x"), httpx.ConnectError("certificate verify failed")), False),
        (caused_by(ConnectFailed("x"), httpx.ProxyError("403 Forbidden")), False),
        (caused_by(NetworkError("x"), httpx.DecodingError("bad gzip")), False),
        (NetworkError("without a cause"), False),
        (InvalidInput("x"), False),
        (UnexpectedResponse("of the wrong shape", 200), False),
        (UnreadableAnswer("not JSON", 200), True),
        (ResponseTooLarge("too large", 200), False),
        (ServerError("failed", 500), True),
        (ServerError("not implemented", 501), False),
    ],
)
def test_which_failures_pass_by_themselves(error, transient):
    assert is_transient(error) is transient


# Against the demo server


@pytest.mark.parametrize(
    "fault", [Fault.HTML_502, Fault.SERVICE_UNAVAILABLE, Fault.DROP_CONNECTION]
)
async def test_a_passing_fault_is_survived(signed_in, demo_server, sleep, fault):
    demo_server.faults.inject(fault, times=2)
    page = await signed_in.list_cards(demo_server.space_id)
    assert len(page.cards) == 10
    assert card_requests(demo_server) == 3
    assert len(sleep.delays) == 2
    assert all(0.0 <= delay <= 0.02 for delay in sleep.delays)  # base_delay 0.01, doubled


@pytest.mark.parametrize(
    ("fault", "error", "status"),
    [
        (Fault.HTML_502, UnexpectedResponse, 502),
        (Fault.SERVICE_UNAVAILABLE, ServerError, 503),
        (Fault.RATE_LIMITED, RateLimited, 429),
        (Fault.DROP_CONNECTION, NetworkError, None),
    ],
)
@pytest.mark.parametrize("attempts", [2, 4])
async def test_a_persisting_fault_ends_after_every_attempt(
    demo_server, sleep, fault, error, status, attempts
):
    policy = RetryPolicy(attempts=attempts, base_delay=0.01, sleep=sleep)
    async with CardsClient(demo_server.base_url, retry=policy) as client:
        await client.login(demo_server.email, demo_server.password)
        demo_server.faults.inject(fault, times=PERSISTENT)
        with pytest.raises(error) as info:
            await client.list_cards(demo_server.space_id)
    assert getattr(info.value, "status", None) == status
    assert card_requests(demo_server) == attempts
    assert len(sleep.delays) == attempts - 1


async def test_the_default_policy_tries_four_times(demo_server, sleep):
    async with CardsClient(demo_server.base_url) as default:
        assert default.retry == RetryPolicy(attempts=4)
    async with CardsClient(demo_server.base_url, retry=RetryPolicy(sleep=sleep)) as client:
        await client.login(demo_server.email, demo_server.password)
        demo_server.faults.inject(Fault.HTML_502, times=PERSISTENT)
        with pytest.raises(UnexpectedResponse):
            await client.list_cards(demo_server.space_id)
    assert card_requests(demo_server) == 4
    assert all(
        0.0 <= delay <= ceiling for delay, ceiling in zip(sleep.delays, (0.5, 1, 2), strict=True)
    )


async def test_retries_really_wait_with_the_default_sleep(demo_server):
    policy = RetryPolicy(base_delay=0.01, max_delay=0.02)
    async with CardsClient(demo_server.base_url, retry=policy) as client:
        await client.login(demo_server.email, demo_server.password)
        demo_server.faults.inject(Fault.HTML_502, times=2)
        page = await client.list_cards(demo_server.space_id)
    assert len(page.cards) == 10


async def test_one_attempt_disables_retries(demo_server, sleep):
    policy = RetryPolicy(attempts=1, sleep=sleep)
    async with CardsClient(demo_server.base_url, retry=policy) as client:
        await client.login(demo_server.email, demo_server.password)
        demo_server.faults.inject(Fault.HTML_502)
        with pytest.raises(UnexpectedResponse):
            await client.list_cards(demo_server.space_id)
    assert card_requests(demo_server) == 1
    assert sleep.delays == []


@pytest.mark.parametrize(
    "fault", [Fault.HTML_502, Fault.SERVICE_UNAVAILABLE, Fault.DROP_CONNECTION]
)
async def test_login_is_sent_only_once(demo_server, sleep, fault):
    policy = RetryPolicy(base_delay=0.01, sleep=sleep)
    demo_server.faults.inject(fault, times=PERSISTENT, target="login")
    async with CardsClient(demo_server.base_url, retry=policy) as client:
        with pytest.raises(CardViewerError):
            await client.login(demo_server.email, demo_server.password)
    assert login_requests(demo_server) == 1
    assert sleep.delays == []


async def test_retry_after_is_waited_before_asking_again(signed_in, demo_server, sleep):
    demo_server.faults.inject(Fault.RATE_LIMITED, times=2, retry_after=1)
    page = await signed_in.list_cards(demo_server.space_id)
    assert len(page.cards) == 10
    assert sleep.delays == [1.0, 1.0]
    assert sleep.reads_before == [1, 2]  # each wait came between two requests
    assert card_requests(demo_server) == 3


async def test_retry_after_above_the_cap_gives_up_at_once(demo_server, sleep):
    policy = RetryPolicy(max_retry_after=30.0, sleep=sleep)
    async with CardsClient(demo_server.base_url, retry=policy) as client:
        await client.login(demo_server.email, demo_server.password)
        demo_server.clear_requests()
        demo_server.faults.inject(Fault.RATE_LIMITED, times=PERSISTENT, retry_after=60)
        with pytest.raises(RateLimited) as info:
            await client.list_cards(demo_server.space_id)
    assert info.value.retry_after == 60
    assert card_requests(demo_server) == 1
    assert sleep.delays == []


async def test_a_cut_body_is_read_again(signed_in, demo_server, sleep, caplog):
    demo_server.faults.inject(Fault.TRUNCATED_JSON, times=2)
    with caplog.at_level(logging.INFO, logger="cardviewer.api.client"):
        page = await signed_in.list_cards(demo_server.space_id)
    assert len(page.cards) == 10
    assert card_requests(demo_server) == 3
    assert len(sleep.delays) == 2
    assert [record.getMessage().split(" on attempt")[0] for record in caplog.records] == [
        f"GET /v1/spaces/{demo_server.space_id}/cards: HTTP 200"
    ] * 2, "each retry is logged"


async def test_a_body_that_stays_cut_fails_after_every_try(signed_in, demo_server, sleep):
    demo_server.faults.inject(Fault.TRUNCATED_JSON, times=PERSISTENT)
    with pytest.raises(UnreadableAnswer) as info:
        await signed_in.list_cards(demo_server.space_id)
    assert info.value.status == 200
    assert card_requests(demo_server) == signed_in.retry.attempts
    assert len(sleep.delays) == signed_in.retry.attempts - 1


async def test_a_sign_in_is_never_sent_twice(demo_server, sleep):
    policy = RetryPolicy(sleep=sleep)
    async with CardsClient(demo_server.base_url, retry=policy) as client:
        demo_server.faults.inject(Fault.TRUNCATED_JSON, target="login")
        with pytest.raises(UnreadableAnswer):
            await client.login(demo_server.email, demo_server.password)
    assert login_requests(demo_server) == 1
    assert sleep.delays == []


async def test_an_expired_token_is_not_retried(signed_in, demo_server, sleep):
    demo_server.faults.inject(Fault.REVOKED_TOKEN, times=PERSISTENT)
    with pytest.raises(ApiError) as info:
        await signed_in.list_cards(demo_server.space_id)
    assert info.value.status == 401
    assert card_requests(demo_server) == 1


async def test_cancelling_during_the_wait_stops_at_once(demo_server):
    waiting = asyncio.Event()

    async def long_sleep(delay: float) -> None:
        waiting.set()
        await asyncio.sleep(delay)

    policy = RetryPolicy(base_delay=600.0, max_delay=600.0, jitter=lambda: 1.0, sleep=long_sleep)
    async with CardsClient(demo_server.base_url, retry=policy) as client:
        await client.login(demo_server.email, demo_server.password)
        demo_server.clear_requests()
        demo_server.faults.inject(Fault.HTML_502, times=PERSISTENT)
        task = asyncio.create_task(client.list_cards(demo_server.space_id))
        await waiting.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert card_requests(demo_server) == 1


async def test_each_retry_logs_one_line_without_the_token(signed_in, demo_server, caplog):
    caplog.set_level(logging.INFO, logger="cardviewer.api.client")
    demo_server.faults.inject(Fault.HTML_502)
    demo_server.faults.inject(Fault.DROP_CONNECTION)
    await signed_in.list_cards(demo_server.space_id, page=2, with_emails=True)
    lines = [
        r.getMessage()
        for r in caplog.records
        if r.name == "cardviewer.api.client" and r.levelno == logging.INFO
    ]
    path = f"/v1/spaces/{demo_server.space_id}/cards"
    assert len(lines) == 2
    assert lines[0].startswith(f"GET {path}: HTTP 502 on attempt 1/4; trying again in 0.")
    assert lines[1].startswith(f"GET {path}: RemoteProtocolError on attempt 2/4;")
    assert signed_in.token
    assert all(signed_in.token not in line and "page=" not in line for line in lines)


# Statuses the demo server cannot send, through a mock transport


@pytest.mark.parametrize(
    ("status", "requests"), [(504, 3), (500, 3), (501, 1), (404, 1), (403, 1), (401, 1)]
)
async def test_statuses_through_a_mock_transport(status, requests):
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(status, content=b"<html>gateway</html>")

    recorded = RecordedSleep()
    policy = RetryPolicy(attempts=3, sleep=recorded)
    transport = httpx.MockTransport(answer)
    async with CardsClient(
        "https://api.example", token="t", transport=transport, retry=policy
    ) as client:
        with pytest.raises(ApiError) as info:
            await client.list_cards("space")
    assert info.value.status == status
    assert len(seen) == requests
    assert len(recorded.delays) == requests - 1


async def test_a_503_carries_its_retry_after_as_a_date():
    when = "Wed, 21 Oct 2015 07:28:00 GMT"  # long past: try again now

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            503, json={"message": "Service Unavailable"}, headers={"Retry-After": when}
        )

    policy = RetryPolicy(attempts=1)
    transport = httpx.MockTransport(answer)
    async with CardsClient(
        "https://api.example", token="t", transport=transport, retry=policy
    ) as client:
        with pytest.raises(ServerError) as info:
            await client.list_cards("space")
    assert info.value.retry_after == 0.0


def test_a_whole_space_fetch_has_the_client_leave_the_server_s_waits_to_it():
    """Three waits of up to 30 s inside the client left the fetch's progress standing
    still without a word; the fetch waits them itself and says so (`page_patience`)."""
    asked = RateLimited("Too many requests.", 429, 25)
    assert WAITS_LEFT_TO_CALLER.delay_before_retry(asked, 1) is None
    assert RetryPolicy().delay_before_retry(asked, 1) == 25
    gateway = ServerError("Bad gateway.", 502)
    assert WAITS_LEFT_TO_CALLER.delay_before_retry(gateway, 1) is not None, "quick tries stay"
