"""Sudoku Explainer's own uniqueness and exclusion rules, found its way.

Four rules of the Explainer that our solver has no twin of, or has in another form, so
that the Explainer's path (:mod:`.explainer`) takes the same steps at the same values:

- **Unique loops** (:func:`unique_loop`): a loop of cells sharing two candidates, each
  house it passes entered and left once, which would let the two values swap (the
  unique rectangle is the loop of four). Types 1-4, each loop valued by its length (4.5
  for four cells, 4.6 for six, 4.7 for eight, 5.0 for ten or more) plus 0.1 for each
  value beyond the first of a type 3's naked set (beyond the second of a hidden one).
  Of all the loops on the board, the cheapest, then the lowest type, is taken.
- **Bivalue universal grave** (:func:`bivalue_universal_grave`): the cells whose
  candidates break the grave's pattern, and the values that do; type 1 (5.6) where one
  cell does, else type 2 (one extra value: 5.7), type 4 (two cells in a house that
  share one other value: 5.7) or type 3 (the extra values in a naked set with other
  cells of a house: 5.7 plus 0.1 for each value beyond the first).
- **Aligned exclusion** (:func:`aligned_exclusion`): two (6.2) or three (7.5) cells,
  and the cells of two or three candidates (at most as many as the set has cells) that
  see them all: a combination of values for the set that would empty one of those
  cells, or repeat a value between two set cells that see each other, is excluded; a
  set cell's value in no combination left goes.

Every rule looks at houses in the Explainer's order (boxes, rows, columns, then any
others) and at cells in reading order, so that where it finds several things it takes
the one the Explainer takes. Each returns a :class:`~.xchain.Hint` (its value, name and
removals), or None.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from ..model.shape import HouseKind, Shape
from ..native import core
from .board import Board, bit, values_of
from .geometry import ones
from .xchain import Hint

#: Values of the rules (see the module docs).
UNIQUE_LOOP = 4.5
BUG_TYPE_1 = 5.6
BUG = 5.7
ALIGNED_PAIR = 6.2
ALIGNED_TRIPLE = 7.5

#: The compiled aligned exclusion (logic/_aligned.c) where this core has it, else None.
_ALIGNED = core if core is not None and core.HAVE_XCHAIN else None

_KIND_ORDER = {HouseKind.BOX: 0, HouseKind.REGION: 0, HouseKind.ROW: 1, HouseKind.COLUMN: 2}


class _Geometry:
    """A shape's houses as the Explainer walks them: for each cell, its houses as
    (kind, house) pairs, boxes first; every house's cells in reading order; the houses
    in the Explainer's order; each cell's peers as a bit set."""

    def __init__(self, shape: Shape) -> None:
        def kind(h: int) -> int:
            house = shape.houses[h]
            # a diagonal is a kind of its own, apart from the other diagonal
            return _KIND_ORDER.get(house.kind, 3 + house.number)

        self.kind = [kind(h) for h in range(len(shape.houses))]
        self.cells = [tuple(sorted(h.cells)) for h in shape.houses]
        self.houses_of = [tuple(sorted(hs, key=lambda h: self.kind[h]))
                          for hs in shape.houses_of]
        self.order = sorted(range(len(shape.houses)),
                            key=lambda h: (self.kind[h], min(self.cells[h])))
        self.peers = [sum(1 << p for p in ps) for ps in shape.peers]
        self.size = shape.size
        #: the peers as the compiled core reads them: 16 bytes a cell, lowest first
        self.peer_bytes = b"".join((m & (2**128 - 1)).to_bytes(16, "little")
                                   for m in self.peers)

    def shared(self, kind: int, cells: Sequence[int]) -> int | None:
        """The house of ``kind`` that holds every one of ``cells``, or None."""
        found = None
        for c in cells:
            h = next((h for h in self.houses_of[c] if self.kind[h] == kind), None)
            if h is None or (found is not None and h != found):
                return None
            found = h
        return found

    def kinds(self) -> list[int]:
        """The kinds of house, in the Explainer's order."""
        return sorted(set(self.kind))


@lru_cache(maxsize=16)
def _geometry(shape: Shape) -> _Geometry:
    return _Geometry(shape)


@lru_cache(maxsize=256)
def _colex(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """The ``k``-subsets of ``range(n)`` in the Explainer's order: as binary numbers,
    smallest first."""
    return tuple(sorted(combinations(range(n), k), key=lambda t: t[::-1]))


# -- unique loops ---------------------------------------------------------------------

def _loop_value(length: int) -> float:
    """A unique loop's value by its number of cells (see the module docs)."""
    if length >= 10:
        return UNIQUE_LOOP + 0.5
    return UNIQUE_LOOP + (0.2 if length >= 8 else 0.1 if length >= 6 else 0.0)


def _loop_name(length: int, kind: int) -> str:
    if length == 4:
        return f"Unique Rectangle type {kind}"
    return f"Unique Loop {length} type {kind}"


def unique_loop(board: Board) -> Hint | None:
    """The Explainer's unique rectangle or loop on ``board`` (see the module docs)."""
    cands = board.candidates
    geo = _geometry(board.shape)
    found: list[tuple[float, int, int, Hint]] = []
    # a loop is found from each of its cells both ways: its hints depend only on its
    # cells and on which extra cell comes first, and the first time found comes first
    # in the Explainer's order
    seen: set[tuple[frozenset[int], int]] = set()
    for start, pair in enumerate(cands):
        if pair.bit_count() != 2:
            continue
        board.memo.check_time()
        for loop in _loops(cands, geo, start, pair):
            extra = [c for c in loop if cands[c].bit_count() > 2]
            key = (frozenset(loop), extra[0] if extra else -1)
            if key in seen or not _valid_loop(geo, loop):
                continue
            seen.add(key)
            for kind, value, removals in _loop_hints(board, geo, loop, extra, pair):
                if removals:
                    hint = Hint(round(value, 1), len(loop), kind,
                                _loop_name(len(loop), kind), removals)
                    found.append((hint.value, kind, len(found), hint))
    return min(found)[3] if found else None


def _loops(cands: list[int], geo: _Geometry, start: int, pair: int) -> list[tuple[int, ...]]:
    """Closed paths from ``start`` through cells holding both values of ``pair``, each
    step within a house of another kind than the step before; at most two cells with
    more candidates, unless they all add the same one value."""
    out: list[tuple[int, ...]] = []
    path = [start]
    on_path = 1 << start

    def grow(cell: int, allowed: int, extra: int, last: int) -> None:
        nonlocal on_path
        for h in geo.houses_of[cell]:
            if geo.kind[h] == last:
                continue
            for nxt in geo.cells[h]:
                if nxt == start and len(path) >= 4:
                    out.append(tuple(path))
                elif not on_path >> nxt & 1:
                    m = cands[nxt]
                    if m & pair != pair:
                        continue
                    more = extra | (m & ~pair)
                    wide = m.bit_count() > 2
                    if not wide or more.bit_count() == 1 or allowed > 0:
                        path.append(nxt)
                        on_path |= 1 << nxt
                        grow(nxt, allowed - wide, more, geo.kind[h])
                        path.pop()
                        on_path &= ~(1 << nxt)

    grow(start, 2, 0, -1)
    return out


def _valid_loop(geo: _Geometry, loop: Sequence[int]) -> bool:
    """Every house the loop passes is met by exactly one cell at an even place and one
    at an odd place."""
    seen: tuple[set[int], set[int]] = (set(), set())
    for i, c in enumerate(loop):
        side = seen[i & 1]
        for h in geo.houses_of[c]:
            if h in side:
                return False
            side.add(h)
    return seen[0] == seen[1]


Removals = tuple[tuple[int, int], ...]


def _loop_hints(board: Board, geo: _Geometry, loop: Sequence[int], extra: list[int],
                pair: int) -> list[tuple[int, float, Removals]]:
    """The loop's hints as (type, value, removals), in the Explainer's order."""
    cands = board.candidates
    base = _loop_value(len(loop))
    if len(extra) == 1:
        return [(1, base, tuple((extra[0], v) for v in values_of(pair)))]
    if len(extra) > 2:
        return [(2, base, _loop_type2(cands, geo, extra, pair))]
    if len(extra) != 2:
        return []
    c1, c2 = extra
    more = (cands[c1] | cands[c2]) & ~pair
    out: list[tuple[int, float, Removals]] = []
    if more.bit_count() == 1:
        out.append((2, base, _loop_type2(cands, geo, extra, pair)))
    elif more:
        out += [(3, base + add, removals)
                for add, removals in _loop_type3(board, geo, c1, c2, pair, more)]
    type4 = _loop_type4(cands, geo, c1, c2, pair)
    if type4:
        out.append((4, base, type4))
    return out


def _loop_type2(cands: list[int], geo: _Geometry, extra: list[int], pair: int) -> Removals:
    w = (cands[extra[0]] & ~pair).bit_length()
    seen = -1
    for c in extra:
        seen &= geo.peers[c]
    return tuple((q, w) for q in ones(seen) if cands[q] & bit(w))


def _loop_type3(board: Board, geo: _Geometry, c1: int, c2: int, pair: int, more: int
                ) -> list[tuple[float, Removals]]:
    """Type 3 hints: the two extra cells' other values form a naked set with other cells
    of a house they share, or the loop's values and others a hidden set there."""
    cands = board.candidates
    size = geo.size
    out: list[tuple[float, Removals]] = []
    for degree in range(2, size - 1):
        for kind in geo.kinds():
            h = geo.shared(kind, (c1, c2))
            if h is None:
                continue
            cells = geo.cells[h]
            empty = sum(1 for q in cells if not board.values[q])
            i1 = cells.index(c1)
            if degree * 2 <= empty and degree >= more.bit_count():
                # the sets with c1 and without c2, in the Explainer's order: that of the
                # other cells (one with fewer than two candidates never fits)
                rest_cells = [q for q in cells if q not in (c1, c2) and cands[q].bit_count() > 1]
                for chosen in _colex(len(rest_cells), degree - 1):
                    others = [rest_cells[i] for i in chosen]
                    naked = more & cands[c1] & cands[c2]
                    union = more
                    for q in others:
                        naked |= cands[q]
                        union |= cands[q]
                    if naked.bit_count() != degree or union.bit_count() != degree:
                        continue
                    if more.bit_count() <= 1 or any(cands[q].bit_count() <= 1 for q in others):
                        continue
                    removals = _naked_removals(cands, geo, union, [*others, c1, c2])
                    if removals:
                        out.append(((degree - 1) / 10, removals))
            if degree * 2 < empty:
                rest = [v for v in range(1, size + 1) if not (pair | more) & bit(v)]
                if degree - 2 > len(rest):
                    continue
                for chosen in _colex(len(rest), degree - 2):
                    values = [rest[i] for i in chosen] + values_of(pair)
                    places = [sum(1 << i for i, q in enumerate(cells)
                                  if q != c2 and cands[q] & bit(v)) for v in values]
                    if not all(places):
                        continue
                    spots = 0
                    for p in places:
                        spots |= p
                    if spots.bit_count() != degree:
                        continue
                    hidden = sum(bit(v) for v in values)
                    removals = tuple((cells[i], v) for i in ones(spots) if i != i1
                                     for v in values_of(cands[cells[i]] & ~hidden))
                    if removals:
                        out.append(((degree - 2) / 10, removals))
    return out


def _naked_removals(cands: list[int], geo: _Geometry, values: int, cells: Sequence[int]
                    ) -> Removals:
    """Each value of a naked set leaves every cell that sees all the set's cells that
    hold it."""
    out = []
    for v in values_of(values):
        seen = -1
        for q in cells:
            if cands[q] & bit(v):
                seen &= geo.peers[q]
        out += [(q, v) for q in ones(seen & ((1 << len(cands)) - 1)) if cands[q] & bit(v)]
    return tuple(sorted(out))


def _loop_type4(cands: list[int], geo: _Geometry, c1: int, c2: int, pair: int
                ) -> Removals:
    """Type 4: one of the loop's values only in the two extra cells in a house they
    share, so the other leaves both (the last such house of each value counts, the
    first value first)."""
    v1, v2 = values_of(pair)
    lock1 = lock2 = False
    for kind in geo.kinds():
        h = geo.shared(kind, (c1, c2))
        if h is None:
            continue
        rest = [q for q in geo.cells[h] if q not in (c1, c2)]
        if not any(cands[q] & bit(v1) for q in rest):
            lock1 = True
        if not any(cands[q] & bit(v2) for q in rest):
            lock2 = True
    if lock1:
        return ((c1, v2), (c2, v2))
    if lock2:
        return ((c1, v1), (c2, v1))
    return ()


# -- bivalue universal grave ----------------------------------------------------------

def bivalue_universal_grave(board: Board) -> Hint | None:
    """The Explainer's BUG on ``board`` (see the module docs)."""
    cands = board.candidates
    geo = _geometry(board.shape)
    size = geo.size
    temp = list(cands)
    bug_cells: list[int] = []
    bug_values: dict[int, int] = {}
    all_values = 0
    common: int | None = None
    # cells beyond the grave where only one value ever breaks it
    wide: set[int] | None = None
    only, one_value = 0, True

    def add(c: int, v: int) -> bool:
        nonlocal common
        if c not in bug_cells:
            bug_cells.append(c)
        bug_values[c] = bug_values.get(c, 0) | bit(v)
        temp[c] &= ~bit(v)
        common = geo.peers[c] if common is None else common & geo.peers[c]
        for q in bug_cells:
            common &= ~(1 << q)
        return not (len(bug_cells) > 1 and all_values.bit_count() > 1 and not common)

    for h in geo.order:
        for v in range(1, size + 1):
            places = [q for q in geo.cells[h] if cands[q] & bit(v)]
            if len(places) in (0, 2):
                continue
            new = [q for q in places if cands[q].bit_count() >= 3]
            if wide is None:
                wide, only = set(new), v
            elif one_value:
                if only == v:
                    wide.update(new)
                else:
                    one_value = False
            if len(new) == 1:
                all_values |= bit(v)
                if not add(new[0], v):
                    return None
            if not new:
                return None
    if one_value and wide is not None and len(wide) > len(bug_cells):
        for c in sorted(wide - set(bug_cells)):
            # the value is not added to all_values here, as the Explainer does not
            if not add(c, only):
                return None
    if any(not board.values[c] and temp[c].bit_count() != 2 for c in range(len(cands))):
        return None
    for h in geo.order:
        for v in range(1, size + 1):
            if sum(1 for q in geo.cells[h] if temp[q] & bit(v)) not in (0, 2):
                return None
    if len(bug_cells) == 1:
        c = bug_cells[0]
        return Hint(BUG_TYPE_1, 1, 1, "BUG type 1",
                    tuple((c, v) for v in values_of(cands[c] & ~all_values)))
    if all_values.bit_count() == 1:
        v = all_values.bit_length()
        if common:
            removals = tuple((q, v) for q in ones(common) if cands[q] & bit(v))
            if removals:
                return Hint(BUG, 1, 2, "BUG type 2", removals)
        return _bug_type4(cands, geo, bug_cells, bug_values, all_values)
    if common:
        return (_bug_type4(cands, geo, bug_cells, bug_values, all_values)
                or _bug_type3(cands, geo, bug_cells, all_values, common))
    return None


def _bug_type4(cands: list[int], geo: _Geometry, bug_cells: list[int],
               bug_values: dict[int, int], all_values: int) -> Hint | None:
    """Two BUG cells in a house that share one value besides the extra ones: it is in
    one of them, so their other values go."""
    if len(bug_cells) != 2:
        return None
    c1, c2 = bug_cells
    shared = cands[c1] & cands[c2] & ~all_values
    if shared.bit_count() != 1:
        return None
    if not any(geo.shared(kind, bug_cells) is not None for kind in geo.kinds()):
        return None
    removals = tuple((c, v) for c in (c1, c2)
                     for v in values_of(cands[c] & ~bug_values[c] & ~shared))
    return Hint(BUG, 1, 4, "BUG type 4", removals) if removals else None


def _bug_type3(cands: list[int], geo: _Geometry, bug_cells: list[int], all_values: int,
               common: int) -> Hint | None:
    """The BUG cells' extra values, as one cell, in a naked set with other cells of a
    house they all share."""
    for degree in range(2, 7):
        for kind in geo.kinds():
            h = geo.shared(kind, bug_cells)
            if h is None:
                continue
            inside = [q for q in ones(common) if q in geo.cells[h]]
            if len(inside) < degree:
                continue
            for chosen in _colex(len(inside), degree - 1):
                naked = [inside[i] for i in chosen]
                union = 0
                for q in naked:
                    union |= cands[q]
                if union.bit_count() != degree or all_values & ~union:
                    continue
                if all_values.bit_count() <= 1 or any(cands[q].bit_count() <= 1 for q in naked):
                    continue
                removals = _naked_removals(cands, geo, union, [*naked, *bug_cells])
                if removals:
                    return Hint(round(BUG + (degree - 1) / 10, 1), 1, 3, "BUG type 3", removals)
    return None


# -- aligned exclusion ----------------------------------------------------------------

def aligned_exclusion(board: Board, degree: int, *, compiled: bool = True) -> Hint | None:
    """The Explainer's aligned pair (``degree`` 2) or triple (3) exclusion on ``board``
    (see the module docs). The compiled core's twin (``logic/_aligned.c``) searches
    where it is built and the grid fits it, unless ``compiled`` is false."""
    cands = board.candidates
    geo = _geometry(board.shape)
    value = ALIGNED_PAIR if degree == 2 else ALIGNED_TRIPLE
    name = "Aligned Pair Exclusion" if degree == 2 else "Aligned Triplet Exclusion"
    if compiled and _ALIGNED is not None and len(cands) <= 128 and geo.size <= 16:
        found = _ALIGNED.aligned(geo.peer_bytes, array("H", cands).tobytes(), degree)
        return Hint(value, degree, 0, name, found) if found else None
    base: list[int] = []
    excluders: dict[int, int] = {}
    for c, m in enumerate(cands):
        if m.bit_count() < 2:
            continue
        peers = ones(geo.peers[c])
        if any(cands[q].bit_count() == 1 for q in peers):
            continue
        found = sum(1 << q for q in peers if 2 <= cands[q].bit_count() <= degree)
        if found:
            base.append(c)
            excluders[c] = found
    if len(base) < degree:
        return None
    in_base = sum(1 << c for c in base)
    for second in range(1, len(base)):
        board.memo.check_time()
        c1 = base[second]
        for first in range(second):
            c0 = base[first]
            both = excluders[c0] & excluders[c1]
            # the set's common excluders are among these: fewer than two, no set
            if both.bit_count() < 2:
                continue
            tails: Sequence[tuple[int, ...]] = ((),)
            if degree > 2:
                area = _twin_area(excluders[c0], excluders[c1], in_base, c0, c1)
                if len(area) < degree - 2:
                    continue
                tails = [tuple(area[i] for i in chosen)
                         for chosen in _colex(len(area), degree - 2)]
            for tail in tails:
                cells = (c0, c1, *tail)
                shared = both
                for c in tail:
                    shared &= excluders[c]
                if shared.bit_count() < 2:
                    continue
                removals = _excluded(cands, geo, cells, ones(shared))
                if removals:
                    return Hint(value, degree, 0, name, removals)
    return None


def _twin_area(ex0: int, ex1: int, in_base: int, c0: int, c1: int) -> list[int]:
    """The base cells that either of the first two cells' excluders are, the first's
    in reading order, then the second's."""
    out = [q for q in ones(ex0 & in_base)]
    out += [q for q in ones(ex1 & in_base & ~ex0)]
    return [q for q in out if q not in (c0, c1)]


def _excluded(cands: list[int], geo: _Geometry, cells: Sequence[int], excluders: list[int]
              ) -> Removals:
    """The candidates of ``cells`` (two or three) that no allowed combination of values
    uses: a combination is excluded when it holds all of an excluder's candidates, or
    one value twice in cells that see each other."""
    # partner[v]: values that with v empty a two-candidate excluder; third[v | w]: values
    # that with v and w empty a three-candidate one
    m = [cands[c] for c in cells]
    union = 0
    for mask in m:
        union |= mask
    # only an excluder whose candidates the set's cells hold can exclude anything, and
    # without one only a value twice in cells that see each other can
    usable = [cands[q] for q in excluders if not cands[q] & ~union]
    seen = [[bool(geo.peers[x] >> y & 1) for y in cells] for x in cells]
    if not usable and not any(m[i] & m[j] for i in range(len(cells))
                              for j in range(i) if seen[i][j]):
        return ()
    partner = [0] * (geo.size + 1)
    third: dict[int, int] = {}
    for mask in usable:
        values = values_of(mask)
        if len(values) == 2:
            a, b = values
            partner[a] |= bit(b)
            partner[b] |= bit(a)
        else:
            for a, b, c in ((0, 1, 2), (0, 2, 1), (1, 2, 0)):
                key = bit(values[a]) | bit(values[b])
                third[key] = third.get(key, 0) | bit(values[c])
    used = [0] * len(cells)
    for v in values_of(m[0]):
        second = m[1] & ~partner[v] & ~(bit(v) if seen[0][1] else 0)
        if len(cells) == 2:
            if second:
                used[0] |= bit(v)
                used[1] |= second
            continue
        for w in values_of(second):
            last = (m[2] & ~partner[v] & ~partner[w] & ~third.get(bit(v) | bit(w), 0)
                    & ~(bit(v) if seen[0][2] else 0) & ~(bit(w) if seen[1][2] else 0))
            if last:
                used[0] |= bit(v)
                used[1] |= bit(w)
                used[2] |= last
    return tuple((c, v) for i, c in enumerate(cells) for v in values_of(m[i] & ~used[i]))
