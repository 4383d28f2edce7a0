"""A local copy of a whole space, in SQLite, that a sync replaces in one step.

One database per server, account and space (`store_path`), readable by this user
only. A sync writes every card into a new *generation* (`store_sync`); only when the
last page is in does one transaction make it the current one, so a cancelled or failed
sync, a full disk or a killed process leave the copy before it whole and readable. The
generation before the current one is kept, so the app can say what changed
(`changes()`), and so is the one the last file of changes was written from: the copies
kept and the changes between them are `store_copies`.

`ordered()` sorts and filters 100,000 cards in SQLite without calling back into
Python, by the sort keys and ranks of `store_sort_keys`. A file written by a newer
CardViewer is refused (`store_schema`); a file that is not a database, or is damaged,
is set aside under another name and a new one started.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import logging
import os
import sqlite3
import sys
import time
from array import array
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

from cardviewer.api.address import canonical_server_url
from cardviewer.api.models import Card, parse_card
from cardviewer.paths import private_folder
from cardviewer.services.card_order import EMPTY, SORTED_KEYS
from cardviewer.services.csv_export import safe_file_stem
from cardviewer.services.store_copies import Change, StoreCopies, rows_in
from cardviewer.services.store_schema import (
    CHANGES_FILE_COPY,
    LAST_GENERATION,
    READ_ONLY_TEXT,
    Generation,
    StoreError,
    StoreProblem,
    connect_store,
    passing_problem,
    utc_now_text,
    write_transaction,
)
from cardviewer.services.store_search import (
    COUNT_WITHIN,
    WARM_ROWS,
    indexed_texts,
    indexed_words,
    matching_query,
    walk_is_quicker,
    warm_part,
)
from cardviewer.services.store_sort_keys import (
    FOLDED,
    TextKey,
    folded_text_key,
    index_sort_keys,
    rank_generation_texts,
)
from cardviewer.services.store_sync import (
    StoreSync,
    drop_ended_syncs,
    holds_only_ended_syncs,
    wait_as_a_sync,
)
from cardviewer.services.sync_lock import CHANGES_JOB_SUFFIX, SyncLock, lock_path

log = logging.getLogger(__name__)


def account_folder(folder: Path, server_url: str, email: str) -> Path:
    """The folder of one account's copies: a digest of the server and the account names it.

    Two accounts' copies stay apart without the e-mail address written into a name.
    """
    server = canonical_server_url(server_url)  # saved by an earlier version, say
    account = hashlib.sha256(f"{server}\n{email.strip().casefold()}".encode()).hexdigest()
    return folder / account[:16]


def store_path(folder: Path, server_url: str, email: str, space_id: str) -> Path:
    """The database of one space as one account on one server sees it (named by the space).

    A space id a file name cannot hold as it is (`team1.`, `a/b`) gets a digest of
    itself after its name: made safe alone, two ids (`team1.`, `team1`) would share
    one copy, each sync replacing the other space's cards.
    """
    stem = safe_file_stem(space_id)
    if stem != space_id:
        stem = f"{stem}-{hashlib.sha256(space_id.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"
    return account_folder(folder, server_url, email) / f"{stem}.sqlite"


def holds_copies(folder: Path) -> bool:
    """Whether `folder` (one account's, or all) holds a local copy to remove."""
    return folder.is_dir() and any(folder.rglob("*.sqlite"))


def remove_copies(folder: Path) -> int:
    """Delete every local copy under `folder` (one account's, or all); how many went.

    Files set aside as damaged go too. A file that cannot be deleted (in use on
    Windows) is logged and left; the rest still go.
    """
    removed = 0
    for path in sorted(folder.rglob("*.sqlite*")) if folder.is_dir() else ():
        if path.name.endswith(CHANGES_JOB_SUFFIX):
            job = SyncLock.take(path)  # a job's under way: removed, its lock is gone
            if job is not None:
                job.release()  # a job killed left it: it goes
            continue
        try:
            path.unlink()
        except OSError as error:
            log.warning("the local copy %s could not be removed: %s", path, error)
            continue
        removed += path.name.endswith(".sqlite")
    if folder.is_dir():
        for empty in [*sorted((p for p in folder.rglob("*") if p.is_dir()), reverse=True), folder]:
            with contextlib.suppress(OSError):  # not empty: something of the person's
                empty.rmdir()
    return removed


def set_aside(path: Path) -> None:
    """Rename a damaged store aside (`<name>.damaged-<time>`, SQLite's files with it), so
    that the next sync starts a new one; never deleted. A file another program holds
    open where that forbids renaming it (Windows) stays, and is logged."""
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    log.warning("the store %s is set aside as %s", path, aside)
    for suffix in ("", "-wal", "-shm"):
        try:
            Path(f"{path}{suffix}").rename(f"{aside}{suffix}")
        except FileNotFoundError:
            pass
        except OSError as error:
            log.warning("%s%s could not be set aside: %s", path, suffix, error)


def _set_aside_beside(path: Path) -> list[Path]:
    """The stores set aside as damaged where the one at `path` was (not SQLite's files)."""
    return [
        aside
        for aside in path.parent.glob(f"{glob.escape(path.name)}.damaged-*")
        if not aside.name.endswith(("-wal", "-shm"))
    ]


def _had_changes_file(aside: Path) -> bool:
    """Whether a file of changes was written from the store set aside at `aside`; where
    it cannot be read to tell, it may have been.

    Read as a file nothing changes (`immutable`), so that reading it makes no file
    beside it; what its write-ahead log holds would be missed that way, so a store
    with one may have had a file of changes."""
    if Path(f"{aside}-wal").exists():
        return True
    try:
        with contextlib.closing(sqlite3.connect(f"{aside.as_uri()}?immutable=1", uri=True)) as db:
            row = db.execute("SELECT 1 FROM state WHERE key = ?", (CHANGES_FILE_COPY,))
            return row.fetchone() is not None
    except sqlite3.Error:
        return True


def damaged(path: Path) -> StoreError:
    """The error of a store SQLite found damaged while it was used, once set aside."""
    set_aside(path)
    return StoreError(
        "The local copy of this space is damaged; it is set aside, and the next sync "
        "makes a new one.",
        StoreProblem.DAMAGED,
    )


def close_discarding_if_empty(store: CardStore) -> None:
    """Close `store`, and delete it (with SQLite's files beside it) where it holds no
    copy: a first sync that did not finish leaves no store behind, not even the rows a
    full disk kept it from dropping. Kept where another program (a window, the CLI) has
    made a copy in it meanwhile, or makes one."""
    try:
        unused = holds_only_ended_syncs(store._db, store.path)
    except sqlite3.Error as error:
        log.debug("whether the store %s is used is not known: %s", store.path, error)
        unused = False
    store.close()
    if unused:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{store.path}{suffix}").unlink(missing_ok=True)


def _packed_positions(query: str) -> str:
    """`query`'s positions as one text of 8 hex digits each, in the query's order.

    SQLite builds the text in C without holding Python's interpreter lock; a list built
    row by row would hold it for tens of milliseconds at 100,000 cards, and the window's
    thread, which needs the lock for every cell it paints, would wait meanwhile.
    """
    return f"SELECT group_concat(printf('%08x', position), '') FROM ({query})"


def _unpack_positions(packed: str | None) -> list[int]:
    positions = array("I", bytes.fromhex(packed or ""))
    if sys.byteorder == "little":
        positions.byteswap()  # the hex digits are big-endian
    return positions.tolist()


def _texts_hold(terms: Sequence[str], keys: str) -> str:
    """A condition: the search text of the card of the sort keys named `keys` holds every
    term (one `?` each)."""
    if not terms:
        return ""
    tests = "".join(" AND instr(c.text, ?) > 0" for _ in terms)
    return (
        f" AND EXISTS (SELECT 1 FROM card_text c WHERE c.generation = {keys}.generation"
        f" AND c.position = {keys}.position{tests})"
    )


def _holds_few(db: sqlite3.Connection, table: str, chosen: Generation) -> bool:
    """The temporary table of a change holds few of the copy's cards: looking each one's
    sort key up (2 to 3 µs) and testing its text is quicker than finding them as the whole
    copy's cards are found, through the trigram index or the copy's sort order."""
    (count,) = db.execute(f"SELECT count(*) FROM temp.{table}").fetchone()
    return int(count) * 20 < chosen.card_count


def _after(seconds: float) -> Callable[[], bool]:
    """True once `seconds` from now have passed."""
    deadline = time.perf_counter() + seconds
    return lambda: time.perf_counter() > deadline


class CardStore(StoreCopies):
    """The local copy of one space; open with `CardStore.open(path)`, close when done."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        self._changed_tables: set[str] = set()
        self._texts_counted: tuple[int, int] | None = None
        """The trigram index's texts, counted when the copy of that id was shown."""

    @classmethod
    def open(cls, path: Path, *, create: bool = True) -> CardStore:
        """Open (or create) the store at `path`; one that is not there only with
        `create` (a sync's), else `StoreError` (`GONE`): reading a copy that is gone
        must not leave an empty store in its place.

        Raises `StoreError` for a store written by a newer version, or one that cannot
        be used for now (another program holds it, the disk is full or fails): it is
        left as it is. A file that is no SQLite database, or a damaged one, is renamed
        aside (`<name>.damaged-<time>`) and a new store started, so the next sync
        rebuilds it; without `create`, it is set aside and `StoreError` (`DAMAGED`)
        raised: a copy opened to be read does not turn into an empty one.
        """
        if not create and not path.exists():
            raise StoreError(
                "The local copy of this space is gone from this computer; Sync Space "
                "makes a new one.",
                StoreProblem.GONE,
            )
        private_folder(path.parent)  # its parents too (the umask would open them)
        new = not path.exists()
        try:
            store = cls(connect_store(path, create=create), path)
        except sqlite3.DatabaseError as error:
            if passing_problem(error) is not None:
                raise _not_for_now(error, path) from error
            log.warning("the store %s cannot be read (%s)", path, error)
            if not create:  # a read leaves no empty store where the copy was
                raise damaged(path) from error
            set_aside(path)
            new = True
            try:
                store = cls(connect_store(path), path)
            except sqlite3.Error as error:  # a new store could not be started either
                raise _not_for_now(error, path) from error
        if new and any(map(_had_changes_file, _set_aside_beside(path))):
            store.note_changes_file_copy_lost()  # the file of changes must say so
        return store

    def close(self) -> None:
        self._db.close()

    def interrupt(self) -> None:
        """Stop the query running now, from any thread; it raises `sqlite3.OperationalError`."""
        self._db.interrupt()

    def keep_in_memory(self, cache_bytes: int) -> None:
        """Keep up to `cache_bytes` of what this connection reads lately in memory."""
        self._db.execute(f"PRAGMA cache_size = -{max(1, cache_bytes // 1024)}")

    def warm_for_search(
        self, start: int = 0, rows: int = WARM_ROWS, generation: Generation | None = None
    ) -> int | None:
        """Read `rows` more of what filters read in a copy (default: the current one),
        from `start`, so that it is in memory; where to go on from, or None after the
        last (`store_search.warm_part`)."""
        return warm_part(self._db, generation or self.current, start, rows)

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """Read the copy as it is at the first read, until the block ends.

        A long read goes block by block; without this, a sync made current between two
        blocks would give the later ones the cards of another copy.
        """
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            self._db.execute("COMMIT")

    def __enter__(self) -> CardStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # Reading the current copy

    def cards(self, generation: Generation | None = None) -> Iterator[Card]:
        """The cards of a copy (default: the current one), in the space's order."""
        chosen = generation or self.current
        if chosen is None:
            return
        rows = self._db.execute(
            "SELECT json FROM cards WHERE generation = ? ORDER BY position", (chosen.id,)
        )
        for (text,) in rows:
            yield parse_card(json.loads(text))

    def ordered(
        self,
        field: str | None,
        *,
        descending: bool = False,
        terms: Sequence[str] = (),
        text_key: TextKey = folded_text_key,
        collation: str = FOLDED,
        limit: int | None = None,
        walk: bool = False,
        change: Change | None = None,
        generation: Generation | None = None,
    ) -> list[int]:
        """Positions of the cards containing every folded term (`search_terms`), by `field`.

        The window's filter rule, run in SQLite over the folded texts: words of three
        characters or more through the trigram index, shorter ones by a scan (`instr`,
        so that `%` and `_` typed mean themselves). No terms match every card. With a
        `limit` and no word for the index, or with `walk`, the cards are taken in the
        order asked for and each one's text tested, until `limit` of them match.

        `change` keeps the cards the last sync added or changed (of the current copy), or
        removed (of the copy before it), as `changes()` counts them. Where they are few
        (`_holds_few`), only they are read: each one's text tested, its keys sorted.

        The window's sort rule (`card_order`), run in SQLite: by kind, then value, text
        by its rank under `collation` (ranked first through `text_key` if the copy was
        ranked under another one); empty values last either way; cards that compare
        equal in the space's order. `field` None keeps the space's order. With `limit`,
        only the first so many: an index serves them at once, whatever the space's size.

        Of the copy `generation` (default: the current one): a window keeps to the copy
        it shows while another program's sync makes a newer one current.
        """
        chosen = generation or self.current
        if chosen is None:
            return []
        table, few = self._change_cards(chosen, change)
        if change and table is None:
            return []  # no copy to compare with (or it is gone): nothing changed
        # A change's cards, where few, are tested one by one, not looked for in the index.
        walking = few or (limit is not None and (walk or not indexed_words(terms)))
        if field is None:
            changed = f" AND position IN (SELECT position FROM temp.{table})" if table else ""
            query, in_order = matching_query(chosen.id, terms, indexed=not walking)
            return self._positions(f"{query}{changed} ORDER BY position", in_order, limit)
        self.rank_texts(text_key, collation, field, chosen)
        # The generation as a literal: only then can SQLite use its partial index.
        number = int(chosen.id)
        k = ""  # how the sort keys' columns are named in the query
        base = f"SELECT position FROM sort_keys WHERE generation = {number} AND field = ?"
        values: list[object] = [field]
        if few:
            # Their keys are looked up and sorted, rather than the whole sort order walked.
            k = "k."
            base = (
                f"SELECT k.position FROM temp.{table} AS m CROSS JOIN sort_keys AS k "
                f"WHERE k.generation = {number} AND k.field = ? AND k.position = m.position"
            ) + _texts_hold(terms, "k")
            values.extend(terms)
        elif terms and walking:
            # Few rows wanted: walk the sort order and test each card's text, which stops
            # as soon as enough cards match.
            base += _texts_hold(terms, "sort_keys")
            values.extend(terms)
        elif indexed_words(terms):
            # The trigram index finds the matches at once: look up only their keys and
            # sort those, rather than walk the whole sort order testing each card.
            query, match_values = matching_query(chosen.id, terms)
            k = "k."
            base = (
                f"SELECT k.position FROM ({query}) AS m CROSS JOIN sort_keys AS k "
                f"WHERE k.generation = {number} AND k.field = ? AND k.position = m.position"
            )
            values = [*match_values, field]
        elif terms:
            query, match_values = matching_query(chosen.id, terms)
            base += f" AND position IN ({query})"
            values.extend(match_values)
        if table is not None and not few:
            base += f" AND {k}position IN (SELECT position FROM temp.{table})"
        if not descending:  # empty values have the highest kind: last already
            return self._positions(f"{base} ORDER BY {k}kind, {k}value, {k}position", values, limit)
        if k:
            # The matches are sorted apart anyway: one pass, empty values (kind and value
            # alike) last, equal ones in the space's order.
            return self._positions(
                f"{base} ORDER BY {k}kind = {EMPTY}, {k}kind DESC, {k}value DESC, {k}position",
                values,
                limit,
            )
        # Descending, but empty values still last and equal ones in the space's order;
        # in two passes, so that the sort keys' index serves each in its order.
        found = self._positions(
            f"{base} AND {k}kind < {EMPTY} ORDER BY {k}kind DESC, {k}value DESC, {k}position",
            values,
            limit,
        )
        if limit is not None and len(found) >= limit:
            return found
        rest = None if limit is None else limit - len(found)
        return found + self._positions(
            f"{base} AND {k}kind = {EMPTY} ORDER BY {k}position", values, rest
        )

    def first_ordered(
        self, field: str | None, *, within: float, limit: int | None = None, **options: Any
    ) -> list[int] | None:
        """`ordered(field, limit=…, **options)` if SQLite walks to them within `within`
        seconds, else None: the whole answer is as quick then.

        The first rows of a sort or filter usually come in a millisecond, walked to: the
        cards are taken in the order asked for, each one's text tested until `limit`
        match. A rare word sends the walk through much of the space; a word long enough
        for the trigram index is then looked up there whole at once, and None comes
        after counting its cards there (`walk_is_quicker`, at most `COUNT_WITHIN`). At
        100,000 cards, the first rows of "mar" (one card in seven) took 40 ms through
        the index sorted by Connects, 3 ms walked. None also comes when a newer query
        interrupts this one (`interrupt`).
        """
        chosen = options.get("generation") or self.current
        terms = options.get("terms", ())
        try:
            few = chosen is not None and self._change_cards(chosen, options.get("change"))[1]
            if limit is not None and chosen is not None and not few and indexed_words(terms):
                texts = self._indexed_texts(chosen)
                with self.given_up_when(_after(COUNT_WITHIN)):
                    common = walk_is_quicker(
                        self._db, terms, limit=limit, cards=chosen.card_count, texts=texts
                    )
                if not common:
                    return None
            with self.given_up_when(_after(within)):
                return self.ordered(field, limit=limit, walk=True, **options)
        except sqlite3.OperationalError as error:
            if "interrupted" not in str(error):
                raise
            return None

    @contextlib.contextmanager
    def given_up_when(self, stop: Callable[[], bool], every: int = 1000) -> Iterator[None]:
        """Statements run meanwhile stop ("interrupted") once `stop()` is true, asked
        every `every` steps of SQLite's, each time with Python's lock taken."""
        self._db.set_progress_handler(stop, every)
        try:
            yield
        finally:
            self._db.set_progress_handler(None, 0)

    def _change_cards(self, chosen: Generation, change: Change | None) -> tuple[str | None, bool]:
        """The temporary table of the cards of `chosen` that `change` picks (None: no
        change, or no copy to compare with), and whether they are few (`_holds_few`)."""
        table = self._changed_table(chosen.id, change) if change else None
        return table, table is not None and _holds_few(self._db, table, chosen)

    def _indexed_texts(self, chosen: Generation) -> int:
        """`indexed_texts`, counted again only once another copy is shown or current."""
        if self._texts_counted is None or self._texts_counted[0] != chosen.id:
            self._texts_counted = (chosen.id, indexed_texts(self._db))
        return self._texts_counted[1]

    def _positions(self, query: str, values: list[object], limit: int | None) -> list[int]:
        if limit is not None:
            rows = self._db.execute(f"{query} LIMIT ?", [*values, limit])
            return [row[0] for row in rows]
        (packed,) = self._db.execute(_packed_positions(query), values).fetchone()
        return _unpack_positions(packed)

    def cards_at(
        self, positions: Sequence[int], generation: Generation | None = None
    ) -> dict[int, Card]:
        """The cards of a copy (default: the current one) at these positions (as `ordered`
        gives them)."""
        chosen = generation or self.current
        if chosen is None or not positions:
            return {}
        rows = rows_in(
            self._db,
            "SELECT position, json FROM cards WHERE generation = ? AND position IN",
            chosen.id,
            positions,
        )
        return {position: parse_card(json.loads(text)) for position, text in rows}

    def ids_at(
        self, positions: Sequence[int], generation: Generation | None = None
    ) -> dict[int, str]:
        """The ids of the cards of a copy (default: the current one) at these positions, as
        stored (`positions_of` takes them so), read without the cards."""
        chosen = generation or self.current
        if chosen is None or not positions:
            return {}
        rows = rows_in(
            self._db,
            "SELECT position, uuid FROM cards WHERE generation = ? AND position IN",
            chosen.id,
            positions,
        )
        return {position: uuid for position, uuid in rows if uuid}  # "": a card with none

    def positions_of(
        self, ids: Collection[str], generation: Generation | None = None
    ) -> dict[str, int]:
        """Where the cards with these ids are in a copy (default: the current one), of
        those it holds.

        What finds the cards a person had chosen again in the copy a new sync made.
        """
        chosen = generation or self.current
        wanted = list(ids)
        if chosen is None or not wanted:
            return {}
        rows = rows_in(
            self._db,
            "SELECT uuid, position FROM cards INDEXED BY cards_by_uuid WHERE generation = ?"
            " AND uuid IN",
            chosen.id,
            wanted,
        )
        return dict(rows)

    def extra_fields(self, *copies: Generation | None) -> list[str]:
        """Fields the specification does not list that cards of `copies` have (none
        given: the current copy's; None is no copy).

        In the order they first appear in the space, and within a card in its own order,
        as a page's columns come (in a copy synced before version 5, those of one card
        by name); of several copies, the first one's, then those only a later one has.
        """
        fields: dict[str, None] = {}
        for copy in filter(None, copies or (self.current,)):
            rows = self._db.execute(
                "SELECT field FROM fields WHERE generation = ? AND field NOT IN "
                f"({','.join('?' * len(SORTED_KEYS))}) ORDER BY first_position, place, field",
                (copy.id, *SORTED_KEYS),
            )
            fields.update((row[0], None) for row in rows)
        return list(fields)

    def rank_texts(
        self, text_key: TextKey, collation: str, field: str, generation: Generation | None = None
    ) -> None:
        """Rank the texts of a copy's `field` (default: the current copy's) under
        `collation`, unless they already are.

        A sync ranks its copy under the collation it is given; this ranks a field again
        as it is sorted after the reader's language has changed: a second or a few at
        100,000 cards, where every field took 15 s. The sort indexes are kept up to date
        as it goes, or made if the copy has none yet (one migrated from version 1 or 2).
        """
        chosen = generation or self.current
        if chosen is None or not self._needs_ranking(chosen.id, collation, field):
            return
        with write_transaction(self._db):
            if not self._needs_ranking(chosen.id, collation, field):
                return  # ranked, or dropped, by another program meanwhile
            rank_generation_texts(self._db, chosen.id, text_key, collation, [field])
            index_sort_keys(self._db, chosen.id)

    def ranked_under(self) -> str | None:
        """The collation the current copy was last ranked under, as a whole by its sync
        or a field as it was sorted (None: no copy)."""
        current = self.current
        if current is None:
            return None
        row = self._db.execute(
            "SELECT collation FROM generations WHERE id = ?", (current.id,)
        ).fetchone()
        return row[0] if row is not None else None

    def needs_ranking(
        self, collation: str, field: str, generation: Generation | None = None
    ) -> bool:
        """A sort by `field` of the copy `generation` (default: the current one) must
        first rank the field's texts under `collation` (`rank_texts`): seconds for a
        large space."""
        chosen = generation or self.current
        return chosen is not None and self._needs_ranking(chosen.id, collation, field)

    # Writing a new copy

    def begin_sync(self, *, with_emails: bool = False) -> StoreSync:
        """A new generation to write into; it becomes current only at `StoreSync.finish()`.

        What syncs that ended unfinished wrote (stopped by a full disk, killed) is
        dropped first; a sync another program still writes is left to it (`sync_lock`).
        Its lock is taken before the transaction ends: no other sync beginning can take
        this one for ended. Seconds at 100,000 cards left behind: call it off the
        window's thread.
        """
        wait_as_a_sync(self._db)  # this store is the sync's from now on
        with write_transaction(self._db):
            drop_ended_syncs(self._db, self.path)
            number = self._next_generation()
            lock = SyncLock.take(lock_path(self.path, number))
            if lock is None:  # a sync of a store set aside under this name, say
                raise StoreError(
                    "The local copy of this space is in use by another program; try again.",
                    StoreProblem.IN_USE,
                )
            try:
                self._db.execute(
                    "INSERT INTO generations (id, started_at, with_emails) VALUES (?, ?, ?)",
                    (number, utc_now_text(), with_emails),
                )
                self._db.execute(
                    "INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                    (LAST_GENERATION, number),
                )
            except BaseException:
                lock.release()
                raise
        return StoreSync(self._db, number, with_emails=with_emails, lock=lock)

    def _next_generation(self) -> int:
        """A number no generation of this store had: ids are never used twice, so a
        sync's lock (`sync_lock`), and a later copy's larger number, name one sync."""
        (number,) = self._db.execute(
            "SELECT max(COALESCE((SELECT value FROM state WHERE key = ?), 0),"
            " COALESCE((SELECT max(id) FROM generations), 0)) + 1",
            (LAST_GENERATION,),
        ).fetchone()
        return int(number)

    # Inside

    def _needs_ranking(self, number: int, collation: str, field: str) -> bool:
        """The copy is there with its sort keys for `field`, ranked under another
        collation than `collation`. A copy newer syncs dropped (a window not yet showing
        the newest), or kept with its cards alone, has none to rank: sorting it finds no
        rows."""
        row = self._db.execute(
            "SELECT collation FROM fields WHERE generation = ? AND field = ?", (number, field)
        ).fetchone()
        return row is not None and row[0] != collation


_NOT_FOR_NOW = {
    StoreProblem.IN_USE: "The local copy of this space is in use by another program; try again.",
    StoreProblem.DISK_FULL: "The disk is full; the local copy of this space is left as it is.",
    StoreProblem.READ_ONLY: READ_ONLY_TEXT,
}


def _not_for_now(error: sqlite3.Error, path: Path) -> StoreError:
    """The store at `path` cannot be opened for now (`passing_problem`); the file stays
    as it is. SQLite says only that it cannot open a file in a folder that may not be
    changed (its journal is made beside it): that is told here."""
    problem = passing_problem(error) or StoreProblem.NOT_READ
    if problem is StoreProblem.NOT_READ and not _may_change(path):
        problem = StoreProblem.READ_ONLY
    text = _NOT_FOR_NOW.get(
        problem, f"The local copy of this space could not be read ({error}); it is left as it is."
    )
    return StoreError(text, problem)


def _may_change(path: Path) -> bool:
    """The store's folder, and its file if there, may be written (a read-only disk or
    permissions say no)."""
    return os.access(path.parent, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))
