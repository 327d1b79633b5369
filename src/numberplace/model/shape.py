"""Grid shapes: cells, houses and peers of every puzzle layout numberplace knows.

A :class:`Shape` is pure geometry. Cells are numbered ``0 .. len(cells)-1`` in reading order
of a drawing *canvas*; a *house* is a group of cells that holds every symbol exactly once
(row, column, box, jigsaw region, diagonal); the *peers* of a cell are the other cells
that share a house with it. Everything else in numberplace speaks of houses, so one routine
serves classic grids of any size, jigsaw, diagonal and Samurai alike.

Shapes are built once and cached: ``classic(9) is classic(9)``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from enum import Enum
from functools import cache, cached_property, lru_cache

from .._frozen import Frozen
from ..arguments import text, whole
from ..errors import ShapeError

#: Largest number of symbols a house may hold (candidates are kept in 32-bit masks).
MAX_SIZE = 31

#: Top-left corners (row, column) of the five grids of a Samurai on its 21x21 canvas,
#: in the order of the five-line format: top-left, top-right, centre, bottom-left,
#: bottom-right.
SAMURAI_ORIGINS: tuple[tuple[int, int], ...] = ((0, 0), (0, 12), (6, 6), (12, 0), (12, 12))


class HouseKind(str, Enum):
    """The kinds of house; a kind's value is the word used in names and explanations."""

    ROW = "row"
    COLUMN = "column"
    BOX = "box"
    REGION = "region"      #: an irregular region of a jigsaw
    DIAGONAL = "diagonal"

    def __str__(self) -> str:
        return self.value


#: Kinds of house that are blocks (boxes or jigsaw regions), and the lines.
BLOCK_KINDS = frozenset({HouseKind.BOX, HouseKind.REGION})
LINE_KINDS = frozenset({HouseKind.ROW, HouseKind.COLUMN})


class House(Frozen):
    """A group of cells that holds every symbol exactly once.

    ``kind`` is a :class:`HouseKind`: row, column, box, region (jigsaw) or diagonal;
    ``number`` counts from 1 within its kind (and grid); ``grid`` is the index of the
    sub-grid in a multi-grid shape such as Samurai (0 elsewhere).
    """

    kind: HouseKind
    number: int
    cells: tuple[int, ...]
    grid: int = 0
    label: str = ""

    def __str__(self) -> str:
        return self.label or f"{self.kind} {self.number}"


class Cage(Frozen):
    """A group of cells whose digits are all different and, when ``total`` is given, add up
    to it: a Kakuro run or a Killer cage. Unlike a house it need not hold every symbol.

    ``clue`` is the canvas square its sum is written in (a Kakuro clue square), if any;
    ``label`` names it in explanations. ``repeats`` marks a cage of the Killer variant
    whose digits may repeat (where its cells share no house): only its sum binds them.
    """

    cells: tuple[int, ...]
    total: int | None = None
    clue: tuple[int, int] | None = None
    label: str = ""
    repeats: bool = False

    def __str__(self) -> str:
        return self.label or f"cage of {len(self.cells)} cells"


class Shape(Frozen):
    """The geometry of a puzzle: cells on a canvas, and the houses they form.

    Build shapes with the factories (:func:`classic`, :func:`jigsaw`, :func:`diagonal`,
    :func:`samurai`, :func:`by_name`), which validate them and cache them.
    """

    name: str
    size: int
    canvas: tuple[int, int]
    coords: tuple[tuple[int, int], ...]
    houses: tuple[House, ...]
    #: Sub-grids of a multi-grid shape: for each, its cells in reading order (one grid
    #: for single-grid shapes).
    grids: tuple[tuple[int, ...], ...] = ()
    #: For jigsaw shapes, the region number (0-based) of each cell; empty otherwise.
    regions: tuple[int, ...] = ()
    box: tuple[int, int] | None = None
    #: Cages (sums, digits all different) beside the houses: Kakuro runs, Killer cages.
    cages: tuple[Cage, ...] = ()

    # -- identity ---------------------------------------------------------------------
    @cached_property
    def key(self) -> tuple[object, ...]:
        """A value that two shapes share exactly when they have the same geometry."""
        return (self.size, self.canvas, self.coords, tuple(h.cells for h in self.houses),
                tuple((c.cells, c.total, c.repeats) for c in self.cages))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shape) and (self is other or self.key == other.key)

    @cached_property
    def _hash(self) -> int:
        # solvers look shapes up in per-shape caches many times per step
        return hash(self.key)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Shape({self.name!r}, {len(self.coords)} cells, {len(self.houses)} houses)"

    # -- derived geometry -------------------------------------------------------------
    @property
    def ncells(self) -> int:
        """Number of cells."""
        return len(self.coords)

    @cached_property
    def cell_at(self) -> dict[tuple[int, int], int]:
        """Map from canvas ``(row, column)`` (0-based) to cell index."""
        return {rc: i for i, rc in enumerate(self.coords)}

    @cached_property
    def houses_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices of the houses that contain it."""
        return _memberships(len(self.coords), self.houses)

    @cached_property
    def cages_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices of the cages that contain it."""
        return _memberships(len(self.coords), self.cages)

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the other cells that share a house or a cage with it (and so
        cannot hold its value), sorted; a cage whose digits may repeat makes no peers."""
        ncells = len(self.coords)
        base, base_sets = _house_peers(self.houses, ncells)
        if not self.cages:
            return base
        # cages are added to the peers of the houses, which every Killer on one base
        # shares: most cages lie inside a house, and their cells' peers stay as they are
        joined: list[list[int] | None] = [None] * ncells
        for cage in self.cages:
            if cage.repeats:
                continue
            cells = cage.cells
            for c in cells:
                more = joined[c]
                if more is None:
                    joined[c] = list(cells)
                else:
                    more += cells
        out = list(base)
        for c, more in enumerate(joined):
            if more is not None:
                inside = base_sets[c]
                new = [x for x in more if x not in inside and x != c]
                if new:
                    out[c] = tuple(sorted(inside.union(new)))
        return tuple(out)

    @cached_property
    def is_classic9(self) -> bool:
        """True for the plain 9x9 grid with 3x3 boxes (the engine has a fast path)."""
        # a shape with cages never equals it, and its key need not be built to say so
        return not self.cages and self == classic(9)

    def cell_name(self, cell: int, notation: str = "rc") -> str:
        """Name a cell: ``r5c6`` (canvas row and column from 1), or Programming Sudoku's
        ``(6,5)``."""
        r, c = self.coords[cell]
        if notation == "book":
            return f"({c + 1},{r + 1})"
        return f"r{r + 1}c{c + 1}"

    def parse_cell(self, name: str) -> int:
        """Return the cell index for a name such as ``r5c6`` or ``R5C6``."""
        m = re.fullmatch(r"\s*[rR](\d+)\s*[cC](\d+)\s*", name)
        if not m:
            raise ShapeError(f"{name!r} is not a cell name like r5c6")
        rc = (int(m.group(1)) - 1, int(m.group(2)) - 1)
        if rc not in self.cell_at:
            raise ShapeError(f"{name} is not a cell of the {self.name} shape")
        return self.cell_at[rc]


# -- construction helpers ------------------------------------------------------------------


#: The peers houses give, by the identity of a shape's houses (kept here, so an id is not
#: reused while its entry lives): shapes that share their houses share these.
_HOUSE_PEERS: dict[int, tuple[tuple[House, ...], int, tuple[tuple[int, ...], ...],
                              tuple[frozenset[int], ...]]] = {}
_NO_SET: frozenset[int] = frozenset()


def _house_peers(houses: tuple[House, ...], ncells: int
                 ) -> tuple[tuple[tuple[int, ...], ...], tuple[frozenset[int], ...]]:
    """For each cell, the other cells of its houses, sorted and as a set."""
    if not houses:
        return ((),) * ncells, (_NO_SET,) * ncells
    hit = _HOUSE_PEERS.get(id(houses))
    if hit is not None and hit[0] is houses and hit[1] == ncells:
        return hit[2], hit[3]
    acc: list[list[int]] = [[] for _ in range(ncells)]
    for house in houses:
        cells = house.cells
        for c in cells:
            acc[c] += cells
    sets = []
    for c, found in enumerate(acc):
        s = set(found)
        s.discard(c)
        sets.append(frozenset(s))
    peers = tuple(tuple(sorted(s)) for s in sets)
    if len(_HOUSE_PEERS) >= 64:
        _HOUSE_PEERS.clear()
    _HOUSE_PEERS[id(houses)] = (houses, ncells, peers, tuple(sets))
    return peers, tuple(sets)


def _memberships(ncells: int, groups: Sequence[House | Cage]) -> tuple[tuple[int, ...], ...]:
    """For each cell, the indices of the groups that contain it."""
    acc: list[list[int]] = [[] for _ in range(ncells)]
    for k, group in enumerate(groups):
        for c in group.cells:
            acc[c].append(k)
    return tuple(tuple(x) for x in acc)


def _validate(shape: Shape) -> Shape:
    n = shape.size
    ncells = len(shape.coords)
    if len(set(shape.coords)) != ncells:
        raise ShapeError(f"shape {shape.name}: two cells share a canvas position")
    covered = [False] * ncells
    for house in shape.houses:
        if len(house.cells) != n or len(set(house.cells)) != n:
            raise ShapeError(f"shape {shape.name}: {house} does not have {n} distinct cells")
        for c in house.cells:
            if not 0 <= c < ncells:
                raise ShapeError(f"shape {shape.name}: {house} names cell {c} out of range")
            covered[c] = True
    for cage in shape.cages:
        _check_cage(shape, cage)
        for c in cage.cells:
            covered[c] = True
    if not all(covered):
        raise ShapeError(f"shape {shape.name}: a cell belongs to no house or cage")
    return _checked(shape)


def _checked(shape: Shape) -> Shape:
    """Mark a shape as valid, so shapes built on it need not check it again."""
    object.__setattr__(shape, "_valid", True)  # a mark beside the fields, not one of them
    return shape


def _is_checked(shape: Shape) -> bool:
    return bool(getattr(shape, "_valid", False))


def _check_cage(shape: Shape, cage: Cage) -> None:
    """A cage's cells are distinct cells of the shape, and its sum can be made."""
    n, cells = shape.size, cage.cells
    k = len(cells)
    if cage.repeats:
        _check_repeats_cage(shape, cage)
        return
    if not cells or len(set(cells)) != k or k > n:
        raise ShapeError(f"shape {shape.name}: {cage} must have 1 to {n} distinct cells")
    if min(cells) < 0 or max(cells) >= len(shape.coords):
        raise ShapeError(f"shape {shape.name}: {cage} names a cell out of range")
    if cage.total is not None:
        # the smallest and largest sums of k different digits (sums.sum_range, whose
        # argument checks this cage has passed)
        low, high = k * (k + 1) // 2, k * (2 * n - k + 1) // 2
        if not low <= cage.total <= high:
            raise ShapeError(f"shape {shape.name}: {cage} sums to {cage.total}, but "
                             f"{len(cells)} different digits from 1 to {n} make {low} to "
                             f"{high}")


#: The most cells a cage whose digits may repeat has (a bound on its sums' table).
MAX_REPEATS_CELLS = 64


def _check_repeats_cage(shape: Shape, cage: Cage) -> None:
    """A cage whose digits may repeat: distinct cells of the shape, a sum that digits from
    1 to n can make."""
    n, cells = shape.size, cage.cells
    k = len(cells)
    if not cells or len(set(cells)) != k or k > MAX_REPEATS_CELLS:
        raise ShapeError(f"shape {shape.name}: {cage} must have 1 to {MAX_REPEATS_CELLS} "
                         f"distinct cells")
    if min(cells) < 0 or max(cells) >= len(shape.coords):
        raise ShapeError(f"shape {shape.name}: {cage} names a cell out of range")
    if cage.total is None:
        raise ShapeError(f"shape {shape.name}: {cage} lets digits repeat, so it needs a sum")
    if not k <= cage.total <= k * n:
        raise ShapeError(f"shape {shape.name}: {cage} sums to {cage.total}, but {k} digits "
                         f"from 1 to {n} make {k} to {k * n}")


def default_box(size: int) -> tuple[int, int] | None:
    """The usual box (rows, columns) for a size: square if possible, else the most nearly
    square split with fewer rows than columns (6 -> 2x3, 8 -> 2x4, 12 -> 3x4); None for
    sizes that have no rectangular boxes (primes such as 5 and 7, which need jigsaw regions).
    """
    r = math.isqrt(size)
    while r > 1:
        if size % r == 0:
            return (r, size // r)
        r -= 1
    return None


def _check_size(size: int) -> None:
    if not 1 <= size <= MAX_SIZE:
        raise ShapeError(f"a grid of size {size} is not possible: sizes go from 1 to {MAX_SIZE}")


def _lines(size: int, grid: int = 0, origin: tuple[int, int] = (0, 0),
           cell_at: dict[tuple[int, int], int] | None = None,
           label_suffix: str = "") -> list[House]:
    """Rows and columns of one size x size grid placed at ``origin`` on a canvas."""
    r0, c0 = origin

    def idx(r: int, c: int) -> int:
        return cell_at[(r0 + r, c0 + c)] if cell_at is not None else r * size + c

    houses = []
    # One loop for both directions: a column is a row with the index mapping transposed.
    for kind, transpose in ((HouseKind.ROW, False), (HouseKind.COLUMN, True)):
        for i in range(size):
            cells = tuple(idx(j, i) if transpose else idx(i, j) for j in range(size))
            houses.append(House(kind, i + 1, cells, grid, f"{kind} {i + 1}{label_suffix}"))
    return houses


def _boxes(size: int, box: tuple[int, int], grid: int = 0, origin: tuple[int, int] = (0, 0),
           cell_at: dict[tuple[int, int], int] | None = None,
           label_suffix: str = "") -> list[House]:
    br, bc = box
    r0, c0 = origin
    houses = []
    number = 0
    for top in range(0, size, br):
        for left in range(0, size, bc):
            number += 1
            cells = []
            for r in range(top, top + br):
                for c in range(left, left + bc):
                    cells.append(cell_at[(r0 + r, c0 + c)] if cell_at is not None else r * size + c)
            houses.append(House(HouseKind.BOX, number, tuple(cells), grid,
                                f"box {number}{label_suffix}"))
    return houses


def classic(size: int = 9, box: tuple[int, int] | None = None) -> Shape:
    """A classic ``size`` x ``size`` grid with rectangular boxes of ``box`` = (rows, columns).

    ``box`` defaults to :func:`default_box`; sizes without rectangular boxes (5, 7, ...)
    need :func:`jigsaw`.
    """

    size = whole(size, "size", 1, MAX_SIZE)
    if box is not None:
        if not isinstance(box, tuple) or len(box) != 2:
            raise TypeError(f"box must be a pair (rows, columns), not {box!r}")
        box = (whole(box[0], "box rows", 1, size), whole(box[1], "box columns", 1, size))
    return _classic(size, box)


@cache
def _classic(size: int, box: tuple[int, int] | None) -> Shape:
    if box is None:
        box = default_box(size)
        if box is None:
            raise ShapeError(
                f"a {size}x{size} grid has no rectangular boxes; give jigsaw regions instead"
            )
    br, bc = box
    if br * bc != size or br < 1 or bc < 1:
        raise ShapeError(f"boxes of {br}x{bc} do not tile a {size}x{size} grid")
    coords = tuple((r, c) for r in range(size) for c in range(size))
    houses = _lines(size) + _boxes(size, box)
    name = f"{size}x{size}" if box == default_box(size) else f"{size}x{size}:{br}x{bc}"
    return _validate(Shape(name, size, (size, size), coords, tuple(houses),
                           grids=(tuple(range(size * size)),), box=box))


def _region_ids(regions: Sequence[Sequence[int]] | Sequence[int] | str, size: int | None
                ) -> tuple[int, tuple[int, ...]]:
    """Normalise a region map to (size, flat tuple of 0-based region numbers)."""
    if isinstance(regions, str):
        rows = [ln.strip() for ln in regions.strip().splitlines() if ln.strip()]
        if len(rows) == 1 and size is None:
            n = math.isqrt(len(rows[0]))
            if n * n != len(rows[0]):
                raise ShapeError("a one-line region map needs a square number of characters")
            flat_chars = rows[0]
        else:
            flat_chars = "".join(r.replace(" ", "") for r in rows)
            n = size if size is not None else math.isqrt(len(flat_chars))
        labels: dict[str, int] = {}
        flat = tuple(labels.setdefault(ch, len(labels)) for ch in flat_chars)
    else:
        flat_raw: list[int] = []
        for item in regions:
            if isinstance(item, Sequence):  # rows of region numbers
                flat_raw.extend(int(x) for x in item)
            else:  # the numbers of every cell in one sequence
                flat_raw.append(int(item))
        n = size if size is not None else math.isqrt(len(flat_raw))
        labels_i: dict[int, int] = {}
        flat = tuple(labels_i.setdefault(x, len(labels_i)) for x in flat_raw)
    if n < 1 or len(flat) != n * n:
        raise ShapeError(f"a region map must have {n}x{n} = {n * n} entries, not {len(flat)}")
    return n, flat


def jigsaw(regions: Sequence[Sequence[int]] | Sequence[int] | str,
           size: int | None = None) -> Shape:
    """A ``size`` x ``size`` grid whose boxes are irregular regions.

    ``regions`` gives each cell's region, row by row: a string such as
    ``"11122\\n11222\\n..."`` (any characters as labels, one row per line or all on one
    line), or nested/flat sequences of numbers. Every region must have ``size`` cells.
    """

    if size is not None:
        size = whole(size, "size", 1, MAX_SIZE)
    if not isinstance(regions, (str, Sequence)):
        raise TypeError(f"regions must be a region map (text or rows of numbers), not "
                        f"{type(regions).__name__}")
    try:
        n, flat = _region_ids(regions, size)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, ShapeError):
            raise
        raise ShapeError(f"a region map holds numbers or characters: {exc}") from None
    _check_size(n)
    return _jigsaw_cached(n, flat)


@lru_cache(maxsize=256)
def _jigsaw_cached(n: int, flat: tuple[int, ...]) -> Shape:
    members: dict[int, list[int]] = {}
    for cell, reg in enumerate(flat):
        members.setdefault(reg, []).append(cell)
    if len(members) != n:
        raise ShapeError(f"a {n}x{n} jigsaw needs {n} regions, the map has {len(members)}")
    for reg, cells in members.items():
        if len(cells) != n:
            raise ShapeError(f"jigsaw region {reg + 1} has {len(cells)} cells, not {n}")
    coords = tuple((r, c) for r in range(n) for c in range(n))
    houses = _lines(n) + [
        House(HouseKind.REGION, reg + 1, tuple(cells), 0, f"region {reg + 1}")
        for reg, cells in sorted(members.items())
    ]
    return _validate(Shape(f"jigsaw-{n}x{n}", n, (n, n), coords, tuple(houses),
                           grids=(tuple(range(n * n)),), regions=flat))


def diagonal(base: Shape | None = None) -> Shape:
    """Add the two main diagonals as houses to a single square grid (the "X" variant)."""
    base = base if base is not None else classic(9)
    if not isinstance(base, Shape):
        raise TypeError(f"base must be a Shape, not {type(base).__name__}")
    # keyed by name too: a jigsaw whose regions are the boxes equals the classic shape
    return _diagonal_cached(base.name, base)


@lru_cache(maxsize=256)
def _diagonal_cached(name: str, base: Shape) -> Shape:
    n = base.size
    if len(base.grids) != 1 or base.canvas != (n, n) or base.ncells != n * n:
        raise ShapeError("diagonal constraints need a single square grid")
    if any(h.kind == HouseKind.DIAGONAL for h in base.houses):
        return base
    main = tuple(base.cell_at[(i, i)] for i in range(n))
    anti = tuple(base.cell_at[(i, n - 1 - i)] for i in range(n))
    houses = base.houses + (House(HouseKind.DIAGONAL, 1, main, 0, "main diagonal"),
                            House(HouseKind.DIAGONAL, 2, anti, 0, "anti-diagonal"))
    return _validate(Shape(f"diagonal-{base.name}", n, base.canvas, base.coords, houses,
                           grids=base.grids, regions=base.regions, box=base.box))


@cache
def samurai() -> Shape:
    """Five overlapping 9x9 grids on a 21x21 canvas (369 cells).

    Each corner grid shares one 3x3 box with the centre grid. Grids are numbered 0-4 in
    the order of :data:`SAMURAI_ORIGINS`.
    """
    return overlapping("samurai", 9, SAMURAI_ORIGINS)


def overlapping(name: str, size: int, origins: Sequence[tuple[int, int]],
                box: tuple[int, int] | None = None) -> Shape:
    """Several classic grids of one size placed on a canvas at the given origins.

    Cells where grids overlap are shared; a box that two grids share is one house.
    """
    _check_size(size)
    box = box or default_box(size)
    if box is None:
        raise ShapeError(f"a {size}x{size} grid has no rectangular boxes")
    positions = sorted({(r0 + r, c0 + c) for r0, c0 in origins
                        for r in range(size) for c in range(size)})
    cell_at = {rc: i for i, rc in enumerate(positions)}
    rows = max(r for r, _ in positions) + 1
    cols = max(c for _, c in positions) + 1
    houses: list[House] = []
    seen: set[frozenset[int]] = set()
    grids = []
    for g, origin in enumerate(origins):
        suffix = f" of grid {g + 1}"
        for house in _lines(size, g, origin, cell_at, suffix) + _boxes(size, box, g, origin,
                                                                         cell_at, suffix):
            key = frozenset(house.cells)
            if key not in seen:
                seen.add(key)
                houses.append(house)
        r0, c0 = origin
        grids.append(tuple(cell_at[(r0 + r, c0 + c)] for r in range(size) for c in range(size)))
    return _validate(Shape(name, size, (rows, cols), tuple(positions), tuple(houses),
                           grids=tuple(grids), box=box))


#: A square of a Kakuro layout: None for a white cell, else (down sum, across sum), each
#: None where the square has no such clue ((None, None) is a plain block).
KakuroSquare = tuple[int | None, int | None] | None


def kakuro(layout: Sequence[Sequence[KakuroSquare]]) -> Shape:
    """A Kakuro: white cells to fill with 1-9, and runs, each a cage whose sum is written in
    the clue square before it (to its left for an across run, above for a down run).

    ``layout`` is the grid row by row (see :data:`KakuroSquare`). Every run of two or more
    white cells needs its clue, every clue a run; a ShapeError names the square otherwise.
    """
    rows = [list(row) for row in layout]
    made = _kakuro_fast(rows)
    if made is not None:
        return made
    # something is wrong (or unusual): the step by step build below names it
    if not rows or not rows[0]:
        raise ShapeError("a Kakuro needs at least one row and one column")
    width = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ShapeError(f"Kakuro row {r + 1} has {len(row)} squares, row 1 has {width}")
    coords = tuple((r, c) for r, row in enumerate(rows) for c, sq in enumerate(row)
                   if sq is None)
    if not coords:
        raise ShapeError("a Kakuro needs white cells")
    cell_at = {rc: i for i, rc in enumerate(coords)}
    cages = [cage for r in range(len(rows)) for c in range(width)
             for cage in _kakuro_runs(rows, r, c, cell_at)]
    shape = Shape(f"kakuro-{len(rows)}x{width}", 9, (len(rows), width), coords, (),
                  cages=tuple(cages))
    clued = {(cage.cells[0], "across" if is_across(shape, cage) else "down") for cage in cages}
    for r, c in coords:  # a run of two or more white cells without its clue
        for dr, dc, word in ((0, 1, "across"), (1, 0, "down")):
            starts = (r - dr, c - dc) not in cell_at and (r + dr, c + dc) in cell_at
            if starts and (cell_at[(r, c)], word) not in clued:
                raise ShapeError(f"the {word} run from r{r + 1}c{c + 1} has no clue")
    return _validate(shape)


def _kakuro_fast(rows: list[list[KakuroSquare]]) -> Shape | None:
    """The Kakuro of a well-formed layout, built and checked in one pass over its squares
    in reading order; None when anything is amiss or unusual (then :func:`kakuro` builds
    it step by step, which names the fault or accepts what this pass did not expect)."""
    if not rows or not rows[0]:
        return None
    width = len(rows[0])
    # the run each column's next white cell joins, and the row's (None: no clue for it)
    down_runs: list[list[int] | None] = [None] * width
    runs: list[tuple[list[int], int, int, int, str]] = []
    coords: list[tuple[int, int]] = []
    block: KakuroSquare = (None, None)
    above: list[KakuroSquare] = [block] * width
    for r, row in enumerate(rows):
        if len(row) != width:
            return None
        across: list[int] | None = None
        left_white = False
        for c, square in enumerate(row):
            if square is None:
                down = down_runs[c]
                # a run of two or more cells without its clue, or a cell in no run
                if across is None and (left_white or down is None):
                    return None
                if down is None and above[c] is None:
                    return None
                cell = len(coords)
                coords.append((r, c))
                if across is not None:
                    across.append(cell)
                if down is not None:
                    down.append(cell)
                left_white = True
                continue
            if type(square) is not tuple or len(square) != 2:
                return None
            down_total, across_total = square
            if down_total is None:
                down_runs[c] = None
            elif type(down_total) is int:
                run: list[int] = []
                down_runs[c] = run
                runs.append((run, down_total, r, c, "down"))
            else:
                return None
            if across_total is None:
                across = None
            elif type(across_total) is int:
                across = []
                runs.append((across, across_total, r, c, "across"))
            else:
                return None
            left_white = False
        above = row
    if not coords:
        return None
    cages = []
    for cells, total, r, c, word in runs:
        k = len(cells)
        # a run holds 1 to 9 different digits, which make k(k+1)/2 to k(19-k)/2
        if not 0 < k <= 9 or not k * (k + 1) // 2 <= total <= k * (19 - k) // 2:
            return None
        cages.append(Cage(tuple(cells), total, (r, c), f"{word} run of r{r + 1}c{c + 1}"))
    shape = Shape(f"kakuro-{len(rows)}x{width}", 9, (len(rows), width), tuple(coords), (),
                  cages=tuple(cages))
    return _checked(shape)


def is_across(shape: Shape, cage: Cage) -> bool:
    """True for a Kakuro run read across: its clue square is on the row of its first cell
    (a down run's is above it)."""
    return cage.clue is not None and cage.clue[0] == shape.coords[cage.cells[0]][0]


def _kakuro_runs(rows: list[list[KakuroSquare]], r: int, c: int,
                 cell_at: dict[tuple[int, int], int]) -> list[Cage]:
    """The runs whose clues square (r, c) holds."""
    square = rows[r][c]
    if square is None:
        return []
    out = []
    for total, dr, dc, word in ((square[0], 1, 0, "down"), (square[1], 0, 1, "across")):
        if total is None:
            continue
        if isinstance(total, bool) or not isinstance(total, int):
            raise ShapeError(f"the clue at r{r + 1}c{c + 1} is not a whole number")
        cells = []
        k = 1
        while (r + dr * k, c + dc * k) in cell_at:
            cells.append(cell_at[(r + dr * k, c + dc * k)])
            k += 1
        if not cells:
            raise ShapeError(f"the {word} clue {total} at r{r + 1}c{c + 1} has no white cell "
                             f"{'below' if word == 'down' else 'to its right'}")
        out.append(Cage(tuple(cells), total, (r, c), f"{word} run of r{r + 1}c{c + 1}"))
    return out


def killer(base: Shape, cages: Sequence[tuple[Sequence[int], int | None]
                                        | tuple[Sequence[int], int | None, bool]]) -> Shape:
    """A Killer Sudoku: ``base`` (any Sudoku shape) with cages, each ``(cells, sum)``
    (sum None for a cage whose digits need only differ) or ``(cells, sum, repeats)``,
    ``repeats`` True for a cage whose digits may repeat where its cells share no house.
    Cages are kept in the order of their first cell, their cells in order, so the same
    cages make the same shape."""
    if not isinstance(base, Shape):
        raise TypeError(f"base must be a Shape, not {type(base).__name__}")
    ordered = sorted(((tuple(sorted(cage[0])), cage[1], bool(cage[2]) if len(cage) > 2
                       else False) for cage in cages), key=lambda cage: cage[0][:1])
    made = tuple(Cage(cells, total, None, f"cage {k + 1}", repeats)
                 for k, (cells, total, repeats) in enumerate(ordered))
    shape = Shape(f"killer-{base.name}", base.size, base.canvas, base.coords, base.houses,
                  grids=base.grids, regions=base.regions, box=base.box,
                  cages=base.cages + made)
    if not _is_checked(base):
        return _validate(shape)
    # the base's cells, houses and cages passed already (and its houses cover every cell)
    n, ncells = base.size, len(base.coords)
    for cage in made:
        cells, total = cage.cells, cage.total
        k = len(cells)
        # _check_cage's checks, quicker on cells in order; it names what fails
        if cage.repeats or not (
                0 < k <= n and cells[0] >= 0 and cells[-1] < ncells and len(set(cells)) == k
                and (total is None or k * (k + 1) // 2 <= total <= k * (2 * n - k + 1) // 2)):
            _check_cage(shape, cage)
    return _checked(shape)


_NAME = re.compile(r"(?:(?P<diag>diagonal|x)-?)?(?P<n>\d+)(?:x(?P<m>\d+))?"
                   r"(?::(?P<br>\d+)x(?P<bc>\d+))?")


def by_name(name: str) -> Shape:
    """Look up a shape by name.

    Accepted: ``9x9`` (or ``9``), ``4x4``, ``6x6``, ``6x6:3x2`` (box rows x columns),
    ``8x8``, ``12x12``, ``16x16``, ``25x25``, ``samurai``, ``diagonal`` (9x9 with both
    diagonals), ``diagonal-6x6``. Jigsaw shapes need their region map (see :func:`jigsaw`),
    a Kakuro its clue squares (see :func:`kakuro`).
    """

    key = text(name, "name").strip().lower()
    if key in ("samurai", "gattai-5", "gattai5"):
        return samurai()
    if key in ("diagonal", "x", "sudoku-x", "diagonal-9x9", "x-9x9"):
        return diagonal(classic(9))
    if key in ("classic", "sudoku"):
        return classic(9)
    if key.startswith("jigsaw"):
        raise ShapeError("a jigsaw shape needs its region map (give the puzzle with its regions)")
    if key == "kakuro" or key.startswith("kakuro-"):
        raise ShapeError("a Kakuro's clue squares make its shape, whatever its size: read "
                         "one with the shape name 'kakuro' (sizes such as kakuro-10x10 are "
                         "for generating)")
    m = _NAME.fullmatch(key)
    if not m:
        raise ShapeError(f"unknown shape {name!r}; try 9x9, 6x6, 16x16, samurai, diagonal")
    n = int(m.group("n"))
    if m.group("m") and int(m.group("m")) != n:
        raise ShapeError(f"shape {name!r}: grids must be square")
    box = (int(m.group("br")), int(m.group("bc"))) if m.group("br") else None
    base = classic(n, box)
    return diagonal(base) if m.group("diag") else base
