"""Random full grids and minimal puzzles for any shape, built on the exact engine.

These are the raw materials of puzzle generation: a random solution grid, and a puzzle
made from it by removing givens for as long as exactly one solution remains.
"""

from __future__ import annotations

import random

from .. import engine
from ..errors import ShapeError
from ..limits import Deadline
from ..model.puzzle import Puzzle
from ..model.shape import Shape


def random_grid(shape: Shape, seed: int | None = None, *,
                time_limit: float | None = None) -> tuple[int, ...]:
    """A random complete grid of ``shape`` (reproducible with ``seed``).

    Random cells get random values one at a time, each kept only if the grid can still be
    completed; the engine then completes it and the symbols are relabelled at random, so
    that the engine's fixed value order leaves no trace. Raises
    :class:`~numberplace.errors.LimitError` when ``time_limit`` (seconds) runs out first.
    """
    deadline = Deadline(time_limit)
    rng = random.Random(seed)
    n = shape.size
    givens = [0] * shape.ncells
    first = engine.solve(Puzzle(shape, tuple(givens)), limit=1, time_limit=deadline.left())
    solution = first.solution
    if first.status is engine.Status.LIMIT:
        deadline.check()
    if solution is None:
        raise ShapeError(f"the {shape.name} shape has no complete grid")
    for cell in rng.sample(range(shape.ncells), min(shape.ncells, 2 * n)):
        values = list(range(1, n + 1))
        rng.shuffle(values)
        for v in values:
            givens[cell] = v
            # a value clashing with the givens so far simply has no solution
            _status, found = engine.solve_givens(shape, givens, limit=1, keep=1,
                                                 node_limit=100_000,
                                                 time_limit=deadline.left())
            if found is not None:
                solution = found
                break
        else:
            givens[cell] = solution[cell]
    relabel = list(range(1, n + 1))
    rng.shuffle(relabel)
    return tuple(relabel[v - 1] for v in solution)


def minimal_puzzle(shape: Shape, solution: tuple[int, ...], seed: int | None = None,
                   *, node_limit: int = 1_000_000, tries: int | None = None) -> Puzzle:
    """Remove givens of a full grid in random order while the puzzle stays unique.

    The result is minimal: removing any one of its givens gives a second solution.
    With ``tries``, only that many cells are tried, which is quicker and leaves a
    unique puzzle with more givens (not necessarily minimal).
    """
    rng = random.Random(seed)
    values = list(solution)
    order = list(range(shape.ncells))
    rng.shuffle(order)
    for cell in order[:tries]:
        keep = values[cell]
        values[cell] = 0
        status, _ = engine.solve_givens(shape, values, limit=2, node_limit=node_limit)
        if status is not engine.Status.UNIQUE:
            values[cell] = keep
    return Puzzle(shape, tuple(values))


def thinned_puzzle(shape: Shape, solution: tuple[int, ...], clues: int,
                   seed: int | None = None) -> Puzzle:
    """Keep ``clues`` random givens of a full grid; the result may have many solutions."""
    rng = random.Random(seed)
    keep = set(rng.sample(range(shape.ncells), clues))
    return Puzzle(shape, tuple(v if i in keep else 0 for i, v in enumerate(solution)))
