"""Saved games in SQLite: one row a game, written in a transaction, so a server killed in
the middle of a save leaves the previous save whole."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from ..errors import NumberplaceError


def default_path() -> Path:
    """The database in the user's data folder (``$XDG_DATA_HOME/numberplace``, by default
    ``~/.local/share/numberplace``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return Path(base) / "numberplace" / "numberplace.db"


class GameStore:
    """Games by id, as the JSON of their session records. ``":memory:"`` keeps them in
    memory only (tests)."""

    def __init__(self, path: str | os.PathLike[str] = ":memory:") -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False,
                                       isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, "
                             "record TEXT NOT NULL, updated REAL NOT NULL)")
        except (OSError, sqlite3.Error) as exc:
            raise NumberplaceError(f"cannot open the game database {self.path}: {exc}") \
                from None
        self._lock = threading.Lock()

    def save(self, game_id: str, record: dict[str, Any]) -> None:
        """Store a game's record, replacing its previous one in one transaction."""
        text = json.dumps(record, separators=(",", ":"))
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?)",
                                 (game_id, text, time.time()))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def load(self, game_id: str) -> dict[str, Any] | None:
        """A game's record, or None."""
        with self._lock:
            row = self._db.execute("SELECT record FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def count(self) -> int:
        """How many games are stored."""
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
