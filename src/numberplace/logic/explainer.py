"""Sudoku Explainer's way to a difficulty, followed on our boards.

The Explainer rates a puzzle by solving it: at each step it takes the first technique in
its order that finds anything, and the puzzle's difficulty is the value of the hardest
step taken. Its simpler techniques (singles, intersections, subsets, fish, XY- and
XYZ-Wings, unique rectangles, BUG) are ours too: the technique table says which, in the
Explainer's order, and its values where they differ from ours. Where they are stuck it
uses chains of its own kinds, each valued by its kind and its size:

- cycles and forcing chains on one digit (X, 6.5 and 6.6) or through two-candidate cells
  (Y, 6.5), and both together (7.0);
- Nishio: a value assumed in a cell breaks the board, following that digit alone (7.5);
- multiple chains: what every candidate of a cell, or every place of a digit in a house,
  implies by the links of the board as it stands (8.0);
- dynamic chains: contradictions and multiple chains whose links may rest on what earlier
  links removed (8.5);
- the same with intersections, hidden and naked pairs and X-Wings inside the chain (9.0);
- nested chains: dynamic chains that, where their links stop, run a whole chain search
  on the board they have made, and go on from what it removes: cycles and forcing
  chains inside (9.5), multiple chains too (10.0), dynamic chains (10.5), and dynamic
  chains that have pairs or nested chains of their own inside (10.5);

each plus 0.1 for every length bracket its size passes (:func:`length_bonus`), the size
being the number of candidate states (a value in a cell, or its absence) its conclusion
rests on, and for a nested chain the sizes of the chains nested in it too. Among the
chains of the first kind that finds any, the Explainer applies the cheapest (by value,
then size), and goes on from the board that leaves.

:func:`explainer_difficulty` follows that path here. The class :class:`Chaining` is the
reference for the kinds up to 9.0; the compiled core follows the same kinds step for
step (the same hints, which a test checks), and the nested ones, which in Python would
take minutes a board. Without the compiled core, a board that needs nested chains is
valued :data:`NESTED` and stepped past with our own techniques. Ratings follow this path
on grids of up to 81 cells without sums (see
:data:`numberplace.rating.EXPLAINER_CELLS`).
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from ..errors import LimitError
from ..native import backend_name, core
from ..shape import HouseKind, Shape
from .board import Board, bit, values_of
from .geometry import bits, ones
from .step import Step
from .techniques import REGISTRY, Finder

#: Base values of the Explainer's chains.
CYCLE = 6.5
X_CHAIN = 6.6
XY_CHAIN = 7.0
NISHIO = 7.5
MULTIPLE = 8.0
DYNAMIC = 8.5
DYNAMIC_PLUS = 9.0
NESTED = 9.5
NESTED_MULTIPLE = 10.0
NESTED_DYNAMIC = 10.5

#: The kinds of chain in the Explainer's order, each with the name of its family: the
#: compiled core's search ``i`` is the ``i``-th.
FAMILIES: tuple[str, ...] = (
    "", "Nishio Forcing Chain", "Multiple Forcing Chains", "Dynamic Forcing Chains",
    "Dynamic Forcing Chains (+)", "Nested Forcing Chains (+ Forcing Chains)",
    "Nested Forcing Chains (+ Multiple Forcing Chains)",
    "Nested Forcing Chains (+ Dynamic Forcing Chains)",
    "Nested Forcing Chains (+ Dynamic Forcing Chains (+))",
    "Nested Forcing Chains (+ Nested Forcing Chains)",
)
#: The order in which the Explainer looks at a cell's houses: boxes, rows, columns.
_LOOK = {HouseKind.BOX: 0, HouseKind.REGION: 0, HouseKind.ROW: 1, HouseKind.COLUMN: 2}
#: The compiled chains (logic/_xchain.c) where this core has them, else None; what
#: they take (cells, values, houses) and what each hint they find is called are read
#: from them.
_XCHAIN = core if core is not None and core.HAVE_XCHAIN else None

#: A contradiction: a state and its opposite, each with the states it follows from.
Absurd = tuple[tuple[int, tuple[int, ...]], tuple[int, tuple[int, ...]]] | None

# A candidate state is one int: (cell << 6 | value) << 1 | on, ``on`` meaning the value is
# in the cell, else that it is not. Parents: the states a state follows from.
Parents = dict[int, tuple[int, ...]]


def _state(cell: int, value: int, on: int) -> int:
    return (cell << 6 | value) << 1 | on


def length_brackets(length: int) -> int:
    """How many of the Explainer's length brackets ``length`` passes: 4, 6, 8, 12, 16,
    24, ..., each half as much again as the one before, then a third as much again, in
    turn. The Explainer adds 0.1 to a chain's value for each (:func:`length_bonus`), and
    our rating likewise for our chains (:func:`numberplace.rating.step_difficulty`)."""
    added, ceiling, odd = 0, 4, False
    while length > ceiling:
        added += 1
        ceiling = ceiling * 3 // 2 if not odd else ceiling * 4 // 3
        odd = not odd
    return added


def length_bonus(size: int) -> float:
    """The Explainer's addition for a chain resting on ``size`` states: 0.1 for each
    bracket that ``size - 2`` passes (:func:`length_brackets`)."""
    return length_brackets(size - 2) / 10


@dataclass(frozen=True)
class Hint:
    """One conclusion of a chain: its value, size, the Explainer's order among kinds of
    equal value and size, and the candidates it removes as (cell, value) pairs."""

    value: float
    size: int
    order: int
    kind: str
    removals: tuple[tuple[int, int], ...]

    @property
    def rank(self) -> tuple[float, int, int]:
        """How the Explainer orders hints: cheapest value, then size, then kind."""
        return (self.value, self.size, self.order)


def _count(end: int, end_parents: Sequence[int], on: Parents, off: Parents) -> int:
    """How many distinct states a conclusion rests on, itself included."""
    seen = {end}
    todo = list(end_parents)
    while todo:
        k = todo.pop()
        if k not in seen:
            seen.add(k)
            todo.extend((on if k & 1 else off)[k])
    return len(seen)


class _Node:
    """A state reached along one path (cycles and forcing chains keep every path)."""

    __slots__ = ("key", "parent")

    def __init__(self, key: int, parent: _Node | None) -> None:
        self.key = key
        self.parent = parent

    def keys(self) -> list[int]:
        out = []
        node: _Node | None = self
        while node is not None:
            out.append(node.key)
            node = node.parent
        return out


class Chaining:
    """The Explainer's chains on one board (see the module docs)."""

    def __init__(self, board: Board) -> None:
        shape = board.shape
        self.board = board
        self.start = list(board.candidates)
        self.peers = shape.peers
        self.houses = [h.cells for h in shape.houses]
        self.size = shape.size
        self._crossings = _crossings(shape)
        self._lines = _lines(shape)
        self.house_masks = _house_masks(shape)
        #: each cell's houses in the order the Explainer looks at them
        self.looked = _looked(shape)
        #: for each value, the cells that hold it as a candidate, as a bit set
        self.vstart = [0] * (self.size + 1)
        for c, m in enumerate(self.start):
            for v in values_of(m):
                self.vstart[v] |= 1 << c

    # -- links -------------------------------------------------------------------------
    # Both kinds of link look at a cell's houses in the Explainer's order (boxes, rows,
    # columns): when two links reach one state, the first keeps its parents, and so the
    # size of what follows.

    def _on_to_off(self, grid: list[int], vmask: list[int], k: int, y: bool) -> list[int]:
        c = k >> 7
        v = (k >> 1) & 63
        out = []
        if y:
            for w in values_of(grid[c] & ~(1 << (v - 1))):
                out.append((c << 6 | w) << 1)
        low = v << 1
        done = 1 << c
        for h in self.looked[c]:
            m = self.house_masks[h] & vmask[v] & ~done
            if m:
                done |= m
                out.extend(q << 7 | low for q in self.houses[h] if m >> q & 1)
        return out

    def _off_to_on(self, grid: list[int], vmask: list[int], k: int, y: bool
                   ) -> list[tuple[int, tuple[int, ...]]]:
        c = k >> 7
        v = (k >> 1) & 63
        b = 1 << (v - 1)
        out = []
        m = grid[c]
        if y and m.bit_count() == 2 and m & b:
            w = (m & ~b).bit_length()
            hidden = tuple((c << 6 | u) << 1 for u in values_of(self.start[c] & ~m))
            out.append((((c << 6 | w) << 1) | 1, (k, *hidden)))
        here = vmask[v] & ~(1 << c)
        gone = self.vstart[v] & ~vmask[v]
        low = v << 1
        made = 0
        for h in self.looked[c]:
            hm = self.house_masks[h]
            rest = here & hm
            if rest and not rest & (rest - 1) and not rest & made:
                made |= rest
                hidden = tuple(q << 7 | low for q in ones(gone & hm))
                out.append(((rest.bit_length() - 1) << 7 | low | 1, (k, *hidden)))
        return out

    def _chain(self, on: Parents, off: Parents, dynamic: bool, y: bool, level: int
               ) -> Absurd:
        """Follow the states in ``on`` and ``off`` (filled in as it goes), the state that
        has waited longest first, values placed before values taken. Returns the first
        contradiction, a state and its opposite as (state, parents) each, else None."""
        grid = list(self.start) if dynamic else self.start
        vmask = list(self.vstart) if dynamic else self.vstart
        pend_on = deque(on)
        pend_off = deque(off)
        while True:
            if pend_on:
                k = pend_on.popleft()
                for q in self._on_to_off(grid, vmask, k, y):
                    if q | 1 in on:
                        return (q | 1, on[q | 1]), (q, (k,))
                    if q not in off:
                        off[q] = (k,)
                        pend_off.append(q)
                continue
            if pend_off:
                k = pend_off.popleft()
                made = self._off_to_on(grid, vmask, k, y)
                if dynamic:
                    v = (k >> 1) & 63
                    grid[k >> 7] &= ~(1 << (v - 1))
                    vmask[v] &= ~(1 << (k >> 7))
                for q, parents in made:
                    if q ^ 1 in off:
                        return (q, parents), (q ^ 1, off[q ^ 1])
                    if q not in on:
                        on[q] = parents
                        pend_on.append(q)
                continue
            if level and self._advanced(grid, vmask, off, pend_off):
                continue
            return None

    # -- the pair rules inside dynamic chains (level 1) ---------------------------------

    def _advanced(self, grid: list[int], vmask: list[int], off: Parents,
                  pend_off: deque[int]) -> bool:
        """The first of pointing/claiming, hidden pair, naked pair and X-Wing that removes
        anything on ``grid`` thanks to states of the chain: its removals join the chain,
        resting on the removals it needed. True when that brought new states."""
        where = [[vmask[v] & hm for v in range(self.size + 1)] for hm in self.house_masks]
        for rule in (self._locking, self._hidden_pairs, self._naked_pairs, self._x_wings):
            found = rule(grid, where)
            if found:
                new = False
                for removals, parents in found:
                    for c, v in removals:
                        q = (c << 6 | v) << 1
                        if q not in off:
                            off[q] = parents
                            pend_off.append(q)
                            new = True
                return new
        return False

    def _gone(self, cells: int, v: int, grid: list[int]) -> tuple[int, ...]:
        """Off states of ``v`` in ``cells`` (a bit set) that the chain removed."""
        b = 1 << (v - 1)
        out = []
        while cells:
            low = cells & -cells
            q = low.bit_length() - 1
            if self.start[q] & b and not grid[q] & b:
                out.append((q << 6 | v) << 1)
            cells ^= low
        return tuple(out)

    def _locking(self, grid: list[int], where: list[list[int]]) -> list[Rule]:
        out = []
        for h1, h2, inside in self._crossings:
            for v in range(1, self.size + 1):
                p = where[h1][v]
                if p & (p - 1) and not p & ~inside:
                    rem = where[h2][v] & ~inside
                    if rem:
                        parents = self._gone(self.house_masks[h1] & ~inside, v, grid)
                        if parents:
                            out.append((_pairs(rem, v), parents))
        return out

    def _hidden_pairs(self, grid: list[int], where: list[list[int]]) -> list[Rule]:
        out = []
        for h, cells in enumerate(self.houses):
            vals = [v for v in range(1, self.size + 1) if where[h][v]]
            for i, a in enumerate(vals):
                for bv in vals[i + 1:]:
                    both = where[h][a] | where[h][bv]
                    if both.bit_count() != 2:
                        continue
                    keep = bit(a) | bit(bv)
                    rem = tuple((q, w) for q in ones(both) for w in values_of(grid[q] & ~keep))
                    if not rem:
                        continue
                    rest = bits(cells) & ~both
                    parents = self._gone(rest, a, grid) + self._gone(rest, bv, grid)
                    if parents:
                        out.append((rem, parents))
        return out

    def _naked_pairs(self, grid: list[int], where: list[list[int]]) -> list[Rule]:
        out = []
        for cells in self.houses:
            two = [q for q in cells if grid[q].bit_count() == 2]
            for i, a in enumerate(two):
                for q2 in two[i + 1:]:
                    if grid[q2] != grid[a]:
                        continue
                    pair = grid[a]
                    rem = tuple((q, w) for q in cells if q not in (a, q2)
                                for w in values_of(grid[q] & pair))
                    if not rem:
                        continue
                    parents = tuple((q << 6 | u) << 1 for q in (a, q2)
                                    for u in values_of(self.start[q] & ~pair))
                    if parents:
                        out.append((rem, parents))
        return out

    def _x_wings(self, grid: list[int], where: list[list[int]]) -> list[Rule]:
        out = []
        for bases, covers, index in self._lines:
            for v in range(1, self.size + 1):
                spots = []
                for h in bases:
                    p = where[h][v]
                    if p & (p - 1):
                        cols = 0
                        for q in ones(p):
                            cols |= 1 << index[q]
                        if cols.bit_count() == 2:
                            spots.append((h, cols))
                for i, (h1, cols) in enumerate(spots):
                    for h2, cols2 in spots[i + 1:]:
                        if cols2 != cols:
                            continue
                        base = self.house_masks[h1] | self.house_masks[h2]
                        rem = 0
                        for j in ones(cols):
                            rem |= where[covers[j]][v] & ~base
                        if not rem:
                            continue
                        cover = 0
                        for j in ones(cols):
                            cover |= self.house_masks[covers[j]]
                        parents = self._gone(base & ~cover, v, grid)
                        if parents:
                            out.append((_pairs(rem, v), parents))
        return out

    # -- the kinds of chain -------------------------------------------------------------

    def first(self) -> Hint | None:
        """The hint the Explainer would apply on this board, or None where none of the
        kinds followed here finds anything: with the compiled core, every kind up to the
        nested chains; without it, the kinds up to 9.0."""
        tables = _compiled_for(self.board.shape)
        if tables is not None:
            for kind in range(len(FAMILIES)):
                hint = self.compiled(kind, tables)
                if hint is not None:
                    return hint
            return None
        for search in (self.cycles, self.nishio, self.multiple, self.dynamic,
                       self.dynamic_plus):
            hints = search()
            if hints:
                return min(hints, key=lambda h: h.rank)
        return None

    def compiled(self, kind: int, tables: tuple[bytes, bytes] | None = None) -> Hint | None:
        """The cheapest hint of the ``kind``-th search of :data:`FAMILIES`, found by the
        compiled core, or None where it finds nothing. The board's memo's deadline
        bounds the search; past it, :class:`~numberplace.errors.LimitError`. Raises
        ValueError where the core lacks the search or the shape is too large for it."""
        tables = tables or _compiled_tables(self.board.shape)
        if tables is None:
            raise ValueError("the compiled chains take grids of up to 81 cells and 9 values")
        memo = self.board.memo
        memo.check_time()
        at = memo.deadline.at
        assert _XCHAIN is not None  # _compiled_tables gave the tables
        found = _XCHAIN.xchain(self.board.shape.ncells, self.size, tables[0], tables[1],
                        array("H", self.start).tobytes(), kind, at or 0.0)
        if found is False:
            memo.check_time()
            raise LimitError(memo.deadline.stop_text())
        if found is None:
            return None
        value, size, order, name, removals = found
        family = FAMILIES[kind]
        return Hint(value, size, order,
                    f"{family}: {_XCHAIN.XCHAIN_NAMES[name]}" if family
                    else _XCHAIN.XCHAIN_NAMES[name],
                    removals)

    def cycles(self) -> list[Hint]:
        """Cycles and forcing chains on one digit (X), through two-candidate cells (Y)
        and both (XY)."""
        hints: list[Hint] = []
        for y, x in ((False, True), (True, False), (True, True)):
            for c, m in enumerate(self.start):
                if not m & (m - 1) or (not x and m.bit_count() > 2):
                    continue
                for v in values_of(m):
                    self.board.memo.check_time()
                    self._cycles_from(_state(c, v, 1), y, x, hints)
                    if x:
                        self._forcing_from(_state(c, v, 1), y, hints)
                        self._forcing_from(_state(c, v, 0), y, hints)
        return hints

    def _cycles_from(self, source: int, y: bool, x: bool, hints: list[Hint]) -> None:
        grid, vmask = self.start, self.vstart
        seen_on = {source}
        pend_on = [_Node(source, None)]
        pend_off: list[_Node] = []
        length = 0
        while pend_on or pend_off:
            length += 1
            for node in pend_on:
                ancestors = set(node.keys())
                for q in self._on_to_off(grid, vmask, node.key, y):
                    if q not in ancestors:
                        pend_off.append(_Node(q, node))
            pend_on = []
            length += 1
            for node in pend_off:
                made = (self._off_to_on(grid, vmask, node.key, y) if x
                        else self._bivalue(node.key))
                for q, _ in made:
                    nxt = _Node(q, node)
                    if length >= 4 and q == source:
                        self._cycle_hint(nxt, y, x, hints)
                    if q not in seen_on:
                        seen_on.add(q)
                        pend_on.append(nxt)
            pend_off = []

    def _bivalue(self, k: int) -> list[tuple[int, tuple[int, ...]]]:
        c = k >> 7
        m = self.start[c]
        b = 1 << (((k >> 1) & 63) - 1)
        if m.bit_count() == 2 and m & b:
            return [(((c << 6 | (m & ~b).bit_length()) << 1) | 1, (k,))]
        return []

    def _cycle_hint(self, end: _Node, y: bool, x: bool, hints: list[Hint]) -> None:
        chain = end.keys()[:-1]  # the last is the source again
        cells = {k >> 7 for k in chain}
        forward: set[tuple[int, int]] = set()
        back: set[tuple[int, int]] = set()
        for k in chain:
            v = (k >> 1) & 63
            b = 1 << (v - 1)
            side = forward if k & 1 else back
            for p in self.peers[k >> 7]:
                if p not in cells and self.start[p] & b:
                    side.add((p, v))
        removals = tuple(sorted(forward & back))
        if removals:
            size = len(set(chain))
            base = XY_CHAIN if x and y else CYCLE
            kind = ("Bidirectional Cycle" if x and y else "Bidirectional Y-Cycle" if y
                    else "Bidirectional X-Cycle")
            hints.append(Hint(round(base + length_bonus(size), 1), size,
                              4 if x and y else 3 if y else 2, kind, removals))

    def _forcing_from(self, source: int, y: bool, hints: list[Hint]) -> None:
        grid, vmask = self.start, self.vstart
        seen = {source}  # on and off states differ in their lowest bit, so one set
        found: set[int] = set()

        def further(pending: list[_Node], links: Callable[[int], Iterable[int]]
                    ) -> list[_Node]:
            """One link on from each of ``pending``: the states not seen before, and a
            hint wherever a state is the source's opposite."""
            out = []
            for node in pending:
                for q in links(node.key):
                    nxt = _Node(q, node)
                    if q ^ 1 == source and q not in found:
                        found.add(q)
                        self._forcing_hint(nxt, y, hints)
                    if q not in seen:
                        seen.add(q)
                        out.append(nxt)
            return out

        def on_to_off(k: int) -> list[int]:
            return self._on_to_off(grid, vmask, k, y)

        def off_to_on(k: int) -> list[int]:
            return [q for q, _ in self._off_to_on(grid, vmask, k, y)]

        start = [_Node(source, None)]
        pend_on, pend_off = (start, []) if source & 1 else ([], start)
        while pend_on or pend_off:
            pend_off = pend_off + further(pend_on, on_to_off)
            pend_on = further(pend_off, off_to_on)
            pend_off = []

    def _forcing_hint(self, end: _Node, y: bool, hints: list[Hint]) -> None:
        removals = self._removals(end.key)
        if removals:
            size = len(set(end.keys()))
            base = XY_CHAIN if y else X_CHAIN
            hints.append(Hint(round(base + length_bonus(size), 1), size, 4 if y else 2,
                              "Forcing Chain" if y else "Forcing X-Chain", removals))

    def _removals(self, k: int) -> tuple[tuple[int, int], ...]:
        """What concluding state ``k`` removes from the board: its candidate, or for a
        value placed the cell's other candidates."""
        c = k >> 7
        v = (k >> 1) & 63
        if k & 1:
            return tuple((c, w) for w in values_of(self.start[c] & ~bit(v)))
        return ((c, v),)

    def nishio(self) -> list[Hint]:
        """Contradictions following one digit, its links updated as it goes."""
        return self._multiple(NISHIO, dynamic=True, nishio=True, multiple=False, level=0)

    def multiple(self) -> list[Hint]:
        """Cell and house forcing chains on the board as it stands."""
        return self._multiple(MULTIPLE, dynamic=False, nishio=False, multiple=True, level=0)

    def dynamic(self) -> list[Hint]:
        """Contradictions and forcing chains whose links follow what earlier ones removed."""
        return self._multiple(DYNAMIC, dynamic=True, nishio=False, multiple=True, level=0)

    def dynamic_plus(self) -> list[Hint]:
        """Dynamic chains that use intersections, pairs and X-Wings inside."""
        return self._multiple(DYNAMIC_PLUS, dynamic=True, nishio=False, multiple=True,
                              level=1)

    def _multiple(self, base: float, *, dynamic: bool, nishio: bool, multiple: bool,
                  level: int) -> list[Hint]:
        hints: list[Hint] = []
        y = not nishio
        # a value assumed in a cell is followed once, for its cell and for its houses
        outcomes: dict[int, tuple[Parents, Parents, Absurd]] = {}

        def follow(k: int) -> tuple[Parents, Parents, Absurd]:
            if k not in outcomes:
                self.board.memo.check_time()
                on: Parents = {k: ()}
                off: Parents = {}
                outcomes[k] = (on, off, self._chain(on, off, dynamic, y, level))
            return outcomes[k]

        def assume(k: int) -> tuple[Parents, Parents]:
            on, off, _ = follow(k)
            return on, off

        family = ("Nishio Forcing Chain" if nishio else "Dynamic Forcing Chains" if dynamic
                  else "Multiple Forcing Chains") + (" (+)" if level else "")

        def add(target: int, size: int, order: int, kind: str) -> None:
            removals = self._removals(target)
            if removals:
                hints.append(Hint(round(base + length_bonus(size), 1), size, order,
                                  f"{family}: {kind}", removals))

        for c, m in enumerate(self.start):
            card = m.bit_count()
            if not (card > 2 or (card > 1 and dynamic)):
                continue
            branches: list[tuple[Parents, Parents]] = []
            for v in values_of(m):
                k_on = _state(c, v, 1)
                on1, off1, absurd = follow(k_on)
                if (dynamic or nishio) and absurd:
                    (a, pa), (z, pz) = absurd
                    add(k_on ^ 1, _count(a, pa, on1, off1) + _count(z, pz, on1, off1), 7,
                        "contradiction")
                on2: Parents = {}
                off2: Parents = {k_on ^ 1: ()}
                absurd = self._chain(on2, off2, dynamic, y, level)
                if (dynamic or nishio) and absurd:
                    (a, pa), (z, pz) = absurd
                    add(k_on, _count(a, pa, on2, off2) + _count(z, pz, on2, off2), 7,
                        "contradiction")
                if card >= 3 and dynamic and not nishio:
                    for q in on1:
                        if q in on2:
                            add(q, _count(q, on1[q], on1, off1) + _count(q, on2[q], on2, off2),
                                1, "both ways")
                    for q in off1:
                        if q in off2:
                            add(q, _count(q, off1[q], on1, off1)
                                + _count(q, off2[q], on2, off2), 1, "both ways")
                if not nishio:
                    self._houses(c, v, multiple, (on1, off1), assume, add)
                branches.append((on1, off1))
            if not nishio and (card == 2 or (multiple and card > 2)):
                _common(branches, add, 5, "cell")
        return hints

    def _houses(self, c: int, v: int, multiple: bool, mine: tuple[Parents, Parents],
                assume: Callable[[int], tuple[Parents, Parents]],
                add: Callable[[int, int, int, str], None]) -> None:
        """House forcing chains for ``v`` in the houses where ``c`` is its first place."""
        b = 1 << (v - 1)
        for h in self.looked[c]:
            places = [q for q in self.houses[h] if self.start[q] & b]
            if not (len(places) == 2 or (multiple and len(places) > 2)) or places[0] != c:
                continue
            branches = [mine if q == c else assume(_state(q, v, 1)) for q in places]
            _common(branches, add, 6, "house")


Rule = tuple[tuple[tuple[int, int], ...], tuple[int, ...]]


def _common(branches: list[tuple[Parents, Parents]],
            add: Callable[[int, int, int, str], None], order: int, kind: str) -> None:
    """States every branch reaches: each a hint whose size sums the branches' proofs."""
    for side in (0, 1):
        common = [q for q in branches[0][side] if all(q in br[side] for br in branches[1:])]
        for q in common:
            size = 0
            for on, off in branches:
                size += _count(q, (on if q & 1 else off)[q], on, off)
            add(q, size, order, kind)


@lru_cache(maxsize=64)
def _compiled_tables(shape: Shape) -> tuple[bytes, bytes] | None:
    """Each house's cells and kind (0 box or region, 1 row, 2 column, 3 other: the order
    in which the Explainer looks at them), as the compiled search reads them, or None
    where it cannot take the shape (too large, houses not all of the grid's size or not
    listed in increasing order, or peers that no house makes, which it would not see)."""
    houses = shape.houses
    if (_XCHAIN is None or shape.ncells > _XCHAIN.XCHAIN_CELLS
            or shape.size > _XCHAIN.XCHAIN_VALUES or len(houses) > _XCHAIN.XCHAIN_HOUSES
            or any(len(h.cells) != shape.size or list(h.cells) != sorted(h.cells)
                   for h in houses)):
        return None
    for c, peers in enumerate(shape.peers):
        made = {q for h in shape.houses_of[c] for q in houses[h].cells} - {c}
        if made != set(peers):
            return None
    cells = array("i", [q for h in houses for q in h.cells]).tobytes()
    kinds = bytes(_LOOK.get(h.kind, 3) for h in houses)
    return cells, kinds


def _compiled_for(shape: Shape) -> tuple[bytes, bytes] | None:
    """The compiled search's tables for ``shape`` where the path uses that search (the
    compiled back-end chosen, and the shape one it takes), else None."""
    return _compiled_tables(shape) if backend_name() == "c" else None


def _pairs(mask: int, v: int) -> tuple[tuple[int, int], ...]:
    return tuple((q, v) for q in ones(mask))


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


@lru_cache(maxsize=64)
def _house_masks(shape: Shape) -> list[int]:
    """Each house's cells as a bit set."""
    return [bits(h.cells) for h in shape.houses]


@lru_cache(maxsize=64)
def _looked(shape: Shape) -> list[list[int]]:
    """Each cell's houses in the order the Explainer looks at them (see ``_LOOK``)."""
    return [sorted(hs, key=lambda h: _LOOK.get(shape.houses[h].kind, 3))
            for hs in shape.houses_of]


@lru_cache(maxsize=64)
def _crossings(shape: Shape) -> list[tuple[int, int, int]]:
    """(house, other house, their common cells as a bit set) for houses that share two
    cells or more: a digit confined to the common cells of one leaves the other."""
    masks = [bits(h.cells) for h in shape.houses]
    out = []
    for i, a in enumerate(masks):
        for j, b in enumerate(masks):
            if i != j and (a & b).bit_count() >= 2:
                out.append((i, j, a & b))
    return out


@lru_cache(maxsize=64)
def _lines(shape: Shape) -> list[tuple[list[int], list[int], dict[int, int]]]:
    """Rows as base lines with columns as covers, and the other way round: (bases,
    covers by position, each cell's position along a base line)."""
    rows = [i for i, h in enumerate(shape.houses) if h.kind == HouseKind.ROW]
    cols = [i for i, h in enumerate(shape.houses) if h.kind == HouseKind.COLUMN]
    out = []
    for bases, covers in ((rows, cols), (cols, rows)):
        index = {}
        for j, h in enumerate(covers):
            for q in shape.houses[h].cells:
                index[q] = j
        out.append((bases, covers, index))
    return out


# -- the path -----------------------------------------------------------------------------

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
    crossings = _crossings(shape)
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
        direct = None if step else _direct_locking(board, crossings)
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
                past = NESTED_DYNAMIC if _compiled_for(shape) else NESTED
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


def _direct_locking(board: Board, crossings: list[tuple[int, int, int]]
                    ) -> tuple[float, str, tuple[int, int]] | None:
    """An intersection whose removals leave a value one place in a house parallel to
    the first: that placement, and the Explainer's value for it."""
    shape = board.shape
    houses = shape.houses
    cands = board.candidates
    where = _positions(cands, shape.houses_of, shape.size, len(houses))
    blocks = (HouseKind.BOX, HouseKind.REGION)
    # pointing first, as the Explainer looks for it first
    ordered = sorted(crossings, key=lambda x: houses[x[0]].kind not in blocks)
    for h1, h2, inside in ordered:
        pointing = houses[h1].kind in blocks
        if pointing == (houses[h2].kind in blocks):
            continue
        for v in range(1, shape.size + 1):
            p = where[h1][v]
            if not p & (p - 1) or p & ~inside:
                continue
            line = where[h2][v]
            for h3, h4, _ in crossings:
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
