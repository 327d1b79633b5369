"""Almost Locked Sets: ALS-XZ and Sue de Coq.

An *almost locked set* (ALS) is N unsolved cells of one house whose candidates are
together N+1 values (a bivalue cell is an ALS of one cell). Take away any one of its
values and the rest is locked in it.

ALS-XZ: two ALS A and B without a common cell share a *restricted common* value X: X is
a candidate of both and every X of A sees every X of B, so X is in at most one of them.
The other one is then locked, so any other common value Z is in A or in B: Z leaves
every cell outside A and B that sees all the Zs of both. When two values are restricted
commons (doubly linked), each set holds one of them and all of its other values, so
those leave every cell that sees all of their cells in that set, and each of the two
leaves the cells seeing all of its cells in both sets.

Sue de Coq: 2 or 3 unsolved cells C in the intersection of two houses (a box and a
line), with candidates V, at least two more values than cells. A set D in the rest of
the line and a set E in the rest of the box, whose candidates VD and VE share no value,
together with C cover exactly as many values as they have cells. Then every value is in
them exactly once: a value of VD in C or D (the line), one of VE in C or E (the box), one
of V in neither only in C. So VD and the rest of V without VE leave the rest of the line;
VE and the rest of V without VD leave the rest of the box.

Everything is phrased in houses and peers, so the finders serve every shape. Cell sets
are kept as integer bit sets (bit ``c`` for cell ``c``) for fast intersections.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from ..shape import Shape
from .board import Board, bit, values_of
from .step import Step, cells_ref, eliminations_ref, house_ref, make_step

ALS_XZ = "ALS-XZ"
SUE_DE_COQ = "Sue de Coq"

#: Largest ALS the ALS-XZ search considers (keeps one search fast on a 9x9).
MAX_ALS_CELLS = 4
#: Largest line set and box set a Sue de Coq search considers.
MAX_SDC_SET = 3


@lru_cache(maxsize=64)
def peer_bits(shape: Shape) -> tuple[int, ...]:
    """For each cell, its peers as a bit set."""
    out = []
    for peers in shape.peers:
        b = 0
        for p in peers:
            b |= 1 << p
        out.append(b)
    return tuple(out)


@lru_cache(maxsize=64)
def house_pairs(shape: Shape) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """Pairs of houses (h1, h2, shared cells) sharing at least two cells, neither inside
    the other: a box and a line on a classic grid."""
    out = []
    sets = [frozenset(h.cells) for h in shape.houses]
    for h1, h2 in combinations(range(len(sets)), 2):
        common = sets[h1] & sets[h2]
        if len(common) >= 2 and common != sets[h1] and common != sets[h2]:
            # the line first: a row, column or diagonal rather than a box or region
            if shape.houses[h1].kind in ("box", "region") and \
                    shape.houses[h2].kind not in ("box", "region"):
                h1, h2 = h2, h1
            out.append((h1, h2, tuple(sorted(common))))
    return tuple(out)


def _cells_of(bits: int) -> list[int]:
    """The cells of a bit set, ascending."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _cands(mask: int) -> str:
    """A candidate set written as ``{1,2}`` (no marker: markers start with c, h or k)."""
    return "{" + ",".join(map(str, values_of(mask))) + "}"


def _list(values: list[int]) -> str:
    if len(values) == 1:
        return str(values[0])
    return ", ".join(map(str, values[:-1])) + f" and {values[-1]}"


@dataclass(frozen=True)
class Als:
    """An almost locked set: its house, cells, candidate mask and, per value, the bit
    set of its cells holding that value and the bit set of cells seeing all of them."""

    house: int
    cells: tuple[int, ...]
    bits: int
    mask: int
    where: dict[int, int]
    seen: dict[int, int]

    def ref(self) -> str:
        return f"{cells_ref(self.cells)} {_cands(self.mask)} in {house_ref(self.house)}"


def almost_locked_sets(board: Board, shape: Shape, max_cells: int = MAX_ALS_CELLS
                       ) -> list[Als]:
    """Every ALS of up to ``max_cells`` cells, each cell set once (first house found)."""
    cands = board.candidates
    pb = peer_bits(shape)
    seen_sets: set[int] = set()
    out: list[Als] = []
    for h, house in enumerate(shape.houses):
        pool = [c for c in house.cells if cands[c]]
        limit = min(max_cells, len(pool) - 1)
        found: list[tuple[int, ...]] = []

        def grow(start: int, chosen: list[int], union: int, limit: int = limit,
                 pool: list[int] = pool, found: list[tuple[int, ...]] = found) -> None:
            for i in range(start, len(pool)):
                c = pool[i]
                u = union | cands[c]
                n = len(chosen) + 1
                if u.bit_count() > limit + 1:
                    continue
                chosen.append(c)
                if u.bit_count() == n + 1:
                    found.append(tuple(chosen))
                if n < limit:
                    grow(i + 1, chosen, u)
                chosen.pop()

        if limit >= 1:
            grow(0, [], 0)
        for cells in found:
            bits = 0
            mask = 0
            for c in cells:
                bits |= 1 << c
                mask |= cands[c]
            if bits in seen_sets:
                continue
            seen_sets.add(bits)
            where: dict[int, int] = {}
            seen: dict[int, int] = {}
            for v in values_of(mask):
                vb = bit(v)
                w = 0
                s = -1
                for c in cells:
                    if cands[c] & vb:
                        w |= 1 << c
                        s &= pb[c]
                where[v] = w
                seen[v] = s
            out.append(Als(h, cells, bits, mask, where, seen))
    return out


def _value_cells(board: Board) -> dict[int, int]:
    """For each value, the bit set of cells where it is a candidate."""
    out: dict[int, int] = {}
    for c, m in enumerate(board.candidates):
        while m:
            low = m & -m
            v = low.bit_length()
            out[v] = out.get(v, 0) | (1 << c)
            m ^= low
    return out


def find_als_xz(board: Board, shape: Shape) -> Iterator[Step]:
    """ALS-XZ (singly and doubly linked) on ALS of up to :data:`MAX_ALS_CELLS` cells."""
    sets = almost_locked_sets(board, shape)
    holders = _value_cells(board)
    for i, a in enumerate(sets):
        for b in sets[i + 1:]:
            common = a.mask & b.mask
            if common.bit_count() < 2 or a.bits & b.bits:
                continue
            vals = values_of(common)
            rcc = [x for x in vals if not b.where[x] & ~a.seen[x]]
            if not rcc:
                continue
            both = a.bits | b.bits
            if len(rcc) >= 2:
                yield from _doubly(board, shape, a, b, rcc[:2], vals, holders, both)
                continue
            x = rcc[0]
            zs = []
            elims: list[tuple[int, int]] = []
            for z in vals:
                if z == x:
                    continue
                targets = a.seen[z] & b.seen[z] & holders.get(z, 0) & ~both
                if targets:
                    zs.append(z)
                    elims.extend((c, z) for c in _cells_of(targets))
            if not elims:
                continue
            template = (f"ALS-XZ: set A {a.ref()} and set B {b.ref()} share no cell; "
                        f"X = {x} is a restricted common value (every {x} of A sees every "
                        f"{x} of B), so X is in at most one set and the other is locked: "
                        f"Z = {_list(zs)} is in A or B, remove {eliminations_ref(elims)}")
            yield _als_step(board, shape, template, a, b, [x], elims)


def _doubly(board: Board, shape: Shape, a: Als, b: Als, rcc: list[int], vals: list[int],
            holders: dict[int, int], both: int) -> Iterator[Step]:
    """Doubly-linked ALS-XZ: each set holds one restricted common and all its others."""
    found: dict[tuple[int, int], None] = {}
    for v in vals:
        if v not in rcc:
            for c in _cells_of(a.seen[v] & b.seen[v] & holders.get(v, 0) & ~both):
                found[(c, v)] = None
    for x in rcc:
        for c in _cells_of(a.seen[x] & b.seen[x] & holders.get(x, 0) & ~both):
            found[(c, x)] = None
    for s in (a, b):
        for v in values_of(s.mask):
            if v not in rcc:
                for c in _cells_of(s.seen[v] & holders.get(v, 0) & ~s.bits):
                    found[(c, v)] = None
    if not found:
        return
    elims = sorted(found, key=lambda cv: (cv[1], cv[0]))
    x1, x2 = rcc
    template = (f"ALS-XZ, doubly linked: set A {a.ref()} and set B {b.ref()} share no "
                f"cell; both {x1} and {x2} are restricted common values (each X of A sees "
                f"each X of B), so each set holds one of them and all of its other values: "
                f"remove {eliminations_ref(elims)}")
    yield _als_step(board, shape, template, a, b, rcc, elims)


def _als_step(board: Board, shape: Shape, template: str, a: Als, b: Als, rcc: list[int],
              elims: list[tuple[int, int]]) -> Step:
    cands = board.candidates
    marks = []
    for role, s in (("defining", a), ("cover", b)):
        for c in s.cells:
            for v in values_of(cands[c]):
                marks.append(("link" if v in rcc else role, c, v))
    return make_step(
        shape, ALS_XZ, template, eliminations=tuple(elims), cells=a.cells + b.cells,
        houses=(a.house, b.house),
        highlights=tuple(marks) + tuple(("removed", c, v) for c, v in elims))


def _side_sets(board: Board, cells: list[int], vmask: int, need: int
               ) -> list[tuple[tuple[int, ...], int, int]]:
    """Sets of up to :data:`MAX_SDC_SET` cells, each sharing a value with ``vmask``:
    (cells, candidates, gain) where gain = cells - values outside ``vmask``, 1..need."""
    cands = board.candidates
    pool = [c for c in cells if cands[c] & vmask]
    out = []
    for n in range(1, min(MAX_SDC_SET, len(pool)) + 1):
        for group in combinations(pool, n):
            union = 0
            for c in group:
                union |= cands[c]
            gain = n - (union & ~vmask).bit_count()
            if 1 <= gain <= need:
                out.append((group, union, gain))
    return out


def find_sue_de_coq(board: Board, shape: Shape) -> Iterator[Step]:
    """Sue de Coq on a box-line intersection (any two houses sharing 2+ cells)."""
    cands = board.candidates
    houses = shape.houses
    for h1, h2, shared in house_pairs(shape):
        open_shared = [c for c in shared if cands[c]]
        if len(open_shared) < 2:
            continue
        set2 = set(houses[h2].cells)
        set1 = set(houses[h1].cells)
        line_rest = [c for c in houses[h1].cells if c not in set2 and cands[c]]
        box_rest = [c for c in houses[h2].cells if c not in set1 and cands[c]]
        for n in (2, 3):
            for core in combinations(open_shared, n):
                vmask = 0
                for c in core:
                    vmask |= cands[c]
                need = vmask.bit_count() - n
                if need < 2:
                    continue
                lines = _side_sets(board, line_rest, vmask, need - 1)
                if not lines:
                    continue
                boxes = _side_sets(board, box_rest, vmask, need - 1)
                for d, vd, gd in lines:
                    for e, ve, ge in boxes:
                        if gd + ge != need or vd & ve:
                            continue
                        step = _sdc_step(board, shape, h1, h2, core, vmask, d, vd, e, ve)
                        if step is not None:
                            yield step


def _sdc_step(board: Board, shape: Shape, h1: int, h2: int, core: tuple[int, ...],
              vmask: int, d: tuple[int, ...], vd: int, e: tuple[int, ...], ve: int
              ) -> Step | None:
    cands = board.candidates
    houses = shape.houses
    off_line = (vmask | vd) & ~ve
    off_box = (vmask | ve) & ~vd
    found: dict[tuple[int, int], None] = {}
    for h, keep, off in ((h1, set(core) | set(d), off_line), (h2, set(core) | set(e), off_box)):
        for c in houses[h].cells:
            if c not in keep and cands[c] & off:
                for v in values_of(cands[c] & off):
                    found[(c, v)] = None
    if not found:
        return None
    elims = sorted(found, key=lambda cv: (cv[1], cv[0]))
    template = (f"Sue de Coq: {cells_ref(core)}, where {house_ref(h1)} meets "
                f"{house_ref(h2)}, hold {_cands(vmask)}; with {cells_ref(d)} "
                f"{_cands(vd)} in {house_ref(h1)} and {cells_ref(e)} {_cands(ve)} in "
                f"{house_ref(h2)}, which share no value, these "
                f"{len(core) + len(d) + len(e)} cells hold as many values, each once: "
                f"remove {eliminations_ref(elims)}")
    return make_step(
        shape, SUE_DE_COQ, template, eliminations=tuple(elims), cells=core + d + e,
        houses=(h1, h2),
        highlights=tuple(("pivot", c, v) for c in core for v in values_of(cands[c]))
        + tuple(("defining", c, v) for c in d for v in values_of(cands[c]))
        + tuple(("cover", c, v) for c in e for v in values_of(cands[c]))
        + tuple(("removed", c, v) for c, v in elims))
