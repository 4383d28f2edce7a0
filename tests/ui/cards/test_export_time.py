"""Timestamps in exports: the quick way writes exactly what `strftime` writes."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardviewer.ui.cards.columns import EXPORT_TIME_FORMAT, export_text, export_time

ZONES = st.sampled_from(
    [UTC, timezone(timedelta(hours=5, minutes=30)), timezone(-timedelta(hours=11))]
)
# Far enough from the ends of the calendar that local time still exists.
MOMENTS = st.datetimes(min_value=datetime(2, 1, 1), max_value=datetime(9998, 12, 30))


@pytest.fixture(params=["UTC", "Europe/Berlin", "America/St_Johns"])
def local_zone(request, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


# The zone stays the same for every example, as it should.
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(moment=MOMENTS, zone=ZONES)
def test_export_time_is_strftime(local_zone, moment, zone):
    aware = moment.replace(tzinfo=zone)
    expected = aware.astimezone().strftime(EXPORT_TIME_FORMAT)
    assert export_time(aware) == expected
    assert export_text(aware) == expected


@pytest.mark.parametrize(
    "moment",
    [
        datetime(999, 12, 31, 23, 59, 59, tzinfo=UTC),
        datetime(1000, 1, 1, 0, 0, 0, tzinfo=UTC),
        datetime(2024, 4, 19, 22, 53, 3, 999_999, tzinfo=UTC),
        datetime(2024, 4, 19, 22, 53, 3),  # naive: read as local time
    ],
)
def test_edges_of_the_quick_way(local_zone, moment):
    assert export_time(moment) == moment.astimezone().strftime(EXPORT_TIME_FORMAT)
