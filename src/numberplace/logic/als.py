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

from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, combinations
from typing import TypeVar, cast

from .. import native
from ..errors import LimitError
from ..model.shape import BLOCK_KINDS, Shape
from ..native import backend_name
from .board import Board, bit, by_houses, value_cells, values_of
from .geometry import ones, packed_cell_sets, peer_bits
from .step import (
    Role,
    Step,
    candidates_ref,
    cell_ref,
    cells_ref,
    eliminations_ref,
    house_ref,
    make_step,
    value_ref,
    values_ref,
)

ALS_XZ = "ALS-XZ"
ALS_XY_WING = "ALS-XY-Wing"
ALS_XY_CHAIN = "ALS-XY-Chain"
DEATH_BLOSSOM = "Death Blossom"
SUE_DE_COQ = "Sue de Coq"

T = TypeVar("T")

#: Largest ALS the ALS searches consider unless the caller sets ``Memo.als_cells`` (keeps
#: one search fast on a 9x9).
MAX_ALS_CELLS = 4
#: Largest line set and box set a Sue de Coq search considers.
MAX_SDC_SET = 3


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
            if shape.houses[h1].kind in BLOCK_KINDS and \
                    shape.houses[h2].kind not in BLOCK_KINDS:
                h1, h2 = h2, h1
            out.append((h1, h2, tuple(sorted(common))))
    return tuple(out)


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
        return f"{cells_ref(self.cells)} {candidates_ref(self.mask)} in {house_ref(self.house)}"


def almost_locked_sets(board: Board, shape: Shape, max_cells: int = MAX_ALS_CELLS
                       ) -> list[Als]:
    """Every ALS of up to ``max_cells`` cells, each cell set once (first house found).

    The ALS techniques run one after another on the same board: the last board's sets
    are kept in its memo."""
    key = (shape, tuple(board.candidates), max_cells)
    cached = board.memo.als
    if cached is not None and cached[0] == key:
        return cached[1]
    found = _almost_locked_sets(board, shape, max_cells)
    board.memo.als = (key, found)
    board.memo.als_derived = {}
    return found


def _derived(board: Board, name: object, make: Callable[[], T]) -> T:
    """Something computed from the board's sets (just listed by
    :func:`almost_locked_sets`), kept until the sets change."""
    derived = board.memo.als_derived
    if name not in derived:
        derived[name] = make()
    return cast(T, derived[name])


def _almost_locked_sets(board: Board, shape: Shape, max_cells: int) -> list[Als]:
    cands = board.candidates
    pb = peer_bits(shape)
    seen_sets: set[int] = set()
    out: list[Als] = []
    for h, house in enumerate(shape.houses):
        board.memo.check_time()
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


def find_als_xz(board: Board, shape: Shape) -> Iterator[Step]:
    """ALS-XZ (singly and doubly linked) on ALS of up to :data:`MAX_ALS_CELLS` cells."""
    sets = almost_locked_sets(board, shape, als_cell_limit(board))
    holders = value_cells(board)
    for (i, j), linked in sorted(_pairs(board, sets, holders).items()):
        board.memo.check_time()
        a, b = sets[i], sets[j]
        common = a.mask & b.mask
        if common.bit_count() < 2 or a.bits & b.bits:
            continue
        vals = values_of(common)
        rcc = values_of(linked)
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
            targets = a.seen[z] & b.seen[z] & holders[z] & ~both
            if targets:
                zs.append(z)
                elims.extend((c, z) for c in ones(targets))
        if not elims:
            continue
        template = (f"ALS-XZ: set A {a.ref()} and set B {b.ref()} share no cell; "
                    f"X = {value_ref(x)} is a restricted common value (every "
                    f"{value_ref(x)} of A sees every {value_ref(x)} of B), so X is in at "
                    f"most one set and the other is locked: Z = {values_ref(zs, ' and ')} "
                    f"is in A or B, remove {eliminations_ref(elims)}")
        yield _als_step(board, shape, template, a, b, [x], elims)


def als_cell_limit(board: Board) -> int:
    """Most cells of an almost locked set the searches consider on this board."""
    return board.memo.als_cells or MAX_ALS_CELLS


def _pairs(board: Board, sets: list[Als], holders: list[int]) -> dict[tuple[int, int], int]:
    """:func:`_restricted_pairs` of the board's sets, worked out once per board."""
    return _derived(board, "pairs", lambda: _restricted_pairs(sets, holders))


def _restricted_pairs(sets: list[Als], holders: list[int]) -> dict[tuple[int, int], int]:
    """Pairs (i, j), i < j, of ALS with a restricted common value: every cell of set j
    holding it sees every cell of set i holding it. The values, as a mask, by pair.

    Set j's cells holding x all lie among the holders of x that see set i's: so only
    sets whose first such cell is there are tried, not every pair of sets.
    """
    by_first: dict[int, dict[int, list[int]]] = {}
    for k, s in enumerate(sets):
        for v, w in s.where.items():
            by_first.setdefault(v, {}).setdefault((w & -w).bit_length() - 1, []).append(k)
    out: dict[tuple[int, int], int] = {}
    for i, a in enumerate(sets):
        for x, seen in a.seen.items():
            reach = seen & holders[x]
            table = by_first[x]
            for c in ones(reach):
                for j in table.get(c, ()):
                    if j > i and not sets[j].where[x] & ~reach:
                        out[(i, j)] = out.get((i, j), 0) | bit(x)
    return out


def _doubly(board: Board, shape: Shape, a: Als, b: Als, rcc: list[int], vals: list[int],
            holders: list[int], both: int) -> Iterator[Step]:
    """Doubly-linked ALS-XZ: each set holds one restricted common and all its others."""
    found: dict[tuple[int, int], None] = {}
    for v in vals:
        if v not in rcc:
            for c in ones(a.seen[v] & b.seen[v] & holders[v] & ~both):
                found[(c, v)] = None
    for x in rcc:
        for c in ones(a.seen[x] & b.seen[x] & holders[x] & ~both):
            found[(c, x)] = None
    for s in (a, b):
        for v in values_of(s.mask):
            if v not in rcc:
                for c in ones(s.seen[v] & holders[v] & ~s.bits):
                    found[(c, v)] = None
    if not found:
        return
    elims = sorted(found, key=lambda cv: (cv[1], cv[0]))
    x1, x2 = rcc
    template = (f"ALS-XZ, doubly linked: set A {a.ref()} and set B {b.ref()} share no cell; both "
                f"{value_ref(x1)} and {value_ref(x2)} are restricted common values (each X of A "
                f"sees each X of B), so each set holds one of them and all of its other values: "
                f"remove {eliminations_ref(elims)}")
    yield _als_step(board, shape, template, a, b, rcc, elims)


def _als_step(board: Board, shape: Shape, template: str, a: Als, b: Als, rcc: list[int],
              elims: list[tuple[int, int]]) -> Step:
    cands = board.candidates
    marks = []
    for role, s in ((Role.DEFINING, a), (Role.COVER, b)):
        for c in s.cells:
            for v in values_of(cands[c]):
                marks.append((Role.LINK if v in rcc else role, c, v))
    return make_step(
        shape, ALS_XZ, template, eliminations=tuple(elims), cells=a.cells + b.cells,
        houses=(a.house, b.house),
        highlights=tuple(marks) + tuple((Role.REMOVED, c, v) for c, v in elims))


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
    pairs = house_pairs(shape)

    def search(i: int) -> Iterator[Step]:
        h1, h2, shared = pairs[i]
        open_shared = [c for c in shared if cands[c]]
        if len(open_shared) < 2:
            return
        set2 = set(houses[h2].cells)
        set1 = set(houses[h1].cells)
        line_rest = [c for c in houses[h1].cells if c not in set2 and cands[c]]
        box_rest = [c for c in houses[h2].cells if c not in set1 and cands[c]]
        for n in (2, 3):
            for core in combinations(open_shared, n):
                board.memo.check_time()
                vmask = 0
                for c in core:
                    vmask |= cands[c]
                need = vmask.bit_count() - n
                # each side's set gains at most its size: wider cores (many values, as on
                # an open 16x16 or 25x25) cannot be closed, and are not searched
                if need < 2 or need > 2 * MAX_SDC_SET:
                    continue
                lines = _side_sets(board, line_rest, vmask, need - 1)
                if not lines:
                    continue
                boxes_by_gain: dict[int, list[tuple[tuple[int, ...], int]]] = {}
                for e, ve, ge in _side_sets(board, box_rest, vmask, need - 1):
                    boxes_by_gain.setdefault(ge, []).append((e, ve))
                for d, vd, gd in lines:
                    board.memo.check_time()
                    for e, ve in boxes_by_gain.get(need - gd, ()):
                        if vd & ve:
                            continue
                        step = _sdc_step(board, shape, h1, h2, core, vmask, d, vd, e, ve)
                        if step is not None:
                            yield step

    # a pair's search reads only the cells of its two houses
    return by_houses(SUE_DE_COQ, board, [(h1, h2) for h1, h2, _ in pairs], search)


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
                f"{house_ref(h2)}, hold {candidates_ref(vmask)}; with {cells_ref(d)} "
                f"{candidates_ref(vd)} in {house_ref(h1)} and {cells_ref(e)} "
                f"{candidates_ref(ve)} in "
                f"{house_ref(h2)}, which share no value, these "
                f"{len(core) + len(d) + len(e)} cells hold as many values, each once: "
                f"remove {eliminations_ref(elims)}")
    return make_step(
        shape, SUE_DE_COQ, template, eliminations=tuple(elims), cells=core + d + e,
        houses=(h1, h2),
        highlights=tuple((Role.PIVOT, c, v) for c in core for v in values_of(cands[c]))
        + tuple((Role.DEFINING, c, v) for c in d for v in values_of(cands[c]))
        + tuple((Role.COVER, c, v) for c in e for v in values_of(cands[c]))
        + tuple((Role.REMOVED, c, v) for c, v in elims))


# -- ALS-XY-Wing, ALS-XY-Chain, Death Blossom -----------------------------------------------

#: Most sets in an ALS-XY-Chain, and most search steps spent on one board's chains,
#: unless the caller sets ``Memo.als_chain_sets`` and ``Memo.als_chain_steps``.
MAX_CHAIN_SETS = 6
CHAIN_BUDGET = 50_000


def _links(board: Board, sets: list[Als], holders: list[int], overlap: bool
           ) -> dict[int, dict[int, int]]:
    return _derived(board, ("links", overlap),
                    lambda: _make_links(board, sets, holders, overlap))


def _make_links(board: Board, sets: list[Als], holders: list[int], overlap: bool
                ) -> dict[int, dict[int, int]]:
    """Restricted commons between sets, both ways: ``links[i][j]`` is the mask of values
    every holder of which in set i sees every holder in set j. Sets sharing a cell are
    linked only with ``overlap``, and then by values none of whose holders is shared."""
    out: dict[int, dict[int, int]] = {i: {} for i in range(len(sets))}
    for (i, j), mask in _pairs(board, sets, holders).items():
        shared = sets[i].bits & sets[j].bits
        if shared:
            if not overlap:
                continue
            for x in values_of(mask):
                if (sets[i].where[x] | sets[j].where[x]) & shared:
                    mask &= ~bit(x)
            if not mask:
                continue
        out[i][j] = mask
        out[j][i] = mask
    return out


def _ends(board: Board, a: Als, b: Als, exclude: int, holders: list[int], used: int
          ) -> list[tuple[int, int]]:
    """What one of two sets holding their other values removes: each value z of both
    but those in ``exclude`` leaves the cells outside them seeing all their zs."""
    elims: list[tuple[int, int]] = []
    for z in values_of(a.mask & b.mask & ~exclude):
        targets = a.seen[z] & b.seen[z] & holders[z] & ~used
        elims.extend((c, z) for c in ones(targets))
    return sorted(elims, key=lambda cv: (cv[1], cv[0]))


def _chain_step(board: Board, shape: Shape, name: str, chain: list[Als], rccs: list[int],
                elims: list[tuple[int, int]]) -> Step:
    cands = board.candidates
    parts = [f"{chr(65 + k)} {s.ref()}" for k, s in enumerate(chain)]
    links = ", ".join(f"{chr(65 + k)}-{chr(66 + k)} by {value_ref(x)}"
                      for k, x in enumerate(rccs))
    template = (f"{name}: sets {'; '.join(parts)}, linked {links} (restricted commons, "
                f"each differing from the next), so the first set or the last is locked: "
                f"remove {eliminations_ref(elims)}")
    marks = [(Role.LINK if v in rccs else Role.DEFINING, c, v)
             for s in chain for c in s.cells for v in values_of(cands[c])]
    return make_step(shape, name, template, eliminations=tuple(elims),
                     cells=tuple(c for s in chain for c in s.cells),
                     houses=tuple(dict.fromkeys(s.house for s in chain)),
                     highlights=tuple(marks) + tuple((Role.REMOVED, c, v) for c, v in elims))


def _removable(a: Als, holders: list[int]) -> int:
    """The values of a set that some cell outside it seeing all the set's holders of
    the value could lose (a mask)."""
    out = 0
    for z in values_of(a.mask):
        if a.seen[z] & holders[z] & ~a.bits:
            out |= bit(z)
    return out


def _xy_wings(board: Board, shape: Shape, overlap: bool,
              seen: set[frozenset[tuple[int, int]]]) -> Iterator[Step]:
    sets = almost_locked_sets(board, shape, als_cell_limit(board))
    holders = value_cells(board)
    links = _links(board, sets, holders, overlap)
    # the values of both sets of a pair that some cell outside them could lose: a pair
    # with none (most of them) is passed over whatever the pivot
    removable: dict[tuple[int, int], int] = {}
    # the values each set alone could let go somewhere: a pair's are among those both
    # could, which a test of small numbers finds empty for most pairs
    alone = [_removable(a, holders) for a in sets]
    for c, around in links.items():
        pivot = sets[c]
        board.memo.check_time()
        for (i, xs), (j, ys) in combinations(sorted(around.items()), 2):
            if not alone[i] & alone[j]:
                continue
            a, b = sets[i], sets[j]
            if not overlap and a.bits & b.bits:
                continue
            zs = removable.get((i, j))
            if zs is None:
                zs = 0
                outside = ~(a.bits | b.bits)
                for z in values_of(alone[i] & alone[j]):
                    if a.seen[z] & b.seen[z] & holders[z] & outside:
                        zs |= bit(z)
                removable[(i, j)] = zs
            if not zs:
                continue
            for x in values_of(xs):
                for y in values_of(ys & ~bit(x)):
                    if not zs & ~(bit(x) | bit(y)):
                        continue
                    elims = _ends(board, a, b, bit(x) | bit(y), holders, a.bits | b.bits)
                    key = frozenset(elims)
                    if not elims or key in seen:
                        continue
                    seen.add(key)
                    yield _chain_step(board, shape, ALS_XY_WING, [a, pivot, b], [x, y], elims)


def find_als_xy_wing(board: Board, shape: Shape) -> Iterator[Step]:
    """ALS-XY-Wing: sets A and B each share a restricted common with a pivot set C, by
    different values x and y; C holds x or y, so A or B is locked, and a value z of both
    leaves every cell seeing all their zs. Sets sharing no cell first; then sets that
    share cells, none of them holding a restricted common."""
    seen: set[frozenset[tuple[int, int]]] = set()
    yield from _xy_wings(board, shape, False, seen)
    yield from _xy_wings(board, shape, True, seen)


def find_als_xy_chain(board: Board, shape: Shape) -> Iterator[Step]:
    """ALS-XY-Chain: sets linked one to the next by restricted commons, each differing
    from the one before; the first set or the last is locked, so a value z of both (not
    the first link's value nor the last's) leaves every cell seeing all their zs."""
    sets = almost_locked_sets(board, shape, als_cell_limit(board))
    holders = value_cells(board)
    links = _links(board, sets, holders, False)
    # each set's links as (set, value) pairs, read once
    steps_from = [[(j, x) for j, m in sorted(links[i].items()) for x in values_of(m)]
                  for i in range(len(sets))]
    memo = board.memo
    budget = CHAIN_BUDGET if memo.als_chain_steps is None else memo.als_chain_steps
    most_sets = MAX_CHAIN_SETS if memo.als_chain_sets is None else memo.als_chain_sets
    # the values of each set some cell outside it could lose: a set with none starts no
    # chain
    removable = [_removable(a, holders) for a in sets]
    search = _compiled_chains if backend_name() == "c" else _chains
    found: list[tuple[int, list[int], list[int], list[tuple[int, int]]]] = []
    seen: set[frozenset[tuple[int, int]]] = set()
    for most, chain_sets, rccs, common in search(board, sets, steps_from, removable,
                                                 budget, most_sets):
        first, last = sets[chain_sets[0]], sets[chain_sets[-1]]
        elims = _ends(board, first, last, ~common, holders, first.bits | last.bits)
        key = frozenset(elims)
        if elims and key not in seen:
            seen.add(key)
            found.append((most, list(chain_sets), list(rccs), elims))
    found.sort(key=lambda f: (f[0], -len(f[3])))
    for _, path, rccs, elims in found:
        yield _chain_step(board, shape, ALS_XY_CHAIN, [sets[k] for k in path], rccs, elims)


#: A chain the search met, of a round's full length: its number of sets, the sets, the
#: values of its links, and the values of both ends that may leave a cell.
ChainFound = tuple[int, Sequence[int], Sequence[int], int]


def _chains(board: Board, sets: list[Als], steps_from: list[list[tuple[int, int]]],
            removable: list[int], budget: int, most_sets: int) -> Iterator[ChainFound]:
    """The search of :func:`find_als_xy_chain`: one set longer a round (so that long
    chains never spend the budget the short ones need; a round in which no chain
    reached its full length is the last), from each start in turn, within ``budget``
    steps; each chain of the round's length whose ends share a removable value other
    than its first and last link's."""
    for most in range(3, most_sets + 1):
        grown = False
        for start in range(len(sets)):
            board.memo.check_time()
            if not removable[start]:
                continue
            path, rccs, used = [start], [0], sets[start].bits
            at = [0]  # the next link to try from each set of the path
            while at:
                here = steps_from[path[-1]]
                if at[-1] >= len(here) or budget <= 0:
                    at.pop()
                    used &= ~sets[path.pop()].bits
                    rccs.pop()
                    continue
                j, x = here[at[-1]]
                at[-1] += 1
                budget -= 1
                last = sets[j]
                if last.bits & used or rccs[-1] == x:
                    continue
                if len(path) + 1 == most:
                    grown = True
                    if start < j:
                        # z: a value of both ends but the first and the last link's
                        common = removable[start] & last.mask & ~(
                            bit(rccs[1] if len(rccs) > 1 else x) | bit(x))
                        if common:
                            yield most, [*path, j], [*rccs[1:], x], common
                else:
                    path.append(j)
                    rccs.append(x)
                    used |= last.bits
                    at.append(0)
            if budget <= 0:
                break
        if budget <= 0 or not grown:
            break


def _compiled_chains(board: Board, sets: list[Als], steps_from: list[list[tuple[int, int]]],
                     removable: list[int], budget: int, most_sets: int
                     ) -> Sequence[ChainFound]:
    """:func:`_chains` in the compiled core (logic/_als.c): the same chains in the same
    order, for the same budget."""
    assert native.core is not None
    memo = board.memo
    memo.check_time()
    offsets = array("i", [0])
    links = array("i")
    for steps in steps_from:
        for j, x in steps:
            links.extend((j, x))
        offsets.append(len(links) // 2)
    found = native.core.als_chain(packed_cell_sets(board.shape, (a.bits for a in sets)),
                                  array("I", [a.mask for a in sets]).tobytes(),
                                  array("I", removable).tobytes(), offsets.tobytes(),
                                  links.tobytes(), most_sets, budget,
                                  memo.deadline.at or 0.0)
    if found is False:
        memo.check_time()
        raise LimitError(memo.deadline.stop_text())
    return found[0]


#: Most search steps spent choosing the petals of one stem.
PETAL_BUDGET = 2_000


def _petal_choices(sets: list[Als], digits: list[int], petals: dict[int, list[int]],
                   stem: int, overlap: bool, targets: dict[int, int]
                   ) -> Iterator[tuple[list[int], dict[int, int]]]:
    """One set per value of the stem, sharing no cell (but with ``overlap``), with some
    value all hold besides their own that leaves a cell: ``targets`` holds, per value,
    the cells it could leave before any petal is chosen, and a choice whose petals leave
    no value a cell to take it from is not followed. Each choice comes with the cells
    each value all its petals hold leaves."""
    budget = [PETAL_BUDGET]

    def pick(i: int, chosen: list[int], used: int, common: int, hits: dict[int, int]
             ) -> Iterator[tuple[list[int], dict[int, int]]]:
        budget[0] -= 1
        if budget[0] < 0:
            return
        if i == len(digits):
            yield list(chosen), hits
            return
        d = digits[i]
        for k in petals[d]:
            s = sets[k]
            mask = common & s.mask
            if s.bits & used or (i and not mask & ~bit(d)):
                continue
            # the cells each common value still leaves, with this petal chosen
            left = {z: t & ~s.bits & (s.seen[z] if z != d else -1)
                    for z, t in hits.items() if mask & bit(z)}
            if not any(left.values()):
                continue
            chosen.append(k)
            yield from pick(i + 1, chosen, used if overlap else used | s.bits, mask, left)
            chosen.pop()

    return pick(0, [], 1 << stem, -1, targets)


def find_death_blossom(board: Board, shape: Shape) -> Iterator[Step]:
    """Death Blossom: a stem cell, and for each of its values a set (a petal) holding it
    with every such cell seeing the stem. The stem takes one value, whose petal is then
    locked: a value z every petal holds leaves every cell seeing all their zs (and the
    stem, if z is a value of the stem)."""
    sets = almost_locked_sets(board, shape, als_cell_limit(board))
    holders = value_cells(board)
    cands = board.candidates
    pb = peer_bits(shape)
    seen: set[frozenset[tuple[int, int]]] = set()
    stems = 0
    for c, m in enumerate(cands):
        if 2 <= m.bit_count() <= 3:
            stems |= 1 << c
    # the petals of each stem and value: sets outside the stem whose cells holding the
    # value all see it
    petals_at: dict[int, dict[int, list[int]]] = {}
    for k, s in enumerate(sets):
        for d, seen_d in s.seen.items():
            for stem in ones(seen_d & stems & ~s.bits):
                if cands[stem] & bit(d):
                    petals_at.setdefault(stem, {}).setdefault(d, []).append(k)
    for stem, m in enumerate(cands):
        if not stems >> stem & 1 or stem not in petals_at:
            continue
        board.memo.check_time()
        digits = values_of(m)
        petals = petals_at[stem]
        if any(d not in petals for d in digits):
            continue
        reach = {z: holders[z] & ~(1 << stem) & (pb[stem] if m & bit(z) else -1)
                 for z in range(1, shape.size + 1)}
        for chosen, left in chain(_petal_choices(sets, digits, petals, stem, False, reach),
                                  _petal_choices(sets, digits, petals, stem, True, reach)):
            ps = [sets[k] for k in chosen]
            elims = [(c, z) for z, targets in left.items() for c in ones(targets)]
            key = frozenset(elims)
            if not elims or key in seen:
                continue
            seen.add(key)
            elims.sort(key=lambda cv: (cv[1], cv[0]))
            petal_text = "; ".join(f"{value_ref(d)}: {s.ref()}"
                                   for d, s in zip(digits, ps, strict=True))
            template = (f"Death Blossom: stem {cell_ref(stem)} {candidates_ref(m)}, petals "
                        f"{petal_text}; whichever value the stem takes, its petal is locked: "
                        f"remove {eliminations_ref(elims)}")
            marks = [(Role.PIVOT, stem, v) for v in digits]
            marks += [(Role.LINK if v == d else Role.DEFINING, c, v)
                      for d, s in zip(digits, ps, strict=True) for c in s.cells
                      for v in values_of(cands[c])]
            yield make_step(shape, DEATH_BLOSSOM, template, eliminations=tuple(elims),
                            cells=(stem, *(c for s in ps for c in s.cells)),
                            highlights=tuple(marks)
                            + tuple((Role.REMOVED, c, v) for c, v in elims))
