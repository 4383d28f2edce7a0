"""`cardviewer sync` against the demo server: the window's copy, what changed, faults."""

from __future__ import annotations

import argparse
import asyncio
import csv
import dataclasses
import errno
import io
import re
import shutil
import sqlite3
import threading
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from cardviewer import cli, cli_sync, entry_point
from cardviewer.api import CardPage, Session
from cardviewer.api.errors import ServerError
from cardviewer.cli import PASSWORD_VARIABLE, ExitCode, main
from cardviewer.demo import Fault
from cardviewer.paths import store_dir
from cardviewer.services import page_patience, space_sync
from cardviewer.services.card_export import ExportFormat
from cardviewer.services.card_store import CardStore, store_path
from cardviewer.services.change_export import ChangesWritten
from cardviewer.services.session_store import SessionStore, StoredSession
from cardviewer.services.space_fetch import PageFetch
from cardviewer.services.stoppable import Stopped
from cardviewer.services.store_copies import Change
from cardviewer.services.store_schema import SCHEMA_VERSION, StoreError, StoreProblem
from cardviewer.services.store_sort_keys import text_key_for
from cardviewer.services.store_sync import SYNCED_MEANWHILE
from cardviewer.services.store_writer import CardWriter
from cardviewer.services.sync_lock import SyncLock, changes_job_path
from cardviewer.services.text_collation import system_collation
from tests.services.stores import cards, damage_table, generation_ids, synced


@pytest.fixture
def password(monkeypatch, demo_server):
    monkeypatch.setenv(PASSWORD_VARIABLE, demo_server.password)


WAIT_SECONDS = 10


def run(demo_server, *args: str, space: str | None = None) -> tuple[int, str]:
    err = io.StringIO()
    account = ["--server", demo_server.base_url, "--email", demo_server.email]
    code = cli_sync.main([*account, "--space", space or demo_server.space_id, *args], stderr=err)
    return code, err.getvalue()


def copy_of(demo_server, space: str | None = None) -> Path:
    """Where the window keeps the copy of the space for the demo account."""
    return store_path(
        store_dir(), demo_server.base_url, demo_server.email, space or demo_server.space_id
    )


def said(err: str, ending: str) -> bool:
    """`err` is the one summary line a sync ends with, ending with `ending`."""
    return (
        re.fullmatch(r"Synced 240 cards of space \S+ in \d+\.\d s; " + ending + "\n", err)
        is not None
    )


@pytest.mark.usefixtures("password")
def test_a_first_sync_writes_the_copy_the_window_browses(demo_server):
    code, err = run(demo_server, "--with-emails")
    assert code == ExitCode.OK, err
    assert said(err, re.escape("the first sync of this copy.")), err
    with CardStore.open(copy_of(demo_server)) as store:
        current = store.current
        assert current is not None
        assert (current.card_count, current.with_emails) == (240, True)
    with sqlite3.connect(copy_of(demo_server)) as db:
        (collation,) = db.execute("SELECT collation FROM generations").fetchone()
    assert collation == system_collation(), "ranked as the window sorts"
    assert copy_of(demo_server).stat().st_mode & 0o777 == 0o600


@pytest.mark.usefixtures("password")
def test_a_sync_without_the_e_mail_addresses_says_they_are_no_longer_in_the_copy(demo_server):
    """They count as a change only where both copies hold them: a nightly job left
    without --with-emails said "nothing changed", and they were gone."""
    assert run(demo_server, "--with-emails")[0] == ExitCode.OK
    code, err = run(demo_server)
    assert code == ExitCode.OK
    assert said(
        err,
        re.escape(
            "nothing changed since the last sync. The cards' e-mail addresses are no longer "
            "in the copy: give --with-emails to keep them."
        ),
    ), err
    code, err = run(demo_server, "--with-emails")
    assert said(
        err,
        re.escape(
            "nothing changed since the last sync. The cards' e-mail addresses are in the "
            "copy now; no card counts as changed for them."
        ),
    ), err


@pytest.mark.usefixtures("password")
def test_a_sync_ranks_as_the_copy_before_was_ranked(demo_server):
    """Ranked for the system's language, a nightly job's copy (cron sets no LANG) had
    the window rank every text anew at its first sort: 15 s at 100,000 cards."""
    assert run(demo_server)[0] == ExitCode.OK
    reader = "de_DE" if system_collation() != "de_DE" else "fr_FR"
    with CardStore.open(copy_of(demo_server)) as store:
        store.rank_texts(text_key_for(reader), reader, "display_name")  # a first sort by Name
    assert run(demo_server)[0] == ExitCode.OK
    with CardStore.open(copy_of(demo_server)) as store:
        assert store.ranked_under() == reader
        assert not store.needs_ranking(reader, "position"), "the window sorts it at once"


@pytest.mark.usefixtures("password")
def test_a_first_sync_stopped_as_it_reads_the_copy_s_ranking_leaves_no_copy(
    demo_server, monkeypatch
):
    """Stopped there (Ctrl+C, or a store that cannot be read), the store it had just
    made was neither closed nor taken away: the next run took it for a copy."""

    def unread(_store: CardStore) -> str | None:
        raise StoreError("The local copy could not be read.", StoreProblem.NOT_READ)

    monkeypatch.setattr(CardStore, "ranked_under", unread)
    code, err = run(demo_server)
    assert code == ExitCode.WRITE, err
    assert list(copy_of(demo_server).parent.glob("*")) == []


@pytest.mark.usefixtures("password")
def test_a_copy_damaged_where_its_ranking_is_kept_is_set_aside_and_made_anew(demo_server):
    """It ended in a traceback, at every run after."""
    assert run(demo_server)[0] == ExitCode.OK
    damage_table(copy_of(demo_server), "state")
    code, err = run(demo_server)
    assert code == ExitCode.WRITE, err
    assert "is damaged; it is set aside, and the next sync makes a new one" in err
    assert "Traceback" not in err
    assert list(copy_of(demo_server).parent.glob("*.damaged-*"))
    assert run(demo_server)[0] == ExitCode.OK


@pytest.mark.usefixtures("password")
def test_as_many_cards_added_as_removed_during_a_sync_keep_the_copy_before(
    demo_server, monkeypatch
):
    """`meta.total` stays as it was: the sync ended 0, with a card twice in the copy."""
    assert run(demo_server)[0] == ExitCode.OK
    space = demo_server.spaces[demo_server.space_id]
    fetch_of = cli.page_fetch

    def changing_after_page_1(*args: Any, **options: Any) -> PageFetch:
        fetch = fetch_of(*args, **options)

        async def changed(number: int) -> CardPage:
            page = await fetch(number)
            if number == 1:  # one card added at the front, the last one removed
                new = dataclasses.replace(space.cards[-1], uuid="new-card-1")
                changed = dataclasses.replace(space, cards=(new, *space.cards[:-1]))
                demo_server.spaces[demo_server.space_id] = changed
            return page

        return changed

    monkeypatch.setattr(cli_sync, "page_fetch", changing_after_page_1)
    code, err = run(demo_server, "--concurrency", "1")
    assert code == ExitCode.SERVER, err
    assert "The space changed while its cards were fetched" in err
    with CardStore.open(copy_of(demo_server)) as store:
        assert [card.uuid for card in store.cards()] == [card.uuid for card in space.cards]
        assert store.changes() is None, "still the first sync's copy"


def test_a_file_of_changes_that_cannot_be_written_is_said_before_the_sync(demo_server, tmp_path):
    """Said once the whole space was synced: 82 s for 100,000 cards."""
    target = tmp_path / "gone" / "changes.csv"
    code, err = run(demo_server, "--changes", str(target))
    assert code == ExitCode.WRITE, "with no password given, signing in would be refused"
    assert err == (
        f"{demo_server.space_id} was not synced: {target} cannot be written. The folder "
        "does not exist (any more); choose another folder.\n"
    )
    assert not copy_of(demo_server).exists()


@pytest.mark.usefixtures("password")
def test_a_second_sync_says_what_changed(demo_server):
    assert run(demo_server)[0] == ExitCode.OK
    code, err = run(demo_server)
    assert said(err, re.escape("nothing changed since the last sync.")), err

    space = demo_server.spaces[demo_server.space_id]
    first, second, *rest = space.cards
    renamed = dataclasses.replace(second, display_name="Zoë Renamed")
    demo_server.spaces[demo_server.space_id] = dataclasses.replace(
        space, cards=(renamed, *rest, dataclasses.replace(first, uuid="new-card-1"))
    )
    code, err = run(demo_server)
    assert code == ExitCode.OK
    assert said(err, "since the last sync: 1 added, 1 removed, 1 changed."), err
    assert len(generation_ids(copy_of(demo_server))) == 2, "the first copy dropped before the end"
    with CardStore.open(copy_of(demo_server)) as store:
        changes = store.changes()
    assert changes is not None
    assert (changes.added, changes.removed, changes.changed) == (
        ("new-card-1",),
        (first.uuid,),
        (second.uuid,),
    )


@pytest.mark.usefixtures("password")
def test_a_space_that_is_not_there_leaves_no_copy(demo_server):
    code, err = run(demo_server, space="nosuchspace")
    assert code == ExitCode.SERVER
    assert "This space was not found" in err
    assert err.endswith("\nNo local copy was made.\n"), "said after why"
    assert not copy_of(demo_server, "nosuchspace").exists()
    assert list(copy_of(demo_server).parent.glob("*")) == []


@pytest.mark.usefixtures("password")
def test_a_failed_sync_keeps_the_copy_before(demo_server):
    assert run(demo_server)[0] == ExitCode.OK
    demo_server.faults.inject(Fault.SERVICE_UNAVAILABLE, times=50)
    code, err = run(demo_server, "--concurrency", "1", "--changes", "changes.csv")
    assert code == ExitCode.SERVER, err
    assert err.endswith(
        "\nThe local copy stays as it was. changes.csv was not written; the next one will "
        "hold these changes.\n"
    ), "a job's log tells that the copy and its file are as the last run left them"
    with CardStore.open(copy_of(demo_server)) as store:
        assert store.current is not None
        assert store.current.card_count == 240


def test_a_failed_sign_in_says_the_file_of_changes_was_not_written(demo_server, monkeypatch):
    """Said after a failed sync, but not after a sign-in that failed (an ended saved
    session, a server not reached): a job's log was silent about the file."""
    monkeypatch.setenv(PASSWORD_VARIABLE, "not the password")
    code, err = run(demo_server, "--changes", "changes.csv")
    assert code == ExitCode.SIGN_IN
    assert err.endswith("\nchanges.csv was not written; the next one will hold these changes.\n")
    said = io.StringIO()
    nowhere = ["--server", "http://127.0.0.1:9", "--email", "a@example.com", "--space", "s"]
    code = cli_sync.main([*nowhere, "--changes", "changes.csv"], stderr=said)
    assert code == ExitCode.NETWORK
    assert said.getvalue().endswith(
        "\nchanges.csv was not written; the next one will hold these changes.\n"
    )


class FullDisk(io.StringIO):
    """Standard error on a full disk (`2>/dev/full`, a job's log with no room left)."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.usefixtures("password")
def test_standard_error_that_cannot_be_written_leaves_the_job_done(demo_server, tmp_path):
    """It ended with 1 at its first line, the copy synced, the file of changes not
    written, and nothing said anywhere."""
    account = ["--server", demo_server.base_url, "--email", demo_server.email]
    target = tmp_path / "changes.csv"
    command = [*account, "--space", demo_server.space_id, "--changes", str(target)]
    assert cli_sync.main(command, stderr=FullDisk()) == ExitCode.OK
    assert len(changes_in(target)) == 241
    export = [*account, "--space", demo_server.space_id, "--all", "-o", str(tmp_path / "a.csv")]
    assert main(export, stderr=FullDisk()) == ExitCode.OK
    assert (tmp_path / "a.csv").stat().st_size > 0


@pytest.mark.usefixtures("password")
def test_a_server_gone_for_a_moment_is_waited_for(demo_server, monkeypatch):
    """A server restarting for a second or two (every connection dropped meanwhile)
    stopped the sync, and every page it had fetched was lost."""
    monkeypatch.setattr(page_patience, "OUTAGE_PATIENCE", 60.0)
    monkeypatch.setattr(page_patience, "OUTAGE_WAITS", (0.2,))
    demo_server.faults.inject(Fault.DROP_CONNECTION, times=6)  # more than a request's tries
    code, err = run(demo_server)
    assert code == ExitCode.OK, err
    assert "page 1 failed (" in err
    assert "); trying it again in 0.2 s\n" in err, "a job's log tells of the wait"
    with CardStore.open(copy_of(demo_server)) as store:
        assert store.current is not None
        assert store.current.card_count == 240


@pytest.mark.usefixtures("password")
def test_a_wait_the_server_asks_for_is_the_sync_s_own_and_is_told(demo_server, monkeypatch):
    """The client waited out a 429's Retry-After three times itself: the job's log and
    progress said nothing meanwhile."""
    monkeypatch.setattr(page_patience, "OUTAGE_PATIENCE", 60.0)
    demo_server.faults.inject(Fault.RATE_LIMITED, target="cards", retry_after=1)
    code, err = run(demo_server)
    assert code == ExitCode.OK, err
    assert "page 1 failed (HTTP 429" in err
    assert "); trying it again in 1 s\n" in err


@pytest.mark.usefixtures("password")
def test_a_copy_written_by_a_newer_version_is_refused_untouched(demo_server):
    path = copy_of(demo_server)
    path.parent.mkdir(parents=True)
    with CardStore.open(path):
        pass
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    code, err = run(demo_server)
    assert code == ExitCode.WRITE
    assert err.startswith(f"{demo_server.space_id} could not be synced.")
    assert "newer version of CardViewer" in err
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


@pytest.mark.usefixtures("password")
def test_a_copy_that_cannot_be_written_says_the_file_of_changes_is_not_either(
    demo_server, tmp_path
):
    """A job's log said nothing of its file: written or not, up to date or not."""
    assert run(demo_server)[0] == ExitCode.OK
    with sqlite3.connect(copy_of(demo_server)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    target = tmp_path / "changes.csv"
    code, err = run(demo_server, "--changes", str(target))
    assert code == ExitCode.WRITE
    assert err.endswith(f"{target} was not written; the next one will hold these changes.\n")
    assert not target.exists()


def test_a_wrong_password_ends_with_its_exit_code(demo_server, monkeypatch):
    monkeypatch.setenv(PASSWORD_VARIABLE, "not the password")
    code, err = run(demo_server)
    assert code == ExitCode.SIGN_IN
    assert "password is not correct" in err
    assert not copy_of(demo_server).exists()


@pytest.mark.usefixtures("password")
def test_quiet_says_nothing_and_the_app_runs_the_command(demo_server, capsys):
    account = ["--server", demo_server.base_url, "--email", demo_server.email]
    code = entry_point.main(["sync", *account, "--space", demo_server.space_id, "--quiet"])
    assert code == ExitCode.OK
    assert capsys.readouterr().err == ""
    assert copy_of(demo_server).exists()


@pytest.mark.usefixtures("password")
def test_a_first_sync_interrupted_once_its_copy_is_current_keeps_it_and_says_so(
    demo_server, monkeypatch
):
    """Ctrl+C as what changed is worked out (1.5 s at 100,000 cards)."""

    def interrupted(_store: CardStore) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(CardStore, "changes", interrupted)
    code, err = run(demo_server)
    assert code == ExitCode.INTERRUPTED
    assert err.endswith("Interrupted; the local copy is up to date.\n")
    with CardStore.open(copy_of(demo_server)) as store:
        assert store.current is not None
        assert store.current.card_count == len(demo_server.spaces[demo_server.space_id].cards)


@pytest.mark.usefixtures("password")
@pytest.mark.parametrize("synced_before", [False, True, "unfinished"])
def test_a_sync_that_cannot_write_says_what_it_left(demo_server, monkeypatch, synced_before):
    """A space's first sync said that its local copy "stays as it was", twice: there
    was none. So did a sync after a first one that was killed (a store with no copy)."""
    if synced_before == "unfinished":
        copy_of(demo_server).parent.mkdir(parents=True, exist_ok=True)
        CardStore.open(copy_of(demo_server)).close()
    elif synced_before:
        assert run(demo_server)[0] == ExitCode.OK

    def full(_store: CardStore, **_options: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(CardStore, "begin_sync", full)
    code, err = run(demo_server)
    assert code == ExitCode.WRITE
    if synced_before is True:
        said = "The disk is full; the local copy of this space stays as it was."
    else:
        said = "The disk is full; no local copy of this space was made."
    assert err == f"{demo_server.space_id} could not be synced. {said}\n"
    assert copy_of(demo_server).exists() is (synced_before is True)


@pytest.mark.usefixtures("password")
@pytest.mark.parametrize("synced_before", [False, True])
def test_interrupted_before_the_copy_is_current_says_what_it_left(
    demo_server, monkeypatch, synced_before
):
    """Ctrl+C in a space's first sync said that its local copy "stays as it was"."""
    if synced_before:
        assert run(demo_server)[0] == ExitCode.OK

    def interrupted(_store: CardStore) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(CardStore, "ranked_under", interrupted)
    code, err = run(demo_server)
    assert code == ExitCode.INTERRUPTED
    left = "the local copy stays as it was." if synced_before else "no local copy was made."
    assert err == f"Interrupted; {left}\n"
    assert copy_of(demo_server).exists() is synced_before


def test_interrupted_while_signing_in_says_nothing_was_synced(demo_server, monkeypatch):
    """It said that the local copy "stays as it was" of a space never synced."""

    async def interrupted(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_sync, "signed_in", interrupted)
    code, err = run(demo_server)
    assert code == ExitCode.INTERRUPTED
    assert err == "Interrupted; nothing was synced.\n"


@pytest.mark.usefixtures("password")
def test_interrupted_as_the_copy_no_longer_needed_is_dropped_it_says_the_copy_is_current(
    demo_server, monkeypatch
):
    """Ctrl+C while the copy a third sync replaced is dropped (seconds at 100,000 cards)."""
    for _ in range(2):
        assert run(demo_server)[0] == ExitCode.OK
    kept = generation_ids(copy_of(demo_server))

    async def interrupted(writer: CardWriter) -> None:
        await writer.stop()
        raise KeyboardInterrupt

    monkeypatch.setattr(space_sync, "tidy", interrupted)
    code, err = run(demo_server)
    assert code == ExitCode.INTERRUPTED
    assert err.endswith("Interrupted; the local copy is up to date.\n")
    with CardStore.open(copy_of(demo_server)) as store:
        assert store.current is not None
        assert store.current.id not in kept
    assert kept[0] in generation_ids(copy_of(demo_server)), "left for the next sync"


@pytest.mark.usefixtures("password")
def test_a_folder_for_the_copies_that_cannot_be_made_is_said_with_its_exit_code(demo_server):
    """A file where the folder of the local copies should be was a traceback."""
    folder = store_dir(create=False)
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("not a folder")
    code, err = run(demo_server)
    assert code == ExitCode.WRITE
    assert err.startswith(f"{demo_server.space_id} could not be synced: the folder of its local")
    assert err.endswith("could not be made. A file is where a folder should be; move it away.\n")
    assert "Traceback" not in err


@pytest.mark.usefixtures("password")
def test_a_first_sync_that_fails_keeps_the_copy_a_window_made_meanwhile(demo_server, monkeypatch):
    """A first sync's store is deleted when it fails, unless another program used it."""

    async def failing(store: CardStore, *_args: object, **_options: object) -> None:
        with CardStore.open(store.path) as window:  # its Sync Space, finished meanwhile
            synced(window, cards("a", "b"))
        raise ServerError("The server failed; try again later.", 503)

    monkeypatch.setattr(cli_sync, "sync_space", failing)
    code, _err = run(demo_server)
    assert code == ExitCode.SERVER
    with CardStore.open(copy_of(demo_server)) as store:
        assert [card.uuid for card in store.cards()] == ["a", "b"]


@pytest.mark.usefixtures("password")
def test_a_sync_overtaken_by_another_program_s_writes_the_changes_from_its_copy(
    demo_server, monkeypatch, tmp_path
):
    """It ended with 6 and no file, of a copy as new as its own: a nightly job's
    monitoring fired, and last night's file stayed for the import."""

    async def overtaken(store: CardStore, *_args: object, **_options: object) -> None:
        with CardStore.open(store.path) as window:  # its Sync Space, begun later
            synced(window, cards("a", "b"))
        raise StoreError(SYNCED_MEANWHILE, StoreProblem.OVERTAKEN)

    monkeypatch.setattr(cli_sync, "sync_space", overtaken)
    target = tmp_path / "changes.csv"
    code, err = run(demo_server, "--changes", str(target))
    assert code == ExitCode.OK, err
    assert err.startswith(
        f"{demo_server.space_id}: another program (a window's Sync Space, another job) "
        "synced this space meanwhile; its copy, begun later, is kept and current.\n"
    )
    with target.open(encoding="utf-8-sig") as file:
        assert [row[:2] for row in csv.reader(file)][1:] == [["added", "a"], ["added", "b"]]
    code, err = run(demo_server, "--quiet")
    assert (code, err) == (ExitCode.OK, "")


@pytest.mark.usefixtures("password")
def test_a_sync_overtaken_by_one_with_other_e_mail_addresses_is_not_taken_for_done(
    demo_server, monkeypatch, tmp_path
):
    """A job with --with-emails, overtaken by a sync without them, wrote its file from
    that copy: no e-mail column (and the other way round, addresses a job left out)."""

    async def overtaken(store: CardStore, *_args: object, **_options: object) -> None:
        with CardStore.open(store.path) as window:  # no addresses asked for
            synced(window, cards("a", "b"))
        raise StoreError(SYNCED_MEANWHILE, StoreProblem.OVERTAKEN)

    monkeypatch.setattr(cli_sync, "sync_space", overtaken)
    target = tmp_path / "changes.csv"
    code, err = run(demo_server, "--with-emails", "--changes", str(target))
    assert code == ExitCode.WRITE, err
    assert f"could not be synced. {SYNCED_MEANWHILE}" in err
    assert err.endswith(f"{target} was not written; the next one will hold these changes.\n")
    assert not target.exists()


@pytest.mark.usefixtures("password")
def test_a_run_with_changes_overlapping_another_leaves_that_one_s_file_alone(demo_server, tmp_path):
    """Cron and a run by hand: the second wrote "nothing changed" over the first's file
    of 36 changes before the import read it, both with exit 0."""
    target = tmp_path / "changes.csv"
    assert run(demo_server, "--changes", str(target))[0] == ExitCode.OK
    first_file = target.read_bytes()
    synced_before = copy_of(demo_server).stat().st_mtime_ns
    running = SyncLock.take(changes_job_path(copy_of(demo_server)))  # another run, under way
    assert running is not None
    try:
        code, err = run(demo_server, "--changes", str(target))
    finally:
        running.release()
    assert code == ExitCode.WRITE
    assert err == (
        f"{demo_server.space_id} was not synced: another `cardviewer sync --changes` of "
        "this space is running; this one stopped so as not to take the changes from it. "
        "The next run will hold them.\n"
    )
    assert target.read_bytes() == first_file
    assert copy_of(demo_server).stat().st_mtime_ns == synced_before, "nothing synced"
    code, err = run(demo_server, "--changes", str(target), "--quiet")
    assert (code, err) == (ExitCode.OK, ""), "once it has ended"
    assert len(changes_in(target)) == 1, "nothing changed since the first file"


@pytest.mark.usefixtures("password")
def test_a_job_lock_that_cannot_be_made_is_said_as_that_not_as_the_folder(
    demo_server, tmp_path, monkeypatch
):
    """The folder is there (read-only, or its disk full): "the folder of its local copy
    could not be made" sent the job's owner looking for a folder that was there."""
    target = tmp_path / "changes.csv"
    assert run(demo_server, "--changes", str(target))[0] == ExitCode.OK
    first_file = target.read_bytes()
    lock = changes_job_path(copy_of(demo_server))

    def refused(path: Path) -> SyncLock | None:
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(SyncLock, "take", staticmethod(refused))
    code, err = run(demo_server, "--changes", str(target))
    assert code == ExitCode.WRITE
    assert err.startswith(
        f"{demo_server.space_id} was not synced: the file {lock}, which keeps a second "
        "`cardviewer sync --changes` of this space from running at once, could not be made. "
    )
    assert "folder of its local copy" not in err
    assert err.endswith(f"{target} was not written; the next one will hold these changes.\n")
    assert target.read_bytes() == first_file


def test_with_the_saved_session_a_session_ended_midway_stops_and_says_how(demo_server, monkeypatch):
    """A saved sign-in is used where there is no password; the sync signs in again only
    with one, and says how to give it one."""
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    session = Session.model_validate(demo_server.issue_token())
    SessionStore().save(
        StoredSession.from_session(demo_server.base_url, demo_server.email, session)
    )
    demo_server.faults.inject(Fault.REVOKED_TOKEN, target="cards")
    err = io.StringIO()
    code = cli_sync.main(["--space", demo_server.space_id], stderr=err)
    assert code == ExitCode.SIGN_IN
    assert f"To let the sync sign in again by itself, set {PASSWORD_VARIABLE}" in err.getvalue()
    assert not copy_of(demo_server).exists()


@pytest.mark.usefixtures("password")
def test_a_session_ended_midway_signs_in_again_and_goes_on(demo_server):
    demo_server.faults.inject(Fault.REVOKED_TOKEN, target="cards")
    code, err = run(demo_server)
    assert code == ExitCode.OK, err
    with CardStore.open(copy_of(demo_server)) as store:
        assert store.current is not None
        assert store.current.card_count == 240


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.usefixtures("password")
def test_at_a_terminal_it_shows_how_far_it_has_come(demo_server):
    err = Terminal()
    account = ["--server", demo_server.base_url, "--email", demo_server.email]
    assert cli_sync.main([*account, "--space", demo_server.space_id], stderr=err) == 0
    shown = err.getvalue()
    assert "\rPage 24 of 24, 240 cards" in shown
    assert "\rFinishing the local copy…" in shown
    assert shown.rstrip("\n").splitlines()[-1].startswith("Synced 240 cards")


def changes_in(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8-sig", newline="") as file:
        return list(csv.reader(file))


@pytest.mark.usefixtures("password")
def test_the_cards_a_sync_changed_go_to_a_file_for_a_crm(demo_server, tmp_path):
    target = tmp_path / "changes.csv"
    code, err = run(demo_server, "--changes", str(target), "--delimiter", ";")
    assert code == ExitCode.OK, err
    assert err.endswith(f"Wrote 240 cards to {target}, every card, the first file.\n")
    with target.open(encoding="utf-8-sig", newline="") as file:
        first = list(csv.reader(file, delimiter=";"))
    assert first[0][:3] == ["Change", "ID", "Avatar URL"]
    assert {row[0] for row in first[1:]} == {"added"}, "the first sync: every card is new"
    assert len(first) == 241

    space = demo_server.spaces[demo_server.space_id]
    one, two, *rest = space.cards
    renamed = dataclasses.replace(two, display_name="Zoë Renamed")
    demo_server.spaces[demo_server.space_id] = dataclasses.replace(
        space, cards=(renamed, *rest, dataclasses.replace(one, uuid="new-card-1"))
    )
    code, err = run(demo_server, "--changes", str(target), "--delimiter", ",")
    assert code == ExitCode.OK, err
    assert err.endswith(f"Wrote 3 cards to {target}, the changes since the last file.\n")
    rows = changes_in(target)
    name = rows[0].index("Name")
    assert [(row[0], row[1], row[name]) for row in rows[1:]] == [
        ("added", "new-card-1", one.display_name),
        ("removed", one.uuid, one.display_name),
        ("changed", two.uuid, "Zoë Renamed"),
    ]

    code, err = run(demo_server, "--changes", str(target), "-q")
    assert (code, err) == (ExitCode.OK, "")
    assert changes_in(target) == rows[:1], "nothing changed: the headings alone"


@pytest.mark.usefixtures("password")
def test_the_changes_go_to_a_workbook_too(demo_server, tmp_path):
    target = tmp_path / "changes.xlsx"
    code, err = run(demo_server, "--changes", str(target))
    assert code == ExitCode.OK, err
    sheet = openpyxl.load_workbook(target).active
    assert sheet is not None
    assert [cell.value for cell in sheet[1]][:2] == ["Change", "ID"]
    assert sheet.max_row == 241
    assert sheet.cell(2, 1).value == "added"


@pytest.mark.parametrize(
    ("args", "said_"),
    [
        (("--changes", "changes.pdf"), "--changes writes a CSV or Excel (.xlsx) file"),
        (("--changes", "-"), "--changes writes a file; give its name, not -"),
        (("--delimiter", ";"), "--delimiter is for the --changes file"),
        (("--changes", "c.xlsx", "--delimiter", ";"), "--delimiter is for CSV files"),
    ],
)
def test_a_changes_file_that_cannot_be_is_refused_before_signing_in(demo_server, args, said_):
    code, err = run(demo_server, *args)
    assert code == ExitCode.USAGE
    assert said_ in err
    assert not copy_of(demo_server).exists()


@pytest.mark.usefixtures("password")
def test_a_changes_file_that_cannot_be_written_leaves_the_copy_synced(
    demo_server, tmp_path, monkeypatch
):
    """Its folder there as the sync began, and gone by its end."""

    async def writable_at_first(_path: Path) -> None:
        return None

    monkeypatch.setattr(cli_sync, "can_write", writable_at_first)
    target = tmp_path / "no such folder" / "changes.csv"
    code, err = run(demo_server, "--changes", str(target))
    assert code == ExitCode.WRITE
    assert f"The local copy is up to date, but {target} could not be written:" in err
    with CardStore.open(copy_of(demo_server)) as store:
        assert store.current is not None


@pytest.mark.usefixtures("password")
def test_interrupted_while_the_changes_are_written_it_says_the_copy_is_synced(
    demo_server, tmp_path, monkeypatch
):
    def interrupted(*_args: object, **_options: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_sync, "write_changes_now", interrupted)
    target = tmp_path / "changes.csv"
    code, err = run(demo_server, "--changes", str(target))
    assert code == ExitCode.INTERRUPTED
    assert err.endswith(
        "Interrupted; the local copy is up to date, and the next --changes file will hold "
        "its changes.\n"
    )
    with CardStore.open(copy_of(demo_server)) as store:
        assert store.current is not None


@pytest.mark.usefixtures("password")
def test_a_file_of_changes_the_copy_could_not_note_is_said_and_repeated_next_time(
    demo_server, tmp_path, monkeypatch
):
    """Another program holding the store for longer than the wait, say."""

    def held(*_args: object, **_options: object) -> bool:
        raise sqlite3.OperationalError("database is locked")

    target = tmp_path / "changes.csv"
    with monkeypatch.context() as patched:
        patched.setattr(CardStore, "mark_changes_file", held)
        code, err = run(demo_server, "--changes", str(target))
    assert code == ExitCode.WRITE
    assert err.endswith(
        f"The local copy is up to date. {target} is written, but the local copy could not "
        "note it (database is locked); the next file will hold these changes again.\n"
    )
    first = changes_in(target)
    assert run(demo_server, "--changes", str(target))[0] == ExitCode.OK
    assert changes_in(target) == first, "every card added, again"


def interrupted_as_the_changes_are_noted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, noted: bool
) -> tuple[int, str]:
    """`_changes_written` called off (Ctrl+C, as asyncio.run delivers it) while the file
    of changes is written: its writing sees the stop, and the file is noted (`noted`)
    or not; the exit code, and what it said."""

    def write(*_args: object, stop: threading.Event, **_options: object) -> ChangesWritten:
        assert stop.wait(WAIT_SECONDS), "the interruption sets it"
        if not noted:
            raise Stopped("called off")
        return ChangesWritten({Change.ADDED: 3})

    monkeypatch.setattr(cli_sync, "write_changes_now", write)
    args = argparse.Namespace(
        changes=tmp_path / "changes.csv",
        changes_format=ExportFormat.CSV,
        delimiter=",",
        quiet=False,
    )
    err = io.StringIO()

    async def interrupted() -> int:
        waiting = asyncio.ensure_future(cli_sync._changes_written(args, tmp_path, err))
        await asyncio.sleep(0.05)
        waiting.cancel()
        return await waiting

    return asyncio.run(interrupted()), err.getvalue()


def test_ctrl_c_once_the_file_of_changes_is_noted_says_it_is_written(tmp_path, monkeypatch):
    """The interruption comes as the copy notes the file: the file is whole, and the
    next one will not hold its changes. Saying "interrupted" would have a job throw away
    the only file that holds them."""
    code, err = interrupted_as_the_changes_are_noted(tmp_path, monkeypatch, noted=True)
    assert code == ExitCode.OK
    assert err == f"Wrote 3 cards to {tmp_path / 'changes.csv'}, the changes since the last file.\n"


def test_ctrl_c_before_the_file_of_changes_is_noted_is_an_interruption(tmp_path, monkeypatch):
    with pytest.raises(asyncio.CancelledError):
        interrupted_as_the_changes_are_noted(tmp_path, monkeypatch, noted=False)


@pytest.mark.usefixtures("password")
def test_each_file_of_changes_takes_up_where_the_last_one_ended(demo_server, tmp_path):
    """A sync between two runs of the job (the window's), or a file that could not be
    written, leaves nothing out of the next file."""
    target = tmp_path / "changes.csv"
    assert run(demo_server, "--changes", str(target))[0] == ExitCode.OK
    space = demo_server.spaces[demo_server.space_id]
    one, two, *rest = space.cards
    renamed = dataclasses.replace(two, display_name="Zoë Renamed")
    demo_server.spaces[demo_server.space_id] = dataclasses.replace(
        space, cards=(one, renamed, *rest)
    )
    assert run(demo_server)[0] == ExitCode.OK  # a sync without a file, as the window's
    demo_server.spaces[demo_server.space_id] = dataclasses.replace(space, cards=(renamed, *rest))
    nowhere = tmp_path / "no such folder" / "changes.csv"
    assert run(demo_server, "--changes", str(nowhere))[0] == ExitCode.WRITE
    new = dataclasses.replace(one, uuid="new-card-1")
    demo_server.spaces[demo_server.space_id] = dataclasses.replace(
        space, cards=(renamed, *rest, new)
    )
    code, err = run(demo_server, "--changes", str(target))
    assert code == ExitCode.OK, err
    rows = changes_in(target)
    assert [(row[0], row[1]) for row in rows[1:]] == [
        ("added", "new-card-1"),
        ("removed", one.uuid),
        ("changed", two.uuid),
    ]
    assert run(demo_server, "--changes", str(target))[0] == ExitCode.OK
    assert changes_in(target) == rows[:1], "all of it was in the file before"


@pytest.mark.usefixtures("password")
def test_a_file_whose_copy_before_is_gone_says_so_even_when_quiet(demo_server, tmp_path):
    target = tmp_path / "changes.csv"
    assert run(demo_server, "--changes", str(target))[0] == ExitCode.OK
    assert run(demo_server)[0] == ExitCode.OK
    assert run(demo_server)[0] == ExitCode.OK  # the file's copy: neither current nor previous
    with sqlite3.connect(copy_of(demo_server)) as db:  # as an older CardViewer tidies up
        db.execute("PRAGMA foreign_keys = ON")
        db.execute(
            "DELETE FROM generations WHERE id NOT IN"
            " (SELECT value FROM state WHERE key IN ('current', 'previous'))"
        )
    db.close()
    code, err = run(demo_server, "--changes", str(target), "-q")
    assert code == ExitCode.OK
    assert err == lost_note(target)
    assert len(changes_in(target)) == 241


def lost_note(target: Path) -> str:
    return (
        f"{target} lists every card as added: the copy the last file of changes was "
        "written from is gone (an older CardViewer removed it, or it was damaged and set "
        "aside), so the cards removed since cannot be told.\n"
    )


@pytest.mark.usefixtures("password")
def test_a_file_after_a_damaged_copy_was_set_aside_says_so_even_when_quiet(demo_server, tmp_path):
    """The new copy had no file of changes before: it listed every card as added without
    a word, and the cards removed since the last file were in no file, ever."""
    target = tmp_path / "changes.csv"
    assert run(demo_server, "--changes", str(target))[0] == ExitCode.OK
    copy_of(demo_server).write_bytes(b"not a database at all" * 100)
    code, err = run(demo_server, "--changes", str(target), "-q")
    assert code == ExitCode.OK
    assert err.endswith(lost_note(target)), err
    assert len(changes_in(target)) == 241
    assert run(demo_server, "--changes", str(target), "-q") == (ExitCode.OK, "")
    assert changes_in(target) == changes_in(target)[:1], "nothing changed since"


@pytest.mark.usefixtures("password")
def test_a_file_after_the_copy_was_removed_says_so_even_when_quiet(demo_server, tmp_path):
    """Sign Out or Remove Local Copies in the window took the copy the last file was
    written from: the next file listed every card as added, and the cards removed since
    were in no file, without a word."""
    target = tmp_path / "changes.csv"
    assert run(demo_server, "--changes", str(target))[0] == ExitCode.OK
    shutil.rmtree(copy_of(demo_server).parent)  # as Remove Local Copies does
    code, err = run(demo_server, "--changes", str(target), "-q")
    assert code == ExitCode.OK
    assert err == (
        f"{target} lists every card as added: this local copy has no note of the file it "
        "replaces (the copy that was written from is gone: Sign Out or Remove Local "
        "Copies, say), so the cards removed since cannot be told.\n"
    )
    assert len(changes_in(target)) == 241
    assert run(demo_server, "--changes", str(target), "-q") == (ExitCode.OK, "")


@pytest.mark.usefixtures("password")
@pytest.mark.parametrize("with_changes_before", [False, True])
def test_a_copy_set_aside_is_said_lost_only_where_a_file_of_changes_came_from_it(
    demo_server, tmp_path, with_changes_before: bool
):
    """A job that never wrote a file of changes was told that the copy the last one was
    written from is gone. Where the copy set aside cannot be read to tell, it is said."""
    target = tmp_path / "changes.csv"
    first = ["--changes", str(target)] if with_changes_before else []
    assert run(demo_server, *first)[0] == ExitCode.OK
    with sqlite3.connect(copy_of(demo_server)) as db:  # no store's tables: set aside
        db.execute("DROP TABLE card_text")
    db.close()
    code, err = run(demo_server, "--changes", str(target), "-q")
    assert code == ExitCode.OK
    assert (lost_note(target) in err) is with_changes_before, err
    assert len(changes_in(target)) == 241


@pytest.mark.usefixtures("password")
def test_a_copy_found_damaged_as_the_changes_are_read_is_set_aside_and_said(
    demo_server, monkeypatch, tmp_path
):
    """Every later run said "the next file will hold them", and failed the same way."""
    changes = tmp_path / "changes.csv"
    assert run(demo_server, "--changes", str(changes))[0] == ExitCode.OK

    def malformed(*_args: object) -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")

    with monkeypatch.context() as patched:
        patched.setattr(CardStore, "extra_fields", malformed)
        code, err = run(demo_server, "--changes", str(changes))
    assert code == ExitCode.WRITE
    assert err.endswith(
        f"{changes} could not be written. The local copy of this space is damaged; it is "
        "set aside, and the next sync makes a new one. Its file will list every card as "
        "added.\n"
    ), err
    code, err = run(demo_server, "--changes", str(changes))
    assert code == ExitCode.OK, err
    assert f"{changes} lists every card as added" in err


@pytest.mark.usefixtures("password")
def test_entries_that_are_not_cards_are_said_even_when_quiet(demo_server, two_entries_not_cards):
    """A page with two entries that are not cards: the sync said only "Synced 238 cards;
    2 removed", and the copy lacked them without a word beyond a log line."""
    assert run(demo_server)[0] == ExitCode.OK
    two_entries_not_cards()
    code, err = run(demo_server, "--quiet")
    assert code == ExitCode.OK
    assert err.splitlines()[-1] == (
        "2 entries the server sent were not cards and were left out. Some of the cards "
        "counted as removed may be among them."
    ), err
