"""Minimal puzzles: those from which no single given can be removed leaving exactly one
solution, and the reduction that makes one (single givens removed, in random order,
while the puzzle stays unique)."""

from __future__ import annotations

import random

from ..model.puzzle import Puzzle
from ..model.shape import Shape
from .budget import Budget, empty_while_unique


def is_minimal(puzzle: Puzzle, node_limit: int = 1_000_000) -> bool:
    """True when removing any single given leaves more than one solution."""
    return is_minimal_within(puzzle, Budget(node_limit))


def is_minimal_within(puzzle: Puzzle, budget: Budget) -> bool:
    """:func:`is_minimal`, each check within the request's ``budget``."""
    values = list(puzzle.givens)
    for cell, v in enumerate(puzzle.givens):
        if v:
            values[cell] = 0
            if budget.unique(puzzle.shape, values):
                return False
            values[cell] = v
    return True


def _minimise(shape: Shape, values: list[int], rng: random.Random, budget: Budget) -> None:
    """Remove single givens (in random order) while the puzzle stays unique."""
    cells = [c for c, v in enumerate(values) if v]
    rng.shuffle(cells)
    empty_while_unique(shape, values, list(values), [(c,) for c in cells], budget)


def make_minimal(shape: Shape, made: list[int], symmetry: str, rng: random.Random,
                 budget: Budget) -> bool:
    """Without a symmetry, remove single givens from ``made`` while it stays unique; True
    when no given can then be removed."""
    if symmetry == "none":
        _minimise(shape, made, rng, budget)
    return is_minimal_within(Puzzle(shape, tuple(made)), budget)
