"""The interface's language: Qt translators for the app's own text and for Qt's dialogs.

The code is written in English, so English needs no translator; every other language
ships as `cardviewer_<language>.qm` in `cardviewer.resources`, compiled from the
`.ts` file beside it. With language "" the interface speaks the first of the system's
preferred languages that ships (English if none does); Preferences can name one.

Dates and numbers keep the system's regional format whatever the interface speaks:
it is what the person chose for them, and what their spreadsheet uses to read CSV
files, so `QLocale()` stays the system locale (an English interface on a German
system writes "31.12.24" and "1.234,5"); only the C locale's thousands are grouped
(`grouped`).

After adding or changing text in the code, refresh the catalogs from a checkout:

    python -m cardviewer.i18n update     # extract into every .ts, then compile
    python -m cardviewer.i18n release    # compile the .ts files into .qm only

then translate what Qt Linguist (or an editor) shows as unfinished and run `release`.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from cardviewer.paths import resource_path, resources_folder

log = logging.getLogger(__name__)

SOURCE_LANGUAGE = "en"
CATALOG = "cardviewer"
"""The app's catalogs are `cardviewer_de.ts` / `cardviewer_de.qm`, one per language."""
QT_CATALOG = "qtbase"
"""Qt's own catalog: standard buttons (OK, Cancel), file and message dialogs."""
NATIVE_NAMES = {"en": "English", "de": "Deutsch"}
"""Each language by its own name, so a person who cannot read the current one finds it."""

_CATALOG_FILE = re.compile(rf"{CATALOG}_([a-z]{{2,3}})\.qm")
_installed: list[QTranslator] = []
"""Translators in use; Qt does not own them, so they live here until replaced."""
_current = SOURCE_LANGUAGE


# Languages


def language_code(name: str) -> str:
    """The language part of a locale name: "de_AT", "de-Latn-DE" and "DE" are all "de"."""
    return re.split(r"[_\-.@]", name.strip(), maxsplit=1)[0].lower()


def shipped_languages() -> list[str]:
    """The languages the interface can speak: English and each one with a catalog."""
    found = {
        match[1]
        for entry in resources_folder().iterdir()
        if (match := _CATALOG_FILE.fullmatch(entry.name))
    }
    found.discard(SOURCE_LANGUAGE)
    return [SOURCE_LANGUAGE, *sorted(found)]


def available_languages() -> list[tuple[str, str]]:
    """(setting, label) for a language chooser: "" (the system's) first, then each language.

    Only the first label is translated; the others are the languages' own names.
    """
    choices = [("", QCoreApplication.translate("Languages", "System default"))]
    for code in shipped_languages():
        name = NATIVE_NAMES.get(code) or QLocale(code).nativeLanguageName() or code
        choices.append((code, name))
    return choices


def resolve_language(language: str, system: QLocale | None = None) -> str:
    """The shipped language the interface speaks for the setting `language`.

    "" takes the first of the system's preferred languages that ships, so a French
    system that prefers German next gets German; a language that does not ship (say,
    chosen by a newer version) gives English.
    """
    shipped = shipped_languages()
    if language:
        code = language_code(language)
        if code in shipped:
            return code
        log.info("the interface is not available in %r; using English", language)
        return SOURCE_LANGUAGE
    preferred = (system or QLocale.system()).uiLanguages()
    return next(
        (code for name in preferred if (code := language_code(name)) in shipped),
        SOURCE_LANGUAGE,
    )


def current_language() -> str:
    """The language the installed translators speak ("en" when there are none)."""
    return _current


# Translators


def install_translators(
    app: QCoreApplication, language: str = "", *, system: QLocale | None = None
) -> QLocale:
    """Make the interface speak `language` ("" for the system's), replacing earlier calls.

    Installs the app's catalog and Qt's own for that language; a missing catalog is
    logged and the interface stays English. `QLocale()` is set to the system locale
    (or `system`, which stands in for it), so dates and numbers follow the system
    whatever the language. Widgets already built keep their text: call this before
    building any. Returns the locale of the language the interface now speaks.
    """
    global _current
    remove_translators()
    system = system or QLocale.system()
    QLocale.setDefault(grouped(system))
    code = resolve_language(language, system)
    if code != SOURCE_LANGUAGE:
        own = _load_own_catalog(code)
        if own is None:
            code = SOURCE_LANGUAGE
        else:
            _install(app, own)
            qt = _load_qt_catalog(code)
            if qt is not None:
                _install(app, qt)
    _current = code
    log.debug("interface language %s, formats of %s", code, system.name())
    return QLocale(code)


def grouped(locale: QLocale) -> QLocale:
    """`locale`, with thousands grouped also where it is the C locale (`LANG=C.UTF-8`),
    which Qt writes without: "Synced 100000 cards" beside the command line's "100,000"."""
    if locale.language() != QLocale.Language.C:
        return locale
    with_groups = QLocale(locale)
    with_groups.setNumberOptions(QLocale.NumberOption.DefaultNumberOptions)
    return with_groups


def remove_translators() -> None:
    """Back to the English the code is written in."""
    global _current
    while _installed:
        QCoreApplication.removeTranslator(_installed.pop())
    _current = SOURCE_LANGUAGE


def _install(app: QCoreApplication, translator: QTranslator) -> None:
    if app.installTranslator(translator):
        _installed.append(translator)
    else:
        log.warning("the translator %s could not be installed", translator.filePath())


def _load_own_catalog(code: str) -> QTranslator | None:
    resource = resource_path(f"{CATALOG}_{code}.qm")
    translator = QTranslator()
    if resource.is_file() and translator.load(str(resource)):
        return translator
    log.warning("the %s translation (%s) is missing or damaged; using English", code, resource)
    return None


def _load_qt_catalog(code: str) -> QTranslator | None:
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    translator = QTranslator()
    if translator.load(f"{QT_CATALOG}_{code}", folder):
        return translator
    log.warning("Qt's %s translation is missing from %s; its dialogs stay English", code, folder)
    return None


# Maintaining the catalogs (from a checkout)


def source_files() -> list[Path]:
    """Every Python file of the package, which is where translatable text lives."""
    package = Path(__file__).resolve().parent
    return sorted(path for path in package.rglob("*.py") if "__pycache__" not in path.parts)


def catalog_sources() -> list[Path]:
    """The `.ts` files, which exist in a checkout only (wheels ship the `.qm` files)."""
    return sorted(resources_folder().glob(f"{CATALOG}_*.ts"))


def qt_tool(name: str) -> Path:
    """Qt's `lupdate` or `lrelease` as PySide6 ships them (no PATH needed)."""
    import PySide6  # maintenance only, as `subprocess` in `_run`

    suffix = ".exe" if sys.platform == "win32" else ""
    return Path(PySide6.__file__).resolve().parent / f"{name}{suffix}"


def update_catalog(ts_file: Path) -> None:
    """Extract the package's text into `ts_file`, keeping its translations.

    Text no longer in the code is dropped rather than kept as obsolete; changed text
    starts from the old translation, marked unfinished.
    """
    language = ts_file.stem.removeprefix(f"{CATALOG}_")
    _run(
        qt_tool("lupdate"),
        *map(str, source_files()),
        "-source-language", SOURCE_LANGUAGE,
        "-target-language", language,
        "-locations", "relative",
        "-no-obsolete",
        "-silent",
        "-ts", str(ts_file),
    )  # fmt: skip


def compile_catalog(ts_file: Path, qm_file: Path | None = None) -> Path:
    """Compile `ts_file` into `qm_file` (default: beside it); unfinished text stays English."""
    qm_file = qm_file or ts_file.with_suffix(".qm")
    _run(qt_tool("lrelease"), "-nounfinished", "-silent", str(ts_file), "-qm", str(qm_file))
    return qm_file


def _run(tool: Path, *args: str) -> None:
    import subprocess  # maintenance only; the app's start does without it

    subprocess.run([str(tool), *args], check=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cardviewer.i18n",
        description="Refresh the translation catalogs in a checkout.",
    )
    parser.add_argument(
        "command",
        choices=["update", "release"],
        help="update: extract text into the .ts files, then compile; release: compile only",
    )
    parser.add_argument(
        "--add",
        metavar="LANGUAGE",
        help="start a catalog for another language (for example: fr) before updating",
    )
    args = parser.parse_args(argv)
    catalogs = catalog_sources()
    if args.add:
        new = resource_path(f"{CATALOG}_{language_code(args.add)}.ts")
        catalogs = sorted({*catalogs, new})
    if not catalogs:
        parser.error("no .ts files found; run this from a checkout of the source")
    for ts_file in catalogs:
        if args.command == "update" or not ts_file.exists():
            update_catalog(ts_file)
        print(f"compiled {compile_catalog(ts_file)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
