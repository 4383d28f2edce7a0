"""Languages: the German catalog is complete and current, and the interface speaks it.

The German window tests walk every text a person can see or hear (labels, buttons,
actions, menus, tooltips, placeholders, headers, cells, accessible names) and fail on
any that is still one of the English source texts.
"""

from __future__ import annotations

import ast
import fnmatch
import logging
import os
import re
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractItemModel, QCoreApplication, QLocale, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QLabel,
    QLineEdit,
    QMenu,
    QStatusBar,
    QToolBar,
    QWidget,
)

from cardviewer import i18n
from cardviewer.api.errors import TRANSLATION_CONTEXT

ROOT = Path(__file__).resolve().parents[1]
TS_FILE = ROOT / "resources" / "cardviewer_de.ts"
QM_FILE = TS_FILE.with_suffix(".qm")
LOAD_TIMEOUT = 10_000

ALLOWED_IDENTICAL = {
    "ID",
    "Name",
    "Position",
    "CSV",
    "vCards (*.vcf)",
    "vCards:",
    "vCards",
    "&Server:",
    "https://cards.example.com",
    "name@example.com",
    "%1 \u2014 %2",
    "Python %1, Qt %2",
}
"""Texts that read the same in German; every other translation must differ."""

KNOWN_UNEXTRACTABLE: set[tuple[str, str]] = set()
"""Calls the catalog cannot serve yet, pending changes in those files (see the test)."""
MARKED_WHERE_WRITTEN = {
    (
        "cardviewer/ui/error_text.py",
        "QCoreApplication.translate(TRANSLATION_CONTEXT, message.template)",
    )
}
"""Calls that translate text marked with `QT_TRANSLATE_NOOP` where it is written."""

PLACEHOLDER = re.compile(r"%L?n|%\d|\{\w*\}")


@dataclass(frozen=True)
class Message:
    context: str
    source: str
    comment: str
    numerus: bool
    kind: str  # "" when finished, else "unfinished", "vanished" or "obsolete"
    translations: tuple[str, ...]


def read_catalog(path: Path = TS_FILE) -> list[Message]:
    messages = []
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name", "")
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            forms = [form.text or "" for form in translation.iter("numerusform")]
            messages.append(
                Message(
                    context=name,
                    source=message.findtext("source", ""),
                    comment=message.findtext("comment", ""),
                    numerus=message.get("numerus") == "yes",
                    kind=translation.get("type", ""),
                    translations=tuple(forms) if forms else (translation.text or "",),
                )
            )
    return messages


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """Every test leaves the app English with the system's formats, as it found it."""
    yield
    i18n.remove_translators()
    QLocale.setDefault(QLocale.system())


@pytest.fixture
def german(qapp) -> QLocale:
    return i18n.install_translators(qapp, "de")


def tr(context: str, text: str, n: int = -1) -> str:
    return QCoreApplication.translate(context, text, None, n)


# The catalog


def test_every_message_is_translated() -> None:
    messages = read_catalog()
    assert messages
    unfinished = [(m.context, m.source) for m in messages if m.kind]
    assert not unfinished, f"unfinished, vanished or obsolete: {unfinished}"
    empty = [(m.context, m.source) for m in messages if not all(m.translations)]
    assert not empty, f"empty translations: {empty}"


def test_plurals_have_both_german_forms() -> None:
    plurals = [m for m in read_catalog() if m.numerus]
    assert plurals
    for message in plurals:
        assert len(message.translations) == 2, message


def test_placeholders_and_shortcut_keys_are_kept() -> None:
    for message in read_catalog():
        wanted = sorted(PLACEHOLDER.findall(message.source))
        mnemonics = message.source.replace("&&", "").count("&")
        for translation in message.translations:
            assert sorted(PLACEHOLDER.findall(translation)) == wanted, message
            assert translation.replace("&&", "").count("&") == mnemonics, message


def test_only_deliberate_translations_equal_their_source() -> None:
    same = {m.source for m in read_catalog() if not m.numerus and m.translations[0] == m.source}
    assert same <= ALLOWED_IDENTICAL, f"not translated: {sorted(same - ALLOWED_IDENTICAL)}"


def test_catalog_holds_exactly_the_texts_in_the_code(tmp_path: Path) -> None:
    """Fails when text was added or changed without `python -m cardviewer.i18n update`."""
    fresh = tmp_path / TS_FILE.name
    fresh.write_bytes(TS_FILE.read_bytes())
    i18n.update_catalog(fresh)

    def keys(path: Path) -> set[tuple[str, str, str, bool]]:
        return {(m.context, m.source, m.comment, m.numerus) for m in read_catalog(path)}

    committed, current = keys(TS_FILE), keys(fresh)
    new, gone = sorted(current - committed), sorted(committed - current)
    assert not new, "new in the code"
    assert not gone, "gone from the code"


def test_compiled_catalog_matches_its_source(tmp_path: Path) -> None:
    """Fails when the .ts changed without `python -m cardviewer.i18n release`."""
    compiled = i18n.compile_catalog(TS_FILE, tmp_path / QM_FILE.name)
    assert compiled.read_bytes() == QM_FILE.read_bytes()


def test_compiled_catalog_is_package_data() -> None:
    """The wheel, and so the bundle, carries the .qm files from `resources/`."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    tool = config["tool"]["setuptools"]
    assert tool["package-dir"]["cardviewer.resources"] == "resources"
    patterns = tool["package-data"]["cardviewer.resources"]
    assert any(fnmatch.fnmatch(QM_FILE.name, pattern) for pattern in patterns)


def test_every_translatable_text_can_be_extracted() -> None:
    """The translation tools read literal text only; and only a literal count marks a plural
    in `QCoreApplication.translate()` (`self.tr()` takes any count)."""
    found = set()
    for path in sorted((ROOT / "cardviewer").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            name = node.func.attr
            is_translate = name == "translate" and ast.unparse(node.func.value).endswith(
                ("QCoreApplication", "QApplication")
            )
            if name != "tr" and not is_translate:
                continue
            args = node.args[1:] if is_translate else node.args
            text_is_literal = bool(args) and isinstance(args[0], ast.Constant)
            count_is_loose = (
                is_translate and len(args) > 2 and not isinstance(args[2], ast.Constant)
            )
            if not text_is_literal or count_is_loose:
                found.add((path.relative_to(ROOT).as_posix(), ast.unparse(node)))
    found -= MARKED_WHERE_WRITTEN
    assert found - KNOWN_UNEXTRACTABLE == set(), "text the translation tools cannot read"
    assert KNOWN_UNEXTRACTABLE - found == set(), "fixed: remove from KNOWN_UNEXTRACTABLE"


def test_text_marked_for_translation_is_literal_and_in_its_context() -> None:
    """`QT_TRANSLATE_NOOP` marks the API layer's sentences; the UI translates them."""
    marked = []
    for path in sorted((ROOT / "cardviewer").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "QT_TRANSLATE_NOOP":
                context, text = node.args
                assert isinstance(context, ast.Constant), ast.unparse(node)
                assert isinstance(text, ast.Constant), ast.unparse(node)
                assert context.value == TRANSLATION_CONTEXT, ast.unparse(node)
                marked.append(text.value)
    assert len(marked) >= 20
    sources = {m.source for m in read_catalog() if m.context == TRANSLATION_CONTEXT}
    assert set(marked) == sources


# Choosing the language


def test_available_languages_name_themselves(german) -> None:
    assert i18n.available_languages() == [
        ("", "Systemstandard"),
        ("en", "English"),
        ("de", "Deutsch"),
    ]


@pytest.mark.parametrize(
    ("setting", "system", "expected"),
    [
        ("", "de_DE", "de"),
        ("", "de_AT", "de"),
        ("", "en_US", "en"),
        ("", "fr_FR", "en"),
        ("", "C", "en"),
        ("de", "en_US", "de"),
        ("de_CH", "en_US", "de"),
        ("en", "de_DE", "en"),
        ("fr", "de_DE", "en"),
    ],
)
def test_resolve_language(setting: str, system: str, expected: str) -> None:
    assert i18n.resolve_language(setting, QLocale(system)) == expected


def test_english_installs_no_translator(qapp) -> None:
    locale = i18n.install_translators(qapp, "en", system=QLocale("de_DE"))
    assert locale.language() == QLocale.Language.English
    assert i18n.current_language() == "en"
    assert tr("MainWindow", "&File") == "&File"
    assert tr("QPlatformTheme", "Cancel") == "Cancel"
    assert QLocale().name() == "de_DE", "dates and numbers keep the system's format"


def test_german_speaks_german_and_keeps_the_system_formats(qapp) -> None:
    locale = i18n.install_translators(qapp, "de", system=QLocale("en_GB"))
    assert locale.language() == QLocale.Language.German
    assert i18n.current_language() == "de"
    assert tr("MainWindow", "&File") == "&Datei"
    assert tr("QPlatformTheme", "Cancel") == "Abbrechen", "Qt's own catalog is installed"
    assert tr("MainWindow", "Exported %Ln cards to %1", 1) == "1 Karte nach %1 exportiert"
    assert tr("MainWindow", "Exported %Ln cards to %1", 3) == "3 Karten nach %1 exportiert"
    # A count is written as the system writes numbers, whatever the language.
    assert tr("MainWindow", "Exported %Ln cards to %1", 20000) == "20,000 Karten nach %1 exportiert"
    assert QLocale().toString(1234.5) == "1,234.5"


def test_system_default_follows_a_german_system(qapp) -> None:
    i18n.install_translators(qapp, "", system=QLocale("de_DE"))
    assert i18n.current_language() == "de"
    assert tr("PageBar", "First page") == "Erste Seite"
    assert QLocale().toString(1234.5) == "1.234,5"


def test_installing_again_replaces_the_language(qapp) -> None:
    i18n.install_translators(qapp, "de")
    i18n.install_translators(qapp, "de")
    assert tr("MainWindow", "&Help") == "&Hilfe"
    i18n.install_translators(qapp, "en")
    assert tr("MainWindow", "&Help") == "&Help", "no German translator is left behind"
    assert tr("QPlatformTheme", "Cancel") == "Cancel"
    i18n.install_translators(qapp, "de")
    assert tr("MainWindow", "&Help") == "&Hilfe"


def test_a_missing_catalog_leaves_english(qapp, monkeypatch, caplog) -> None:
    monkeypatch.setattr(i18n, "shipped_languages", lambda: ["en", "de", "xx"])
    caplog.set_level(logging.WARNING, logger="cardviewer.i18n")
    locale = i18n.install_translators(qapp, "xx")
    assert locale.language() == QLocale.Language.English
    assert i18n.current_language() == "en"
    assert "missing" in caplog.text


def test_a_missing_qt_catalog_still_translates_the_app(qapp, monkeypatch, caplog) -> None:
    monkeypatch.setattr(i18n, "QT_CATALOG", "no-such-catalog")
    caplog.set_level(logging.WARNING, logger="cardviewer.i18n")
    i18n.install_translators(qapp, "de")
    assert tr("MainWindow", "&File") == "&Datei"
    assert tr("QPlatformTheme", "Cancel") == "Cancel"
    assert "stay English" in caplog.text


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="Windows and macOS keep the locale elsewhere"
)
def test_the_system_locale_decides_in_a_fresh_process() -> None:
    """LANG, LC_* and LANGUAGE are read once per process, so a child process has its own."""
    script = (
        "from PySide6.QtCore import QCoreApplication, QLocale\n"
        "from cardviewer import i18n\n"
        "app = QCoreApplication([])\n"
        "for setting in ('', 'en'):\n"
        "    i18n.install_translators(app, setting)\n"
        "    print(QCoreApplication.translate('MainWindow', '&File'), QLocale().toString(1234.5))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env["LANG"] = "de_DE.UTF-8"
    result = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert result.stdout.split("\n")[:2] == ["&Datei 1.234,5", "&File 1.234,5"]


def test_self_tr_finds_the_catalog_of_a_subclass(german, qtbot) -> None:
    """Qt looks a `self.tr()` text up under the object's class and then its bases."""
    from cardviewer.ui.page_bar import PageBar

    class CustomPageBar(PageBar):
        pass

    bar = CustomPageBar()
    qtbot.addWidget(bar)
    assert bar.first_button.toolTip() == "Erste Seite"
    assert bar.tr("Page number") == "Seitenzahl"


# The German interface


def english_texts() -> tuple[set[str], list[re.Pattern[str]]]:
    """The source texts (with and without shortcut marks) and patterns for filled-in ones."""
    exact, patterns = set(), []
    for message in read_catalog():
        source = message.source
        if source in ALLOWED_IDENTICAL:
            continue
        exact |= {source, _plain(source)}
        if PLACEHOLDER.search(source):
            pieces = PLACEHOLDER.split(_plain(source))
            patterns.append(re.compile(".+".join(map(re.escape, pieces)), re.DOTALL))
    return exact, patterns


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def visible_texts(
    root: QWidget, server_columns: frozenset[int] = frozenset()
) -> list[tuple[str, str]]:
    """Every text of `root` and its children a person can see or hear, by where it is.

    `server_columns` are table columns the server named (fields the app does not
    know are titled from their keys), so their headers are not the app's text.
    """
    found: list[tuple[str, str]] = []

    def add(where: str, text: object) -> None:
        if isinstance(text, str) and text.strip():
            found.append((where, text))

    def add_model(where: str, model: QAbstractItemModel) -> None:
        for column in range(model.columnCount()):
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                if column not in server_columns:
                    header = model.headerData(column, Qt.Orientation.Horizontal, role)
                    add(f"{where} header {column}", header)
            for row in range(model.rowCount()):
                add(f"{where} cell {row},{column}", model.index(row, column).data())

    for widget in [root, *root.findChildren(QWidget)]:
        name = f"{type(widget).__name__} {widget.objectName()}".strip()
        add(f"{name} window title", widget.windowTitle())
        add(f"{name} tooltip", widget.toolTip())
        add(f"{name} status tip", widget.statusTip())
        add(f"{name} what's this", widget.whatsThis())
        add(f"{name} accessible name", widget.accessibleName())
        add(f"{name} accessible description", widget.accessibleDescription())
        if isinstance(widget, QLabel | QAbstractButton):
            add(f"{name} text", widget.text())
        if isinstance(widget, QLineEdit):
            add(f"{name} placeholder", widget.placeholderText())
        if isinstance(widget, QComboBox):
            for index in range(widget.count()):
                add(f"{name} item {index}", widget.itemText(index))
        if isinstance(widget, QMenu):
            add(f"{name} title", widget.title())
        if isinstance(widget, QStatusBar):
            add(f"{name} message", widget.currentMessage())
        model = getattr(widget, "model", None)
        if callable(model) and isinstance(model(), QAbstractItemModel):
            add_model(name, model())
        for action in widget.actions():
            label = f"{name} action {action.text()!r}"
            add(f"{label} text", action.text())
            add(f"{label} icon text", action.iconText())
            add(f"{label} tooltip", action.toolTip())
            add(f"{label} status tip", action.statusTip())
    for action in root.findChildren(QAction):
        add(f"action {action.text()!r}", action.text())
        add(f"action {action.text()!r} tooltip", action.toolTip())
    return found


def assert_all_german(root: QWidget, server_columns: frozenset[int] = frozenset()) -> None:
    exact, patterns = english_texts()
    english = [
        (where, text)
        for where, text in visible_texts(root, server_columns)
        if text in exact or _plain(text) in exact or any(p.fullmatch(text) for p in patterns)
    ]
    assert not english, f"English text in the German interface: {english}"


def assert_unique_shortcut_keys(where: str, texts: list[str]) -> None:
    keys = [match[1].lower() for text in texts if (match := re.search(r"&([^&])", text))]
    assert len(keys) == len(set(keys)), f"{where}: the same Alt key twice in {texts}"


def menu_texts(menu: QWidget) -> list[str]:
    return [
        action.text()
        for action in menu.actions()
        if action.isVisible() and not action.isSeparator()
    ]


def control_texts(root: QWidget) -> list[str]:
    """Labels, buttons and check boxes that are on screen (an Alt key reaches them)."""
    return [
        widget.text()
        for widget in root.findChildren(QLabel) + root.findChildren(QAbstractButton)
        if widget.isVisible()
    ]


@pytest.fixture
def german_window(german, qtbot, arun, demo_server):
    from cardviewer.services.avatar_loader import AvatarLoader
    from cardviewer.services.page_loader import PageRequest
    from cardviewer.services.settings import Settings
    from cardviewer.ui.cards.card_pages import CardPages
    from cardviewer.ui.cards.card_table_model import CardTableModel
    from cardviewer.ui.main_window import MainWindow
    from tests.ui.clients import single_try_client

    client = single_try_client(demo_server.base_url)
    arun(client.login(demo_server.email, demo_server.password))
    avatars = AvatarLoader(use_disk_cache=False)
    pages = CardPages(CardTableModel(avatars))

    async def fetch(request: PageRequest):
        return await client.list_cards(
            request.space_id, request.page, with_emails=request.with_emails
        )

    pages.set_source(fetch)
    window = MainWindow(
        pages,
        Settings.load(),
        email=demo_server.email,
        server_url=demo_server.base_url,
        source=fetch,
    )
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    yield window
    for close in (window.aclose, pages.aclose, avatars.aclose, client.aclose):
        arun(close())


def test_main_window_speaks_only_german(german_window, demo_server, qtbot) -> None:
    window = german_window
    assert [a.text() for a in window.menuBar().actions()] == [
        "&Datei",
        "&Bearbeiten",
        "&Ansicht",
        "&Gehe zu",
        "&Hilfe",
    ]
    assert window.hint_page.title_label.text() == "Kein Bereich geöffnet"
    assert_all_german(window)

    window.include_emails_check.setChecked(True)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=LOAD_TIMEOUT):
        window.open_space(demo_server.space_id)
    assert window.page_bar.page_label.text() == "Seite"
    assert window.page_bar.summary_label.text().startswith("Karten 1")
    columns = window.model.columns
    name = window.model.column_of("display_name")
    assert window.proxy.headerData(name, Qt.Orientation.Horizontal) == "Name"
    assert any(column.extra for column in columns), "the demo's own fields are shown too"
    assert_all_german(window, frozenset(i for i, c in enumerate(columns) if c.extra))

    assert_unique_shortcut_keys("window", menu_texts(window.menuBar()) + control_texts(window))
    for menu in window.menuBar().findChildren(QMenu):
        assert_unique_shortcut_keys(menu.title(), menu_texts(menu))
    toolbar = window.findChild(QToolBar)
    assert toolbar is not None
    assert toolbar.windowTitle() == "Bereich"


def test_login_dialog_speaks_only_german(german, qtbot, qloop) -> None:
    from cardviewer.ui.login.login_dialog import LoginDialog

    async def authenticate(server: str, email: str, password: str):
        raise AssertionError("not signing in here")

    dialog = LoginDialog(authenticate)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.windowTitle() == "Bei CardViewer anmelden"
    assert dialog.sign_in_button.text() == "Anmelden"
    assert dialog.cancel_button.text().replace("&", "") == "Abbrechen"
    assert_all_german(dialog)
    assert_unique_shortcut_keys("sign-in dialog", control_texts(dialog))


def test_the_c_locale_groups_thousands_as_the_command_line_does(qapp) -> None:
    """Under `LANG=C.UTF-8` the window wrote "Synced 100000 cards", the command line
    "100,000"; other locales keep their own ways."""
    i18n.install_translators(qapp, "en", system=QLocale.c())
    try:
        assert QLocale().toString(100_000) == "100,000"
        assert QLocale().toString(1234.5, "f", 1) == "1,234.5"
    finally:
        i18n.remove_translators()
    german = QLocale("de_DE")
    assert i18n.grouped(german) == german
