"""Uniqueness techniques: Unique Rectangle Types 1-6, Hidden and Avoidable Rectangles,
BUG+1.

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

One corner at least holds exactly {x,y}; the others hold both or lack one of them that
logic took away (never one a peer holds as a value): the deadly pattern is about the
solution, and the swap keeps every house of it valid. The *floor* is the corners holding
nothing beyond the pair, the *roof* the others.

* Type 1: three corners hold only {x,y}; the fourth loses x and y.
* Type 2: the roof is a side and its only value beyond the pair is z; one roof cell is
  z, so z leaves every cell seeing both. Type 5: the same with the roof on a diagonal or
  three cells.
* Type 3: the roof cells, sharing a house, have extra candidates E; one of them takes a
  value of E, so together they act as one cell holding E, which with other cells of that
  house (holding neither x nor y) may form a naked subset; a subset in one line and one
  box clears both.
* Type 4: x has no place but the roof cells among the cells seeing both; one of them is
  x, so neither can be y.
* Type 6: the roof is a diagonal and x has no place in the rectangle's rows and columns
  but its corners: x takes one diagonal, and the roof's would leave the floor y; the
  roof loses x.
* Hidden Rectangle: from a floor corner, the two lines through the opposite corner hold
  x only in the rectangle; were the opposite corner y, x would take the other two
  corners and the pattern be deadly: it loses y.
* Avoidable Rectangle: the solver's placed values (not givens) could swap as well. Type
  1: three corners placed in the pattern; the fourth loses the value completing it. Type
  2: two placed corners of a side, the other two holding the completing value and one
  more z: one of them is z. The board must know its givens (``Board.givens``).

BUG+1 (Bivalue Universal Grave): every unsolved cell has two candidates except one with
three. Without the value that appears three times in that cell's houses, every value
would appear twice in every house, and such a board has no solution or at least two
(each cell could take its other candidate instead). So that cell takes that value.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from ..model.shape import BLOCK_KINDS, HouseKind, Shape
from .board import Board, bit, for_last_board, values_of
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
UR_TYPE_5 = "Unique Rectangle Type 5"
UR_TYPE_6 = "Unique Rectangle Type 6"
HIDDEN_RECTANGLE = "Hidden Rectangle"
AR_TYPE_1 = "Avoidable Rectangle Type 1"
AR_TYPE_2 = "Avoidable Rectangle Type 2"
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


class _Rect:
    """A rectangle of unsolved cells and a pair {x,y} each of its corners may hold.

    One corner at least holds exactly {x,y}. A corner may lack x or y (logic took it
    away) as long as no peer holds it as a value: the deadly pattern is about the
    solution, which the swap would keep valid. ``floor``: corners with nothing beyond
    the pair; ``roof``: the others.
    """

    __slots__ = ("quad", "pair", "floor", "roof", "x", "y")

    def __init__(self, quad: Quad, pair: int, floor: list[int], roof: list[int]) -> None:
        self.quad = quad
        self.pair = pair
        self.floor = floor
        self.roof = roof
        self.x, self.y = values_of(pair)


@lru_cache(maxsize=64)
def _rectangles_at(shape: Shape) -> tuple[int, ...]:
    """For each cell, the rectangles of :func:`rectangles` it is a corner of, as a bit set
    of their indices: a few unions and intersections then pick the rectangles worth a
    look out of thousands (25,000 on a 25x25 grid)."""
    at = [0] * shape.ncells
    for i, quad in enumerate(rectangles(shape)):
        for c in quad:
            at[c] |= 1 << i
    return tuple(at)


def _indices(bits: int) -> Iterator[int]:
    """The positions of a bit set's ones, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def _rects(board: Board, shape: Shape) -> list[_Rect]:
    """The rectangles of unsolved cells a pair may form a deadly pattern on (see
    :class:`_Rect`), in the order of :func:`rectangles`; remembered for the latest board
    seen, which each uniqueness technique asks for in turn."""
    return for_last_board(board, "rectangles", lambda: _find_rects(board, shape))


def _find_rects(board: Board, shape: Shape) -> list[_Rect]:
    cands, values, peers = board.candidates, board.values, shape.peers
    quads, at = rectangles(shape), _rectangles_at(shape)
    # Every rectangle kept has a corner holding just its pair and no corner solved
    two = solved = 0
    for x, m in enumerate(cands):
        if values[x]:
            solved |= at[x]
        elif m.bit_count() == 2:
            two |= at[x]
    found = []
    for i in _indices(two & ~solved):
        quad = quads[i]
        masks = [cands[c] for c in quad]
        pairs = {m for m in masks if m.bit_count() == 2}
        for pair in sorted(pairs):
            ok = True
            for c, m in zip(quad, masks, strict=True):
                missing = pair & ~m
                if missing and (missing == pair or any(values[p] and bit(values[p]) & missing
                                                       for p in peers[c])):
                    ok = False
                    break
            if not ok:
                continue
            floor = [c for c, m in zip(quad, masks, strict=True) if not m & ~pair]
            if len(floor) == 4:
                continue  # a board holding a deadly pattern is broken, not for this
            found.append(_Rect(quad, pair, floor, [c for c in quad if c not in floor]))
    return found


def _ur_text(quad: Quad, pair: int) -> str:
    return f"{candidates_ref(pair)} in {cells_ref(sorted(quad))}"


def _ur_highlights(board: Board, quad: Quad, pair: int,
                   elims: tuple[tuple[int, int], ...]) -> tuple[tuple[Role, int, int], ...]:
    cands = board.candidates
    return (tuple((Role.DEFINING, x, v) for x in quad for v in values_of(pair & cands[x]))
            + tuple((Role.REMOVED, c, v) for c, v in elims))


def _ur_step(board: Board, shape: Shape, name: str, rect: _Rect, reason: str,
             elims: tuple[tuple[int, int], ...], *, cells: tuple[int, ...] = (),
             houses: tuple[int, ...] = (), more: tuple[tuple[Role, int, int], ...] = (),
             title: str = "Unique Rectangle") -> Step:
    """A unique rectangle's step: its floor cells hold only the pair, then ``reason``
    (which starts with its own separator) and the removals."""
    template = (f"{title} on {_ur_text(rect.quad, rect.pair)}: {cells_ref(rect.floor)} "
                f"{'holds' if len(rect.floor) == 1 else 'hold'} only "
                f"{candidates_ref(rect.pair)}{reason}: remove "
                f"{eliminations_ref(elims)}")
    return make_step(shape, name, template, eliminations=elims, cells=rect.quad + cells,
                     houses=houses,
                     highlights=_ur_highlights(board, rect.quad, rect.pair, elims) + more)


def _present(board: Board, cells: Iterable[int], mask: int) -> tuple[tuple[int, int], ...]:
    """The candidates of ``mask`` in ``cells``, as eliminations."""
    cands = board.candidates
    return tuple((c, v) for c in cells for v in values_of(cands[c] & mask))


def _seeing_all(shape: Shape, cells: Sequence[int]) -> list[int]:
    peers = shape.peers
    common = set(peers[cells[0]])
    for c in cells[1:]:
        common &= set(peers[c])
    return sorted(common)


def find_unique_rectangle_type1(board: Board, shape: Shape) -> Iterator[Step]:
    """Unique Rectangle Type 1: three corners {x,y} only; the fourth loses x and y.

    Valid only for a puzzle with exactly one solution."""
    for rect in _rects(board, shape):
        if len(rect.floor) != 3:
            continue
        target = rect.roof[0]
        elims = _present(board, (target,), rect.pair)
        if elims:
            yield _ur_step(board, shape, UR_TYPE_1, rect,
                           f", so if {cell_ref(target)} were one of them the two values "
                           f"could be swapped around the rectangle, giving a second solution",
                           elims)


def _one_extra(board: Board, shape: Shape, diagonal: bool) -> Iterator[Step]:
    """Types 2 and 5: the roof cells' only value beyond the pair is z, so one of them is
    z, and z leaves every cell seeing all of them. Type 2 when the roof is a side of the
    rectangle, Type 5 when it is a diagonal or three cells."""
    cands = board.candidates
    for rect in _rects(board, shape):
        roof = rect.roof
        if len(roof) not in (2, 3):
            continue
        extra = 0
        for c in roof:
            extra |= cands[c] & ~rect.pair
        if extra.bit_count() != 1:
            continue
        side = len(roof) == 2 and _is_side(rect.quad, roof[0], roof[1])
        if side == diagonal:
            continue
        z = extra.bit_length()
        elims = _present(board, _seeing_all(shape, roof), extra)
        if not elims:
            continue
        yield _ur_step(board, shape, UR_TYPE_5 if diagonal else UR_TYPE_2, rect,
                       f" and {cells_ref(roof)} hold {candidates_ref(rect.pair | extra)}; "
                       f"without {value_ref(z)} in one of them the rectangle would allow a "
                       f"second solution, so one of them is {value_ref(z)}", elims,
                       more=tuple((Role.DEFINING, c, z) for c in roof))


def find_unique_rectangle_type2(board: Board, shape: Shape) -> Iterator[Step]:
    """Unique Rectangle Type 2: the two roof cells of a side hold one value z beyond the
    pair; z leaves cells seeing both.

    Valid only for a puzzle with exactly one solution."""
    return _one_extra(board, shape, False)


def find_unique_rectangle_type5(board: Board, shape: Shape) -> Iterator[Step]:
    """Unique Rectangle Type 5: diagonal (or three) roof cells hold one value z beyond the
    pair; z leaves cells seeing all of them.

    Valid only for a puzzle with exactly one solution."""
    return _one_extra(board, shape, True)


def _shared_houses(shape: Shape, p: int, q: int) -> list[int]:
    return sorted(set(shape.houses_of[p]) & set(shape.houses_of[q]))


def _side_roofs(board: Board, shape: Shape) -> Iterator[tuple[_Rect, int, int]]:
    for rect in _rects(board, shape):
        if len(rect.roof) == 2 and _is_side(rect.quad, *rect.roof):
            yield rect, rect.roof[0], rect.roof[1]


def find_unique_rectangle_type3(board: Board, shape: Shape) -> Iterator[Step]:
    """Unique Rectangle Type 3: the roof's extra candidates, as one virtual cell, form a
    naked subset with cells of a house holding both roof cells that hold neither value
    of the pair; in a line whose subset lies in one box, the box loses them too.

    Valid only for a puzzle with exactly one solution."""
    cands, values = board.candidates, board.values
    block_of = {c: h for h, house in enumerate(shape.houses) if house.kind in BLOCK_KINDS
                for c in house.cells}
    for rect, p, q in _side_roofs(board, shape):
        extra = (cands[p] | cands[q]) & ~rect.pair
        corners = set(rect.quad)
        for h in _shared_houses(shape, p, q):
            house = shape.houses[h]
            line = house.kind in (HouseKind.ROW, HouseKind.COLUMN)
            others = [c for c in house.cells if c not in corners and cands[c]
                      and not cands[c] & rect.pair]
            for n in range(1, min(_TYPE3_MAX, len(others)) + 1):
                for subset in combinations(others, n):
                    union = extra
                    for c in subset:
                        union |= cands[c]
                    if union.bit_count() != n + 1:
                        continue
                    members = {p, q, *subset}
                    if not line and _in_line(shape, members):
                        continue  # the same subset as the line's
                    targets = [c for c in house.cells if c not in members and not values[c]]
                    box = {block_of.get(c) for c in members}
                    if line and len(box) == 1 and None not in box:
                        b = box.pop()
                        assert b is not None
                        targets += [c for c in shape.houses[b].cells
                                    if c not in members and not values[c] and c not in targets]
                    elims = _present(board, sorted(targets), union)
                    if not elims:
                        continue
                    yield _ur_step(
                        board, shape, UR_TYPE_3, rect,
                        f", so one of {cell_ref(p)}, {cell_ref(q)} takes a value of "
                        f"{candidates_ref(extra)}, as if one cell of {house_ref(h)} held "
                        f"{candidates_ref(extra)}; with {cells_ref(subset)} the values "
                        f"{candidates_ref(union)} fill {n + 1} cells of {house_ref(h)}", elims,
                        cells=subset, houses=(h,),
                        more=tuple((Role.DEFINING, c, v) for c in subset
                                   for v in values_of(cands[c])))


def _in_line(shape: Shape, cells: set[int]) -> bool:
    rows = {shape.coords[c][0] for c in cells}
    cols = {shape.coords[c][1] for c in cells}
    return len(rows) == 1 or len(cols) == 1


def find_unique_rectangle_type4(board: Board, shape: Shape) -> Iterator[Step]:
    """Unique Rectangle Type 4: x has no place but the roof cells among the cells seeing
    both; one of them is x, so neither can be y.

    Valid only for a puzzle with exactly one solution."""
    cands = board.candidates
    for rect, p, q in _side_roofs(board, shape):
        seeing = _seeing_all(shape, [p, q])
        for x, y in ((rect.x, rect.y), (rect.y, rect.x)):
            if any(cands[c] & bit(x) for c in seeing):
                continue
            elims = _present(board, (p, q), bit(y))
            if not elims:
                continue
            shared = _shared_houses(shape, p, q)
            where = " and ".join(house_ref(h) for h in shared)
            yield _ur_step(board, shape, UR_TYPE_4, rect,
                           f"; in {where}, {value_ref(x)} can only go in {cell_ref(p)} or "
                           f"{cell_ref(q)}, so one of them is {value_ref(x)} and the other "
                           f"being {value_ref(y)} would allow a second solution",
                           elims, houses=tuple(shared),
                           more=((Role.LINK, p, x), (Role.LINK, q, x)))
            break


def _lines_through(shape: Shape, quad: Quad) -> set[int]:
    """The cells of the rows and columns through the rectangle."""
    out: set[int] = set()
    for c in quad:
        for h in shape.houses_of[c]:
            if shape.houses[h].kind in (HouseKind.ROW, HouseKind.COLUMN):
                out.update(shape.houses[h].cells)
    return out


def find_unique_rectangle_type6(board: Board, shape: Shape) -> Iterator[Step]:
    """Unique Rectangle Type 6: the roof cells lie on a diagonal and x has no place in the
    rectangle's rows and columns but its corners; x then takes one diagonal, and the
    roof's would leave the floor y, a deadly pattern: the roof cells lose x.

    Valid only for a puzzle with exactly one solution."""
    cands = board.candidates
    for rect in _rects(board, shape):
        if len(rect.roof) != 2 or _is_side(rect.quad, *rect.roof):
            continue
        around = _lines_through(shape, rect.quad) - set(rect.quad)
        for x in (rect.x, rect.y):
            if any(cands[c] & bit(x) for c in around):
                continue
            elims = _present(board, rect.roof, bit(x))
            if elims:
                yield _ur_step(board, shape, UR_TYPE_6, rect,
                               f"; in the rectangle's rows and columns {value_ref(x)} can "
                               f"only go in its corners, so on one of its diagonals, and on "
                               f"{cells_ref(rect.roof)} it would leave {cells_ref(rect.floor)} "
                               f"the other value, a second solution", elims)
                break


def _line_of(shape: Shape, a: int, b: int) -> list[int]:
    """The row or column holding both cells."""
    for h in _shared_houses(shape, a, b):
        if shape.houses[h].kind in (HouseKind.ROW, HouseKind.COLUMN):
            return list(shape.houses[h].cells)
    return []


def find_hidden_rectangle(board: Board, shape: Shape) -> Iterator[Step]:
    """Hidden Rectangle: from a floor corner, the opposite corner's row and column hold x
    only in the rectangle; were the opposite corner y, x would fill the other two and a
    deadly pattern follow: it loses y.

    Valid only for a puzzle with exactly one solution."""
    cands = board.candidates
    for rect in _rects(board, shape):
        if len(rect.floor) not in (1, 2):
            continue
        if len(rect.floor) == 2 and _is_side(rect.quad, *rect.floor):
            continue
        a, b, c, d = rect.quad
        opposite = {a: d, d: a, b: c, c: b}
        corners = set(rect.quad)
        for corner in rect.floor:
            far = opposite[corner]
            sides = [x for x in rect.quad if x not in (corner, far)]
            lines = [_line_of(shape, far, s) for s in sides]
            for x, y in ((rect.x, rect.y), (rect.y, rect.x)):
                if any(cands[k] & bit(x) for line in lines for k in line if k not in corners):
                    continue
                elims = _present(board, (far,), bit(y))
                if elims:
                    yield _ur_step(
                        board, shape, HIDDEN_RECTANGLE, rect,
                        f"; in the two lines through {cell_ref(far)}, {value_ref(x)} can "
                        f"only go in the rectangle, so {cell_ref(far)} being {value_ref(y)} "
                        f"would put {value_ref(x)} in {cells_ref(sides)} and leave a second "
                        f"solution", elims, title="Hidden Rectangle")


def _avoidable(board: Board, shape: Shape
               ) -> Iterator[tuple[int, Quad, str, tuple[tuple[int, int], ...]]]:
    """Avoidable rectangles: corners the solver placed (not givens) could swap just as
    unsolved ones could, so the placed values too must not complete a deadly pattern."""
    givens = board.givens
    if givens is None:
        return
    values, cands = board.values, board.candidates
    quads, at = rectangles(shape), _rectangles_at(shape)
    # Only rectangles with two corners placed by the solver, one open and none given
    once = twice = given = unsolved = 0
    for x, v in enumerate(values):
        if not v:
            unsolved |= at[x]
        elif givens >> x & 1:
            given |= at[x]
        else:
            twice |= once & at[x]
            once |= at[x]
    for i in _indices(twice & unsolved & ~given):
        quad = quads[i]
        a, b, c, d = quad
        placed = [x for x in quad if values[x]]
        # the pattern: a and d hold one value, b and c the other
        one, two = (a, d), (b, c)
        vx = {values[x] for x in one if values[x]}
        vy = {values[x] for x in two if values[x]}
        if len(vx) > 1 or len(vy) > 1 or (vx and vy and vx == vy):
            continue
        open_ = [x for x in quad if not values[x]]
        if len(open_) == 1 and vx and vy:
            t = open_[0]
            need = next(iter(vx if t in one else vy))
            elims = _present(board, (t,), bit(need))
            if elims:
                yield 1, quad, (f"{cells_ref(placed)} were placed, not given; "
                                f"{cell_ref(t)} being {value_ref(need)} would let the four "
                                f"swap values"), elims
        elif len(open_) == 2 and vx and vy and _is_side(quad, *open_):
            p, q = open_
            np_ = next(iter(vx if p in one else vy))
            nq = next(iter(vx if q in one else vy))
            rest_p, rest_q = cands[p] & ~bit(np_), cands[q] & ~bit(nq)
            if (cands[p].bit_count() != 2 or cands[q].bit_count() != 2
                    or not cands[p] & bit(np_) or not cands[q] & bit(nq)
                    or rest_p != rest_q):
                continue
            z = rest_p.bit_length()
            elims = _present(board, _seeing_all(shape, [p, q]), rest_p)
            if elims:
                yield 2, quad, (f"{cells_ref(placed)} were placed, not given; "
                                f"{cell_ref(p)} {value_ref(np_)} and {cell_ref(q)} "
                                f"{value_ref(nq)} would let the four swap values, so one "
                                f"of them is {value_ref(z)}"), elims


def _ar_steps(board: Board, shape: Shape, kind: int, name: str) -> Iterator[Step]:
    for k, quad, reason, elims in _avoidable(board, shape):
        if k == kind:
            yield make_step(shape, name,
                            f"Avoidable Rectangle on {cells_ref(sorted(quad))}: {reason}: "
                            f"remove {eliminations_ref(elims)}",
                            eliminations=elims, cells=quad,
                            highlights=tuple((Role.REMOVED, c, v) for c, v in elims))


def find_avoidable_rectangle_type1(board: Board, shape: Shape) -> Iterator[Step]:
    """Avoidable Rectangle Type 1: three corners placed by the solver (not givens) in a
    pattern the fourth would complete: it loses that value.

    Valid only for a puzzle with exactly one solution, whose givens the board knows."""
    return _ar_steps(board, shape, 1, AR_TYPE_1)


def find_avoidable_rectangle_type2(board: Board, shape: Shape) -> Iterator[Step]:
    """Avoidable Rectangle Type 2: two placed corners, the other two holding the value
    that would complete the pattern and one more value z: one is z.

    Valid only for a puzzle with exactly one solution, whose givens the board knows."""
    return _ar_steps(board, shape, 2, AR_TYPE_2)


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
