"""What the app and `cardviewer export` leave in a home: this user's alone.

Both run as a person would start them, in a fresh home with the usual umask 022: the
app as `main.py --demo --screenshot` (it signs in to its demo server, loads avatars and
saves settings), the export and a sync of a space's local copy with its file of changes
against the demo server. Every folder they create is 0700 and every file 0600, except
the exported files and the screenshot, which the person asked for and which follow the
umask.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_no_secrets_in_logs import child_env

ROOT = Path(__file__).resolve().parents[1]
UMASK = 0o022
pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")


def run_with_umask(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=home,
        env={**child_env(home), **env},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=lambda: os.umask(UMASK),
    )


def modes(home: Path) -> dict[str, int]:
    """Every file and folder under `home` (not `home` itself), with its permission bits."""
    return {
        str(path.relative_to(home)): stat.S_IMODE(path.lstat().st_mode)
        for path in sorted(home.rglob("*"))
    }


def run_app_and_export(home: Path, demo_server) -> tuple[Path, Path, Path]:
    """The app, `cardviewer export` and `cardviewer sync --changes` run in `home`; the
    files the person asked for: the screenshot, the export and the file of changes."""
    screenshot, exported, changes = home / "out.png", home / "cards.csv", home / "changes.csv"
    app = run_with_umask(home, str(ROOT / "main.py"), "--demo", "--screenshot", str(screenshot))
    assert app.returncode == 0, app.stderr
    account = ["--server", demo_server.base_url, "--email", demo_server.email]
    space = ["--space", demo_server.space_id]
    export = run_with_umask(
        home,
        *("-m", "cardviewer", "export", *account, *space, "--all", "-o", str(exported)),
        CARDVIEWER_PASSWORD=demo_server.password,
    )
    assert export.returncode == 0, export.stderr
    sync = run_with_umask(
        home,
        *("-m", "cardviewer", "sync", *account, *space, "--changes", str(changes)),
        CARDVIEWER_PASSWORD=demo_server.password,
    )
    assert sync.returncode == 0, sync.stderr
    return screenshot, exported, changes


def assert_private(home: Path, *asked_for: Path) -> dict[str, int]:
    found = modes(home)
    wrong = {}
    for name, mode in found.items():
        path = home / name
        private = 0o700 if path.is_dir() else 0o600
        expected = 0o666 & ~UMASK if path in asked_for else private
        if mode != expected:
            wrong[name] = f"{mode:o}, not {expected:o}"
    assert not wrong, wrong
    return found


def test_everything_the_app_and_the_export_create_is_private(tmp_path, demo_server):
    home = tmp_path / "home"
    home.mkdir()

    asked_for = run_app_and_export(home, demo_server)

    found = assert_private(home, *asked_for)
    names = set(found)
    copies = [name for name in names if name.endswith(".sqlite")]
    assert [Path(name).parent.parent for name in copies] == [
        Path(".local/share/CardViewer/spaces")
    ], sorted(names)
    for expected in (
        ".config/CardViewer",
        ".config/CardViewer/demo-settings.json",
        ".cache/CardViewer",
        ".cache/CardViewer/avatars",
        ".local/state/CardViewer/log/cardviewer.log",
        "out.png",
        "cards.csv",
        "changes.csv",
    ):
        assert expected in names, sorted(names)


def test_the_apps_own_folders_found_open_are_made_private(tmp_path, demo_server):
    home = tmp_path / "home"
    own = [
        home / ".config" / "CardViewer",
        home / ".cache" / "CardViewer",  # the avatars' own folder: test_avatar_disk_cache
        home / ".local" / "state" / "CardViewer" / "log",
    ]
    for folder in own:
        folder.mkdir(parents=True)
    for folder in (home, *home.rglob("*")):
        folder.chmod(0o755)
    settings = home / ".config" / "CardViewer" / "demo-settings.json"
    settings.write_text("{}", encoding="utf-8")
    settings.chmod(0o644)

    run_app_and_export(home, demo_server)

    found = modes(home)
    for folder in own:
        for mine in (folder, *(p for p in folder.parents if "CardViewer" in p.name)):
            assert found[str(mine.relative_to(home))] == 0o700, mine
    assert found[".config"] == 0o755, "a folder that is not the app's own is left alone"
    assert found[".config/CardViewer/demo-settings.json"] == 0o600
    assert found["out.png"] == found["cards.csv"] == 0o644
