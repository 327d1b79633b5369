"""Run the techniques in order, simplest first, as a person (and the book) would.

After every successful step the search starts again from the simplest technique, so a
harder technique is only used when nothing easier applies.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from ..errors import NumberplaceError
from ..puzzle import Puzzle
from ..shape import Shape
from .als import ALS_XZ, SUE_DE_COQ, find_als_xz, find_sue_de_coq
from .board import Board, Memo, values_of
from .chains import (
    AIC,
    CELL_FORCING,
    FORCING_CONTRADICTION,
    GROUPED_AIC,
    HOUSE_FORCING,
    X_CHAIN,
    XY_CHAIN,
    find_aic,
    find_cell_forcing_chain,
    find_forcing_contradiction,
    find_grouped_aic,
    find_house_forcing_chain,
    find_x_chain,
    find_xy_chain,
)
from .coloring import (
    SIMPLE_COLORS_TRAP,
    SIMPLE_COLORS_WRAP,
    find_simple_colors_trap,
    find_simple_colors_wrap,
)
from .fish import (
    find_finned_jellyfish,
    find_finned_swordfish,
    find_finned_x_wing,
    find_jellyfish,
    find_sashimi_jellyfish,
    find_sashimi_swordfish,
    find_sashimi_x_wing,
    find_swordfish,
    find_x_wing,
)
from .intersections import CLAIMING, POINTING, find_claiming, find_pointing
from .patterns import PATTERN_MATCH, find_pattern_match
from .single_digit import find_empty_rectangle, find_skyscraper, find_two_string_kite
from .singles import find_full_house, find_hidden_single, find_naked_single
from .step import Step, cell_ref, make_step, render, value_ref, values_ref
from .subsets import (
    find_hidden_pair,
    find_hidden_quadruple,
    find_hidden_triple,
    find_naked_pair,
    find_naked_quadruple,
    find_naked_triple,
)
from .uniqueness import UNIQUENESS_FINDERS
from .wings import W_WING, XY_WING, XYZ_WING, find_w_wing, find_xy_wing, find_xyz_wing

Finder = Callable[[Board, Shape], Iterator[Step]]

#: Every technique by its standard name, simplest first.
TECHNIQUES: dict[str, Finder] = {
    "Full House": find_full_house,
    "Naked Single": find_naked_single,
    "Hidden Single": find_hidden_single,
    POINTING: find_pointing,
    CLAIMING: find_claiming,
    PATTERN_MATCH: find_pattern_match,
    "Naked Pair": find_naked_pair,
    "Hidden Pair": find_hidden_pair,
    "Naked Triple": find_naked_triple,
    "Hidden Triple": find_hidden_triple,
    "Naked Quadruple": find_naked_quadruple,
    "Hidden Quadruple": find_hidden_quadruple,
    "X-Wing": find_x_wing,
    "Skyscraper": find_skyscraper,
    "2-String Kite": find_two_string_kite,
    "Empty Rectangle": find_empty_rectangle,
    "Swordfish": find_swordfish,
    XY_WING: find_xy_wing,
    XYZ_WING: find_xyz_wing,
    W_WING: find_w_wing,
    SIMPLE_COLORS_TRAP: find_simple_colors_trap,
    SIMPLE_COLORS_WRAP: find_simple_colors_wrap,
    **UNIQUENESS_FINDERS,
    "Jellyfish": find_jellyfish,
    "Finned X-Wing": find_finned_x_wing,
    "Sashimi X-Wing": find_sashimi_x_wing,
    "Finned Swordfish": find_finned_swordfish,
    "Sashimi Swordfish": find_sashimi_swordfish,
    "Finned Jellyfish": find_finned_jellyfish,
    "Sashimi Jellyfish": find_sashimi_jellyfish,
    X_CHAIN: find_x_chain,
    XY_CHAIN: find_xy_chain,
    SUE_DE_COQ: find_sue_de_coq,
    AIC: find_aic,
    GROUPED_AIC: find_grouped_aic,
    ALS_XZ: find_als_xz,
    # forcing chains and nets: the last logical resort before guessing
    FORCING_CONTRADICTION: find_forcing_contradiction,
    CELL_FORCING: find_cell_forcing_chain,
    HOUSE_FORCING: find_house_forcing_chain,
}

#: Techniques that rely on the puzzle having exactly one solution: used only when told so.
UNIQUENESS = frozenset(UNIQUENESS_FINDERS)

#: The book's name for a technique, where it has one; also accepted as names.
BOOK_ALIASES = {"CRME": "Naked Single", "Lone Ranger": "Hidden Single",
                "Twins": "Naked Pair", "Triplets": "Naked Triple"}

#: The programming book's logical techniques, in its order (its brute force is not here).
BOOK = ["Naked Single", "Hidden Single", "Naked Pair", "Naked Triple"]


@dataclass
class SolveResult:
    """Outcome of :func:`solve_path`: ``status`` is ``solved``, ``stalled`` or ``invalid``.

    ``message`` names the contradiction of an invalid board.
    """

    status: str
    steps: list[Step] = field(default_factory=list)
    board: Board | None = None
    message: str = ""


def _finders(techniques: Sequence[str] | None, unique: bool = False) -> list[Finder]:
    names = list(TECHNIQUES) if techniques is None else techniques
    out = []
    for name in names:
        key = BOOK_ALIASES.get(name, name)
        if key not in TECHNIQUES:
            raise NumberplaceError(f"unknown technique {name!r}; known: "
                                   f"{', '.join(TECHNIQUES)}")
        if unique or key not in UNIQUENESS:
            out.append(TECHNIQUES[key])
    return out


def next_step(board: Board, shape: Shape, techniques: Sequence[str] | None = None,
              unique: bool = False) -> Step | None:
    """The first step of the simplest technique that applies, or None. Uniqueness
    techniques take part only with ``unique`` (the puzzle is known to have one solution)."""
    return _first_step(board, shape, _finders(techniques, unique))


def next_placement(board: Board, shape: Shape, techniques: Sequence[str] | None = None,
                   unique: bool = False) -> tuple[Step | None, list[Step]]:
    """The next step that writes a value, as the spreadsheet solver's "Solve" button gives
    one number per press; also the elimination steps taken on the way to it.

    ``board`` is advanced past those eliminations but not past the placement.
    """
    finders = _finders(techniques, unique)
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
               solvable: bool = False, memo: Memo | None = None) -> SolveResult:
    """Solve step by step, recording each step; stop when solved, stuck or broken.

    With ``guess``, a stalled board is not the end: the book's brute-force elimination
    guesses the smallest value of a cell with the fewest candidates, goes on with logic,
    and on a contradiction returns to the board before the guess, where that value is
    now known to be wrong. Every guess and backtrack is a step, with its ``depth``.
    Uniqueness techniques take part only with ``unique``. ``max_steps`` and
    ``time_limit`` (seconds) bound the path: past them it ends ``stalled``, with a message.
    With ``solvable`` the caller vouches that the puzzle has a solution (the engine found
    one): sound steps then cannot break the board, so it is checked only under guesses.
    ``memo`` lets a caller that solves many related puzzles in one thread (a generator)
    keep what the searches learnt; by default each path has its own.
    """
    shape = puzzle.shape
    board = Board.from_puzzle(puzzle, memo)
    finders = _finders(techniques, unique)
    steps: list[Step] = []
    saved: list[tuple[Board, int, int]] = []  # board before each open guess, cell, value
    deadline = None if time_limit is None else time.monotonic() + time_limit
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
            return SolveResult("invalid", steps, board, render(problem, shape))
        if board.is_solved():
            return SolveResult("solved", steps, board)
        if max_steps is not None and len(steps) >= max_steps:
            return SolveResult("stalled", steps, board, f"stopped after {max_steps} steps")
        if deadline is not None and time.monotonic() > deadline:
            return SolveResult("stalled", steps, board,
                               f"stopped at the time limit of {time_limit:g} s")
        step = _first_step(board, shape, finders)
        if step is None and guess:
            step = _guess(board, shape, len(saved) + 1)
            saved.append((board.copy(), step.placements[0][0], step.placements[0][1]))
        if step is None:
            return SolveResult("stalled", steps, board)
        step = replace(step, depth=len(saved)) if step.depth != len(saved) else step
        step.apply(board)
        last = step
        steps.append(step)


BRUTE_FORCE = "Brute Force"
BACKTRACK = "Backtrack"


def _guess(board: Board, shape: Shape, depth: int) -> Step:
    """Guess the smallest candidate of the first cell with the fewest candidates."""
    open_cells = [c for c, v in enumerate(board.values) if not v]
    cell = min(open_cells, key=lambda c: bin(board.candidates[c]).count("1"))
    options = values_of(board.candidates[cell])
    value = options[0]
    listed = values_ref(options)
    return make_step(shape, BRUTE_FORCE, f"guess {value_ref(value)} at {cell_ref(cell)}, the "
                     f"first of its {len(options)} candidates {listed}", book_name="Brute-force "
                     "elimination", placements=((cell, value),), cells=(cell,),
                     highlights=(("placed", cell, value),), depth=depth)


def _backtrack(shape: Shape, saved: list[tuple[Board, int, int]], problem: str
               ) -> tuple[Board, Step]:
    """Undo the latest guess: its value is wrong in the board it was made on.

    ``problem`` is the broken board's contradiction as a template.
    """
    board, cell, value = saved.pop()
    step = make_step(shape, BACKTRACK,
                     f"{problem}, so the guess {value_ref(value)} at {cell_ref(cell)} was "
                     f"wrong: back to the board before it, without {value_ref(value)} at "
                     f"{cell_ref(cell)}", book_name="Brute-force elimination",
                     eliminations=((cell, value),), cells=(cell,),
                     highlights=(("removed", cell, value),), depth=len(saved))
    step.apply(board)
    return board, step
