"""Sudoku-family puzzles, on every shape with houses: :func:`generate` draws full grids
until one gives a puzzle that meets the request.

Each attempt empties cells of a random full grid in the way the request asks
(:mod:`.removal`, or a recipe of :mod:`.recipes`), makes the puzzle minimal when asked
(:mod:`.minimal`), checks that it has exactly one solution, rates it, climbs towards
the hardest level of logic when that is asked for, and keeps it only if it meets every
request.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .. import arguments, engine
from ..engine.grids import random_grid
from ..errors import LimitError, NumberplaceError
from ..formats._common import counted
from ..limits import Deadline
from ..logic.rating import Rating, add_book_score, add_explainer_difficulty
from ..model.puzzle import Puzzle
from ..model.shape import Shape
from ..model.symmetry import SYMMETRIES
from .budget import Budget
from .made import Generated
from .minimal import is_minimal_within, make_minimal
from .recipes import book_ok, book_recipe, pattern_recipe
from .removal import CLIMB_LEVEL, harden, remove_orbits
from .request import Request, checked_request
from .symmetric import fits


def generate(shape: Shape | None = None, *, level: int | str | None = None,
             seed: int | None = None, symmetry: str = "rotate180",
             difficulty: tuple[float, float] | None = None, needs: str | None = None,
             clues: tuple[int, int] | None = None, minimal: bool = False,
             recipe: str | None = None, pattern: str | None = None,
             max_attempts: int | None = None, time_limit: float | None = None,
             node_limit: int = 1_000_000) -> Generated:
    """One puzzle with exactly one solution meeting every request (see :mod:`numberplace.generate`).

    ``level`` is a level's name or number; ``recipe="book"`` follows Programming Sudoku's recipe
    for levels 1-4; ``pattern`` is a digit-count pattern (9x9). ``seed`` makes the
    result reproducible: the same arguments and seed give the same puzzle.
    ``max_attempts`` bounds the grids drawn (by default 10,000 without a
    ``time_limit``, unbounded with one). Raises :class:`NumberplaceError` when
    ``max_attempts`` or ``time_limit`` run out.
    """
    request = checked_request(shape, level, symmetry, difficulty, needs, clues, minimal, recipe,
                              pattern)
    if seed is None:
        seed = random.randrange(2**32)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be a whole number, not {arguments.type_name(seed)}")
    rng = random.Random(seed)
    time_limit = arguments.seconds(time_limit)
    budget = Budget(arguments.whole(node_limit, "node_limit", 1), Deadline(time_limit))
    if max_attempts is None:
        max_attempts = 10_000 if time_limit is None else 2**62
    max_attempts = arguments.whole(max_attempts, "max_attempts", 1)
    attempt = 0
    try:
        while attempt < max_attempts:
            attempt += 1
            budget.left()
            made = _attempt(request, rng, budget)
            if made is not None:
                made.seed, made.attempts = seed, attempt
                return made
    except LimitError:
        raise LimitError(f"no puzzle met the request within the time limit of "
                         f"{time_limit:.3g} s ({counted(attempt, 'grid')} tried); ask for less, "
                         "or allow more time") from None
    raise NumberplaceError(f"no puzzle met the request in {counted(attempt, 'attempt')}; "
                           "ask for less, or allow more time")


def _attempt(req: Request, rng: random.Random, budget: Budget) -> Generated | None:
    """One grid's try at the request: the puzzle, or None when the grid gave none."""
    shape, target, recipe = req.shape, req.target, req.recipe
    sym_name = req.symmetry
    if sym_name == "random":
        sym_name = rng.choice([s for s in SYMMETRIES[:-1] if fits(shape, s)])
    solution = random_grid(shape, rng.randrange(2**32), time_limit=budget.left())
    made = _empty_cells(req, solution, sym_name, rng, budget)
    if made is None:
        return None
    if req.minimal and not make_minimal(shape, made, sym_name, rng, budget):
        return None
    climb = _climbs(req)
    if req.clues is not None and not climb and not _clues_in(made, req.clues):
        return None  # settled before the costlier checks and the rating
    puzzle = Puzzle(shape, tuple(made))
    exact = engine.solve(puzzle, limit=2, keep=0, node_limit=budget.node_limit,
                         time_limit=budget.left())
    if exact.status is not engine.Status.UNIQUE:  # every puzzle returned is checked
        return None
    if target is not None and target >= 3 and not climb and recipe is None \
            and not exact.guesses:
        # The engine's propagation (singles and locked candidates) alone solved it:
        # it cannot need a level-3 technique, so skip rating it.
        return None
    # Programming Sudoku's score is wanted by its recipe at once, by others only for the
    # puzzle kept (its path of guesses can be long on large shapes)
    # the Explainer's path, the costliest part of rating a hard puzzle, is followed only
    # when its difficulty decides, or for the puzzle kept
    explained = req.difficulty is not None
    rating = budget.rate(puzzle, book=recipe == "book", explainer=explained)
    if rating.status != "unique":
        return None
    if climb and target is not None and rating.level_number < target:
        puzzle, rating = harden(puzzle, solution, rating, target, sym_name, rng, budget)
        made = list(puzzle.givens)
        if req.minimal and not is_minimal_within(puzzle, budget):
            return None
        explained = False
    if req.difficulty is not None and not explained:
        add_explainer_difficulty(rating, puzzle, memo=budget.memo, deadline=budget.deadline)
        explained = True
    if not _meets(req, rating, made):
        return None
    if not explained:
        add_explainer_difficulty(rating, puzzle, memo=budget.memo, deadline=budget.deadline)
    if recipe != "book":
        add_book_score(rating, puzzle, memo=budget.memo)
    return Generated(puzzle, solution, rating, 0)


def _empty_cells(req: Request, solution: tuple[int, ...], symmetry: str,
                 rng: random.Random, budget: Budget) -> list[int] | None:
    """The givens left by the request's way of emptying cells, or None when it failed."""
    if req.recipe == "book":
        return book_recipe(req.shape, solution, req.target or 1, rng, budget)
    if req.counts is not None:
        return pattern_recipe(req.shape, solution, req.counts, symmetry, rng, budget)
    # a minimal puzzle empties every orbit it can; its level is then whatever
    # it is, so it is kept only if it is the level asked
    return remove_orbits(req.shape, solution, None if req.minimal else req.target, symmetry, rng,
                         budget, req.clues)


def _climbs(req: Request) -> bool:
    """True when the request's level is reached by climbing (see :func:`harden`)."""
    # Fiendish empties every orbit it can, as a climb move does (easier levels stop
    # at a share of empty cells, which a move would overshoot)
    return req.target == CLIMB_LEVEL and req.recipe is None and req.counts is None


def _meets(req: Request, rating: Rating, made: Sequence[int]) -> bool:
    """True when a rated puzzle with givens ``made`` meets every request."""
    target = req.target
    if target is not None and req.recipe is None and rating.level_number != target:
        return False
    if req.recipe == "book" and not book_ok(rating, target or 1, made.count(0)):
        return False
    if req.difficulty is not None and not (
            req.difficulty[0] <= (rating.difficulty or 0) <= req.difficulty[1]):
        return False
    if req.needs is not None and not rating.steps.get(req.needs):
        return False
    return req.clues is None or _clues_in(made, req.clues)


def _clues_in(values: Sequence[int], clues: tuple[int, int]) -> bool:
    """True when the givens ``values`` number from ``clues[0]`` to ``clues[1]``."""
    given = sum(1 for v in values if v)
    return clues[0] <= given <= clues[1]
