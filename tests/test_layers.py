"""The layers stand as drawn: the API client, the demo server, the services and
`cardviewer export` work without Qt, so without a display, and nothing points up.

`ui` may import `services` and `api`; `services` never imports `ui`; `api` and `demo`
import no Qt, but for the demo's avatar drawing (`QT_DEMO`). Two kinds of check: what
importing a module really loads, in a fresh interpreter, and what any import statement
in a file names (at the top, inside a function or for the type checker alike), which
also sees imports that run late.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import cardviewer

ROOT = Path(cardviewer.__file__).parent
QT_PACKAGES = ("PySide6", "shiboken6", "qasync")

QT_SERVICES = {
    # The avatar service hands the table its pictures as Qt images: it decodes them
    # with QImageReader in a worker thread (which releases the GIL; Pillow and
    # QImage.fromData do not), draws the placeholders and signals when one arrives.
    "cardviewer.services.avatar_loader",
    # The printed phone list is laid out by Qt's text engine (a font with the letters of
    # every name, right-to-left names in their direction) and painted on Qt's PDF writer
    # or a printer. Only the window and `--format pdf` import it.
    "cardviewer.services.phone_list",
    # A printer as the print dialog set it up (a QPrinter's settings), for the process
    # that paints a whole space's phone list for it. Only the window imports it.
    "cardviewer.services.printer_setup",
    # A vCard's photo is the avatar read as the table reads it (`avatar_loader`), then
    # written as a JPEG with QImageWriter. Only the window and `--photos` import it.
    "cardviewer.services.vcard_photo",
    # The reader's collation is Qt's (QCollator), as the window sorts a page by it; the
    # process writing a sync ranks the copy's texts by the same, built from the locale's
    # name. Only the window and that process (for a window's sync) import it.
    "cardviewer.services.text_collation",
}
"""Services that use Qt, each for a reason given here; every other service is Qt-free."""

QT_DEMO = {
    # The demo server's sample avatars are drawn with Qt's image classes (QImage,
    # QPainter, QImageWriter from QtCore and QtGui), so that no other imaging library
    # ships with the app. They need no application object, window system or font, and
    # are imported inside the functions that draw: importing the demo loads no Qt, and
    # `python -m cardviewer.demo` starts Qt only when the first avatar is asked for.
    "cardviewer.demo.avatars",
}
"""Demo modules that use Qt, each for a reason given here; the rest of the demo is Qt-free."""
QT_DEMO_MODULES = ("PySide6.QtCore", "PySide6.QtGui")
"""What the demo may use of Qt: no widgets, no application."""


def modules_in(package: str) -> list[str]:
    """The dotted names of `package` and every module in it."""
    folder = ROOT.joinpath(*package.split(".")[1:])
    names = []
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(("cardviewer", *parts)))
    return names


def file_of(module: str) -> Path:
    path = ROOT.joinpath(*module.split(".")[1:])
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def imported_names(module: str) -> Iterator[str]:
    """The absolute name of every module an import statement anywhere in `module` names."""
    path = file_of(module)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return names_imported_by(path.read_text(encoding="utf-8"), package)


def names_imported_by(source: str, package: str) -> Iterator[str]:
    """What the import statements of `source`, a module of `package`, name (and may)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def is_under(name: str, *packages: str) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


QT_FREE = [
    *modules_in("cardviewer.api"),
    *(name for name in modules_in("cardviewer.demo") if name not in QT_DEMO),
    *(name for name in modules_in("cardviewer.services") if name not in QT_SERVICES),
    "cardviewer.cli",
    # Knows which program to run (a command or the window) before loading any of it.
    "cardviewer.entry_point",
    # Loads Qt only as it runs, for the reader's collation (`text_collation`), which
    # the sync's copy is ranked by as the window's is.
    "cardviewer.cli_sync",
]


def qt_loaded_by(statement: str) -> list[str]:
    """The Qt modules a fresh interpreter has loaded after running `statement`."""
    check = (
        f"{statement}\n"
        "import sys\n"
        f"print(sorted(m for m in sys.modules if m.startswith({QT_PACKAGES!r})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, timeout=60, check=True
    )
    loaded: list[str] = ast.literal_eval(result.stdout.strip().splitlines()[-1])
    return loaded


def qt_loaded_by_each(modules: list[str]) -> dict[str, list[str]]:
    """The Qt modules that appear while a fresh interpreter imports `modules` in turn.

    One interpreter for all: if none of them loads Qt, none loads it alone either, and
    a module that does is named (what it loads first appears with its own import).
    """
    check = (
        "import importlib, sys\n"
        f"qt = {QT_PACKAGES!r}\n"
        "loaded = {}\n"
        f"for name in {modules!r}:\n"
        "    before = {m for m in sys.modules if m.startswith(qt)}\n"
        "    importlib.import_module(name)\n"
        "    now = {m for m in sys.modules if m.startswith(qt)}\n"
        "    loaded[name] = sorted(now - before)\n"
        "print(loaded)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, timeout=120, check=True
    )
    found: dict[str, list[str]] = ast.literal_eval(result.stdout.strip().splitlines()[-1])
    return found


def test_importing_loads_no_qt() -> None:
    modules = [*QT_FREE, *sorted(QT_DEMO)]  # the demo's Qt is imported late, when it draws
    loaded = qt_loaded_by_each(modules)
    assert set(loaded) == set(modules)
    assert {name: qt for name, qt in loaded.items() if qt} == {}


def test_the_check_names_a_module_that_loads_qt() -> None:
    loaded = qt_loaded_by_each(["cardviewer.api.errors", "cardviewer.services.avatar_loader"])
    assert loaded["cardviewer.api.errors"] == []
    assert "PySide6.QtCore" in loaded["cardviewer.services.avatar_loader"]


def test_the_command_line_export_loads_no_qt() -> None:
    """`python -c "import cardviewer.cli"`: a scheduled export needs no Qt libraries."""
    assert qt_loaded_by("import cardviewer.cli") == []


@pytest.mark.parametrize("module", [*QT_FREE, *sorted(QT_SERVICES), *sorted(QT_DEMO)])
def test_nothing_below_the_window_imports_it(module: str) -> None:
    upward = [name for name in imported_names(module) if is_under(name, "cardviewer.ui")]
    assert upward == [], f"{module} imports the window's layer"


@pytest.mark.parametrize("module", QT_FREE)
def test_no_import_statement_names_qt(module: str) -> None:
    """Also an import inside a function, which only runs late, or one for the type checker."""
    qt = [name for name in imported_names(module) if is_under(name, *QT_PACKAGES)]
    assert qt == [], f"{module} imports Qt"


@pytest.mark.parametrize("module", sorted(QT_DEMO))
def test_the_demo_draws_with_qt_images_imported_late(module: str) -> None:
    """Only QtCore and QtGui, and only inside functions (or for the type checker)."""
    path = file_of(module)
    package = module.rpartition(".")[0]
    qt = [name for name in imported_names(module) if is_under(name, *QT_PACKAGES)]
    assert qt
    assert all(is_under(name, *QT_DEMO_MODULES) for name in qt), qt
    tree = ast.parse(path.read_text(encoding="utf-8"))
    at_the_top = [
        name
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in names_imported_by(ast.unparse(node), package)
        if is_under(name, *QT_PACKAGES)
    ]
    assert at_the_top == [], f"{module} imports Qt when it is imported"


def test_the_lists_name_real_modules() -> None:
    services = modules_in("cardviewer.services")
    assert set(services) >= QT_SERVICES
    assert set(modules_in("cardviewer.demo")) >= QT_DEMO
    assert {"cardviewer.services.card_export", "cardviewer.services.file_errors"} <= set(QT_FREE)
    assert set(modules_in("cardviewer.api")) <= set(QT_FREE)


@pytest.mark.parametrize(
    ("source", "package", "layer"),
    [
        ("from cardviewer.ui.cards import columns", "cardviewer.services", "cardviewer.ui"),
        ("from ..ui.cards.columns import column_titles", "cardviewer.services", "cardviewer.ui"),
        ("from .. import ui", "cardviewer.services", "cardviewer.ui"),
        ("def f():\n    from PySide6.QtCore import Qt", "cardviewer.api", "PySide6"),
        ("if TYPE_CHECKING:\n    import shiboken6", "cardviewer.api", "shiboken6"),
    ],
)
def test_the_static_check_sees_every_kind_of_import(source: str, package: str, layer: str) -> None:
    assert any(is_under(name, layer) for name in names_imported_by(source, package))
