"""The copy the window shows and offers is that of the space open, for the account
signed in, and one it can still read."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cardviewer.demo import Fault
from cardviewer.demo.data import DemoSpace, generate_cards
from cardviewer.services.card_store import CardStore
from cardviewer.services.space_sync import sync_space
from cardviewer.services.store_schema import SCHEMA_VERSION, StoreError, StoreProblem
from cardviewer.services.store_sync import SYNCED_MEANWHILE
from cardviewer.ui.cards.space_table_model import SpaceTableModel
from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.whole_space_view import PAGES, WHOLE_SPACE
from tests.services.stores import cards, synced
from tests.ui.test_whole_space_view import WAIT, open_space

OTHER = "otherSpace0000001"


@pytest.fixture
def window(demo_window: MainWindow) -> MainWindow:
    return demo_window


def sync(qtbot, window: MainWindow) -> None:
    """Sync Space, to its end and the end of its tidying (the file is left alone then)."""
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT):
        window.sync_action.trigger()
    qtbot.waitUntil(lambda: not window.jobs._tasks.running_names(), timeout=WAIT)


def failed_sync(qtbot, window: MainWindow) -> str:
    with qtbot.waitSignal(window.jobs.failed, timeout=WAIT) as failed:
        window.sync_action.trigger()
    message: str = failed.args[0]
    return message


def choose(window: MainWindow, choice: int) -> None:
    switch = window.whole_space.switch
    switch.setCurrentIndex(choice)
    switch.activated.emit(choice)


def shows_pages(window: MainWindow) -> bool:
    return window.whole_space.model is None and window.table.model() is window.proxy


def test_a_sync_ending_while_another_space_is_open_leaves_that_space_shown(
    window, demo_server, qtbot, monkeypatch
):
    """Its copy came into the table under the other space's name, to be exported as it."""
    from cardviewer.ui import export_all_dialog

    demo_server.spaces[OTHER] = DemoSpace(OTHER, "Other space", generate_cards(30, 3))
    go_on = asyncio.Event()

    async def held(*args: Any, **options: Any) -> Any:
        await go_on.wait()  # until the other space is open
        return await sync_space(*args, **options)

    monkeypatch.setattr(export_all_dialog, "sync_space", held)
    open_space(qtbot, window, demo_server.space_id)
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT) as finished:
        window.sync_action.trigger()
        open_space(qtbot, window, OTHER)
        assert window.jobs.fetching_whole_space, "the sync runs on"
        go_on.set()
    assert finished.args[0].request.space_id == demo_server.space_id
    assert shows_pages(window)
    assert window.model.current_request.space_id == OTHER
    assert OTHER in window.windowTitle()
    assert not window.whole_space.offers_copy, "the space open has no copy"
    assert window.status_bar.whole_message().startswith(
        f"Space {demo_server.space_id}: Synced 240 cards."
    )
    open_space(qtbot, window, demo_server.space_id)
    assert window.whole_space.offers_copy, "its own space offers it"


def test_a_sync_of_the_space_open_shows_its_copy_and_says_no_space(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    assert isinstance(window.table.model(), SpaceTableModel)
    assert window.status_bar.whole_message().startswith("Synced 240 cards.")


def end_session(qtbot, window: MainWindow, demo_server) -> None:
    demo_server.faults.inject(Fault.REVOKED_TOKEN)
    with qtbot.waitSignal(window.signInRequested, timeout=WAIT):
        window.refresh_action.trigger()


def test_another_account_signed_in_over_the_window_goes_back_to_the_pages(
    window, demo_server, qtbot
):
    """The account before's copy stayed on screen, to be exported, with the switch gone."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    end_session(qtbot, window, demo_server)
    assert window.whole_space.model is not None, "the session's end keeps what is shown"
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.signed_in_again("someone.else@example.com", demo_server.base_url)
    assert shows_pages(window)
    assert not window.whole_space.offers_copy, "that account has no copy of the space"
    assert not window.whole_space.switch.isVisible()

    end_session(qtbot, window, demo_server)
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.signed_in_again(demo_server.email, demo_server.base_url)
    assert window.whole_space.offers_copy, "back as the account that synced it"


def test_another_account_signed_in_does_not_open_the_copy_of_the_account_before(
    window, demo_server, qtbot, monkeypatch
):
    """It was opened once more on the window's thread, only to be offered and replaced."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    before = copy_path(window, demo_server)
    end_session(qtbot, window, demo_server)
    opened: list[Path] = []
    real_open = CardStore.open

    def counted(path: Path, **options: Any) -> CardStore:
        opened.append(Path(path))
        return real_open(path, **options)

    monkeypatch.setattr(CardStore, "open", staticmethod(counted))
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.signed_in_again("someone.else@example.com", demo_server.base_url)
    assert shows_pages(window)
    assert before not in opened


def test_the_same_account_signed_in_again_keeps_the_whole_space_shown(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    shown = window.whole_space.model
    end_session(qtbot, window, demo_server)
    window.signed_in_again(demo_server.email, demo_server.base_url)
    assert window.whole_space.model is shown


def damage(path: Path) -> None:
    """Overwrite two stretches inside the file, its header left: SQLite finds it as it
    reads them, not as it opens the file."""
    size = path.stat().st_size
    with path.open("r+b") as file:
        for place in (size // 2, size // 4):
            file.seek(place)
            file.write(os.urandom(65536))


def copy_path(window: MainWindow, demo_server) -> Path:
    path = window.whole_space.store_path(demo_server.space_id)
    assert path is not None
    return path


def test_a_copy_a_sync_set_aside_as_damaged_is_offered_no_more(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    choose(window, PAGES)
    damage(copy_path(window, demo_server))
    assert "damaged; it is set aside" in failed_sync(qtbot, window)
    assert not window.whole_space.offers_copy, "set aside: there is none to choose"
    assert not window.whole_space.switch.isVisible()


def test_a_copy_found_damaged_when_chosen_is_offered_no_more(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    choose(window, PAGES)
    path = copy_path(window, demo_server)
    with path.open("r+b") as file:
        file.write(os.urandom(8192))
    choose(window, WHOLE_SPACE)
    assert "damaged; it is set aside" in window.error_bar.text_label.text()
    assert shows_pages(window)
    assert not window.whole_space.offers_copy
    assert window.whole_space.switch.currentIndex() == PAGES


def as_newer(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")


def test_a_copy_a_sync_refuses_as_newer_is_shown_no_more_and_the_sync_before_not_said(
    window, demo_server, qtbot
):
    """The table went on showing it, every command working on it, under "Synced 240
    cards." of the sync before."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    as_newer(copy_path(window, demo_server))
    assert "newer version of CardViewer" in failed_sync(qtbot, window)
    assert shows_pages(window)
    assert not window.whole_space.offers_copy
    assert "newer version of CardViewer" in window.error_bar.text_label.text(), "it stays"
    assert window.status_bar.whole_message() == ""


def test_a_copy_refused_as_newer_when_chosen_is_offered_no_more(window, demo_server, qtbot):
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    choose(window, PAGES)
    as_newer(copy_path(window, demo_server))
    choose(window, WHOLE_SPACE)
    assert "newer version of CardViewer" in window.error_bar.text_label.text()
    assert not window.whole_space.offers_copy, "said now, not gone later without a word"


def test_a_copy_another_program_holds_stays_offered(window, demo_server, qtbot, monkeypatch):
    from cardviewer.services import store_schema

    monkeypatch.setattr(store_schema, "BUSY_TIMEOUT_MS", 50)
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    choose(window, PAGES)
    other = sqlite3.connect(copy_path(window, demo_server), isolation_level=None)
    try:
        other.execute("PRAGMA locking_mode = EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        other.execute("INSERT INTO state (key, value) VALUES ('other program', 1)")
        choose(window, WHOLE_SPACE)
        assert "in use by another program" in window.error_bar.text_label.text()
        assert window.whole_space.offers_copy, "it opens once the other program is done"
    finally:
        other.close()


def test_a_sync_another_program_overtook_shows_its_copy_as_this_sync_s(
    window, demo_server, qtbot, monkeypatch
):
    """The window said "could not be synced" and stayed on the pages, of a copy as new
    as its own would have been (a scheduled `cardviewer sync`, begun later, first)."""
    from cardviewer.ui import export_all_dialog

    async def overtaken(store: CardStore, *_args: object, **_options: object) -> None:
        with CardStore.open(store.path) as other:
            synced(other, cards("a", "b"))
        raise StoreError(SYNCED_MEANWHILE, StoreProblem.OVERTAKEN)

    monkeypatch.setattr(export_all_dialog, "sync_space", overtaken)
    open_space(qtbot, window, demo_server.space_id)
    with qtbot.waitSignal(window.jobs.finished, timeout=WAIT):
        window.sync_action.trigger()
    shown = window.whole_space.model
    assert shown is not None
    assert [shown.card(row).uuid for row in range(shown.rowCount())] == ["a", "b"]
    assert window.error_bar.isHidden()
    assert window.status_bar.whole_message() == "Synced 2 cards. This is the first sync."


def test_a_job_failing_on_a_copy_removed_meanwhile_leaves_it_shown(
    window, demo_server, qtbot, tmp_path
):
    """As faults.md has it: the copy shown stays until the pages are chosen; only a copy
    a sync refused goes at once."""
    open_space(qtbot, window, demo_server.space_id)
    sync(qtbot, window)
    path = copy_path(window, demo_server)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    target = tmp_path / "cards.csv"
    window.ask_export_path = lambda _suggested, title="": target
    with qtbot.waitSignal(window.jobs.failed, timeout=WAIT):
        window.export_action.trigger()
    assert window.whole_space.model is not None
    assert window.whole_space.offers_copy
