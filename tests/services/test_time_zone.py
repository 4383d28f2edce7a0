"""The local time zone's name, as an export's headings give it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cardviewer.services import time_zone
from cardviewer.services.time_zone import local_zone_name


@pytest.fixture
def zone(monkeypatch: pytest.MonkeyPatch):
    """Sets `TZ` (None: unset) as the C library reads it, and puts it back afterwards."""

    def set_zone(value: str | None) -> None:
        if value is None:
            monkeypatch.delenv("TZ", raising=False)
        else:
            monkeypatch.setenv("TZ", value)
        time.tzset()

    yield set_zone
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    ("tz", "name"),
    [
        ("Europe/Berlin", "Europe/Berlin"),
        (":America/St_Johns", "America/St_Johns"),
        ("/usr/share/zoneinfo/Asia/Kolkata", "Asia/Kolkata"),
        ("UTC", "UTC"),
        ("Etc/UTC", "UTC"),
        ("", "UTC"),
    ],
)
def test_tz_names_the_zone(zone, tz, name):
    zone(tz)
    assert local_zone_name() == name


def test_a_posix_tz_is_named_by_its_abbreviations(zone):
    zone("CET-1CEST,M3.5.0,M10.5.0/3")
    assert local_zone_name() == "CET/CEST"


def test_without_tz_the_systems_zone_is_named(zone, monkeypatch, tmp_path: Path):
    zone(None)
    zoneinfo = tmp_path / "usr/share/zoneinfo/Europe"
    zoneinfo.mkdir(parents=True)
    (zoneinfo / "Vienna").write_bytes(b"TZif")
    link = tmp_path / "localtime"
    link.symlink_to(zoneinfo / "Vienna")
    monkeypatch.setattr(time_zone, "_LOCALTIME", link)
    assert local_zone_name() == "Europe/Vienna"


def test_without_a_link_the_debian_zone_file_names_it(zone, monkeypatch, tmp_path: Path):
    zone(None)
    (tmp_path / "timezone").write_text("Europe/Lisbon\n", encoding="utf-8")
    monkeypatch.setattr(time_zone, "_LOCALTIME", tmp_path / "missing")
    monkeypatch.setattr(time_zone, "_TIMEZONE_FILE", tmp_path / "timezone")
    assert local_zone_name() == "Europe/Lisbon"


def test_with_nothing_to_go_by_the_abbreviation_names_it(zone, monkeypatch, tmp_path: Path):
    zone(None)
    monkeypatch.setattr(time_zone, "_LOCALTIME", tmp_path / "missing")
    monkeypatch.setattr(time_zone, "_TIMEZONE_FILE", tmp_path / "missing too")
    assert local_zone_name() in {time.tzname[0], f"{time.tzname[0]}/{time.tzname[1]}", "UTC"}
