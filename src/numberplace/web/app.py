"""The web app: a JSON API over the game layer and the live solver, and the front end.

Routes (every API answer JSON; an error is ``{"error": "..."}`` with a 4xx status):

- ``GET /`` the game page, ``GET /live`` the live solver page, ``/static/...`` their files,
  ``GET /sw.js`` the service worker and ``GET /manifest.webmanifest`` the app's manifest;
- ``GET /api/shapes`` the shapes and levels a new game may take (a Kakuro's and a
  Killer's levels under ``sum_levels``);
- ``POST /api/games`` a new game: ``{"shape", "level", "seed"}`` generates one (a shape
  ``kakuro-10x10`` or ``killer``, or any other name of a Kakuro or Killer that
  ``generate_sums`` takes, makes one at level 1-3), ``{"puzzle": TEXT, "shape"?,
  "alphabet"?, "format"?, "entries"?}`` starts from a puzzle in any format, the kakuro
  and killer ones too (or reopens a saved session file); either with ``"mode"?``,
  ``"notation"?`` and ``"player"?``;
- ``POST /api/daily`` the daily puzzle of ``{"date"}`` (the player's game of it, if any);
- ``GET /api/games/{id}`` a game as its board shows it;
- ``POST /api/games/{id}/actions`` one action (``enter``, ``erase``, ``mark``, ``paint``,
  ``undo``, ``redo``, ``hint``, ``step``, ``solve``, ``check``, ``diagnose``, ``pause``,
  ``resume``, ``auto``, ``notation``), answered with its reply and the game after it
  (with ``"answer": "changes"``, what changed: :func:`~numberplace.store.serialize.game_changes`);
  a body numbered by its client (``"client"``, ``"seq"``) is carried out once however
  often it is sent;
- ``GET /api/games/{id}/file?as=session|sdo|puzzle`` the game to keep (``puzzle``: the
  puzzle alone in the format JSON records use, the only one a Kakuro or Killer has);
- ``GET /api/players/{player}/games`` and ``/stats`` a player's games and statistics;
- ``POST /api/live`` the live solver's view of a puzzle.

Games are isolated sessions, each behind its own lock, saved to the game store after
every action as what it changed (SQLite or PostgreSQL, in a transaction guarded by the
game's version, so several servers may share the store). Bodies are bounded in size and
every solver call in time. Pages and static files are revalidated on every load (so a new
version shows at once) and compressed.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import random
import re
import secrets
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import formats
from ..errors import NumberplaceError
from ..formats.table import SUFFIXES
from ..game import Mode, Session, journal
from ..game.saving import from_record, is_session_text, to_record
from ..logic.techniques import LEVEL_NAMES
from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import by_name
from ..store.serialize import game_changes, game_record, hint_view_record, plain_format, shape_label
from .daily import daily_date, daily_puzzle
from .live import live_view
from .opening import open_text
from .players import TZ_RANGE, player_stats
from .store import Conflict, GameInfo, GameStore, Progress, StoreError
from .work import Busy, Quota, Slots, TooMany, client_of, off_loop

if TYPE_CHECKING:
    from ..store.bank import Bank

STATIC = Path(__file__).parent / "static"
#: The largest request body taken (a 25x25 puzzle in any format fits many times over).
MAX_BODY = 256 * 1024
#: Seconds a request's body may take to arrive.
BODY_SECONDS = 10.0
#: Games kept in memory, and the bytes of their records at most; others are read back
#: from the store when asked for.
CACHED_GAMES = 2000
CACHED_BYTES = 256 * 1024 * 1024
#: A game's record is written whole again (and the entries after it let go) once its
#: entries take more bytes than the record itself, and at least COMPACT_AFTER of them:
#: so a move costs at most its own bytes twice over, however long the game; and at the
#: latest after COMPACT_EVERY entries, so a game is read with at most that many applied.
COMPACT_AFTER = 8
COMPACT_EVERY = 1000
#: Answers from this many bytes on are compressed for a client that takes gzip, at this
#: level (a big game's record shrinks about tenfold at level 6; 9 costs more for little).
COMPRESS_FROM = 500
COMPRESS_LEVEL = 6
#: Times an action is tried on a game that other servers keep saving first.
CONFLICT_TRIES = 20
#: Locks the games' requests take turns on, chosen by the game's id.
STRIPES = 1024
#: Searches (hints, steps, checks, new games) that run at once, and for one client: more
#: than the cores would only make each slower, and leave no thread for the moves.
SOLVER_SLOTS = max(2, os.cpu_count() or 2)
SLOTS_PER_CLIENT = 2
#: New games one address may start in an hour.
GAMES_PER_HOUR = 600
#: Seconds between two sweeps for idle games.
SWEEP_SECONDS = 3600.0
#: Shapes offered for a new game.
SHAPES = ("4x4", "6x6", "8x8", "9x9", "12x12", "16x16", "25x25", "diagonal", "jigsaw",
          "samurai", "wordoku", "kakuro-10x10", "killer")
#: Words of nine different letters for a Wordoku (a 9x9 in letters); none holds the mode
#: keys Z, X, C or V, so the keyboard keeps them.
WORDS = ("WORDPLAYS", "NIGHTMARE", "AUTHORISE", "SPRINKLED", "BLUEPRINT")
LEVELS = LEVEL_NAMES
#: Levels a Kakuro or Killer is made at, by kind.
SUM_LEVELS = {"kakuro": (1, 2, 3), "killer": (1, 2, 3)}
#: Seconds a new game's generation may take.
GENERATE_SECONDS = 20.0
#: The notation of a game made on the web unless another is asked.
WEB_NOTATION = "rc"
#: A player's or a client's id: what a browser makes up and keeps.
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The highest request number a client may send (the largest whole number a JavaScript
#: number holds exactly).
MAX_SEQ = 2 ** 53
#: Pages served from the static folder, and their types.
PAGES = {"/": ("index.html", "text/html"), "/live": ("live.html", "text/html"),
         "/sw.js": ("sw.js", "text/javascript"),
         "/manifest.webmanifest": ("manifest.webmanifest", "application/manifest+json")}


class BadRequest(Exception):
    """A request the API refuses, with its status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Game:
    """A game being played: its session and what it is (whose, its label, level and
    date), its version in the store and the session as saved there. Its requests take
    turns on :meth:`Games.locked`."""

    session: Session
    info: GameInfo
    #: the bytes its record and entries take in the store: what it costs the cache
    size: int = 0
    #: the store's version of the game this copy is
    version: int = 0
    #: entries stored after its record
    entries: int = 0
    #: the bytes of its record alone
    record_size: int = 0
    #: the session as saved, to tell what the next action changes
    saved: journal.Mark | None = None

    def record(self, game_id: str) -> dict[str, Any]:
        """The game as its board shows it."""
        meta = {"level": self.info.level, "daily": self.info.daily}
        if self.info.label is not None:
            meta["label"] = self.info.label
        record = game_record(self.session, game_id, meta)
        record["version"] = self.version
        return record


@dataclass(frozen=True)
class NewGame:
    """A game a request asks for: its session, what it is, and a note for the player."""

    session: Session
    info: GameInfo
    note: str | None = None


class Games:
    """The games being played: sessions by id, backed by the store.

    A game's requests take turns on a lock chosen by its id (one of :data:`STRIPES`), not
    on one kept with its cached copy: a game dropped from the cache while an action runs
    keeps its lock, so the next request waits for that action's save and then reads the
    game as saved. A cached copy is used only while the store holds the same version of
    the game (another server sharing the store may have moved it on); a save from an
    older version is refused by the store (:class:`Conflict`) and the action is tried
    again on the game read afresh. A save that fails drops the cached copy too, so the
    move it carried is not kept: the next request reads the game as it was last saved.
    An action is saved as what it changed (an entry); now and then the record is written
    whole again (:data:`COMPACT_AFTER`).
    """

    def __init__(self, store: GameStore, idle_seconds: float | None = None) -> None:
        self.store = store
        self.idle_seconds = idle_seconds
        self._swept = -SWEEP_SECONDS
        self._cache: OrderedDict[str, Game] = OrderedDict()
        #: the sizes of the cached games' records, in all
        self._bytes = 0
        self._lock = threading.Lock()
        self._stripes = [threading.Lock() for _ in range(STRIPES)]
        #: held while a player's daily game is looked for and made, so one is made
        self.daily_lock = threading.Lock()

    def add(self, session: Session, info: GameInfo | None = None) -> str:
        """Keep a new game; its id. Its verdict is found now if it is not known yet."""
        session.verdict()
        info = info or GameInfo(label=shape_label(session.shape))
        game_id = secrets.token_urlsafe(12)
        size = self.store.save(game_id, to_record(session), progress(session), info=info)
        self._keep(game_id, Game(session, info, size, record_size=size,
                                 saved=journal.mark(session)))
        self._sweep()
        return game_id

    def _sweep(self) -> None:
        """Remove the games left idle too long, once in :data:`SWEEP_SECONDS`."""
        now = time.monotonic()
        if self.idle_seconds is None or now - self._swept < SWEEP_SECONDS:
            return
        self._swept = now
        if self.store.expire(self.idle_seconds):
            with self._lock:
                self._cache.clear()  # a cached game may have been removed
                self._bytes = 0

    @contextmanager
    def locked(self, game_id: str, *, fresh: bool = True) -> Iterator[Game]:
        """The game, for this request alone while the block runs; BadRequest 404 if there
        is none. With ``fresh`` False a cached copy is taken without asking the store
        whether it is still current: the caller saves an action from it (a save from an
        older version is refused) or asks :meth:`current` before it answers."""
        with self._stripes[zlib.crc32(game_id.encode()) % STRIPES]:
            yield self._get(game_id, fresh)

    def current(self, game_id: str, game: Game) -> None:
        """Conflict if the store holds a newer version of the game than ``game``, whose
        copy is then dropped (under the game's lock)."""
        if self.store.version(game_id) != game.version:
            self.forget(game_id)
            raise Conflict(game_id)

    def _get(self, game_id: str, fresh: bool = True) -> Game:
        with self._lock:
            cached = self._cache.get(game_id)
            if cached is not None:
                self._cache.move_to_end(game_id)
        if not _plausible_id(game_id):
            raise BadRequest(f"no game {game_id!r}", 404)
        if cached is not None:
            # a cheap look at the store: another server may have saved the game since
            if not fresh or self.store.version(game_id) == cached.version:
                return cached
            self.forget(game_id)
        found = self.store.stored(game_id)
        if found is None:
            raise BadRequest(f"no game {game_id!r}", 404)
        info = self.store.info(game_id) or GameInfo()
        session = from_record(found.record)
        game = Game(session, info, found.size, found.version, found.entries,
                    found.record_size, journal.mark(session))
        if session.puzzle_status is None:  # saved before verdicts were kept
            session.verdict()
            self.save(game_id, game)
        return self._keep(game_id, game)

    def _keep(self, game_id: str, game: Game) -> Game:
        with self._lock:
            kept = self._cache.setdefault(game_id, game)
            if kept is game:
                self._bytes += game.size
            self._trim()
            return kept

    def _trim(self) -> None:
        """Drop the games played longest ago past :data:`CACHED_GAMES` or
        :data:`CACHED_BYTES` (under ``_lock``)."""
        while len(self._cache) > 1 and (len(self._cache) > CACHED_GAMES
                                        or self._bytes > CACHED_BYTES):
            self._bytes -= self._cache.popitem(last=False)[1].size

    def forget(self, game_id: str) -> None:
        """Drop a game's cached copy (the store's is the game from now on)."""
        with self._lock:
            gone = self._cache.pop(game_id, None)
            if gone is not None:
                self._bytes -= gone.size

    def save(self, game_id: str, game: Game, claim: str | None = None
             ) -> dict[str, Any] | None:
        """Store what an action changed in a game (under its lock); what it changed (see
        :mod:`numberplace.game.journal`), or None for nothing. ``claim`` makes the game
        that player's if it is nobody's yet. StoreError if it cannot be stored, Conflict
        if another server saved the game since it was read: the cached copy is dropped,
        and with it the action."""
        if claim is not None and game.info.player is not None:
            claim = None
        assert game.saved is not None
        change = journal.delta(game.saved, game.session)
        if change is None and claim is None:
            return None
        try:
            added = self.store.append(game_id, game.version, change or {},
                                      progress(game.session), claim=claim)
        except (StoreError, Conflict):
            self.forget(game_id)
            raise
        if claim is not None:
            game.info = replace(game.info, player=claim)
        game.version += 1
        game.entries += 1
        game.saved = journal.mark(game.session)
        size = game.size + added
        if game.entries >= COMPACT_EVERY or (game.entries >= COMPACT_AFTER
                                             and 2 * (size - game.record_size) > size):
            try:
                written = self.store.compact(game_id, game.version, to_record(game.session))
            except StoreError:
                written = None  # the move is stored; its entries wait for the next time
            if written is not None:
                game.entries, size = 0, written
                game.record_size = written
        with self._lock:
            if self._cache.get(game_id) is game:
                self._bytes += size - game.size
            game.size = size
            self._trim()
        return change

    def delete(self, game_id: str) -> bool:
        """Remove a game, from the cache and the store; False if there was none."""
        with self._stripes[zlib.crc32(game_id.encode()) % STRIPES]:
            self.forget(game_id)
            return self.store.delete(game_id)


def progress(session: Session) -> Progress:
    """Where a game stands, as the store keeps it beside the record."""
    return Progress(session.shape.name, session.solved, session.revealed,
                    session.timer.elapsed(), sum(1 for v in session.values() if v),
                    session.shape.ncells)


def _plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 64 and all(ch.isalnum() or ch in "-_" for ch in game_id)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, bounded in size."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise BadRequest(f"the request is larger than {MAX_BODY:,} bytes", 413)

    async def read() -> bytes:
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise BadRequest(f"the request is larger than {MAX_BODY:,} bytes", 413)
        return raw

    try:  # a client that sends slowly is let go
        raw = await asyncio.wait_for(read(), BODY_SECONDS)
    except asyncio.TimeoutError:
        raise BadRequest(f"the request's body took more than {BODY_SECONDS:g} s", 408) \
            from None
    try:
        body = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(f"the request is not JSON: {exc}") from None
    except RecursionError:
        raise BadRequest("the request is nested too deeply") from None
    if not isinstance(body, dict):
        raise BadRequest("the request must be a JSON object")
    return body


def _text(body: dict[str, Any], key: str, default: str | None = None) -> str | None:
    value = body.get(key, default)
    if value is not None and not isinstance(value, str):
        raise BadRequest(f"{key} must be a string")
    return value


def _ident(value: object, what: str) -> str:
    """A player's or client's id, checked."""
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise BadRequest(f"{what} must be 1 to 64 letters, digits, '-' or '_'")
    return value


def _player(body: dict[str, Any]) -> str | None:
    value = body.get("player")
    return None if value is None else _ident(value, "player")


def _receipt(body: dict[str, Any]) -> tuple[str, int] | None:
    """The client and number of a numbered request, checked; None for one without."""
    client, seq = body.get("client"), body.get("seq")
    if client is None and seq is None:
        return None
    if client is None or seq is None:
        raise BadRequest("client and seq come together: the client's id and the "
                         "request's number")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= MAX_SEQ:
        raise BadRequest("seq must be a whole number from 1 to 2**53")
    return _ident(client, "client"), seq


def _settings(body: dict[str, Any], notation: str | None = WEB_NOTATION
              ) -> tuple[Mode, str | None]:
    """A new game's mode and notation (``notation`` when the body names none)."""
    mode = _text(body, "mode", "book")
    if mode not in ("book", "free"):
        raise BadRequest("mode must be book or free")
    asked = _text(body, "notation", notation)
    if asked is not None and asked not in ("rc", "book"):
        raise BadRequest("notation must be rc or book")
    return Mode(mode), asked


def new_session(body: dict[str, Any], bank: Bank | None = None) -> NewGame:
    """The game a new-game request asks for (runs in a worker thread): a new puzzle
    comes from ``bank`` when it holds one of that shape and level and no seed was asked
    for, else it is generated; a puzzle given as text is opened, its verdict found."""
    player = _player(body)
    puzzle_text = _text(body, "puzzle")
    shape_name = _text(body, "shape")
    if puzzle_text is not None and is_session_text(puzzle_text):
        mode, notation = _settings(body, None)
        try:
            session = from_record(json.loads(puzzle_text), source="the saved game")
        except json.JSONDecodeError as exc:
            raise BadRequest(f"the saved game is damaged: {exc.msg}") from None
        if notation is not None:
            session.set_notation(notation)
        session.verdict()
        return NewGame(session, GameInfo(player, shape_label(session.shape)))
    mode, notation = _settings(body)
    assert notation is not None
    if puzzle_text is not None:
        opened = open_text(puzzle_text, shape=shape_name, format=_text(body, "format"),
                           alphabet=_text(body, "alphabet"))
        session = Session(opened.puzzle, mode=mode, notation=notation)
        _progress(session, _text(body, "entries"))
        session.verdict()
        return NewGame(session, GameInfo(player, shape_label(session.shape)), opened.note)
    # imported here: the generator loads with the first new game, not at the server's start
    from ..generate import generate, random_regions

    name = shape_name or "9x9"
    seed = body.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise BadRequest("seed must be a whole number")
    if name.lower().startswith(("kakuro", "killer")):
        level = body.get("level", 1)
        session = _sums_session(name, level, seed, mode, notation)
        return NewGame(session, GameInfo(player, name.strip().lower(), level))
    level = body.get("level", 1)
    drawn = _drawn(bank, name, level) if bank is not None and seed is None else None
    if drawn is None:
        shape = (random_regions(9, seed, time_limit=5) if name == "jigsaw" else
                 by_name("9x9" if name == "wordoku" else name))
        drawn = generate(shape, level=level, seed=seed, time_limit=GENERATE_SECONDS).puzzle
    puzzle = drawn
    if name == "wordoku":
        word = random.Random(seed).choice(WORDS)
        puzzle = Puzzle(puzzle.shape, puzzle.givens, Alphabet.letters(word))
    label = name if name in SHAPES else puzzle.shape.name
    return NewGame(Session(puzzle, mode=mode, notation=notation, verdict="unique"),
                   GameInfo(player, label, _level_number(level)))


def _level_number(level: object) -> int | None:
    """The number of a level asked for by name or number (None if it names none)."""
    # imported here: the rating loads with the first request that needs it, not at the start
    from ..logic.rating import level_by

    if isinstance(level, bool) or not isinstance(level, (int, str)):
        return None
    try:
        return level_by(level).number
    except NumberplaceError:
        return None


def _drawn(bank: Bank, name: str, level: object) -> Puzzle | None:
    """A random puzzle of the bank for a new game of shape ``name`` at ``level``."""
    number = _level_number(level)
    if number is None:
        return None  # generate() names what is wrong with it
    try:
        shape = "jigsaw-9x9" if name == "jigsaw" else by_name(
            "9x9" if name == "wordoku" else name).name
    except NumberplaceError:
        return None
    stored = bank.draw(shape, number)
    return stored.puzzle if stored is not None else None


def _sums_session(name: str, level: object, seed: int | None, mode: Mode,
                  notation: str) -> Session:
    """A new Kakuro or Killer; BadRequest for a kind or level there is none of."""
    # imported here: the generator loads with the first new game, not at the server's start
    from ..generate import generate_sums, sums_kind

    kind = sums_kind(name)
    if kind is None:
        raise BadRequest(f"unknown shape {name!r}; a Kakuro or Killer is kakuro, "
                         f"kakuro-RxC, killer or killer-NxN")
    levels = SUM_LEVELS[kind.kind]
    if isinstance(level, bool) or not isinstance(level, int) or level not in levels:
        raise BadRequest(f"a {kind.kind.capitalize()} is made at level "
                         f"{', '.join(map(str, levels))}, not {level!r}")
    made = generate_sums(kind, level=level, seed=seed, time_limit=GENERATE_SECONDS)
    return Session(made.puzzle, mode=mode, notation=notation, verdict="unique")


def _progress(session: Session, entries: str | None) -> None:
    """Enter the values of a shared link's progress (one symbol a cell, ``.`` for none)."""
    if entries is None:
        return
    if len(entries) != session.shape.ncells:
        raise BadRequest(f"entries must have one symbol for each of the "
                         f"{session.shape.ncells} cells")
    for cell, ch in enumerate(entries):
        value = session.puzzle.alphabet.value(ch)
        if value is None:
            raise BadRequest(f"entries: {ch!r} is not a symbol of the puzzle")
        if value and not session.puzzle.givens[cell]:
            session.enter(cell, value)


def act(session: Session, body: dict[str, Any]) -> dict[str, Any]:
    """Carry out one action on a session; what to answer (runs under the game's lock)."""
    action = _text(body, "action")
    cells = body.get("cells", [])
    value = body.get("value", 0)
    if action == "enter":
        reply = session.enter(cells, value)
    elif action == "erase":
        reply = session.erase(cells)
    elif action == "mark":
        reply = session.mark(cells, value, _text(body, "kind", "corner") or "corner")
    elif action == "paint":
        reply = session.paint(cells, value)
    elif action in ("undo", "redo", "step"):
        reply = getattr(session, action)()
    elif action == "solve":
        reply = session.solve_all()
    else:
        return _ask(session, action, body)
    return {"ok": reply.ok, "message": reply.message, "solved": reply.solved}


def _ask(session: Session, action: str | None, body: dict[str, Any]) -> dict[str, Any]:
    """The actions that tell rather than change the board (and the timer's, and the
    settings)."""
    if action == "hint":
        return {"ok": True, "hint": hint_view_record(session.hint(body.get("tier", 1)),
                                                     session.shape)}
    if action == "check":
        verdict = session.verdict()
        if verdict.status != "unique":  # no single solution to compare the entries with
            return {"ok": True, "mistakes": [], "status": verdict.status,
                    "message": verdict.message}
        return {"ok": True, "mistakes": session.mistakes(), "status": verdict.status}
    if action == "diagnose":
        found = session.diagnose()
        return {"ok": True, "status": found.status, "message": found.message}
    if action == "pause":
        session.pause()
    elif action == "resume":
        session.resume()
    elif action == "auto":
        session.set_auto_fill(bool(body.get("on", True)))
    elif action == "notation":
        value = body.get("value")
        if value not in ("rc", "book"):
            raise BadRequest("notation must be rc or book")
        session.set_notation(value)
    else:
        raise BadRequest(f"unknown action {action!r}")
    return {"ok": True}


def create_app(store: GameStore | None = None, bank: Bank | None = None,
               slots: Slots | None = None, *, games_per_hour: int = GAMES_PER_HOUR,
               idle_days: float | None = None, hosts: Sequence[str] = ("*",)) -> Starlette:
    """The web app, its games kept in ``store`` (in memory by default); new games come
    from ``bank`` where it has puzzles of their shape and level; ``slots`` bound the
    solver work running at once (by default :data:`SOLVER_SLOTS`, two a client). One
    address starts at most ``games_per_hour`` games an hour; games nobody played for
    ``idle_days`` are removed (None: kept); ``hosts`` are the names the server answers
    to (``*``: any)."""
    routes = [
        # the moves first: routes are tried in order, and moves are most of the requests
        Route("/api/games/{game}/actions", _action, methods=["POST"]),
        *(Route(path, _page) for path in PAGES),
        Route("/api/shapes", _shapes),
        Route("/api/games", _create, methods=["POST"]),
        Route("/api/daily", _daily, methods=["POST"]),
        Route("/api/games/{game}", _show),
        Route("/api/games/{game}", _delete, methods=["DELETE"]),
        Route("/api/games/{game}/file", _download),
        Route("/api/players/{player}/games", _player_games),
        Route("/api/players/{player}/stats", _player_stats),
        Route("/api/live", _live, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts),
                             www_redirect=False),
                  Middleware(_Compressed, minimum_size=COMPRESS_FROM), Middleware(_Headers)]
    app = Starlette(routes=routes, middleware=middleware, exception_handlers=_handlers())
    # a redirect to the address with or without a final slash would echo the Host header
    app.router.redirect_slashes = False
    app.state.games = Games(store or GameStore(),
                            None if idle_days is None else idle_days * 86400)
    app.state.bank = bank
    app.state.slots = slots or Slots(SOLVER_SLOTS, SLOTS_PER_CLIENT)
    app.state.quota = Quota(games_per_hour)
    return app


class _Compressed(GZipMiddleware):
    """Compresses the pages and static files; the API's answers are compressed in their
    worker threads (:func:`_encoded`), so this layer is not crossed by every move."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


#: The page's scripts and styles are its own files: no inline script or style, no other
#: site's, no framing; a game's link is its key, so it is never sent on as a referrer.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; connect-src 'self'; "
                               "manifest-src 'self'; worker-src 'self'; object-src 'none'; "
                               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
_SECURITY_RAW = [(name.lower().encode(), value.encode())
                 for name, value in SECURITY_HEADERS.items()]
_PAGE_HEADERS = [*_SECURITY_RAW, (b"cache-control", b"no-cache")]
_API_HEADERS = [*_SECURITY_RAW, (b"cache-control", b"no-store")]
#: Methods that change something: their requests must come from the app's own pages.
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class _Headers:
    """Adds :data:`SECURITY_HEADERS` to every answer; to the API's ``Cache-Control:
    no-store`` (a game is never kept by a cache between), and to the pages and static
    files ``no-cache`` (the browser keeps them but asks, by their ETag, whether they
    changed, so a new version of the app shows at once). Refuses a write to the API that
    is not JSON (415) or that comes from another site's page (403): a cross-site form or
    ``text/plain`` post cannot act on a game."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        refused = _refused_write(scope) if path.startswith("/api/") else None
        revalidated = path in PAGES or path.startswith("/static/")

        extra = _PAGE_HEADERS if revalidated else (
            _API_HEADERS if path.startswith("/api/") else _SECURITY_RAW)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # added as raw pairs, past the ones the answer set itself: every answer
                # passes here, so it is kept cheap
                headers = list(message.get("headers", ()))
                have = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in extra if name not in have]
                message["headers"] = headers
            await send(message)

        if refused is not None:
            status, error = refused
            await JSONResponse({"error": error}, status_code=status)(
                scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)


def _refused_write(scope: Scope) -> tuple[int, str] | None:
    """Why a request to the API is refused before it is read, or None."""
    if scope["method"] not in WRITES:
        return None
    headers = Headers(scope=scope)
    if headers.get("sec-fetch-site") == "cross-site":
        return 403, "a request from another site's page"
    origin = headers.get("origin")
    if origin is not None and origin != "null":
        host = headers.get("host", "")
        if urlsplit(origin).netloc.lower() != host.lower():
            return 403, f"a request from another origin ({origin})"
    if scope["method"] != "DELETE":
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return 415, "the request must be JSON (Content-Type: application/json)"
    return None


def _games(request: Request) -> Games:
    games: Games = request.app.state.games
    return games


#: Answers whether a file changed since the browser's copy (by its ETag or date).
_REVALIDATE = StaticFiles(directory=STATIC)


async def _page(request: Request) -> Response:
    name, media_type = PAGES[request.url.path]
    headers = {"Service-Worker-Allowed": "/"} if name == "sw.js" else None
    path = STATIC / name
    # the file's state given now sets its ETag now, to compare with the browser's copy
    response = FileResponse(path, media_type=media_type, headers=headers,
                            stat_result=path.stat())
    if _REVALIDATE.is_not_modified(response.headers, request.headers):
        return NotModifiedResponse(response.headers)
    return response


async def _shapes(request: Request) -> Response:
    sum_levels = {name: [LEVELS[n - 1] for n in SUM_LEVELS[name.split("-")[0]]]
                  for name in SHAPES if name.split("-")[0] in SUM_LEVELS}
    return JSONResponse({"shapes": list(SHAPES), "levels": list(LEVELS),
                         "sum_levels": sum_levels})


async def _create(request: Request) -> Response:
    body = await _body(request)
    games, bank = _games(request), request.app.state.bank
    request.app.state.quota.take(client_of(request))  # by address: ids are made up freely

    def make() -> dict[str, Any]:
        made = new_session(body, bank)
        game_id = games.add(made.session, made.info)
        with games.locked(game_id) as game:
            record = game.record(game_id)
        if made.note:
            record["note"] = made.note
        return record

    answer = await off_loop(request, lambda: _encoded(make(), request), slots=_slots(request),
                            client=client_of(request, body), seconds=GENERATE_SECONDS + 5)
    return _json(answer, 201)


async def _daily(request: Request) -> Response:
    body = await _body(request)
    day = daily_date(body.get("date"), datetime.now(timezone.utc).date())
    player = _player(body)
    mode, notation = _settings(body)
    assert notation is not None
    games = _games(request)

    def find_or_make() -> tuple[dict[str, Any], int]:
        with games.daily_lock:
            found = games.store.daily_game(player, day.isoformat()) if player else None
            if found is not None:
                with games.locked(found) as game:
                    return game.record(found), 200
            puzzle, level = daily_puzzle(games.store, day, GENERATE_SECONDS)
            session = Session(puzzle, mode=mode, notation=notation, verdict="unique")
            game_id = games.add(session, GameInfo(player, "9x9", level, day.isoformat()))
        with games.locked(game_id) as game:
            return game.record(game_id), 201

    def answer() -> tuple[Encoded, int]:
        record, status = find_or_make()
        return _encoded(record, request), status

    encoded, status = await off_loop(request, answer, slots=_slots(request),
                                     client=client_of(request, body),
                                     seconds=GENERATE_SECONDS + 5)
    return _json(encoded, status)


async def _show(request: Request) -> Response:
    games, game_id = _games(request), request.path_params["game"]

    def look() -> dict[str, Any]:
        with games.locked(game_id) as game:
            return game.record(game_id)

    return _json(await off_loop(request, lambda: _encoded(look(), request)))


#: Actions that may search, and so take a solver slot.
SOLVER_ACTIONS = frozenset({"hint", "step", "solve", "check", "diagnose"})
#: Actions that never search (no value changes, so nothing is forced or checked anew):
#: over in a moment, they need no watch for a client that goes away.
QUICK_ACTIONS = frozenset({"mark", "paint", "pause", "resume", "notation"})


async def _action(request: Request) -> Response:
    games, game_id = _games(request), request.path_params["game"]
    body = await _body(request)
    receipt = _receipt(body)
    player = _player(body)
    answer_with = _text(body, "answer", "game")
    if answer_with not in ("game", "changes"):
        raise BadRequest("answer must be game (the whole game) or changes (what changed)")

    solver = body.get("action") in SOLVER_ACTIONS

    def attempt(fresh: bool) -> dict[str, Any]:
        # a search is not made on a copy another server has moved on from; a move is
        # made on the cached copy as it stands, and its save tells whether it was current
        with games.locked(game_id, fresh=fresh) as game:
            session = game.session
            if receipt is not None and session.already_done(*receipt):
                if player is not None and game.info.player is None:
                    games.save(game_id, game, claim=player)
                elif not fresh:
                    games.current(game_id, game)
                return {"ok": True, "duplicate": True, "game": game.record(game_id)}
            base = game.version
            try:
                answer = act(session, body)
                if receipt is not None:
                    session.receipt(*receipt)
                change = games.save(game_id, game, claim=player)
                if change is None and not fresh:  # nothing saved, so nothing checked
                    games.current(game_id, game)
            except BaseException:
                # the action may have changed the session before it failed: the store's
                # copy, from before it, is the game
                games.forget(game_id)
                raise
            if answer_with == "changes":
                answer["changes"] = game_changes(session, change, base, game.version)
            else:
                answer["game"] = game.record(game_id)
            return answer

    def run() -> dict[str, Any]:
        for tries in range(CONFLICT_TRIES):
            try:
                return attempt(fresh=solver or tries > 0)
            except Conflict:
                # another server saved the game first: again, on its save, after a
                # random wait that grows, so that two servers do not keep meeting
                time.sleep(random.uniform(0, 0.002 * 2 ** min(tries, 6)))
        raise StoreError(f"the game {game_id} is being changed elsewhere; try again")

    return _json(await off_loop(request, lambda: _encoded(run(), request),
                                slots=_slots(request) if solver else None,
                                client=client_of(request, body),
                                watch=body.get("action") not in QUICK_ACTIONS))


async def _delete(request: Request) -> Response:
    games, game_id = _games(request), request.path_params["game"]
    if not await off_loop(request, lambda: games.delete(game_id)):
        raise BadRequest(f"no game {game_id!r}", 404)
    return JSONResponse({"ok": True, "deleted": game_id})


async def _download(request: Request) -> Response:
    game_id = request.path_params["game"]
    kind = request.query_params.get("as", "session")
    if kind not in ("session", "sdo", "puzzle"):
        raise BadRequest("as must be session, sdo or puzzle")
    games = _games(request)

    def written() -> bytes:
        return (text() + "\n").encode()

    def text() -> str:
        with games.locked(game_id) as game:
            session = game.session
            puzzle = session.puzzle
            if kind == "sdo" and puzzle.shape.cages:
                raise BadRequest(f"a {plain_format(puzzle)} puzzle has no .sdo form; ask "
                                 f"as=puzzle")
            # a jigsaw's line would lose its regions
            alone = "jigsaw" if puzzle.shape.regions else plain_format(puzzle)
            return (formats.write(puzzle, "sdo") if kind == "sdo" else
                    formats.write(puzzle, alone) if kind == "puzzle" else
                    json.dumps(to_record(session)))

    content = await off_loop(request, written)
    # the puzzle alone gets the suffix a game is saved under in its plain format
    suffix = {"session": ".json", "sdo": SUFFIXES["sdo"], "puzzle": SUFFIXES["line"]}[kind]
    name = f"numberplace-{game_id}{suffix}"
    return PlainTextResponse(content, headers={
        "content-disposition": f'attachment; filename="{name}"'})


async def _player_games(request: Request) -> Response:
    player = _ident(request.path_params["player"], "player")
    store = _games(request).store
    return _json(await off_loop(request,
                                lambda: _encoded({"games": store.player_games(player)},
                                                 request)))


async def _player_stats(request: Request) -> Response:
    player = _ident(request.path_params["player"], "player")
    tz = request.query_params.get("tz", "0")
    low, high = TZ_RANGE
    if not re.fullmatch(r"[+-]?\d{1,4}", tz) or not low <= int(tz) <= high:
        raise BadRequest(f"tz must be minutes east of UTC, from {low} to {high}")
    store = _games(request).store
    return _json(await off_loop(request, lambda: _encoded(
        player_stats(store.played(player), time.time(), int(tz)), request)))


async def _live(request: Request) -> Response:
    body = await _body(request)
    return _json(await off_loop(request, lambda: _encoded(live_view(body), request),
                                slots=_slots(request), client=client_of(request, body)))


@dataclass(frozen=True)
class Encoded:
    """An answer's JSON as sent: its bytes, compressed with gzip or not."""

    content: bytes
    gzip: bool = False


def _encoded(value: object, request: Request) -> Encoded:
    """An answer as JSON, made in the request's worker thread and compressed there when
    it is large and the client takes gzip: a big game's record is neither written out
    nor compressed on the event loop."""
    content = json.dumps(value, ensure_ascii=False, allow_nan=False,
                         separators=(",", ":")).encode()
    if len(content) < COMPRESS_FROM or "gzip" not in request.headers.get("accept-encoding",
                                                                         ""):
        return Encoded(content)
    return Encoded(gzip.compress(content, COMPRESS_LEVEL, mtime=0), gzip=True)


def _json(answer: Encoded, status: int = 200) -> Response:
    headers = {"content-encoding": "gzip", "vary": "Accept-Encoding"} if answer.gzip \
        else None
    return Response(answer.content, status_code=status, headers=headers,
                    media_type="application/json")


def _slots(request: Request) -> Slots:
    slots: Slots = request.app.state.slots
    return slots


def _handlers() -> dict[Any, Callable[[Request, Exception], Awaitable[Response]]]:
    async def refused(request: Request, exc: Exception) -> Response:
        status = exc.status if isinstance(exc, BadRequest) else 400
        return JSONResponse({"error": str(exc)}, status_code=status)

    async def http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    async def unavailable(request: Request, exc: Exception) -> Response:
        # come back later: the store failed (nothing of the request was kept), every
        # solver slot is taken, or the client started too many games
        retry = exc.retry_after if isinstance(exc, Busy) else 5
        return JSONResponse({"error": str(exc)}, headers={"Retry-After": str(retry)},
                            status_code=429 if isinstance(exc, TooMany) else 503)

    return {BadRequest: refused, NumberplaceError: refused, TypeError: refused,
            ValueError: refused, RecursionError: refused, HTTPException: http,
            StoreError: unavailable, Busy: unavailable}
