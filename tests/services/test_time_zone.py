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


def link_to_vienna(folder: str, monkeypatch, tmp_path: Path) -> None:
    """/etc/localtime as a link to `<folder>/Europe/Vienna` under `tmp_path`."""
    zoneinfo = tmp_path / folder / "Europe"
    zoneinfo.mkdir(parents=True)
    (zoneinfo / "Vienna").write_bytes(b"TZif")
    link = tmp_path / "localtime"
    link.symlink_to(zoneinfo / "Vienna")
    monkeypatch.setattr(time_zone, "_LOCALTIME", link)


def test_without_tz_the_systems_zone_is_named(zone, monkeypatch, tmp_path: Path):
    zone(None)
    link_to_vienna("usr/share/zoneinfo", monkeypatch, tmp_path)
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


def test_a_tz_path_is_read_from_its_last_zoneinfo_folder(zone):
    """Only what follows the last `zoneinfo/` of a path is the zone's name."""
    zone("/opt/zoneinfo/copy/usr/share/zoneinfo/Europe/Berlin")
    assert local_zone_name() == "Europe/Berlin"


@pytest.mark.parametrize(
    ("tz", "name"),
    [
        ("Zulu0", "UTC"),
        ("UTC0CEST,M3.5.0,M10.5.0/3", "UTC/CEST"),
        ("XYZ-1UTC,M3.5.0,M10.5.0/3", "XYZ/UTC"),
        ("<+04>-4<+05>,M3.5.0/2,M10.5.0/3", "+04/+05"),
        ("EST5EST,M3.2.0,M11.1.0", "EST"),
        ("EST5", "EST"),
    ],
)
def test_posix_abbreviations_are_utc_only_when_both_name_utc(zone, tz, name):
    """A POSIX `TZ` is "UTC" when both its names are UTC's; else its names, once if the same."""
    zone(tz)
    assert local_zone_name() == name


def test_a_link_inside_nested_zoneinfo_folders_names_the_last(zone, monkeypatch, tmp_path: Path):
    """The linked zone is what follows the last `zoneinfo/` of the link's target."""
    zone(None)
    link_to_vienna("zoneinfo/copy/usr/share/zoneinfo", monkeypatch, tmp_path)
    assert local_zone_name() == "Europe/Vienna"


def test_a_dangling_link_names_no_zone(zone, monkeypatch, tmp_path: Path):
    """A link to a zone file that is not there is passed over for the Debian zone file."""
    zone(None)
    link = tmp_path / "localtime"
    link.symlink_to(tmp_path / "usr/share/zoneinfo/Europe/Gone")
    (tmp_path / "timezone").write_text("Europe/Lisbon\n", encoding="utf-8")
    monkeypatch.setattr(time_zone, "_LOCALTIME", link)
    monkeypatch.setattr(time_zone, "_TIMEZONE_FILE", tmp_path / "timezone")
    assert local_zone_name() == "Europe/Lisbon"


@pytest.mark.parametrize(
    "content",
    [b"Europe/Lisbon" * 100_000, b"Not/AZone\n", b"\xff\xfe", b"\n", b"../../etc/passwd"],
)
def test_a_debian_zone_file_naming_no_zone_is_passed_over(
    zone, monkeypatch, tmp_path: Path, content: bytes
):
    zone(None)
    (tmp_path / "timezone").write_bytes(content)
    monkeypatch.setattr(time_zone, "_LOCALTIME", tmp_path / "missing")
    monkeypatch.setattr(time_zone, "_TIMEZONE_FILE", tmp_path / "timezone")
    assert local_zone_name() in {time.tzname[0], f"{time.tzname[0]}/{time.tzname[1]}", "UTC"}
