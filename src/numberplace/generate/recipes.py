"""The two recipes of the sources, each a way of removing givens that a request can
ask for: Programming Sudoku's (its empty-cell count and score window per level, cells
emptied in 180-degree pairs and pairs swapped until the score is in the window) and the
digit-count pattern of the Samurai source (``0122211000``: how many digits keep 0, 1,
..., 9 copies)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..errors import NumberplaceError
from ..logic.driver import BOOK, solve_path
from ..logic.rating import BOOK_LEVELS, Rating, book_score
from ..model.puzzle import Puzzle
from ..model.shape import Shape
from .budget import Budget
from .symmetric import orbits


def book_recipe(shape: Shape, solution: tuple[int, ...], level: int, rng: random.Random,
                budget: Budget) -> list[int] | None:
    """Programming Sudoku's recipe: its empty-cell count for the level, emptied in 180-degree
    pairs; the puzzle must have one solution, solve with Programming Sudoku's logic alone (levels
    1-3; level 4 may guess) and score in the level's window; else a pair is restored and
    another emptied (up to 50 times)."""
    _name, empties, _mean, scores = BOOK_LEVELS[level - 1]
    want = rng.choice(list(empties))
    start = _book_empty(shape, solution, want, rng)
    if start is None:
        return None
    values, emptied, rest = start
    current = _book_gap(shape, values, level, scores, budget)
    # Level 4's narrow window of high scores is rarely hit by chance: there a swap that
    # moves the score away from the window is undone (a climb towards it).
    for _ in range(50 if level < 4 else 300):
        if current == 0:
            return values
        if not rest or not emptied:
            return None
        back = emptied.pop(rng.randrange(len(emptied)))
        swap = [g for g in rest if len(g) == len(back)]
        if not swap:
            return None
        group = swap[rng.randrange(len(swap))]
        _swap_groups(values, solution, back, group)
        new = _book_gap(shape, values, level, scores, budget)
        if level == 4 and current is not None and (new is None or new > current):
            _swap_groups(values, solution, group, back)
            emptied.append(back)
            continue
        rest.remove(group)
        rest.append(back)
        emptied.append(group)
        current = new
    return values if current == 0 else None


def _book_empty(shape: Shape, solution: tuple[int, ...], want: int, rng: random.Random
                ) -> tuple[list[int], list[tuple[int, ...]], list[tuple[int, ...]]] | None:
    """Exactly ``want`` cells emptied in random 180-degree pairs: the givens, the pairs
    emptied and the pairs kept; None when no such choice of pairs was found."""
    groups = list(orbits(shape, "rotate180"))
    rng.shuffle(groups)
    values = list(solution)
    emptied: list[tuple[int, ...]] = []
    rest = list(groups)
    count = 0
    # an odd count needs the centre (the one cell that is its own pair)
    rest.sort(key=lambda g: len(g) != 1 if want % 2 else len(g) == 1)
    for group in list(rest):
        if count + len(group) > want:
            continue
        rest.remove(group)
        for c in group:
            values[c] = 0
        emptied.append(group)
        count += len(group)
    if count != want:
        return None
    return values, emptied, rest


def _book_gap(shape: Shape, values: Sequence[int], level: int, scores: range,
              budget: Budget) -> int | None:
    """How far the score is from the window (0 inside), None if not acceptable."""
    if not budget.unique(shape, values):
        return None
    path = solve_path(Puzzle(shape, tuple(values)), BOOK, guess=level == 4,
                      solvable=True, time_limit=budget.left(), memo=budget.memo)
    if path.status != "solved":
        budget.left()
        return None
    score = book_score(path.steps)
    return 0 if score in scores else min(abs(score - scores[0]), abs(score - scores[-1]))


def _swap_groups(values: list[int], solution: Sequence[int], refill: tuple[int, ...],
                 empty: tuple[int, ...]) -> None:
    """Give the cells of ``refill`` back their solution values and empty those of ``empty``."""
    for c in refill:
        values[c] = solution[c]
    for c in empty:
        values[c] = 0


def book_ok(rating: Rating, level: int, empty: int) -> bool:
    """Programming Sudoku's empty cells and score window for the level."""
    _name, empties, _mean, scores = BOOK_LEVELS[level - 1]
    return empty in empties and rating.book_score is not None and rating.book_score in scores


def parse_pattern(pattern: str, shape: Shape) -> list[int]:
    """A digit-count pattern: entry k is how many digits keep k copies."""
    n = shape.size
    if len(pattern) != n + 1 or not pattern.isdigit():
        raise NumberplaceError(f"a digit-count pattern for {n}x{n} has {n + 1} digits "
                               f"(how many digits keep 0, 1, ..., {n} copies), "
                               f"not {pattern!r}")
    counts = [int(ch) for ch in pattern]
    if sum(counts) != n:
        raise NumberplaceError(f"pattern {pattern!r} counts {sum(counts)} digits, "
                               f"not {n}")
    return counts


def pattern_recipe(shape: Shape, solution: tuple[int, ...], counts: list[int],
                   symmetry: str, rng: random.Random, budget: Budget) -> list[int] | None:
    """Keep, for each digit, the number of copies the pattern gives it (digits are
    assigned to counts at random), removing copies while the puzzle stays unique."""
    digits = list(range(1, shape.size + 1))
    rng.shuffle(digits)
    keep_of: dict[int, int] = {}
    for copies, how_many in enumerate(counts):
        for _ in range(how_many):
            keep_of[digits.pop()] = copies
    values = list(solution)
    left = {d: sum(1 for v in solution if v == d) for d in keep_of}
    cells = list(range(shape.ncells))
    rng.shuffle(cells)
    for cell in cells:
        d = values[cell]
        if left[d] <= keep_of[d]:
            continue
        values[cell] = 0
        if budget.unique(shape, values):
            left[d] -= 1
        else:
            values[cell] = d
    if any(left[d] != keep_of[d] for d in keep_of):
        return None
    return values
