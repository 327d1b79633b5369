"""Sudoku Explainer's chains on one board: the kinds it rates a puzzle by where its
simpler techniques are stuck, each valued by its kind and its size:

- cycles and forcing chains on one digit (X, 6.5 and 6.6) or through two-candidate cells
  (Y, 6.5), and both together (7.0);
- Nishio: a value assumed in a cell breaks the board, following that digit alone (7.5);
- multiple chains: what every candidate of a cell, or every place of a digit in a house,
  implies by the links of the board as it stands (8.0);
- dynamic chains: contradictions and multiple chains whose links may rest on what earlier
  links removed (8.5);
- the same with intersections, hidden and naked pairs and X-Wings inside the chain (9.0,
  the rules of :mod:`.xchain_plus`);
- nested chains: dynamic chains that, where their links stop, run a whole chain search
  on the board they have made, and go on from what it removes: cycles and forcing
  chains inside (9.5), multiple chains too (10.0), dynamic chains (10.5), and dynamic
  chains that have pairs or nested chains of their own inside (10.5);

each plus 0.1 for every length bracket its size passes (:func:`length_bonus`), the size
being the number of candidate states (a value in a cell, or its absence) its conclusion
rests on, and for a nested chain the sizes of the chains nested in it too. Among the
chains of the first kind that finds any, the Explainer applies the cheapest (by value,
then size): :meth:`Chaining.first`.

The class :class:`Chaining` is the Python reference for the kinds up to 9.0; the
compiled core (``logic/_xchain.c``) follows the same kinds step for step (the same
hints, which a test checks), and the nested ones, which in Python would take minutes a
board. The Explainer's path through a puzzle, which takes these chains where its
simpler techniques are stuck, is :mod:`.explainer`'s.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..errors import LimitError
from ..model.shape import HouseKind, Shape
from ..native import backend_name, core
from .board import Board, bit, values_of
from .geometry import house_bits, ones
from .xchain_plus import PairRules

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
    our rating likewise for our chains (:func:`numberplace.logic.rating.step_difficulty`)."""
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
        self.house_masks = house_bits(shape)
        #: the rules a dynamic chain "plus" follows inside
        self.rules = PairRules(shape, self.start)
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
            if level and self.rules.advance(grid, vmask, off, pend_off):
                continue
            return None

    # -- the kinds of chain -------------------------------------------------------------

    def first(self, kinds: range | None = None) -> Hint | None:
        """The hint the Explainer would apply on this board, or None where none of the
        kinds followed here finds anything: with the compiled core, every kind up to the
        nested chains; without it, the kinds up to 9.0. ``kinds`` picks some of them, by
        their places in :data:`FAMILIES` (all by default)."""
        kinds = range(len(FAMILIES)) if kinds is None else kinds
        tables = compiled_for(self.board.shape)
        if tables is not None:
            for kind in kinds:
                hint = self.compiled(kind, tables)
                if hint is not None:
                    return hint
            return None
        searches = (self.cycles, self.nishio, self.multiple, self.dynamic, self.dynamic_plus)
        for kind in kinds:
            if kind >= len(searches):
                break
            hints = searches[kind]()
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


def compiled_for(shape: Shape) -> tuple[bytes, bytes] | None:
    """The compiled search's tables for ``shape`` where the path uses that search (the
    compiled back-end chosen, and the shape one it takes), else None."""
    return _compiled_tables(shape) if backend_name() == "c" else None


@lru_cache(maxsize=64)
def _looked(shape: Shape) -> list[list[int]]:
    """Each cell's houses in the order the Explainer looks at them (see ``_LOOK``)."""
    return [sorted(hs, key=lambda h: _LOOK.get(shape.houses[h].kind, 3))
            for hs in shape.houses_of]
