"""Load on loopback: many players against one server, every answered move looked for in its
database.

Each player opens a game, then, until the time is up, plays as a player of the web page
does: corner and centre pencil marks, values entered and erased, and now and then (one
request in ten) a hint, with an exponential think time between requests. Every request
is numbered as the page numbers it (``client``, ``seq``); as on the page, a move whose
answer is lost (no connection, a time-out, a 5xx) is sent again with the same number, a
refused one (4xx) is dropped, and a hint is asked once. At the end every game's row is
read from the database (read-only, not through the server): each move the server
answered as made must be in the stored history exactly once (only the oldest ones the
server's answers said it let go may be missing), and the stored receipt must be the
number of the player's last answered request.

Each row of the table is one server under one scenario: requests answered, requests a
second, latency percentiles, errors by kind, lost and doubled moves, the server's CPU time
per action and the share of one core it used, and the client's own CPU time. A client near
100% of a core was itself the limit (it runs on one thread), and the server figures of
that row understate the server.

    python bench/load.py [--players 50] [--seconds 60] [--think 0]
    python bench/load.py --scenario 50:0,200:1,500:1 --seconds 30
    python bench/load.py --scenario 20:0,50:0.5 --seconds 15 --compare HEAD~3
    python bench/load.py --scenario 50:0 --workers 1,2 --store postgresql:///games
    python bench/load.py --url http://HOST:PORT --db FILE [--server-pid PID]

Without --url each row gets a new server of this tree (``src`` beside this folder) on a
free port, with a new SQLite database in a temporary folder and its limit of new games
per address lifted (every player here comes from one address); the server is stopped
before its database is read. --compare REF runs every scenario against REF's server as
well: REF's ``src`` exported (``git archive``, which leaves the repository as it is) to a
temporary folder with this tree's compiled core copied in; the rows of both are printed
with their ratios. With --url the database to check is named by --db: a SQLite file, or
``postgresql://...`` when psycopg is installed (the bank-postgres extra); without --db
only the server's own copy of each game can be read, which says nothing of what was
saved, and the report says so. The server's CPU time is read from /proc for a server
started here, or for --server-pid.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import functools
import json
import math
import os
import random
import resource
import secrets
import shutil
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Sequence
from contextlib import AsyncExitStack, closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from numberplace.game import journal
from numberplace.store.serialize import patched

try:
    import psycopg
except ImportError:  # only a PostgreSQL game store needs it
    psycopg = None  # type: ignore[assignment]

PUZZLE = "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7.."
#: The folder above this one: the tree whose server runs unless another is named.
ROOT = Path(__file__).resolve().parents[1]
#: Share of requests that ask for a hint; the rest are moves.
HINT_SHARE = 0.1
#: Share of moves that enter or erase a value; the rest toggle pencil marks.
VALUE_SHARE = 0.25
#: Entries of the player past which a value move erases one, so that empty cells remain
#: for pencil marks (most moves are marks, as in a real game).
ENTRIES_KEPT = 12
#: Seconds before a request whose answer was lost is sent again, first and at most (the
#: page's own).
RETRY_FIRST = 0.5
RETRY_MAX = 8.0
#: Seconds after the end during which a request whose answer was lost is still sent
#: again, so a slow server's last moves are settled rather than left unknown.
GRACE = 15.0
#: Seconds a request may take.
TIMEOUT = 30.0
#: Seconds an idle connection is kept for the player's next request: below the server's
#: own (uvicorn's 5), so the client never sends on a connection the server is closing at
#: that moment, which fails as a reset a browser would quietly try again.
KEEP_ALIVE = 4.0
#: Seconds a player keeps asking for its game while the server is busy or away.
OPEN_SECONDS = 120.0
#: Seconds a server started here has to answer.
START_SECONDS = 60.0
#: The actions that change the board, by the kind of move they make.
MOVES = {"mark": None, "enter": "enter", "erase": "erase"}


@dataclass
class Game:
    """One player's game as the player saw it: what its stored record must hold."""

    id: str
    client: str
    #: the moves the server answered as made, in order, as its answers recorded them
    made: list[dict[str, Any]] = field(default_factory=list)
    #: the number of the latest request answered 200 (the receipt to find)
    answered: int = 0
    #: the number of the latest request sent
    sent: int = 0
    #: the moves the server counted in its history at its latest answer; fewer than
    #: ``made`` when it lets the oldest go
    kept: int = 0
    #: the action of a request never answered, which may or may not have been carried out
    pending: str | None = None
    #: the numbers of questions let go unanswered, which may or may not have been
    #: carried out
    unsure: list[int] = field(default_factory=list)


@dataclass
class Tally:
    """What the players saw, and what the check of their games found."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    receipts: list[str] = field(default_factory=list)
    #: moves the server answered as made
    moves: int = 0
    #: answered moves missing from the stored histories, and stored moves beyond them
    lost_moves: int = 0
    doubled_moves: int = 0
    #: action requests sent, each try counted
    requests: int = 0
    games: list[Game] = field(default_factory=list)
    #: wall seconds of the playing (the games are opened before the clock starts)
    seconds: float = 0.0
    #: CPU seconds of the server process while playing; None when it cannot be read
    server_cpu: float | None = None
    #: CPU seconds of this process while playing
    client_cpu: float = 0.0
    #: where the games were read back ("" until they are)
    checked: str = ""

    @property
    def failed(self) -> bool:
        """True when a request failed or a game's record disagrees with its answers."""
        return bool(self.errors or self.lost or self.doubled or self.receipts)


@dataclass(frozen=True)
class Check:
    """What a stored record says of one game: answered moves missing from its history,
    moves in it beyond the answered ones, and what is wrong with its receipt (None when it
    agrees)."""

    lost: int
    doubled: int
    receipt: str | None


@dataclass
class Row:
    """One scenario against one server."""

    server: str
    players: int
    think: float
    tally: Tally


def move_key(move: dict[str, Any]) -> str:
    """A move as compared: its kind and changes (its words follow from them)."""
    return json.dumps([move.get("kind"), move.get("changes")], separators=(",", ":"))


def _mismatch(expected: list[str], stored: list[str]) -> tuple[int, int]:
    """Expected items missing from ``stored`` and stored items beyond the expected ones,
    by the closest alignment of the two sequences (a move repeated is one extra)."""
    if expected == stored:
        return 0, 0
    lost = extra = 0
    matcher = difflib.SequenceMatcher(None, expected, stored, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("delete", "replace"):
            lost += i2 - i1
        if tag in ("insert", "replace"):
            extra += j2 - j1
    return lost, extra


def check_game(record: dict[str, Any] | None, game: Game) -> Check:
    """Compare a game's stored record with what its player was answered: every move
    answered as made must be in the history exactly once, in order, and the receipt of the
    player's client must be its last answered request (or a later one never answered).
    Only the oldest moves the server's own answers no longer counted (a bounded undo
    depth) may be missing. A request never answered may have been carried out: its move,
    if it made one, may end the history, and its number may be the receipt."""
    expected = [move_key(m) for m in game.made]
    if record is None:
        return Check(len(expected), 0, "no record stored")
    stored = [move_key(m) for m in record.get("undo", [])]
    let_go = max(0, len(expected) - game.kept)
    lost, doubled = _mismatch(expected[let_go:], stored)
    receipt = record.get("receipts", {}).get(game.client)
    allowed = {game.answered or None, *(n for n in game.unsure if n > game.answered)}
    if game.pending is not None:
        allowed.add(game.sent)
        # a request's move and its receipt are saved together: with its receipt stored,
        # the unanswered request's move (if it made one) ends the history, and may have
        # pushed one more old move out of it
        if receipt == game.sent and game.pending in MOVES and stored:
            lost, doubled = min((lost, doubled), _mismatch(expected[let_go:], stored[:-1]),
                                _mismatch(expected[let_go + 1:], stored[:-1]), key=sum)
    wrong = None
    if receipt not in allowed:
        wrong = (f"receipt {receipt}, the last request answered was {game.answered}"
                 + (f" and {game.sent} was never answered" if game.pending else ""))
    return Check(lost, doubled, wrong)


def check(tally: Tally, records: dict[str, dict[str, Any] | None], where: str) -> None:
    """Check every game of ``tally`` against its record read from ``where``."""
    tally.checked = where
    for game in tally.games:
        found = check_game(records.get(game.id), game)
        tally.lost_moves += found.lost
        tally.doubled_moves += found.doubled
        if found.lost:
            tally.lost.append(f"game {game.id}: {found.lost} of {len(game.made)} answered "
                              f"moves not stored")
        if found.doubled:
            tally.doubled.append(f"game {game.id}: {found.doubled} stored moves beyond the "
                                 f"{len(game.made)} answered")
        if found.receipt:
            tally.receipts.append(f"game {game.id}: {found.receipt}")


def read_records(db: str, ids: Sequence[str]) -> dict[str, dict[str, Any] | None]:
    """The stored record of each game (None where there is no row), read from the
    database itself: a SQLite file, opened read-only, or a PostgreSQL address. A store
    that keeps moves as entries after the record has them applied, in order."""
    if db.startswith(("postgresql://", "postgres://")):
        rows, entries = _postgres_rows(db, ids)
    else:
        rows, entries = _sqlite_rows(Path(db), ids)
    records = {game: _parsed(rows[game]) if game in rows else None for game in ids}
    for game, deltas in entries.items():
        record = records.get(game)
        for delta in deltas:
            if record is not None:
                journal.apply(record, _parsed(delta))
    return records


def _parsed(value: object) -> dict[str, Any]:
    """A record column's value as data (PostgreSQL may hand JSON over parsed already)."""
    if isinstance(value, dict):
        return value
    if isinstance(value, (bytes, str)):
        parsed = json.loads(value)
        if isinstance(parsed, dict):
            return parsed
    raise ValueError(f"a stored record is not a JSON object: {str(value)[:80]}")


#: The entries after each game's record, in order, where the store keeps them.
ENTRIES = ("SELECT e.game, e.delta FROM entries e JOIN games g ON g.id = e.game "
           "WHERE e.n > g.base AND e.game {match} ORDER BY e.game, e.n")


def _sqlite_rows(path: Path, ids: Sequence[str]
                 ) -> tuple[dict[str, object], dict[str, list[object]]]:
    if not path.is_file():
        raise FileNotFoundError(f"no database {path}")
    rows: dict[str, object] = {}
    entries: dict[str, list[object]] = {}
    # read-only, so checking can never change what it checks
    with closing(sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)) as db:
        db.execute("BEGIN")  # one state of both tables
        journaled = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'entries'"
                               ).fetchone() is not None
        for start in range(0, len(ids), 500):  # below every SQLite's limit of parameters
            chunk = list(ids[start:start + 500])
            marks = ",".join("?" * len(chunk))
            rows.update(db.execute(f"SELECT id, record FROM games WHERE id IN ({marks})",
                                   chunk).fetchall())
            if journaled:
                for game, delta in db.execute(ENTRIES.format(match=f"IN ({marks})"), chunk):
                    entries.setdefault(game, []).append(delta)
    return rows, entries


def _postgres_rows(url: str, ids: Sequence[str]
                   ) -> tuple[dict[str, object], dict[str, list[object]]]:
    if psycopg is None:
        raise RuntimeError("reading a PostgreSQL game store needs psycopg "
                           "(pip install 'numberplace[bank-postgres]')")
    entries: dict[str, list[object]] = {}
    with psycopg.connect(url) as db:
        db.read_only = True
        db.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        found = db.execute("SELECT id, record FROM games WHERE id = ANY(%s)",
                           (list(ids),)).fetchall()
        if db.execute("SELECT to_regclass('entries')").fetchone()[0] is not None:
            for game, delta in db.execute(ENTRIES.format(match="= ANY(%s)"), (list(ids),)):
                entries.setdefault(str(game), []).append(delta)
    return {str(game): record for game, record in found}, entries


async def server_records(client: Line, ids: Sequence[str]
                         ) -> dict[str, dict[str, Any] | None]:
    """Each game's record as the server holds it (its memory first): no proof of what
    was saved, only of what the server answered."""

    async def one(game: str) -> dict[str, Any] | None:
        answer = await client.get(f"/api/games/{game}/file")
        return _parsed(answer.text) if answer.status_code == 200 else None

    return dict(zip(ids, await asyncio.gather(*(one(g) for g in ids)), strict=True))


def failure(exc: BaseException) -> str:
    """A failed request on one line: the exception's name, and what caused it when it
    says nothing itself (a reset connection often does not)."""
    said = str(exc) or repr(exc.__cause__ or exc.__context__ or "")
    return f"{type(exc).__name__}: {' '.join(said.split())}"[:160]


def _reason(answer: Answer) -> str:
    """The error an answer gives, on one short line."""
    try:
        text = str(answer.json().get("error", answer.text))
    except (ValueError, AttributeError):
        text = answer.text
    return " ".join(text.split())[:120]


def next_action(board: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """What a player does next on the board its last answer showed (a 9x9)."""
    values, givens = board["values"], board["givens"]
    size = len(board["symbols"])
    empty = [c for c, v in enumerate(values) if not v]
    entries = [c for c, v in enumerate(values) if v and not givens[c]]
    if rng.random() < HINT_SHARE or not (empty or entries):
        return {"action": "hint", "tier": 1}
    if not empty or rng.random() < VALUE_SHARE:
        if entries and (len(entries) >= ENTRIES_KEPT or not empty or rng.random() < 0.25):
            return {"action": "erase", "cells": [rng.choice(entries)]}
        cell = rng.choice(empty)
        seen = {values[p] for p in PEERS[cell]}
        allowed = [v for v in range(1, size + 1) if v not in seen]
        return {"action": "enter", "cells": [cell], "value": rng.choice(allowed or [1])}
    return {"action": "mark", "cells": [rng.choice(empty)], "value": rng.randint(1, size),
            "kind": rng.choice(("corner", "centre"))}


def _peers(cell: int) -> list[int]:
    r, c = divmod(cell, 9)
    return [p for p in range(81) if p != cell and (
        p // 9 == r or p % 9 == c or (p // 27, p % 9 // 3) == (r // 3, c // 3))]


#: The cells that see each cell of a 9x9.
PEERS = [_peers(cell) for cell in range(81)]


async def send(client: Line, game: Game, body: dict[str, Any], until: float,
               tally: Tally) -> dict[str, Any] | None:
    """The answer to one numbered action; None when it was refused or never answered. As
    on the page, a move whose answer is lost is sent again (a refused one is dropped), and
    one never answered ends the game (``game.pending`` names it); a question (a hint) is
    asked once, and one not answered is let go, its number noted in ``game.unsure``."""
    game.sent += 1
    # as the page asks: answered with what changed, not the whole game (a server that
    # does not know the field answers with the whole game)
    numbered = {**body, "client": game.client, "seq": game.sent, "answer": "changes"}
    path = f"/api/games/{game.id}/actions"
    delay = RETRY_FIRST
    while True:
        tally.requests += 1
        start = time.perf_counter()
        try:
            answer = await client.post(path, json=numbered)
        except LineError as exc:
            tally.errors.append(failure(exc))
        else:
            tally.latencies.append((time.perf_counter() - start) * 1e3)
            if answer.status_code == 200:
                game.answered = game.sent
                try:
                    data = answer.json()
                except ValueError:
                    data = None
                if isinstance(data, dict) and (isinstance(data.get("game"), dict)
                                               or isinstance(data.get("changes"), dict)):
                    return data
                # carried out, but what it did cannot be known: play no further
                tally.errors.append(f"answer: not a game record: {answer.text[:80]}")
                game.pending = body["action"]
                return None
            tally.errors.append(f"{answer.status_code}: {_reason(answer)}")
            if answer.status_code < 500:
                return None  # refused, so never carried out; the page drops it too
        if body["action"] not in MOVES:
            game.unsure.append(game.sent)
            return None
        if time.monotonic() + delay > until + GRACE:
            game.pending = body["action"]
            return None
        await asyncio.sleep(delay)
        delay = min(RETRY_MAX, delay * 2)


def note_answer(game: Game, body: dict[str, Any], board: dict[str, Any],
                new_board: dict[str, Any], answer: dict[str, Any], tally: Tally) -> None:
    """Keep the move an answer says was made, and note an answer at odds with its
    request (``board``: the game before it, ``new_board`` after it)."""
    before, after = board["history"], new_board["history"]
    game.kept = after["undo_total"]
    grown = after["undo_total"] - before["undo_total"]
    # at a bounded undo depth a move lets the oldest go and the count stays: the window
    # of latest moves the answer shows has moved on by one all the same
    moved = grown == 1 or (grown == 0 and after["undo"] != before["undo"])
    action = body["action"]
    if answer.get("duplicate"):
        made = moved  # an earlier try was carried out; what it did shows only in the game
    else:
        # a move taken is answered in the log's words; one that changed nothing, or was
        # refused, is not
        made = action in MOVES and bool(answer.get("ok")) and bool(answer.get("message"))
        if made != moved or grown not in (0, 1):
            tally.errors.append(f"answer: a {action} answered as {'made' if made else 'not'}"
                                f" took the history from {before['undo_total']} to "
                                f"{after['undo_total']} moves")
        # a mark or an entry in an empty cell, or an erased entry, always changes the board
        cell = body.get("cells", [None])[0]
        sure = cell is not None and (action == "erase") == bool(board["values"][cell])
        if action in MOVES and answer.get("ok") and sure and not made:
            tally.errors.append(f"answer: a {action} taken made no move")
    if made and after["undo"]:
        move = after["undo"][-1]
        game.made.append(move)
        tally.moves += 1
        wanted = body.get("kind") if action == "mark" else MOVES.get(action)
        if move.get("kind") != wanted:
            tally.errors.append(f"answer: a {action} made a move of kind {move.get('kind')}")


async def open_game(client: Line, tally: Tally
                    ) -> tuple[Game, dict[str, Any]] | None:
    """A new game as the page opens one, asked again while the server is busy or away
    (for :data:`OPEN_SECONDS`); it and its board, or None if it never came."""
    player = secrets.token_urlsafe(9)
    body = {"puzzle": PUZZLE, "notation": "rc", "player": player}
    deadline = time.monotonic() + OPEN_SECONDS
    delay = RETRY_FIRST
    while True:
        wait = delay
        try:
            made = await client.post("/api/games", json=body)
        except LineError as exc:
            tally.errors.append(f"new game {failure(exc)}")
        else:
            if made.status_code == 201:
                board = made.json()
                return Game(board["id"], secrets.token_urlsafe(9)), board
            tally.errors.append(f"new game {made.status_code}: {_reason(made)}")
            if made.status_code < 500:
                return None
            after = made.headers.get("retry-after", "")
            wait = float(after) if after.isdigit() else delay
        if time.monotonic() + wait > deadline:
            return None
        await asyncio.sleep(wait)
        delay = min(RETRY_MAX, delay * 2)


async def play(client: Line, game: Game, board: dict[str, Any], until: float,
               tally: Tally, rng: random.Random, think: float) -> None:
    """Play one game until ``until``, one request at a time, as its page would."""
    while time.monotonic() < until:
        body = next_action(board, rng)
        answer = await send(client, game, body, until, tally)
        if game.pending is not None:
            return  # the game's state is unknown from here on
        if answer is not None:
            new_board = answer.get("game") or patched(board, answer["changes"])
            if new_board is None:  # changes to another version than this board's
                tally.errors.append("answer: changes to another version of the game")
                game.pending = body["action"]
                return
            note_answer(game, body, board, new_board, answer, tally)
            board = new_board
        if think > 0:
            pause = rng.expovariate(1 / think)
            await asyncio.sleep(max(0.0, min(pause, until - time.monotonic())))


def cpu_of(pid: int | None) -> float | None:
    """CPU seconds (user and system) a process and the processes it started (a server's
    workers) have used; None if it cannot be read."""
    if pid is None:
        return None
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            # fields after the command's name, which may hold spaces: the 2nd is the
            # parent's id, the 12th and 13th utime and stime
            fields = text[text.rindex(")") + 2:].split()
            stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    if pid not in stats:
        return None
    family, ticks = {pid}, 0
    for _ in range(3):  # a server, its workers, and any they start
        family |= {p for p, (parent, _) in stats.items() if parent in family}
    ticks = sum(stats[p][1] for p in family)
    return ticks / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    """CPU seconds this process has used, every thread of it."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class LineError(Exception):
    """A request that got no answer: no connection, a reset, a time-out, a broken answer."""


@dataclass
class Answer:
    """An HTTP answer: its status, headers (names in lower case) and body."""

    status_code: int
    headers: dict[str, str]
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.content)


class Line:
    """A player's own connection, kept alive between requests as a browser's page keeps
    one: HTTP/1.1 written and read here on asyncio's streams, with none of a general
    client's pooling, so that the client costs a small part of what the server does and
    the figures measure the server. A request that fails closes the connection; the next
    one opens a new one."""

    def __init__(self, url: str, context: ssl.SSLContext) -> None:
        parts = urlsplit(url)
        self.https = parts.scheme == "https"
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or (443 if self.https else 80)
        self.authority = parts.netloc
        self.context = context
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._used = 0.0
        self._turn: asyncio.Lock | None = None

    async def __aenter__(self) -> Line:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None

    async def get(self, path: str) -> Answer:
        return await self.request("GET", path)

    async def post(self, path: str, json: object) -> Answer:
        return await self.request("POST", path, _dumps(json))

    async def request(self, method: str, path: str, body: bytes | None = None) -> Answer:
        """The answer to one request; requests asked together go out one after another."""
        if self._turn is None:
            self._turn = asyncio.Lock()
        try:
            async with self._turn:
                return await asyncio.wait_for(self._exchange(method, path, body), TIMEOUT)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError,
                LineError) as exc:
            self.close()
            raise LineError(f"{type(exc).__name__}: {exc}") from exc

    async def _exchange(self, method: str, path: str, body: bytes | None) -> Answer:
        if self._streams is not None and time.monotonic() - self._used > KEEP_ALIVE:
            self.close()  # the server lets an idle connection go: a new one, as browsers do
        if self._streams is None:
            self._streams = await asyncio.open_connection(
                self.host, self.port, ssl=self.context if self.https else None)
        reader, writer = self._streams
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.authority}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        writer.write(head.encode() + b"\r\n" + (body or b""))
        await writer.drain()
        status_line, *lines = (await reader.readuntil(b"\r\n\r\n")).decode(
            "latin-1").split("\r\n")
        headers = {}
        for line in lines:
            name, _, value = line.partition(":")
            if name:
                headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            content = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            content = await _chunks(reader)
        else:
            raise LineError("an answer without its length")
        self._used = time.monotonic()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return Answer(int(status_line.split()[1]), headers, content)


async def _chunks(reader: asyncio.StreamReader) -> bytes:
    parts = []
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        parts.append(await reader.readexactly(size + 2))
        if not size:
            return b"".join(p[:-2] for p in parts)


def _dumps(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def player_client(url: str, context: ssl.SSLContext) -> Line:
    """A player's own connection, as a browser's page has its own."""
    return Line(url, context)


async def run(url: str, players: int, seconds: float, think: float = 0.0, *,
              seed: int = 0, server_pid: int | None = None, db: str | None = None,
              check_now: bool = True) -> Tally:
    """Run the players against ``url`` for ``seconds`` (their games opened first); what
    they saw. With ``check_now`` their games are then checked against ``db`` (a SQLite
    file or PostgreSQL address), or without one against the server's own copy; else
    :func:`check` is left to the caller."""
    tally = Tally()
    context = ssl.create_default_context()  # made once: making one costs milliseconds
    async with AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(player_client(url, context))
                   for _ in range(players)]
        opened = await asyncio.gather(*(open_game(c, tally) for c in clients))
        games = [(c, *g) for c, g in zip(clients, opened, strict=True) if g is not None]
        tally.games = [game for _, game, _ in games]
        server_before, client_before = cpu_of(server_pid), own_cpu()
        start = time.monotonic()
        until = start + seconds
        await asyncio.gather(*(play(client, game, board, until, tally,
                                    random.Random(f"{seed}:{k}"), think)
                               for k, (client, game, board) in enumerate(games)))
        tally.seconds = time.monotonic() - start
        tally.client_cpu = own_cpu() - client_before
        server_after = cpu_of(server_pid)
        if server_before is not None and server_after is not None:
            tally.server_cpu = server_after - server_before
        if check_now:
            ids = [game.id for game in tally.games]
            if db is not None:
                check(tally, read_records(db, ids), f"database {db}")
            else:
                check(tally, await server_records(clients[0], ids), "the server's own copy")
    return tally


@functools.cache
def unlimited(src: Path) -> tuple[str, ...]:
    """The options that lift a server's limit of new games per address, if it has one:
    every player here comes from one address, and stands for many."""
    said = subprocess.run([sys.executable, "-m", "numberplace", "serve", "--help"],
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(src)}).stdout
    return ("--games-per-hour", "1000000") if "--games-per-hour" in said else ()


def start_server(folder: str, source: Path | None = None, *, workers: int = 1,
                 store: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """A server of the tree whose ``src`` is ``source`` (by default this tree's) on a free
    port, in ``workers`` processes, its games in ``store`` (by default a new database
    ``load.db`` in ``folder``), answering; it and its address. Its output goes to
    ``server.log`` there, so it can never block on a full pipe."""
    log_path = Path(folder) / "server.log"
    src = source or ROOT / "src"
    env = {**os.environ, "PYTHONPATH": str(src)}
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "numberplace", "serve", "--host", "127.0.0.1",
             "--port", "0", "--db", store or str(Path(folder) / "load.db"),
             *(["--workers", str(workers)] if workers > 1 else []), *unlimited(src)],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
            start_new_session=True)
    deadline = time.monotonic() + START_SECONDS
    url = None
    while time.monotonic() < deadline and server.poll() is None:
        if url is None:
            said = log_path.read_text(errors="replace")
            if " at http" in said:
                url = said.split(" at ", 1)[1].split()[0].rstrip("/")
        if url is not None and _answers(url):
            return server, url
        time.sleep(0.1)
    stop_server(server)
    raise RuntimeError(f"the server did not answer within {START_SECONDS:g} s:\n"
                       + log_path.read_text(errors="replace")[-2000:])


def _answers(url: str) -> bool:
    """True when the server at ``url`` answers its list of shapes."""
    try:
        with urllib.request.urlopen(f"{url}/api/shapes", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """Stop a server started here, gracefully if it will."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def export_tree(ref: str, folder: Path) -> tuple[Path, str]:
    """REF's ``src`` written into ``folder`` with this tree's compiled core; its path and
    REF's commit. A warning is printed when the core's sources differ between the two."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify",
                             f"{ref}^{{commit}}"], capture_output=True, text=True,
                            check=True).stdout.strip()
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, "src"],
                         capture_output=True, check=True).stdout
    folder.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=tar, check=True)
    package = folder / "src" / "numberplace"
    cores = list((ROOT / "src" / "numberplace").glob("_core*.so"))
    for core in cores:
        shutil.copy2(core, package / core.name)
    if not cores:
        print("warning: no compiled core in this tree: both servers run without one",
              file=sys.stderr)
    # the core's C files sit beside their Python references, all over the package (a
    # pathspec's * matches across folders)
    changed = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", commit, "--",
                              "src/numberplace/*.c", "src/numberplace/*.h"])
    if changed.returncode:
        print(f"warning: the compiled core's sources differ between {ref} and this tree: "
              f"{ref}'s server runs on this tree's core", file=sys.stderr)
    found = subprocess.run([sys.executable, "-c", "import numberplace; "
                            "print(numberplace.__file__)"], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(folder / "src")},
                           check=True).stdout.strip()
    if not Path(found).resolve().is_relative_to(folder.resolve()):
        raise RuntimeError(f"{ref}'s tree is not the one imported ({found})")
    return folder / "src", commit


def percentile(ordered: Sequence[float], share: float) -> float:
    """The nearest-rank percentile of sorted values (0 for none)."""
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def error_kinds(errors: Sequence[str]) -> str:
    """Errors counted by kind (a status or an exception's name), most frequent first."""
    kinds = Counter(error.split(":", 1)[0] for error in errors)
    return ", ".join(f"{kind} x{n}" for kind, n in kinds.most_common()) or "-"


def report(tally: Tally, players: int, seconds: float) -> str:
    """One line on a run (``seconds``: as asked; the playing time measured is used)."""
    lat = sorted(tally.latencies)
    took = tally.seconds or seconds
    return (f"{players} players, {took:.1f} s: {len(lat):,} requests answered "
            f"({len(lat) / took:,.0f}/s), {tally.moves:,} moves, "
            f"{len(tally.errors)} errors ({error_kinds(tally.errors)}); "
            f"{len(tally.lost)} games with a lost move, {len(tally.doubled)} with a doubled "
            f"one, {len(tally.receipts)} with a wrong receipt (checked against "
            f"{tally.checked or 'nothing'}); latency ms p50 {percentile(lat, 0.5):.1f}, "
            f"p95 {percentile(lat, 0.95):.1f}, p99 {percentile(lat, 0.99):.1f}")


COLUMNS = (("server", "<"), ("players", ">"), ("think s", ">"), ("requests", ">"),
           ("req/s", ">"), ("p50 ms", ">"), ("p95 ms", ">"), ("p99 ms", ">"),
           ("lost", ">"), ("doubled", ">"), ("srv CPU ms/act", ">"), ("srv core", ">"),
           ("client CPU s", ">"), ("client core", ">"), ("errors", "<"))


def row_cells(row: Row) -> list[str]:
    """A row's cells, in the order of :data:`COLUMNS`."""
    t = row.tally
    lat = sorted(t.latencies)
    answered = len(lat)
    took = t.seconds or 1.0
    cpu = t.server_cpu
    return [row.server, str(row.players), f"{row.think:g}", f"{answered:,}",
            f"{answered / took:,.1f}", f"{percentile(lat, 0.5):.1f}",
            f"{percentile(lat, 0.95):.1f}", f"{percentile(lat, 0.99):.1f}",
            str(t.lost_moves) if t.checked else "?",
            str(t.doubled_moves) if t.checked else "?",
            f"{cpu * 1e3 / answered:.2f}" if cpu is not None and answered else "n/a",
            f"{cpu / took:.0%}" if cpu is not None else "n/a",
            f"{t.client_cpu:.1f}", f"{t.client_cpu / took:.0%}", error_kinds(t.errors)]


def table(rows: Sequence[Row]) -> str:
    """The rows as a text table."""
    cells = [[name for name, _ in COLUMNS]] + [row_cells(row) for row in rows]
    widths = [max(len(line[k]) for line in cells) for k in range(len(COLUMNS))]
    return "\n".join("  ".join(f"{text:{align}{width}}" for text, (_, align), width
                               in zip(line, COLUMNS, widths, strict=True)).rstrip()
                     for line in cells)


def ratios(rows: Sequence[Row], new: str, old: str) -> list[str]:
    """Per scenario, how the new server compares with the old: above 1 is better."""
    lines = []
    for row in rows:
        if not row.server.startswith(new):
            continue
        base = next((r for r in rows if r.server == old and r.players == row.players
                     and r.think == row.think), None)
        if base is None:
            continue
        n, o = row.tally, base.tally
        rate_new = len(n.latencies) / (n.seconds or 1.0)
        rate_old = len(o.latencies) / (o.seconds or 1.0)
        p95_new = percentile(sorted(n.latencies), 0.95)
        p95_old = percentile(sorted(o.latencies), 0.95)
        parts = [f"{row.server}, {row.players} players, think {row.think:g} s:",
                 f"req/s new/old {rate_new / rate_old:.2f}" if rate_old else "req/s n/a",
                 f"p95 old/new {p95_old / p95_new:.2f}" if p95_new else "p95 n/a"]
        if n.server_cpu and o.server_cpu and n.latencies and o.latencies:
            per_new = n.server_cpu / len(n.latencies)
            per_old = o.server_cpu / len(o.latencies)
            parts.append(f"CPU per action old/new {per_old / per_new:.2f}")
        lines.append("  " + " ".join(parts))
    return lines


def scenarios(text: str, think: float) -> list[tuple[int, float]]:
    """``PLAYERS:THINK,...`` as (players, think seconds) pairs; a bare count takes
    ``think``."""
    out = []
    for part in text.split(","):
        players, _, pause = part.strip().partition(":")
        try:
            pair = (int(players), float(pause) if pause else think)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r} is not PLAYERS:THINK") from None
        if pair[0] < 1 or pair[1] < 0 or not math.isfinite(pair[1]):
            raise argparse.ArgumentTypeError(f"{part!r}: players from 1, think from 0")
        out.append(pair)
    return out


def started_row(name: str, source: Path, folder: Path, players: int, think: float,
                seconds: float, seed: int, *, workers: int = 1, store: str | None = None
                ) -> Row:
    """One scenario against a new server of ``source`` (in ``workers`` processes, its
    games in ``store`` or a new SQLite file), its database checked once the server is
    stopped (so nothing can come from its memory)."""
    folder.mkdir(parents=True)
    server, url = start_server(str(folder), source, workers=workers, store=store)
    try:
        tally = asyncio.run(run(url, players, seconds, think, seed=seed,
                                server_pid=server.pid, check_now=False))
    finally:
        stop_server(server)
    db = store or str(folder / "load.db")
    check(tally, read_records(db, [game.id for game in tally.games]), "the database")
    return Row(name, players, think, tally)


def findings(rows: Sequence[Row]) -> list[str]:
    """Per row, the check of its games, and what went wrong, a few lines of each."""
    lines = []
    for row in rows:
        t = row.tally
        head = f"{row.server}, {row.players} players, think {row.think:g} s:"
        if not t.checked:
            lines.append(f"{head} games NOT CHECKED")
            continue
        bad = t.lost + t.doubled + t.receipts
        games = len(t.games)
        if not bad:
            lines.append(f"{head} {games} games, {t.moves:,} moves, checked against "
                         f"{t.checked}: every answered move stored exactly once, every "
                         f"receipt agrees")
        else:
            lines.append(f"{head} {games} games checked against {t.checked}: "
                         f"{t.lost_moves} moves lost in {len(t.lost)} games, "
                         f"{t.doubled_moves} doubled in {len(t.doubled)}, "
                         f"{len(t.receipts)} wrong receipts")
        pending = sum(game.pending is not None for game in t.games)
        if pending:
            lines.append(f"  {pending} games ended on a request never answered")
        let_go = sum(max(0, len(game.made) - game.kept) for game in t.games)
        if let_go:
            lines.append(f"  {let_go} oldest moves let go by the server's undo depth, as its "
                         f"answers said, not looked for")
        for what, shown in ((t.lost, 20), (t.doubled, 20), (t.receipts, 20), (t.errors, 8)):
            lines += [f"  {line}" for line in what[:shown]]
            if len(what) > shown:
                lines.append(f"  ... and {len(what) - shown} more like it")
    return lines


def say(server: str, players: int, think: float, seconds: float) -> None:
    """Tell on the error stream which row runs now (a long run shows its progress)."""
    print(f"{server}: {players} players, think {think:g} s, for {seconds:g} s...",
          file=sys.stderr, flush=True)


def main() -> None:
    """Run the scenarios and print their table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[2:]))
    parser.add_argument("--players", type=int, default=50, help="players at once (50)")
    parser.add_argument("--seconds", type=float, default=60,
                        help="seconds of playing for each row (60)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean think time in seconds, exponential; 0 for none (0)")
    parser.add_argument("--scenario", metavar="P:T,...",
                        help="several rows: players:think seconds, e.g. 50:0,200:1,500:1")
    parser.add_argument("--url", help="a running server (default: start one for each row)")
    parser.add_argument("--db", help="with --url: the server's database to check, a SQLite "
                        "file or postgresql://...")
    parser.add_argument("--server-pid", type=int, help="with --url: the server's process, "
                        "for its CPU time")
    parser.add_argument("--compare", metavar="REF",
                        help="also run every scenario against the server of git commit REF")
    parser.add_argument("--seed", type=int, default=0, help="the players' choices (0)")
    parser.add_argument("--workers", default="1", metavar="N,...",
                        help="this tree's servers in N processes, a row for each N (1)")
    parser.add_argument("--store", metavar="DB", help="this tree's servers keep their games "
                        "here (postgresql://...; default: a new SQLite file a row)")
    args = parser.parse_args()
    try:
        plan = (scenarios(args.scenario, args.think) if args.scenario
                else scenarios(str(args.players), args.think))
    except argparse.ArgumentTypeError as exc:
        parser.error(f"--scenario: {exc}")
    if args.seconds <= 0:
        parser.error("--seconds must be above 0")
    if args.url and args.compare:
        parser.error("--compare starts its own servers; it cannot go with --url")
    if not args.url and (args.db or args.server_pid):
        parser.error("--db and --server-pid name a running server's: they go with --url")
    if args.url and not args.db:
        print("!" * 78 + "\n!! DATABASE CHECK SKIPPED: no --db names the server's "
              "database, so the games\n!! are read back from the server itself, which "
              "proves nothing of what was saved.\n" + "!" * 78, file=sys.stderr)
    try:
        counts = [int(n) for n in args.workers.split(",")]
    except ValueError:
        parser.error("--workers: whole numbers with commas between, e.g. 1,2")
    if args.url and (args.workers != "1" or args.store):
        parser.error("--workers and --store are for the servers started here")
    rows: list[Row] = []
    new, old = "this tree", ""
    with tempfile.TemporaryDirectory(prefix="numberplace-load-") as tmp:
        servers = [(new if n == 1 else f"{new}, {n} workers", ROOT / "src", n, args.store)
                   for n in counts]
        if args.compare:
            source, commit = export_tree(args.compare, Path(tmp) / "ref")
            old = f"{args.compare} ({commit[:10]})"
            servers.append((old, source, 1, None))
        for players, think in plan:
            if args.url:
                say(args.url, players, think, args.seconds)
                tally = asyncio.run(run(args.url, players, args.seconds, think,
                                        seed=args.seed, server_pid=args.server_pid,
                                        db=args.db))
                rows.append(Row(args.url, players, think, tally))
                continue
            for name, source, workers, store in servers:
                say(name, players, think, args.seconds)
                rows.append(started_row(name, source, Path(tmp) / f"row{len(rows)}",
                                        players, think, args.seconds, args.seed,
                                        workers=workers, store=store))
    print(table(rows))
    if args.compare:
        print(f"\nnew = {new}, old = {old} (above 1: new is better)")
        print("\n".join(ratios(rows, new, old)))
    print()
    print("\n".join(findings(rows)))
    if args.url and not args.db:
        print("DATABASE CHECK SKIPPED: the games were read back from the server itself")
    sys.exit(1 if any(row.tally.failed for row in rows) else 0)


if __name__ == "__main__":
    main()
