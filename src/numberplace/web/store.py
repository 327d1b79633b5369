"""Saved games in SQLite: one row a game, written in a transaction, so a server killed in
the middle of a save leaves the previous save whole.

Beside its session record a game's row keeps what lists and statistics need without
reading records: whose game it is, its label, level and daily date, when it was made,
and, updated with every save, whether it is solved (and whether "solve all" was ever
used), its time, when it was first solved and how many of its cells hold a value. The
daily puzzles are kept in a table of their own, one a date. A database written before
those columns existed gains them when opened.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..atomic import make_folder_for
from ..errors import NumberplaceError

#: Columns added to the games table since its first version, with their SQL types.
COLUMNS = (("player", "TEXT"), ("label", "TEXT"), ("level", "INTEGER"), ("daily", "TEXT"),
           ("created", "REAL"), ("solved", "INTEGER NOT NULL DEFAULT 0"),
           ("revealed", "INTEGER NOT NULL DEFAULT 0"), ("elapsed", "REAL"),
           ("solved_at", "REAL"), ("filled", "INTEGER"), ("cells", "INTEGER"),
           ("name", "TEXT"))
#: Games a player's list holds at most.
LISTED = 100


class StoreError(NumberplaceError):
    """The store could not read or write (a full disk, a locked or damaged file): the
    request is answered 503 and nothing it changed is kept."""


@contextlib.contextmanager
def _reported(doing: str) -> Iterator[None]:
    try:
        yield
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(f"the game store could not {doing}: {exc}") from None


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


class GameStore:
    """Games by id, as the JSON of their session records. ``":memory:"`` keeps them in
    memory only (tests)."""

    def __init__(self, path: str | os.PathLike[str] = ":memory:") -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":
                make_folder_for(self.path)
            self._db = sqlite3.connect(self.path, check_same_thread=False,
                                       isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, "
                             "record TEXT NOT NULL, updated REAL NOT NULL)")
            have = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            for name, kind in COLUMNS:
                if name not in have:
                    self._db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
            self._db.execute("CREATE INDEX IF NOT EXISTS games_by_player "
                             "ON games (player, updated)")
            self._db.execute("CREATE TABLE IF NOT EXISTS daily (date TEXT PRIMARY KEY, "
                             "puzzle TEXT NOT NULL, level INTEGER NOT NULL)")
        except (OSError, sqlite3.Error) as exc:
            raise NumberplaceError(f"cannot open the game database {self.path}: {exc}") \
                from None
        self._lock = threading.Lock()

    def save(self, game_id: str, record: dict[str, Any], progress: Progress | None = None,
             *, info: GameInfo | None = None, claim: str | None = None) -> int:
        """Store a game's record, replacing its previous one, with where it stands, in one
        transaction; the record's size in bytes. ``info`` is given when the game is made;
        ``claim`` makes a game that is nobody's yet that player's."""
        text = json.dumps(record, separators=(",", ":"))
        now = time.time()
        with self._lock, _reported("save the game"):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO games (id, record, updated, created) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (id) DO UPDATE SET record = excluded.record, "
                    "updated = excluded.updated", (game_id, text, now, now))
                if info is not None:
                    self._db.execute(
                        "UPDATE games SET player = ?, label = ?, level = ?, daily = ? "
                        "WHERE id = ?",
                        (info.player, info.label, info.level, info.daily, game_id))
                if claim is not None:
                    self._db.execute("UPDATE games SET player = ? WHERE id = ? AND "
                                     "player IS NULL", (claim, game_id))
                if progress is not None:
                    self._db.execute(
                        "UPDATE games SET name = ?, solved = ?, revealed = ?, elapsed = ?, "
                        "filled = ?, cells = ?, solved_at = CASE WHEN solved_at IS NULL "
                        "AND ? THEN ? ELSE solved_at END WHERE id = ?",
                        (progress.name, int(progress.solved), int(progress.revealed),
                         round(progress.elapsed, 1), progress.filled, progress.cells,
                         int(progress.solved), now, game_id))
                self._db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):  # the first error is the one to say
                    self._db.execute("ROLLBACK")
                raise
        return len(text)

    def delete(self, game_id: str) -> bool:
        """Remove a game; False if there was none."""
        with self._lock, _reported("delete the game"):
            return self._db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount > 0

    def expire(self, idle_seconds: float) -> int:
        """Remove the games nobody has played for ``idle_seconds``; how many went."""
        with self._lock, _reported("remove idle games"):
            return self._db.execute("DELETE FROM games WHERE updated < ?",
                                    (time.time() - idle_seconds,)).rowcount

    def load(self, game_id: str) -> dict[str, Any] | None:
        """A game's record, or None."""
        found = self.load_sized(game_id)
        return found[0] if found else None

    def load_sized(self, game_id: str) -> tuple[dict[str, Any], int] | None:
        """A game's record and its size in bytes, or None."""
        with self._lock, _reported("read the game"):
            row = self._db.execute("SELECT record FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
        return (json.loads(row[0]), len(row[0])) if row else None

    def info(self, game_id: str) -> GameInfo | None:
        """What a game is (see :class:`GameInfo`), or None when there is no such game."""
        with self._lock, _reported("read the game"):
            row = self._db.execute("SELECT player, label, level, daily FROM games "
                                   "WHERE id = ?", (game_id,)).fetchone()
        return GameInfo(*row) if row else None

    def player_games(self, player: str, limit: int = LISTED) -> list[dict[str, Any]]:
        """A player's games, the most recently played first."""
        with self._lock, _reported("list the games"):
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
        with self._lock, _reported("count the games"):
            rows = self._db.execute(
                "SELECT label, level, daily, solved, revealed, elapsed, solved_at "
                "FROM games WHERE player = ?", (player,)).fetchall()
        return [Played(label, level, daily, bool(solved), bool(revealed), elapsed, at)
                for label, level, daily, solved, revealed, elapsed, at in rows]

    def daily_game(self, player: str, date: str) -> str | None:
        """The id of a player's game of the daily puzzle of ``date`` (the most recently
        played if several), or None."""
        with self._lock, _reported("find the daily game"):
            row = self._db.execute("SELECT id FROM games WHERE player = ? AND daily = ? "
                                   "ORDER BY updated DESC LIMIT 1", (player, date)).fetchone()
        return row[0] if row else None

    def daily_puzzle(self, date: str) -> tuple[str, int] | None:
        """The daily puzzle of ``date`` (its text and level) if it was made already."""
        with self._lock, _reported("read the daily puzzle"):
            row = self._db.execute("SELECT puzzle, level FROM daily WHERE date = ?",
                                   (date,)).fetchone()
        return (row[0], int(row[1])) if row else None

    def keep_daily(self, date: str, puzzle: str, level: int) -> tuple[str, int]:
        """Keep the daily puzzle of ``date`` unless one is kept already; the one kept."""
        with self._lock, _reported("keep the daily puzzle"):
            self._db.execute("INSERT OR IGNORE INTO daily VALUES (?, ?, ?)",
                             (date, puzzle, level))
            row = self._db.execute("SELECT puzzle, level FROM daily WHERE date = ?",
                                   (date,)).fetchone()
        return row[0], int(row[1])

    def count(self) -> int:
        """How many games are stored."""
        with self._lock, _reported("count the games"):
            return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
