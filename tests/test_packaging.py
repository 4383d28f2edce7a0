"""The desktop entry names the program, icon and id the app really has; the files that
build the bundle agree with the package they bundle."""

from __future__ import annotations

import ast
import configparser
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from xml.etree import ElementTree

import PySide6
import pytest

from cardviewer import APP_ID, APP_NAME, __version__
from cardviewer.app import parse_args

ROOT = Path(__file__).resolve().parent.parent


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(ROOT / "packaging" / "linux" / f"{APP_ID}.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def test_desktop_entry_starts_the_gui_script():
    entry = desktop_entry()
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert entry["Exec"].split()[0] in scripts["gui-scripts"]
    assert entry["Type"] == "Application"
    assert entry["Terminal"] == "false"
    assert entry["Name"] == APP_NAME


def test_desktop_entry_icon_and_categories():
    entry = desktop_entry()
    assert (ROOT / "resources" / f"{entry['Icon']}.svg").is_file()
    assert entry["Categories"].split(";")[:2] == ["Office", "ContactManagement"]
    assert entry["Categories"].endswith(";")
    assert entry["Comment"]
    assert entry["GenericName"]


# The bundle's build files (packaging/); the bundle itself is tested by `make package-test`.

PACKAGING = ROOT / "packaging"
METAINFO_ID = "io.github.cardviewer.CardViewer"


def load_packaging_script(name: str) -> ModuleType:
    """A script of packaging/, which is not a package (its name is taken on PyPI)."""
    spec = importlib.util.spec_from_file_location(f"_packaging_{name}", PACKAGING / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_desktop_entry_arguments_are_accepted_by_the_app():
    # A field code such as %U would hand the app a file or URL it has no argument for,
    # and argparse would refuse to start.
    entry = desktop_entry()
    sample = {"%f": "/tmp/a.vcf", "%F": "/tmp/a.vcf", "%u": "file:///a", "%U": "file:///a"}
    arguments = [sample.get(word, word) for word in shlex.split(entry["Exec"])[1:]]
    parse_args(arguments)  # raises SystemExit on an argument the app does not take
    assert entry["TryExec"] == entry["Exec"].split()[0]


def metainfo() -> ElementTree.Element:
    path = PACKAGING / "linux" / f"{METAINFO_ID}.metainfo.xml"
    return ElementTree.parse(path).getroot()


def test_metainfo_describes_the_desktop_entry_it_belongs_to():
    root = metainfo()
    assert root.tag == "component"
    assert root.get("type") == "desktop-application"
    assert root.findtext("id") == METAINFO_ID
    assert root.findtext("name") == APP_NAME
    launchable = root.find("launchable")
    assert launchable is not None
    assert launchable.get("type") == "desktop-id"
    assert launchable.text == f"{APP_ID}.desktop"
    assert (PACKAGING / "linux" / launchable.text).is_file()
    assert root.findtext("provides/binary") == desktop_entry()["Exec"].split()[0]


def test_metainfo_agrees_with_the_project_and_the_desktop_entry():
    root = metainfo()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert root.findtext("project_license") == project["license"]
    assert root.findtext("metadata_license") == "CC0-1.0"
    categories = [element.text for element in root.iterfind("categories/category")]
    assert categories == [c for c in desktop_entry()["Categories"].split(";") if c]
    assert root.findtext("summary")
    assert root.find("description/p") is not None


def test_build_reads_name_and_version_from_the_package():
    build = load_packaging_script("build")
    meta = build.app_metadata(ROOT)
    assert (meta.name, meta.version) == (APP_NAME, __version__)
    assert meta.bundle_id == METAINFO_ID
    assert meta.description


@pytest.mark.parametrize(
    ("version", "numbers"),
    [
        ("0.1.0", (0, 1, 0, 0)),
        ("1.2", (1, 2, 0, 0)),
        ("2.0.1rc3", (2, 0, 1, 0)),
        ("3.4.5+local.7", (3, 4, 5, 0)),
    ],
)
def test_windows_version_numbers_come_from_the_version(version, numbers):
    build = load_packaging_script("build")
    assert build.AppMetadata(APP_NAME, version, "").version_tuple == numbers


def test_package_data_is_what_the_resources_package_reads(tmp_path):
    # The bundle gets every non-code file of the installed package, beside its
    # modules, where cardviewer.paths.resource_path() looks for it.
    build = load_packaging_script("build")
    site = tmp_path / "site"
    (site / "cardviewer" / "resources" / "__pycache__").mkdir(parents=True)
    (site / "cardviewer" / "resources" / "__init__.py").write_text("")
    (site / "cardviewer" / "resources" / "__pycache__" / "x.pyc").write_bytes(b"")
    (site / "cardviewer" / "resources" / "cardviewer.svg").write_text("<svg/>")
    (site / "cardviewer" / "py.typed").write_text("")
    data = build.package_data(site)
    assert data == [
        (str(site / "cardviewer" / "resources" / "cardviewer.svg"), "cardviewer/resources")
    ]


def test_the_frozen_entry_point_starts_the_gui_script():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    module, function = scripts["gui-scripts"][APP_ID].split(":")
    tree = ast.parse((PACKAGING / "launch.py").read_text("utf-8"))
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert [(node.module, [alias.name for alias in node.names]) for node in imports] == [
        (module, [function])
    ]
    spec = (PACKAGING / "cardviewer.spec").read_text("utf-8")
    assert '"launch.py"' in spec


def test_packaging_tools_are_pinned():
    lines = (PACKAGING / "requirements.txt").read_text("utf-8").splitlines()
    requirements = [
        line.split(";")[0].strip() for line in lines if line and not line.startswith("#")
    ]
    assert requirements
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][0-9A-Za-z.]*", line) for line in requirements)


def test_install_script_is_valid_shell():
    result = subprocess.run(
        ["sh", "-n", str(PACKAGING / "linux" / "install.sh")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_icons_are_rendered_for_every_platform(qapp, tmp_path):
    from PIL import Image

    make_icons = load_packaging_script("make_icons")
    written = make_icons.make_icons(tmp_path)
    assert all(path.is_file() for path in written)
    for size in (16, 22, 24, 32, 48, 64, 128, 256, 512):
        with Image.open(tmp_path / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png") as png:
            assert png.size == (size, size)
            assert png.mode == "RGBA"
            # Transparent corner, opaque middle: the tile is drawn, not a blank square.
            corner, middle = png.getpixel((0, 0)), png.getpixel((size // 2, size // 2))
            assert isinstance(corner, tuple)
            assert isinstance(middle, tuple)
            assert (corner[3], middle[3]) == (0, 255)
    assert (tmp_path / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    with Image.open(tmp_path / f"{APP_ID}.ico") as ico:
        assert {(16, 16), (32, 32), (48, 48), (256, 256)} <= set(ico.info["sizes"])
    with Image.open(tmp_path / f"{APP_ID}.icns") as icns:
        assert {(16, 16, 2), (128, 128, 1), (512, 512, 1), (512, 512, 2)} <= set(icns.info["sizes"])


# What the spec and build.py leave out of the bundle, and the console program on Windows


def test_windows_gets_a_console_program_beside_the_windowed_one():
    build = load_packaging_script("build")
    assert f"{APP_ID}-cli" == build.CLI_NAME
    spec = (PACKAGING / "cardviewer.spec").read_text("utf-8")
    console = spec[spec.index('if sys.platform == "win32":\n    consoles.append(') :]
    console = console[: console.index("\ncoll = COLLECT(")]
    # The same analysis, so the same entry point (launch.py) and the same main().
    assert "pyz,\n            a.scripts," in console
    assert "name=build.CLI_NAME" in console
    assert "console=True" in console
    assert "windows_version_info(meta, console=True)" in console
    assert "*consoles," in spec[spec.index("coll = COLLECT(") :]


def test_pillow_stays_out_of_the_bundle():
    spec = (PACKAGING / "cardviewer.spec").read_text("utf-8")
    assert '"PIL",' in spec
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert not [
        need for need in project["optional-dependencies"]["demo"] if need.lower().startswith("pil")
    ]


def fake_pyinstaller(monkeypatch, links: dict[str, list[str]]) -> None:
    """PyInstaller's `bindepend.get_imports`, answering from `links` (file → linked names)."""
    bindepend = ModuleType("PyInstaller.depend.bindepend")
    bindepend.get_imports = lambda path: [(name, f"/lib/{name}") for name in links[path]]  # type: ignore[attr-defined]
    depend = ModuleType("PyInstaller.depend")
    depend.bindepend = bindepend  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "PyInstaller", ModuleType("PyInstaller"))
    monkeypatch.setitem(sys.modules, "PyInstaller.depend", depend)
    monkeypatch.setitem(sys.modules, "PyInstaller.depend.bindepend", bindepend)


def test_libraries_nothing_kept_links_to_are_left_out(monkeypatch):
    build = load_packaging_script("build")
    fake_pyinstaller(
        monkeypatch,
        {
            "src/QtGui.abi3.so": ["libQt6Gui.so.6"],
            "src/libQt6Gui.so.6": ["libQt6Core.so.6", "libfontconfig.so.1"],
            "src/libQt6Core.so.6": [],
            "src/libfontconfig.so.1": [],
            "src/libqxcb.so": ["libQt6XcbQpa.so.6"],
            "src/libQt6XcbQpa.so.6": ["libQt6Gui.so.6"],
            "src/libpython3.11.so.1.0": ["libz.so.1"],
            "src/libz.so.1": [],
            # Needed by the GTK theme only, which the spec left out.
            "src/libgtk-3.so.0": ["libcairo.so.2"],
            "src/libcairo.so.2": [],
            "src/libQt6Network.so.6": ["libQt6Core.so.6"],
        },
    )
    binaries = [
        ("PySide6/QtGui.abi3.so", "src/QtGui.abi3.so", "EXTENSION"),
        ("PySide6/Qt/lib/libQt6Gui.so.6", "src/libQt6Gui.so.6", "BINARY"),
        ("PySide6/Qt/lib/libQt6Core.so.6", "src/libQt6Core.so.6", "BINARY"),
        ("libfontconfig.so.1", "src/libfontconfig.so.1", "BINARY"),
        ("PySide6/Qt/plugins/platforms/libqxcb.so", "src/libqxcb.so", "BINARY"),
        ("PySide6/Qt/lib/libQt6XcbQpa.so.6", "src/libQt6XcbQpa.so.6", "BINARY"),
        ("libpython3.11.so.1.0", "src/libpython3.11.so.1.0", "BINARY"),
        ("libz.so.1", "src/libz.so.1", "BINARY"),
        ("libgtk-3.so.0", "src/libgtk-3.so.0", "BINARY"),
        ("libcairo.so.2", "src/libcairo.so.2", "BINARY"),
        ("PySide6/Qt/lib/libQt6Network.so.6", "src/libQt6Network.so.6", "BINARY"),
        ("libQt6Network.so.6", "PySide6/Qt/lib/libQt6Network.so.6", "SYMLINK"),
    ]
    assert build.unreferenced_libraries(binaries) == {
        "libgtk-3.so.0",
        "libcairo.so.2",
        "PySide6/Qt/lib/libQt6Network.so.6",
    }


def icu_package(items: dict[str, bytes], header_size: int = 32) -> bytes:
    """ICU common data as ICU's tools write it: header, table of contents, names, items."""
    header = bytearray(header_size)
    header[0:2] = header_size.to_bytes(2, "little")
    header[2:4] = b"\xda\x27"
    header[12:16] = b"CmnD"
    names = sorted(items)
    table_size = 4 + 8 * len(names)
    name_offsets, at = [], table_size
    for name in names:
        name_offsets.append(at)
        at += len(name) + 1
    at = (at + header_size + 15) // 16 * 16 - header_size
    table = bytearray(len(names).to_bytes(4, "little"))
    body = bytearray()
    for name, offset in zip(names, name_offsets, strict=True):
        table += offset.to_bytes(4, "little") + (at + len(body)).to_bytes(4, "little")
        body += items[name] + bytes(-len(items[name]) % 16)
    for name in names:
        table += name.encode() + b"\0"
    table += bytes(at - len(table))
    return bytes(header) + bytes(table) + bytes(body)


def icu_items(package: bytes) -> dict[str, bytes]:
    """Name → item of ICU common data, each item without its padding."""
    header_size = int.from_bytes(package[0:2], "little")
    table = package[header_size:]
    count = int.from_bytes(table[0:4], "little")
    entries = [
        (int.from_bytes(table[4 + 8 * i : 8 + 8 * i], "little"),
         int.from_bytes(table[8 + 8 * i : 12 + 8 * i], "little"))
        for i in range(count)
    ]  # fmt: skip
    ends = [data for _name, data in entries[1:]] + [len(table)]
    items = {}
    for (name_at, data_at), end in zip(entries, ends, strict=True):
        assert (header_size + data_at) % 16 == 0
        name = table[name_at : table.index(b"\0", name_at)].decode()
        items[name] = table[data_at:end].rstrip(b"\0")
    assert list(items) == sorted(items)  # ICU finds an item by binary search
    return items


def test_icu_data_keeps_the_items_asked_for_byte_for_byte():
    build = load_packaging_script("build")
    items = {
        "icudt73l/coll/de.res": b"collation\x01" * 7,
        "icudt73l/brkitr/cjdict.dict": b"dictionary" * 50,
        "icudt73l/zone/de.res": b"zones\x02",
        "icudt73l/ibm-943_P15A-2003.cnv": b"shift-jis" * 20,
        "icudt73l/zoneinfo64.res": b"tz\x03",
    }
    package = icu_package(items)
    assert icu_items(package) == items
    trimmed = build.trim_icu_package(
        package, lambda name: "brkitr" not in name and ".cnv" not in name
    )
    assert trimmed[:32] == package[:32]
    assert icu_items(trimmed) == {
        name: item for name, item in items.items() if "brkitr" not in name and ".cnv" not in name
    }
    assert len(trimmed) < len(package)


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("icudt73l/coll/de.res", True),  # QCollator
        ("icudt73l/coll/ucadata.icu", True),
        ("icudt73l/zone/de.res", True),  # QTimeZone's names
        ("icudt73l/zoneinfo64.res", True),
        ("icudt73l/metaZones.res", True),
        ("icudt73l/supplementalData.res", True),
        ("icudt73l/de.res", True),
        ("icudt73l/cnvalias.icu", True),
        ("icudt73l/nfkc.nrm", True),
        ("icudt73l/brkitr/cjdict.dict", False),
        ("icudt73l/curr/de.res", False),
        ("icudt73l/lang/de.res", False),
        ("icudt73l/region/de.res", False),
        ("icudt73l/unit/de.res", False),
        ("icudt73l/translit/root.res", False),
        ("icudt73l/rbnf/de.res", False),
        ("icudt73l/ibm-943_P15A-2003.cnv", False),
        ("icudt73l/rfc3491.spp", False),
        ("icudt73l/confusables.cfu", False),
        ("icudt73l/unames.icu", False),
    ],
)
def test_icu_data_qt_reads_is_kept(name, kept):
    build = load_packaging_script("build")
    assert (build.ICU_UNUSED.fullmatch(name) is None) == kept


def test_the_icu_data_of_the_qt_in_use_can_be_trimmed():
    libraries = sorted((Path(PySide6.__file__).parent / "Qt" / "lib").glob("libicudata.so.*"))
    if not libraries:
        pytest.skip("this Qt has no ICU data library (Windows and macOS)")
    build = load_packaging_script("build")
    symbol, package = build.icu_common_data(libraries[0].read_bytes())
    assert re.fullmatch(r"icudt\d+_dat", symbol)
    trimmed = build.trim_icu_package(package, lambda name: not build.ICU_UNUSED.fullmatch(name))
    items = icu_items(trimmed)
    prefix = symbol.removesuffix("_dat") + "l/"
    assert {f"{prefix}coll/de.res", f"{prefix}coll/sv.res", f"{prefix}zone/de.res"} <= set(items)
    assert not [name for name in items if "/brkitr/" in name or name.endswith(".cnv")]
    assert len(trimmed) < len(package) / 2


# The scheduled exports in the README's part for IT


def readme_blocks(language: str) -> list[str]:
    text = (ROOT / "README.md").read_text("utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text[text.index("## For IT") :], re.DOTALL)


def readme_units() -> dict[str, str]:
    units = {}
    for block in readme_blocks("ini"):
        first = block.partition("\n")[0]
        if first.startswith("# ~/.config/systemd/user/"):
            units[first.rpartition("/")[2]] = block
    return units


def unit_file(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(text.replace("\\\n", "\n"))
    return parser


def export_arguments(command: str, program: str) -> list[str]:
    """The arguments after `PROGRAM export` in a command line of a script or unit."""
    words = shlex.split(command.replace("^\n", " ").replace("\\\n", " "), posix=True)
    start = next(i for i, word in enumerate(words) if word.endswith(program)) + 1
    assert words[start] == "export"
    return words[start + 1 :]


def test_the_systemd_units_for_a_nightly_export():
    from cardviewer.cli import PASSWORD_VARIABLE, build_parser

    units = readme_units()
    assert set(units) == {"cardviewer-export.service", "cardviewer-export.timer"}
    service = unit_file(units["cardviewer-export.service"])["Service"]
    assert service["Type"] == "oneshot"
    assert service["EnvironmentFile"] == "%h/.config/cardviewer-export.env"
    assert PASSWORD_VARIABLE not in service.get("Environment", "")
    command = service["ExecStart"]
    assert command.startswith("%h/.local/bin/cardviewer export ")  # where install.sh links it
    build_parser().parse_args(export_arguments(command, "/cardviewer"))
    timer = unit_file(units["cardviewer-export.timer"])
    assert timer["Timer"]["OnCalendar"] == "*-*-* 02:30"
    assert timer["Timer"]["Persistent"] == "true"
    assert timer["Install"]["WantedBy"] == "timers.target"


def test_the_crontab_line_for_a_nightly_sync_with_changes():
    from cardviewer import cli_sync

    (line,) = [
        line
        for block in readme_blocks("sh")
        if block.startswith("# crontab")
        for line in block.splitlines()
        if not line.startswith("#")
    ]
    fields = line.split(None, 5)
    assert fields[:5] == ["30", "2", "*", "*", "*"]
    outer = shlex.split(fields[5], posix=True)
    assert outer[:5] == ["flock", "-n", "$HOME/.cache/cardviewer-changes.lock", "sh", "-c"]
    (script,) = outer[5:]
    words = shlex.split(script, posix=True)
    assert words[:5] == ["set", "-a;", ".", "$HOME/.config/cardviewer-export.env;", "set"]
    start = words.index("$HOME/.local/bin/cardviewer") + 1
    assert words[start] == "sync"
    end = words.index("&&")
    args = cli_sync.build_parser().parse_args(words[start + 1 : end])
    assert (str(args.changes), args.delimiter, args.quiet) == (
        "$HOME/Exports/changes.csv",
        ";",
        True,
    )
    assert words[end + 1 :] == ["import-changes", "$HOME/Exports/changes.csv"], "only after 0"


def test_systemd_accepts_the_units(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    home = tmp_path / "home"
    folder = home / ".config" / "systemd" / "user"
    folder.mkdir(parents=True)
    paths = []
    for name, text in readme_units().items():
        (folder / name).write_text(text, "utf-8")
        paths.append(str(folder / name))
    program = home / ".local" / "bin" / "cardviewer"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    result = subprocess.run(
        [analyze, "--user", "verify", *paths],
        env={**os.environ, "HOME": str(home), "XDG_RUNTIME_DIR": str(runtime)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if result.returncode != 0 and "Failed to initialize manager" in result.stderr:
        pytest.skip(f"systemd-analyze cannot run here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_the_windows_task_runs_the_console_program_and_keeps_its_exit_code():
    from cardviewer.cli import PASSWORD_VARIABLE, ExitCode, build_parser

    blocks = readme_blocks("bat")
    (script,) = [block for block in blocks if block.startswith("@echo off")]
    assert f"set /p {PASSWORD_VARIABLE}=<password.txt" in script
    assert script.rstrip().endswith("exit /b %ERRORLEVEL%")
    command = script[script.index('"C:\\Program Files') : script.index("exit /b")]
    assert 'CardViewer\\cardviewer-cli.exe" export ' in command
    arguments = export_arguments(command.replace("\\", "/"), "cardviewer-cli.exe")
    build_parser().parse_args(arguments[: arguments.index(">>export.log")])
    said = dict(re.findall(r"(\d+) ([a-z -]+?)(?:,|$)", script.splitlines()[2]))
    names = {"done": "OK", "sign-in failed": "SIGN_IN", "network": "NETWORK", "server": "SERVER"}
    assert {int(code): names[text.strip()] for code, text in said.items()} == {
        code.value: code.name for code in ExitCode if code.name in names.values()
    }
    (task,) = [block for block in blocks if block.startswith("schtasks /Create")]
    assert "/TR C:\\ProgramData\\CardViewer\\export\\nightly-export.cmd" in task
