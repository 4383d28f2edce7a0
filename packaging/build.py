"""Build the CardViewer bundle for the platform this runs on, and pack it for handing out.

    python packaging/build.py [--dist DIR] [--work DIR] [--no-archive]

Run it with the packaging environment (`make package` makes `.venv-package` and runs
it; on Windows see packaging/README.md). The steps:

1. install the package into WORK/site exactly as its wheel installs (so
   `cardviewer.resources` comes from the top-level `resources/`, as pyproject.toml says);
2. render the icons from resources/cardviewer.svg into WORK/icons (make_icons.py);
3. run PyInstaller on packaging/cardviewer.spec: DIST/CardViewer/ (and on macOS
   DIST/CardViewer.app); on Windows with a console program, cardviewer-cli.exe, beside
   the windowed CardViewer.exe;
4. on Linux, slim it: keep only the parts of ICU's data that Qt reads (see
   `trim_icu_data`) and strip the symbol tables left in its libraries (binutils'
   `strip`, `as` and `ld`; without them this step is left out and the bundle is bigger);
5. pack it: on Linux DIST/CardViewer-VERSION-linux-ARCH.tar.gz with install.sh, the
   desktop entry, metainfo and icons; on Windows and macOS a .zip.

The spec loads this file too, for the helpers below.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
LINUX = PACKAGING / "linux"
APP_ID = "cardviewer"
METAINFO_ID = "io.github.cardviewer.CardViewer"
"""The reverse-DNS id of the AppStream metainfo and the macOS bundle."""
CLI_NAME = f"{APP_ID}-cli"
"""The console program beside the windowed one on Windows (cardviewer-cli.exe): the
same `main()`, for `cardviewer-cli export` in scheduled tasks and scripts, which need
its output and exit code."""


@dataclass(frozen=True)
class AppMetadata:
    """What the bundle says about the app, all taken from the package."""

    name: str
    version: str
    description: str

    @property
    def exe_name(self) -> str:
        # Lower case on Linux, as the desktop entry and the command line expect.
        return APP_ID if sys.platform.startswith("linux") else self.name

    @property
    def bundle_id(self) -> str:
        return METAINFO_ID

    @property
    def copyright(self) -> str:
        return f"Copyright the {self.name} developers. MIT licence."

    @property
    def version_tuple(self) -> tuple[int, int, int, int]:
        """Four numbers for Windows' version resource: "1.2.3rc1" gives (1, 2, 3, 0)."""
        numbers = [int(part) for part in re.findall(r"\d+", self.version.split("+")[0])[:3]]
        major, minor, patch = [*numbers, 0, 0, 0][:3]
        return (major, minor, patch, 0)


def app_metadata(site: Path) -> AppMetadata:
    """Name and version from the installed package's `__init__`, read without importing."""
    source = (site / APP_ID / "__init__.py").read_text("utf-8")
    values = dict(re.findall(r'^(\w+) = "([^"]*)"$', source, flags=re.MULTILINE))
    docstring = re.match(r'"""(.*?)"""', source, flags=re.DOTALL)
    description = docstring.group(1).split(":", 1)[-1].strip() if docstring else ""
    description = description[:1].upper() + description[1:].rstrip(".")
    return AppMetadata(values["APP_NAME"], values["__version__"], description)


def platform_tag() -> str:
    machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "aarch64": "arm64"}.get(machine, machine)
    system = {"win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform)
    return f"{'linux' if system.startswith('linux') else system}-{machine}"


# Preparing the inputs


def install_package(target: Path) -> Path:
    """Install the project (no dependencies) into `target` as its wheel would install.

    The bundle is made from this copy, never from the checkout, so it holds exactly the
    modules and package data a user's install has, and nothing else of the checkout.
    """
    shutil.rmtree(target, ignore_errors=True)
    subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
            "--no-build-isolation", "--no-compile", "--target", str(target), str(ROOT),
        ],
        check=True,
    )  # fmt: skip
    for metadata in target.glob("*.dist-info"):
        shutil.rmtree(metadata)
    return target


def render_icons(output: Path) -> Path:
    """make_icons.py in its own process, so Qt never starts inside PyInstaller."""
    shutil.rmtree(output, ignore_errors=True)
    subprocess.run(
        [sys.executable, str(PACKAGING / "make_icons.py"), str(output)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return output


def package_data(site: Path) -> list[tuple[str, str]]:
    """(file, folder in the bundle) for every file of the package that is not code.

    These are what `cardviewer.paths.resource_path()` finds beside the package's modules:
    the SVGs, the compiled translations, and any images added there later.
    """
    found = []
    for path in sorted((site / APP_ID).rglob("*")):
        code = path.suffix in {".py", ".pyc"} or "__pycache__" in path.parts
        if path.is_file() and not code and path.name != "py.typed":
            found.append((str(path), str(path.parent.relative_to(site))))
    return found


def unreferenced_libraries(binaries: Sequence[Any]) -> set[str]:
    """The shared libraries that nothing kept in the bundle links to (Linux, ELF only).

    PyInstaller collects what every plugin of a collected Qt plugin folder needs, before
    the spec leaves most of those plugins out: Qt libraries (QtNetwork for the VNC
    platform, QtOpenGL for EGL, ...) and system ones (GTK, Cairo and Pango for the GTK
    theme, Kerberos for network authentication, GLX). Starting from what is surely
    loaded (Python's extension modules, the kept Qt plugins, libpython), this follows
    the libraries each one links to; everything never reached is returned, as
    destinations in the bundle, for the spec to drop with their symbolic links.
    """
    from PyInstaller.depend import bindepend  # type: ignore[import-untyped]

    files = {dest: source for dest, source, kind in binaries if kind != "SYMLINK"}
    kinds = {dest: kind for dest, _source, kind in binaries}
    by_name: dict[str, str] = {}
    for dest in files:
        by_name.setdefault(Path(dest).name, dest)
    roots = [
        dest
        for dest in files
        if kinds[dest] == "EXTENSION"
        or "plugins" in Path(dest).parts
        or Path(dest).name.startswith("libpython")
    ]
    kept: set[str] = set()
    pending = list(roots)
    while pending:
        dest = pending.pop()
        if dest in kept:
            continue
        kept.add(dest)
        for name, _path in bindepend.get_imports(files[dest]):
            if Path(name).name in by_name:
                pending.append(by_name[Path(name).name])
    return set(files) - kept


def windows_version_info(meta: AppMetadata, *, console: bool = False) -> Any:
    """The version resource Explorer shows under Properties → Details; `console` for
    cardviewer-cli.exe."""
    from PyInstaller.utils.win32 import versioninfo as vi  # type: ignore[import-untyped]

    strings = [
        vi.StringStruct("CompanyName", f"{meta.name} developers"),
        vi.StringStruct("FileDescription", f"{meta.name} (command line)" if console else meta.name),
        vi.StringStruct("FileVersion", meta.version),
        vi.StringStruct("InternalName", CLI_NAME if console else APP_ID),
        vi.StringStruct("LegalCopyright", meta.copyright),
        vi.StringStruct("OriginalFilename", f"{CLI_NAME if console else meta.exe_name}.exe"),
        vi.StringStruct("ProductName", meta.name),
        vi.StringStruct("ProductVersion", meta.version),
        vi.StringStruct("Comments", meta.description),
    ]
    return vi.VSVersionInfo(
        ffi=vi.FixedFileInfo(filevers=meta.version_tuple, prodvers=meta.version_tuple),
        kids=[
            # 0x0409 US English, code page 1200 (Unicode).
            vi.StringFileInfo([vi.StringTable("040904B0", strings)]),
            vi.VarFileInfo([vi.VarStruct("Translation", [0x0409, 1200])]),
        ],
    )


# Building


def run_pyinstaller(dist: Path, work: Path, site: Path, icons: Path) -> None:
    subprocess.run(
        [
            sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
            "--distpath", str(dist), "--workpath", str(work / "pyinstaller"),
            str(PACKAGING / "cardviewer.spec"), "--", "--site", str(site), "--icons", str(icons),
        ],
        check=True,
    )  # fmt: skip


def _reset(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def linux_archive(bundle: Path, icons: Path, meta: AppMetadata, dist: Path) -> Path:
    """The bundle with what install.sh needs to put it on a user's desktop."""
    top = f"{meta.name}-{meta.version}-{platform_tag()}"
    archive = dist / f"{top}.tar.gz"
    members: list[tuple[Path, str]] = [
        (LINUX / "install.sh", "install.sh"),
        (LINUX / f"{APP_ID}.desktop", f"share/applications/{APP_ID}.desktop"),
        (LINUX / f"{METAINFO_ID}.metainfo.xml", f"share/metainfo/{METAINFO_ID}.metainfo.xml"),
        (icons / "hicolor", "share/icons/hicolor"),
        (bundle, meta.name),
    ]
    with tarfile.open(archive, "w:gz", compresslevel=6) as tar:
        for source, name in members:
            tar.add(source, arcname=f"{top}/{name}", filter=_reset)
    return archive


def zip_archive(folder: Path, meta: AppMetadata, dist: Path) -> Path:
    archive = dist / f"{meta.name}-{meta.version}-{platform_tag()}.zip"
    if sys.platform == "darwin":
        # ditto keeps the symbolic links and extended attributes an .app needs.
        subprocess.run(
            ["ditto", "-c", "-k", "--sequesterRsrc", "--keepParent", str(folder), str(archive)],
            check=True,
        )
        return archive
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(folder.rglob("*")):
            zf.write(path, Path(meta.name) / path.relative_to(folder))
    return archive


def elf_sections(data: bytes) -> dict[str, tuple[int, int, int]]:
    """Name → (address, file offset, size) of each section of a 64-bit little-endian ELF."""
    if data[:6] != b"\x7fELF\x02\x01":
        return {}
    (section_table,) = struct.unpack_from("<Q", data, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    headers = [
        struct.unpack_from("<IIQQQQIIQQ", data, section_table + i * entry_size)
        for i in range(count)
    ]
    names_at = headers[names_index][4]
    sections = {}
    for name, _kind, _flags, address, offset, size, *_rest in headers:
        end = data.index(b"\0", names_at + name)
        sections[data[names_at + name : end].decode("ascii")] = (address, offset, size)
    return sections


def strip_symbols(bundle: Path) -> list[Path]:
    """Strip the symbol tables still in the bundle's libraries (Linux); returns them.

    Python built from source (pyenv, the CI's setup-python) keeps them in libpython and
    lib-dynload, as do the cryptography and ICU libraries of their wheels: about 30 MB
    that nothing reads at run time. Each stripped file is loaded once afterwards, so a
    library that stripping broke fails the build, not the user's start.
    """
    strip = shutil.which("strip")
    if strip is None:
        print("note: binutils' strip is missing; the libraries keep their symbol tables")
        return []
    internal = bundle / "_internal"
    found = []
    for path in sorted(internal.rglob("*.so*")):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as file:
                head = file.read(6)
            if head == b"\x7fELF\x02\x01" and ".symtab" in elf_sections(path.read_bytes()):
                found.append(path)
    if found:
        subprocess.run([strip, "--strip-unneeded", *map(str, found)], check=True)
        library_path = os.pathsep.join(
            str(folder) for folder in (internal, internal / "PySide6" / "Qt" / "lib")
        )
        subprocess.run(
            [sys.executable, "-c", "import ctypes, sys\nfor p in sys.argv[1:]: ctypes.CDLL(p)",
             *map(str, found)],
            env={**os.environ, "LD_LIBRARY_PATH": library_path},
            check=True,
        )  # fmt: skip
    return found


ICU_UNUSED = re.compile(
    r"[^/]+/(?:(?:brkitr|curr|lang|rbnf|region|translit|unit)/.*|[^/]+\.(?:cnv|spp|cfu)|unames\.icu)"
)
"""The items of ICU's data that Qt never reads. Qt Core calls ICU for four things only:
collation (`QCollator`: coll/), locale-aware upper and lower case (in the code, no
data), time zone names (`QTimeZone::displayName`: zone/, zoneinfo64, metaZones) and
legacy text encodings (`QStringConverter` beyond UTF-8/16/32 and Latin-1: *.cnv). Not
kept: the legacy encodings (the app reads and writes only Unicode: JSON, CSV, Excel,
vCards), and what only ICU's own formatting and text services use: word and line
breaking with its dictionaries, names of currencies, languages, regions and units,
spelled-out numbers, transliteration, string preparation, confusable characters and
the Unicode character names. Every locale's collation and time zone names stay."""


def trim_icu_data(bundle: Path) -> tuple[int, int] | None:
    """Rebuild the bundle's libicudata with only the ICU data Qt uses (Linux).

    The library is one symbol, `icudtNN_dat`: ICU's common data package, a table of
    contents and the items it names. The items in `ICU_UNUSED` are left out, the rest
    is copied byte for byte, and binutils' `as` and `ld` make it a library again. Returns
    the library's size before and after, or None when there is nothing to trim or
    binutils is missing.
    """
    libraries = [p for p in (bundle / "_internal").rglob("libicudata.so.*") if not p.is_symlink()]
    assembler, linker = shutil.which("as"), shutil.which("ld")
    if not libraries:
        return None
    if assembler is None or linker is None:
        print("note: binutils' as and ld are missing; ICU's data is bundled whole")
        return None
    (library,) = libraries
    original = library.read_bytes()
    if ".dynsym" not in elf_sections(original):
        print("note: not a 64-bit little-endian ELF library; ICU's data is bundled whole")
        return None
    symbol, package = icu_common_data(original)
    trimmed = trim_icu_package(package, lambda name: ICU_UNUSED.fullmatch(name) is None)
    with tempfile.TemporaryDirectory(prefix="cardviewer-icu-") as scratch:
        folder = Path(scratch)
        (folder / "data.bin").write_bytes(trimmed)
        (folder / "data.s").write_text(
            f"\t.section .rodata\n\t.globl {symbol}\n\t.type {symbol}, %object\n"
            f'\t.balign 16\n{symbol}:\n\t.incbin "data.bin"\n'
            f"\t.size {symbol}, . - {symbol}\n"
            '\t.section .note.GNU-stack,"",%progbits\n',
            "ascii",
        )
        subprocess.run([assembler, "-o", "data.o", "data.s"], cwd=folder, check=True)
        subprocess.run(
            [linker, "-shared", "-soname", library.name, "-z", "noexecstack",
             "--hash-style=both", "-o", "data.so", "data.o"],
            cwd=folder, check=True,
        )  # fmt: skip
        rebuilt = (folder / "data.so").read_bytes()
        if icu_common_data(rebuilt) != (symbol, trimmed):
            raise RuntimeError("the rebuilt ICU data library does not hold the trimmed data")
        shutil.copyfile(folder / "data.so", library)
    return len(original), len(rebuilt)


def icu_common_data(library: bytes) -> tuple[str, bytes]:
    """The name and bytes of the `icudtNN_dat` symbol of an ICU data library."""
    sections = elf_sections(library)
    _address, symbols_at, symbols_size = sections[".dynsym"]
    _address, names_at, _size = sections[".dynstr"]
    for start in range(symbols_at, symbols_at + symbols_size, 24):
        name, _info, _other, _section, value, size = struct.unpack_from("<IBBHQQ", library, start)
        text = library[names_at + name : library.index(b"\0", names_at + name)].decode()
        if re.fullmatch(r"icudt\d+_dat", text):
            holder = next(
                (address, offset)
                for address, offset, length in sections.values()
                if address <= value < address + length and address
            )
            begin = holder[1] + value - holder[0]
            return text, library[begin : begin + size]
    raise ValueError("no icudtNN_dat symbol: not an ICU data library")


def trim_icu_package(package: bytes, keep: Any) -> bytes:
    """ICU common data ("CmnD") with only the items whose name `keep` accepts.

    Layout: a header (its size in the first two bytes), then the table of contents:
    a count and per item the offsets of its name and its data, both from the table's
    start; then the names, then the items, each on a 16-byte boundary. Names stay in
    their order (ICU looks them up by binary search).
    """
    (header_size,) = struct.unpack_from("<H", package, 0)
    if package[12:16] != b"CmnD":
        raise ValueError("not ICU common data")
    table = package[header_size:]
    (count,) = struct.unpack_from("<I", table, 0)
    entries = [struct.unpack_from("<II", table, 4 + 8 * i) for i in range(count)]
    ends = [data for _name, data in entries[1:]] + [len(table)]
    items = []
    for (name_at, data_at), end in zip(entries, ends, strict=True):
        name = table[name_at : table.index(b"\0", name_at)]
        if keep(name.decode("ascii")):
            items.append((name, table[data_at:end]))

    def aligned(offset: int) -> int:
        return (offset + 15) & ~15

    names_at = 4 + 8 * len(items)
    name_offsets = []
    for name, _item in items:
        name_offsets.append(names_at)
        names_at += len(name) + 1
    data_at = aligned(header_size + names_at) - header_size
    out_table = bytearray(struct.pack("<I", len(items)))
    body = bytearray()
    for name_offset, (_name, item) in zip(name_offsets, items, strict=True):
        out_table += struct.pack("<II", name_offset, data_at + len(body))
        body += item + bytes(aligned(len(item)) - len(item))
    for name, _item in items:
        out_table += name + b"\0"
    out_table += bytes(data_at - len(out_table))
    return package[:header_size] + bytes(out_table) + bytes(body)


def folder_size(folder: Path) -> int:
    """Bytes in the folder's files, each counted once (symbolic links are not followed)."""
    return sum(path.lstat().st_size for path in folder.rglob("*") if not path.is_symlink())


def build(dist: Path, work: Path, *, archive: bool = True) -> tuple[Path, Path | None]:
    """Build the bundle into `dist`; returns the bundle folder and the archive, if made."""
    site = install_package(work / "site")
    icons = render_icons(work / "icons")
    meta = app_metadata(site)
    run_pyinstaller(dist, work, site, icons)
    bundle = dist / meta.name
    if sys.platform.startswith("linux"):
        icu = trim_icu_data(bundle)
        if icu is not None:
            print(f"ICU data: {icu[0] / 2**20:.1f} MiB, {icu[1] / 2**20:.1f} MiB as bundled")
        strip_symbols(bundle)
    packed = None
    if archive:
        if sys.platform.startswith("linux"):
            packed = linux_archive(bundle, icons, meta, dist)
        elif sys.platform == "darwin":
            packed = zip_archive(dist / f"{meta.name}.app", meta, dist)
        else:
            packed = zip_archive(bundle, meta, dist)
    return bundle, packed


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the CardViewer bundle.")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="default: dist/")
    parser.add_argument("--work", type=Path, default=ROOT / "build", help="default: build/")
    parser.add_argument("--no-archive", action="store_true", help="only the bundle folder")
    args = parser.parse_args(None if argv is None else list(argv))
    started = time.monotonic()
    bundle, packed = build(args.dist.resolve(), args.work.resolve(), archive=not args.no_archive)
    print(f"bundle:  {bundle} ({folder_size(bundle) / 2**20:.1f} MiB)")
    if packed is not None:
        print(f"archive: {packed} ({packed.stat().st_size / 2**20:.1f} MiB)")
    print(f"built in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
