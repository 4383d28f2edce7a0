"""The desktop entry names the program, icon and id the app really has; the files that
build the bundle agree with the package they bundle."""

from __future__ import annotations

import ast
import configparser
import importlib.util
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from xml.etree import ElementTree

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
