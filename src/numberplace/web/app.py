"""The web app: a JSON API over the game layer and the live solver, and the front end.

Routes (every answer JSON; an error is ``{"error": "..."}`` with a 4xx status):

- ``GET /`` the game page, ``GET /live`` the live solver page, ``/static/...`` their files;
- ``GET /api/shapes`` the shapes and levels a new game may take (a Kakuro's and a
  Killer's levels under ``sum_levels``);
- ``POST /api/games`` a new game: ``{"shape", "level", "seed", "mode"}`` generates one
  (a shape ``kakuro-10x10`` or ``killer``, or any other name of a Kakuro or Killer
  that ``generate_sums`` takes, makes one at level 1-3),
  ``{"puzzle": TEXT, "shape"?, "alphabet"?, "format"?, "mode"?}`` starts from a puzzle
  in any format, the kakuro and killer ones too (or reopens a saved session file);
- ``GET /api/games/{id}`` a game as its board shows it;
- ``POST /api/games/{id}/actions`` one action (``enter``, ``erase``, ``mark``, ``paint``,
  ``undo``, ``redo``, ``hint``, ``step``, ``solve``, ``check``, ``diagnose``, ``pause``,
  ``resume``, ``auto``), answered with its reply and the game after it;
- ``GET /api/games/{id}/file?as=session|sdo|puzzle`` the game to keep (``puzzle``: the
  puzzle alone in the format JSON records use, the only one a Kakuro or Killer has);
- ``POST /api/live`` the live solver's view of a puzzle.

Games are isolated sessions, each behind its own lock, saved to the game store after
every action (SQLite, in a transaction). Bodies are bounded in size and every solver call
in time.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import formats
from ..alphabet import Alphabet
from ..errors import NumberplaceError
from ..game import Mode, Session
from ..game.saving import from_record, to_record
from ..puzzle import Puzzle
from ..serialize import game_record, hint_view_record, plain_format
from ..shape import by_name
from .live import live_view
from .store import GameStore

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


class BadRequest(Exception):
    """A request the API refuses, with its status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Games:
    """The games being played: sessions by id, each with its lock, backed by the store."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._cache: OrderedDict[str, tuple[Session, threading.Lock]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: Session) -> str:
        """Keep a new game; its id."""
        game_id = secrets.token_urlsafe(12)
        self.store.save(game_id, to_record(session))
        self._keep(game_id, session, threading.Lock())
        return game_id

    def get(self, game_id: str) -> tuple[Session, threading.Lock]:
        """A game and its lock; BadRequest 404 if there is none."""
        with self._lock:
            found = self._cache.get(game_id)
            if found is not None:
                self._cache.move_to_end(game_id)
                return found
        record = self.store.load(game_id) if _plausible_id(game_id) else None
        if record is None:
            raise BadRequest(f"no game {game_id!r}", 404)
        return self._keep(game_id, from_record(record), threading.Lock())

    def _keep(self, game_id: str, session: Session, lock: threading.Lock
              ) -> tuple[Session, threading.Lock]:
        with self._lock:
            kept = self._cache.setdefault(game_id, (session, lock))
            while len(self._cache) > CACHED_GAMES:
                self._cache.popitem(last=False)
            return kept

    def save(self, game_id: str, session: Session) -> None:
        """Store a game after an action."""
        self.store.save(game_id, to_record(session))


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


def new_session(body: dict[str, Any], bank: Bank | None = None) -> Session:
    """The session a new-game request asks for (runs in a worker thread): a new puzzle
    comes from ``bank`` when it holds one of that shape and level and no seed was asked
    for, else it is generated."""
    mode = _text(body, "mode", "book")
    if mode not in ("book", "free"):
        raise BadRequest("mode must be book or free")
    puzzle_text = _text(body, "puzzle")
    shape_name = _text(body, "shape")
    if puzzle_text is not None and puzzle_text.lstrip().startswith("{") \
            and '"numberplace-session"' in puzzle_text[:200]:
        try:
            return from_record(json.loads(puzzle_text), source="the saved game")
        except json.JSONDecodeError as exc:
            raise BadRequest(f"the saved game is damaged: {exc.msg}") from None
    if puzzle_text is not None:
        puzzle = formats.parse(puzzle_text, shape=shape_name, format=_text(body, "format"),
                               alphabet=_text(body, "alphabet"), source="the puzzle")
        session = Session(puzzle, mode=Mode(mode))
        _progress(session, _text(body, "entries"))
        return session
    from ..generate import generate, random_regions

    name = shape_name or "9x9"
    seed = body.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise BadRequest("seed must be a whole number")
    if name.lower().startswith(("kakuro", "killer")):
        return _sums_session(name, body.get("level", 1), seed, Mode(mode))
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
    return Session(puzzle, mode=Mode(mode))


def _drawn(bank: Bank, name: str, level: object) -> Puzzle | None:
    """A random puzzle of the bank for a new game of shape ``name`` at ``level``."""
    from ..rating import level_by

    if isinstance(level, bool) or not isinstance(level, (int, str)):
        return None  # generate() names what is wrong with it
    try:
        number = level_by(level).number
        shape = "jigsaw-9x9" if name == "jigsaw" else by_name(
            "9x9" if name == "wordoku" else name).name
    except NumberplaceError:
        return None
    stored = bank.draw(shape, number)
    return stored.puzzle if stored is not None else None


def _sums_session(name: str, level: object, seed: int | None, mode: Mode) -> Session:
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
    return Session(made.puzzle, mode=mode)


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
    """The actions that tell rather than change the board (and the timer's)."""
    if action == "hint":
        return {"ok": True, "hint": hint_view_record(session.hint(body.get("tier", 1)),
                                                     session.shape)}
    if action == "check":
        return {"ok": True, "mistakes": session.mistakes()}
    if action == "diagnose":
        found = session.diagnose()
        return {"ok": True, "status": found.status, "message": found.message}
    if action == "pause":
        session.pause()
    elif action == "resume":
        session.resume()
    elif action == "auto":
        session.set_auto_fill(bool(body.get("on", True)))
    else:
        raise BadRequest(f"unknown action {action!r}")
    return {"ok": True}


def create_app(store: GameStore | None = None, bank: Bank | None = None) -> Starlette:
    """The web app, its games kept in ``store`` (in memory by default); new games come
    from ``bank`` where it has puzzles of their shape and level."""
    routes = [
        Route("/", _page), Route("/live", _page),
        Route("/api/shapes", _shapes),
        Route("/api/games", _create, methods=["POST"]),
        Route("/api/games/{game}", _show),
        Route("/api/games/{game}/actions", _action, methods=["POST"]),
        Route("/api/games/{game}/file", _download),
        Route("/api/live", _live, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers=_handlers())
    app.state.games = Games(store or GameStore())
    app.state.bank = bank
    return app


def _games(request: Request) -> Games:
    games: Games = request.app.state.games
    return games


async def _page(request: Request) -> Response:
    name = "live.html" if request.url.path.rstrip("/") == "/live" else "index.html"
    return FileResponse(STATIC / name, media_type="text/html")


async def _shapes(request: Request) -> Response:
    sum_levels = {name: [LEVELS[n - 1] for n in SUM_LEVELS[name.split("-")[0]]]
                  for name in SHAPES if name.split("-")[0] in SUM_LEVELS}
    return JSONResponse({"shapes": list(SHAPES), "levels": list(LEVELS),
                         "sum_levels": sum_levels})


async def _create(request: Request) -> Response:
    body = await _body(request)
    session = await run_in_threadpool(new_session, body, request.app.state.bank)
    game_id = _games(request).add(session)
    return JSONResponse(game_record(session, game_id), status_code=201)


async def _show(request: Request) -> Response:
    games, game_id = _games(request), request.path_params["game"]

    def look() -> dict[str, Any]:
        session, lock = games.get(game_id)
        with lock:
            return game_record(session, game_id)

    return JSONResponse(await run_in_threadpool(look))


async def _action(request: Request) -> Response:
    games, game_id = _games(request), request.path_params["game"]
    body = await _body(request)

    def run() -> dict[str, Any]:
        session, lock = games.get(game_id)
        with lock:
            answer = act(session, body)
            games.save(game_id, session)
            answer["game"] = game_record(session, game_id)
            return answer

    return JSONResponse(await run_in_threadpool(run))


async def _download(request: Request) -> Response:
    game_id = request.path_params["game"]
    kind = request.query_params.get("as", "session")
    if kind not in ("session", "sdo", "puzzle"):
        raise BadRequest("as must be session, sdo or puzzle")
    session, lock = await run_in_threadpool(_games(request).get, game_id)
    with lock:
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
