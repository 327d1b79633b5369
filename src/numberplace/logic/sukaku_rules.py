"""SukakuExplainer's strong-linked fish and ALS wings, found its way.

SukakuExplainer's default technique set (the ``sukaku`` scale, see
:data:`numberplace.arguments.SCALES`) adds two families to Sudoku Explainer's:

- **Strong-linked fish** (:func:`strong_links`): a chain of two, three or four strong
  links on one value, each a house where the value has two places (or two groups of
  places: in a line, the places of two of its three boxes; in a box, the places of one
  row and one column of the box with none outside them, the "empty rectangle", or of
  two of its rows or columns), joined end to end by houses that hold both ends they
  join. The value goes from every cell that sees both ends of the chain, outside the
  houses used; a chain whose ends share a house is a loop, and then the value goes
  from every cell that sees both ends of any of its joins. Valued by the number of
  links (4.0, 5.4, 5.8 for two, three and four), plus 0.1 where the links are lines of
  both directions or a box and parallel lines, 0.2 where they are a box and lines of
  both directions, 0.3 where a link is a group: the two-link ones are the Skyscraper
  (4.0), the 2-String Kite and the Turbot Fish (4.1).
- **ALS wings** (:func:`als_wing`): a set of three to six cells of one house holding
  one value more than it has cells, and a cell of two values, both among the set's,
  seeing every cell of the set that holds one of them (the restricted value): the
  other value goes from every cell that sees the pair cell and all the set's cells
  that hold it. Where both values are restricted, the set's other values go too from
  every cell that sees all the set's cells holding them. WXYZ (three cells: 5.5, or
  5.6 where the fullest cell of the set holds three values), VWXYZ (four cells: 6.2 to
  6.4, 6.4 for a fullest cell of three), UVWXYZ (five: 6.6) and TUVWXYZ (six: 7.5).

Of all the things a rule finds on a board, the Explainer takes the cheapest, then the
one that removes the most candidates, then by a name of its own for the pattern; ties
go to the one it finds first, as here. Both rules read the rows, columns and 3x3 boxes
of a 9x9 grid (a diagonal or other extra house takes no part); on grids without them
they find nothing. Each returns a :class:`~.xchain.Hint`, or None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..model.shape import HouseKind, Shape
from .board import Board, bit, values_of
from .geometry import ones
from .xchain import Hint

#: A strong-linked fish's value by its number of links, before the pattern's extra.
STRONG_LINKS = {2: 4.0, 3: 5.4, 4: 5.8}
#: The ALS wings' names by the number of cells in the set.
WINGS = {3: "WXYZ-Wing", 4: "VWXYZ-Wing", 5: "UVWXYZ-Wing", 6: "TUVWXYZ-Wing"}

BOX, ROW, COLUMN = 0, 1, 2  # the kinds of link, in the Explainer's order

# a box's cells 0-8 in reading order. Each arrangement of a box's places: the cells that
# must be empty, and the two parts ("blades") the places then fall in. 0-8: around the
# "heart" cell of that number, the blades its column and its row (heart left out), the
# four cells off both empty; 9-14: two of the box's rows (then columns), the third empty
_BOX_EMPTY = ((4, 5, 7, 8), (3, 5, 6, 8), (3, 4, 6, 7), (1, 2, 7, 8), (0, 2, 6, 8),
              (0, 1, 6, 7), (1, 2, 4, 5), (0, 2, 3, 5), (0, 1, 3, 4), (6, 7, 8), (3, 4, 5),
              (0, 1, 2), (2, 5, 8), (1, 4, 7), (0, 3, 6))
_BOX_BLADES = (((3, 6), (1, 2)), ((4, 7), (0, 2)), ((5, 8), (0, 1)), ((0, 6), (4, 5)),
               ((1, 7), (3, 5)), ((2, 8), (3, 4)), ((0, 3), (7, 8)), ((1, 4), (6, 8)),
               ((2, 5), (6, 7)), ((0, 1, 2), (3, 4, 5)), ((0, 1, 2), (6, 7, 8)),
               ((3, 4, 5), (6, 7, 8)), ((0, 3, 6), (1, 4, 7)), ((0, 3, 6), (2, 5, 8)),
               ((1, 4, 7), (2, 5, 8)))
# a line's cells 0-8: one box's three empty, the places in the other two
_LINE_EMPTY = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
_LINE_BLADES = (((3, 4, 5), (6, 7, 8)), ((0, 1, 2), (6, 7, 8)), ((0, 1, 2), (3, 4, 5)))


def _mask(cells: tuple[int, ...]) -> int:
    return sum(1 << c for c in cells)


class _Grid:
    """A 9x9 shape's rows, columns and 3x3 boxes as the Explainer numbers them: each
    kind's houses, each house's cells in its order, each cell's peers as a bit set."""

    def __init__(self, shape: Shape) -> None:
        pos = shape.coords
        self.row = [r for r, _ in pos]
        self.col = [c for _, c in pos]
        self.box = [3 * (r // 3) + c // 3 for r, c in pos]
        at = {p: i for i, p in enumerate(pos)}
        self.houses = (
            [tuple(at[(3 * (b // 3) + i // 3, 3 * (b % 3) + i % 3)] for i in range(9))
             for b in range(9)],
            [tuple(at[(r, c)] for c in range(9)) for r in range(9)],
            [tuple(at[(r, c)] for r in range(9)) for c in range(9)])
        self.house_mask = [[_mask(h) for h in kind] for kind in self.houses]
        self.peers = [0] * 81
        for kind in self.houses:
            for h in kind:
                m = _mask(h)
                for c in h:
                    self.peers[c] |= m
        for c in range(81):
            self.peers[c] &= ~(1 << c)

    def lines(self, cells: tuple[int, ...]) -> tuple[int, int, int]:
        """The column, row and box that hold all ``cells`` (-1 where none does)."""
        first = cells[0]
        out = []
        for where in (self.col, self.row, self.box):
            out.append(where[first] if all(where[c] == where[first] for c in cells) else -1)
        return out[0], out[1], out[2]

    def share(self, one: tuple[int, int, int], two: tuple[int, int, int]
              ) -> tuple[int, int] | None:
        """The house holding two groups of cells (given by :meth:`lines`), as (kind,
        index): a column first, then a row, then a box, as the Explainer looks."""
        for kind, a, b in zip((COLUMN, ROW, BOX), one, two, strict=True):
            if a >= 0 and a == b:
                return kind, a
        return None

    def seen_by_all(self, cells: tuple[int, ...]) -> int:
        """The cells that see every one of ``cells``."""
        out = (1 << 81) - 1
        for c in cells:
            out &= self.peers[c]
        return out


@lru_cache(maxsize=16)
def _grid(shape: Shape) -> _Grid | None:
    """The shape's rows, columns and boxes, where it is a 9x9 grid of 3x3 boxes."""
    if len(shape.coords) != 81 or shape.size != 9:
        return None
    if sorted(shape.coords) != [(r, c) for r in range(9) for c in range(9)]:
        return None
    boxes = sorted(tuple(sorted(h.cells)) for h in shape.houses if h.kind is HouseKind.BOX)
    grid = _Grid(shape)
    if boxes != sorted(tuple(sorted(h)) for h in grid.houses[BOX]):
        return None
    return grid


# -- strong-linked fish -----------------------------------------------------------------

@dataclass(frozen=True)
class _Link:
    """One strong link: its house (kind, index), which of the house's links it is, the
    cells of its two ends (a group where it is grouped), and the house's places."""

    kind: int
    index: int
    option: int
    ends: tuple[tuple[int, ...], tuple[int, ...]]
    grouped: bool
    places: int
    #: each end's column, row and box (see :meth:`_Grid.lines`)
    lines: tuple[tuple[int, int, int], tuple[int, int, int]]


def _links(grid: _Grid, cands: Sequence[int], value: int) -> list[_Link]:
    """Every strong link on ``value``, houses in the Explainer's order."""
    b = bit(value)
    out: list[_Link] = []
    for kind in (BOX, ROW, COLUMN):
        for index, house in enumerate(grid.houses[kind]):
            local = [i for i, c in enumerate(house) if cands[c] & b]
            places = sum(1 << house[i] for i in local)
            for option, (ends, grouped) in enumerate(_house_links(grid, kind, house, local)):
                one, two = tuple(house[i] for i in ends[0]), tuple(house[i] for i in ends[1])
                out.append(_Link(kind, index, option, (one, two), grouped, places,
                                 (grid.lines(one), grid.lines(two))))
    return out


def _house_links(grid: _Grid, kind: int, house: tuple[int, ...], local: list[int]
                 ) -> list[tuple[tuple[tuple[int, ...], tuple[int, ...]], bool]]:
    """The strong links of one house whose places are ``local`` (positions 0-8 in the
    house), as pairs of ends (positions, the end's first cell first) and whether they
    are groups."""
    count = len(local)
    if count < 2 or count > 6:
        return []
    if count == 2:
        a, c = house[local[0]], house[local[1]]
        if kind == BOX and (grid.row[a] == grid.row[c] or grid.col[a] == grid.col[c]):
            return []  # a box's pair in one line is that line's link
        return [(((local[0],), (local[1],)), False)]
    places = sum(1 << i for i in local)
    arrangement = None
    for e in range(15 if kind == BOX else 3):
        if e > 8 and count < 4:
            continue
        empty = _BOX_EMPTY[e] if kind == BOX else _LINE_EMPTY[e]
        if not places & _mask(empty):
            # the first arrangement that fits is the one taken, whether or not it links
            arrangement = e
            break
    if arrangement is None:
        return []
    e = arrangement
    blades = _BOX_BLADES[e] if kind == BOX else _LINE_BLADES[e]
    one = [i for i in blades[0] if places >> i & 1]
    two = [i for i in blades[1] if places >> i & 1]
    if not one or not two:
        return []
    heart = kind == BOX and e < 9
    found: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    if len(one) == 1 or len(two) == 1:
        if len(one) == 1:
            if len(two) == 1:
                # one place in each blade and the heart: the Explainer links the row's
                # blade cell to the column's blade cell with the heart, once
                return [(((two[0],), (one[0], e)), True)]
            found.append(((one[0],), (two[0], e, *two[1:2]) if heart else tuple(two[:3])))
        if len(two) == 1:
            found.append(((two[0],), (one[0], e, *one[1:2]) if heart else tuple(one[:3])))
        return [(f, True) for f in found]
    first, second = tuple(one[:3]), tuple(two[:3])

    def same_line(p: int, q: int) -> bool:
        return (grid.row[house[p]] == grid.row[house[q]]
                or grid.col[house[p]] == grid.col[house[q]])

    if e > 8 and count == 4 and same_line(first[1], second[1]) and same_line(first[0], second[0]):
        # four places at a rectangle's corners: linked by rows and by columns
        return [((first, second), True), (((one[0], two[0]), (one[1], two[1])), True)]
    if heart and places >> e & 1:
        first = first + (e,) if len(one) == 2 else first
        second = second + (e,) if len(two) == 2 else second
    return [((first, second), True)]


def _is_lex(seq: tuple[int, ...]) -> bool:
    s = "".join(map(str, seq))
    return s <= s[::-1]


def _line_names(kinds: tuple[int, ...]) -> str:
    """The Explainer's name of a chain's kinds of link: the lines renamed so that the
    name is the least of the ways to write it."""
    original = "".join(map(str, kinds))
    if ROW not in kinds:
        return original.replace("2", "1")
    swap = {ROW: "2", COLUMN: "1"}
    current = "".join(swap.get(k, str(k)) for k in kinds)
    reverse = current[::-1]
    return min(original, min(reverse, current))


@lru_cache(maxsize=8)
def _quickperm(n: int) -> dict[tuple[int, ...], int]:
    """The permutations of ``range(n)`` the Explainer tries, in its order (those no
    greater than their reverse, as written), each with its rank."""
    q, r = list(range(n)), list(range(n + 1))
    out = [tuple(q)]
    s = 1
    while s < n:
        r[s] -= 1
        t = s % 2 * r[s]
        q[t], q[s] = q[s], q[t]
        out.append(tuple(q))
        s = 1
        while r[s] == 0:
            r[s] = s
            s += 1
    kept = [p for p in out if _is_lex(p)]
    return {p: i for i, p in enumerate(kept)}


def strong_links(board: Board, degree: int) -> Hint | None:
    """The Explainer's strong-linked fish of ``degree`` links on ``board`` (see the
    module docs), or None."""
    grid = _grid(board.shape)
    if grid is None:
        return None
    cands = board.candidates
    found: list[tuple[float, int, str, tuple[object, ...], Hint]] = []
    base = STRONG_LINKS[degree]
    for value, (links, joins) in enumerate(_linked(grid, tuple(cands)), 1):
        board.memo.check_time()
        if len(links) < degree:
            continue
        b = bit(value)
        for chain in _chains(links, joins, degree):
            hint = _chain_hint(grid, cands, b, links, chain, base, degree)
            if hint is not None:
                found.append(hint)
    if not found:
        return None
    return min(found, key=lambda f: (f[0], -f[1], f[2], f[3]))[4]


@lru_cache(maxsize=4)
def _linked(grid: _Grid, cands: tuple[int, ...]
            ) -> list[tuple[list[_Link], dict[tuple[int, int], list[tuple[int, int]]]]]:
    """Each value's links and joins on a board: the Explainer looks for two, three and
    four links in turn on a board where nothing between them is found, and the links
    are the same each time (a third of the time of the search)."""
    out = []
    for value in range(1, 10):
        links = _links(grid, cands, value)
        out.append((links, _joins(grid, links)))
    return out


def _joins(grid: _Grid, links: list[_Link]) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """For each link and end it leaves by, the links and ends a house joins it to."""
    # the ends by the column, row and box that hold them all
    holding: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for j, c in enumerate(links):
        for s in (0, 1):
            for kind, where in enumerate(c.lines[s]):
                if where >= 0:
                    holding.setdefault((kind, where), set()).add((j, s))
    out: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for i, a in enumerate(links):
        for side in (0, 1):
            near: set[tuple[int, int]] = set()
            for kind, where in enumerate(a.lines[side]):
                if where >= 0:
                    near |= holding[(kind, where)]
            out[(i, side)] = sorted((j, s) for j, s in near
                                    if j != i and not a.places & links[j].places)
    return out


def _chains(links: list[_Link], joins: dict[tuple[int, int], list[tuple[int, int]]],
            degree: int) -> list[list[tuple[int, int]]]:
    """Every chain of ``degree`` links with houses apart, as (link, end entered) pairs."""
    out: list[list[tuple[int, int]]] = []

    def extend(path: list[tuple[int, int]], used: int) -> None:
        if len(path) == degree:
            out.append(list(path))
            return
        i, entered = path[-1]
        for j, s in joins[(i, 1 - entered)]:
            if not links[j].places & used:
                path.append((j, s))
                extend(path, used | links[j].places)
                path.pop()

    for i, link in enumerate(links):
        for side in (0, 1):
            extend([(i, side)], link.places)
    return out


def _chain_hint(grid: _Grid, cands: list[int], b: int, links: list[_Link],
                chain: list[tuple[int, int]], base: float, degree: int
                ) -> tuple[float, int, str, tuple[object, ...], Hint] | None:
    """The hint of one chain as the Explainer writes it (or None where it writes it
    another way round, or it removes nothing): value, removals counted, pattern name,
    the Explainer's order of finding, and the hint."""
    used = [links[i] for i, _ in chain]
    by_depth = sorted(range(degree), key=lambda w: (used[w].kind, used[w].index))
    depth = [0] * degree
    for d, w in enumerate(by_depth):
        depth[w] = d
    q = tuple(depth)
    if not _is_lex(q):
        return None  # written the other way round
    u = tuple(s for _, s in chain)
    start, end = used[0].ends[u[0]], used[-1].ends[1 - u[-1]]
    houses = 0
    for link in used:
        houses |= grid.house_mask[link.kind][link.index]
    shared = []
    for w in range(degree - 1):
        exit_, entry = used[w].ends[1 - u[w]], used[w + 1].ends[u[w + 1]]
        kind, index = grid.share(used[w].lines[1 - u[w]],  # type: ignore[misc]
                                 used[w + 1].lines[u[w + 1]])
        shared.append((exit_, entry, grid.house_mask[kind][index]))
    ring = grid.share(used[0].lines[u[0]], used[-1].lines[1 - u[-1]]) is not None
    removals: set[int] = set()
    counted = 0
    if ring:
        full = [(link.kind * 10 + link.index) for link in used]
        if full[0] != min(full) or u[0] != 0:
            return None  # another of the loop's ways round is the one written
        for one, two in [(start, end), *[(x, y) for x, y, _ in shared]]:
            victims = grid.seen_by_all(one + two) & ~houses
            hits = [c for c in ones(victims) if cands[c] & b]
            counted += len(hits)
            removals.update(hits)
    else:
        victims = grid.seen_by_all(start + end) & ~houses
        for _, _, mask in shared:
            victims &= ~mask
        hits = [c for c in ones(victims) if cands[c] & b]
        counted = len(hits)
        removals.update(hits)
    if not removals:
        return None
    kinds = tuple(link.kind for link in used)
    grouped = sum(link.grouped for link in used)
    suffix = str(grouped) + _line_names(kinds if _is_lex(kinds) else kinds[::-1])
    lines = suffix[1:]
    if grouped:
        value = base + 0.3
    elif "0" not in lines and "2" not in lines:
        value = base
    elif "0" in lines and "2" in lines:
        value = base + 0.2
    else:
        value = base + 0.1
    name = _fish_name(degree, lines, grouped, ring)
    v = b.bit_length()
    # found by kinds of link (as binary numbers, smallest first), value, houses and
    # links in the houses' order, then the order of the links and their directions
    order = (tuple(sorted(kinds)[::-1]), v,
             tuple((used[w].index, used[w].option) for w in by_depth),
             _quickperm(degree)[q], u)
    return (value, counted, suffix, order,
            Hint(round(value, 1), 0, 0, name, tuple(sorted((c, v) for c in removals))))


def _fish_name(degree: int, lines: str, grouped: int, ring: bool) -> str:
    if ring:
        return f"{'Grouped ' if grouped else ''}X-Loop ({degree} strong links)"
    if "0" not in lines and "2" not in lines:
        name = "Skyscraper" if degree == 2 else f"{degree} Skyscrapers"
    elif "0" not in lines and degree < 4:
        name = f"{degree}-String Kite"
    elif degree == 2:
        name = "Turbot Fish"
    else:
        name = f"{degree} Strong Links"
    return f"Grouped {name}" if grouped else name


# -- ALS wings ----------------------------------------------------------------------------

def _wing_value(size: int, biggest: int) -> float:
    if size == 3:
        return 5.5 + ((4 - 3) - abs(3 - biggest)) * 0.1
    if size == 4:
        return 6.2 + ((5 - 3) - abs(3 - biggest)) * 0.1
    return 6.6 if size == 5 else 7.5


def als_wing(board: Board, size: int) -> Hint | None:
    """The Explainer's ALS wing of a set of ``size`` cells (3-6) on ``board`` (see the
    module docs), or None."""
    grid = _grid(board.shape)
    if grid is None:
        return None
    cands = board.candidates
    found: list[tuple[float, int, str, Hint]] = []
    for cells, union in _almost_locked(grid, cands, size):
        board.memo.check_time()
        near = 0
        for c in cells:
            near |= grid.peers[c]
        near &= ~_mask(cells)
        for pair in ones(near):
            yz = cands[pair]
            if yz.bit_count() != 2 or yz & union != yz:
                continue
            x, z = yz & -yz, yz & (yz - 1)
            restricted = [all(grid.peers[pair] >> c & 1 for c in cells if cands[c] & d)
                          for d in (x, z)]
            if restricted[0]:
                hint = _wing_hint(grid, cands, cells, union, pair, x, z, restricted[1], size)
            elif restricted[1]:
                hint = _wing_hint(grid, cands, cells, union, pair, z, x, False, size)
            else:
                continue
            if hint is not None:
                found.append(hint)
    if not found:
        return None
    # cheapest, then most removals, then the greatest pattern name; else first found
    found.sort(key=lambda f: f[2], reverse=True)
    found.sort(key=lambda f: (f[0], -f[1]))
    return found[0][3]


def _almost_locked(grid: _Grid, cands: list[int], size: int
                   ) -> list[tuple[tuple[int, ...], int]]:
    """Sets of ``size`` cells that all see each other and hold ``size`` + 1 values, each
    cell two or more, in the Explainer's order: by their cells, lowest first."""
    limit = size + 2
    forward = [grid.peers[c] & ~((1 << (c + 1)) - 1) for c in range(81)]
    out: list[tuple[tuple[int, ...], int]] = []

    def grow(cells: tuple[int, ...], union: int, common: int) -> None:
        if len(cells) == size:
            if union.bit_count() == size + 1:
                out.append((cells, union))
            return
        for c in ones(common):
            m = cands[c]
            u = union | m
            if m.bit_count() > 1 and u.bit_count() < limit:
                grow(cells + (c,), u, common & forward[c])

    for c in range(81):
        m = cands[c]
        if 1 < m.bit_count() < limit:
            grow((c,), m, forward[c])
    return out


def _wing_hint(grid: _Grid, cands: list[int], cells: tuple[int, ...], union: int, pair: int,
               x: int, z: int, double: bool, size: int
               ) -> tuple[float, int, str, Hint] | None:
    """The wing's hint: restricted value ``x``, ``z`` removed, and where ``double`` the
    set's other values and ``x`` too."""
    removals: dict[int, int] = {}
    counted = 0

    def remove(d: int, with_pair: bool) -> bool:
        nonlocal counted
        holders = tuple(c for c in cells if cands[c] & d)
        victims = grid.seen_by_all(holders + ((pair,) if with_pair else ()))
        victims &= ~_mask(cells) & ~(1 << pair)
        hits = [c for c in ones(victims) if cands[c] & d]
        for c in hits:
            removals[c] = removals.get(c, 0) | d
        counted += len(hits)
        return bool(hits)

    weak = strong_x = False
    if double:
        others = union & ~(x | z)
        for d in (others & -others, others & (others - 1)):
            weak = remove(d, False) or weak
        strong_x = remove(x, True)
    strong_z = remove(z, True)
    if not removals:
        return None
    if double and (not weak and not strong_z or not strong_x):
        double = False
    biggest = max(cands[c].bit_count() for c in cells)
    span = sum(cands[c].bit_count() for c in cells)
    value = _wing_value(size, biggest)
    suffix = f"{2 if double else 1}{biggest}{span}"
    pairs = tuple(sorted((c, v) for c, m in removals.items() for v in values_of(m)))
    return value, counted, suffix, Hint(round(value, 1), 0, 0, WINGS[size], pairs)


