"""Saved games in SQLite or PostgreSQL: a row a game, and its moves as rows appended.

A game's row holds its session record as of some version, and beside it what lists and
statistics need without reading records: whose game it is, its label, level and daily
date, when it was made, and, updated with every save, whether it is solved (and whether
"solve all" was ever used), its time, when it was first solved and how many of its cells
hold a value. Each action that changes the game adds one row to ``entries``: what the
action changed (:mod:`numberplace.game.journal`), numbered by the game's version. Now and
then the record is written whole at the latest version and the rows before it go. So a
move costs a small insert however long the game, and the game is its record with its
entries applied.

Every write is one transaction, guarded by the version the writer read (``UPDATE ...
WHERE version = ?``): a server killed in the middle of a save leaves the previous save
whole, and of two servers (workers sharing one PostgreSQL database) writing the same game
from the same version one gets :class:`Conflict` and reads the game again. The daily
puzzles are kept in a table of their own, one a date. A database written before those
columns existed gains them when opened.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
import weakref
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import NumberplaceError
from ..game import journal
from ..store.database import Database, connect, is_url

#: Columns added to the games table since its first version, with their SQL types.
COLUMNS = (("player", "TEXT"), ("label", "TEXT"), ("level", "INTEGER"), ("daily", "TEXT"),
           ("created", "REAL"), ("solved", "INTEGER NOT NULL DEFAULT 0"),
           ("revealed", "INTEGER NOT NULL DEFAULT 0"), ("elapsed", "REAL"),
           ("solved_at", "REAL"), ("filled", "INTEGER"), ("cells", "INTEGER"),
           ("name", "TEXT"), ("version", "INTEGER NOT NULL DEFAULT 0"),
           ("base", "INTEGER NOT NULL DEFAULT 0"))
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, record TEXT NOT NULL,
    updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS entries (game TEXT NOT NULL, n INTEGER NOT NULL,
    delta TEXT NOT NULL, PRIMARY KEY (game, n));
CREATE TABLE IF NOT EXISTS daily (date TEXT PRIMARY KEY, puzzle TEXT NOT NULL,
    level INTEGER NOT NULL)
"""
#: Games a player's list holds at most.
LISTED = 100
#: Seconds between two folds of a SQLite store's write-ahead log into its file.
FOLD_SECONDS = 1.0


class StoreError(NumberplaceError):
    """The store could not read or write (a full disk, a locked or damaged file): the
    request is answered 503 and nothing it changed is kept."""


class Conflict(Exception):
    """The game was saved by another writer since it was read: read it again."""


def default_path() -> Path:
    """The database in the user's data folder (``$XDG_DATA_HOME/numberplace``, by default
    ``~/.local/share/numberplace``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return Path(base) / "numberplace" / "numberplace.db"


@dataclass(frozen=True)
class GameInfo:
    """What a game is, set when it is made: whose (None: nobody's yet), its label (the
    shape as offered, or an opened puzzle's family), its level and its daily date."""

    player: str | None = None
    label: str | None = None
    level: int | None = None
    daily: str | None = None


@dataclass(frozen=True)
class Progress:
    """Where a game stands, saved with each move: its shape's name, solved, "solve all"
    ever used, seconds played, cells holding a value, cells in all."""

    name: str
    solved: bool
    revealed: bool
    elapsed: float
    filled: int
    cells: int


@dataclass(frozen=True)
class Played:
    """One game of a player, as statistics count it."""

    label: str | None
    level: int | None
    daily: str | None
    solved: bool
    revealed: bool
    elapsed: float | None
    solved_at: float | None


@dataclass
class Stored:
    """A game as the store holds it: its record (entries applied), its version, the
    bytes its record and entries take, and how many entries follow the record."""

    record: dict[str, Any]
    version: int
    size: int
    entries: int
    #: the bytes of the record alone
    record_size: int


class GameStore:
    """Games by id, as the JSON of their session records and the entries after them: a
    SQLite file, ``":memory:"`` (tests) or a ``postgresql://`` URL (the bank-postgres
    extra), which several servers may share. Safe to call from several threads."""

    def __init__(self, path: str | os.PathLike[str] = ":memory:") -> None:
        self.path = str(path)
        first = connect(self.path, "the game database", StoreError)
        #: SQLite: one connection the threads take turns on (its writes take turns
        #: anyway); PostgreSQL: a connection a thread, so that one thread's round trips
        #: do not wait on another's
        self._shared = not is_url(self.path)
        self._lock: AbstractContextManager[Any] = (threading.Lock() if self._shared
                                                    else contextlib.nullcontext())
        self._first = first
        self._opened = [first]
        self._local = threading.local()
        self._local.db = first
        self._opening = threading.Lock()
        db = first
        try:
            with db.transaction("set up"):
                db.apply_schema(SCHEMA)
                have = db.columns("games")
                for name, kind in COLUMNS:
                    if name not in have:
                        db.execute(f"ALTER TABLE games ADD COLUMN {name} "
                                   f"{kind.replace('REAL', db.real_type)}")
                db.execute("CREATE INDEX IF NOT EXISTS games_by_player "
                           "ON games (player, updated)")
        except StoreError:
            db.close()
            raise
        if self._shared and self.path != ":memory:":
            # the write-ahead log is folded into the file by a thread of its own, not by
            # whichever move happens to fill it (a fold waits on the disk, and that move,
            # and every request behind the store's lock, would wait with it)
            db.execute("PRAGMA wal_autocheckpoint=0")
            # the thread holds the store weakly: it ends once the store is closed or gone
            threading.Thread(target=_fold, args=(weakref.ref(self), self.path), daemon=True,
                             name="numberplace-checkpoint").start()

    @property
    def _db(self) -> Database:
        """This thread's connection (see ``_shared``)."""
        if self._shared:
            return self._first
        db: Database | None = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = connect(self.path, "the game database", StoreError)
            with self._opening:
                self._opened.append(db)
        return db

    def _write(self, doing: str) -> Any:
        return self._db.transaction(doing)

    def save(self, game_id: str, record: dict[str, Any], progress: Progress | None = None,
             *, info: GameInfo | None = None, claim: str | None = None) -> int:
        """Store a game's record whole (a new game, or one read from an older store),
        replacing what was stored, in one transaction; the record's size in bytes.
        ``info`` is given when the game is made; ``claim`` makes a game that is nobody's
        yet that player's."""
        text = json.dumps(record, separators=(",", ":"))
        now = time.time()
        db = self._db
        with self._lock, self._write("save the game in"):
            db.execute("INSERT INTO games (id, record, updated, created) VALUES (?, ?, ?, ?) "
                       "ON CONFLICT (id) DO UPDATE SET record = excluded.record, "
                       "updated = excluded.updated, version = games.version + 1, "
                       "base = games.version + 1", (game_id, text, now, now))
            db.execute("DELETE FROM entries WHERE game = ?", (game_id,))
            if info is not None:
                db.execute("UPDATE games SET player = ?, label = ?, level = ?, daily = ? "
                           "WHERE id = ?", (info.player, info.label, info.level, info.daily,
                                            game_id))
            self._progress(game_id, progress, claim, now)
        return len(text)

    @staticmethod
    def _sets(progress: Progress | None, now: float, version: int | None
              ) -> tuple[str, list[object]]:
        """The SET of an update of where a game stands (and, with ``version``, of its
        move to the next version), and its parameters."""
        sets: list[str] = ["updated = ?"]
        params: list[object] = [now]
        if version is not None:
            sets.append("version = ?")
            params.append(version + 1)
        if progress is not None:
            sets.append("name = ?, solved = ?, revealed = ?, elapsed = ?, filled = ?, "
                        "cells = ?, solved_at = CASE WHEN solved_at IS NULL AND ? = 1 "
                        "THEN ? ELSE solved_at END")
            params += [progress.name, int(progress.solved), int(progress.revealed),
                       round(progress.elapsed, 1), progress.filled, progress.cells,
                       int(progress.solved), now]
        return ", ".join(sets), params

    def _progress(self, game_id: str, progress: Progress | None, claim: str | None,
                  now: float, version: int | None = None) -> int:
        """Set where a game stands (and, with ``version``, move it on from that version
        to the next); the rows changed: 0 when the game is not at ``version``."""
        sets, params = self._sets(progress, now, version)
        where, keys = (("id = ? AND version = ?", [game_id, version]) if version is not None
                       else ("id = ?", [game_id]))
        changed = int(self._db.execute(f"UPDATE games SET {sets} WHERE {where}",
                                       (*params, *keys)).rowcount)
        if claim is not None and changed:
            self._claim(game_id, claim)
        return changed

    def _claim(self, game_id: str, player: str) -> None:
        self._db.execute("UPDATE games SET player = ? WHERE id = ? AND player IS NULL",
                         (player, game_id))

    def append(self, game_id: str, version: int, change: dict[str, Any],
               progress: Progress | None = None, *, claim: str | None = None) -> int:
        """Add what an action changed to a game read at ``version``, which becomes
        ``version + 1``; the bytes added. :class:`Conflict` if the game is no longer at
        ``version`` (another server saved it since), and nothing is written."""
        text = json.dumps(change, separators=(",", ":"))
        now = time.time()
        db = self._db
        if db.atomic_statements:
            # one statement, its own transaction: the game moved on and its entry added,
            # or neither, in one round trip
            sets, params = self._sets(progress, now, version)
            with self._lock, db.reported("save the move in"):
                added = db.execute(
                    f"WITH moved AS (UPDATE games SET {sets} WHERE id = ? AND version = ? "
                    f"RETURNING id) INSERT INTO entries (game, n, delta) SELECT id, ?, ? "
                    f"FROM moved", (*params, game_id, version, version + 1, text)).rowcount
                if added != 1:
                    raise Conflict(game_id)
                if claim is not None:
                    self._claim(game_id, claim)
            return len(text)
        with self._lock, self._write("save the move in"):
            if self._progress(game_id, progress, claim, now, version) != 1:
                raise Conflict(game_id)
            db.execute("INSERT INTO entries (game, n, delta) VALUES (?, ?, ?)",
                       (game_id, version + 1, text))
        return len(text)

    def compact(self, game_id: str, version: int, record: dict[str, Any]) -> int | None:
        """Write a game's record whole as of ``version`` and let go of the entries it
        holds; its size in bytes, or None when the game has moved past ``version`` (its
        entries still hold everything)."""
        text = json.dumps(record, separators=(",", ":"))
        db = self._db
        with self._lock, self._write("save the game in"):
            if db.execute("UPDATE games SET record = ?, base = ? WHERE id = ? AND "
                          "version = ?", (text, version, game_id, version)).rowcount != 1:
                return None
            db.execute("DELETE FROM entries WHERE game = ? AND n <= ?", (game_id, version))
        return len(text)

    def version(self, game_id: str) -> int | None:
        """A game's version (one more with every save), or None when there is none."""
        with self._lock, self._db.reported("read the game from"):
            row = self._db.execute("SELECT version FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
        return None if row is None else int(row[0])

    def delete(self, game_id: str) -> bool:
        """Remove a game; False if there was none."""
        with self._lock, self._write("delete the game from"):
            self._db.execute("DELETE FROM entries WHERE game = ?", (game_id,))
            return bool(self._db.execute("DELETE FROM games WHERE id = ?",
                                         (game_id,)).rowcount > 0)

    def expire(self, idle_seconds: float) -> int:
        """Remove the games nobody has played for ``idle_seconds``; how many went."""
        before = time.time() - idle_seconds
        with self._lock, self._write("remove idle games from"):
            self._db.execute("DELETE FROM entries WHERE game IN (SELECT id FROM games "
                             "WHERE updated < ?)", (before,))
            return int(self._db.execute("DELETE FROM games WHERE updated < ?",
                                        (before,)).rowcount)

    def load(self, game_id: str) -> dict[str, Any] | None:
        """A game's record, or None."""
        found = self.stored(game_id)
        return found.record if found else None

    def stored(self, game_id: str) -> Stored | None:
        """A game's record with its entries applied, its version and size, or None."""
        db = self._db
        with self._lock, db.reported("read the game from"):
            # one snapshot of both tables: SQLite's read transaction, PostgreSQL's
            # repeatable read
            db.begin_read()
            try:
                row = db.execute("SELECT record, version, base FROM games WHERE id = ?",
                                 (game_id,)).fetchone()
                entries = [] if row is None else db.execute(
                    "SELECT delta FROM entries WHERE game = ? AND n > ? ORDER BY n",
                    (game_id, row[2])).fetchall()
            finally:
                db.execute("COMMIT")
        if row is None:
            return None
        text, version, _ = row
        record = json.loads(text)
        size = len(text)
        try:
            for (delta,) in entries:
                journal.apply(record, json.loads(delta))
                size += len(delta)
        except ValueError as exc:
            raise StoreError(f"the game {game_id} is damaged in the store: {exc}") from None
        return Stored(record, int(version), size, len(entries), len(text))

    def info(self, game_id: str) -> GameInfo | None:
        """What a game is (see :class:`GameInfo`), or None when there is no such game."""
        with self._lock, self._db.reported("read the game from"):
            row = self._db.execute("SELECT player, label, level, daily FROM games "
                                   "WHERE id = ?", (game_id,)).fetchone()
        return GameInfo(*row) if row else None

    def player_games(self, player: str, limit: int = LISTED) -> list[dict[str, Any]]:
        """A player's games, the most recently played first."""
        with self._lock, self._db.reported("list the games in"):
            rows = self._db.execute(
                "SELECT id, label, name, level, daily, created, updated, elapsed, solved, "
                "revealed, filled, cells FROM games WHERE player = ? "
                "ORDER BY updated DESC LIMIT ?", (player, limit)).fetchall()
        keys = ("id", "label", "name", "level", "daily", "created", "updated", "elapsed",
                "solved", "revealed", "filled", "cells")
        games = [dict(zip(keys, row, strict=True)) for row in rows]
        for game in games:
            game["solved"], game["revealed"] = bool(game["solved"]), bool(game["revealed"])
        return games

    def played(self, player: str) -> list[Played]:
        """Every game of a player, as statistics count it."""
        with self._lock, self._db.reported("count the games in"):
            rows = self._db.execute(
                "SELECT label, level, daily, solved, revealed, elapsed, solved_at "
                "FROM games WHERE player = ?", (player,)).fetchall()
        return [Played(label, level, daily, bool(solved), bool(revealed), elapsed, at)
                for label, level, daily, solved, revealed, elapsed, at in rows]

    def daily_game(self, player: str, date: str) -> str | None:
        """The id of a player's game of the daily puzzle of ``date`` (the most recently
        played if several), or None."""
        with self._lock, self._db.reported("find the daily game in"):
            row = self._db.execute("SELECT id FROM games WHERE player = ? AND daily = ? "
                                   "ORDER BY updated DESC LIMIT 1", (player, date)).fetchone()
        return row[0] if row else None

    def daily_puzzle(self, date: str) -> tuple[str, int] | None:
        """The daily puzzle of ``date`` (its text and level) if it was made already."""
        with self._lock, self._db.reported("read the daily puzzle from"):
            row = self._db.execute("SELECT puzzle, level FROM daily WHERE date = ?",
                                   (date,)).fetchone()
        return (row[0], int(row[1])) if row else None

    def keep_daily(self, date: str, puzzle: str, level: int) -> tuple[str, int]:
        """Keep the daily puzzle of ``date`` unless one is kept already; the one kept."""
        db = self._db
        with self._lock, db.reported("keep the daily puzzle in"):
            db.execute(db.insert_ignore("daily", ("date", "puzzle", "level"), "date"),
                       (date, puzzle, level))
            row = db.execute("SELECT puzzle, level FROM daily WHERE date = ?",
                             (date,)).fetchone()
        return row[0], int(row[1])

    def count(self) -> int:
        """How many games are stored."""
        with self._lock, self._db.reported("count the games in"):
            return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def close(self) -> None:
        """Close the database (every thread's connection)."""
        with self._lock, self._opening:
            for db in self._opened:
                db.close()
            self._opened.clear()


def _fold(store: weakref.ref[GameStore], path: str) -> None:
    """Fold a SQLite store's write-ahead log into its file every :data:`FOLD_SECONDS`,
    without blocking its writers, until the store is closed or gone. A connection is
    opened for each fold, so a store that is gone holds no file open."""
    while True:
        time.sleep(FOLD_SECONDS)
        alive = store()
        if alive is None or not alive._opened:
            return
        del alive
        with contextlib.suppress(sqlite3.Error):  # busy now, or gone: the next time
            # mode=rw: a file removed meanwhile is not made anew
            with contextlib.closing(sqlite3.connect(Path(path).resolve().as_uri() + "?mode=rw",
                                                    uri=True, isolation_level=None)) as own:
                own.execute("PRAGMA wal_checkpoint(PASSIVE)")
