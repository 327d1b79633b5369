"""A puzzle bank: puzzles with one solution each, told apart by their canonical key, in one
SQLite file or a PostgreSQL database (:mod:`.database`).

Each puzzle is stored once whatever its form (the key of :mod:`numberplace.engine.canon` is
unique), with its shape, givens as given, solution, clue count, source, tags and, when it
was rated, its level, difficulty, hardest technique and the techniques its solve used.

Files go in through imports (:meth:`Bank.begin_import`, :meth:`Bank.commit`): each piece
of puzzles is committed in one transaction together with how far the file has been read,
so an import that is stopped (Ctrl-C, a kill, a crash) loses nothing already committed,
and the same file added again goes on after its last committed line.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from .. import engine, formats
from ..engine import Status
from ..engine.canon import FORM, canonical, canonical_forms, values_text
from ..errors import NumberplaceError
from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import Shape, by_name
from .database import Database, connect, is_url, without_password
from .serialize import plain_format

__all__ = ["Bank", "BankError", "Entry", "Import", "Stored", "entry", "entries_of_values",
           "fingerprint", "default_path"]

#: The layout of the database this code writes.
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS puzzles (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    shape TEXT NOT NULL,
    givens TEXT NOT NULL,
    solution TEXT NOT NULL,
    clues INTEGER NOT NULL,
    record TEXT,
    level INTEGER,
    level_name TEXT,
    difficulty REAL,
    hardest TEXT,
    techniques TEXT,
    source TEXT,
    tags TEXT,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzles_shape_level ON puzzles (shape, level);
CREATE INDEX IF NOT EXISTS puzzles_difficulty ON puzzles (shape, difficulty);
CREATE TABLE IF NOT EXISTS imports (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    fingerprint TEXT,
    lines INTEGER NOT NULL DEFAULT 0,
    added INTEGER NOT NULL DEFAULT 0,
    duplicates INTEGER NOT NULL DEFAULT 0,
    rejected INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    started REAL NOT NULL,
    ended REAL
);
"""

_COLUMNS = ("key", "shape", "givens", "solution", "clues", "record", "level", "level_name",
            "difficulty", "hardest", "techniques")


class BankError(NumberplaceError):
    """A bank that cannot be opened, read or written."""


def default_path() -> Path:
    """The bank in the user's data folder (``$XDG_DATA_HOME/numberplace``, by default
    ``~/.local/share/numberplace``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return Path(base) / "numberplace" / "bank.sqlite"


class Entry(NamedTuple):
    """A puzzle ready for the bank: its key, shape name, givens and solution as lines of
    symbols, clue count; ``record`` holds the puzzle's JSON record where the shape's name
    alone cannot rebuild it (jigsaw regions, cages) or its alphabet is not the default;
    the rating fields when it was rated (``techniques``: the names, each between ``|``)."""

    key: str
    shape: str
    givens: str
    solution: str
    clues: int
    record: str | None = None
    level: int | None = None
    level_name: str | None = None
    difficulty: float | None = None
    hardest: str | None = None
    techniques: str | None = None


class Stored(NamedTuple):
    """A puzzle read back from the bank: the fields of :class:`Entry`, then its id,
    source, tags (comma-separated) and when it was added (seconds since the epoch)."""

    key: str
    shape: str
    givens: str
    solution: str
    clues: int
    record: str | None
    level: int | None
    level_name: str | None
    difficulty: float | None
    hardest: str | None
    techniques: str | None
    id: int
    source: str | None
    tags: str | None
    created: float

    @property
    def puzzle(self) -> Puzzle:
        """The puzzle itself."""

        if self.record is not None:
            return formats.parse(self.record, format="json")
        return formats.parse(self.givens, shape=by_name(self.shape), format="line")

    @property
    def tag_list(self) -> list[str]:
        """The tags, one string each."""
        return [t for t in (self.tags or "").split(",") if t]

    def as_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        out: dict[str, object] = {
            "id": self.id, "key": self.key, "shape": self.shape, "givens": self.givens,
            "solution": self.solution, "clues": self.clues, "level": self.level,
            "level_name": self.level_name, "difficulty": self.difficulty,
            "hardest": self.hardest,
            "techniques": [t for t in (self.techniques or "").split("|") if t],
            "source": self.source, "tags": self.tag_list, "created": self.created}
        if self.record is not None:
            out["record"] = json.loads(self.record)
        return out


def _needs_record(puzzle: Puzzle) -> bool:
    """Whether the shape's name and the default alphabet cannot rebuild the puzzle."""

    shape = puzzle.shape
    if shape.regions or shape.cages or puzzle.alphabet != Alphabet.default(shape.size):
        return True
    try:
        return by_name(shape.name) != shape
    except NumberplaceError:
        return True


def entry(puzzle: Puzzle, *, rate: bool = False, time_limit: float | None = 60.0,
          node_limit: int = 2_000_000, rating: Any = None) -> Entry | str:
    """The puzzle as a bank entry, or why it cannot be one: it must have exactly one
    solution (within ``node_limit`` and ``time_limit``) and a canonical form. ``rate``
    rates it; ``rating`` gives a rating already made."""

    result = engine.solve(puzzle, limit=2, node_limit=node_limit, time_limit=time_limit)
    if result.status is not engine.Status.UNIQUE:
        return _reason(result.status, result.message)
    try:
        key = canonical(puzzle).key
    except NumberplaceError as exc:
        return f"no canonical form: {exc}"
    if rating is None and rate:
        # imported here: rating loads the logic solver, which a bank not rating needs not
        from ..logic.rating import rate as rate_puzzle

        rating = rate_puzzle(puzzle, time_limit=time_limit)
    fmt = plain_format(puzzle)
    fields: dict[str, Any] = {}
    if rating is not None and rating.level_number:
        fields = {"level": rating.level_number, "level_name": rating.level,
                  "difficulty": rating.difficulty, "hardest": rating.hardest,
                  "techniques": "|" + "|".join(sorted(rating.steps)) + "|"}
    record = formats.write(puzzle, "json") if _needs_record(puzzle) else None
    return Entry(key, puzzle.shape.name, formats.write(puzzle, fmt),
                 formats.write(puzzle, fmt, values=result.solution), puzzle.clue_count,
                 record, **fields)


def _reason(status: object, message: str = "") -> str:

    said = {Status.MULTIPLE: "more than one solution", Status.NONE: "no solution",
            Status.INVALID: "givens that clash", Status.LIMIT: "the search ran out of its "
            "budget"}.get(status, str(status))  # type: ignore[call-overload]
    return f"{said}: {message}" if message and status is Status.INVALID else said


def entries_of_values(shape: Shape, values: bytes, *, node_limit: int = 2_000_000,
                      time_limit: float | None = 60.0) -> list[Entry | str]:
    """Bank entries (or why not) for many puzzles of one classic shape given as one byte
    string of cell values (``shape.ncells`` bytes each): one engine call and one
    canonical-form call for them all. Not rated."""

    size = shape.ncells
    solved = engine.solve_blob(shape, values, limit=2, node_limit=node_limit,
                               time_limit=time_limit)
    forms, status = canonical_forms(shape, values)
    # each blob's symbols written at once, then cut
    givens = values_text(shape, values)
    solutions = values_text(shape, solved.first)
    keys = values_text(shape, forms)
    out: list[Entry | str] = []
    for k, found in enumerate(solved.counts):
        if found != 1 or solved.aborted[k]:
            cut = slice(k * size, (k + 1) * size)
            result = engine.solve_values(shape, values[cut], limit=2, node_limit=node_limit,
                                         time_limit=time_limit)[0]
            out.append(_reason(result.status, result.message))
        elif status[k] != FORM:
            out.append("no canonical form: its search went past the work limit")
        else:
            text = givens[k * size:(k + 1) * size]
            out.append(Entry(f"{shape.name}:{keys[k * size:(k + 1) * size]}", shape.name,
                             text, solutions[k * size:(k + 1) * size], size - text.count(".")))
    return out


def fingerprint(path: str | os.PathLike[str]) -> str | None:
    """What tells a file from another for resuming its import: its full path, size,
    modification time and the hash of its first 64 KiB; None when it cannot be read."""
    try:
        real = Path(path).resolve()
        info = real.stat()
        with open(real, "rb") as f:
            head = hashlib.sha256(f.read(1 << 16)).hexdigest()[:16]
    except OSError:
        return None
    return f"{real}|{info.st_size}|{info.st_mtime_ns}|{head}"


@dataclass
class Import:
    """An import of a file into the bank: how many of its lines are committed, and what
    became of its puzzles so far."""

    id: int
    source: str
    lines: int = 0
    added: int = 0
    duplicates: int = 0
    rejected: int = 0
    resumed: bool = False


#: Names that stand for every shape of a family in a query (the bank stores each with its
#: size: ``killer-9x9``, ``jigsaw-9x9``, ``kakuro-10x10``).
SHAPE_FAMILIES = ("killer", "jigsaw", "kakuro", "samurai")


class Bank:
    """A puzzle bank: a SQLite file, or a PostgreSQL database given by its URL
    (``postgresql://...``, with the ``bank-postgres`` extra) for a bank that several
    machines share. With ``create`` (to add puzzles) a missing bank is made; without it
    (to read one) a missing file is one line, ``no bank at PATH``, and nothing is made.
    Use it as a context manager, or call :meth:`close`."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 create: bool = True) -> None:
        self.path = str(path if path is not None else default_path())
        local = not is_url(self.path) and self.path != ":memory:"
        if not create and local and not Path(self.path).exists():
            raise BankError(f"no bank at {self.path}")
        self._store = connect(self.path, "the bank", BankError)
        store = self._store
        try:
            version = _layout(store)
            if version is not None and version != SCHEMA_VERSION:
                raise BankError(f"{self.shown} is a bank of layout {version}; this "
                                f"numberplace reads layout {SCHEMA_VERSION}")
            if version is None and not create:
                raise BankError(f"{self.shown} is not a numberplace bank")
            with self._write():
                store.apply_schema(_SCHEMA)
                store.execute(store.insert_ignore("meta", ("name", "value"), "name"),
                              ("schema", str(SCHEMA_VERSION)))
        except store.errors as exc:
            store.close()
            raise store.failed("open", exc) from None
        except BankError:
            store.close()
            raise
        self._lock = threading.Lock()

    @property
    def shown(self) -> str:
        """The bank's file, or its URL without a password."""
        return without_password(self.path)

    def close(self) -> None:
        """Close the database."""
        self._store.close()

    def __enter__(self) -> Bank:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------

    def begin_import(self, source: str, fingerprint: str | None) -> Import:
        """Start an import of ``source``, or go on with its last one when that was left
        unfinished (same ``fingerprint``; None never resumes)."""
        store = self._store
        with self._write():
            if fingerprint is not None:
                row = store.execute(
                    "SELECT id, lines, added, duplicates, rejected FROM imports WHERE "
                    "fingerprint = ? AND finished = 0 ORDER BY id DESC LIMIT 1",
                    (fingerprint,)).fetchone()
                if row is not None:
                    return Import(row[0], source, row[1], row[2], row[3], row[4], True)
            number = store.insert_id("INSERT INTO imports (source, fingerprint, started) "
                                     "VALUES (?, ?, ?)", (source, fingerprint, time.time()))
            return Import(number, source)

    def commit(self, imp: Import, entries: Sequence[Entry], *, lines: int, rejected: int = 0,
               tags: Sequence[str] = ()) -> tuple[int, int]:
        """Add ``entries`` and record that the import has read ``lines`` lines, in one
        transaction; returns (added, duplicates). A puzzle already in the bank (by key,
        from any source) is a duplicate and stays as it was."""
        with self._write():
            added = self._insert(entries, imp.source, tags)
            duplicates = len(entries) - added
            self._store.execute("UPDATE imports SET lines = ?, added = added + ?, duplicates "
                                "= duplicates + ?, rejected = rejected + ? WHERE id = ?",
                                (lines, added, duplicates, rejected, imp.id))
        imp.lines = lines
        imp.added += added
        imp.duplicates += duplicates
        imp.rejected += rejected
        return added, duplicates

    def finish_import(self, imp: Import) -> None:
        """Mark the import done: adding the file again is then a new import."""
        with self._write():
            self._store.execute("UPDATE imports SET finished = 1, ended = ? WHERE id = ?",
                                (time.time(), imp.id))

    def add(self, entries: Iterable[Entry], *, source: str = "",
            tags: Sequence[str] = ()) -> tuple[int, int]:
        """Add puzzles outside a file import (made by ``generate --bank``), in one
        transaction: returns (added, duplicates)."""
        entries = list(entries)
        with self._write():
            added = self._insert(entries, source, tags)
        return added, len(entries) - added

    def _insert(self, entries: Sequence[Entry], source: str, tags: Sequence[str]) -> int:
        """Insert inside a transaction; returns how many were new."""
        tag_text = ",".join(tags) or None
        now = time.time()
        store = self._store
        return store.insert_many(
            store.insert_ignore("puzzles", (*_COLUMNS, "source", "tags", "created"), "key"),
            [(*e, source, tag_text, now) for e in entries])

    def _write(self) -> AbstractContextManager[None]:
        return self._store.transaction("write")

    # -- reading ---------------------------------------------------------------------------

    def query(self, *, shape: str | None = None, level: int | None = None,
              difficulty: tuple[float, float] | None = None, technique: str | None = None,
              clues: tuple[int, int] | None = None, tag: str | None = None,
              source: str | None = None, limit: int | None = None,
              random: bool = False) -> Iterator[Stored]:
        """The puzzles that match every filter given, by id (or in random order)."""
        where, params = _filters(shape, level, difficulty, technique, clues, tag, source)
        sql = (f"SELECT {', '.join(_COLUMNS)}, id, source, tags, created FROM puzzles"
               f"{where} ORDER BY {'random()' if random else 'id'}")
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        try:
            for row in self._store.execute(sql, params):
                yield Stored(*row)
        except self._store.errors as exc:
            raise self._store.failed("read", exc) from None

    def draw(self, shape: str, level: int | None = None) -> Stored | None:
        """One puzzle of ``shape`` (at ``level``) chosen at random, or None; safe to call
        from several threads (a server's)."""
        where, params = _filters(shape, level, None, None, None, None, None)
        store = self._store
        with self._lock:
            try:
                # a random offset below the count, not ORDER BY random(): no sort of
                # every matching row per draw
                total = store.execute(f"SELECT count(*) FROM puzzles{where}",
                                      params).fetchone()[0]
                if not total:
                    return None
                row = store.execute(
                    f"SELECT {', '.join(_COLUMNS)}, id, source, tags, created FROM puzzles"
                    f"{where} ORDER BY id LIMIT 1 OFFSET ?",
                    [*params, secrets.randbelow(total)]).fetchone()
            except store.errors as exc:
                raise store.failed("read", exc) from None
        return Stored(*row) if row else None

    def count(self, **filters: Any) -> int:
        """How many puzzles match (the filters of :meth:`query`)."""
        where, params = _filters(filters.get("shape"), filters.get("level"),
                                 filters.get("difficulty"), filters.get("technique"),
                                 filters.get("clues"), filters.get("tag"),
                                 filters.get("source"))
        return int(self._store.execute(f"SELECT count(*) FROM puzzles{where}", params)
                   .fetchone()[0])

    def stats(self) -> dict[str, Any]:
        """Totals: puzzles, by shape and by level, the difficulty range per shape, the
        imports, and the size of the database."""
        run = self._store.execute
        shapes = {name: {"puzzles": n, "rated": rated, "clues": [lo, hi],
                         "difficulty": [dlo, dhi] if dlo is not None else None}
                  for name, n, rated, lo, hi, dlo, dhi in run(
                      "SELECT shape, count(*), count(level), min(clues), max(clues), "
                      "min(difficulty), max(difficulty) FROM puzzles GROUP BY shape "
                      "ORDER BY shape").fetchall()}
        levels = {f"{number} {name}": n for number, name, n in run(
            "SELECT level, level_name, count(*) FROM puzzles WHERE level IS NOT NULL "
            "GROUP BY level, level_name ORDER BY level").fetchall()}
        imports = [{"source": s, "lines": lines, "added": a, "duplicates": d,
                    "rejected": r, "finished": bool(f)} for s, lines, a, d, r, f in run(
                        "SELECT source, lines, added, duplicates, rejected, finished FROM "
                        "imports ORDER BY id").fetchall()]
        total = int(run("SELECT count(*) FROM puzzles").fetchone()[0])
        return {"puzzles": total, "shapes": shapes, "levels": levels, "imports": imports,
                "bytes": self._store.size(("puzzles", "imports"))}


def _filters(shape: str | None, level: int | None, difficulty: tuple[float, float] | None,
             technique: str | None, clues: tuple[int, int] | None, tag: str | None,
             source: str | None) -> tuple[str, list[object]]:
    parts: list[str] = []
    params: list[object] = []
    if shape is not None and shape in SHAPE_FAMILIES:
        # a family's name stands for each of its sizes: killer for killer-9x9, ...
        parts.append("(shape = ? OR shape LIKE ?)")
        params += [shape, f"{shape}-%"]
    elif shape is not None:
        parts.append("shape = ?")
        params.append(shape)
    if level is not None:
        parts.append("level = ?")
        params.append(level)
    if difficulty is not None:
        parts.append("difficulty BETWEEN ? AND ?")
        params += list(difficulty)
    if technique is not None:
        parts.append("techniques LIKE ?")
        params.append(f"%|{technique}|%")
    if clues is not None:
        parts.append("clues BETWEEN ? AND ?")
        params += list(clues)
    if tag is not None:
        parts.append("(',' || tags || ',') LIKE ?")
        params.append(f"%,{tag},%")
    if source is not None:
        parts.append("source = ?")
        params.append(source)
    return (" WHERE " + " AND ".join(parts) if parts else ""), params


def _layout(store: Database) -> int | None:
    """The layout of an existing bank, or None for a new one."""
    if not store.has_table("meta"):
        return None
    row = store.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()
    return int(row[0]) if row else None
