"""Record what the command line prints for a fixed corpus, to compare two versions.

A redesign that must keep behaviour is checked by running this script against the code
before and after and comparing the two folders (``diff -r``). It runs ``numberplace``
as a process with the ``src`` folder given (its compiled core built in place with
``python setup.py build_ext --inplace``), so it can time any checkout.

The corpus: puzzles generated on every shape and level with fixed seeds (the generator's
output is itself compared), and samples of the public 9x9 sets. On each, solve, count,
check, explain (rc, JSON, the book's techniques), hint (three ways) and rate run.
Timings (``seconds`` in JSON, summaries) are left out.

    python bench/outputs.py OUT [--src SRC] [--data DIR] [--scale 1.0]

It takes about 10 minutes at scale 1 on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

_HERE = Path(__file__).resolve()
DATA = _HERE.parents[2] / "shared" / "data" / "sudoku9" if len(_HERE.parents) > 2 else Path()

#: (shape, levels, puzzles per level); generated with --seed 100.
GENERATED = [
    ("4x4", "1", 4), ("6x6", "1,2,3,4", 4), ("8x8", "1,2,3", 3),
    ("9x9", "1,2,3,4,5,6", 6), ("12x12", "1,2", 2), ("16x16", "1,2,3", 2),
    ("samurai", "1,2", 2), ("diagonal", "1,2,3,4,5", 4), ("diagonal-6x6", "1,2", 3),
    ("jigsaw", "1,2,3,4", 3), ("jigsaw-6x6", "1,2", 3), ("25x25", "1", 1),
]

#: (file, first puzzles for the engine commands, every k-th for the logic commands)
SAMPLES = [
    ("kaggle_like_10k.txt", 1000, 50), ("17_clue.txt", 1000, 100),
    ("magictour_top1465.txt", 1465, 5), ("forum_hardest_1905_11plus.txt", 200, 20),
    ("serg_benchmark.txt", 300, 30),
]

ENGINE_RUNS = [
    ["solve"], ["solve", "--json"], ["solve", "--all", "--limit", "3"],
    ["count", "--limit", "10"], ["check"],
]
LOGIC_RUNS = [
    ["explain"], ["explain", "--json", "--notation", "book"], ["explain", "--techniques", "book"],
    ["hint"], ["hint", "--placement"], ["hint", "--tier", "1"], ["rate", "--json"],
]


def run(src: Path, args: list[str], stdin: str | None = None) -> str:
    """The standard output and error of one command, timings dropped."""
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, "-m", "numberplace", *args], input=stdin,
                          capture_output=True, text=True, env=env, check=False)
    return f"exit {done.returncode}\n" + _untimed(done.stdout) + "--- stderr\n" + done.stderr


def _untimed(text: str) -> str:
    out = []
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                pass
            else:
                obj.pop("seconds", None)
                line = json.dumps(obj, sort_keys=True)
        out.append(line)
    return "\n".join(out) + "\n"


def main() -> None:
    """Write every output of the corpus into OUT."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--src", type=Path, default=_HERE.parents[1] / "src",
                        help="the src folder of the version to run (default: this one)")
    parser.add_argument("--data", type=Path, default=DATA, help="the 9x9 benchmark sets")
    parser.add_argument("--scale", type=float, default=1.0, help="share of the samples")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    corpus: list[tuple[str, str, list[str], bool]] = []  # name, text, extra options, logic?
    for shape, levels, count in GENERATED:
        for level in levels.split(","):
            name = f"gen-{shape}-L{level}"
            made = run(args.src, ["generate", "--shape", shape, "--level", level, "--seed", "100",
                                  "--count", str(count), "--json", "--time-limit", "60"])
            (args.out / f"{name}.generate").write_text(made)
            lines = [json.loads(x) for x in made.splitlines() if x.startswith("{")]
            text = "\n".join(_puzzle_text(rec, shape) for rec in lines) + "\n"
            extra = [] if shape.startswith("jigsaw") else ["--shape", shape]
            corpus.append((name, text, extra, True))
            print(name, len(lines), flush=True)
            if not lines:
                print(made, file=sys.stderr)
    if args.data.is_dir():
        for file, first, every in SAMPLES:
            with open(args.data / file, encoding="utf-8") as handle:
                puzzles = [x.strip() for x in handle if x.strip() and not x.startswith("#")]
            head = puzzles[:max(1, int(first * args.scale))]
            corpus.append((file, "\n".join(head) + "\n", [], False))
            corpus.append((file + ".logic", "\n".join(head[::every]) + "\n", [], True))
    else:
        print(f"no data at {args.data}: only generated puzzles", file=sys.stderr)
    for name, text, extra, logic in corpus:
        for command in LOGIC_RUNS if logic else ENGINE_RUNS:
            tag = "_".join(a.strip("-") for a in command)
            (args.out / f"{name}.{tag}").write_text(run(args.src, [*command, *extra, "-"], text))
        if logic:
            for command in ENGINE_RUNS:
                tag = "_".join(a.strip("-") for a in command)
                (args.out / f"{name}.{tag}").write_text(run(args.src, [*command, *extra, "-"],
                                                            text))
        print("done", name, flush=True)


def _puzzle_text(record: dict[str, object], shape: str) -> str:
    puzzle = str(record["puzzle"])
    if "regions" in record:  # a jigsaw: givens and region map in rows
        size = int(len(puzzle) ** 0.5)
        rows = [puzzle[i:i + size] for i in range(0, len(puzzle), size)]
        regions = str(record["regions"])
        maps = [regions[i:i + size] for i in range(0, len(regions), size)]
        return "\n".join(rows + ["regions:"] + maps) + "\n"
    return puzzle


if __name__ == "__main__":
    main()
