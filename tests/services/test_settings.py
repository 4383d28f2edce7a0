"""Remembered values: defaults, round trip, damaged files, ranges and the recent-spaces list."""

import inspect
import json
import logging
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardviewer.paths import config_dir
from cardviewer.services.settings import (
    DEFAULT_EXPORT_CONCURRENCY,
    MAX_EXPORT_CONCURRENCY,
    MAX_FILE_BYTES,
    MAX_RECENT_SPACES,
    Settings,
    decode_view_state,
    encode_view_state,
)
from cardviewer.services.space_fetch import DEFAULT_CONCURRENCY, MAX_CONCURRENCY

LOGGER = "cardviewer.services.settings"
GEOMETRY = encode_view_state(b"\x01\xd9\xd0\xcb\x00\x03 saved geometry")


@pytest.fixture
def path(tmp_path):
    return tmp_path / "settings.json"


def test_nothing_saved_gives_the_defaults(path):
    settings = Settings.load(path)
    assert settings == Settings(path=path)
    assert (settings.last_server, settings.last_email, settings.last_space) == ("", "", "")
    assert settings.recent_spaces == []
    assert settings.include_emails is False
    assert settings.export_format == "csv"
    assert settings.csv_delimiter == ""
    assert settings.export_concurrency == DEFAULT_CONCURRENCY
    assert settings.language == ""
    assert settings.window_geometry == settings.window_state == ""
    assert settings.header_state == settings.splitter_state == ""
    assert settings.details_visible is True
    assert settings.keep_signed_in is True
    assert settings.export_folder == ""


def test_the_export_concurrency_default_is_the_fetchers():
    assert Settings().export_concurrency == DEFAULT_EXPORT_CONCURRENCY == DEFAULT_CONCURRENCY
    assert 1 <= DEFAULT_CONCURRENCY <= MAX_EXPORT_CONCURRENCY <= MAX_CONCURRENCY


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


def documented(**values: object) -> dict[str, object]:
    """The settings file as the README documents it, in its order, with `values` set."""
    file: dict[str, object] = {
        "version": 1,
        "last_server": "",
        "last_email": "",
        "last_space": "",
        "recent_spaces": [],
        "include_emails": False,
        "export_format": "csv",
        "csv_delimiter": "",
        "export_concurrency": DEFAULT_CONCURRENCY,
        "phone_list_qr_codes": False,
        "phone_list_pictures": False,
        "vcard_photos": False,
        "language": "",
        "window_geometry": "",
        "window_state": "",
        "header_state": "",
        "splitter_state": "",
        "details_visible": True,
        "keep_signed_in": True,
        "export_folder": "",
    }
    file.update(values)
    return file


def test_the_file_is_the_documented_json(path):
    settings = Settings(path=path, last_server="https://api.example.com", include_emails=True)
    settings.remember_space("space-1")
    settings.save()
    assert json.loads(path.read_text(encoding="utf-8")) == documented(
        last_server="https://api.example.com",
        last_space="space-1",
        recent_spaces=["space-1"],
        include_emails=True,
    )


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
    [
        b"",
        b"{not json",
        b'{"last_server": "https://x',
        b"\xff\xfe",
        b"[]",
        b'"text"',
        b"42",
        b"[" * 100_000,
        b'{"last_email": "ada\\u0000@example.com"}',
    ],
    ids=[
        "empty",
        "not-json",
        "truncated",
        "not-utf8",
        "list",
        "string",
        "number",
        "nested-brackets",
        "nul",
    ],
)
def test_a_damaged_file_gives_the_defaults_and_is_kept_beside(path, caplog, content):
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING):
        settings = Settings.load(path)
    assert settings == Settings(path=path)
    (line,) = [r.getMessage() for r in caplog.records]
    assert str(path) in line
    assert path.with_name("settings.json.damaged").read_bytes() == content
    assert not path.exists()


def test_after_a_damaged_file_the_next_save_writes_a_new_one(path):
    path.write_bytes(b"{not json")
    settings = Settings.load(path)
    settings.last_email = "ada@example.com"
    settings.save()
    assert Settings.load(path).last_email == "ada@example.com"
    assert path.with_name("settings.json.damaged").read_bytes() == b"{not json"


def test_text_that_could_not_be_saved_again_is_damage(path):
    """Half of a UTF-16 pair is valid JSON, but no UTF-8: the next save would fail."""
    path.write_bytes(b'{"last_email": "ada\\ud800@example.com"}')
    settings = Settings.load(path)
    assert settings == Settings(path=path)
    settings.save()
    assert path.with_name("settings.json.damaged").exists()


MEGABYTE = 1_048_576
"""The limit the module's docs promise, written out: the constant is what is tested."""


def test_a_file_over_a_megabyte_is_damaged(path):
    assert MAX_FILE_BYTES == MEGABYTE
    document = json.dumps({"last_email": "ada@example.com"}).encode()
    path.write_bytes(document.ljust(MEGABYTE))
    assert Settings.load(path).last_email == "ada@example.com"
    path.write_bytes(document.ljust(MEGABYTE + 1))
    assert Settings.load(path) == Settings(path=path)
    assert path.with_name("settings.json.damaged").stat().st_size == MEGABYTE + 1


def test_an_unreadable_file_gives_the_defaults_with_a_warning(path, caplog):
    path.mkdir()
    with caplog.at_level(logging.WARNING, logger="cardviewer.services.settings"):
        assert Settings.load(path) == Settings(path=path)
    assert caplog.records
    assert path.with_name("settings.json.damaged").is_dir()
    Settings(path=path).save()
    assert path.is_file()


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


# Preferences and window layout


PREFERENCES: dict[str, Any] = {
    "export_format": "xlsx",
    "csv_delimiter": ";",
    "export_concurrency": 7,
    "phone_list_qr_codes": True,
    "phone_list_pictures": True,
    "vcard_photos": True,
    "language": "de",
    "window_geometry": GEOMETRY,
    "window_state": encode_view_state(b"\x00\x00\x00\xff state"),
    "header_state": encode_view_state(b"header"),
    "splitter_state": encode_view_state(b"splitter"),
    "details_visible": False,
    "keep_signed_in": False,
    "export_folder": str(Path.cwd() / "Zoë" / "Telefonlisten"),
}


def test_preferences_load_back(path):
    settings = Settings(path=path, **PREFERENCES)
    settings.save()
    loaded = Settings.load(path)
    assert loaded == settings
    for name, value in PREFERENCES.items():
        assert getattr(loaded, name) == value, name


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("export_format", "xlsx"),
        ("export_format", "csv"),
        ("csv_delimiter", ","),
        ("csv_delimiter", ";"),
        ("csv_delimiter", ""),
        ("export_concurrency", 1),
        ("export_concurrency", MAX_EXPORT_CONCURRENCY),
        ("language", "en"),
        ("language", "pt_BR"),
        ("language", ""),
        ("window_geometry", GEOMETRY),
        ("window_state", GEOMETRY),
        ("header_state", GEOMETRY),
        ("splitter_state", GEOMETRY),
        ("details_visible", False),
        ("details_visible", True),
        ("keep_signed_in", False),
        ("keep_signed_in", True),
        ("phone_list_qr_codes", True),
        ("phone_list_qr_codes", False),
        ("phone_list_pictures", True),
        ("phone_list_pictures", False),
        ("vcard_photos", True),
        ("vcard_photos", False),
        ("export_folder", str(Path.cwd() / "Zoë" / "Documents")),
        ("export_folder", ""),
    ],
)
def test_each_preference_round_trips_without_warnings(path, caplog, name, value):
    path.write_text(json.dumps({name: value}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        settings = Settings.load(path)
    assert getattr(settings, name) == value
    assert not caplog.records
    settings.save()
    assert json.loads(path.read_text(encoding="utf-8"))[name] == value


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("export_format", 1),
        ("export_format", None),
        ("csv_delimiter", 44),
        ("csv_delimiter", [";"]),
        ("export_concurrency", "4"),
        ("export_concurrency", 4.0),
        ("export_concurrency", True),
        ("language", 49),
        ("language", {"de": True}),
        ("window_geometry", 17),
        ("window_state", ["AAAA"]),
        ("header_state", None),
        ("splitter_state", False),
        ("details_visible", "no"),
        ("details_visible", 0),
        ("keep_signed_in", "false"),
        ("keep_signed_in", None),
        ("export_folder", ["/home/ada"]),
    ],
)
def test_a_preference_of_the_wrong_type_gives_its_default_with_a_warning(path, caplog, name, value):
    path.write_text(json.dumps({name: value, "last_email": "ada@example.com"}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        settings = Settings.load(path)
    assert settings == Settings(path=path, last_email="ada@example.com")
    assert any(name in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("export_format", "pdf"),
        ("export_format", "XLSX"),
        ("export_format", ""),
        ("csv_delimiter", "\t"),
        ("csv_delimiter", ",;"),
        ("csv_delimiter", " "),
        ("language", "German"),
        ("language", "de/../../etc"),
        ("language", " de"),
        ("window_geometry", "not base64!"),
        ("window_state", "AAA"),
        ("header_state", "ü"),
        ("export_folder", "Telefonlisten"),
    ],
)
def test_a_preference_out_of_its_choices_gives_its_default_with_a_warning(
    path, caplog, name, value
):
    path.write_text(json.dumps({name: value}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        settings = Settings.load(path)
    assert settings == Settings(path=path)
    assert any(name in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(
    ("stored", "used"),
    [(0, 1), (-3, 1), (9, MAX_EXPORT_CONCURRENCY), (1000, MAX_EXPORT_CONCURRENCY)],
)
def test_the_export_concurrency_is_brought_into_range_with_a_warning(path, caplog, stored, used):
    path.write_text(json.dumps({"export_concurrency": stored}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert Settings.load(path).export_concurrency == used
    assert any("export_concurrency" in r.getMessage() for r in caplog.records)


def test_values_set_out_of_range_are_saved_as_they_would_load(path, caplog):
    settings = Settings(path=path, export_format="pdf", export_concurrency=99, language="?")
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        settings.save()
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["export_format"] == "csv"
    assert document["export_concurrency"] == MAX_EXPORT_CONCURRENCY
    assert document["language"] == ""
    assert len(caplog.records) == 3


def test_unknown_keys_survive_beside_the_preferences(path):
    path.write_text(
        json.dumps({"theme": "dark", "export_format": "xlsx", "toolbar": [1, 2]}),
        encoding="utf-8",
    )
    settings = Settings.load(path)
    settings.export_concurrency = 2
    settings.details_visible = False
    settings.save()
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["theme"] == "dark"
    assert document["toolbar"] == [1, 2]
    assert document["export_format"] == "xlsx"
    assert document["export_concurrency"] == 2
    assert document["details_visible"] is False


def test_a_bad_preference_does_not_cost_the_others(path, caplog):
    path.write_text(
        json.dumps({**PREFERENCES, "export_format": "pdf", "window_state": 5}), encoding="utf-8"
    )
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        settings = Settings.load(path)
    assert settings == Settings(
        path=path, **{**PREFERENCES, "export_format": "csv", "window_state": ""}
    )


@given(st.binary(max_size=300))
def test_view_state_survives_the_text_form(data):
    text = encode_view_state(data)
    assert text.isascii()
    assert decode_view_state(text) == data


@pytest.mark.parametrize("text", ["", "not base64!", "AAA", "é"])
def test_view_state_that_is_no_base64_decodes_to_nothing(text):
    assert decode_view_state(text) == b""


def test_reading_the_settings_needs_no_qt():
    check = (
        "import sys, cardviewer.services.settings\n"
        "sys.exit(any(m.startswith(('PySide6', 'shiboken6')) for m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_the_file_and_a_missing_folder_are_private(tmp_path):
    path = tmp_path / "new" / "settings.json"
    old = os.umask(0o022)
    try:
        Settings(path=path).save()
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_a_last_server_with_a_password_is_dropped_and_never_written(path, caplog):
    secret = "s3cret-pw"
    path.write_text(
        json.dumps({"last_server": f"https://admin:{secret}@api.example.com", "last_email": "a@b"}),
        encoding="utf-8",
    )
    settings = Settings.load(path)
    assert settings.last_server == ""
    assert settings.last_email == "a@b"
    assert "user name or password" in caplog.text
    settings.last_server = f"admin:{secret}@api.example.com/v1"
    settings.save()
    assert secret not in path.read_text(encoding="utf-8")
    assert secret not in caplog.text
    settings.last_server = "https://api.example.com/@team"
    settings.save()
    assert Settings.load(path).last_server == "https://api.example.com/@team"


def test_the_file_is_indented_utf8_json_with_unknown_keys_first(path):
    """Unknown keys as they were, then the version and each setting in the documented order,
    indented by two spaces, text as UTF-8 rather than escapes, and a final newline."""
    path.write_text(
        json.dumps({"version": 1, "last_email": "old@example.com", "zoom": 2}), encoding="utf-8"
    )
    settings = Settings.load(path)
    settings.last_email = "zoë@example.com"
    settings.save()
    expected = {"zoom": 2, **documented(last_email="zoë@example.com")}
    text = path.read_text(encoding="utf-8")
    assert text == json.dumps(expected, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize(("stored", "used"), [(8, 8), (7, 7), (9, 8)])
def test_at_most_eight_pages_are_fetched_at_once(path, stored, used):
    """The export concurrency is at most 8."""
    path.write_text(json.dumps({"export_concurrency": stored}), encoding="utf-8")
    assert Settings.load(path).export_concurrency == used


@pytest.mark.parametrize("text", ["AAAA!", "AA AA", "AAAA\n"])
def test_view_state_with_stray_characters_decodes_to_nothing(text):
    """Base64 with anything outside its alphabet is refused whole, not read around."""
    assert decode_view_state(text) == b""


def test_trimming_the_recent_spaces_is_not_worth_a_warning(path, caplog):
    """A recent-spaces list that needs cleaning is cleaned quietly."""
    path.write_text(json.dumps({"recent_spaces": [" a ", "a", ""]}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert Settings.load(path).recent_spaces == ["a"]
    assert not caplog.records


def test_settings_compare_by_their_values_only(path, tmp_path):
    """Neither the file nor the keys another version wrote make two settings differ."""
    path.write_text(json.dumps({"theme": "dark", "last_email": "a@b"}), encoding="utf-8")
    loaded = Settings.load(path)
    assert loaded == Settings(path=tmp_path / "elsewhere.json", last_email="a@b")


def test_repr_shows_the_values_but_not_the_file_or_unknown_keys(path):
    """The repr, as a log would show it, lists the remembered values only."""
    path.write_text(json.dumps({"theme": "dark", "last_email": "a@b"}), encoding="utf-8")
    text = repr(Settings.load(path))
    assert "last_email='a@b'" in text
    assert str(path) not in text
    assert "dark" not in text


def test_the_constructor_takes_the_remembered_values_and_the_path():
    """Exactly the stored values and `path` can be given when making settings."""
    assert list(inspect.signature(Settings).parameters) == [
        "last_server",
        "last_email",
        "last_space",
        "recent_spaces",
        "include_emails",
        "export_format",
        "csv_delimiter",
        "export_concurrency",
        "phone_list_qr_codes",
        "phone_list_pictures",
        "vcard_photos",
        "language",
        "window_geometry",
        "window_state",
        "header_state",
        "splitter_state",
        "details_visible",
        "keep_signed_in",
        "export_folder",
        "path",
    ]
