"""The administrator's preset server address: found, validated, and ignored when broken."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import pytest

from cardviewer.services.site_config import (
    FILE_NAME,
    SiteConfig,
    candidate_paths,
    load_site_config,
)


def write(folder: Path, content: object) -> Path:
    path = folder / FILE_NAME
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return path


def test_no_file_presets_nothing(tmp_path):
    assert load_site_config([tmp_path / FILE_NAME]) == SiteConfig()
    assert not SiteConfig().server_locked


def test_a_preset_and_locked_server(tmp_path):
    path = write(tmp_path, {"server_url": "cards.example.com/", "lock_server": True})
    config = load_site_config([path])
    assert config.server_url == "https://cards.example.com"
    assert config.server_locked
    assert config.source == path


def test_the_first_file_found_wins(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    write(second, {"server_url": "https://second.example"})
    assert load_site_config([first / FILE_NAME, second / FILE_NAME]).server_url == (
        "https://second.example"
    )
    write(first, {"server_url": "https://first.example"})
    assert load_site_config([first / FILE_NAME, second / FILE_NAME]).server_url == (
        "https://first.example"
    )


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "[1, 2]",
        {"server_url": 42},
        {"server_url": "https://x.example", "lock_server": "yes"},
        {"server_url": "http://cards.example.com"},  # plain http to another computer
        "\ufeff\x00\xff",
    ],
)
def test_a_broken_file_is_ignored_with_a_warning(tmp_path, caplog, content):
    path = write(tmp_path, content)
    with caplog.at_level(logging.WARNING):
        assert load_site_config([path]) == SiteConfig()
    assert "ignoring the site configuration" in caplog.text


@pytest.mark.parametrize(
    "content",
    [b"[" * 100_000, b'{"server_url": "https://x.example\\u0000"}', b"\x00" * 100],
    ids=["nested-brackets", "nul-in-text", "nul-bytes"],
)
def test_a_damaged_file_is_ignored_in_one_line_and_left_as_it_is(tmp_path, caplog, content):
    """The administrator's file is read, never written or moved."""
    path = tmp_path / FILE_NAME
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING):
        assert load_site_config([path]) == SiteConfig()
    assert len(caplog.records) == 1
    assert sorted(tmp_path.iterdir()) == [path]
    assert path.read_bytes() == content


def test_a_folder_in_place_of_the_file_is_ignored_in_one_line(tmp_path, caplog):
    path = tmp_path / FILE_NAME
    path.mkdir()
    with caplog.at_level(logging.WARNING):
        assert load_site_config([path]) == SiteConfig()
    assert "not a regular file" in caplog.text
    assert path.is_dir()


def test_a_broken_file_gives_way_to_the_next(tmp_path):
    broken, good = tmp_path / "a", tmp_path / "b"
    broken.mkdir()
    good.mkdir()
    write(broken, "{")
    write(good, {"server_url": "https://good.example"})
    assert load_site_config([broken / FILE_NAME, good / FILE_NAME]).server_url == (
        "https://good.example"
    )


def test_unknown_keys_are_reported_not_fatal(tmp_path, caplog):
    path = write(tmp_path, {"server_url": "https://x.example", "colour": "blue"})
    with caplog.at_level(logging.WARNING):
        assert load_site_config([path]).server_url == "https://x.example"
    assert "colour" in caplog.text


def test_a_huge_file_is_refused(tmp_path, caplog):
    path = write(tmp_path, json.dumps({"server_url": "https://x.example", "pad": "x" * 100_000}))
    assert load_site_config([path]) == SiteConfig()


def padded_to(size: int) -> str:
    """A valid site file of exactly `size` bytes."""
    start = json.dumps({"server_url": "https://x.example", "pad": ""})
    return start[:-2] + "x" * (size - len(start)) + start[-2:]


def test_a_file_of_up_to_64_kib_is_read(tmp_path):
    path = write(tmp_path, padded_to(64 * 1024))
    assert path.stat().st_size == 65536
    assert load_site_config([path]).server_url == "https://x.example"
    write(tmp_path, padded_to(64 * 1024 + 1))
    assert load_site_config([path]) == SiteConfig()


def test_a_server_is_unlocked_unless_the_file_says_so(tmp_path, caplog):
    assert not SiteConfig(server_url="https://x.example").server_locked
    path = write(tmp_path, {"server_url": "https://x.example"})
    with caplog.at_level(logging.INFO):
        config = load_site_config([path])
    assert config.server_url == "https://x.example"
    assert not config.server_locked
    assert "server https://x.example" in caplog.text
    assert "(locked)" not in caplog.text


def test_a_locked_server_is_logged_as_locked(tmp_path, caplog):
    path = write(tmp_path, {"server_url": "https://x.example", "lock_server": True})
    with caplog.at_level(logging.INFO):
        load_site_config([path])
    assert "server https://x.example (locked)" in caplog.text


def test_a_lock_without_a_server_locks_nothing(tmp_path):
    assert not SiteConfig(lock_server=True).server_locked
    path = write(tmp_path, {"lock_server": True})
    config = load_site_config([path])
    assert config.server_url is None
    assert not config.server_locked


def test_candidates_are_next_to_the_program_then_the_system(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_DIRS", f"{tmp_path / 'one'}:{tmp_path / 'two'}")
    paths = candidate_paths()
    assert paths[0].name == FILE_NAME
    assert paths[1:] == [
        tmp_path / "one" / "CardViewer" / FILE_NAME,
        tmp_path / "two" / "CardViewer" / FILE_NAME,
    ]


def test_from_source_the_first_candidate_is_next_to_the_script(monkeypatch, tmp_path):
    monkeypatch.delattr(sys, "frozen", raising=False)
    monkeypatch.setattr(sys, "argv", [str(tmp_path / "src" / "main.py"), "--verbose"])
    assert candidate_paths()[0] == tmp_path / "src" / FILE_NAME


def test_a_bundled_app_looks_next_to_its_executable(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "app" / "CardViewer"))
    monkeypatch.setattr(sys, "argv", [str(tmp_path / "elsewhere" / "main.py")])
    assert candidate_paths()[0] == tmp_path / "app" / FILE_NAME


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Windows Notepad used to start UTF-8 files with one."""
    path = tmp_path / "site.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"server_url": "https://x.example"}).encode())
    assert load_site_config([path]).server_url == "https://x.example"
