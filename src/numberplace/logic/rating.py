"""How hard a puzzle is: our levels, a Sudoku Explainer-scale number, and Programming
Sudoku's score.

Three measures, all from solving the puzzle the way a person would:

* **Level** (1..6): decided by the hardest technique the solve needs. The first four
  carry Programming Sudoku's names; harder puzzles go on to Fiendish (chains) and Trial and Error
  (forcing chains, which try a value and follow it, and guessing). :data:`LEVELS` lists
  each level's techniques; the solve tries them level by level.
* **Difficulty** on the scale of Sudoku Explainer, the program most puzzle collections are
  rated with (1.0 for a last cell of a house ... 9.5 where its nested chains are needed):
  the puzzle is solved a second time the Explainer's way
  (:func:`~numberplace.logic.explainer.explainer_difficulty`), and the value of the
  hardest step on that path is the difficulty. Shapes with sums, and shapes larger than
  9x9, keep the value of our own path's hardest step.
* **Book score**: the programming book's points for solving with its own five
  techniques: each cell confirmed by CRME (naked single) scores 1, by a lone ranger
  (hidden single) 2; each twins (naked pair) step 3 and triplets (naked triple) step 4,
  as they confirm no cell themselves; each guess 5 and each backtrack 5. Programming Sudoku's four
  levels are read off the score.

Puzzles with no solution, several solutions or clashing givens are not rated: their
``status`` says so and they have no level.
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field
from functools import partial

from .. import arguments, engine
from ..errors import LimitError, NumberplaceError
from ..limits import Deadline
from ..model.puzzle import Puzzle
from ..model.shape import BLOCK_KINDS, Shape
from .board import Board, Memo
from .driver import BOOK, solve_path
from .explainer import explainer_difficulty
from .step import LogicStatus, Step
from .techniques import BRUTE_FORCE, LEVEL_NAMES, REGISTRY, Family
from .xchain import length_brackets


@dataclass(frozen=True)
class Level:
    """One level of our scale: its number (1 = easiest) and name."""

    number: int
    name: str

    @property
    def techniques(self) -> tuple[str, ...]:
        """The level's techniques, from the technique table."""
        return tuple(t.name for t in REGISTRY.of_level(self.number))


#: Our levels, easiest first; a puzzle's level is that of the hardest technique it needs.
#: The last level is trial and error: forcing chains try a value and follow its
#: consequences (the sources' "simple trial and error"), and guessing goes further.
LEVELS: tuple[Level, ...] = tuple(Level(n, name) for n, name in enumerate(LEVEL_NAMES, 1))

#: The most length brackets (:func:`~numberplace.logic.xchain.length_brackets`) that
#: add to the value of one of our chains: those up to 256 cells; a longer chain adds no
#: more.
_MOST_BRACKETS = 13

#: Programming Sudoku's levels with their empty cells and accepted scores (its generator's recipe).
BOOK_LEVELS: tuple[tuple[str, range, int, range], ...] = (
    ("Easy", range(40, 46), 44, range(42, 47)),
    ("Medium", range(46, 50), 51, range(49, 54)),
    ("Difficult", range(50, 54), 58, range(56, 61)),
    ("Extremely Difficult", range(54, 59), 114, range(112, 117)),
)
#: Score boundaries between Programming Sudoku's levels: halfway between their mean scores.
_BOOK_BOUNDS = tuple((a[2] + b[2]) / 2 for a, b in zip(BOOK_LEVELS, BOOK_LEVELS[1:], strict=False))


@dataclass
class Rating:
    """A puzzle's difficulty. ``status`` is the engine's (``unique``, ``multiple``,
    ``none``, ``invalid`` or ``limit``); only unique puzzles get a level and numbers."""

    status: engine.Status
    level: str | None = None
    level_number: int = 0
    difficulty: float | None = None
    book_score: int | None = None
    book_level: str | None = None
    #: the technique that decided the level: the most valued step of that level
    hardest: str | None = None
    guesses: int = 0
    steps: Counter[str] = field(default_factory=Counter)
    message: str = ""
    #: the step that set the difficulty: the Explainer's hardest step on its path (our
    #: own hardest step where the difficulty is our path's)
    explainer_hardest: str | None = None


def level_of(technique: str) -> Level:
    """The level a technique belongs to."""
    return LEVELS[REGISTRY.get(technique).level - 1]


def level_by(name_or_number: str | int) -> Level:
    """A level by its name (any case) or number (1 = easiest)."""
    text = str(name_or_number).strip()
    for level in LEVELS:
        if text == str(level.number) or text.lower() == level.name.lower():
            return level
    raise NumberplaceError(f"unknown level {name_or_number!r}; levels: "
                           + ", ".join(f"{lv.number} {lv.name}" for lv in LEVELS))


def step_difficulty(step: Step, houses_kind: str | None = None) -> float:
    """A step's value on the Explainer scale: its technique's value, 1.2 for a hidden
    single in a box, plus 0.1 for each length bracket a chain passes."""
    base = REGISTRY.get(step.technique).value
    if step.technique == "Hidden Single" and houses_kind in BLOCK_KINDS:
        return 1.2
    if step.chain_length:
        base += 0.1 * min(length_brackets(step.chain_length), _MOST_BRACKETS)
    return round(base, 1)


def book_score(steps: list[Step]) -> int:
    """Programming Sudoku's score of a path taken with its techniques (see the module docs)."""
    score = 0
    for step in steps:
        technique = REGISTRY.get(step.technique)
        # singles score per cell they confirm; the other techniques per step
        per = len(step.placements) if technique.family is Family.SINGLES else 1
        score += technique.book_points * per
    return score


def book_level(score: int) -> str:
    """Programming Sudoku's level for a score: the level whose mean score is nearest."""
    return BOOK_LEVELS[bisect.bisect_right(_BOOK_BOUNDS, score)][0]


def rate(puzzle: Puzzle | str, *, time_limit: float | None = 60.0,
         node_limit: int = 2_000_000, book: bool = True, memo: Memo | None = None,
         explainer: bool = True, scale: str = "explainer") -> Rating:
    """Rate a puzzle (see the module docs); ``book`` adds Programming Sudoku's score.

    ``scale`` is the Explainer's technique set the difficulty follows
    (:data:`~numberplace.arguments.SCALES`): ``explainer``, Sudoku Explainer 1.2.1's.

    With ``explainer`` false the difficulty is our own path's hardest step on the
    Explainer's scale, not the Explainer's path (cheaper, and less close to its ratings;
    :func:`add_explainer_difficulty` adds that later).

    ``time_limit`` bounds the whole rating (seconds: the engine's check and every solve
    path) and ``node_limit`` the engine's check for one solution; past them the rating
    says ``limit``. ``memo``: see :func:`~numberplace.logic.driver.solve_path`.
    """
    puzzle = arguments.puzzle(puzzle)
    scale = arguments.scale(scale)
    deadline = Deadline(arguments.seconds(time_limit))
    try:
        exact = engine.solve(puzzle, limit=2, keep=0, time_limit=deadline.left(),
                             node_limit=arguments.whole(node_limit, "node_limit"))
    except LimitError as exc:
        return Rating(engine.Status.LIMIT, message=str(exc))
    if exact.status is not engine.Status.UNIQUE:
        limit = exact.status is engine.Status.LIMIT
        return Rating(exact.status, message=exact.message or (_LIMIT if limit else ""))
    shape = puzzle.shape
    path = solve_path(puzzle, REGISTRY.rating_order(), guess=True, unique=True,
                      deadline=deadline, solvable=True, memo=memo)
    if path.status is not LogicStatus.SOLVED:
        return Rating(engine.Status.LIMIT, message=path.message or str(path.status))
    out = Rating(engine.Status.UNIQUE)
    hardest_value = 0.0
    # the level's step: the most valued step of the hardest level reached
    deciding = (0, 0.0)
    for step in path.steps:
        out.steps[step.technique] += 1
        if step.technique == BRUTE_FORCE:
            out.guesses += 1
        if step.depth and step.technique != BRUTE_FORCE:
            continue  # work under a guess does not make the puzzle harder
        value = _value_of(shape, step)
        if value > hardest_value:
            hardest_value, out.explainer_hardest = value, step.technique
        rank = (level_of(step.technique).number, value)
        if rank > deciding:
            deciding, out.hardest = rank, step.technique
    if out.guesses:
        # each guess beyond the first adds a little, up to the scale's top
        hardest_value = min(11.9, 9.0 + 0.1 * (out.guesses - 1))
        out.hardest = out.explainer_hardest = BRUTE_FORCE
    level = LEVELS[max(deciding[0], 1) - 1]
    out.level, out.level_number = level.name, level.number
    out.difficulty = round(hardest_value, 1)
    if explainer:
        try:
            add_explainer_difficulty(out, puzzle, memo=memo, deadline=deadline, scale=scale)
        except LimitError as exc:
            return Rating(engine.Status.LIMIT, message=str(exc))
    if book:
        add_book_score(out, puzzle, memo=memo, deadline=deadline)
    return out


_LIMIT = "the search budget ran out before one solution was proved"


def _value_of(shape: Shape, step: Step) -> float:
    """A step's value on the Explainer's scale, by the kind of its first house."""
    kind = shape.houses[step.houses[0]].kind if step.houses else None
    return step_difficulty(step, kind)


#: The largest grid whose difficulty follows the Explainer's path: its own grids are 9x9,
#: and on a 16x16 its chains grow long and slow (minutes a puzzle), so larger shapes keep
#: the value of our own path's hardest step.
EXPLAINER_CELLS = 81


def add_explainer_difficulty(rating: Rating, puzzle: Puzzle, time_limit: float | None = 60.0,
                             memo: Memo | None = None, deadline: Deadline | None = None,
                             scale: str = "explainer") -> None:
    """Set the difficulty of a puzzle ``rating`` made with ``explainer=False`` to the
    Explainer's path's (see the module docs). Shapes with sums, and shapes of more than
    :data:`EXPLAINER_CELLS` cells, keep theirs. Past
    ``time_limit`` (or ``deadline``), :class:`~numberplace.errors.LimitError`."""
    shape = puzzle.shape
    if shape.cages or shape.ncells > EXPLAINER_CELLS:
        return
    board = Board.from_puzzle(puzzle, memo)
    board.memo.deadline = deadline or Deadline(arguments.seconds(time_limit))
    value, name, solved = explainer_difficulty(board, partial(_value_of, shape),
                                               arguments.scale(scale))
    # a puzzle the Explainer's kinds and ours cannot finish keeps its guessing value
    if solved or value >= (rating.difficulty or 0.0):
        rating.difficulty, rating.explainer_hardest = round(value, 1), name


def add_book_score(rating: Rating, puzzle: Puzzle, time_limit: float | None = 60.0,
                   memo: Memo | None = None, deadline: Deadline | None = None) -> None:
    """Fill in Programming Sudoku's score and level of a puzzle ``rating`` rated without them (a
    path of Programming Sudoku's techniques and guesses: on large shapes it may be long). Past
    ``time_limit`` (or ``deadline``) the score is left out, as it is for puzzles with
    sums: Programming Sudoku scores Sudoku, and its techniques know nothing of cages."""
    if any(cage.total is not None for cage in puzzle.shape.cages):
        return
    book_path = solve_path(puzzle, BOOK, guess=True, time_limit=time_limit, solvable=True,
                           memo=memo, deadline=deadline)
    if book_path.status is LogicStatus.SOLVED:
        rating.book_score = book_score(book_path.steps)
        rating.book_level = book_level(rating.book_score)
