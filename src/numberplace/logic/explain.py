"""Explanations and hints as data, for the command line and other front ends.

:func:`explain` first asks the exact engine whether the puzzle is sound (clashing givens,
no solution, several solutions), then solves it step by step with the techniques asked.
:func:`hint` gives the next step at three levels of detail, from the technique and the
house to look at, to the whole deduction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .. import engine
from ..alphabet import Alphabet
from ..puzzle import Puzzle
from ..shape import HouseKind, Shape
from .board import Board
from .driver import next_placement, next_step, solve_path
from .step import Step

#: Statuses of an explanation.
STATUSES = ("solved", "stalled", "invalid", "multiple", "none")


@dataclass
class Explanation:
    """A puzzle's solving path: ``status`` is one of :data:`STATUSES`."""

    status: str
    steps: list[Step] = field(default_factory=list)
    message: str = ""

    def technique_counts(self) -> Counter[str]:
        """How many steps each technique took."""
        return Counter(step.technique for step in self.steps)


def explain(puzzle: Puzzle, techniques: Sequence[str] | None = None,
            guess: bool = False, time_limit: float | None = None) -> Explanation:
    """Solve by logic, recording every step; with ``guess``, guess and backtrack when
    logic stalls (the book's brute force), each guess and backtrack a step.

    ``invalid`` (clashing givens or a contradiction), ``none`` and ``multiple`` come from
    the exact engine before any step is taken; a puzzle with several solutions is still
    explained as far as logic goes. Past ``time_limit`` seconds the path ends
    ``stalled`` with a message saying so.
    """
    exact = engine.solve(puzzle, limit=2, keep=0, node_limit=2_000_000)
    if exact.status is engine.Status.INVALID:
        return Explanation("invalid", message=exact.message)
    if exact.status is engine.Status.NONE:
        return Explanation("none", message="the puzzle has no solution")
    path = solve_path(puzzle, techniques, guess=guess,
                      unique=exact.status is engine.Status.UNIQUE, time_limit=time_limit)
    if path.status == "invalid":
        return Explanation("invalid", path.steps, path.message)
    if exact.status is engine.Status.MULTIPLE:
        return Explanation("multiple", path.steps, "; ".join(
            ["the puzzle has more than one solution"] + [path.message] * bool(path.message)))
    return Explanation(path.status, path.steps, path.message)


def step_record(step: Step, shape: Shape, notation: str = "rc",
                alphabet: Alphabet | None = None) -> dict[str, object]:
    """A step as plain data: technique, placements and eliminations as ``[cell, value]``
    with cells written ``r5c6`` and values as numbers 1..n, ``depth`` (open guesses; 0
    for pure logic) and text (values in it written with ``alphabet``'s symbols)."""
    return {
        "technique": step.technique,
        "book_name": step.book_name,
        "placements": [[shape.cell_name(c), v] for c, v in step.placements],
        "eliminations": [[shape.cell_name(c), v] for c, v in step.eliminations],
        "depth": step.depth,
        "text": step.describe(shape, notation, alphabet),
    }


def hint(puzzle: Puzzle, tier: int = 3, techniques: Sequence[str] | None = None,
         notation: str = "rc", placement: bool = False) -> str | None:
    """The next step, told at ``tier`` 1 (technique and where to look), 2 (and which
    cells) or 3 (the whole step); None when no technique applies. With ``placement``,
    the next step that writes a value (the eliminations before it are counted)."""
    shape = puzzle.shape
    board = Board.from_puzzle(puzzle)
    before: list[Step] = []
    unique = engine.solve(puzzle, limit=2, keep=0, node_limit=2_000_000).status is (
        engine.Status.UNIQUE)
    if placement:
        step, before = next_placement(board, shape, techniques, unique)
    else:
        step = next_step(board, shape, techniques, unique)
    if step is None:
        return None
    text = hint_text(step, shape, tier, notation, puzzle.alphabet)
    if before:
        names = ", ".join(sorted({s.technique for s in before}))
        return (text + f" (after {len(before)} elimination step{'s' if len(before) > 1 else ''}:"
                f" {names})")
    return text


def hint_text(step: Step, shape: Shape, tier: int, notation: str = "rc",
              alphabet: Alphabet | None = None) -> str:
    """A step told at ``tier`` 1, 2 or 3 (values written with ``alphabet``)."""
    name = step.technique + (f" ({step.book_name})" if step.book_name else "")
    where = ", ".join(str(shape.houses[h]) for h in step.houses)
    if tier <= 1:
        return f"{name}: look at {where}" if where else name
    if tier == 2:
        cells = ", ".join(shape.cell_name(c, notation) for c in step.cells)
        return f"{name}: look at {where or 'the board'}, cells {cells}"
    return step.describe(shape, notation, alphabet)


def boards_before_steps(puzzle: Puzzle, steps: Sequence[Step]) -> Iterator[Board]:
    """The board as it stood before each step of a path, replaying guesses and
    backtracks the way the driver took them."""
    from .driver import BACKTRACK, BRUTE_FORCE

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
    """A step in the words of the book's activity log, cells as (column,row):
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
