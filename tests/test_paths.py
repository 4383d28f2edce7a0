"""The app's folders: per user, named after the app, created when asked for."""

import os
import sys

import pytest

from cardviewer import APP_NAME
from cardviewer.paths import cache_dir, config_dir, log_dir, resource_path, resources_folder

FOLDERS = [config_dir, cache_dir, log_dir]


@pytest.mark.parametrize("folder", FOLDERS)
def test_folders_are_created_inside_the_users_home(folder, private_user_dirs):
    path = folder()
    assert path.is_dir()
    assert path.is_relative_to(private_user_dirs)
    assert APP_NAME in path.parts


@pytest.mark.parametrize("folder", FOLDERS)
def test_asking_twice_gives_the_same_existing_folder(folder):
    first = folder()
    (first / "keep.txt").write_text("kept", encoding="utf-8")
    assert folder() == first
    assert (first / "keep.txt").read_text(encoding="utf-8") == "kept"


def test_the_three_folders_are_distinct():
    assert len({config_dir(), cache_dir(), log_dir()}) == 3


@pytest.mark.skipif(sys.platform != "linux", reason="XDG variables apply on Linux")
def test_folders_follow_the_xdg_variables_of_the_moment(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "conf"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert config_dir() == tmp_path / "conf" / APP_NAME
    assert cache_dir() == tmp_path / "cache" / APP_NAME


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_the_config_folder_is_private_because_it_holds_the_session():
    assert config_dir().stat().st_mode & 0o077 == 0


def test_shipped_files_are_found_by_path():
    for name in ("cardviewer.svg", "avatar-placeholder.svg", "cardviewer_de.qm"):
        assert resource_path(name).is_file(), name
    assert resource_path("cardviewer.svg").parent == resources_folder()
