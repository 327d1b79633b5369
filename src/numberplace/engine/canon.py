"""Canonical forms: one representative for every class of puzzles that are the same puzzle
up to symmetry, so that equivalent puzzles get one key.

A classic n x n puzzle keeps its rules when its rows are swapped within a band, its bands
are swapped, its columns within a stack or its stacks are swapped, when it is transposed
(square boxes only) and when its symbols are relabelled. Its canonical form is the least
one of all these, read row by row with 0 for an empty cell and compared as numbers: the
"minlex" form. It comes from the compiled core (``_canon.c``); without it, from a slower
search in Python that enumerates the column orders (a different algorithm, also used to
check the core in the tests).

Other shapes take the turns and mirror images of their canvas that keep the shape (a
jigsaw's regions and a Killer's cages are turned with the givens and are part of the form),
and relabelling where no cage sums fix the values; a diagonal grid also the orders of rows
and columns that keep its diagonals. Kakuro is kept as it is. Their canonical form is the
least of these, the layout compared first.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .. import native
from ..arguments import whole
from ..errors import LimitError, PuzzleError
from ..model.puzzle import Puzzle
from ..model.shape import HouseKind, Shape, classic, diagonal, jigsaw, killer
from ..native import backend_name
from . import _line_tables

__all__ = ["Transform", "Canonical", "canonical", "canonical_key", "canonical_forms",
           "form_key", "values_text", "WORK_LIMIT", "FORM", "PAST_LIMIT", "CLASHING"]

#: The default bound on the work of one canonical form (rows tried and partial forms
#: kept); a puzzle that needs more (only puzzles with very many symmetries come near)
#: raises :class:`LimitError`.
WORK_LIMIT = 5_000_000


#: What :func:`canonical_forms` says of each puzzle: its form was made, the work went past
#: the limit, its givens clash.
FORM, PAST_LIMIT, CLASHING = 0, 1, 2

#: Symbols of jigsaw region numbers in a key.
_REGION_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Transform:
    """A change of a puzzle into an equivalent one: cell ``i`` of the result takes the value
    of cell ``cells[i]`` of the puzzle, and value v becomes ``relabel[v - 1]``. ``shape`` is
    the shape of the result (another jigsaw layout or other cages where those turn).

    For classic shapes, ``transpose``, ``rows`` and ``columns`` say the same in the
    puzzle's terms: row i of the result is row ``rows[i]`` (of the transposed grid when
    ``transpose``), column j is column ``columns[j]``. For other shapes ``turn`` names the
    turn or mirror image of the canvas.
    """

    shape: Shape
    cells: tuple[int, ...]
    relabel: tuple[int, ...]
    transpose: bool = False
    rows: tuple[int, ...] = ()
    columns: tuple[int, ...] = ()
    turn: str = ""

    def apply(self, puzzle: Puzzle) -> Puzzle:
        """The puzzle changed by this transform (in the default alphabet of its size)."""
        if len(puzzle.givens) != len(self.cells):
            raise PuzzleError(f"this transform is for puzzles of {len(self.cells)} cells, "
                              f"not {len(puzzle.givens)}")
        g, lab = puzzle.givens, self.relabel
        return Puzzle(self.shape, tuple(lab[g[i] - 1] if g[i] else 0 for i in self.cells))

    def as_dict(self) -> dict[str, object]:
        """Plain data for JSON: the rows, columns and transpose of a classic shape, or the
        turn of another; the relabelling as ``{old symbol: new symbol}``."""
        out: dict[str, object] = {}
        if self.turn:
            out["turn"] = self.turn
        else:
            out["transpose"] = self.transpose
        if self.rows:
            out.update(rows=[r + 1 for r in self.rows], columns=[c + 1 for c in self.columns])
        out["relabel"] = {str(v): lab for v, lab in enumerate(self.relabel, start=1)
                          if v != lab}
        return out


class Canonical:
    """A puzzle's canonical form: ``key``, the text that equivalent puzzles share;
    ``puzzle``, the form itself (in the default alphabet); ``transform``, the change that
    makes it. The last two are made when first asked for."""

    __slots__ = ("key", "_source", "_make", "_transform", "_puzzle")

    def __init__(self, key: str, source: Puzzle, make: Callable[[], Transform]) -> None:
        self.key = key
        self._source = source
        self._make = make
        self._transform: Transform | None = None
        self._puzzle: Puzzle | None = None

    @property
    def transform(self) -> Transform:
        """The change that turns the puzzle into its form."""
        if self._transform is None:
            self._transform = self._make()
        return self._transform

    @property
    def puzzle(self) -> Puzzle:
        """The canonical form."""
        if self._puzzle is None:
            self._puzzle = self.transform.apply(self._source)
        return self._puzzle

    def __repr__(self) -> str:
        return f"Canonical({self.key!r})"


def canonical(puzzle: Puzzle, *, work_limit: int = WORK_LIMIT,
              backend: str | None = None) -> Canonical:
    """The canonical form of ``puzzle`` (see the module docs).

    ``backend`` "python" uses the search in Python even where the compiled core is present.
    Raises :class:`PuzzleError` for givens that clash or a puzzle with pencil marks, and
    :class:`LimitError` past ``work_limit``.
    """
    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"puzzle must be a Puzzle, not {type(puzzle).__name__}")
    work_limit = whole(work_limit, "work_limit", 1)
    use_core = backend_name(backend) == "c" and native.core is not None
    if puzzle.candidates is not None:
        raise PuzzleError("a puzzle with pencil marks has no canonical form here; "
                          "give its givens only")
    shape = puzzle.shape
    if _is_classic(shape):
        return _classic_form(puzzle, work_limit, use_core)
    _refuse_clashes(puzzle)
    return _turned_form(puzzle)


def _refuse_clashes(puzzle: Puzzle) -> None:
    clashes = puzzle.clashes()
    if clashes:
        raise PuzzleError(f"givens that clash have no canonical form: "
                          f"{puzzle.describe_clash(clashes[0])}")


def canonical_key(puzzle: Puzzle, *, work_limit: int = WORK_LIMIT) -> str:
    """The key that ``puzzle`` shares with every puzzle equivalent to it."""
    return canonical(puzzle, work_limit=work_limit).key


def canonical_forms(shape: Shape, values: bytes, *, work_limit: int = WORK_LIMIT,
                    backend: str | None = None) -> tuple[bytes, bytes]:
    """The canonical givens of many puzzles of one classic shape in one call: ``values``
    holds each puzzle's cell values, one byte each, ``shape.ncells`` bytes a puzzle. Returns
    the forms laid out alike and one status byte a puzzle (:data:`FORM`, or
    :data:`PAST_LIMIT` or :data:`CLASHING`, whose form is all zeros). :func:`form_key`
    makes a form's key."""
    if not _is_classic(shape):
        raise PuzzleError(f"canonical_forms takes classic grids, not {shape.name}")
    work_limit = whole(work_limit, "work_limit", 1)
    values = bytes(values)
    size = shape.ncells
    if len(values) % size:
        raise PuzzleError(f"values holds {len(values)} bytes, not a whole number of "
                          f"{size}-cell puzzles")
    n = shape.size
    br, bc = shape.box or (n, n)
    if backend_name(backend) == "c" and native.core is not None:
        forms, status = native.core.canon_many(n, br, bc, values, work_limit)
        return bytes(forms), bytes(status)
    out, codes = bytearray(), bytearray()
    for k in range(0, len(values), size):
        puzzle = Puzzle(shape, tuple(values[k:k + size]))
        try:
            form = canonical(puzzle, work_limit=work_limit, backend="python").puzzle.givens
            out += bytes(form)
            codes.append(FORM)
        except LimitError:
            out += bytes(size)
            codes.append(PAST_LIMIT)
        except PuzzleError:
            out += bytes(size)
            codes.append(CLASHING)
    return bytes(out), bytes(codes)


def form_key(shape: Shape, form: bytes) -> str:
    """The key of a classic puzzle's canonical givens (as :func:`canonical_forms` gives)."""
    return f"{shape.name}:{values_text(shape, form)}"


def values_text(shape: Shape, values: bytes) -> str:
    """Cell values of a classic shape (one byte each, any number of puzzles one after
    another) as the symbols of its default alphabet, '.' for empty: one line a puzzle."""
    return values.translate(_line_table(shape.size)).decode("ascii")


# -- classic shapes ------------------------------------------------------------------------


def _is_classic(shape: Shape) -> bool:
    return shape.box is not None and not shape.cages and not shape.regions \
        and shape == classic(shape.size, shape.box)


def _classic_form(puzzle: Puzzle, work_limit: int, use_core: bool) -> Canonical:
    shape = puzzle.shape
    n = shape.size
    br, bc = shape.box or (n, n)
    rows: Sequence[int]
    cols: Sequence[int]
    labels: Sequence[int]
    if use_core:
        assert native.core is not None  # use_core
        found = native.core.canon(n, br, bc, bytes(puzzle.givens), work_limit)
        if found is None:
            raise _too_much(work_limit)
        if found == 2:
            _refuse_clashes(puzzle)  # raises: the core saw givens that clash
            raise AssertionError("the core and Python differ on clashing givens")
        values, transposed, rows, cols, labels = found
    else:
        _refuse_clashes(puzzle)
        transposed, rows, cols, labels = _classic_search(puzzle.givens, n, br, bc, work_limit)
        values = bytes(labels[v - 1] if v else 0 for v in _moved(puzzle.givens, n, transposed,
                                                                  rows, cols))

    def make() -> Transform:
        return Transform(shape, _cells(n, bool(transposed), rows, cols), tuple(labels),
                         bool(transposed), tuple(rows), tuple(cols))

    return Canonical(form_key(shape, values), puzzle, make)


def _cells(n: int, transposed: bool, rows: Sequence[int], cols: Sequence[int]
           ) -> tuple[int, ...]:
    """Where each cell of the form comes from."""
    if transposed:
        return tuple(cols[j] * n + rows[i] for i in range(n) for j in range(n))
    return tuple(rows[i] * n + cols[j] for i in range(n) for j in range(n))


def _moved(values: Sequence[int], n: int, transposed: bool, rows: Sequence[int],
           cols: Sequence[int]) -> list[int]:
    return [values[i] for i in _cells(n, transposed, rows, cols)]


@lru_cache(maxsize=32)
def _line_table(n: int) -> bytes:
    """bytes.translate table: value v to the default symbol of v, 0 to '.' (the symbols
    the compiled core writes one-line puzzles with)."""

    symbols = _line_tables(n)[1]
    return symbols + bytes(256 - len(symbols))


def _too_much(work_limit: int) -> LimitError:
    return LimitError(f"the canonical form needs more than {work_limit:,} steps of work "
                      f"(a puzzle with very many symmetries); raise the work limit")


def block_orders(n: int, block: int) -> Iterator[tuple[int, ...]]:
    """Every order of 0..n-1 that keeps blocks of ``block`` together: the blocks in any
    order, and any order inside each block."""
    inner = list(itertools.permutations(range(block)))
    for outer in itertools.permutations(range(n // block)):
        for within in itertools.product(inner, repeat=n // block):
            yield tuple(b * block + w[k] for b, w in zip(outer, within, strict=True)
                        for k in range(block))


def _classic_search(givens: Sequence[int], n: int, br: int, bc: int, work_limit: int
                    ) -> tuple[bool, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The least form by rows, trying every column order the group allows for the first row
    and keeping each (orientation, rows, column order, labels) that gives the least rows so
    far. Slow, but it shares nothing with the core's search but the definition."""
    grids = [tuple(givens)]
    if br == bc:
        grids.append(tuple(givens[c * n + r] for r in range(n) for c in range(n)))
    nstacks = n // bc
    group = 1
    for k in range(2, bc + 1):
        group *= k
    group = group ** nstacks * _factorial(nstacks)
    if group * n * len(grids) > work_limit:
        raise _too_much(work_limit)
    column_orders = list(block_orders(n, bc))
    work = 0
    # a partial form: (grid, rows placed, column order, labels by value)
    best: list[int] | None = None
    states: list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
    for t, g in enumerate(grids):
        for r in range(n):
            line = g[r * n:(r + 1) * n]
            for order in column_orders:
                text, labels = _label_row(line, order, (0,) * (n + 1))
                work += 1
                if best is None or text < best:
                    best, states = text, []
                if text == best:
                    states.append((t, (r,), order, labels))
    if work > work_limit:
        raise _too_much(work_limit)
    for _ in range(1, n):
        best = None
        kept: list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
        for t, placed, order, labels in states:
            g = grids[t]
            for r in _next_rows(g, n, br, placed):
                work += 1
                if work > work_limit:
                    raise _too_much(work_limit)
                text, more = _label_row(g[r * n:(r + 1) * n], order, labels)
                if best is None or text < best:
                    best, kept = text, []
                if text == best:
                    kept.append((t, placed + (r,), order, more))
        states = kept
    t, placed, order, labels = states[0]
    nlabel = max(labels)
    relabel = []
    for v in range(1, n + 1):
        if not labels[v]:
            nlabel += 1
        relabel.append(labels[v] or nlabel)
    return bool(t), placed, order, tuple(relabel)


def _factorial(k: int) -> int:
    out = 1
    for i in range(2, k + 1):
        out *= i
    return out


def _label_row(line: Sequence[int], order: Sequence[int], labels: tuple[int, ...]
               ) -> tuple[list[int], tuple[int, ...]]:
    """The row in the column order, with symbols labelled in order of first appearance."""
    lab = list(labels)
    top = max(lab)
    text = []
    for c in order:
        v = line[c]
        if v and not lab[v]:
            top += 1
            lab[v] = top
        text.append(lab[v] if v else 0)
    return text, tuple(lab)


def _next_rows(g: Sequence[int], n: int, br: int, placed: tuple[int, ...]) -> list[int]:
    """The rows that may come next: the rest of the band being placed, or the rows of a
    band not started; of rows with equal contents in a band, only the first (swapping them
    changes nothing)."""
    depth = len(placed)
    used = set(placed)
    if depth % br:
        band = placed[depth - depth % br] // br
        choices = [r for r in range(band * br, band * br + br) if r not in used]
    else:
        started = {r // br for r in placed}
        choices = [r for r in range(n) if r // br not in started]
    out: list[int] = []
    for r in choices:
        if not any(q // br == r // br and g[q * n:q * n + n] == g[r * n:r * n + n]
                   for q in out):
            out.append(r)
    return out


# -- other shapes: turns and mirror images of the canvas -----------------------------------

_TURNS: dict[str, Callable[[int, int, int, int], tuple[int, int]]] = {
    "identity": lambda r, c, h, w: (r, c),
    "rotate90": lambda r, c, h, w: (c, h - 1 - r),
    "rotate180": lambda r, c, h, w: (h - 1 - r, w - 1 - c),
    "rotate270": lambda r, c, h, w: (w - 1 - c, r),
    "mirror-rows": lambda r, c, h, w: (h - 1 - r, c),
    "mirror-columns": lambda r, c, h, w: (r, w - 1 - c),
    "transpose": lambda r, c, h, w: (c, r),
    "antitranspose": lambda r, c, h, w: (w - 1 - c, h - 1 - r),
}


def _turned_form(puzzle: Puzzle) -> Canonical:
    shape = puzzle.shape
    relabel = not any(cage.total is not None for cage in shape.cages)
    best: tuple[str, str, Transform] | None = None
    for turn, order, cells in _symmetries(shape):
        turned = _turned_shape(shape, cells)
        if turned is None:
            continue
        g = puzzle.givens
        labels = _first_appearance([g[i] for i in cells], shape.size) if relabel \
            else tuple(range(1, shape.size + 1))
        t = Transform(turned, cells, labels, rows=order, columns=order, turn=turn)
        form = t.apply(puzzle)
        candidate = (_layout_text(turned), form.to_line(), t)
        if best is None or candidate[:2] < best[:2]:
            best = candidate
    assert best is not None  # the identity always keeps the shape
    layout, line, t = best
    family = shape.name.split("-")[0] if shape.regions or shape.cages else shape.name
    return Canonical(f"{family}:{layout}:{line}" if layout else f"{family}:{line}", puzzle,
                     lambda: t)


@lru_cache(maxsize=64)
def _symmetries(shape: Shape) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    """The changes of the canvas to try on ``shape``: (turn, order, cells), ``cells[j]`` the
    cell that moves to cell j. The turns and mirror images of the canvas; on a diagonal
    grid with square boxes, also each order of the rows that keeps the bands and the
    diagonals, applied to the columns alike (rows 4 and 6 of a 9x9 swap, and so do the
    pairs 1 and 9, 2 and 8, 3 and 7). Kakuro keeps its clue squares where they are.
    Changes that do not keep the shape's houses are left to :func:`_turned_shape`."""
    h, w = shape.canvas
    if any(cage.clue is not None for cage in shape.cages):
        return [("identity", (), tuple(range(shape.ncells)))]
    orders: list[tuple[int, ...]] = [()]
    n = shape.size
    box = shape.box
    if (any(house.kind == HouseKind.DIAGONAL for house in shape.houses) and box is not None
            and box[0] == box[1] and len(shape.grids) == 1 and not shape.regions):
        orders = [order for order in block_orders(n, box[0])
                  if all(order[n - 1 - i] == n - 1 - order[i] for i in range(n))]
    out = []
    seen = set()
    for order in orders:
        for name, turn in _TURNS.items():
            if h != w and name in ("rotate90", "rotate270", "transpose", "antitranspose"):
                continue
            cells = _turned_cells(shape, turn, h, w)
            if cells is None:
                continue
            if order:  # the rows and columns ordered first, then the turn
                cells = tuple(order[i // n] * n + order[i % n] for i in cells)
            if cells not in seen:
                seen.add(cells)
                out.append((name, order if order != tuple(range(n)) else (), cells))
    return out


def _turned_cells(shape: Shape, turn: Callable[[int, int, int, int], tuple[int, int]],
                  h: int, w: int) -> tuple[int, ...] | None:
    """``cells[j]``: the cell whose turned place is cell j's; None when the turn moves a cell
    off the shape's footprint."""
    at = shape.cell_at
    cells = [0] * shape.ncells
    for i, (r, c) in enumerate(shape.coords):
        j = at.get(turn(r, c, h, w))
        if j is None:
            return None
        cells[j] = i
    return tuple(cells)


def _turned_shape(shape: Shape, cells: tuple[int, ...]) -> Shape | None:
    """The shape with cell ``cells[j]`` moved to cell j, or None when the turn does not
    keep the houses that are not jigsaw regions."""
    if any(cage.clue is not None for cage in shape.cages):
        # A Kakuro is only ever kept as it is (see _symmetries); rebuilding its runs as
        # cages would drop their clue squares, and the form would be a Kakuro no more.
        return shape
    where = {i: j for j, i in enumerate(cells)}
    fixed = {frozenset(h.cells) for h in shape.houses if h.kind != HouseKind.REGION}
    if {frozenset(where[i] for i in house) for house in fixed} != fixed:
        return None
    base = shape
    if shape.regions:
        base = jigsaw([shape.regions[i] for i in cells], shape.size)
        if any(h.kind == HouseKind.DIAGONAL for h in shape.houses):
            base = diagonal(base)
    if not shape.cages:
        return base
    if base is shape:
        base = shape.replace(name=shape.name.removeprefix("killer-"), cages=())
    return killer(base, [([where[i] for i in cage.cells], cage.total, cage.repeats)
                         for cage in shape.cages])


def _first_appearance(values: Sequence[int], n: int) -> tuple[int, ...]:
    """Labels that number the symbols in order of first appearance (absent ones last)."""
    labels = [0] * (n + 1)
    top = 0
    for v in values:
        if v and not labels[v]:
            top += 1
            labels[v] = top
    for v in range(1, n + 1):
        if not labels[v]:
            top += 1
            labels[v] = top
    return tuple(labels[1:])


def _layout_text(shape: Shape) -> str:
    """What the key holds of a layout: jigsaw regions numbered in order of first
    appearance, then the cages (cells and sums)."""
    parts = []
    if shape.regions:
        seen: dict[int, str] = {}
        parts.append("".join(seen.setdefault(r, _REGION_SYMBOLS[len(seen)])
                             for r in shape.regions))
    if shape.cages:
        # a Kakuro's runs fix where their clue squares are, so the key leaves those out
        # (as the keys banks already hold do)
        parts.append(";".join(
            f"{','.join(map(str, cage.cells))}={'' if cage.total is None else cage.total}"
            for cage in sorted(shape.cages, key=lambda cage: cage.cells)))
    return ":".join(parts)
