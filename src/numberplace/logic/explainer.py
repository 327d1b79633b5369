"""Sudoku Explainer's way to a difficulty, followed on our boards.

The Explainer rates a puzzle by solving it: at each step it takes the first technique in
its order that finds anything, and the puzzle's difficulty is the value of the hardest
step taken. Its simpler techniques (singles, intersections, subsets, fish, XY- and
XYZ-Wings) are ours too, at the same values; its unique loops, bivalue universal
grave and aligned exclusions are its own (:mod:`.explainer_rules`). It takes an
intersection or a hidden pair or triple that leaves a hidden single at once, at values
of its own ("direct" techniques, found here). Where they are all stuck it uses chains
of its own kinds (:mod:`.xchain`), applies the cheapest of the first kind that finds
any, and goes on from the board that leaves. :func:`_producers` lists the techniques
in the Explainer's order.

:func:`explainer_difficulty` follows that path here. Without the compiled core, whose
chain search goes on to the nested chains, a board that needs nested chains is valued
:data:`~numberplace.logic.xchain.NESTED` and stepped past with our own techniques.
Ratings follow this path on grids of up to 81 cells without sums (see
:data:`numberplace.logic.rating.EXPLAINER_CELLS`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from itertools import combinations

from .. import arguments
from ..model.shape import HouseKind, Shape
from .board import Board, values_of
from .explainer_rules import aligned_exclusion, bivalue_universal_grave, unique_loop
from .intersections import CLAIMING, POINTING
from .step import Step
from .sukaku_rules import als_wing, strong_links
from .techniques import REGISTRY
from .wings import XY_WING, XYZ_WING
from .xchain import FAMILIES, NESTED, NESTED_DYNAMIC, Chaining, Hint, compiled_for
from .xchain_plus import crossings

#: The Explainer's values for an intersection or hidden set that leaves a hidden single,
#: which it takes at once (before naked singles, for all but the triple).
DIRECT_POINTING = 1.7
DIRECT_CLAIMING = 1.9
DIRECT_HIDDEN_PAIR = 2.0
DIRECT_HIDDEN_TRIPLE = 2.5


# The steps of the Explainer's path, in its order: each tries one technique on a board
# and gives the value, name and application of the first thing it finds, else None.
Found = tuple[float, str, Callable[[], None]]
Producer = Callable[[Board], Found | None]


def _ours(name: str, value_of: Callable[[Step], float]) -> Producer:
    """One of our techniques, the first step its finder gives."""
    finder = REGISTRY.finders([name], True)[0]

    def find(board: Board) -> Found | None:
        step = next(finder(board, board.shape), None)
        if step is None:
            return None
        return value_of(step), step.technique, partial(step.apply, board)
    return find


def _placing(search: Callable[[Board], tuple[float, str, tuple[int, int]] | None]
             ) -> Producer:
    """A direct technique: the cell and value it places."""
    def find(board: Board) -> Found | None:
        found = search(board)
        if found is None:
            return None
        value, name, (cell, v) = found
        return value, name, partial(board.place, cell, v)
    return find


def _removing(search: Callable[[Board], Hint | None]) -> Producer:
    """One of the Explainer's own rules or chains: the candidates its hint removes."""
    def find(board: Board) -> Found | None:
        hint = search(board)
        if hint is None:
            return None

        def apply() -> None:
            for cell, v in hint.removals:
                board.eliminate(cell, v)
        return hint.value, hint.kind, apply
    return find


def _producers(shape: Shape, scale: str, value_of: Callable[[Step], float]
               ) -> list[Producer]:
    """The Explainer's techniques on ``scale``, in the order it tries them."""
    scale = arguments.scale(scale)
    crossed = crossings(shape)

    def ours(*names: str) -> list[Producer]:
        return [_ours(name, value_of) for name in names]

    def sukaku(*found: Producer) -> list[Producer]:
        """SukakuExplainer's additions: on the sukaku scale only."""
        return list(found) if scale == "sukaku" else []

    def links(degree: int) -> Producer:
        return _removing(partial(strong_links, degree=degree))

    def wing(size: int) -> Producer:
        return _removing(partial(als_wing, size=size))

    return [
        *ours("Full House", "Hidden Single"),
        _placing(partial(_direct_locking, crossed=crossed)),
        _placing(partial(_direct_hidden, degree=2)),
        *ours("Naked Single"),
        _placing(partial(_direct_hidden, degree=3)),
        *ours(POINTING, CLAIMING, "Locked Pair", "Naked Pair", "X-Wing", "Hidden Pair",
              "Locked Triple", "Naked Triple", "Swordfish", "Hidden Triple"),
        *sukaku(links(2)),
        *ours(XY_WING, XYZ_WING),
        _removing(unique_loop),
        *ours("Naked Quadruple", "Jellyfish", "Hidden Quadruple"),
        *sukaku(links(3), wing(3)),
        _removing(bivalue_universal_grave),
        *sukaku(links(4), wing(4)),
        _removing(partial(aligned_exclusion, degree=2)),
        *sukaku(wing(5)),
        # the chains: cycles and forcing chains, then (on the sukaku scale) the six-cell
        # wing, then the aligned triple, then the rest
        _removing(partial(_chains, kinds=range(1))),
        *sukaku(wing(6)),
        _removing(partial(aligned_exclusion, degree=3)),
        _removing(partial(_chains, kinds=range(1, len(FAMILIES)))),
    ]


def _chains(board: Board, kinds: range) -> Hint | None:
    return Chaining(board).first(kinds)


def explainer_difficulty(board: Board, value_of: Callable[[Step], float],
                         scale: str = "explainer") -> tuple[float, str, bool]:
    """The Explainer's difficulty of the puzzle on ``board`` (which is solved on the way),
    the name of its hardest step, and whether the path reached the end, taking steps in
    the Explainer's order on ``scale`` (see :data:`~numberplace.arguments.SCALES`).
    ``value_of`` gives the value of one of our steps. A board past every kind of chain
    followed is stepped past with our own techniques, valued as the next kind the
    Explainer has (:data:`NESTED` without the compiled core, :data:`NESTED_DYNAMIC`
    with it); one that they cannot get past either ends the path. The board's memo's
    deadline bounds the work; past it, :class:`~numberplace.errors.LimitError`."""
    shape = board.shape
    producers = _producers(shape, scale, value_of)
    hardest, name = 0.0, ""
    while any(board.candidates):
        board.memo.check_time()
        found = next((f for f in map(lambda p: p(board), producers) if f is not None), None)
        if found is None:
            past = NESTED_DYNAMIC if compiled_for(shape) else NESTED
            step = next((s for finder in REGISTRY.finders(REGISTRY.rating_order(), True)
                         for s in finder(board, shape)), None)
            if step is None:
                # stuck for good: the Explainer would be stuck here too
                return max(hardest, past), "Nested Forcing Chain", False
            found = past, "Nested Forcing Chain", partial(step.apply, board)
        value, what, apply = found
        apply()
        if value > hardest:
            hardest, name = value, what
    return hardest, name, True


def _direct_locking(board: Board, *, crossed: list[tuple[int, int, int]]
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


def _direct_hidden(board: Board, *, degree: int) -> tuple[float, str, tuple[int, int]] | None:
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
