"""Canonical forms of 9x9 puzzles: how fast, and whether other implementations agree.

Prints two tables for each file (default: the shared 17-clue, kaggle-like, hardest and
top1465 sets):

1. **Speed**, each the best of ``--repeat`` rounds whose runs take turns: the compiled
   core's batch call (:func:`numberplace.engine.canon.canonical_forms` on values already read,
   one core), :func:`numberplace.engine.canon.canonical` per puzzle (the library call, from a
   Puzzle), and ``numberplace canon --jobs 1 FILE`` as a whole process. With ``--peer
   CMD``, also that command as a whole process (it reads puzzles on standard input and
   writes one canonical form per line), and our command's rate over its rate.
2. **Agreement**: our form against the search in pure Python on the first ``--agree``
   puzzles of each file (two different algorithms for one definition), and, with
   ``--peer``, whether the peer's form of every puzzle has our key (the peer may order its
   forms otherwise, e.g. pattern first; the same key says it found an equivalent puzzle).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Callable
from itertools import islice
from pathlib import Path

from rich.console import Console
from rich.table import Table

from numberplace.engine.canon import canonical, canonical_forms, canonical_key
from numberplace.formats.inputs import open_input
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import classic
from turns import USER_ENV, best

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku9"
FILES = ("17_clue.txt", "kaggle_like_10k.txt", "forum_hardest_1905_11plus.txt",
         "magictour_top1465.txt")
COMMAND = [sys.executable, "-m", "numberplace", "canon", "--jobs", "1", "--no-progress"]


def puzzles(path: Path, limit: int | None = None) -> list[str]:
    with open_input(path) as source:
        return list(islice(source.puzzle_lines(), limit))


def peer_forms(command: str, path: Path) -> list[str]:
    done = subprocess.run(command, shell=True, stdin=path.open("rb"), capture_output=True,
                          check=True, text=True)
    return done.stdout.split()


def speed_table(files: list[Path], limit: int, repeat: int, peer: str | None,
                work: Path) -> None:
    table = Table(title=f"Canonical forms of 9x9 puzzles, puzzles/s (best of {repeat}; "
                        f"at most {limit:,} puzzles a file)")
    names = ["file", "puzzles", "core batch", "canonical()", "command"]
    if peer:
        names += ["peer command", "command / peer"]
    for name in names:
        table.add_column(name, justify="left" if name == "file" else "right")
    shape = classic(9)
    for path in files:
        lines = puzzles(path, limit)
        part = work / path.name
        part.write_text("\n".join(lines) + "\n")
        parsed = [Puzzle.from_string(line) for line in lines]
        values = b"".join(bytes(p.givens) for p in parsed)
        runs: list[Callable[[], object]] = [
            lambda values=values: canonical_forms(shape, values),
            lambda parsed=parsed: [canonical(p).key for p in parsed],
            lambda part=part: subprocess.run([*COMMAND, str(part)], check=True,
                                             stdout=subprocess.DEVNULL, env=USER_ENV),
        ]
        if peer:
            runs.append(lambda part=part: peer_forms(peer, part))
        times = best(repeat, *runs)
        rates = [len(lines) / t for t in times]
        row = [path.stem, f"{len(lines):,}"] + [f"{r:,.0f}" for r in rates]
        if peer:
            row.append(f"{rates[2] / rates[3]:.2f}x")
        table.add_row(*row)
    Console().print(table)


def agreement_table(files: list[Path], agree: int, limit: int, peer: str | None,
                    work: Path) -> None:
    table = Table(title="Agreement")
    names = ["file", f"core = Python search (first {agree:,})"]
    if peer:
        names.append("peer's form has our key")
    for name in names:
        table.add_column(name, justify="left" if name == "file" else "right")
    for path in files:
        lines = puzzles(path, limit)
        same = sum(canonical(p := Puzzle.from_string(line)).key
                   == canonical(p, backend="python").key for line in lines[:agree])
        row = [path.stem, f"{same:,} of {min(agree, len(lines)):,}"]
        if peer:
            part = work / path.name
            part.write_text("\n".join(lines) + "\n")
            theirs = peer_forms(peer, part)
            matched = sum(canonical_key(Puzzle.from_string(line))
                          == canonical_key(Puzzle.from_string(form))
                          for line, form in zip(lines, theirs, strict=True))
            row.append(f"{matched:,} of {len(lines):,}")
        table.add_row(*row)
    Console().print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="files of 9x9 puzzles (default: "
                        "the shared 17-clue, kaggle-like, hardest and top1465 sets)")
    parser.add_argument("--limit", type=int, default=50_000, help="puzzles per file")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--agree", type=int, default=100,
                        help="puzzles per file to check against the Python search (it takes "
                             "about 50 ms a puzzle); 0: none")
    parser.add_argument("--peer", metavar="CMD",
                        help="another canonicalizer: a command that reads puzzles on "
                             "standard input and writes one canonical form per line")
    args = parser.parse_args()
    files = args.files or [DATA / name for name in FILES]
    missing = [str(f) for f in files if not f.exists()]
    if missing:
        raise SystemExit(f"missing benchmark data: {', '.join(missing)} "
                         f"(see shared/data/README.md)")
    with tempfile.TemporaryDirectory() as tmp:
        speed_table(files, args.limit, args.repeat, args.peer, Path(tmp))
        if args.agree or args.peer:
            agreement_table(files, args.agree, args.limit, args.peer, Path(tmp))


if __name__ == "__main__":
    main()
