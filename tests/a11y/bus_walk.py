"""CardViewer as a screen reader meets it: read from the real accessibility bus under Xvfb.

`make a11y` runs this with the system's Python, which has pyatspi (a system package:
python3-pyatspi on Debian). It starts what a desktop would have, each of its own:

1. Xvfb, on a display it picks;
2. a D-Bus session bus;
3. the AT-SPI bus (`at-spi-bus-launcher`; the registry starts on the first request);
4. the app with `--demo`, accessibility on (`QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1`),
   in a home folder of its own,

and then reads and drives the app through AT-SPI only, as Orca does:

- the sign-in dialog: every control shown that takes the focus has a name (a combo
  box by its label, since its own name is its value), and so has every picture; then
  it presses Sign in through the button's action;
- the main window: the same, before and after a card is selected; the first page is
  announced (AT-SPI's `object:announcement`);
- in the table, Tab, Shift+Tab and Ctrl+Tab leave it, and the arrows move within it;
  Tab from the table reaches the details pane and the page bar, names each control it
  stops at, and comes back round to the table (no focus trap);
- Next page, pressed through its action, is announced;
- Preferences (Ctrl+,): every control has a name.

Exit status: 0 when all is well, 1 with a finding (each is listed), 2 when something it
needs is missing or does not start (it says what, and how to get it).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = "xvfb at-spi2-core dbus python3-pyatspi gir1.2-atspi-2.0"
LAUNCHERS = (
    "/usr/libexec/at-spi-bus-launcher",
    "/usr/lib/at-spi2-core/at-spi-bus-launcher",
    "/usr/lib/at-spi-bus-launcher",
)
APP_NAME = "CardViewer"
START_SECONDS = 20.0
"""How long each program may take to come up (the app: three times as long)."""
EVENT_SECONDS = 3.0
"""How long a key press or an action may take to be answered on the bus."""

TAB, LEFT_TAB, DOWN, COMMA, ESCAPE = 0xFF09, 0xFE20, 0xFF54, 0x2C, 0xFF1B
SHIFT, CONTROL = 1, 4
"""X modifier masks, for AT-SPI's `KEY_LOCKMODIFIERS`."""


class Unavailable(Exception):
    """Something this walk needs is missing or did not start: exit status 2."""


# The desktop: Xvfb, the session bus, the accessibility bus


@dataclass
class Desktop:
    """The programs started for the walk, stopped again in reverse order."""

    folder: Path
    processes: list[tuple[str, subprocess.Popen[bytes]]] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))

    def start(self, name: str, command: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        """Start `command` in a process group of its own, its output in a log file."""
        log = (self.folder / f"{name}.log").open("wb")
        try:
            process = subprocess.Popen(
                command,
                env=self.env,
                stderr=log,
                stdout=kwargs.pop("stdout", log),
                start_new_session=True,
                **kwargs,
            )
        except FileNotFoundError as exc:
            raise Unavailable(f"{command[0]} is not installed ({PACKAGES})") from exc
        finally:
            log.close()
        self.processes.append((name, process))
        return process

    def log_tail(self, name: str, lines: int = 15) -> str:
        path = self.folder / f"{name}.log"
        text = path.read_text(errors="replace") if path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        for _name, process in reversed(self.processes):
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        for _name, process in reversed(self.processes):
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)


def read_line(stream: IO[bytes] | int, what: str, seconds: float = START_SECONDS) -> str:
    """The first line a program writes to `stream`, waiting at most `seconds`."""
    fd = stream if isinstance(stream, int) else stream.fileno()
    ready, _, _ = select.select([fd], [], [], seconds)
    if not ready:
        raise Unavailable(f"{what} did not start within {seconds:.0f} s")
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(fd, 256)
        if not chunk:
            break
        data += chunk
    line = data.decode().strip()
    if not line:
        raise Unavailable(f"{what} ended before it started")
    return line


def start_desktop(desktop: Desktop) -> None:
    """Xvfb, a session bus and the accessibility bus; their addresses go into `desktop.env`."""
    if shutil.which("Xvfb") is None:
        raise Unavailable(f"Xvfb is not installed ({PACKAGES})")
    read_end, write_end = os.pipe()
    desktop.start(
        "xvfb",
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1400x900x24", "-nolisten", "tcp"],
        pass_fds=(write_end,),
    )
    os.close(write_end)
    display = ":" + read_line(read_end, "Xvfb")
    os.close(read_end)
    desktop.env["DISPLAY"] = display

    bus = desktop.start(
        "dbus",
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
    )
    assert bus.stdout is not None
    desktop.env["DBUS_SESSION_BUS_ADDRESS"] = read_line(bus.stdout, "The D-Bus session bus")

    launcher = next((path for path in LAUNCHERS if Path(path).exists()), None)
    if launcher is None:
        raise Unavailable(f"at-spi-bus-launcher is not installed ({PACKAGES})")
    desktop.start("at-spi", [launcher, "--launch-immediately"])
    for key in ("NO_AT_BRIDGE", "WAYLAND_DISPLAY"):  # a bridge left off, another display
        desktop.env.pop(key, None)


def start_app(desktop: Desktop, python: str) -> subprocess.Popen[bytes]:
    """The app on the demo server, accessible, with settings of its own."""
    home = desktop.folder / "home"
    home.mkdir()
    env = desktop.env
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_STATE_HOME=str(home / ".local/state"),
        XDG_DATA_HOME=str(home / ".local/share"),
        QT_QPA_PLATFORM="xcb",
        QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
        QT_ACCESSIBILITY="1",
        LANGUAGE="en",
        LC_ALL="C.UTF-8",
        PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
    )
    return desktop.start("app", [python, str(ROOT / "main.py"), "--demo"], cwd=ROOT)


# Reading the bus, as a screen reader


class Reader:
    """AT-SPI, through pyatspi: the app's accessibles, its focus and its announcements."""

    def __init__(self, app_process: subprocess.Popen[bytes], desktop: Desktop) -> None:
        os.environ["DISPLAY"] = desktop.env["DISPLAY"]
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = desktop.env["DBUS_SESSION_BUS_ADDRESS"]
        try:
            self.atspi: Any = importlib.import_module("pyatspi")
            self.glib: Any = importlib.import_module("gi.repository.GLib")
        except ImportError as exc:
            raise Unavailable(
                f"pyatspi is missing from {sys.executable} ({exc}); on Debian: apt-get "
                "install python3-pyatspi gir1.2-atspi-2.0, and run this with /usr/bin/python3"
            ) from exc
        self._app_process, self._desktop = app_process, desktop
        self.focused: list[Any] = []
        self.announced: list[str] = []
        registry = self.atspi.Registry
        registry.registerEventListener(self._on_focus, "object:state-changed:focused")
        registry.registerEventListener(self._on_announcement, "object:announcement")

    def _on_focus(self, event: Any) -> None:
        if event.detail1:
            self.focused.append(event.source)

    def _on_announcement(self, event: Any) -> None:
        self.announced.append(str(event.any_data))

    def pump(self, seconds: float) -> None:
        """Let the bus deliver its events for `seconds`."""
        context = self.glib.MainContext.default()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            while context.iteration(False):
                pass
            time.sleep(0.02)

    def wait_for(self, what: str, found: Callable[[], Any], seconds: float) -> Any:
        """Pump the bus until `found()` gives something; `Unavailable` after `seconds`."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            result = found()
            if result:
                return result
            if self._app_process.poll() is not None:
                tail = self._desktop.log_tail("app")
                raise Unavailable(f"the app ended while waiting for {what}:\n{tail}")
            self.pump(0.1)
        raise Unavailable(f"no {what} within {seconds:.0f} s")

    def app(self) -> Any:
        desktop = self.atspi.Registry.getDesktop(0)
        return next((a for a in desktop if a is not None and a.name == APP_NAME), None)

    def window(self, role: Any, name_has: str = "") -> Any:
        """The app's shown window of `role` whose name holds `name_has`, if any."""
        app = self.app()
        if app is None:
            return None
        for window in app:
            if (
                window is not None
                and window.getRole() == role
                and name_has in window.name
                and window.getState().contains(self.atspi.STATE_SHOWING)
            ):
                return window
        return None

    def find(self, root: Any, role: Any, name: str = "") -> Any:
        atspi = self.atspi
        return atspi.utils.findDescendant(
            root, lambda a: a.getRole() == role and (not name or a.name == name)
        )

    def heard(self, accessible: Any) -> str:
        """The name a screen reader says: a combo box's label, then the name."""
        name = (accessible.name or "").strip()
        if accessible.getRole() != self.atspi.ROLE_COMBO_BOX:
            return name
        labels = [
            relation.getTarget(i).name
            for relation in accessible.getRelationSet()
            if relation.getRelationType() == self.atspi.RELATION_LABELLED_BY
            for i in range(relation.getNTargets())
        ]
        return " ".join([*labels, name]).strip() if labels else ""

    def describe(self, accessible: Any) -> str:
        if accessible is None:
            return "nothing"
        return f"{accessible.getRoleName()} {self.heard(accessible) or accessible.name!r}"

    def unnamed(self, root: Any) -> list[str]:
        """What is shown in `root`, takes the focus (or is a picture) and has no name."""
        atspi = self.atspi
        found = []
        stack = [root]
        while stack:
            accessible = stack.pop()
            if accessible is None:
                continue
            states = accessible.getState()
            if not states.contains(atspi.STATE_SHOWING):
                continue
            role = accessible.getRole()
            operable = states.contains(atspi.STATE_FOCUSABLE) or role in (
                atspi.ROLE_IMAGE,
                atspi.ROLE_TABLE_CELL,
                atspi.ROLE_TABLE_COLUMN_HEADER,
                atspi.ROLE_PUSH_BUTTON,
            )
            if operable and not self.heard(accessible):
                value = f", only its value {accessible.name!r}" if accessible.name else ""
                parent = accessible.parent
                where = f" in {self.describe(parent)}" if parent is not None else ""
                found.append(f"{accessible.getRoleName()} without a name{value}{where}")
            stack.extend(accessible)
        counted = {fault: found.count(fault) for fault in found}
        return [
            f"{fault} (\N{MULTIPLICATION SIGN}{n})" if n > 1 else fault
            for fault, n in counted.items()
        ]

    def press(self, keysym: int, modifiers: int = 0) -> Any:
        """Press a key (with `modifiers` held); the accessible that took the focus, if any."""
        registry, atspi = self.atspi.Registry, self.atspi
        self.focused.clear()
        if modifiers:
            registry.generateKeyboardEvent(modifiers, None, atspi.KEY_LOCKMODIFIERS)
        registry.generateKeyboardEvent(keysym, None, atspi.KEY_SYM)
        if modifiers:
            registry.generateKeyboardEvent(modifiers, None, atspi.KEY_UNLOCKMODIFIERS)
        end = time.monotonic() + EVENT_SECONDS
        while not self.focused and time.monotonic() < end:
            self.pump(0.05)
        self.pump(0.15)  # a focus may move on at once (into a compound control)
        return self.focused[-1] if self.focused else None

    def click(self, accessible: Any, dx: int, dy: int) -> Any:
        """Click `dx`, `dy` into `accessible`; the accessible that took the focus, if any."""
        extents = accessible.queryComponent().getExtents(self.atspi.DESKTOP_COORDS)
        self.focused.clear()
        self.atspi.Registry.generateMouseEvent(extents.x + dx, extents.y + dy, "b1c")
        end = time.monotonic() + EVENT_SECONDS
        while not self.focused and time.monotonic() < end:
            self.pump(0.05)
        self.pump(0.15)
        return self.focused[-1] if self.focused else None

    def do(self, accessible: Any, action: str = "Press") -> None:
        actions = accessible.queryAction()
        names = [actions.getName(i) for i in range(actions.nActions)]
        if action not in names:
            raise AssertionError(f"{self.describe(accessible)} offers {names}, not {action}")
        actions.doAction(names.index(action))


# The walk


class Walk:
    """Checks in order; each finding is kept, and said at the end."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.findings: list[str] = []

    def check(self, what: str, faults: list[str]) -> None:
        print(("ok    " if not faults else "FAIL  ") + what, flush=True)
        for fault in faults:
            print(f"        {fault}", flush=True)
        self.findings += [f"{what}: {fault}" for fault in faults]

    def run(self) -> None:
        reader, atspi = self.reader, self.reader.atspi
        dialog = reader.wait_for(
            "sign-in dialog", lambda: reader.window(atspi.ROLE_DIALOG, "Sign in"), 3 * START_SECONDS
        )
        reader.pump(0.5)
        self.check("the sign-in dialog names every control and its logo", reader.unnamed(dialog))
        reader.do(reader.find(dialog, atspi.ROLE_PUSH_BUTTON, "Sign In"))

        frame = reader.wait_for("main window", lambda: reader.window(atspi.ROLE_FRAME), 30)
        table = reader.wait_for("the first page's cards", lambda: self._filled_table(frame), 30)
        self.announced("the first page", "Page 1 of ")
        self.check("the main window names every control", reader.unnamed(frame))

        self.keyboard_in_the_table(frame, table)
        self.check("with a card in the details pane, every control is named", reader.unnamed(frame))
        self.tab_round(frame, table)
        self.next_page_is_announced(frame)
        self.preferences(frame, table)

    def _filled_table(self, frame: Any) -> Any:
        """The card table once it shows cards (not only its headings), else None."""
        table = self.reader.find(frame, self.reader.atspi.ROLE_TABLE)
        return table if table is not None and table.childCount > 20 else None

    def _in_table(self, accessible: Any, table: Any) -> bool:
        atspi = self.reader.atspi
        if accessible is None:
            return False
        role = accessible.getRole()
        return bool(
            role == atspi.ROLE_TABLE_CELL
            or (role == atspi.ROLE_TABLE and accessible.name == table.name)
        )

    def _focus_table(self, table: Any) -> None:
        focused = self.reader.click(table, 120, 40)  # the first row, below the heading
        if not self._in_table(focused, table):
            raise AssertionError(f"a click in the table focused {self.reader.describe(focused)}")

    def keyboard_in_the_table(self, frame: Any, table: Any) -> None:
        reader = self.reader
        faults = []
        for keys, (keysym, modifiers) in {
            "Tab": (TAB, 0),
            "Shift+Tab": (LEFT_TAB, 0),
            "Ctrl+Tab": (TAB, CONTROL),
            "Ctrl+Shift+Tab": (LEFT_TAB, CONTROL),
        }.items():
            self._focus_table(table)
            landed = reader.press(keysym, modifiers)
            if landed is None or self._in_table(landed, table):
                faults.append(f"{keys} keeps the focus in the table ({reader.describe(landed)})")
        self._focus_table(table)
        moved = reader.press(DOWN)
        if moved is None or moved.getRole() != reader.atspi.ROLE_TABLE_CELL:
            faults.append(f"Down does not move to the next row ({reader.describe(moved)})")
        self.check("Tab, Shift+Tab and Ctrl+Tab leave the table, Down moves in it", faults)

    def tab_round(self, frame: Any, table: Any) -> None:
        reader = self.reader
        self._focus_table(table)
        stops: list[Any] = []
        faults = []
        for _ in range(60):
            landed = reader.press(TAB)
            if landed is None:
                faults.append(
                    f"Tab after {reader.describe(stops[-1] if stops else table)} "
                    "moves the focus nowhere"
                )
                break
            if self._in_table(landed, table):
                break
            stops.append(landed)
        else:
            faults.append("Tab does not come back to the table within 60 presses")
        said = [reader.heard(stop) for stop in stops]
        faults += [
            f"Tab stops at {reader.describe(s)}, which has no name"
            for s in stops
            if not reader.heard(s)
        ]
        for wanted, where in (
            ("Card details", "the details pane"),
            ("Copy as JSON", "the details pane's copy buttons"),
            ("Page number", "the page bar"),
        ):
            if wanted not in said:
                faults.append(f"Tab from the table never reaches {where} ({wanted!r})")
        self.check("Tab goes round from the table: " + " → ".join(said), faults)

    def announced(self, what: str, start: str, seconds: float = 10) -> None:
        """Check that an announcement starting with `start` is heard within `seconds`."""
        reader = self.reader
        end = time.monotonic() + seconds
        while time.monotonic() < end and not any(s.startswith(start) for s in reader.announced):
            reader.pump(0.1)
        heard = [s for s in reader.announced if s.startswith(start)]
        fault = f"nothing like {start!r} is heard; heard {reader.announced}"
        self.check(f"{what} is announced: {heard[-1:]}", [] if heard else [fault])

    def next_page_is_announced(self, frame: Any) -> None:
        reader, atspi = self.reader, self.reader.atspi
        reader.announced.clear()
        reader.do(reader.find(frame, atspi.ROLE_PUSH_BUTTON, "Next page"))
        self.announced("the next page", "Page 2 of ")

    def preferences(self, frame: Any, table: Any) -> None:
        reader, atspi = self.reader, self.reader.atspi
        self._focus_table(table)
        reader.press(COMMA, CONTROL)
        dialog = reader.wait_for(
            "Preferences", lambda: reader.window(atspi.ROLE_DIALOG, "Preferences"), 10
        )
        reader.pump(0.5)
        self.check("Preferences name every control", reader.unnamed(dialog))
        reader.press(ESCAPE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--python",
        default=str(ROOT / ".venv" / "bin" / "python"),
        help="the Python that runs the app (default: the checkout's .venv)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the logs' folder")
    args = parser.parse_args(argv)
    python = Path(args.python).absolute()  # not resolved: a venv's python is a link
    if not python.exists():
        print(f"{python} not found: run `make setup` first", file=sys.stderr)
        return 2
    if importlib.util.find_spec("pyatspi") is None:  # imported once the buses are up
        print(
            f"pyatspi is missing from {sys.executable}; on Debian: apt-get install "
            f"{PACKAGES}, and run this with /usr/bin/python3",
            file=sys.stderr,
        )
        return 2
    folder = Path(tempfile.mkdtemp(prefix="cardviewer-a11y-"))
    desktop = Desktop(folder)
    try:
        start_desktop(desktop)
        app = start_app(desktop, str(python))
        walk = Walk(Reader(app, desktop))
        walk.run()
    except Unavailable as exc:
        print(f"The accessibility walk could not run: {exc}", file=sys.stderr)
        print(f"Logs: {folder}", file=sys.stderr)
        return 2
    except AssertionError as exc:
        print(f"FAIL  {exc}", file=sys.stderr)
        print(f"Logs: {folder}", file=sys.stderr)
        return 1
    finally:
        desktop.stop()
    if walk.findings:
        print(f"\n{len(walk.findings)} finding(s); logs: {folder}", file=sys.stderr)
        return 1
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    print("\nEvery check passed.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
