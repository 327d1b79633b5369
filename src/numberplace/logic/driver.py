"""Run the techniques in order, simplest first, as a person (and Programming Sudoku) would.

After every successful step the search starts again from the simplest technique, so a
harder technique is only used when nothing easier applies. The techniques and their order
come from :data:`~numberplace.logic.techniques.REGISTRY`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..errors import LimitError
from ..limits import Deadline
from ..model.puzzle import Puzzle
from ..model.shape import Shape
from .board import Board, Memo, values_of
from .step import (
    LogicStatus,
    Role,
    Step,
    cell_ref,
    make_step,
    placement_step,
    render,
    value_ref,
    values_ref,
)
from .techniques import BACKTRACK, BRUTE_FORCE, REGISTRY, Finder

#: The programming book's logical techniques, in its order (its brute force is not here).
BOOK: list[str] = REGISTRY.book()


@dataclass
class SolveResult:
    """Outcome of :func:`solve_path`: ``status`` is solved, stalled or invalid.

    ``message`` names the contradiction of an invalid board.
    """

    status: LogicStatus
    steps: list[Step] = field(default_factory=list)
    board: Board | None = None
    message: str = ""


def next_step(board: Board, shape: Shape, techniques: Sequence[str] | None = None,
              unique: bool = False) -> Step | None:
    """The first step of the simplest technique that applies, or None. Uniqueness
    techniques take part only with ``unique`` (the puzzle is known to have one solution)."""
    return _first_step(board, shape, REGISTRY.finders(techniques, unique))


def next_placement(board: Board, shape: Shape, techniques: Sequence[str] | None = None,
                   unique: bool = False) -> tuple[Step | None, list[Step]]:
    """The next step that writes a value, as the spreadsheet solver's "Solve" button gives
    one number per press; also the elimination steps taken on the way to it.

    ``board`` is advanced past those eliminations but not past the placement.
    """
    finders = REGISTRY.finders(techniques, unique)
    eliminations: list[Step] = []
    while True:
        step = _first_step(board, shape, finders)
        if step is None or step.placements:
            return step, eliminations
        step.apply(board)
        eliminations.append(step)


def _first_step(board: Board, shape: Shape, finders: Sequence[Finder]) -> Step | None:
    for finder in finders:
        step = next(finder(board, shape), None)
        if step is not None:
            return step
    return None


def solve_path(puzzle: Puzzle, techniques: Sequence[str] | None = None,
               max_steps: int | None = None, guess: bool = False,
               unique: bool = False, time_limit: float | None = None,
               solvable: bool = False, memo: Memo | None = None,
               deadline: Deadline | None = None) -> SolveResult:
    """Solve step by step, recording each step; stop when solved, stuck or broken.

    With ``guess``, a stalled board is not the end: Programming Sudoku's brute-force elimination
    guesses the smallest value of a cell with the fewest candidates, goes on with logic,
    and on a contradiction returns to the board before the guess, where that value is
    now known to be wrong. Every guess and backtrack is a step, with its ``depth``.
    Uniqueness techniques take part only with ``unique``. ``max_steps`` and
    ``time_limit`` (seconds; or a ``deadline`` shared with other work) bound the path, the
    time inside a step's search too: past them it ends ``stalled``, with a message.
    With ``solvable`` the caller vouches that the puzzle has a solution (the engine found
    one): sound steps then cannot break the board, so it is checked only under guesses.
    ``memo`` lets a caller that solves many related puzzles in one thread (a generator)
    keep what the searches learnt; by default each path has its own.
    """
    board = Board.from_puzzle(puzzle, memo)
    earlier = board.memo.deadline
    board.memo.deadline = deadline if deadline is not None else Deadline(time_limit)
    try:
        return _walk(board, puzzle.shape, REGISTRY.finders(techniques, unique), guess,
                     max_steps, solvable)
    finally:
        board.memo.deadline = earlier


def _walk(board: Board, shape: Shape, finders: Sequence[Finder], guess: bool,
          max_steps: int | None, solvable: bool) -> SolveResult:
    """The loop of :func:`solve_path` from ``board``, within its memo's deadline."""
    deadline = board.memo.deadline
    steps: list[Step] = []
    saved: list[tuple[Board, int, int]] = []  # board before each open guess, cell, value
    checked = False  # the board was found sound and only the last step changed it
    last: Step | None = None
    while True:
        if solvable and not saved:
            problem = None
        elif checked and last is not None and not board.broken_by(last.placements,
                                                                   last.eliminations):
            problem = None
        else:
            problem = board.problem()  # the whole board, and the first problem's name
        checked = problem is None
        if problem and saved:
            board, step = _backtrack(shape, saved, problem)
            steps.append(step)
            continue
        if problem:
            return SolveResult(LogicStatus.INVALID, steps, board, render(problem, shape))
        if board.is_solved():
            return SolveResult(LogicStatus.SOLVED, steps, board)
        if max_steps is not None and len(steps) >= max_steps:
            return SolveResult(LogicStatus.STALLED, steps, board,
                               f"stopped after {max_steps} steps")
        try:
            deadline.check()
            found = _first_step(board, shape, finders)
        except LimitError:
            return SolveResult(LogicStatus.STALLED, steps, board, deadline.stop_text())
        if found is None and guess:
            found = _guess(board, shape, len(saved) + 1)
            saved.append((board.copy(), found.placements[0][0], found.placements[0][1]))
        if found is None:
            return SolveResult(LogicStatus.STALLED, steps, board)
        step = replace(found, depth=len(saved)) if found.depth != len(saved) else found
        step.apply(board)
        last = step
        steps.append(step)


def _guess(board: Board, shape: Shape, depth: int) -> Step:
    """Guess the smallest candidate of the first cell with the fewest candidates."""
    open_cells = [c for c, v in enumerate(board.values) if not v]
    cell = min(open_cells, key=lambda c: bin(board.candidates[c]).count("1"))
    options = values_of(board.candidates[cell])
    value = options[0]
    listed = values_ref(options)
    return placement_step(shape, BRUTE_FORCE, f"guess {value_ref(value)} at {cell_ref(cell)}, "
                          f"the first of its {len(options)} candidates {listed}", cell, value,
                          depth=depth)


def _backtrack(shape: Shape, saved: list[tuple[Board, int, int]], problem: str
               ) -> tuple[Board, Step]:
    """Undo the latest guess: its value is wrong in the board it was made on.

    ``problem`` is the broken board's contradiction as a template.
    """
    board, cell, value = saved.pop()
    step = make_step(shape, BACKTRACK,
                     f"{problem}, so the guess {value_ref(value)} at {cell_ref(cell)} was "
                     f"wrong: back to the board before it, without {value_ref(value)} at "
                     f"{cell_ref(cell)}",
                     eliminations=((cell, value),), cells=(cell,),
                     highlights=((Role.REMOVED, cell, value),), depth=len(saved))
    step.apply(board)
    return board, step
