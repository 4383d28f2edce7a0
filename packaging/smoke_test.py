"""Smoke test of the Linux bundle: build it in a temporary folder, check what is in it,
run the frozen app on the demo server, and install it for a throw-away user.

    python packaging/smoke_test.py [--keep] [--runs N] [--no-install]   # `make package-test`

Checks, each reported and all of them run even when one fails:

- the bundle is at most 120 MiB unpacked and 50 MiB as .tar.gz;
- the bundle holds no test code, test or lint tools, no Pillow, nor caches; only the Qt
  libraries, plugins and translations the app uses; the package's resources;
- Qt still sorts, upper-cases and names time zones with the bundle's trimmed ICU data;
- `--version` prints the version;
- `--demo --screenshot-login L --screenshot M` offscreen exits 0 after signing in and
  writing window-sized PNGs with real content, with nothing logged at ERROR;
- the frozen app creates the same files under the user's folders as `python main.py`;
- the frozen `cardviewer export` exports the demo server's space to CSV, to JSON
  lines on standard output and as a PDF phone list (drawn off screen with the bundle's
  Qt), says so in one line on stderr (nothing with `--quiet`),
  and ends with exit 3 for a wrong password and 4 for a server that is not there;
- the frozen `cardviewer sync` writes the demo space into the window's copy through
  the bundle's own writing process, and says so again with nothing changed;
- install.sh from the .tar.gz installs into a fresh home, the installed app starts,
  and `install.sh --uninstall` removes it again;
- the desktop entry (as shipped and as installed) passes `desktop-file-validate`, the
  metainfo `appstreamcli validate`.

Missing tools are installed first with apt-get when this runs as root or sudo asks no
password, unless `--no-install`: the validators (Debian packages desktop-file-utils and
appstream) and binutils, which the build slims the bundle with. Otherwise the
validators' checks are skipped, saying so, and without binutils the bundle is too big.

Prints the figures: build time, bundle and archive size, the time from start to exit
after the screenshot for the frozen app and for `python main.py`, and the time of the
frozen export.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
RUN_TIMEOUT = 120.0
"""Seconds one run of the app may take before it counts as hung."""

BUNDLE_LIMIT = 120 * 2**20
"""Bytes the unpacked Linux bundle may take on disk."""
ARCHIVE_LIMIT = 50 * 2**20
"""Bytes the Linux .tar.gz may have."""
FORBIDDEN_MODULES = frozenset(
    {"tests", "pytest", "_pytest", "pytestqt", "pytest_timeout", "hypothesis", "mypy", "mypyc",
     "ruff", "pip", "setuptools", "pkg_resources", "unittest", "tkinter", "PIL"}
)  # fmt: skip
"""Top-level modules (and packages) that must not be in the bundle's archive or folder."""
FORBIDDEN_FOLDERS = frozenset(
    {"__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", "tests",
     "pillow.libs"}
)  # fmt: skip
TOOLS = {
    "strip": "binutils",
    "as": "binutils",
    "ld": "binutils",
    "desktop-file-validate": "desktop-file-utils",
    "appstreamcli": "appstream",
}
"""What the build slims the bundle with and the validators this runs, and the Debian
package each comes in."""
QT_LIBRARIES = frozenset(
    {"Core", "Gui", "Widgets", "Svg", "PrintSupport", "DBus", "XcbQpa", "WaylandClient",
     "WlShellIntegration"}
)  # fmt: skip
"""The Qt libraries the Linux bundle may hold: the five the app imports, and what Qt's
platform plugins for X11 and Wayland need (DBus for the portal and input methods)."""
QT_PLUGIN_FOLDERS = frozenset(
    {"platforms", "platformthemes", "platforminputcontexts", "iconengines", "imageformats",
     "printsupport", "wayland-decoration-client", "wayland-shell-integration"}
)  # fmt: skip
LOG_PROBLEMS = ("Traceback", " ERROR ", " CRITICAL ", "Could not load the Qt platform plugin")


def load_build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "_cardviewer_build", ROOT / "packaging" / "build.py"
    )
    if spec is None or spec.loader is None:
        raise ImportError("packaging/build.py cannot be loaded")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


BUILD = load_build_module()


class Report:
    """Collects pass/fail lines and figures, so one run shows every problem."""

    def __init__(self) -> None:
        self.failures: list[str] = []
        self.figures: list[tuple[str, str]] = []

    def check(self, ok: bool, what: str, detail: str = "") -> bool:
        print(f"{'ok  ' if ok else 'FAIL'} {what}{f': {detail}' if detail and not ok else ''}")
        if not ok:
            self.failures.append(f"{what}: {detail}" if detail else what)
        return ok

    def figure(self, name: str, value: str) -> None:
        self.figures.append((name, value))


# What is in the bundle


def bundle_files(bundle: Path) -> Iterator[Path]:
    for path in bundle.rglob("*"):
        if path.is_file() or path.is_symlink():
            yield path.relative_to(bundle)


def archive_modules(executable: Path) -> list[str]:
    """The names of the modules frozen into the executable's archive (PYZ)."""
    from PyInstaller.archive.readers import pkg_archive_contents  # type: ignore[import-untyped]

    return list(pkg_archive_contents(str(executable)))


def check_contents(report: Report, bundle: Path, executable: Path) -> None:
    files = list(bundle_files(bundle))
    internal = bundle / "_internal"

    stray = sorted(
        str(path)
        for path in files
        if FORBIDDEN_FOLDERS.intersection(path.parts)
        or FORBIDDEN_MODULES.intersection(part.split("-")[0] for part in path.parts)
    )
    report.check(not stray, "no tests, test tools or caches among the files", ", ".join(stray[:10]))
    dangling = sorted(
        str(p) for p in files if (bundle / p).is_symlink() and not (bundle / p).exists()
    )
    report.check(not dangling, "no dangling symbolic links", ", ".join(dangling[:10]))

    modules = archive_modules(executable)
    frozen_stray = sorted(
        name
        for name in modules
        if name.split(".")[0] in FORBIDDEN_MODULES or name in FORBIDDEN_MODULES
    )
    report.check(
        not frozen_stray, "no tests or test tools in the archive", ", ".join(frozen_stray[:10])
    )
    needed = {
        "cardviewer.entry_point",
        "cardviewer.app",
        "cardviewer.resources",
        "cardviewer.cli",
        "cardviewer.demo.avatars",
    }
    report.check(
        needed <= set(modules),
        "the entry point, the app, its resources, the export and the demo server are frozen",
        f"missing {sorted(needed - set(modules))}",
    )  # fmt: skip

    qt_libraries = {
        path.name.removeprefix("libQt6").split(".")[0]
        for path in files
        if path.name.startswith("libQt6")
        and path.parts[:-1] == ("_internal", "PySide6", "Qt", "lib")
    }
    report.check(
        {"Core", "Gui", "Widgets", "Svg"} <= qt_libraries <= QT_LIBRARIES,
        "only the Qt libraries the app uses",
        f"found {sorted(qt_libraries)}",
    )
    plugins = internal / "PySide6" / "Qt" / "plugins"
    folders = {path.name for path in plugins.iterdir()} if plugins.is_dir() else set()
    report.check(
        folders <= QT_PLUGIN_FOLDERS and {"platforms", "iconengines", "imageformats"} <= folders,
        "only the Qt plugin folders the app uses",
        f"found {sorted(folders)}",
    )
    platforms = {p.name for p in (plugins / "platforms").glob("*.so")}
    report.check(
        {"libqxcb.so", "libqwayland.so", "libqoffscreen.so"} == platforms,
        "platform plugins: X11, Wayland and offscreen",
        f"found {sorted(platforms)}",
    )
    translations = sorted(p.name for p in (internal / "PySide6" / "Qt" / "translations").glob("*"))
    report.check(
        all(name.split("_", 1)[0] in {"qt", "qtbase"} for name in translations)
        and all(name.rsplit("_", 1)[-1] in {"de.qm", "en.qm"} for name in translations),
        "Qt translations only for the app's languages",
        f"found {translations}",
    )
    wanted = sorted(
        path.relative_to(ROOT / "resources")
        for path in (ROOT / "resources").rglob("*")
        if path.is_file()
        # Sources, not shipped: code, and the translation catalogues' .ts (the .qm ships).
        and path.suffix not in {".py", ".pyc", ".ts"}
        and "__pycache__" not in path.parts
    )
    missing = [str(p) for p in wanted if not (internal / "cardviewer" / "resources" / p).is_file()]
    report.check(
        not missing and bool(wanted),
        "every shipped file of resources/ is in cardviewer/resources",
        f"{missing}",
    )


# Running the app


def private_environment(home: Path) -> dict[str, str]:
    """A throw-away user: own home and XDG folders, no display, no settings of ours."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("XDG_", "QT_", "PYTHON"))
        and key not in {"DISPLAY", "WAYLAND_DISPLAY"}
    }
    env.update(HOME=str(home), QT_QPA_PLATFORM="offscreen", LC_ALL="C.UTF-8", LANG="C.UTF-8")
    home.mkdir(parents=True, exist_ok=True)
    return env


def user_files(home: Path) -> list[str]:
    """The files and folders under `home`; hashed names (cache keys) as "<hash>"."""
    names = {re.sub(r"[0-9a-f]{16,}", "<hash>", str(p.relative_to(home))) for p in home.rglob("*")}
    return sorted(names)


def screenshot_run(
    command: Sequence[str], home: Path, shots: Path
) -> tuple[float, subprocess.CompletedProcess[str]]:
    shots.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    result = subprocess.run(
        [*command, "--demo", "--screenshot-login", str(shots / "login.png"),
         "--screenshot", str(shots / "main.png")],
        env=private_environment(home),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )  # fmt: skip
    return time.monotonic() - started, result


def check_screenshot(report: Report, path: Path, what: str, least: tuple[int, int]) -> None:
    from PIL import Image

    if not report.check(path.is_file(), f"{what}: PNG written", str(path)):
        return
    with Image.open(path) as image:
        size = image.size
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    report.check(image.format == "PNG", f"{what}: is a PNG", str(image.format))
    report.check(
        size[0] >= least[0] and size[1] >= least[1], f"{what}: window-sized", f"{size[0]}x{size[1]}"
    )
    # Text, avatars and anti-aliasing give hundreds of colours; a blank grab gives a few.
    count = len(colours) if colours is not None else 1 << 20
    report.check(count >= 64, f"{what}: has content", f"{count} colours")


def check_runs(report: Report, executable: Path, scratch: Path, runs: int) -> None:
    version = subprocess.run(
        [str(executable), "--version"],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )
    meta = BUILD.app_metadata(ROOT)
    expected = f"{meta.name} {meta.version}"
    report.check(
        version.returncode == 0 and version.stdout.strip() == expected,
        f"--version prints {expected!r}",
        f"exit {version.returncode}, {version.stdout.strip()!r} {version.stderr.strip()[-300:]}",
    )

    commands: dict[str, list[str]] = {
        "frozen": [str(executable)],
        "python main.py": [sys.executable, str(ROOT / "main.py")],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    files: dict[str, list[str]] = {}
    for attempt in range(runs):
        for name, command in commands.items():
            home = scratch / f"home-{name.split()[0]}-{attempt}"
            shots = scratch / f"shots-{name.split()[0]}-{attempt}"
            try:
                seconds, result = screenshot_run(command, home, shots)
            except subprocess.TimeoutExpired:
                report.check(False, f"{name}: finishes", f"still running after {RUN_TIMEOUT:.0f} s")
                continue
            times[name].append(seconds)
            files.setdefault(name, user_files(home))
            if attempt == 0:
                log = result.stderr
                report.check(
                    result.returncode == 0, f"{name}: exits 0", f"{result.returncode}: {log[-800:]}"
                )
                problems = [
                    line for line in log.splitlines() if any(p in line for p in LOG_PROBLEMS)
                ]
                report.check(not problems, f"{name}: logs no errors", "\n".join(problems[:5]))
                report.check(
                    "signed in to" in log, f"{name}: signs in to the demo server", log[-400:]
                )
                report.check(
                    "saved a screenshot of MainWindow" in log,
                    f"{name}: shows the cards",
                    log[-400:],
                )
                check_screenshot(report, shots / "login.png", f"{name}: sign-in dialog", (300, 200))
                check_screenshot(report, shots / "main.png", f"{name}: main window", (640, 400))
    if len(files) == len(commands):
        frozen, source = files["frozen"], files["python main.py"]
        report.check(
            frozen == source and bool(frozen),
            "the frozen app uses the same user folders and files as python main.py",
            f"frozen {frozen}, source {source}",
        )
    for name, values in times.items():
        if values:
            report.figure(
                f"start to screenshot, {name}",
                f"median {statistics.median(values):.2f} s, min {min(values):.2f} s "
                f"({len(values)} runs)",
            )


ICU_CHECK = """
import sys
from functools import cmp_to_key
from PySide6.QtCore import QByteArray, QCollator, QLocale, QTimeZone

names = ["Zebra", "Öl", "apfel", "Äpfel", "Item 10", "Item 2", "Ångström"]
def collated(locale):
    collator = QCollator(QLocale(locale))
    collator.setNumericMode(True)
    return sorted(names, key=cmp_to_key(collator.compare))
berlin = QTimeZone(QByteArray(b"Europe/Berlin"))
long = QTimeZone.NameType.LongName
standard = QTimeZone.TimeType.StandardTime
print(collated("de_DE"))
print(collated("sv_SE"))
print(QLocale("tr_TR").toUpper("istanbul"))
print(berlin.displayName(standard, long, QLocale("de_DE")))
print(berlin.displayName(standard, long, QLocale("ja_JP")))
maps = open("/proc/self/maps").read().splitlines()
print("|".join(sorted({line.split()[-1] for line in maps if "libicudata" in line})))
"""
"""Sorting for German and Swedish, Turkish upper case and time zone names: the ICU
services Qt uses, with the ICU libraries found first on LD_LIBRARY_PATH."""


def check_icu(report: Report, bundle: Path) -> None:
    """The packaging environment's Qt, the same build as the bundle's, with its ICU."""
    qt_lib = bundle / "_internal" / "PySide6" / "Qt" / "lib"
    result = subprocess.run(
        [sys.executable, "-c", ICU_CHECK],
        env={**os.environ, "LD_LIBRARY_PATH": str(qt_lib), "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )
    lines = result.stdout.splitlines()
    expected = [
        "['Ångström', 'apfel', 'Äpfel', 'Item 2', 'Item 10', 'Öl', 'Zebra']",
        "['apfel', 'Item 2', 'Item 10', 'Zebra', 'Ångström', 'Äpfel', 'Öl']",
        "İSTANBUL",
        "Mitteleuropäische Normalzeit",
        "中央ヨーロッパ標準時",
    ]
    report.check(
        result.returncode == 0 and lines[:5] == expected,
        "Qt sorts, upper-cases and names time zones with the bundle's ICU data",
        f"{lines} {result.stderr[-500:]}",
    )
    loaded = [Path(path).resolve() for path in lines[5:6] for path in path.split("|")]
    report.check(
        len(loaded) == 1 and loaded[0].parent == qt_lib.resolve(),
        "that check used the bundle's ICU data",
        str(loaded),
    )


# The export without a window


def free_port() -> int:
    """A port nothing listens on (bound, then freed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def check_export(report: Report, executable: Path, scratch: Path) -> None:
    """`cardviewer export` of the frozen app against the demo server, as a job runs it."""
    from cardviewer.demo import DemoConfig, DemoServer

    home = scratch / "home-export"
    with DemoServer(DemoConfig()) as server:
        count = len(server.spaces[server.space_id].cards)
        account = ["--server", server.base_url, "--email", server.email]
        env = {**private_environment(home), "CARDVIEWER_PASSWORD": server.password}

        def export(
            *arguments: str, password: str | None = None
        ) -> subprocess.CompletedProcess[str]:
            run_env = dict(env) if password is None else {**env, "CARDVIEWER_PASSWORD": password}
            return subprocess.run(
                [str(executable), "export", *arguments],
                env=run_env, capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False,
            )  # fmt: skip

        target = scratch / "export" / "cards.csv"
        target.parent.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        result = export(*account, "--space", server.space_id, "--all", "--with-emails",
                        "-o", str(target))  # fmt: skip
        report.figure(
            "frozen export of the demo space (CSV)", f"{time.monotonic() - started:.2f} s"
        )
        report.check(
            result.returncode == 0,
            "export: exits 0",
            f"{result.returncode}: {result.stderr[-500:]}",
        )
        rows = (
            list(csv.reader(target.open(encoding="utf-8-sig", newline="")))
            if target.is_file()
            else []
        )
        report.check(
            len(rows) == count + 1 and rows[0][:1] == ["ID"],
            f"export: the CSV has the header and {count} cards",
            f"{len(rows)} rows, header {rows[:1]}",
        )
        last = result.stderr.strip().splitlines()[-1:] or [""]
        report.check(
            bool(
                re.fullmatch(
                    rf"Exported {count} cards of space {server.space_id} to .*cards\.csv"
                    r" in [0-9.]+ s",
                    last[0],
                )
            ),
            "export: says what it exported in one line on stderr",
            repr(last[0]),
        )

        result = export(*account, "--space", server.space_id, "--all", "--format", "jsonl",
                        "--quiet", "-o", "-")  # fmt: skip
        lines = result.stdout.splitlines()
        try:
            uuids = {json.loads(line)["uuid"] for line in lines}
        except (ValueError, KeyError, TypeError):
            uuids = set()
        report.check(
            result.returncode == 0 and len(uuids) == count == len(lines),
            f"export: --format jsonl -o - writes the {count} cards to standard output",
            f"exit {result.returncode}, {len(lines)} lines, {result.stderr[-300:]}",
        )
        report.check(
            result.stderr == "", "export: --quiet says nothing on stderr", result.stderr[-300:]
        )

        phones = target.with_name("phones.pdf")
        result = export(*account, "--space", server.space_id, "--all", "--with-emails",
                        "--quiet", "-o", str(phones))  # fmt: skip
        report.check(
            result.returncode == 0 and phones.is_file() and phones.read_bytes()[:5] == b"%PDF-",
            "export: --format pdf draws the phone list with the bundle's Qt, off screen",
            f"exit {result.returncode}: {result.stderr[-300:]}",
        )

        result = export(*account, "--space", server.space_id, "-o", str(target.with_name("x.csv")),
                        password="not the password")  # fmt: skip
        report.check(
            result.returncode == 3
            and "not correct" in result.stderr
            and "not the password" not in result.stderr,
            "export: a wrong password ends with exit 3 and says so",
            f"{result.returncode}: {result.stderr[-300:]}",
        )
    result = export("--server", f"http://127.0.0.1:{free_port()}", "--email", "a@example.com",
                    "--space", "x", "-o", str(target.with_name("y.csv")))  # fmt: skip
    report.check(
        result.returncode == 4,
        "export: a server that is not there ends with exit 4",
        f"{result.returncode}: {result.stderr[-300:]}",
    )


def check_sync(report: Report, executable: Path, scratch: Path) -> None:
    """`cardviewer sync` of the frozen app: its copy is written by a process started as
    the bundle's own program (`--multiprocessing-fork`), as the window's sync is."""
    import sqlite3

    from cardviewer.demo import DemoConfig, DemoServer

    home = scratch / "home-sync"
    with DemoServer(DemoConfig()) as server:
        count = len(server.spaces[server.space_id].cards)
        env = {**private_environment(home), "CARDVIEWER_PASSWORD": server.password}
        command = [str(executable), "sync", "--server", server.base_url,
                   "--email", server.email, "--space", server.space_id]  # fmt: skip
        started = time.monotonic()
        results = [
            subprocess.run(
                command, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False
            )
            for _ in range(2)
        ]
        report.figure("frozen sync of the demo space", f"{time.monotonic() - started:.2f} s, twice")
    copies = list(home.rglob(f"{server.space_id}.sqlite"))
    cards = None
    if len(copies) == 1:
        with sqlite3.connect(copies[0]) as db:
            cards = db.execute("SELECT card_count FROM generations ORDER BY id DESC").fetchone()
    report.check(
        [result.returncode for result in results] == [0, 0] and cards == (count,),
        f"sync: writes the {count} cards into the window's copy, twice",
        " | ".join(f"{r.returncode}: {r.stderr[-300:]}" for r in results) + f", {copies}",
    )
    report.check(
        "nothing changed since the last sync." in results[-1].stderr,
        "sync: a second sync says nothing changed",
        repr(results[-1].stderr[-300:]),
    )


# Installing for a user


def check_install(report: Report, archive: Path, scratch: Path) -> None:
    unpacked = scratch / "unpacked"
    with tarfile.open(archive) as tar:
        tar.extractall(unpacked, filter="data")
    (top,) = unpacked.iterdir()
    home = scratch / "install-home"
    env = private_environment(home)
    install = subprocess.run(
        ["sh", str(top / "install.sh")], env=env, capture_output=True, text=True, check=False
    )
    if not report.check(install.returncode == 0, "install.sh installs", install.stderr[-500:]):
        return
    local = home / ".local"
    desktop = local / "share" / "applications" / "cardviewer.desktop"
    expected = [
        local / "lib" / "cardviewer" / "cardviewer",
        local / "bin" / "cardviewer",
        desktop,
        local / "share" / "metainfo" / "io.github.cardviewer.CardViewer.metainfo.xml",
        local / "share" / "icons" / "hicolor" / "48x48" / "apps" / "cardviewer.png",
        local / "share" / "icons" / "hicolor" / "scalable" / "apps" / "cardviewer.svg",
    ]
    missing = [str(path.relative_to(home)) for path in expected if not path.exists()]
    report.check(
        not missing,
        "install.sh puts app, link, menu entry, icons and metainfo in place",
        f"missing {missing}",
    )
    if desktop.is_file():
        exec_line = next(
            (line for line in desktop.read_text("utf-8").splitlines() if line.startswith("Exec=")),
            "",
        )
        report.check(
            exec_line == f'Exec="{local / "lib" / "cardviewer" / "cardviewer"}"',
            "the installed menu entry starts the installed app by its full path",
            exec_line,
        )
        validate(
            report, ["desktop-file-validate", str(desktop)], "the installed menu entry is valid"
        )
    started = subprocess.run(
        [str(local / "bin" / "cardviewer"), "--version"],
        env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False,
    )  # fmt: skip
    report.check(
        started.returncode == 0 and BUILD.app_metadata(ROOT).version in started.stdout,
        "the installed app starts from ~/.local/bin",
        started.stderr[-300:],
    )
    again = subprocess.run(
        ["sh", str(top / "install.sh")], env=env, capture_output=True, text=True, check=False
    )
    report.check(
        again.returncode == 0, "install.sh updates an existing install", again.stderr[-300:]
    )
    removed = subprocess.run(
        ["sh", str(top / "install.sh"), "--uninstall"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    # The desktop's own caches (update-desktop-database, gtk-update-icon-cache) stay.
    caches = {"mimeinfo.cache", "icon-theme.cache"}
    left = [
        str(p.relative_to(home))
        for p in home.rglob("*")
        if (p.is_file() or p.is_symlink()) and p.name not in caches
    ]
    report.check(
        removed.returncode == 0 and not left,
        "install.sh --uninstall removes every file",
        f"left {left}",
    )


def validate(report: Report, command: list[str], what: str) -> None:
    if shutil.which(command[0]) is None:
        package = TOOLS[command[0]]
        print(
            f"skip {what}: {command[0]} is not installed "
            f"(Debian package {package}: sudo apt-get install {package})"
        )
        return
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    output = (result.stdout + result.stderr).strip()
    report.check(result.returncode == 0, what, output[-800:])
    if result.returncode == 0 and output:
        print("\n".join(f"     {line}" for line in output.splitlines()))


def install_tools(allowed: bool) -> None:
    """apt-get install the tools in `TOOLS` that are missing, when that needs no password."""
    missing = sorted({package for tool, package in TOOLS.items() if not shutil.which(tool)})
    if not missing:
        return
    names = " ".join(missing)
    skipped = "the checks that need them are skipped; without binutils the bundle is not slimmed"
    if not allowed:
        print(f"note: not installing {names} (--no-install): {skipped}")
        return
    if shutil.which("apt-get") is None:
        print(f"note: {names} missing and no apt-get to install them: {skipped}")
        return
    if os.geteuid() == 0:
        sudo: list[str] = []
    elif (
        shutil.which("sudo")
        and subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0
    ):
        sudo = ["sudo", "-n"]
    else:
        print(
            f"note: {names} missing; installing them needs root (sudo apt-get install {names}):"
            f" {skipped}"
        )
        return
    print(f"installing {names} ...", flush=True)

    def apt_get(*arguments: str) -> bool:
        return (
            subprocess.run(
                [*sudo, "apt-get", *arguments],
                stdout=subprocess.DEVNULL,
                env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
                check=False,
            ).returncode
            == 0
        )

    install = ["install", "-y", "-qq", "--no-install-recommends", *missing]
    if not apt_get(*install) and not (apt_get("update", "-qq") and apt_get(*install)):
        print(f"note: apt-get could not install {names}: {skipped}")


# The whole test


def du(path: Path) -> int:
    """Bytes on disk, each file once (symbolic links are not followed), as `du` counts."""
    return sum(p.lstat().st_blocks * 512 for p in path.rglob("*")) + path.lstat().st_blocks * 512


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--runs", type=int, default=3, help="screenshot runs of each (default 3)")
    parser.add_argument(
        "--no-install", action="store_true", help="never install missing validators with apt-get"
    )
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        print("The smoke test runs on Linux; see packaging/README.md for the other platforms.")
        return 2
    build = BUILD
    report = Report()
    install_tools(not args.no_install)
    scratch = Path(tempfile.mkdtemp(prefix="cardviewer-package-test-"))
    try:
        print(f"building in {scratch} ...", flush=True)
        started = time.monotonic()
        bundle, archive = build.build(scratch / "dist", scratch / "build")
        report.figure("build time", f"{time.monotonic() - started:.0f} s")
        size, packed = du(bundle), archive.stat().st_size
        report.figure("bundle size (du)", f"{size / 2**20:.1f} MiB")
        report.figure("archive size (.tar.gz)", f"{packed / 2**20:.1f} MiB")
        report.check(
            size <= BUNDLE_LIMIT, "the bundle takes at most 120 MiB", f"{size / 2**20:.1f} MiB"
        )
        report.check(
            packed <= ARCHIVE_LIMIT, "the .tar.gz has at most 50 MiB", f"{packed / 2**20:.1f} MiB"
        )
        executable = bundle / build.APP_ID
        check_contents(report, bundle, executable)
        check_icu(report, bundle)
        check_runs(report, executable, scratch, args.runs)
        check_export(report, executable, scratch)
        check_sync(report, executable, scratch)
        check_install(report, archive, scratch)
        validate(
            report,
            ["desktop-file-validate", str(build.LINUX / f"{build.APP_ID}.desktop")],
            "the desktop entry is valid",
        )
        validate(
            report,
            [
                "appstreamcli",
                "validate",
                "--no-net",
                str(build.LINUX / f"{build.METAINFO_ID}.metainfo.xml"),
            ],
            "the AppStream metainfo is valid",
        )
    finally:
        if args.keep:
            print(f"kept {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print()
    for name, value in report.figures:
        print(f"{name + ':':40} {value}")
    print()
    if report.failures:
        print(f"{len(report.failures)} check(s) failed:")
        for failure in report.failures:
            print(f"  - {failure}")
        return 1
    print("All checks passed.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
