"""``play`` and ``serve``: the web app, for one player on this machine or for many."""

from __future__ import annotations

import argparse
import socket
import sys
from typing import TYPE_CHECKING, Any, TextIO

from . import options
from .pipeline import Settings

if TYPE_CHECKING:
    from starlette.applications import Starlette


def play(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Start the app on this machine and open the browser on a game: FILE's puzzle (or
    saved game), or a new one."""
    # imported here: the web app loads for play and serve alone
    from ..game.saving import open_game, puzzles_in
    from ..web.app import WEB_NOTATION

    app = _app(args)
    fragment = ""
    if args.file:
        # named as the web names cells; the game's verdict and label are found as it is
        # added, before the browser opens on it
        game = open_game(args.file, notation=WEB_NOTATION, number=args.puzzle)
        held = puzzles_in(args.file)
        if held > 1:
            print(f"numberplace: {args.file} holds {held} puzzles; playing puzzle "
                  f"{args.puzzle} (--puzzle N plays another)", file=sys.stderr)
        fragment = "#game=" + app.state.games.add(game)
    return _serve(app, "127.0.0.1", args.port, fragment, open_browser=not args.no_browser,
                  what="playing")


def serve(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Serve the app to many players, in one process or several (``--workers``)."""
    if args.workers == 1:
        return _serve(_app(args), args.host, args.port, "", open_browser=False,
                      what="serving")
    # imported here: the web app loads for play and serve alone
    from ..web.server import app_from_settings, run_workers

    app_from_settings(_settings(args)).state.games.store.close()  # opens, or says why not
    sock, url = _listen(args.host, args.port, "", shared=True)
    run_workers(_settings(args), args.workers, sock, lambda: print(
        f"numberplace: serving at {url} with {args.workers} workers (Ctrl-C to stop)",
        file=sys.stderr, flush=True))
    return 0


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    """The app's settings from the command line (see :func:`web.server.app_from_settings`)."""
    # imported here: the web app loads for play and serve alone
    from ..web import default_path
    from ..web.app import GAMES_PER_HOUR

    # the local app answers to this machine's own names only: a page of another site
    # that renames itself to 127.0.0.1 cannot read the player's games
    hosts = getattr(args, "allowed_host", None) or (
        ["*"] if args.command == "serve" else ["127.0.0.1", "localhost"])
    return {"db": str(args.db or default_path()), "bank": args.bank,
            "games_per_hour": getattr(args, "games_per_hour", GAMES_PER_HOUR),
            "idle_days": getattr(args, "idle_days", None), "hosts": hosts}


def _app(args: argparse.Namespace) -> Starlette:
    # imported here: the web app loads for play and serve alone
    from ..web.server import app_from_settings

    app: Starlette = app_from_settings(_settings(args))
    return app


def _listen(host: str, port: int, fragment: str, *, shared: bool = False
            ) -> tuple[socket.socket, str]:
    # imported here: the web app loads for play and serve alone
    from ..web.server import listening_socket

    sock = listening_socket(host, port, shared=shared)
    shown = f"[{host}]" if ":" in host else host
    return sock, f"http://{shown}:{sock.getsockname()[1]}/{fragment}"


def _serve(app: object, host: str, port: int, fragment: str, *, open_browser: bool,
           what: str) -> int:
    # imported here: the web app loads for play and serve alone
    from ..web import run

    sock, url = _listen(host, port, fragment)

    def started() -> None:
        print(f"numberplace: {what} at {url} (Ctrl-C to stop)", file=sys.stderr, flush=True)
        if open_browser:
            import webbrowser  # only here: it costs start-up time for every other command

            webbrowser.open(url)

    run(app, sock, started)
    return 0


def add_parsers(sub: options.Commands) -> None:
    """The ``play`` and ``serve`` commands."""
    p = options.command(sub, "play", play, "play in the browser",
                        "Start the web app on this machine and open the browser on a game: "
                        "the puzzle (or saved game) of FILE, or a new random puzzle. Games "
                        "are saved as you play.")
    p.add_argument("file", nargs="?", help="a puzzle in any format, or a saved game (.json)")
    p.add_argument("--puzzle", type=options.whole_number(1, "is less than 1"), default=1,
                   metavar="N", help="play the Nth puzzle of FILE (default: the first)")
    p.add_argument("--port", type=options.whole_number(0, "must not be negative", 65535),
                   default=0, metavar="N", help="port (default: any free one)")
    p.add_argument("--no-browser", action="store_true",
                   help="print the address instead of opening the browser")
    _add_db(p)
    p = options.command(sub, "serve", serve, "serve the web app to many players",
                        "Serve the web app: each player's games are their own, saved as "
                        "they play.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 for every one)")
    p.add_argument("--port", type=options.whole_number(0, "must not be negative", 65535),
                   default=8000, metavar="N", help="port (default 8000)")
    p.add_argument("--allowed-host", action="append", metavar="NAME",
                   help="a host name the server answers to (again for more; default: any)")
    p.add_argument("--games-per-hour", type=options.whole_number(1, "is less than 1"),
                   default=600, metavar="N",
                   help="new games one address may start in an hour (default 600)")
    p.add_argument("--idle-days", type=options.positive_number("days"), metavar="D",
                   help="remove games nobody has played for D days (default: keep them)")
    p.add_argument("--workers", type=options.whole_number(1, "is less than 1"), default=1,
                   metavar="N", help="serve from N processes sharing the game store "
                   "(default 1; use a PostgreSQL --db to share it across machines too)")
    _add_db(p)


def _add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="DB", help="where games are saved: a SQLite file, or a "
                   "PostgreSQL URL (postgresql://...) that several servers share (default: "
                   "numberplace/numberplace.db in the user's data folder)")
    p.add_argument("--bank", metavar="DB", help="draw new games from this puzzle bank "
                   "(see 'numberplace bank') where it holds the shape and level asked for")
