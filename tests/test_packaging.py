"""The desktop entry names the program, icon and id the app really has."""

from __future__ import annotations

import configparser
import tomllib
from pathlib import Path

from cardviewer import APP_ID, APP_NAME

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
