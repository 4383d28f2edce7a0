"""The administrator's preset server address: found, validated, and ignored when broken."""

from __future__ import annotations

import json
import logging
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


def test_candidates_are_next_to_the_program_then_the_system(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_DIRS", f"{tmp_path / 'one'}:{tmp_path / 'two'}")
    paths = candidate_paths()
    assert paths[0].name == FILE_NAME
    assert paths[1:] == [
        tmp_path / "one" / "CardViewer" / FILE_NAME,
        tmp_path / "two" / "CardViewer" / FILE_NAME,
    ]
