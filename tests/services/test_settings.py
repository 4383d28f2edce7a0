"""Remembered values: defaults, round trip, damaged files, and the recent-spaces list."""

import json
import logging
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardviewer.paths import config_dir
from cardviewer.services.settings import MAX_RECENT_SPACES, Settings


@pytest.fixture
def path(tmp_path):
    return tmp_path / "settings.json"


def test_nothing_saved_gives_the_defaults(path):
    settings = Settings.load(path)
    assert settings == Settings(path=path)
    assert (settings.last_server, settings.last_email, settings.last_space) == ("", "", "")
    assert settings.recent_spaces == []
    assert settings.include_emails is False


def test_saved_values_load_back(path):
    settings = Settings.load(path)
    settings.last_server = "https://api.example.com"
    settings.last_email = "zoë@example.com"
    settings.include_emails = True
    settings.remember_space("space-1")
    settings.remember_space("space-2")
    settings.save()

    loaded = Settings.load(path)
    assert loaded == settings
    assert loaded.recent_spaces == ["space-2", "space-1"]
    assert loaded.last_space == "space-2"


def test_the_file_is_the_documented_json(path):
    settings = Settings(path=path, last_server="https://api.example.com", include_emails=True)
    settings.remember_space("space-1")
    settings.save()
    assert json.loads(path.read_text(encoding="utf-8")) == {
        "version": 1,
        "last_server": "https://api.example.com",
        "last_email": "",
        "last_space": "space-1",
        "recent_spaces": ["space-1"],
        "include_emails": True,
    }


def test_default_location_is_the_config_folder():
    settings = Settings.load()
    assert settings.path == config_dir() / "settings.json"
    settings.last_email = "ada@example.com"
    settings.save()
    assert Settings.load().last_email == "ada@example.com"


def test_save_creates_a_missing_folder(tmp_path):
    settings = Settings(path=tmp_path / "new" / "settings.json", last_space="s")
    settings.save()
    assert Settings.load(settings.path).last_space == "s"


def test_save_raises_when_the_file_cannot_be_written(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(OSError):  # noqa: PT011 - the kind differs per platform
        Settings(path=blocker / "settings.json").save()


@pytest.mark.parametrize(
    "content",
    [b"", b"{not json", b'{"last_server": "https://x', b"\xff\xfe", b"[]", b'"text"', b"42"],
    ids=["empty", "not-json", "truncated", "not-utf8", "list", "string", "number"],
)
def test_a_damaged_file_gives_the_defaults_with_a_warning(path, caplog, content):
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING, logger="cardviewer.services.settings"):
        settings = Settings.load(path)
    assert settings == Settings(path=path)
    assert any(str(path) in r.getMessage() for r in caplog.records)


def test_an_unreadable_file_gives_the_defaults_with_a_warning(path, caplog):
    path.mkdir()
    with caplog.at_level(logging.WARNING, logger="cardviewer.services.settings"):
        assert Settings.load(path) == Settings(path=path)
    assert caplog.records


def test_a_value_of_the_wrong_type_falls_back_alone(path, caplog):
    path.write_text(
        json.dumps(
            {
                "last_server": 8080,
                "last_email": "ada@example.com",
                "last_space": None,
                "recent_spaces": "space-1",
                "include_emails": "yes",
            }
        ),
        encoding="utf-8",
    )
    with caplog.at_level(logging.WARNING, logger="cardviewer.services.settings"):
        settings = Settings.load(path)
    assert settings == Settings(path=path, last_email="ada@example.com")
    warned = " ".join(r.getMessage() for r in caplog.records)
    for name in ("last_server", "last_space", "recent_spaces", "include_emails"):
        assert name in warned


def test_recent_spaces_from_the_file_are_cleaned(path):
    spaces = [" a ", "b", "", "   ", 7, None, "a", *[f"s{i}" for i in range(20)]]
    path.write_text(json.dumps({"recent_spaces": spaces}), encoding="utf-8")
    assert Settings.load(path).recent_spaces == ["a", "b", *[f"s{i}" for i in range(8)]]


def test_keys_of_a_newer_version_survive_a_save(path):
    path.write_text(json.dumps({"version": 2, "theme": {"dark": True}}), encoding="utf-8")
    settings = Settings.load(path)
    settings.last_email = "ada@example.com"
    settings.save()
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["theme"] == {"dark": True}
    assert document["version"] == 1
    assert document["last_email"] == "ada@example.com"


def test_remember_space_moves_a_known_space_to_the_front(path):
    settings = Settings(path=path, recent_spaces=["a", "b", "c"])
    settings.remember_space("c")
    assert settings.recent_spaces == ["c", "a", "b"]
    assert settings.last_space == "c"


def test_remember_space_strips_and_ignores_blanks(path):
    settings = Settings(path=path, recent_spaces=["a"], last_space="a")
    settings.remember_space("  b  ")
    settings.remember_space("   ")
    settings.remember_space("")
    assert settings.recent_spaces == ["b", "a"]
    assert settings.last_space == "b"


def test_remember_space_keeps_the_ten_most_recent(path):
    settings = Settings(path=path)
    for i in range(15):
        settings.remember_space(f"space-{i}")
    assert settings.recent_spaces == [f"space-{i}" for i in range(14, 4, -1)]


@given(st.lists(st.text(max_size=8), max_size=40))
def test_recent_spaces_stay_a_short_list_of_distinct_names(remembered):
    settings = Settings(path=Path("never-saved.json"))
    for space in remembered:
        settings.remember_space(space)
    spaces = settings.recent_spaces
    assert len(spaces) <= MAX_RECENT_SPACES
    assert len(set(spaces)) == len(spaces)
    assert all(space and space == space.strip() for space in spaces)
    used = [space.strip() for space in remembered if space.strip()]
    if used:
        assert spaces[0] == used[-1] == settings.last_space
