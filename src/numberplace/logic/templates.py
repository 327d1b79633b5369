"""Templates: every way one value can fill the grid, and what all of them agree on.

A *template* of a value is a set of cells holding it once in every house. The value's
final places are one of its templates that keep to the board: every cell where it is
placed, none where it is no longer a candidate. Where all of them put the value, it goes
(Template Set); where none does, it cannot go (Template Delete).

The templates of one value are also weighed against the others': a template of x that
takes a cell every remaining template of y needs cannot be x's, and is dropped; this is
repeated until nothing more drops (as HoDoKu does).

Templates exist where every house holds every value once (each house has as many cells
as there are values) and every cell lies in a house; on other shapes (Kakuro) the
finders find nothing. Their number grows fast
with the size of the grid, so each value's are counted up to :data:`MOST_NODES` search
steps (fewer on grids larger than 9x9, see :func:`~.geometry.scaled_budget`); a value
with more is left alone.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..model.shape import Shape
from .board import Board, bit, for_last_board, value_cells
from .geometry import house_bits, ones, peer_bits, scaled_budget
from .step import Role, Step, cells_ref, eliminations_ref, make_step, value_ref

TEMPLATE_SET = "Template Set"
TEMPLATE_DELETE = "Template Delete"

#: Most search steps spent listing one value's templates.
MOST_NODES = 20_000


class _TooMany(Exception):
    """A value has more templates than the search may list."""


def _templates(shape: Shape, allowed: int, placed: int, check_time: object) -> list[int]:
    """Every template within ``allowed`` holding ``placed``."""
    hm = house_bits(shape)
    pm = peer_bits(shape)
    houses_of = shape.houses_of
    out: list[int] = []
    budget = [scaled_budget(MOST_NODES, shape)]

    def walk(avail: int, open_houses: int, chosen: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooMany
        if not open_houses:
            out.append(chosen)
            return
        best_mask, best_n = 0, 1 << 30
        rest = open_houses
        while rest:
            low = rest & -rest
            rest ^= low
            h = low.bit_length() - 1
            m = avail & hm[h]
            n = m.bit_count()
            if n < best_n:
                best_mask, best_n = m, n
                if n <= 1:
                    break
        if best_n == 0:
            return
        for c in ones(best_mask):
            covered = 0
            for h in houses_of[c]:
                covered |= 1 << h
            walk(avail & ~pm[c] & ~(1 << c), open_houses & ~covered, chosen | 1 << c)

    all_houses = (1 << len(hm)) - 1
    start_houses = all_houses
    avail = allowed
    for c in ones(placed):
        for h in houses_of[c]:
            start_houses &= ~(1 << h)
        avail &= ~pm[c]
    avail &= ~placed
    walk(avail, start_houses, placed)
    return out


def _agreements(board: Board) -> dict[int, tuple[int, int]] | None:
    """For each value whose templates could be listed: (cells all its templates hold,
    cells any holds), after weighing each value's templates against the others'.

    The memo keeps the answer for the board (Template Set and Template Delete both ask
    for it) and each value's templates, which the next step's board mostly shares."""
    return for_last_board(board, "templates", lambda: _weighed(board))


def _weighed(board: Board) -> dict[int, tuple[int, int]] | None:
    shape = board.shape
    housed = 0
    for h in shape.houses:
        if len(h.cells) != shape.size:
            return None
        for c in h.cells:
            housed |= 1 << c
    if housed != (1 << shape.ncells) - 1:
        return None  # a cell in no house (a Kakuro's) could hold any value
    vmasks = value_cells(board)
    placed = [0] * (shape.size + 1)
    for c, v in enumerate(board.values):
        if v:
            placed[v] |= 1 << c
    lists: dict[int, list[int]] = {}
    known = board.memo.value_templates
    kept: dict[tuple[Shape, int, int], list[int] | None] = {}
    try:
        for v in range(1, shape.size + 1):
            board.memo.check_time()
            vkey = (shape, vmasks[v] | placed[v], placed[v])
            if vkey in known:
                listed = known[vkey]
            else:
                try:
                    listed = _templates(shape, vkey[1], placed[v], None)
                except _TooMany:
                    listed = None
            kept[vkey] = listed
            if listed is None:
                continue
            if not listed:
                return None  # a value with no way to fill the grid: the board is broken
            lists[v] = listed
    finally:
        board.memo.value_templates = kept
    must = {v: _and(ts) for v, ts in lists.items()}
    while True:
        dropped = False
        for v, ts in lists.items():
            others = 0
            for k, m in must.items():
                if k != v:
                    others |= m & ~placed[k]
            keep = [t for t in ts if not t & others]
            if len(keep) != len(ts):
                if not keep:
                    return None
                lists[v] = keep
                must[v] = _and(keep)
                dropped = True
        if not dropped:
            break
    return {v: (must[v], _or(ts)) for v, ts in lists.items()}


def _and(masks: list[int]) -> int:
    out = -1
    for m in masks:
        out &= m
    return out


def _or(masks: list[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def find_template_set(board: Board, shape: Shape) -> Iterator[Step]:
    """Template Set: cells every template of a value holds take that value."""
    found = _agreements(board)
    if not found:
        return
    for v, (must, _) in sorted(found.items()):
        cells = [c for c in ones(must) if not board.values[c]]
        if not cells:
            continue
        placements = tuple((c, v) for c in cells)
        yield make_step(
            shape, TEMPLATE_SET,
            f"Template Set: every way {value_ref(v)} can fill the grid once in each house, "
            f"within its candidates and beside the other values' ways, puts it in "
            f"{cells_ref(cells)}: place {value_ref(v)} there",
            placements=placements, cells=tuple(cells),
            highlights=tuple((Role.PLACED, c, v) for c in cells))


def find_template_delete(board: Board, shape: Shape) -> Iterator[Step]:
    """Template Delete: a candidate no template of its value holds goes."""
    found = _agreements(board)
    if not found:
        return
    cands = board.candidates
    for v, (_, union) in sorted(found.items()):
        elims = tuple((c, v) for c, m in enumerate(cands) if m & bit(v) and not union >> c & 1)
        if not elims:
            continue
        yield make_step(
            shape, TEMPLATE_DELETE,
            f"Template Delete: no way {value_ref(v)} can fill the grid once in each house, "
            f"within its candidates and beside the other values' ways, uses these cells: "
            f"remove {eliminations_ref(elims)}",
            eliminations=elims, highlights=tuple((Role.REMOVED, c, v) for c, v in elims))
