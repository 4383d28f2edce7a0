"""Sign-in → first page painted, against a raw httpx script doing the same two requests.

Both run in this process, on the same qasync loop, against the demo server with 50 ms of
latency per answer. The app's path starts when "Sign in" is pressed in the dialog and
ends when the card table has painted the first page; the baseline logs in and fetches
page 1 with a fresh `httpx.AsyncClient` and decodes the JSON.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.common import DemoProcess

from bench.common import DemoProcess, Result, median, report, run_in_qt

LATENCY = 0.050
TARGET = 1.15


async def raw_httpx(server: DemoProcess) -> float:
    import httpx

    started = time.perf_counter()
    async with httpx.AsyncClient(base_url=server.base_url) as client:
        login = await client.post(
            "/v1/auth/login",
            json={"email": server.email, "password": server.password},
            headers={"Accept": "application/json"},
        )
        token = login.json()["access_token"]
        page = await client.get(
            f"/v1/spaces/{server.space_id}/cards",
            params={"page": 1},
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
        )
        assert len(page.json()["data"]) == 10
    return (time.perf_counter() - started) * 1000


async def app_path(server: DemoProcess) -> float:
    from PySide6.QtCore import QEvent, QObject

    from cardviewer.controller import AppController
    from cardviewer.services.settings import Settings

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings.load(Path(folder) / "settings.json")
        settings.last_server, settings.last_email = server.base_url, server.email
        settings.last_space = server.space_id
        controller = AppController(settings, None)
        run = asyncio.ensure_future(controller.run())
        # The dialog is created inside the controller's coroutine; poll until it shows.
        while controller.login_dialog is None or not controller.login_dialog.isVisible():  # noqa: ASYNC110
            await asyncio.sleep(0.005)
        painted: asyncio.Future[float] = asyncio.get_running_loop().create_future()

        class PaintWatcher(QObject):
            def eventFilter(self, watched: QObject, event: QEvent) -> bool:
                window = controller.window
                if (
                    event.type() == QEvent.Type.Paint
                    and window is not None
                    and window.model.rowCount() > 0
                    and not painted.done()
                ):
                    painted.set_result(time.perf_counter())
                return False

        # The watcher sits on the table alone: on the whole application it would be
        # called for each of the 2,000-odd events of building the main window, and
        # PySide would make a Python object for every receiver it had not seen yet.
        # The window is there long before the page is (one round trip of 50 ms).
        watcher = PaintWatcher()
        controller.login_dialog.password_edit.setText(server.password)
        started = time.perf_counter()
        controller.login_dialog.submit()
        while controller.window is None:  # noqa: ASYNC110
            await asyncio.sleep(0.005)
        viewport = controller.window.table.viewport()
        assert controller.window.model.rowCount() == 0, "the page came before the window"
        viewport.installEventFilter(watcher)
        try:
            finished = await asyncio.wait_for(painted, 10)
        finally:
            viewport.removeEventFilter(watcher)
        assert controller.window is not None
        controller.window.close()
        await run
    return (finished - started) * 1000


def measure(runs: int = 15) -> Result:
    async def main() -> tuple[list[float], list[float]]:
        app: list[float] = []
        raw: list[float] = []
        with DemoProcess(cards=240, latency_ms=LATENCY * 1000) as server:
            await app_path(server)  # warm up imports and caches
            await raw_httpx(server)
            for _ in range(runs):
                raw.append(await raw_httpx(server))
                app.append(await app_path(server))
        return app, raw

    app, raw = run_in_qt(main)
    measured, baseline = median(app), median(raw)
    return Result(
        f"sign-in → first page painted ({LATENCY * 1000:.0f} ms latency)",
        measured,
        baseline,
        "ms",
        f"≤ {TARGET}x raw httpx",
        measured <= TARGET * baseline,
    )


if __name__ == "__main__":
    report([measure()])
