"""Sudoku Explainer's way to a difficulty, followed on our boards.

The Explainer rates a puzzle by solving it: at each step it takes the first technique in
its order that finds anything, and the puzzle's difficulty is the value of the hardest
step taken. Its simpler techniques (singles, intersections, subsets, fish, XY- and
XYZ-Wings, unique rectangles, BUG) are ours too: the technique table says which, in the
Explainer's order, and its values where they differ from ours. It takes an
intersection or a hidden pair or triple that leaves a hidden single at once, at values
of its own ("direct" techniques, found here). Where they are all stuck it uses chains
of its own kinds (:mod:`.xchain`), applies the cheapest of the first kind that finds
any, and goes on from the board that leaves.

:func:`explainer_difficulty` follows that path here. Without the compiled core, whose
chain search goes on to the nested chains, a board that needs nested chains is valued
:data:`~numberplace.logic.xchain.NESTED` and stepped past with our own techniques.
Ratings follow this path on grids of up to 81 cells without sums (see
:data:`numberplace.logic.rating.EXPLAINER_CELLS`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from ..model.shape import HouseKind
from .board import Board, values_of
from .step import Step
from .techniques import REGISTRY, Finder
from .xchain import NESTED, NESTED_DYNAMIC, Chaining, compiled_for
from .xchain_plus import crossings

#: The Explainer's values for an intersection or hidden set that leaves a hidden single,
#: which it takes at once (before naked singles, for all but the triple).
DIRECT_POINTING = 1.7
DIRECT_CLAIMING = 1.9
DIRECT_HIDDEN_PAIR = 2.0
DIRECT_HIDDEN_TRIPLE = 2.5


def explainer_difficulty(board: Board, value_of: Callable[[Step], float]
                         ) -> tuple[float, str, bool]:
    """The Explainer's difficulty of the puzzle on ``board`` (which is solved on the way),
    the name of its hardest step, and whether the path reached the end, taking steps in
    the Explainer's order (see the module docs). ``value_of`` gives the value of one of
    our steps. A board past every kind of chain followed is stepped past with our own
    techniques, valued as the next kind the Explainer has (:data:`NESTED` without the
    compiled core, :data:`NESTED_DYNAMIC` with it); one that they cannot get past
    either ends the path. The board's memo's deadline bounds the work; past it,
    :class:`~numberplace.errors.LimitError`."""
    shape = board.shape
    # our techniques that the Explainer has too, in its order: it takes its direct
    # techniques (below) around the naked single
    order = REGISTRY.explainer_order()
    at = order.index("Naked Single")
    singles = REGISTRY.finders(order[:at], True)
    naked = REGISTRY.finders(order[at:at + 1], True)
    rest = REGISTRY.finders(order[at + 1:], True)
    crossed = crossings(shape)
    hardest, name = 0.0, ""

    def first(finders: Sequence[Finder]) -> Step | None:
        for finder in finders:
            step = next(finder(board, shape), None)
            if step is not None:
                return step
        return None

    while any(board.candidates):
        board.memo.check_time()
        value: float
        step = first(singles)
        direct = None if step else _direct_locking(board, crossed)
        if direct is None and step is None:
            direct = _direct_hidden(board, 2)
        if step is None and direct is None:
            step = first(naked)
        if step is None and direct is None:
            direct = _direct_hidden(board, 3)
        if step is None and direct is None:
            step = first(rest)
        if step is not None:
            value = REGISTRY.get(step.technique).explainer_value or value_of(step)
            what = step.technique
            step.apply(board)
        elif direct is not None:
            value, what, (cell, v) = direct
            board.place(cell, v)
        else:
            hint = Chaining(board).first()
            if hint is None:
                past = NESTED_DYNAMIC if compiled_for(shape) else NESTED
                step = first(REGISTRY.finders(REGISTRY.rating_order(), True))
                if step is None:
                    # stuck for good: the Explainer would be stuck here too
                    return max(hardest, past), "Nested Forcing Chain", False
                value, what = past, "Nested Forcing Chain"
                step.apply(board)
            else:
                value, what = hint.value, hint.kind
                for cell, v in hint.removals:
                    board.eliminate(cell, v)
        if value > hardest:
            hardest, name = value, what
    return hardest, name, True


def _direct_locking(board: Board, crossed: list[tuple[int, int, int]]
                    ) -> tuple[float, str, tuple[int, int]] | None:
    """An intersection whose removals leave a value one place in a house parallel to
    the first: that placement, and the Explainer's value for it."""
    shape = board.shape
    houses = shape.houses
    cands = board.candidates
    where = _positions(cands, shape.houses_of, shape.size, len(houses))
    blocks = (HouseKind.BOX, HouseKind.REGION)
    # pointing first, as the Explainer looks for it first
    ordered = sorted(crossed, key=lambda x: houses[x[0]].kind not in blocks)
    for h1, h2, inside in ordered:
        pointing = houses[h1].kind in blocks
        if pointing == (houses[h2].kind in blocks):
            continue
        for v in range(1, shape.size + 1):
            p = where[h1][v]
            if not p & (p - 1) or p & ~inside:
                continue
            line = where[h2][v]
            for h3, h4, _ in crossed:
                if h4 != h2 or h3 == h1 or houses[h3].kind != houses[h1].kind:
                    continue
                q = where[h3][v]
                left = q & ~line
                if q & (q - 1) and left and not left & (left - 1):
                    value = DIRECT_POINTING if pointing else DIRECT_CLAIMING
                    name = "Direct Pointing" if pointing else "Direct Claiming"
                    return value, name, (left.bit_length() - 1, v)
    return None


def _direct_hidden(board: Board, degree: int) -> tuple[float, str, tuple[int, int]] | None:
    """A hidden pair (or triple) whose removals leave another value one place in its
    house: that placement, and the Explainer's value for it."""
    shape = board.shape
    cands = board.candidates
    where = _positions(cands, shape.houses_of, shape.size, len(shape.houses))
    for h, house in enumerate(shape.houses):
        if sum(1 for q in house.cells if cands[q]) <= degree:
            continue
        present = [v for v in range(1, shape.size + 1) if where[h][v]]
        for values in combinations(present, degree):
            cells = 0
            for v in values:
                cells |= where[h][v]
            if cells.bit_count() != degree:
                continue
            for v in present:
                if v in values:
                    continue
                q = where[h][v]
                left = q & ~cells
                if q & (q - 1) and left and not left & (left - 1):
                    name = "Direct Hidden Pair" if degree == 2 else "Direct Hidden Triple"
                    value = DIRECT_HIDDEN_PAIR if degree == 2 else DIRECT_HIDDEN_TRIPLE
                    return value, name, (left.bit_length() - 1, v)
    return None


def _positions(grid: list[int], houses_of: Sequence[Sequence[int]], size: int,
               n_houses: int) -> list[list[int]]:
    """For each house and value, the bit set of the cells that hold it as a candidate."""
    where = [[0] * (size + 1) for _ in range(n_houses)]
    for c, m in enumerate(grid):
        if not m:
            continue
        cb = 1 << c
        for v in values_of(m):
            for h in houses_of[c]:
                where[h][v] |= cb
    return where
