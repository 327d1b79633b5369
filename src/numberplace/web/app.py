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
  ``resume``, ``auto``, ``notation``), answered with its reply and the game after it; a
  body numbered by its client (``"client"``, ``"seq"``) is carried out once however
  often it is sent;
- ``GET /api/games/{id}/file?as=session|sdo|puzzle`` the game to keep (``puzzle``: the
  puzzle alone in the format JSON records use, the only one a Kakuro or Killer has);
- ``GET /api/players/{player}/games`` and ``/stats`` a player's games and statistics;
- ``POST /api/live`` the live solver's view of a puzzle.

Games are isolated sessions, each behind its own lock, saved to the game store after
every action (SQLite, in a transaction). Bodies are bounded in size and every solver call
in time. Pages and static files are revalidated on every load (so a new version shows
at once) and compressed.
"""

from __future__ import annotations

import json
import random
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import formats
from ..alphabet import Alphabet
from ..errors import NumberplaceError
from ..game import Mode, Session
from ..game.saving import from_record, to_record
from ..puzzle import Puzzle
from ..serialize import game_record, hint_view_record, plain_format, shape_label
from ..shape import by_name
from .daily import daily_date, daily_puzzle
from .live import live_view
from .opening import open_text
from .players import TZ_RANGE, player_stats
from .store import GameInfo, GameStore, Progress

if TYPE_CHECKING:
    from ..bank import Bank

STATIC = Path(__file__).parent / "static"
#: The largest request body taken (a 25x25 puzzle in any format fits many times over).
MAX_BODY = 256 * 1024
#: Games kept in memory; others are read back from the store when asked for.
CACHED_GAMES = 2000
#: Shapes offered for a new game.
SHAPES = ("4x4", "6x6", "8x8", "9x9", "12x12", "16x16", "25x25", "diagonal", "jigsaw",
          "samurai", "wordoku", "kakuro-10x10", "killer")
#: Words of nine different letters for a Wordoku (a 9x9 in letters); none holds the mode
#: keys Z, X, C or V, so the keyboard keeps them.
WORDS = ("WORDPLAYS", "NIGHTMARE", "AUTHORISE", "SPRINKLED", "BLUEPRINT")
LEVELS = ("Easy", "Medium", "Difficult", "Extremely Difficult", "Fiendish", "Trial and Error")
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
    """A game being played: its session, the lock its requests take turns on, and what it
    is (whose, its label, level and date)."""

    session: Session
    lock: threading.Lock
    info: GameInfo

    def record(self, game_id: str) -> dict[str, Any]:
        """The game as its board shows it."""
        meta = {"level": self.info.level, "daily": self.info.daily}
        if self.info.label is not None:
            meta["label"] = self.info.label
        return game_record(self.session, game_id, meta)


@dataclass(frozen=True)
class NewGame:
    """A game a request asks for: its session, what it is, and a note for the player."""

    session: Session
    info: GameInfo
    note: str | None = None


class Games:
    """The games being played: sessions by id, each with its lock, backed by the store."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._cache: OrderedDict[str, Game] = OrderedDict()
        self._lock = threading.Lock()
        #: held while a player's daily game is looked for and made, so one is made
        self.daily_lock = threading.Lock()

    def add(self, session: Session, info: GameInfo | None = None) -> str:
        """Keep a new game; its id. Its verdict is found now if it is not known yet."""
        session.verdict()
        info = info or GameInfo(label=shape_label(session.shape))
        game_id = secrets.token_urlsafe(12)
        self.store.save(game_id, to_record(session), progress(session), info=info)
        self._keep(game_id, Game(session, threading.Lock(), info))
        return game_id

    def get(self, game_id: str) -> Game:
        """A game; BadRequest 404 if there is none."""
        with self._lock:
            found = self._cache.get(game_id)
            if found is not None:
                self._cache.move_to_end(game_id)
                return found
        record = self.store.load(game_id) if _plausible_id(game_id) else None
        if record is None:
            raise BadRequest(f"no game {game_id!r}", 404)
        info = self.store.info(game_id) or GameInfo()
        game = self._keep(game_id, Game(from_record(record), threading.Lock(), info))
        if game.session.puzzle_status is None:  # saved before verdicts were kept
            with game.lock:
                if game.session.puzzle_status is None:
                    game.session.verdict()
                    self.save(game_id, game)
        return game

    def _keep(self, game_id: str, game: Game) -> Game:
        with self._lock:
            kept = self._cache.setdefault(game_id, game)
            while len(self._cache) > CACHED_GAMES:
                self._cache.popitem(last=False)
            return kept

    def save(self, game_id: str, game: Game, claim: str | None = None) -> None:
        """Store a game after an action (under its lock); ``claim`` makes it that
        player's if it is nobody's yet."""
        if claim is not None and game.info.player is None:
            game.info = replace(game.info, player=claim)
        else:
            claim = None
        self.store.save(game_id, to_record(game.session), progress(game.session),
                        claim=claim)


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
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise BadRequest(f"the request is larger than {MAX_BODY:,} bytes", 413)
    try:
        body = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(f"the request is not JSON: {exc}") from None
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
    if puzzle_text is not None and puzzle_text.lstrip().startswith("{") \
            and '"numberplace-session"' in puzzle_text[:200]:
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
    from ..rating import level_by

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


def create_app(store: GameStore | None = None, bank: Bank | None = None) -> Starlette:
    """The web app, its games kept in ``store`` (in memory by default); new games come
    from ``bank`` where it has puzzles of their shape and level."""
    routes = [
        *(Route(path, _page) for path in PAGES),
        Route("/api/shapes", _shapes),
        Route("/api/games", _create, methods=["POST"]),
        Route("/api/daily", _daily, methods=["POST"]),
        Route("/api/games/{game}", _show),
        Route("/api/games/{game}/actions", _action, methods=["POST"]),
        Route("/api/games/{game}/file", _download),
        Route("/api/players/{player}/games", _player_games),
        Route("/api/players/{player}/stats", _player_stats),
        Route("/api/live", _live, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(GZipMiddleware, minimum_size=500), Middleware(_Headers)]
    app = Starlette(routes=routes, middleware=middleware, exception_handlers=_handlers())
    app.state.games = Games(store or GameStore())
    app.state.bank = bank
    return app


class _Headers:
    """Adds ``X-Content-Type-Options: nosniff`` to every answer, and to the pages and
    static files ``Cache-Control: no-cache``: the browser keeps them but asks, by their
    ETag, whether they changed, so a new version of the app shows at once."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        revalidated = path in PAGES or path.startswith("/static/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("X-Content-Type-Options", "nosniff")
                if revalidated:
                    headers.setdefault("Cache-Control", "no-cache")
            await send(message)

        await self.app(scope, receive, send_with_headers)


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

    def make() -> dict[str, Any]:
        made = new_session(body, bank)
        game_id = games.add(made.session, made.info)
        record = games.get(game_id).record(game_id)
        if made.note:
            record["note"] = made.note
        return record

    return JSONResponse(await run_in_threadpool(make), status_code=201)


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
                game = games.get(found)
                with game.lock:
                    return game.record(found), 200
            puzzle, level = daily_puzzle(games.store, day, GENERATE_SECONDS)
            session = Session(puzzle, mode=mode, notation=notation, verdict="unique")
            game_id = games.add(session, GameInfo(player, "9x9", level, day.isoformat()))
        return games.get(game_id).record(game_id), 201

    record, status = await run_in_threadpool(find_or_make)
    return JSONResponse(record, status_code=status)


async def _show(request: Request) -> Response:
    games, game_id = _games(request), request.path_params["game"]

    def look() -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            return game.record(game_id)

    return JSONResponse(await run_in_threadpool(look))


async def _action(request: Request) -> Response:
    games, game_id = _games(request), request.path_params["game"]
    body = await _body(request)
    receipt = _receipt(body)
    player = _player(body)

    def run() -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            session = game.session
            if receipt is not None and session.already_done(*receipt):
                if player is not None and game.info.player is None:
                    games.save(game_id, game, claim=player)
                return {"ok": True, "duplicate": True, "game": game.record(game_id)}
            answer = act(session, body)
            if receipt is not None:
                session.receipt(*receipt)
            games.save(game_id, game, claim=player)
            answer["game"] = game.record(game_id)
            return answer

    return JSONResponse(await run_in_threadpool(run))


async def _download(request: Request) -> Response:
    game_id = request.path_params["game"]
    kind = request.query_params.get("as", "session")
    if kind not in ("session", "sdo", "puzzle"):
        raise BadRequest("as must be session, sdo or puzzle")
    game = await run_in_threadpool(_games(request).get, game_id)
    with game.lock:
        session = game.session
        puzzle = session.puzzle
        if kind == "sdo" and puzzle.shape.cages:
            raise BadRequest(f"a {plain_format(puzzle)} puzzle has no .sdo form; ask "
                             f"as=puzzle")
        # a jigsaw's line would lose its regions
        alone = "jigsaw" if puzzle.shape.regions else plain_format(puzzle)
        text = (formats.write(puzzle, "sdo") if kind == "sdo" else
                formats.write(puzzle, alone) if kind == "puzzle" else
                json.dumps(to_record(session)))
    suffix = {"session": "json", "sdo": "sdo", "puzzle": "txt"}[kind]
    name = f"numberplace-{game_id}.{suffix}"
    return PlainTextResponse(text + "\n", headers={
        "content-disposition": f'attachment; filename="{name}"'})


async def _player_games(request: Request) -> Response:
    player = _ident(request.path_params["player"], "player")
    games = await run_in_threadpool(_games(request).store.player_games, player)
    return JSONResponse({"games": games})


async def _player_stats(request: Request) -> Response:
    player = _ident(request.path_params["player"], "player")
    tz = request.query_params.get("tz", "0")
    low, high = TZ_RANGE
    if not re.fullmatch(r"[+-]?\d{1,4}", tz) or not low <= int(tz) <= high:
        raise BadRequest(f"tz must be minutes east of UTC, from {low} to {high}")
    played = await run_in_threadpool(_games(request).store.played, player)
    return JSONResponse(player_stats(played, time.time(), int(tz)))


async def _live(request: Request) -> Response:
    body = await _body(request)
    return JSONResponse(await run_in_threadpool(live_view, body))


def _handlers() -> dict[Any, Callable[[Request, Exception], Awaitable[Response]]]:
    async def refused(request: Request, exc: Exception) -> Response:
        status = exc.status if isinstance(exc, BadRequest) else 400
        return JSONResponse({"error": str(exc)}, status_code=status)

    async def http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    return {BadRequest: refused, NumberplaceError: refused, TypeError: refused,
            ValueError: refused, HTTPException: http}
