"""Emptying a full grid towards a level, the way of removing givens when no recipe is
asked for.

Orbits are emptied while the puzzle stays unique, down to the level's share of empty
cells (or the clue range's low end); then, for a level, emptied orbits are given back
until the level's techniques solve the puzzle, and more are emptied while it is still
too easy. The hardest level of logic is reached by a climb within the same grid
(:func:`harden`), and a clue range below what one pass of removals leaves by a local
search (:func:`_descend`): give one emptied orbit back, empty every other orbit that can
go, and keep the move when it leaves no more givens than before.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .. import engine
from ..logic.driver import solve_path
from ..logic.rating import LEVELS, Rating
from ..logic.step import LogicStatus
from ..logic.techniques import REGISTRY
from ..model.puzzle import Puzzle
from ..model.shape import Shape
from .budget import Budget, empty_while_unique
from .symmetric import orbits

#: Share of empty cells by level (from Programming Sudoku's 9x9 empty-cell counts for levels 1-4;
#: harder levels empty as many cells as uniqueness allows).
_EMPTY_SHARE = {1: (40 / 81, 45 / 81), 2: (46 / 81, 49 / 81), 3: (50 / 81, 53 / 81),
                4: (54 / 81, 1.0), 5: (1.0, 1.0), 6: (1.0, 1.0)}


def _techniques_up_to(level: int) -> list[str]:
    """The logical techniques of the levels up to ``level`` (guessing is not one)."""
    return [t.name for t in REGISTRY.logical() if t.level <= level]


def remove_orbits(shape: Shape, solution: tuple[int, ...], level: int | None, symmetry: str,
                  rng: random.Random, budget: Budget, clues: tuple[int, int] | None
                  ) -> list[int] | None:
    """Empty orbits while the puzzle stays unique, down to the level's share of empty
    cells (or the clue range's low end); then, for a level, refill orbits until the
    level's techniques solve it."""
    values = list(solution)
    groups = list(orbits(shape, symmetry))
    rng.shuffle(groups)
    low, high = _EMPTY_SHARE[level] if level else (1.0, 1.0)
    n = shape.ncells
    most_empty = round(high * n)
    if clues is not None:
        most_empty = min(most_empty, n - clues[0])
    least_empty = round(low * n)
    target_empty = rng.randint(min(least_empty, most_empty), most_empty)
    removed = empty_while_unique(shape, values, solution, groups, budget, target_empty)
    if clues is not None and n - most_empty <= clues[1] < n - values.count(0):
        # one pass rarely leaves far fewer givens than usual (on 9x9 about 23 to 26
        # without symmetry, 26 to 30 in 180-degree pairs): fewer are searched for here
        _descend(shape, values, solution, groups, (n - most_empty, clues[1]), rng, budget)
        removed = [g for g in groups if not values[g[0]]]
    if level is None or level >= len(LEVELS):
        return values
    allowed = _techniques_up_to(level)
    for _ in range(50):
        path = solve_path(Puzzle(shape, tuple(values)), allowed, unique=True,
                          solvable=True, time_limit=budget.left(), memo=budget.memo)
        if path.status is LogicStatus.SOLVED:
            break
        budget.left()
        if path.board is None or not removed:
            return None
        # give back an emptied orbit that logic could not fill
        stuck = [g for g in removed if any(not path.board.values[c] for c in g)]
        group = rng.choice(stuck or removed)
        removed.remove(group)
        for c in group:
            values[c] = solution[c]
    else:
        return None
    if level == 1:
        return values
    # Too easy still? Empty more orbits (past the level's usual share) while the level's
    # techniques still solve it, until the easier levels' techniques no longer do.
    easier = _techniques_up_to(level - 1)
    rest = [g for g in groups if g not in removed and all(values[c] for c in g)]
    too_easy = budget.solves(shape, values, easier)
    for group in rest:
        if not too_easy:
            break
        for c in group:
            values[c] = 0
        if budget.unique(shape, values) and budget.solves(shape, values, allowed):
            too_easy = budget.solves(shape, values, easier)
        else:
            for c in group:
                values[c] = solution[c]
    return values


#: Moves the climb towards a harder puzzle makes in one grid before a new grid is drawn.
_HARDEN_MOVES = 60
#: The level reached by climbing: the hardest level of logic.
CLIMB_LEVEL = len(LEVELS) - 1


def harden(puzzle: Puzzle, solution: tuple[int, ...], rating: Rating, target: int,
           symmetry: str, rng: random.Random, budget: Budget) -> tuple[Puzzle, Rating]:
    """Climb from a puzzle rated below ``target`` towards it, within the same grid.

    Used for the hardest level of logic: the guessing level is too rare to climb to
    (grids are drawn until one has it), and easier levels are reached by refilling.

    A move gives back one emptied orbit and then empties every other orbit it can (in
    random order) while the puzzle stays unique, so the symmetry is kept and orbits stay
    as empty as they can be. A move is kept when its level (at most ``target``) and then
    its Explainer-scale difficulty are no lower than before. Small shapes need this most:
    nearly every 6x6 puzzle with as few givens as it can have is solved by singles.
    """
    shape = puzzle.shape
    groups = orbits(shape, symmetry)
    values = list(puzzle.givens)

    def score(r: Rating) -> tuple[int, float]:
        return (r.level_number, r.difficulty or 0.0)

    for _ in range(_HARDEN_MOVES):
        if rating.level_number >= target:
            break
        emptied = [g for g in groups if not values[g[0]]]
        if not emptied:
            break
        trial = list(values)
        for c in rng.choice(emptied):
            trial[c] = solution[c]
        kept = [g for g in groups if trial[g[0]]]
        rng.shuffle(kept)
        empty_while_unique(shape, trial, solution, kept, budget)
        candidate = Puzzle(shape, tuple(trial))
        new = budget.rate(candidate, book=False)
        if (new.status is engine.Status.UNIQUE and new.level_number <= target
                and score(new) >= score(rating)):
            values, puzzle, rating = trial, candidate, new
    return puzzle, rating


#: The descent towards a clue range (:func:`_descend`) gives up on a grid after this many
#: moves without a new fewest count of givens (a third of it once in the range), or this
#: many moves in all: a new grid then does better than more moves on this one.
_DESCENT_STALL = 300
_DESCENT_MOVES = 3_000


def _descend(shape: Shape, values: list[int], solution: Sequence[int],
             groups: Sequence[tuple[int, ...]], clues: tuple[int, int], rng: random.Random,
             budget: Budget) -> None:
    """Search from ``values``, a unique puzzle of ``solution`` emptied an orbit of
    ``groups`` at a time, for one whose count of givens is in ``clues``.

    A move gives back one emptied orbit and then empties other orbits (never that one)
    in random order while the puzzle stays unique. Two orbits out for the one back is a
    step down; one out is a step sideways, to a puzzle whose orbits can be emptied
    differently, which is how the search leaves a puzzle from which nothing more can be
    emptied. A move is kept when it leaves no more givens than before.

    The search aims at a count drawn from the range, so that the puzzles made do not
    all have the most givens allowed; one that stalls short of its aim but in the range
    ends there.
    """
    floor, high = clues
    aim = rng.randint(floor, high)
    given = len(values) - values.count(0)
    fewest, since = given, 0
    for _ in range(_DESCENT_MOVES):
        patience = _DESCENT_STALL if given > high else _DESCENT_STALL // 3
        if given <= aim or since >= patience:
            return
        budget.left()
        empty = [g for g in groups if not values[g[0]]]
        if not empty:
            return
        back = rng.choice(empty)
        trial = list(values)
        for c in back:
            trial[c] = solution[c]
        room = given + len(back) - floor
        others = [g for g in groups if trial[g[0]] and g != back]
        after = given + len(back) - _empty_any(shape, trial, others, room, rng, budget)
        if after <= given:
            values[:], given = trial, after
        if after < fewest:
            fewest, since = after, 0
        else:
            since += 1


def _empty_any(shape: Shape, values: list[int], groups: Sequence[tuple[int, ...]],
               room: int, rng: random.Random, budget: Budget) -> int:
    """Empty groups of ``groups``, chosen at random, while the puzzle stays unique and at
    most ``room`` cells are emptied in all. Returns the cells emptied."""
    emptied = 0
    left = budget.removable(shape, values, [g for g in groups if len(g) <= room])
    while left:
        group = left.pop(rng.randrange(len(left)))
        for c in group:
            values[c] = 0
        emptied += len(group)
        # a group that cannot be emptied now cannot be once more givens are gone either
        left = budget.removable(shape, values,
                                [g for g in left if emptied + len(g) <= room])
    return emptied
