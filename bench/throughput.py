"""Throughput: the engine's batch call against tdoku, the command line against the
engine, and two jobs against one.

Three tables, every figure the best of ``--repeat`` runs on this machine:

1. **Engine**: puzzles/s of the library's batch call (``engine.solve_lines``: the lines
   as text in, a count per puzzle as text out, counting to 2, one core; reading the cells
   is included), and tdoku's in the same run when
   its shared library is given (``--tdoku PATH``; built outside this project, e.g.
   ``clang++ -O3 -march=native -shared -fPIC src/solver_dpll_triad_simd.cc
   src/util.cc``). tdoku runs in a small C loop compiled here (a C compiler is needed),
   over lines already in memory, as in its own benchmark; both must agree on every
   count. A file of fewer than 20,000 puzzles is passed over several times in each run,
   on both sides, and the rate is that of one pass.
2. **Command line**: ``numberplace count --limit 2 --json --jobs 1 FILE`` on the first
   ``--lines`` puzzles of each file as a whole process, against the library rate of (1);
   also the process's fixed cost (the same command on one puzzle) and the rate once that
   is taken off.
3. **Jobs**: the same command on ``--big`` lines (each file repeated) with ``--jobs 1``
   and ``--jobs 2``.

Run it on an idle machine::

    python bench/throughput.py [--tdoku PATH/libtdoku.so] [FILES...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from itertools import cycle, islice
from pathlib import Path

from rich.console import Console
from rich.table import Table

from numberplace import engine, native
from numberplace.formats.inputs import open_input
from numberplace.model.shape import classic
from turns import USER_ENV, best

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku9"
FILES = ("forum_hardest_1905_11plus.txt", "magictour_top1465.txt", "17_clue.txt",
         "kaggle_like_10k.txt")
#: puzzles solved in each timed run of the engine table, at least (a file is passed over
#: as many times as it takes)
PASS_PUZZLES = 20_000
COMMAND = [sys.executable, "-m", "numberplace", "count", "--limit", "2", "--json"]


def puzzles(path: Path, limit: int | None = None) -> list[str]:
    with open_input(path) as source:
        return list(islice(source.puzzle_lines(), limit))


def library(text: bytes) -> None:
    """The batch call: lines of text in, a count per puzzle out."""
    engine.solve_lines(classic(9), text, command="count", limit=2)


#: tdoku's loop: the puzzles of a file, each solved counting to 2, best of N runs of P
#: passes each; prints the seconds of one pass, then each puzzle's count. Compiled here
#: and handed tdoku's library.
HARNESS = r"""
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
typedef size_t (*solver)(const char *, size_t, uint32_t, char *, size_t *);
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
int main(int argc, char **argv) {
    void *lib = dlopen(argv[1], RTLD_NOW);
    solver solve = lib ? (solver)dlsym(lib, "TdokuSolverDpllTriadSimd") : NULL;
    if (!solve) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    FILE *f = fopen(argv[2], "r");
    int repeat = atoi(argv[3]), n = 0, cap = 1024;
    char line[256], *puzzles = malloc(82 * cap), solution[82];
    unsigned char *counts = NULL;
    while (fgets(line, sizeof line, f)) {
        if (n == cap) puzzles = realloc(puzzles, 82 * (cap *= 2));
        memcpy(puzzles + 82 * n, line, 81);
        puzzles[82 * n + 81] = 0;
        n++;
    }
    counts = malloc(n);
    int passes = argc > 4 ? atoi(argv[4]) : 1;
    double best = 1e30;
    for (int r = 0; r < repeat; r++) {
        double start = now();
        for (int p = 0; p < passes; p++)
            for (int i = 0; i < n; i++) {
                size_t guesses;
                counts[i] = (unsigned char)SOLVE(puzzles + 82 * i, 2, 0, solution, &guesses);
            }
        double t = (now() - start) / passes;
        if (t < best) best = t;
    }
    printf("%.9f\n", best);
    for (int i = 0; i < n; i++) putchar('0' + counts[i]);
    putchar('\n');
    return 0;
}
""".replace("SOLVE", "solve")


class Tdoku:
    """tdoku's solver in a C loop of its own, over lines already in memory."""

    def __init__(self, library: str, work: Path) -> None:
        self.library = str(Path(library).resolve())
        self.program = work / "tdoku-loop"
        source = work / "tdoku-loop.c"
        source.write_text(HARNESS)
        compiler = sysconfig.get_config_var("CC") or "cc"
        subprocess.run([*compiler.split(), "-O2", "-o", str(self.program), str(source), "-ldl"],
                       check=True)

    def prepare(self, lines: list[str], work: Path) -> Path:
        """The puzzles as tdoku reads them (only "." for an empty cell)."""
        path = work / "tdoku-input.txt"
        path.write_text("".join(line.replace("0", ".") + "\n" for line in lines))
        return path

    def run(self, path: Path, repeat: int = 1, passes: int = 1) -> tuple[float, list[int]]:
        """The best time of ``repeat`` runs over the puzzles, each run ``passes`` passes
        (the time of one pass), and each one's count (2: 2+)."""
        out = subprocess.run([str(self.program), self.library, str(path), str(repeat),
                              str(passes)],
                             check=True, capture_output=True, text=True).stdout.split()
        return float(out[0]), [int(c) for c in out[1]] if len(out) > 1 else []


def engine_table(files: list[Path], repeat: int, tdoku: Tdoku | None,
                 work: Path) -> dict[str, float]:
    table = Table(title=f"Engine: library batch call, one core, count to 2 (best of {repeat})")
    for name in ("file", "puzzles", "numberplace /s"):
        table.add_column(name, justify="right" if name != "file" else "left")
    if tdoku:
        for name in ("tdoku /s", "numberplace / tdoku"):
            table.add_column(name, justify="right")
    rates = {}
    for path in files:
        lines = puzzles(path)
        text = ("\n".join(lines) + "\n").encode("ascii")
        row = [path.stem, f"{len(lines):,}"]
        # a small file is timed over several passes a run, on both sides: one pass of
        # top1465 lasts about 12 ms, short enough for the machine's noise to swing it
        passes = -(-PASS_PUZZLES // len(lines))

        def ours_passes(text: bytes = text, passes: int = passes) -> None:
            for _ in range(passes):
                library(text)

        if tdoku:
            given = tdoku.prepare(lines, work)
            seconds: list[float] = []
            ours_time, _ = best(repeat, ours_passes,
                                lambda given=given, seconds=seconds, passes=passes:
                                seconds.append(tdoku.run(given, passes=passes)[0]))
            ours_time /= passes
            _, counts = tdoku.run(given)
            block = engine.solve_lines(classic(9), text, command="count", limit=2)
            assert block is not None and not block.holes
            ours_counts = [int(line.split()[0].rstrip("+"))
                           for line in block.output.splitlines()]
            if counts != ours_counts:
                raise SystemExit(f"tdoku and numberplace disagree on {path.name}")
            ours, theirs = len(lines) / ours_time, len(lines) / min(seconds)
            row += [f"{ours:,.0f}", f"{theirs:,.0f}", f"{ours / theirs:.2f}x"]
        else:
            ours = len(lines) * passes / best(repeat, ours_passes)[0]
            row.append(f"{ours:,.0f}")
        rates[path.name] = ours
        table.add_row(*row)
    Console().print(table)
    return rates


def process(args: list[str]) -> Callable[[], object]:
    """A run of the command line with ``args``, its output thrown away."""
    return lambda: subprocess.run([*COMMAND, *args], check=True, stdout=subprocess.DEVNULL,
                                  env=USER_ENV)


def command_table(files: list[Path], rates: dict[str, float], count: int, repeat: int,
                  work: Path) -> None:
    table = Table(title=f"Command line: count --limit 2 --json --jobs 1, {count:,} puzzles, "
                        f"whole process (best of {repeat})")
    for name in ("file", "process /s", "library /s", "share", "fixed ms", "without fixed /s",
                 "share"):
        table.add_column(name, justify="right" if name != "file" else "left")
    one = work / "one.txt"
    for path in files:
        lines = list(islice(cycle(puzzles(path)), count))
        part = work / path.name
        part.write_text("\n".join(lines) + "\n")
        one.write_text(lines[0] + "\n")
        whole, fixed = best(repeat, process(["--jobs", "1", str(part)]),
                            process(["--jobs", "1", str(one)]))
        lib = rates[path.name]
        rate, net = count / whole, count / max(whole - fixed, 1e-9)
        table.add_row(path.stem, f"{rate:,.0f}", f"{lib:,.0f}", f"{rate / lib:.0%}",
                      f"{fixed * 1000:.0f}", f"{net:,.0f}", f"{net / lib:.0%}")
    Console().print(table)


def jobs_table(files: list[Path], count: int, repeat: int, work: Path) -> None:
    table = Table(title=f"Jobs: count --limit 2 --json on {count:,} lines, whole process "
                        f"(best of {repeat})")
    for name in ("file", "1 job /s", "2 jobs /s", "2 jobs / 1 job"):
        table.add_column(name, justify="right" if name != "file" else "left")
    for path in files:
        big = work / f"big-{path.name}"
        big.write_text("\n".join(islice(cycle(puzzles(path)), count)) + "\n")
        one, two = (count / t for t in best(repeat, process(["--jobs", "1", str(big)]),
                                            process(["--jobs", "2", str(big)])))
        table.add_row(path.stem, f"{one:,.0f}", f"{two:,.0f}", f"{two / one:.2f}x")
    Console().print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="puzzle files (default: the "
                        "shared hardest, top1465, 17-clue and kaggle-like sets)")
    parser.add_argument("--tdoku", help="path of tdoku's shared library, to time it too")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lines", type=int, default=20_000,
                        help="puzzles per file for the command line table")
    parser.add_argument("--big", type=int, default=200_000,
                        help="lines per file for the jobs table (0: skip it)")
    parser.add_argument("--jobs-files", type=int, default=2,
                        help="how many of the files the jobs table uses (the last ones)")
    parser.add_argument("--scalar", action="store_true",
                        help="keep the 9x9 solver's scalar form where the processor has "
                             "AVX-512 (NUMBERPLACE_VECTOR9=0, in the processes too)")
    args = parser.parse_args()
    files = args.files or [DATA / name for name in FILES]
    missing = [str(f) for f in files if not f.exists()]
    if missing:
        raise SystemExit(f"missing: {', '.join(missing)} (see shared/data/README.md)")
    if args.scalar:
        os.environ["NUMBERPLACE_VECTOR9"] = "0"
        USER_ENV["NUMBERPLACE_VECTOR9"] = "0"
        if engine.vector9():
            assert native.core is not None
            native.core.vector9(False)
    form = "vector form (AVX-512)" if engine.vector9() else "scalar form"
    Console().print(f"numberplace engine: {engine.backend_name()}, 9x9 in its {form}; tdoku: "
                    f"{args.tdoku or 'not given'}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        tdoku = Tdoku(args.tdoku, work) if args.tdoku else None
        rates = engine_table(files, args.repeat, tdoku, work)
        command_table(files, rates, args.lines, args.repeat, work)
        if args.big:
            jobs_table(files[-args.jobs_files:], args.big, args.repeat, work)


if __name__ == "__main__":
    main()
