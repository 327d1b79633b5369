"""Uniqueness techniques: Unique Rectangle Types 1-4 and BUG+1.

These rest on one assumption the other techniques do not make: that the puzzle has
exactly one solution. A *deadly pattern* is a set of unsolved cells whose values could be
exchanged without breaking any house; if the final grid contained one, the exchange
would give a second solution. So a puzzle known to be unique never ends in one, and
whatever would complete a deadly pattern is false.

**Only use these finders on puzzles known to have exactly one solution.** On a puzzle
with several solutions they remove values some solution needs. The driver calls them
only when told the puzzle is unique (``needs_uniqueness`` in the technique table).

Unique Rectangle: four unsolved cells in two rows and two columns of one grid, lying in
exactly two boxes (or jigsaw regions), all holding the candidates {x,y}. If they held
nothing else, x and y could be swapped around the rectangle. More precisely, a rectangle
is used only when every house meeting it meets it in one of its four *sides* (two cells
in a row or a column), so the swap keeps every house of any shape (diagonals, jigsaw
regions, the overlaps of Samurai grids) intact.

* Type 1: three corners hold only {x,y}; the fourth loses x and y.
* Type 2: two corners (the *floor*) hold only {x,y}, the other two (the *roof*) hold
  {x,y,z}; one roof cell is z, so z leaves every cell seeing both.
* Type 3: floor {x,y}; the roof cells, sharing a house, have extra candidates E; one of
  them takes a value of E, so together they act as one cell holding E, which with
  other cells of that house may form a naked subset.
* Type 4: floor {x,y}; in a house holding both roof cells, x can only go in those two;
  one of them is x, so neither can be y.

BUG+1 (Bivalue Universal Grave): every unsolved cell has two candidates except one with
three. Without the value that appears three times in that cell's houses, every value
would appear twice in every house, and such a board has no solution or at least two
(each cell could take its other candidate instead). So that cell takes that value.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

from ..shape import BLOCK_KINDS, HouseKind, Shape
from .board import Board, bit, values_of
from .step import (
    Role,
    Step,
    candidates_ref,
    cell_ref,
    cells_ref,
    eliminations_ref,
    house_ref,
    make_step,
    placement_step,
    value_ref,
)

UR_TYPE_1 = "Unique Rectangle Type 1"
UR_TYPE_2 = "Unique Rectangle Type 2"
UR_TYPE_3 = "Unique Rectangle Type 3"
UR_TYPE_4 = "Unique Rectangle Type 4"
BUG_PLUS_1 = "BUG+1"

#: Largest number of other cells joining the roof's virtual cell in a Type 3 subset.
_TYPE3_MAX = 3

Quad = tuple[int, int, int, int]


@lru_cache(maxsize=64)
def rectangles(shape: Shape) -> tuple[Quad, ...]:
    """Every rectangle a deadly pattern may occupy, as cells (a, b, c, d).

    a-b and c-d share a row, a-c and b-d a column (of the same grid). Kept only when the
    four cells lie in exactly two block houses and every house meeting them meets them
    in exactly one side (a-b, c-d, a-c or b-d), so swapping two values around the
    rectangle keeps every house valid. On shapes with cages, no cage may meet them in
    exactly one cell: the swap would change that cage's sum or repeat a digit in it (a
    cage meeting a side keeps its sum and digits; one meeting two opposite corners could
    never hold the pattern at all). A cage whose digits may repeat could hold two
    opposite corners, whose swap changes its sum: it must meet a side or all four.
    """
    houses_of = shape.houses_of
    blocks = {h for h, house in enumerate(shape.houses) if house.kind in BLOCK_KINDS}
    out: list[Quad] = []
    seen: set[frozenset[int]] = set()
    for g in range(len(shape.grids)):
        rows = [h.cells for h in shape.houses if h.kind == HouseKind.ROW and h.grid == g]
        cols = [h.cells for h in shape.houses if h.kind == HouseKind.COLUMN and h.grid == g]
        row_of = [shape.coords[r[0]][0] for r in rows]
        col_of = [shape.coords[c[0]][1] for c in cols]
        at = shape.cell_at
        for r1, r2 in combinations(sorted(row_of), 2):
            for c1, c2 in combinations(sorted(col_of), 2):
                corners = [at.get(rc) for rc in ((r1, c1), (r1, c2), (r2, c1), (r2, c2))]
                if None in corners:
                    continue
                a, b, c, d = (x for x in corners if x is not None)
                key = frozenset((a, b, c, d))
                if key in seen:
                    continue
                sides = (frozenset((a, b)), frozenset((c, d)), frozenset((a, c)),
                         frozenset((b, d)))
                meets: dict[int, set[int]] = {}
                for x in (a, b, c, d):
                    for h in houses_of[x]:
                        meets.setdefault(h, set()).add(x)
                if sum(1 for h in meets if h in blocks) != 2:
                    continue
                caged: dict[int, set[int]] = {}
                for x in (a, b, c, d):
                    for k in shape.cages_of[x]:
                        caged.setdefault(k, set()).add(x)
                if any(len(met) == 1 or (shape.cages[k].repeats and len(met) < 4
                                         and frozenset(met) not in sides)
                       for k, met in caged.items()):
                    continue
                if all(frozenset(cells) in sides for cells in meets.values()):
                    seen.add(key)
                    out.append((a, b, c, d))
    return tuple(out)


def _is_side(quad: Quad, p: int, q: int) -> bool:
    """True when p and q are a side of the rectangle (share its row or column)."""
    a, b, c, d = quad
    return {p, q} in ({a, b}, {c, d}, {a, c}, {b, d})


def _candidate_rectangles(board: Board, shape: Shape
                          ) -> Iterator[tuple[Quad, int, list[int], list[int]]]:
    """Rectangles of unsolved cells all holding one pair {x,y}, with 2 or 3 of them
    holding only it: (rectangle, pair mask, those cells, the others)."""
    cands = board.candidates
    for quad in rectangles(shape):
        masks = [cands[x] for x in quad]
        common = masks[0] & masks[1] & masks[2] & masks[3]
        if common.bit_count() != 2:
            continue
        floor = [x for x in quad if cands[x] == common]
        if len(floor) in (2, 3):
            yield quad, common, floor, [x for x in quad if cands[x] != common]


def _two_roof_cells(board: Board, shape: Shape, side: bool = False
                    ) -> Iterator[tuple[Quad, int, list[int], int, int]]:
    """Candidate rectangles with exactly two cells beyond the pair (the roof), given as
    (rectangle, pair mask, floor cells, roof cell, roof cell); with ``side``, only those
    whose roof cells form a side of the rectangle."""
    for quad, pair, floor, roof in _candidate_rectangles(board, shape):
        if len(floor) != 2:
            continue
        p, q = roof
        if side and not _is_side(quad, p, q):
            continue
        yield quad, pair, floor, p, q


def _ur_text(quad: Quad, pair: int) -> str:
    return f"{candidates_ref(pair)} in {cells_ref(sorted(quad))}"


def _ur_highlights(board: Board, quad: Quad, pair: int,
                   elims: tuple[tuple[int, int], ...]) -> tuple[tuple[Role, int, int], ...]:
    return (tuple((Role.DEFINING, x, v) for x in quad for v in values_of(pair))
            + tuple((Role.REMOVED, c, v) for c, v in elims))


def _ur_step(board: Board, shape: Shape, name: str, quad: Quad, pair: int, floor: list[int],
             reason: str, elims: tuple[tuple[int, int], ...], *, cells: tuple[int, ...] = (),
             houses: tuple[int, ...] = (), more: tuple[tuple[Role, int, int], ...] = ()) -> Step:
    """A unique rectangle's step: its floor cells hold only the pair, then ``reason``
    (which starts with its own separator) and the removals."""
    template = (f"Unique Rectangle on {_ur_text(quad, pair)}: {cells_ref(floor)} hold only "
                f"{candidates_ref(pair)}{reason}: remove {eliminations_ref(elims)}")
    return make_step(shape, name, template, eliminations=elims, cells=quad + cells,
                     houses=houses, highlights=_ur_highlights(board, quad, pair, elims) + more)


def find_unique_rectangle_type1(board: Board, shape: Shape) -> Iterator[Step]:
    """Unique Rectangle Type 1: three corners {x,y} only; the fourth loses x and y.

    Valid only for a puzzle with exactly one solution."""
    for quad, pair, floor, roof in _candidate_rectangles(board, shape):
        if len(floor) != 3:
            continue
        target = roof[0]
        elims = tuple((target, v) for v in values_of(pair))
        yield _ur_step(board, shape, UR_TYPE_1, quad, pair, floor,
                       f", so if {cell_ref(target)} were one of them the two values could be "
                       f"swapped around the rectangle, giving a second solution", elims)


def find_unique_rectangle_type2(board: Board, shape: Shape) -> Iterator[Step]:
    """Unique Rectangle Type 2: the roof cells both {x,y,z}; z leaves cells seeing both.

    Valid only for a puzzle with exactly one solution."""
    cands = board.candidates
    peers = shape.peers
    for quad, pair, floor, p, q in _two_roof_cells(board, shape):
        extra = cands[p] & ~pair
        if cands[p] != cands[q] or extra.bit_count() != 1:
            continue
        z = extra.bit_length()
        seeing = set(peers[p]) & set(peers[q])
        elims = tuple((c, z) for c in sorted(seeing) if cands[c] & extra)
        if not elims:
            continue
        yield _ur_step(board, shape, UR_TYPE_2, quad, pair, floor,
                       f" and {cell_ref(p)}, {cell_ref(q)} hold {candidates_ref(cands[p])}; "
                       f"without {value_ref(z)} in one of them the rectangle would allow a "
                       f"second solution, so one of them is {value_ref(z)}", elims,
                       more=((Role.DEFINING, p, z), (Role.DEFINING, q, z)))


def _shared_houses(shape: Shape, p: int, q: int) -> list[int]:
    return sorted(set(shape.houses_of[p]) & set(shape.houses_of[q]))


def find_unique_rectangle_type3(board: Board, shape: Shape) -> Iterator[Step]:
    """Unique Rectangle Type 3: the roof's extra candidates, as one virtual cell, form a
    naked subset with other cells of a house holding both roof cells.

    Valid only for a puzzle with exactly one solution."""
    cands = board.candidates
    for quad, pair, floor, p, q in _two_roof_cells(board, shape, side=True):
        extra = (cands[p] | cands[q]) & ~pair
        for h in _shared_houses(shape, p, q):
            others = [c for c in shape.houses[h].cells if c not in (p, q) and cands[c]]
            for n in range(1, min(_TYPE3_MAX, len(others) - 1) + 1):
                for subset in combinations(others, n):
                    union = extra
                    for c in subset:
                        union |= cands[c]
                    if union.bit_count() != n + 1:
                        continue
                    elims = tuple((c, v) for c in others if c not in subset
                                  for v in values_of(cands[c] & union))
                    if not elims:
                        continue
                    yield _ur_step(
                        board, shape, UR_TYPE_3, quad, pair, floor,
                        f", so one of {cell_ref(p)}, {cell_ref(q)} takes a value of "
                        f"{candidates_ref(extra)}, as if one cell of {house_ref(h)} held "
                        f"{candidates_ref(extra)}; with {cells_ref(subset)} the values "
                        f"{candidates_ref(union)} fill {n + 1} cells of {house_ref(h)}", elims,
                        cells=subset, houses=(h,),
                        more=tuple((Role.DEFINING, c, v) for c in subset
                                   for v in values_of(cands[c])))


def find_unique_rectangle_type4(board: Board, shape: Shape) -> Iterator[Step]:
    """Unique Rectangle Type 4: x confined to the roof cells in a house; they lose y.

    Valid only for a puzzle with exactly one solution."""
    cands = board.candidates
    for quad, pair, floor, p, q in _two_roof_cells(board, shape, side=True):
        for h in _shared_houses(shape, p, q):
            cells = shape.houses[h].cells
            for x in values_of(pair):
                xb = bit(x)
                if any(cands[c] & xb for c in cells if c not in (p, q)):
                    continue
                y = values_of(pair & ~xb)[0]
                elims = ((p, y), (q, y))
                yield _ur_step(board, shape, UR_TYPE_4, quad, pair, floor,
                               f"; in {house_ref(h)}, {value_ref(x)} can only go in "
                               f"{cell_ref(p)} or {cell_ref(q)}, so one of them is "
                               f"{value_ref(x)} and the other being {value_ref(y)} would allow "
                               f"a second solution", elims, houses=(h,),
                               more=((Role.LINK, p, x), (Role.LINK, q, x)))


def find_bug_plus_one(board: Board, shape: Shape) -> Iterator[Step]:
    """BUG+1: all unsolved cells bivalue but one trivalue cell, which takes the value
    appearing three times in its houses.

    Valid only for a puzzle with exactly one solution, and only where houses are all
    the rules: a cage could tell the two solutions of the pattern apart."""
    if shape.cages:
        return
    values, cands = board.values, board.candidates
    triple = -1
    for c, m in enumerate(cands):
        if values[c]:
            continue
        k = m.bit_count()
        if k == 2:
            continue
        if k != 3 or triple >= 0:
            return
        triple = c
    if triple < 0:
        return
    own = set(shape.houses_of[triple])
    counts: list[list[int]] = []
    for house in shape.houses:
        tally = [0] * (shape.size + 1)
        for c in house.cells:
            for v in values_of(cands[c]):
                tally[v] += 1
        counts.append(tally)
    options = [v for v in values_of(cands[triple]) if all(counts[h][v] == 3 for h in own)]
    if len(options) != 1:
        return
    value = options[0]
    # Without that value the board must be a true BUG: every value twice or not at all.
    for h, tally in enumerate(counts):
        for v in range(1, shape.size + 1):
            n = tally[v] - (1 if v == value and h in own else 0)
            if n not in (0, 2):
                return
    others = candidates_ref(cands[triple] & ~bit(value))
    template = (f"BUG+1: every unsolved cell but {cell_ref(triple)} has two candidates, and "
                f"{value_ref(value)} appears three times in each of its houses; were "
                f"{cell_ref(triple)} {others}, every value would appear twice in every house, a "
                f"deadly pattern with no single solution: place {value_ref(value)} at "
                f"{cell_ref(triple)}")
    yield placement_step(shape, BUG_PLUS_1, template, triple, value, houses=tuple(sorted(own)))
