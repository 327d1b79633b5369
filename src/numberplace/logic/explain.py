"""Explanations and hints as data, for the command line and other front ends.

:func:`explain` first asks the exact engine whether the puzzle is sound (clashing givens,
no solution, several solutions), then solves it step by step with the techniques asked.
:func:`next_hint` gives the next step as data, or says why there is none; :func:`hint_text`
tells a step at three levels of detail, from the technique and the house to look at, to
the whole deduction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .. import arguments, engine
from ..errors import LimitError
from ..limits import Deadline
from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import HouseKind, Shape
from .board import Board
from .driver import next_placement, next_step, solve_path
from .step import LogicStatus, Step, cage_name
from .techniques import BACKTRACK, BRUTE_FORCE, technique_names


@dataclass
class Explanation:
    """A puzzle's solving path: solved, stalled, invalid, multiple or none."""

    status: LogicStatus
    steps: list[Step] = field(default_factory=list)
    message: str = ""

    def technique_counts(self) -> Counter[str]:
        """How many steps each technique took."""
        return Counter(step.technique for step in self.steps)


@dataclass(frozen=True)
class Hint:
    """The next step of a puzzle, as data.

    ``status`` is ``hinted`` with ``step`` set; ``multiple`` also has a step when logic
    finds one (the puzzle has several solutions, the step is sound for all of them);
    ``solved`` (nothing left to place), ``stalled`` (no technique applies), ``invalid``
    and ``none`` have no step and say why in ``message``. ``before`` holds the
    elimination steps a placement hint went through first.
    """

    status: LogicStatus
    step: Step | None = None
    before: tuple[Step, ...] = ()
    message: str = ""


def _unsound(puzzle: Puzzle, exact: engine.Result) -> tuple[LogicStatus, str] | None:
    """What the exact engine found wrong with the puzzle before any step: clashes, or no
    solution (for a pencil-mark grid: marks that rule out every solution)."""
    if exact.status is engine.Status.INVALID:
        return LogicStatus.INVALID, exact.message
    if exact.status is engine.Status.NONE:
        if puzzle.candidates is not None:
            return LogicStatus.NONE, "the pencil marks rule out every solution"
        return LogicStatus.NONE, "the puzzle has no solution"
    return None


#: The share of a time limit the engine's check may take: the path has the rest. On the
#: hardest big grids the check alone can take minutes, and a path without its answer
#: (leaving out the techniques that assume one solution) is still a path.
EXACT_SHARE = 0.5


def _exact(puzzle: Puzzle, deadline: Deadline) -> engine.Result:
    """The engine's verdict (up to two solutions) within its share of the deadline;
    ``limit`` when that share or its node budget ran out first."""
    try:
        left = deadline.left()
        return engine.solve(puzzle, limit=2, keep=0, node_limit=2_000_000,
                            time_limit=None if left is None else left * EXACT_SHARE)
    except LimitError:
        return engine.Result(engine.Status.LIMIT, 0)


def _unproved(exact: engine.Result, message: str) -> str:
    """A path's message, saying so when the engine did not settle whether the puzzle
    has one solution (the path then used no technique that assumes it)."""
    if exact.status is not engine.Status.LIMIT:
        return message
    return "; ".join([message] * bool(message) + [UNPROVED])


#: What a path says when the engine's check ran out of its share of the time.
UNPROVED = ("one solution not proved in time, so no technique that assumes it was "
            "used")


def _start(puzzle: Puzzle | str, techniques: Sequence[str] | str | None,
           time_limit: float | None, known: engine.Result | None = None
           ) -> tuple[Puzzle, list[str] | None, Deadline, engine.Result,
                      tuple[LogicStatus, str] | None]:
    """The arguments of :func:`explain` and :func:`next_hint` checked, their deadline, the
    engine's verdict (``known`` when the caller has it), and what it found wrong with the
    puzzle (None: nothing)."""
    puzzle = arguments.puzzle(puzzle)
    names = technique_names(techniques)
    deadline = Deadline(arguments.seconds(time_limit))
    exact = known if known is not None else _exact(puzzle, deadline)
    return puzzle, names, deadline, exact, _unsound(puzzle, exact)


def explain(puzzle: Puzzle | str, techniques: Sequence[str] | str | None = None,
            guess: bool = False, time_limit: float | None = None) -> Explanation:
    """Solve by logic, recording every step; with ``guess``, guess and backtrack when
    logic stalls (Programming Sudoku's brute force), each guess and backtrack a step.

    ``invalid`` (clashing givens or a contradiction), ``none`` and ``multiple`` come from
    the exact engine before any step is taken; a puzzle with several solutions is still
    explained as far as logic goes. Past ``time_limit`` seconds (the engine's check
    included) the path ends ``stalled`` with a message saying so; a path that stalls
    because no technique applies says that.
    """
    puzzle, names, deadline, exact, wrong = _start(puzzle, techniques, time_limit)
    if wrong is not None:
        return Explanation(wrong[0], message=wrong[1])
    path = solve_path(puzzle, names, guess=bool(guess),
                      unique=exact.status is engine.Status.UNIQUE, deadline=deadline)
    message = path.message or (STALLED if path.status is LogicStatus.STALLED else "")
    if path.status is not LogicStatus.SOLVED:  # solved by logic alone, it has one
        message = _unproved(exact, message)
    if path.status is LogicStatus.INVALID:
        return Explanation(LogicStatus.INVALID, path.steps, message)
    if exact.status is engine.Status.MULTIPLE:
        return Explanation(LogicStatus.MULTIPLE, path.steps, "; ".join(
            [_SEVERAL] + [message] * bool(message)))
    return Explanation(path.status, path.steps, message)


_SEVERAL = "the puzzle has more than one solution"
#: Why a path stalled when its time did not run out.
STALLED = "no technique applies"


def next_hint(puzzle: Puzzle | str, techniques: Sequence[str] | str | None = None,
              placement: bool = False, time_limit: float | None = None,
              verdict: engine.Result | None = None) -> Hint:
    """The next step of the simplest technique that applies (see :class:`Hint`). With
    ``placement``, the next step that writes a value, after the eliminations it needs.
    Past ``time_limit`` seconds the hint is ``stalled``, with a message saying so.
    ``verdict``: the engine's verdict on the puzzle when the caller has it, which spares
    the engine's check (seconds on the hardest 25x25): ``unique`` with the solution (a
    game whose entries agree with its puzzle's solution), or ``limit`` (a check that ran
    out of time before: the hint then uses no technique that assumes one solution)."""
    puzzle, names, deadline, exact, wrong = _start(puzzle, techniques, time_limit, verdict)
    if wrong is not None:
        return Hint(wrong[0], message=wrong[1])
    board = Board.from_puzzle(puzzle)
    if board.is_solved():
        return Hint(LogicStatus.SOLVED, message="every cell already holds a value")
    board.memo.deadline = deadline
    unique = exact.status is engine.Status.UNIQUE
    before: list[Step] = []
    try:
        if placement:
            step, before = next_placement(board, puzzle.shape, names, unique)
        else:
            step = next_step(board, puzzle.shape, names, unique)
    except LimitError:
        step = None
        stopped = deadline.stop_text()
    else:
        stopped = STALLED
    several = exact.status is engine.Status.MULTIPLE
    if step is None:
        return Hint(LogicStatus.MULTIPLE if several else LogicStatus.STALLED,
                    message="; ".join([_SEVERAL] * several + [_unproved(exact, stopped)]))
    if several:
        return Hint(LogicStatus.MULTIPLE, step, tuple(before), _SEVERAL)
    return Hint(LogicStatus.HINTED, step, tuple(before))


def hint_text(step: Step, shape: Shape, tier: int, notation: str = "rc",
              alphabet: Alphabet | None = None) -> str:
    """A step told at ``tier`` 1, 2 or 3 (values written with ``alphabet``)."""
    name = step.technique + (f" ({step.book_name})" if step.book_name else "")
    where = ", ".join([str(shape.houses[h]) for h in step.houses]
                      + [cage_name(shape, k, notation) for k in step.cages])
    if tier <= 1:
        return f"{name}: look at {where}" if where else name
    if tier == 2:
        cells = ", ".join(shape.cell_name(c, notation) for c in step.cells)
        return f"{name}: look at {where or 'the board'}, cells {cells}"
    return step.describe(shape, notation, alphabet)


def boards_before_steps(puzzle: Puzzle, steps: Sequence[Step]) -> Iterator[Board]:
    """The board as it stood before each step of a path, replaying guesses and
    backtracks the way the driver took them."""
    board = Board.from_puzzle(puzzle)
    saved: list[Board] = []
    for step in steps:
        if step.technique == BACKTRACK:
            board = saved.pop()
        yield board.copy()
        if step.technique == BRUTE_FORCE:
            saved.append(board.copy())
        step.apply(board)


def book_log_line(step: Step, shape: Shape, alphabet: Alphabet | None = None) -> str:
    """A step in the words of Programming Sudoku's activity log, cells as (column,row):
    ``Value 5 in (3,7) by lone ranger in column``."""
    sym = alphabet.symbol if alphabet is not None else str
    house = shape.houses[step.houses[0]] if step.houses else None
    kind = "" if house is None else "minigrid" if house.kind == HouseKind.BOX else str(house.kind)
    how = (step.book_name or step.technique).lower()
    if step.book_name == "CRME":
        how = "CRME"
    elif kind and step.book_name in ("Lone Ranger", "Twins", "Triplets"):
        how += f" in {kind}"
    if step.placements:
        return "; ".join(f"Value {sym(v)} in {shape.cell_name(c, 'book')} by {how}"
                         for c, v in step.placements)
    removed = ", ".join(f"{sym(v)} from {shape.cell_name(c, 'book')}"
                        for c, v in step.eliminations)
    return f"Removed {removed} by {how}"
