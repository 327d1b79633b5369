"""The recipe of the sample that measures our difficulty against Sudoku Explainer's.

Three steps, each a sub-command, each writing one file:

``pool``
    Takes every puzzle of the shared benchmark sets below (shuffled with a fixed seed)
    and generates puzzles at every level of ours (fixed seeds), so that the middle of
    the Explainer's scale is well filled too. Writes one puzzle a line.

``rate``
    Rates puzzles with Sudoku Explainer's ``serate`` command on one or both scales:
    Sudoku Explainer 1.2.1's technique set (the explainer scale) and SukakuExplainer's
    default set (the sukaku scale). ``serate`` is not part of this project: build
    SukakuExplainer yourself and pass the command that starts it, e.g.
    ``--serate "java -cp SukakuExplainer.jar diuf.sudoku.test.serate"``. Writes lines
    ``PUZZLE EXPLAINER SUKAKU``, then a tab and the hardest step's name on each scale;
    reading such lines, it keeps the ratings of the scale it is not asked for.

``stratify``
    Keeps at most ``--per`` puzzles (chosen with a fixed seed) of every explainer value,
    and reports the values with fewer than ``--least``. Writes lines like ``rate``'s,
    which ``bench/rating.py --scale explainer|sukaku`` reads.

The whole pool is rated on the explainer scale (most of it in milliseconds a puzzle;
the hard list takes seconds each), the sample on the sukaku scale:

    python bench/explainer_sample.py pool POOL
    python bench/explainer_sample.py rate POOL RATED --serate "CMD" --scales explainer
    python bench/explainer_sample.py stratify RATED SAMPLE
    python bench/explainer_sample.py rate SAMPLE SAMPLE --serate "CMD" --scales sukaku
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

from numberplace import formats, generate

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku9"

#: The shared sets taken whole: easy sets fill the bottom of the scale, the 17-clue set
#: the middle (its rare values too), the hard lists the top up to 9.x. (The forum's
#: hardest lists, rated 10 and up by nested chains, take serate minutes a puzzle; their
#: agreement is measured apart, see docs/rating.md.)
SETS = ("kaggle_like_10k.txt", "17_clue.txt", "magictour_top1465.txt", "top95.txt")
#: Generated puzzles for each of our levels.
GENERATED = 300
#: More generated puzzles of a level (other seeds): level 5's fill the values 7.4 to 7.9
#: (aligned triples, the longer forcing chains), which the shared sets hold few of.
MORE = {5: 1200}
SEED = 2026

#: serate's technique strings (one character a technique, in serate's order; run it with
#: ``--techs=`` alone to see the list). Explainer: Sudoku Explainer 1.2.1's techniques, the
#: variant-only techniques off. Sukaku: SukakuExplainer's default set.
TECHS = {
    "explainer": "1111000011010111011011011011000010100010111111",
    "sukaku": "1111111111010111011111111011100111100111111111",
}


def pool(out: str) -> None:
    """Write the pool of puzzles (see the module docs)."""
    if not DATA.is_dir():
        sys.exit(f"the shared data is not at {DATA}")
    rng = random.Random(SEED)
    puzzles: list[str] = []
    for name in SETS:
        with open(DATA / name) as handle:
            lines = [s.split()[0] for s in handle if s.strip() and not s.startswith("#")]
        puzzles += rng.sample(lines, len(lines))
        print(f"{name}: {len(lines)}", file=sys.stderr)
    with ProcessPoolExecutor() as workers:
        for level in range(1, 7):
            seeds = list(range(SEED * 10_000 + level * 1000,
                               SEED * 10_000 + level * 1000 + GENERATED))
            seeds += range(SEED * 100_000 + level * 10_000,
                           SEED * 100_000 + level * 10_000 + MORE.get(level, 0))
            made = list(workers.map(partial(_generated, level), seeds, chunksize=8))
            puzzles += made
            print(f"generated at level {level}: {len(made)}", file=sys.stderr)
    seen: set[str] = set()
    unique = [p for p in puzzles if not (p in seen or seen.add(p))]
    Path(out).write_text("".join(p + "\n" for p in unique))
    print(f"{len(unique)} puzzles in {out}", file=sys.stderr)


def _generated(level: int, seed: int) -> str:
    """One generated puzzle's line."""
    return formats.write(generate.generate(level=level, seed=seed).puzzle).strip()


def rate(source: str, out: str, serate: str, jobs: int, scales: list[str]) -> None:
    """Rate the pool with serate on the technique sets of ``scales`` (see the module
    docs), in ``jobs`` serate processes at once, each given a share of the puzzles; a
    scale not rated keeps the rating ``source`` gives it (a line of ``rate``'s), else is
    written as 0.0."""
    known: dict[str, dict[str, tuple[str, str]]] = {scale: {} for scale in TECHS}
    puzzles = []
    for line in open(source):
        fields = line.split("\t")
        head = fields[0].split()
        if not head:
            continue
        puzzles.append(head[0])
        if len(head) == 3 and len(fields) == 3:
            for k, scale in enumerate(TECHS):
                known[scale][head[0]] = (head[1 + k], fields[1 + k].strip())
    values: dict[str, dict[str, tuple[str, str]]] = {}
    for scale, techs in TECHS.items():
        if scale not in scales:
            values[scale] = {p: known[scale].get(p, ("0.0", "-")) for p in puzzles}
            continue
        running = []
        for k in range(jobs):
            share = Path(out).with_suffix(f".{scale}.{k}.in")
            share.write_text("".join(p + "\n" for p in puzzles[k::jobs]))
            # each writes a file of its own (its progress can be watched there)
            command = [*shlex.split(serate), f"--techs={techs}", "--format=%g\t%r\t%R",
                       f"--input={share}", f"--output={share.with_suffix('.out')}",
                       "--threads=1"]
            print(f"{scale}: {shlex.join(command)}", file=sys.stderr)
            running.append((subprocess.Popen(command), share.with_suffix(".out")))
        values[scale] = {}
        for proc, rated in running:
            if proc.wait():
                sys.exit(f"serate failed with status {proc.returncode}")
            values[scale].update({f[0].strip(): (f[1], f[2]) for f in
                                  (line.split("\t") for line in rated.read_text().splitlines())
                                  if len(f) == 3})
    if any(p not in v for v in values.values() for p in puzzles):
        sys.exit("serate did not rate every puzzle")
    Path(out).write_text("".join(
        f"{p} {values['explainer'][p][0]} {values['sukaku'][p][0]}\t"
        f"{values['explainer'][p][1]}\t{values['sukaku'][p][1]}\n" for p in puzzles))


def stratify(source: str, out: str, per: int, least: int) -> None:
    """Keep at most ``per`` puzzles of every explainer value (see the module docs)."""
    by_value: dict[str, list[str]] = defaultdict(list)
    for line in open(source):
        fields = line.split()
        # 0.0 is serate's error, 20.0 a puzzle beyond it: neither is a rating
        if len(fields) >= 3 and fields[1] not in ("0.0", "20.0"):
            by_value[fields[1]].append(line)
    rng = random.Random(SEED)
    kept: list[str] = []
    for value in sorted(by_value, key=float):
        lines = sorted(by_value[value])
        chosen = rng.sample(lines, min(per, len(lines)))
        kept += chosen
        if len(chosen) < least:
            print(f"value {value}: only {len(chosen)}", file=sys.stderr)
    Path(out).write_text("".join(kept))
    print(f"{len(kept)} puzzles over {len(by_value)} values in {out}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("pool", help="draw and generate the pool")
    p.add_argument("out")
    r = sub.add_parser("rate", help="rate puzzles with serate on one scale or both")
    r.add_argument("pool")
    r.add_argument("out")
    r.add_argument("--serate", required=True, help="the command that starts serate")
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="serate processes at once (default: all cores)")
    r.add_argument("--scales", default=",".join(TECHS),
                   help="the scales to rate, comma-separated (default: both)")
    s = sub.add_parser("stratify", help="keep a fixed number of puzzles of every value")
    s.add_argument("rated")
    s.add_argument("out")
    s.add_argument("--per", type=int, default=25)
    s.add_argument("--least", type=int, default=20)
    args = parser.parse_args()
    if args.step == "pool":
        pool(args.out)
    elif args.step == "rate":
        rate(args.pool, args.out, args.serate, args.jobs, args.scales.split(","))
    else:
        stratify(args.rated, args.out, args.per, args.least)


if __name__ == "__main__":
    main()
