"""Build the CardViewer bundle for the platform this runs on, and pack it for handing out.

    python packaging/build.py [--dist DIR] [--work DIR] [--no-archive]

Run it with the packaging environment (`make package` makes `.venv-package` and runs
it; on Windows see packaging/README.md). The steps:

1. install the package into WORK/site exactly as its wheel installs (so
   `cardviewer.resources` comes from the top-level `resources/`, as pyproject.toml says);
2. render the icons from resources/cardviewer.svg into WORK/icons (make_icons.py);
3. run PyInstaller on packaging/cardviewer.spec: DIST/CardViewer/ (and on macOS
   DIST/CardViewer.app);
4. pack it: on Linux DIST/CardViewer-VERSION-linux-ARCH.tar.gz with install.sh, the
   desktop entry, metainfo and icons; on Windows and macOS a .zip.

The spec loads this file too, for the helpers below.
"""

from __future__ import annotations

import argparse
import platform
import re
import shutil
import subprocess
import sys
import tarfile
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


def unreferenced_qt_libraries(binaries: Sequence[Any]) -> set[str]:
    """The Qt libraries that no kept module or plugin links to (Linux, ELF only).

    PyInstaller collects each Qt library that any plugin of a collected plugin folder
    needs, before the spec leaves most plugins out; what only those plugins needed
    (QtNetwork for the VNC platform, QtOpenGL for EGL, ...) is returned here, as
    destinations in the bundle, for the spec to drop with their symbolic links.
    """
    from PyInstaller.depend import bindepend  # type: ignore[import-untyped]

    files = {dest: source for dest, source, kind in binaries if kind != "SYMLINK"}
    qt_libraries = {
        Path(dest).name: dest
        for dest in files
        if Path(dest).parts[0] == "PySide6" and Path(dest).name.startswith("libQt6")
    }
    kept: set[str] = set()
    pending = [dest for dest in files if dest not in qt_libraries.values()]
    while pending:
        dest = pending.pop()
        if dest in kept:
            continue
        kept.add(dest)
        for name, _path in bindepend.get_imports(files[dest]):
            if Path(name).name in qt_libraries:
                pending.append(qt_libraries[Path(name).name])
    return set(qt_libraries.values()) - kept


def windows_version_info(meta: AppMetadata) -> Any:
    """The version resource Explorer shows under Properties → Details."""
    from PyInstaller.utils.win32 import versioninfo as vi  # type: ignore[import-untyped]

    strings = [
        vi.StringStruct("CompanyName", f"{meta.name} developers"),
        vi.StringStruct("FileDescription", meta.name),
        vi.StringStruct("FileVersion", meta.version),
        vi.StringStruct("InternalName", APP_ID),
        vi.StringStruct("LegalCopyright", meta.copyright),
        vi.StringStruct("OriginalFilename", f"{meta.exe_name}.exe"),
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


def strip_python_runtime(bundle: Path) -> None:
    """Strip the debugging symbols of Python's own libraries (Linux).

    Python built from source (pyenv, the CI's setup-python) keeps them: about 25 MB of
    libpython and lib-dynload. The libraries that come from wheels are stripped by
    their builders and left as they are.
    """
    strip = shutil.which("strip")
    if strip is None:
        return
    internal = bundle / "_internal"
    runtime = [*internal.glob("libpython3*.so*"), *internal.glob("python3*/lib-dynload/*.so")]
    files = [path for path in runtime if path.is_file() and not path.is_symlink()]
    if files:
        subprocess.run([strip, "--strip-unneeded", *map(str, files)], check=True)


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
        strip_python_runtime(bundle)
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
