"""One SQL database, SQLite or PostgreSQL, as the puzzle bank and the game store use it.

Statements are written once, with ``?`` for parameters and SQLite's types; :func:`connect`
opens a file (SQLite) or a ``postgresql://`` URL (psycopg, an optional extra) and the few
places where the two differ are methods here. Errors of either become one line of the
caller's error class, naming what could not be done and where (the URL without its
password).
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import time
from collections.abc import Iterator, Sequence
from typing import Any

from ..atomic import make_folder_for
from ..errors import NumberplaceError
from ..extras import missing

#: Seconds a SQLite statement waits for another process's write to end.
BUSY_SECONDS = 10.0
#: The PostgreSQL advisory lock that set-ups of tables take turns on (any fixed number
#: the database's other users do not take).
SCHEMA_LOCK = 0x6E756D70


def is_url(path: str) -> bool:
    """True for a PostgreSQL database's URL."""
    return path.startswith(("postgresql://", "postgres://"))


def without_password(url: str) -> str:
    """A URL as it may be shown: ``user:secret@`` becomes ``user@``."""
    return re.sub(r"^(\w+://[^:/@]+):[^@]*@", r"\1@", url)


def said(exc: BaseException) -> str:
    """An error of the database in one line."""
    return " ".join(str(exc).split()) or type(exc).__name__


class Database:
    """A connection in autocommit mode: the caller says where each transaction begins
    (:meth:`transaction`)."""

    errors: tuple[type[BaseException], ...] = ()
    #: how a table's own row number and a floating-point column are declared
    key_type = "INTEGER PRIMARY KEY"
    real_type = "REAL"
    #: a statement outside a transaction is one of its own, and may change two tables
    #: (an UPDATE ... RETURNING in a WITH before an INSERT)
    atomic_statements = False

    def __init__(self, shown: str, error: type[NumberplaceError]) -> None:
        self.shown = shown
        self.error = error

    def execute(self, sql: str, params: Sequence[object] = ()) -> Any:
        raise NotImplementedError

    def insert_many(self, sql: str, rows: list[tuple[object, ...]]) -> int:
        """Run an insert for every row; how many rows were added."""
        raise NotImplementedError

    def insert_id(self, sql: str, params: Sequence[object]) -> int:
        """Insert one row; its id."""
        raise NotImplementedError

    def insert_ignore(self, table: str, columns: Sequence[str], unique: str) -> str:
        """An insert that leaves a row alone when its ``unique`` column is taken."""
        raise NotImplementedError

    def has_table(self, name: str) -> bool:
        raise NotImplementedError

    def columns(self, table: str) -> set[str]:
        """The names of a table's columns."""
        raise NotImplementedError

    def begin(self) -> None:
        raise NotImplementedError

    def begin_read(self) -> None:
        """Begin a transaction that reads one state of the database throughout."""
        raise NotImplementedError

    def size(self, tables: Sequence[str]) -> int | None:
        """Bytes the database (or these tables) take, where that is known."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def apply_schema(self, text: str) -> None:
        """Make the tables of a schema written for SQLite, in the caller's transaction;
        processes that set up one database at once take turns (two workers of a server
        starting together)."""
        self.schema_turn()
        for statement in self.schema(text):
            self.execute(statement)

    def schema_turn(self) -> None:
        """Wait, within the transaction, until no other process is setting up tables."""

    def schema(self, text: str) -> list[str]:
        """The statements of a schema written for SQLite, in this database's types."""
        return [statement.replace("INTEGER PRIMARY KEY", self.key_type)
                .replace(" REAL", " " + self.real_type)
                for statement in text.split(";") if statement.strip()]

    def failed(self, doing: str, exc: BaseException) -> NumberplaceError:
        """The caller's error for ``exc``: what could not be done, where, and why."""
        return self.error(f"cannot {doing} {self.shown}: {said(exc)}")

    @contextlib.contextmanager
    def reported(self, doing: str) -> Iterator[None]:
        """Database errors in the block become the caller's error, in one line."""
        try:
            yield
        except self.errors as exc:
            raise self.failed(doing, exc) from None

    @contextlib.contextmanager
    def transaction(self, doing: str) -> Iterator[None]:
        """BEGIN ... COMMIT, rolled back on any error; database errors become the
        caller's error in one line."""
        with self.reported(doing):
            self.begin()
        try:
            yield
            with self.reported(doing):
                self.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(*self.errors):  # the first error is the one to say
                self.execute("ROLLBACK")
            if isinstance(exc, self.errors):
                raise self.failed(doing, exc) from None
            raise


class SQLite(Database):
    """A SQLite file (or ``:memory:``), in write-ahead mode, shared by threads."""

    errors = (sqlite3.Error, OSError)

    def __init__(self, path: str, shown: str, error: type[NumberplaceError]) -> None:
        super().__init__(shown, error)
        self.path = path
        try:
            if path != ":memory:":
                make_folder_for(path)
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            # a committed transaction survives the process being killed; the file stays
            # whole after a power cut (the last transactions may be lost)
            self.db.execute("PRAGMA synchronous=NORMAL")
            # several processes may write (workers of one server): wait for each other
            self.db.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
        except sqlite3.Error as exc:
            raise self.failed("open", exc) from None
        except OSError as exc:
            raise error(f"cannot open {shown}: {exc.strerror or exc}") from None

    def execute(self, sql: str, params: Sequence[object] = ()) -> Any:
        return self.db.execute(sql, params)

    def insert_many(self, sql: str, rows: list[tuple[object, ...]]) -> int:
        before = self.db.total_changes
        self.db.executemany(sql, rows)
        return self.db.total_changes - before

    def insert_id(self, sql: str, params: Sequence[object]) -> int:
        return int(self.db.execute(sql, params).lastrowid or 0)

    def insert_ignore(self, table: str, columns: Sequence[str], unique: str) -> str:
        return (f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) "
                f"VALUES ({', '.join('?' * len(columns))})")

    def has_table(self, name: str) -> bool:
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                               "name = ?", (name,)).fetchone() is not None

    def columns(self, table: str) -> set[str]:
        return {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}

    def begin(self) -> None:
        # another process's write holds the file for a fraction of a millisecond; SQLite's
        # own wait sleeps 1 ms, then 2, 5, 10... (with the connection, and every thread
        # waiting on it, stalled meanwhile), so a writer asks again sooner itself
        self.db.execute("PRAGMA busy_timeout=0")
        try:
            pause, waited = 0.0001, 0.0
            while True:
                try:
                    self.db.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or waited > BUSY_SECONDS:
                        raise
                time.sleep(pause)
                waited += pause
                pause = min(pause * 1.5, 0.005)
        finally:
            self.db.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")

    def begin_read(self) -> None:
        self.db.execute("BEGIN")

    def size(self, tables: Sequence[str]) -> int | None:
        if self.path == ":memory:":
            return None
        total = 0
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                total += os.path.getsize(self.path + suffix)
        return total

    def close(self) -> None:
        self.db.close()


class Postgres(Database):
    """A PostgreSQL database by its URL (psycopg)."""

    key_type = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
    real_type = "DOUBLE PRECISION"
    atomic_statements = True

    def __init__(self, url: str, shown: str, error: type[NumberplaceError],
                 needs: str) -> None:
        super().__init__(shown, error)
        try:
            import psycopg  # only a PostgreSQL database needs it (an optional extra)
        except ImportError:
            raise error(str(missing(f"{needs} needs psycopg", "bank-postgres"))) from None
        self.errors = (psycopg.Error,)
        try:
            self.db = psycopg.connect(url, autocommit=True, connect_timeout=20)
        except psycopg.Error as exc:
            raise self.failed("open", exc) from None

    def execute(self, sql: str, params: Sequence[object] = ()) -> Any:
        return self.db.execute(sql.replace("?", "%s"), list(params))

    def insert_many(self, sql: str, rows: list[tuple[object, ...]]) -> int:
        if not rows:
            return 0
        with self.db.cursor() as cursor:
            cursor.executemany(sql.replace("?", "%s"), rows)
            return int(cursor.rowcount)

    def insert_id(self, sql: str, params: Sequence[object]) -> int:
        return int(self.execute(sql + " RETURNING id", params).fetchone()[0])

    def insert_ignore(self, table: str, columns: Sequence[str], unique: str) -> str:
        return (f"INSERT INTO {table} ({', '.join(columns)}) "
                f"VALUES ({', '.join('?' * len(columns))}) ON CONFLICT ({unique}) DO NOTHING")

    def has_table(self, name: str) -> bool:
        found = self.db.execute("SELECT to_regclass(%s)", [name]).fetchone()
        return found is not None and found[0] is not None

    def columns(self, table: str) -> set[str]:
        return {row[0] for row in self.db.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s",
            [table])}

    def begin(self) -> None:
        self.db.execute("BEGIN")

    def begin_read(self) -> None:
        self.db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")

    def schema_turn(self) -> None:
        # two sessions running CREATE TABLE IF NOT EXISTS at once can both find the name
        # free, and the second fails on the catalog's unique index: a lock held to the end
        # of the transaction makes them take turns (SQLite's BEGIN IMMEDIATE does already)
        self.db.execute("SELECT pg_advisory_xact_lock(%s)", [SCHEMA_LOCK])

    def size(self, tables: Sequence[str]) -> int | None:
        total = " + ".join(f"pg_total_relation_size('{t}')" for t in tables)
        row = self.db.execute(f"SELECT {total}").fetchone()
        return int(row[0]) if row else None

    def close(self) -> None:
        self.db.close()


def connect(path: str, what: str, error: type[NumberplaceError]) -> Database:
    """The database at ``path`` (a file, ``:memory:`` or a ``postgresql://`` URL);
    ``what`` names it in errors ("the bank"), raised as ``error``."""
    if is_url(path):
        return Postgres(path, f"{what} {without_password(path)}", error,
                        f"a PostgreSQL {what.removeprefix('the ')}")
    return SQLite(path, f"{what} {path}", error)
