"""The ``numberplace`` command line.

Each command group has its module (:data:`COMMAND_MODULES`: ``search``: solve, count,
check; ``files``: convert, bench; ``logic``: hint, rate, explain; ``make``: generate;
``kakuro``: kakuro; ``play``: play, serve; ``canon``: canon; ``bank``: bank; ``book``:
print), a thin caller of the library, most through one pipeline (:mod:`.pipeline`).
Errors a user can cause print one line on standard error and exit with status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TextIO, cast

from .. import native
from ..errors import NumberplaceError
from .options import EPILOG, Parser, Version
from .pipeline import Output, OutputError, Settings, default_jobs

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = ["build_parser", "main"]


#: The module of each command; --help lists the commands in this order.
COMMAND_MODULES = {
    "solve": "search", "count": "search", "check": "search", "convert": "files",
    "bench": "files", "hint": "logic", "rate": "logic", "explain": "logic",
    "generate": "make", "kakuro": "kakuro", "play": "play", "serve": "play",
    "canon": "canon", "bank": "bank", "print": "book",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``numberplace`` command; given a ``command``, only the
    module of that command is loaded (the others would cost start-up time for nothing)."""
    parser = Parser(prog="numberplace",
                    description="Sudoku-family puzzles: solve, count, check, convert, "
                                "explain, hint, rate, generate, canon, bank, print, bench, "
                                "kakuro, play, serve.",
                    epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=Version, nargs=0,
                        help="show the version and which search engine runs, then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    chosen = COMMAND_MODULES.get(command or "")
    for name in dict.fromkeys(COMMAND_MODULES.values()):
        # --version needs no command; help, or an unknown command, needs them all
        if command != "--version" and chosen in (None, name):
            importlib.import_module(f".{name}", __name__).add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None,
         executor: Callable[[], Executor] | None = None) -> int:
    """Run the command line; returns the exit status. ``executor`` makes the executor the
    commands work in (default: a process pool of ``--jobs`` workers)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(argv[0] if argv else None).parse_args(argv)
    on_terminal = sys.stderr.isatty()
    settings = Settings(
        command=args.command, jobs=getattr(args, "jobs", None) or default_jobs(),
        progress=on_terminal and not getattr(args, "no_progress", True),
        summary=on_terminal or getattr(args, "summary", False), executor=executor,
        reading=(getattr(args, "in_format", None), getattr(args, "shape", None)))
    out = Output(sys.stdout, "standard output")
    _warn_without_core(args)
    try:
        with _on_cluster(args, settings) as settings:
            status: int = args.handler(args, cast(TextIO, out), settings)
        out.flush()
        return status
    except NumberplaceError as exc:
        print(f"numberplace: error: {exc}", file=sys.stderr)
        if isinstance(exc, OutputError):
            _drop_output()
        return 2
    except KeyboardInterrupt:
        print("numberplace: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        _drop_output()
        return 0


@contextlib.contextmanager
def _on_cluster(args: argparse.Namespace, settings: Settings) -> Iterator[Settings]:
    """The settings with a Dask cluster's executor while the block runs, when
    ``--scheduler`` or ``--cluster`` asks for one."""
    scheduler, local = getattr(args, "scheduler", None), getattr(args, "cluster", None)
    if not (scheduler or local):
        yield settings
        return
    # imported here: Dask (the cluster extra) loads only for --cluster or --scheduler
    from .cluster import cluster_executor

    with cluster_executor(scheduler, local == "local", settings.jobs) as found:
        assert found is not None
        make, slots = found
        yield settings.replace(executor=make, jobs=slots)


def _warn_without_core(args: argparse.Namespace) -> None:
    """Say once when searches run on the pure-Python engine only because the compiled core
    was not built (it is about 60 times slower), unless that engine was asked for."""
    if args.command in ("convert", "kakuro", "play", "serve") or getattr(args, "backend", None) \
            or os.environ.get("NUMBERPLACE_BACKEND"):
        return
    if native.stale is not None:
        print(f"numberplace: warning: {native.stale}; searches run in pure Python meanwhile, "
              f"about 60 times slower", file=sys.stderr)
    elif native.core is None:
        print("numberplace: warning: the compiled engine is not built, so searches run in "
              "pure Python, about 60 times slower; install a C compiler and reinstall "
              "numberplace to build it", file=sys.stderr)


def _drop_output() -> None:
    """Send what standard output still holds nowhere, so that leaving Python does not try
    to write it again where it cannot go."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
