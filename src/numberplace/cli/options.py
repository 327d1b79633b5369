"""Argument parsing shared by the commands: the parser, value types, option groups."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

from .. import __version__, formats
from ..arguments import MAX_LIMIT, MAX_NODES
from ..errors import NumberplaceError
from ..formats import FORMAT_NAMES
from ..formats.inputs import open_input
from ..model.alphabet import Alphabet
from ..model.shape import Shape, by_name
from .pipeline import default_jobs

if TYPE_CHECKING:
    from typing import TypeAlias

    from ..formats.inputs import Input

    #: What a command module adds its commands to.
    Commands: TypeAlias = argparse._SubParsersAction["Parser"]

T = TypeVar("T")

#: The time limit of a puzzle's search when none is given (seconds).
DEFAULT_SECONDS = 60.0

EPILOG = """\
Input is a file of puzzles (or - for standard input) in any supported format, detected
automatically: one puzzle per line, grids over several lines separated by blank lines,
.sdo, .sdk, .ss, pencil marks, Sukaku, Samurai, jigsaw with its region map, JSON,
Kakuro grids (clue squares written down\\across) or Killer cage maps with their sums.
Files ending in .gz, .xz or .bz2 are decompressed; a byte-order mark and any line ends
are fine.
Exit status: 0 when every record was read, 2 for usage or input errors; check exits 1
when a puzzle is invalid, unsolvable or not unique.
"""


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors exit with status 2 after one line."""

    #: True until usage or help is written: till then a formatter only checks each new
    #: argument's metavar, and one that does not ask the terminal its width will do
    #: (asking imports shutil and makes system calls, per argument: a tenth of start-up).
    _checking = True

    def _get_formatter(self) -> argparse.HelpFormatter:
        if self._checking:
            # every HelpFormatter takes a width; the stubs know only prog
            return self.formatter_class(prog=self.prog, width=100)  # type: ignore[call-arg]
        return super()._get_formatter()

    def format_usage(self) -> str:
        self._checking = False
        return super().format_usage()

    def format_help(self) -> str:
        self._checking = False
        return super().format_help()

    def error(self, message: str) -> None:  # type: ignore[override]  # argparse: NoReturn
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


class Version(argparse.Action):
    """``--version``: the version and the engine in use (the engine is only imported when
    asked, to keep start-up short)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        # imported here: --version alone needs the engine, and every command reads these options
        from .. import native
        from ..engine import vector9

        if native.backend_name() == "c":
            engine = "compiled C core" + (", 9x9 in AVX-512 vectors" if vector9() else "")
        elif native.core is not None:
            engine = "pure Python, as chosen"
        else:
            engine = (f"pure Python; {native.stale or 'the compiled core is not built'}, "
                      f"searches are about 60x slower")
        print(f"numberplace {__version__} (engine: {engine})")
        parser.exit()


def command(sub: Commands, name: str, handler: Callable[..., int], help: str,
            description: str) -> argparse.ArgumentParser:
    """A new command whose arguments go to ``handler(args, out, settings)``."""
    p: argparse.ArgumentParser = sub.add_parser(name, help=help, description=description)
    p.set_defaults(handler=handler)
    return p


def whole_number(minimum: int, rule: str, maximum: int = MAX_NODES) -> Callable[[str], int]:
    """An argparse type for whole numbers from ``minimum`` to ``maximum``."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text} {rule}")
        if value > maximum:
            raise argparse.ArgumentTypeError(f"{text} is more than {maximum:,}")
        return value

    return convert


positive = whole_number(1, "must be at least 1")
non_negative = whole_number(0, "must not be negative")
#: Solutions a search may look for: the engine counts in 32 bits.
solution_count = whole_number(1, "must be at least 1", MAX_LIMIT)


def jobs(text: str) -> int:
    """An argparse type for ``--jobs``: at least 1, and at most four workers per core (more
    only queue for the cores and hold memory and open files)."""
    most = 4 * default_jobs()
    value = positive(text)
    if value > most:
        raise argparse.ArgumentTypeError(f"{value} is more than this machine can use: at "
                                         f"most {most} ({default_jobs()} cores)")
    return value


def positive_number(unit: str) -> Callable[[str], float]:
    """An argparse type for a finite number of ``unit`` above 0."""

    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit}") from None
        if not 0 < value < float("inf"):
            raise argparse.ArgumentTypeError(f"{text} must be a number of {unit} above 0")
        return value

    return convert


def seconds(text: str) -> float | None:
    """An argparse type for a number of seconds; 0 means no limit."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value >= 0 or value != value:
        raise argparse.ArgumentTypeError(f"{text} must be 0 (no limit) or more seconds")
    return value if 0 < value < float("inf") else None


def value_range(kind: Callable[[str], T]) -> Callable[[str], tuple[T, T]]:
    """An argparse type for ``LO-HI`` (or one value, meaning ``LO-LO``)."""

    def parse(text: str) -> tuple[T, T]:
        low, sep, high = text.partition("-")
        try:
            pair = (kind(low), kind(high if sep else low))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a range such as 3-5") from None
        if pair[0] > pair[1]:  # type: ignore[operator]  # T is int or float here
            raise argparse.ArgumentTypeError(f"{text!r}: the low end is above the high end")
        return pair

    return parse


def add_input(p: argparse.ArgumentParser, *, jobs: bool = True) -> None:
    """The input file and how to read it; with ``jobs``, also the worker options."""
    p.add_argument("file", nargs="?", default="-",
                   help="file of puzzles, - for standard input (default); .gz, .xz and "
                        ".bz2 files are decompressed")
    p.add_argument("--shape", metavar="NAME",
                   help="shape when the text alone cannot tell: 4x4, 6x6, 8x8, 9x9, 12x12, "
                        "16x16, 25x25, samurai, diagonal, diagonal-6x6, jigsaw, killer, kakuro")
    p.add_argument("--alphabet", metavar="A",
                   help="symbols: digits (1-9 then A...), hex (0-9 A-F), letters, "
                        "or the symbols themselves, e.g. WORDPLAYS")
    p.add_argument("--format", dest="in_format", choices=FORMAT_NAMES,
                   help="input format (default: detected)")
    if jobs:
        add_workers(p)
        p.add_argument("--summary", action="store_true",
                       help="print the closing summary even when not on a terminal")


def add_workers(p: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--scheduler``, ``--cluster`` and ``--no-progress``."""
    p.add_argument("--jobs", type=jobs, default=None, metavar="N",
                   help="workers: processes, or threads for files of one-line 9x9 and "
                        "smaller puzzles (default: all cores; at most 4 per core); with "
                        "--cluster local, the cluster's worker processes")
    cluster = p.add_mutually_exclusive_group()
    cluster.add_argument("--scheduler", metavar="ADDRESS",
                         help="work on the Dask cluster of this scheduler (e.g. "
                              "tcp://10.0.0.5:8786); needs the cluster extra")
    cluster.add_argument("--cluster", choices=("local",),
                         help="local: start a Dask cluster of --jobs workers on this "
                              "machine for the run; needs the cluster extra")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar, even on a terminal")


def add_search(p: argparse.ArgumentParser, default_limit: int) -> None:
    """The engine's limits and output options of solve, count and check."""
    p.add_argument("--limit", type=solution_count, default=default_limit, metavar="N",
                   help=f"solutions to look for (default {default_limit}; 2 tells unique)")
    p.add_argument("--node-limit", type=non_negative, default=0, metavar="N",
                   help="stop a search after N nodes (status limit; default 0: no limit)")
    add_time_limit(p, DEFAULT_SECONDS, "stop a puzzle's search after S seconds (status "
                   f"limit; default {DEFAULT_SECONDS:g}, 0 for none)")
    add_backend(p, "search engine: compiled (c) or pure Python (default: fastest)")
    add_json(p, "one JSON object per puzzle per line")
    p.add_argument("--stats", action="store_true",
                   help="after each puzzle, a comment line with nodes, guesses and time")


def add_json(p: argparse.ArgumentParser, text: str) -> None:
    """``--json``, whose help says what each object holds."""
    p.add_argument("--json", action="store_true", help=text)


def add_time_limit(p: argparse.ArgumentParser, default: float | None, text: str) -> None:
    """``--time-limit S``."""
    p.add_argument("--time-limit", type=seconds, default=default, metavar="S", help=text)


def add_backend(p: argparse.ArgumentParser, text: str) -> None:
    """``--backend``."""
    p.add_argument("--backend", choices=("c", "python"), default=None, help=text)


def add_logic(p: argparse.ArgumentParser) -> None:
    """The techniques and cell notation of explain and hint."""
    p.add_argument("--techniques", metavar="LIST",
                   help="only these techniques, comma-separated (e.g. 'Naked Single,"
                        "Hidden Single'), or 'book' for Programming Sudoku's five, in its order: "
                        "CRME, lone ranger, twins, triplets, brute force")
    p.add_argument("--notation", choices=("rc", "book"), default="rc",
                   help="cells as r5c6 (default) or as Programming Sudoku's (column,row)")


def alphabet(name: str | None, shape_size: int | None) -> Alphabet | None:
    """``--alphabet`` to an alphabet (None: decided by the input)."""
    if name is None:
        return None
    size = shape_size if shape_size is not None else (16 if name == "hex" else 9)
    try:
        return Alphabet.for_size(size if name in ("digits", "hex", "letters") else len(name),
                                 name)
    except NumberplaceError as exc:
        raise NumberplaceError(f"--alphabet {name}: {exc}") from None


def shape(name: str | None) -> Shape | None:
    """``--shape`` to a shape; ``jigsaw``, ``killer`` and ``kakuro`` (or none) mean "read
    it from the input": a jigsaw's regions, a Killer's cages and a Kakuro's clue squares,
    of any size, make its shape."""
    if name is None or name.strip().lower() in ("jigsaw", "killer", "kakuro"):
        return None
    try:
        return by_name(name)
    except NumberplaceError as exc:
        raise NumberplaceError(f"--shape {name}: {exc}") from None


def techniques(text: str | None) -> list[str] | None:
    """``--techniques`` to a list of known names; ``book`` is Programming Sudoku's techniques."""
    # imported here: the logic solver, which a command without --techniques does without
    from ..logic import BOOK
    from ..logic.techniques import technique_names

    if text is None:
        return None
    if is_book(text):
        return list(BOOK)
    names = [name.strip() for name in text.split(",") if name.strip()]
    try:
        return technique_names(names)
    except NumberplaceError as exc:
        raise NumberplaceError(f"--techniques {text!r}: {exc}") from None


def is_book(text: str | None) -> bool:
    """``--techniques book``."""
    return (text or "").strip().lower() == "book"


def reading(args: argparse.Namespace) -> tuple[Shape | None, Alphabet | None]:
    """The shape and alphabet that ``--shape`` and ``--alphabet`` ask the input be read in
    (None: decided by the input)."""
    chosen = shape(args.shape)
    return chosen, alphabet(args.alphabet, chosen.size if chosen else None)


def open_puzzles(args: argparse.Namespace) -> Input:
    """The command's input (``args.file``), opened; on a terminal, a line says how to type
    puzzles in, so a waiting command is not taken for a stuck one."""
    if args.file == "-" and sys.stdin.isatty():
        print("numberplace: reading puzzles from the terminal: type or paste them, one per "
              "line, then press Ctrl-D (or give a file)", file=sys.stderr)
    return open_input(args.file)


def require_some(count: int, source: Input) -> None:
    """Refuse an input that held no puzzle: an empty file is not a checked one."""
    if count == 0:
        raise NumberplaceError(f"no puzzles in {source.name}: it is empty or holds only "
                               f"comments")


def records(source: Input, args: argparse.Namespace) -> Iterator[formats.Record]:
    """The records of an opened input, read with ``--shape``, ``--alphabet`` and
    ``--format``."""
    chosen, symbols = reading(args)
    return formats.read_records(source.lines(), shape=chosen, alphabet=symbols,
                                format=args.in_format, source=source.name)
