"""The app's folders: per user, named after the app, created when asked for."""

import os
import stat
import sys

import pytest

from cardviewer import APP_NAME
from cardviewer.paths import (
    cache_dir,
    config_dir,
    log_dir,
    private_folder,
    resource_path,
    resources_folder,
    store_dir,
)

FOLDERS = [config_dir, cache_dir, log_dir, store_dir]


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


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
@pytest.mark.parametrize("folder", FOLDERS)
def test_each_folder_and_its_missing_parents_are_private(folder, private_user_dirs, umask_022):
    """The session, the log and addresses that may be signed: this user's alone."""
    path = folder()
    assert mode(path) == 0o700
    for parent in path.parents:
        if parent == private_user_dirs:
            break
        assert mode(parent) == 0o700, parent


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
@pytest.mark.parametrize("folder", FOLDERS)
def test_the_apps_own_folders_found_open_are_tightened(folder, private_user_dirs, umask_022):
    path = folder()
    own = [p for p in (path, *path.parents) if p.is_relative_to(private_user_dirs)]
    shared = [p for p in own if APP_NAME not in p.relative_to(private_user_dirs).parts]
    for opened in own:
        opened.chmod(0o755)
    assert folder() == path
    for checked in own:
        assert mode(checked) == (0o755 if checked in shared else 0o700), checked


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_a_private_folder_keeps_an_existing_folders_mode_unless_tightened(tmp_path, umask_022):
    chosen = tmp_path / "chosen"
    chosen.mkdir(mode=0o755)
    assert private_folder(chosen / "a" / "b") == chosen / "a" / "b"
    assert [mode(chosen), mode(chosen / "a"), mode(chosen / "a" / "b")] == [0o755, 0o700, 0o700]
    private_folder(chosen, tighten=True)
    assert mode(chosen) == 0o700


def test_shipped_files_are_found_by_path():
    for name in ("cardviewer.svg", "avatar-placeholder.svg", "cardviewer_de.qm"):
        assert resource_path(name).is_file(), name
    assert resource_path("cardviewer.svg").parent == resources_folder()


def test_the_folder_of_the_local_copies_is_only_named_for_a_window(private_user_dirs):
    """The first sync makes it: one that cannot be made (a file of that name) fails
    that sync with its reason, not the window that would show the copies."""
    named = store_dir(create=False)
    assert not named.exists()
    named.parent.mkdir(parents=True)
    named.write_text("in the way", encoding="utf-8")
    assert store_dir(create=False) == named
    with pytest.raises(FileExistsError):
        store_dir()
