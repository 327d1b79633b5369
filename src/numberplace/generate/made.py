"""What a generator gives back: the puzzle with its solution, rating and the seed that
makes it again; and, for a puzzle of several grids, how many solutions each of its grids
has on its own."""

from __future__ import annotations

from dataclasses import dataclass

from .. import engine
from ..logic.rating import Rating
from ..model.puzzle import Puzzle
from ..model.shape import classic


@dataclass
class Generated:
    """A generated puzzle with its solution, rating, and the seed that reproduces it."""

    puzzle: Puzzle
    solution: tuple[int, ...]
    rating: Rating
    seed: int
    attempts: int = 1


def grid_solution_counts(puzzle: Puzzle, limit: int = 100) -> list[int]:
    """For a multi-grid puzzle (Samurai), how many solutions each grid has on its own,
    counted up to ``limit`` (the magazine source's study of its five grids)."""
    shape = puzzle.shape
    out = []
    for cells in shape.grids:
        n = int(len(cells) ** 0.5)
        sub = Puzzle(classic(n), tuple(puzzle.givens[c] for c in cells))
        out.append(engine.solve(sub, limit=limit, keep=0).count)
    return out
