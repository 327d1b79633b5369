"""Generate puzzles with exactly one solution, at a level, in a symmetry, on any shape.

A puzzle starts as a random full grid (:func:`numberplace.grids.random_grid`). Givens are
then removed an *orbit* at a time (the cells the chosen symmetry maps onto each other),
each removal kept only while the exact engine still finds exactly one solution. For a
target level, the removal also stops at that level's share of empty cells, and a puzzle
whose solve needs harder techniques gets removed cells back until it does not. The
result is rated (:mod:`numberplace.rating`) and kept only if it meets every request:
level, Explainer-scale difficulty range, a technique it must need, clue count range,
minimality. Every puzzle returned has been checked to have exactly one solution.

A clue range below what one pass of removals leaves is reached by a local search in the
same grid (:func:`_descend`): give one emptied orbit back, empty every other orbit that
can go, and keep the move when it leaves no more givens than before.

Two recipes of the sources are modes: the programming book's (its empty-cell counts and
score windows per level, symmetric pairs, retries) and the digit-count pattern of the
Samurai source (``0122211000``: how many digits keep 0, 1, ..., 9 copies).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from . import arguments, engine
from .errors import LimitError, NumberplaceError, ShapeError
from .formats._common import counted
from .grids import random_grid
from .limits import NEVER, Deadline
from .logic.board import Memo
from .logic.driver import BOOK, solve_path
from .logic.step import LogicStatus
from .logic.techniques import REGISTRY
from .puzzle import Puzzle
from .rating import (
    BOOK_LEVELS,
    LEVELS,
    Rating,
    add_book_score,
    add_explainer_difficulty,
    book_score,
    level_by,
    rate,
)
from .shape import MAX_SIZE, HouseKind, Shape, classic, jigsaw
from .symmetry import SYMMETRIES, images

#: Share of empty cells by level (from Programming Sudoku's 9x9 empty-cell counts for levels 1-4;
#: harder levels empty as many cells as uniqueness allows).
_EMPTY_SHARE = {1: (40 / 81, 45 / 81), 2: (46 / 81, 49 / 81), 3: (50 / 81, 53 / 81),
                4: (54 / 81, 1.0), 5: (1.0, 1.0), 6: (1.0, 1.0)}


@dataclass
class Generated:
    """A generated puzzle with its solution, rating, and the seed that reproduces it."""

    puzzle: Puzzle
    solution: tuple[int, ...]
    rating: Rating
    seed: int
    attempts: int = 1


@lru_cache(maxsize=64)
def orbits(shape: Shape, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """The cells of ``shape`` grouped by ``symmetry``: removing whole groups keeps it.

    Raises :class:`ShapeError` when the symmetry would map a cell off the shape.
    """
    rows, cols = shape.canvas
    at = shape.cell_at
    seen: set[int] = set()
    out = []
    for cell, (r, c) in enumerate(shape.coords):
        if cell in seen:
            continue
        group = []
        for rc in images(symmetry, r, c, rows, cols):
            if rc not in at:
                raise ShapeError(f"the {shape.name} shape has no {symmetry} symmetry")
            if at[rc] not in group:
                group.append(at[rc])
        seen.update(group)
        out.append(tuple(sorted(group)))
    return tuple(out)


def has_symmetry(puzzle: Puzzle, symmetry: str) -> bool:
    """True when the puzzle's givens are unchanged by ``symmetry`` (as a pattern)."""
    return all(len({bool(puzzle.givens[c]) for c in group}) == 1
               for group in orbits(puzzle.shape, symmetry))


#: The engine's node limit for one uniqueness check on shapes larger than 16x16.
_LARGE_CHECK_NODES = 2_000


@dataclass
class _Budget:
    """The engine's node limit for each check, and the deadline of the whole request
    (every engine search and solve path of an attempt is bounded by the time left)."""

    node_limit: int
    deadline: Deadline = NEVER
    #: what the solve paths of this request learnt (one request runs in one thread)
    memo: Memo = field(default_factory=Memo)

    def left(self) -> float | None:
        """Seconds left (None: no limit); raises :class:`LimitError` when none are."""
        return self.deadline.left()

    def unique(self, shape: Shape, values: Sequence[int]) -> bool:
        """True when ``values`` (givens taken from a full grid: they cannot clash) have
        exactly one solution."""
        nodes = self.node_limit
        if shape.size > 16:
            # Past 16x16 a check that does not settle soon can take seconds; counting it
            # as not unique only keeps a given, so every puzzle kept is still unique.
            nodes = min(nodes, _LARGE_CHECK_NODES)
        status, _ = engine.solve_givens(shape, values, limit=2, node_limit=nodes,
                                        time_limit=self.left())
        if status is engine.Status.LIMIT:
            self.left()  # the search may have stopped at the deadline
        return status is engine.Status.UNIQUE

    def removable(self, shape: Shape, values: Sequence[int],
                  groups: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """The groups of ``groups`` that can each be emptied from ``values`` (givens taken
        from a full grid) leaving exactly one solution, each checked on its own."""
        if shape.ncells > 81:
            # a batch bounds each search by the time left, not the whole batch: on larger
            # shapes, where one check can take long, the deadline is looked at between them
            return [g for g in groups if self.unique(shape, _without(values, g))]
        if not groups:
            return []
        blob = b"".join(_without(values, g) for g in groups)
        out = engine.solve_blob(shape, blob, limit=2, keep_first=False,
                                node_limit=self.node_limit, time_limit=self.left())
        if any(out.aborted):
            self.left()  # the search may have stopped at the deadline
        return [g for g, found, stopped in zip(groups, out.counts, out.aborted, strict=True)
                if found == 1 and not stopped]

    def solves(self, shape: Shape, values: Sequence[int], techniques: Sequence[str]) -> bool:
        """True when ``techniques`` alone solve the (unique) puzzle ``values``."""
        path = solve_path(Puzzle(shape, tuple(values)), techniques, unique=True,
                          solvable=True, time_limit=self.left(), memo=self.memo)
        if path.status != "solved":
            self.left()
        return path.status is LogicStatus.SOLVED

    def rate(self, puzzle: Puzzle, book: bool, explainer: bool = False) -> Rating:
        """:func:`rate` within the time left; the Explainer's path (the costliest part on
        hard puzzles) only when asked, as most puzzles rated here are not kept."""
        rating = rate(puzzle, node_limit=self.node_limit, book=book, time_limit=self.left(),
                      memo=self.memo, explainer=explainer)
        if rating.status is engine.Status.LIMIT:
            self.left()
        return rating


def _without(values: Sequence[int], group: tuple[int, ...]) -> bytes:
    """``values`` with the cells of ``group`` emptied, as the engine takes them."""
    out = bytearray(values)
    for c in group:
        out[c] = 0
    return bytes(out)


def _techniques_up_to(level: int) -> list[str]:
    """The logical techniques of the levels up to ``level`` (guessing is not one)."""
    return [t.name for t in REGISTRY.logical() if t.level <= level]


def is_minimal(puzzle: Puzzle, node_limit: int = 1_000_000) -> bool:
    """True when removing any single given leaves more than one solution."""
    return _is_minimal(puzzle, _Budget(node_limit))


def _is_minimal(puzzle: Puzzle, budget: _Budget) -> bool:
    values = list(puzzle.givens)
    for cell, v in enumerate(puzzle.givens):
        if v:
            values[cell] = 0
            if budget.unique(puzzle.shape, values):
                return False
            values[cell] = v
    return True


def _empty_while_unique(shape: Shape, values: list[int], solution: Sequence[int],
                        groups: Sequence[tuple[int, ...]], budget: _Budget,
                        most: int | None = None) -> list[tuple[int, ...]]:
    """Empty each group of cells in turn, keeping it empty only while the puzzle stays
    unique (and, with ``most``, while at most that many cells have been emptied in all);
    a group put back takes its values from ``solution``. Returns the groups emptied."""
    emptied: list[tuple[int, ...]] = []
    count = 0
    for group in groups:
        if most is not None and count + len(group) > most:
            continue
        for c in group:
            values[c] = 0
        if budget.unique(shape, values):
            count += len(group)
            emptied.append(group)
        else:
            for c in group:
                values[c] = solution[c]
    return emptied


def _minimise(shape: Shape, values: list[int], rng: random.Random, budget: _Budget) -> None:
    """Remove single givens (in random order) while the puzzle stays unique."""
    cells = [c for c, v in enumerate(values) if v]
    rng.shuffle(cells)
    _empty_while_unique(shape, values, list(values), [(c,) for c in cells], budget)


def generate(shape: Shape | None = None, *, level: int | str | None = None,
             seed: int | None = None, symmetry: str = "rotate180",
             difficulty: tuple[float, float] | None = None, needs: str | None = None,
             clues: tuple[int, int] | None = None, minimal: bool = False,
             recipe: str | None = None, pattern: str | None = None,
             max_attempts: int | None = None, time_limit: float | None = None,
             node_limit: int = 1_000_000) -> Generated:
    """One puzzle with exactly one solution meeting every request (see the module docs).

    ``level`` is a level's name or number; ``recipe="book"`` follows Programming Sudoku's recipe
    for levels 1-4; ``pattern`` is a digit-count pattern (9x9). ``seed`` makes the
    result reproducible: the same arguments and seed give the same puzzle.
    ``max_attempts`` bounds the grids drawn (by default 10,000 without a
    ``time_limit``, unbounded with one). Raises :class:`NumberplaceError` when
    ``max_attempts`` or ``time_limit`` run out.
    """
    request = _request(shape, level, symmetry, difficulty, needs, clues, minimal, recipe,
                       pattern)
    if seed is None:
        seed = random.randrange(2**32)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be a whole number, not {arguments.type_name(seed)}")
    rng = random.Random(seed)
    time_limit = arguments.seconds(time_limit)
    budget = _Budget(arguments.whole(node_limit, "node_limit", 1), Deadline(time_limit))
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


#: The fewest givens a puzzle with one solution can have, where it is known (9x9: McGuire,
#: Tugemann and Civario's exhaustive search, 2012); elsewhere n - 1 distinct symbols
#: must show, or the two missing ones could be swapped in any solution.
_FEWEST_CLUES = {"4x4": 4, "6x6": 8, "9x9": 17}
#: The Explainer-scale difficulties ratings give (guessing rates 9.0 and up to 11.9).
_DIFFICULTIES = (1.0, 11.9)


def check_request(shape: Shape | str | None = None, *, level: int | str | None = None,
                  symmetry: str = "rotate180", difficulty: tuple[float, float] | None = None,
                  needs: str | None = None, clues: tuple[int, int] | None = None,
                  minimal: bool = False, recipe: str | None = None,
                  pattern: str | None = None) -> None:
    """Refuse, before any work, a request that :func:`generate` would refuse (a wrong
    type, an unknown name, or what no puzzle can meet), with the reason."""
    _request(shape, level, symmetry, difficulty, needs, clues, minimal, recipe, pattern)


def _request(shape: Shape | str | None, level: int | str | None, symmetry: str,
             difficulty: tuple[float, float] | None, needs: str | None,
             clues: tuple[int, int] | None, minimal: bool, recipe: str | None,
             pattern: str | None) -> _Request:
    """The arguments of :func:`generate`, checked; a request that no puzzle can meet is
    refused with the reason."""
    shape = arguments.optional_shape(shape) or classic(9)
    if shape.cages:
        raise NumberplaceError("Kakuro and Killer puzzles are made from their kind, not a "
                               "shape: use generate_sums (numberplace generate --shape "
                               "kakuro-15x15 or killer-9x9)")
    if level is not None and (isinstance(level, bool) or not isinstance(level, (int, str))):
        raise TypeError(f"level must be a level's number or name, not "
                        f"{arguments.type_name(level)}")
    target = level_by(level).number if level is not None else None
    if arguments.text(symmetry, "symmetry") != "random":
        orbits(shape, symmetry)  # an unknown symmetry, or one the shape lacks, is refused
    if arguments.optional_text(recipe, "recipe") not in (None, "book"):
        raise NumberplaceError(f"unknown recipe {recipe!r}; known: book")
    if recipe == "book" and (shape.size != 9 or shape.ncells != 81):
        raise NumberplaceError("Programming Sudoku's recipe is for 9x9 puzzles")
    if recipe == "book" and (target is None or target > 4):
        raise NumberplaceError("Programming Sudoku's recipe needs --level 1 to 4")
    if needs is not None:
        technique = REGISTRY.get(arguments.text(needs, "needs"))
        needs = technique.name
        if target is not None and technique.level > target:
            raise NumberplaceError(f"{needs} is a level-{technique.level} technique: a "
                                   f"level-{target} puzzle never needs it")
    pattern = arguments.optional_text(pattern, "pattern")
    counts = _parse_pattern(pattern, shape) if pattern is not None else None
    return _Request(shape, target, symmetry, _difficulty_range(difficulty), needs,
                    _clue_range(clues, shape), bool(minimal), recipe, counts)


def _pair(value: object, name: str) -> tuple[object, object]:
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise TypeError(f"{name} must be a pair (low, high), not {value!r}")
    return value[0], value[1]


def _clue_range(clues: object, shape: Shape) -> tuple[int, int] | None:
    """A clue range that a puzzle of ``shape`` can have, or an error saying why not."""
    if clues is None:
        return None
    low, high = (arguments.whole(v, "clues", 0) for v in _pair(clues, "clues"))
    fewest = _FEWEST_CLUES.get(shape.name, shape.size - 1)
    if low > high:
        raise NumberplaceError(f"clues {low}-{high}: the low end is above the high end")
    if low > shape.ncells:
        raise NumberplaceError(f"clues {low}-{high}: a {shape.name} puzzle has "
                               f"{shape.ncells} cells")
    if high < fewest:
        raise NumberplaceError(f"clues {low}-{high}: no {shape.name} puzzle with one "
                               f"solution has fewer than {fewest} givens")
    return low, high


def _difficulty_range(difficulty: object) -> tuple[float, float] | None:
    """A difficulty range that ratings can fall in, or an error saying why not."""
    if difficulty is None:
        return None
    pair = _pair(difficulty, "difficulty")
    for v in pair:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"difficulty must be numbers, not {arguments.type_name(v)}")
    low, high = float(pair[0]), float(pair[1])  # type: ignore[arg-type]  # checked above
    if not low <= high:
        raise NumberplaceError(f"difficulty {low:g}-{high:g}: the low end is above the "
                               f"high end")
    if high < _DIFFICULTIES[0] or low > _DIFFICULTIES[1]:
        raise NumberplaceError(f"difficulty {low:g}-{high:g}: ratings go from "
                               f"{_DIFFICULTIES[0]:g} to {_DIFFICULTIES[1]:g}")
    return low, high


@dataclass
class _Request:
    """What a puzzle must be (the arguments of :func:`generate`, checked)."""

    shape: Shape
    target: int | None
    symmetry: str
    difficulty: tuple[float, float] | None
    needs: str | None
    clues: tuple[int, int] | None
    minimal: bool
    recipe: str | None
    counts: list[int] | None


def _attempt(req: _Request, rng: random.Random, budget: _Budget) -> Generated | None:
    """One grid's try at the request: the puzzle, or None when the grid gave none."""
    shape, target, recipe = req.shape, req.target, req.recipe
    sym_name = req.symmetry
    if sym_name == "random":
        sym_name = rng.choice([s for s in SYMMETRIES[:-1] if _fits(shape, s)])
    solution = random_grid(shape, rng.randrange(2**32), time_limit=budget.left())
    made = _empty_cells(req, solution, sym_name, rng, budget)
    if made is None:
        return None
    if req.minimal and not _make_minimal(shape, made, sym_name, rng, budget):
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
        puzzle, rating = _harden(puzzle, solution, rating, target, sym_name, rng, budget)
        made = list(puzzle.givens)
        if req.minimal and not _is_minimal(puzzle, budget):
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


def _empty_cells(req: _Request, solution: tuple[int, ...], symmetry: str,
                 rng: random.Random, budget: _Budget) -> list[int] | None:
    """The givens left by the request's way of emptying cells, or None when it failed."""
    if req.recipe == "book":
        return _book_recipe(req.shape, solution, req.target or 1, rng, budget)
    if req.counts is not None:
        return _pattern_recipe(req.shape, solution, req.counts, symmetry, rng, budget)
    # a minimal puzzle empties every orbit it can; its level is then whatever
    # it is, so it is kept only if it is the level asked
    return _remove(req.shape, solution, None if req.minimal else req.target, symmetry, rng,
                   budget, req.clues)


def _make_minimal(shape: Shape, made: list[int], symmetry: str, rng: random.Random,
                  budget: _Budget) -> bool:
    """Without a symmetry, remove single givens from ``made`` while it stays unique; True
    when no given can then be removed."""
    if symmetry == "none":
        _minimise(shape, made, rng, budget)
    return _is_minimal(Puzzle(shape, tuple(made)), budget)


def _climbs(req: _Request) -> bool:
    """True when the request's level is reached by climbing (see :func:`_harden`)."""
    # Fiendish empties every orbit it can, as a climb move does (easier levels stop
    # at a share of empty cells, which a move would overshoot)
    return req.target == _CLIMB_LEVEL and req.recipe is None and req.counts is None


def _meets(req: _Request, rating: Rating, made: Sequence[int]) -> bool:
    """True when a rated puzzle with givens ``made`` meets every request."""
    target = req.target
    if target is not None and req.recipe is None and rating.level_number != target:
        return False
    if req.recipe == "book" and not _book_ok(rating, target or 1, made.count(0)):
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


#: Moves the climb towards a harder puzzle makes in one grid before a new grid is drawn.
_HARDEN_MOVES = 60
#: The level reached by climbing: the hardest level of logic.
_CLIMB_LEVEL = len(LEVELS) - 1


def _harden(puzzle: Puzzle, solution: tuple[int, ...], rating: Rating, target: int,
            symmetry: str, rng: random.Random, budget: _Budget) -> tuple[Puzzle, Rating]:
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
        _empty_while_unique(shape, trial, solution, kept, budget)
        candidate = Puzzle(shape, tuple(trial))
        new = budget.rate(candidate, book=False)
        if (new.status is engine.Status.UNIQUE and new.level_number <= target
                and score(new) >= score(rating)):
            values, puzzle, rating = trial, candidate, new
    return puzzle, rating


def _fits(shape: Shape, symmetry: str) -> bool:
    try:
        orbits(shape, symmetry)
    except ShapeError:
        return False
    return True


def _remove(shape: Shape, solution: tuple[int, ...], level: int | None, symmetry: str,
            rng: random.Random, budget: _Budget, clues: tuple[int, int] | None
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
    removed = _empty_while_unique(shape, values, solution, groups, budget, target_empty)
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


#: The descent towards a clue range (:func:`_descend`) gives up on a grid after this many
#: moves without a new fewest count of givens (a third of it once in the range), or this
#: many moves in all: a new grid then does better than more moves on this one.
_DESCENT_STALL = 300
_DESCENT_MOVES = 3_000


def _descend(shape: Shape, values: list[int], solution: Sequence[int],
             groups: Sequence[tuple[int, ...]], clues: tuple[int, int], rng: random.Random,
             budget: _Budget) -> None:
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
               room: int, rng: random.Random, budget: _Budget) -> int:
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


def _book_recipe(shape: Shape, solution: tuple[int, ...], level: int, rng: random.Random,
                 budget: _Budget) -> list[int] | None:
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
              budget: _Budget) -> int | None:
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


def _book_ok(rating: Rating, level: int, empty: int) -> bool:
    """Programming Sudoku's empty cells and score window for the level."""
    _name, empties, _mean, scores = BOOK_LEVELS[level - 1]
    return empty in empties and rating.book_score is not None and rating.book_score in scores


def _parse_pattern(pattern: str, shape: Shape) -> list[int]:
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


def _pattern_recipe(shape: Shape, solution: tuple[int, ...], counts: list[int],
                    symmetry: str, rng: random.Random, budget: _Budget) -> list[int] | None:
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


def random_regions(size: int, seed: int | None = None, moves: int | None = None, *,
                   time_limit: float | None = None) -> Shape:
    """A jigsaw shape of ``size`` with random connected regions that has complete grids.

    Regions start as the classic boxes (or bands for sizes without boxes) and trade
    cells across their borders at random, each trade keeping both regions connected.
    Raises :class:`~numberplace.errors.LimitError` when ``time_limit`` runs out first.
    """
    size = arguments.whole(size, "size", 4, MAX_SIZE)
    deadline = Deadline(arguments.seconds(time_limit))
    rng = random.Random(seed)
    moves = moves if moves is not None else 4 * size
    base = classic(size) if size not in (5, 7) else None
    for _ in range(100):
        if base is not None:
            region = [0] * (size * size)
            for h, house in enumerate(h for h in base.houses if h.kind == HouseKind.BOX):
                for c in house.cells:
                    region[c] = h
        else:
            region = [c // size for c in range(size * size)]
        for _ in range(moves * 20):
            if moves <= 0:
                break
            a = rng.randrange(size * size)
            b = rng.choice(_neighbours(a, size))
            ra, rb = region[a], region[b]
            if ra == rb:
                continue
            # a trade: a joins rb, and some cell of rb next to ra joins ra
            candidates = [x for x in range(size * size) if region[x] == rb and x != b
                          and any(region[y] == ra for y in _neighbours(x, size))]
            if not candidates:
                continue
            x = rng.choice(candidates)
            region[a], region[x] = rb, ra
            if _connected(region, ra, size) and _connected(region, rb, size):
                moves -= 1
            else:
                region[a], region[x] = ra, rb
        try:
            shape = jigsaw([region[r * size:(r + 1) * size] for r in range(size)])
        except ShapeError:
            continue
        found = engine.solve(Puzzle(shape, (0,) * shape.ncells), limit=1, keep=0,
                             node_limit=200_000, time_limit=deadline.left())
        if found.status is not engine.Status.NONE and found.count:
            return shape
        moves = moves or 4 * size
    raise ShapeError(f"no {size}x{size} jigsaw with complete grids was found")


def _neighbours(cell: int, size: int) -> list[int]:
    r, c = divmod(cell, size)
    out = []
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < size and 0 <= cc < size:
            out.append(rr * size + cc)
    return out


def _connected(region: list[int], which: int, size: int) -> bool:
    cells = [c for c, x in enumerate(region) if x == which]
    seen = {cells[0]}
    stack = [cells[0]]
    while stack:
        for y in _neighbours(stack.pop(), size):
            if region[y] == which and y not in seen:
                seen.add(y)
                stack.append(y)
    return len(seen) == len(cells)


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


# -- Kakuro and Killer ----------------------------------------------------------------------

#: The levels a Kakuro and a Killer can be asked for. Their techniques reach level 3;
#: harder ones need Sudoku's chains or trial and error, which random cages rarely call for.
SUM_LEVELS: dict[str, tuple[int, ...]] = {"kakuro": (1, 2, 3), "killer": (1, 2, 3)}
#: The largest Killer cage drawn for each level: bigger cages say less, so need more.
_KILLER_CAGE = {1: 3, 2: 5, 3: 6}
_SUMS_NAME = re.compile(r"(kakuro|killer)(?:-(\d+)(?:x(\d+))?)?")


@dataclass(frozen=True)
class SumsKind:
    """What :func:`generate_sums` makes: a Kakuro of ``rows`` x ``cols`` squares, or a
    Killer on the Sudoku shape ``base``."""

    kind: str
    rows: int = 0
    cols: int = 0
    base: Shape | None = None

    def __str__(self) -> str:
        if self.kind == "kakuro":
            return f"kakuro-{self.rows}x{self.cols}"
        assert self.base is not None
        return f"killer-{self.base.name}"


def sums_kind(name: str) -> SumsKind | None:
    """``kakuro`` (10x10), ``kakuro-15x15``, ``kakuro-12x20``, ``killer`` (on 9x9) or
    ``killer-6x6`` (any Sudoku shape's name after ``killer-``); None for other names."""
    key = arguments.text(name, "name").strip().lower()
    if key.startswith("killer-") and not _SUMS_NAME.fullmatch(key):
        from .shape import by_name

        try:
            return SumsKind("killer", base=by_name(key[len("killer-"):]))
        except ShapeError as exc:
            raise NumberplaceError(f"{name}: {exc}") from None
    m = _SUMS_NAME.fullmatch(key)
    if m is None:
        return None
    if m.group(1) == "killer":
        if m.group(3) and m.group(3) != m.group(2):
            raise NumberplaceError(f"{name}: a Killer's grid is square")
        return SumsKind("killer", base=classic(int(m.group(2)) if m.group(2) else 9))
    rows = int(m.group(2) or 10)
    cols = int(m.group(3) or rows)
    if not (6 <= rows <= 30 and 6 <= cols <= 30):
        raise NumberplaceError(f"{name}: a Kakuro is made from 6x6 to 30x30 squares")
    return SumsKind("kakuro", rows, cols)


def check_sums_level(kind: SumsKind, level: int | str | None) -> int | None:
    """The level asked for, as a number, refused where the kind has no such level."""
    if level is None:
        return None
    if isinstance(level, bool) or not isinstance(level, (int, str)):
        raise TypeError(f"level must be a level's number or name, not "
                        f"{arguments.type_name(level)}")
    wanted = level_by(level)
    offered = SUM_LEVELS[kind.kind]
    if wanted.number not in offered:
        names = ", ".join(f"{n} ({LEVELS[n - 1].name})" for n in offered)
        raise NumberplaceError(f"a {kind.kind.capitalize()} is made at level {names}, not "
                               f"{wanted.number} ({wanted.name})")
    return wanted.number


def generate_sums(kind: SumsKind | str, *, level: int | str | None = None,
                  seed: int | None = None, max_attempts: int = 1000,
                  time_limit: float | None = None) -> Generated:
    """A Kakuro or Killer with exactly one solution (both engines' search says so), rated,
    at ``level`` when one is asked (see :data:`SUM_LEVELS`). ``kind`` is a
    :class:`SumsKind` or its name (:func:`sums_kind`). Puzzles are drawn until one rates
    at the level; ``max_attempts`` and ``time_limit`` bound that (LimitError or
    NumberplaceError past them). The same arguments and seed give the same puzzle.
    """
    from . import sumgen

    if isinstance(kind, str):
        found = sums_kind(kind)
        if found is None:
            raise NumberplaceError(f"unknown kind {kind!r}; write kakuro, kakuro-RxC, killer "
                                   f"or killer-NxN")
        kind = found
    target = check_sums_level(kind, level)
    if seed is None:
        seed = random.randrange(2**32)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be a whole number, not {arguments.type_name(seed)}")
    max_attempts = arguments.whole(max_attempts, "max_attempts", 1)
    time_limit = arguments.seconds(time_limit)
    deadline = Deadline(time_limit)
    rng = random.Random(seed)
    attempt = 0
    try:
        while attempt < max_attempts:
            attempt += 1
            draw = rng.randrange(2**32)
            made: sumgen.GeneratedKakuro | sumgen.GeneratedKiller
            if kind.kind == "kakuro":
                made = sumgen.generate_kakuro(kind.rows, kind.cols, seed=draw,
                                              deadline=deadline)
            else:
                assert kind.base is not None
                cage = _KILLER_CAGE.get(target or 2, sumgen.MAX_CAGE)
                made = sumgen.generate_killer(kind.base, seed=draw,
                                              max_cage=min(cage, kind.base.size),
                                              deadline=deadline)
            left = deadline.left()
            rating = rate(made.puzzle, book=False, time_limit=60.0 if left is None else left)
            if rating.status is not engine.Status.UNIQUE:
                continue
            if target is None or rating.level_number == target:
                return Generated(made.puzzle, made.solution, rating, seed, attempt)
    except LimitError as exc:
        if time_limit is None:
            raise
        asked = "" if target is None else " at the level asked"
        raise LimitError(f"no {kind}{asked} within the time limit of {time_limit:.3g} s "
                         f"({counted(attempt, 'puzzle')} drawn); allow more time") from exc
    raise NumberplaceError(f"no {kind} rated at level {target} in "
                           f"{counted(attempt, 'attempt')}; ask for another level, or allow "
                           f"more attempts")
