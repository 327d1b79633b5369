"""Hints on big grids: how long a player waits for a hint on 16x16 and 25x25 games.

For each shape, --positions positions, half of them from games: --games puzzles are
generated (seeds 1.., levels 1-5 in turn), and a position is a game's puzzle with a
random share (0 to 90%) of its empty cells filled with their solution values, as a
player who has made no mistake would have it (the first of each game with none). The
other half are open grids, where the hard hints are: a random solution grid with a
random number of its cells given (0 to half of them), most with many solutions. With
--files, the puzzles there (one per line, outside the project) are positions too. Each
position gets one hint (tier 1), as the web app asks for it in a new game (whose
verdict the app finds when it makes the game, before the clock starts here), and the
table gives the wait's median, 95th percentile and worst, and what the hints found. A
fixed seed draws the positions, so two runs time the same hints.

    python bench/hints.py [--games 10] [--positions 100] [--shapes 16x16,25x25]
                          [--files FILE...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.table import Table

from numberplace import Puzzle, by_name, classic
from numberplace.engine.grids import random_grid, thinned_puzzle
from numberplace.game import Session
from numberplace.generate import generate


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def positions(shape_name: str, games: int, count: int, seed: int) -> list[Puzzle]:
    """``count`` positions: half of ``games`` generated games of the shape, half open."""
    shape = by_name(shape_name)
    made = [generate(shape, level=1 + k % 5, seed=k + 1, time_limit=120)
            for k in range(games)]
    rng = random.Random(seed)
    out = []
    for k in range(count // 2):
        grid = random_grid(shape, seed * 1000 + k)
        clues = rng.randint(0, shape.ncells // 2)
        out.append(thinned_puzzle(shape, grid, clues, seed * 1000 + k))
    for k in range(count - count // 2):
        game = made[k % games]
        empty = [c for c, v in enumerate(game.puzzle.givens) if not v]
        share = 0.0 if k < games else rng.uniform(0.0, 0.9)
        filled = set(rng.sample(empty, int(share * len(empty))))
        values = tuple(game.solution[c] if c in filled else v
                       for c, v in enumerate(game.puzzle.givens))
        out.append(Puzzle(shape, values))
    return out


def timed_hint(puzzle: Puzzle) -> tuple[float, str]:
    """Seconds for a tier-1 hint on a fresh game of ``puzzle``, and what it found. The
    game is made as the web app makes it, its verdict found (before the clock starts)."""
    session = Session(puzzle)
    session.verdict()
    start = time.perf_counter()
    view = session.hint(1)
    seconds = time.perf_counter() - start
    found = view.step.technique if view.step is not None else str(view.status.value)
    return seconds, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per shape (default 10)")
    parser.add_argument("--positions", type=int, default=100,
                        help="positions per shape (default 100)")
    parser.add_argument("--shapes", default="16x16,25x25", help="shapes, comma separated")
    parser.add_argument("--seed", type=int, default=1, help="seed of the draw (default 1)")
    parser.add_argument("--files", nargs="*", default=[],
                        help="files of published puzzles (one per line) to hint on too")
    args = parser.parse_args()
    table = Table(title="A hint (tier 1) on positions of big games, seconds")
    for col in ("shape", "positions", "median", "p95", "worst", "empty grid",
                "what the hints found (most common)"):
        table.add_column(col, justify="left" if col in ("shape", "what the hints found "
                                                        "(most common)") else "right")
    published: dict[int, list[Puzzle]] = {}
    for path in args.files:
        for line in Path(path).read_text().split():
            if not line.startswith("#"):
                size = round(len(line) ** 0.5)
                published.setdefault(size, []).append(Puzzle.from_string(line, classic(size)))
    for name in args.shapes.split(","):
        seconds: list[float] = []
        found: Counter[str] = Counter()
        shape = by_name(name)
        for puzzle in (positions(name, args.games, args.positions, args.seed)
                       + published.get(shape.size, [])):
            took, what = timed_hint(puzzle)
            seconds.append(took)
            found[what] += 1
        empty, _ = timed_hint(Puzzle.empty(by_name(name)))
        table.add_row(name, str(len(seconds)), f"{statistics.median(seconds):.3f}",
                      f"{percentile(seconds, 0.95):.3f}", f"{max(seconds):.3f}",
                      f"{empty:.3f}",
                      ", ".join(f"{k} {n}" for k, n in found.most_common(4)))
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
