"""Pattern Match Elimination: where a band of boxes leaves a value its last row.

A *band* is a set of boxes whose cells cover the same rows (a *stack*: the same
columns). With boxes of R rows and C columns a band holds R boxes over R rows, and each
row and each box holds every value once. So when a value is placed in every box of a
band but one, the rows it occupies there are closed to it in the last box, where it must
take the one row left: it leaves that box's cells in the other rows. Likewise for a stack
and its columns. One of the source programs calls this "Pattern Match Elimination".

On a board kept by :meth:`Board.place` these candidates are already gone (placing a
value clears its row), so the finder only speaks up for candidates marked by hand; it
is here so those positions are explained in the source program's terms.

Only shapes with rectangular boxes are served (classic grids of any box size, diagonal,
Samurai, one band per grid); jigsaw regions form no bands and are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from ..model.shape import HouseKind, Shape
from .board import Board, bit
from .step import Role, Step, cell_ref, eliminations_ref, house_ref, make_step, value_ref

PATTERN_MATCH = "Pattern Match Elimination"

#: (axis 0 for rows / 1 for columns, box house indices, line house index by coordinate)
Band = tuple[int, tuple[int, ...], dict[int, int]]


@lru_cache(maxsize=64)
def bands(shape: Shape) -> tuple[Band, ...]:
    """The bands (axis 0) and stacks (axis 1) of boxes of every grid of a shape.

    Each comes with a map from canvas row (column) to the grid's row (column) house.
    """
    if shape.box is None:
        return ()
    out: list[Band] = []
    coords = shape.coords
    for g, grid in enumerate(shape.grids):
        members = set(grid)
        boxes = [h for h, house in enumerate(shape.houses)
                 if house.kind == HouseKind.BOX and set(house.cells) <= members]
        for axis, kind in ((0, HouseKind.ROW), (1, HouseKind.COLUMN)):
            lines = {coords[house.cells[0]][axis]: h for h, house in enumerate(shape.houses)
                     if house.kind == kind and house.grid == g}
            groups: dict[frozenset[int], list[int]] = {}
            for h in boxes:
                span = frozenset(coords[c][axis] for c in shape.houses[h].cells)
                groups.setdefault(span, []).append(h)
            for span, group in sorted(groups.items(), key=lambda kv: min(kv[0])):
                if len(group) == len(span) >= 2 and span <= lines.keys():
                    out.append((axis, tuple(group), {k: lines[k] for k in sorted(span)}))
    return tuple(out)


def find_pattern_match(board: Board, shape: Shape) -> Iterator[Step]:
    """A value placed in all boxes of a band but one keeps to its last row in that box."""
    values, cands = board.values, board.candidates
    coords = shape.coords
    for axis, boxes, lines in bands(shape):
        line_word = str(HouseKind.ROW if axis == 0 else HouseKind.COLUMN)
        for value in range(1, shape.size + 1):
            vb = bit(value)
            placed: dict[int, int] = {}  # box -> cell holding the value
            missing = []
            for h in boxes:
                where = [c for c in shape.houses[h].cells if values[c] == value]
                if len(where) == 1:
                    placed[h] = where[0]
                elif not where:
                    missing.append(h)
            if len(missing) != 1 or len(placed) != len(boxes) - 1:
                continue
            used = {coords[c][axis] for c in placed.values()}
            free = [k for k in lines if k not in used]
            if len(free) != 1:
                continue  # two placements share a line: a contradiction, not ours to hide
            target = missing[0]
            elims = tuple((c, value) for c in shape.houses[target].cells
                          if coords[c][axis] in used and cands[c] & vb)
            if not elims:
                continue
            where_placed = ", ".join(f"{cell_ref(c)} ({house_ref(h)})"
                                     for h, c in sorted(placed.items()))
            template = (f"{value_ref(value)} is placed in {where_placed}, so in "
                        f"{house_ref(target)} it must go in {house_ref(lines[free[0]])}, the "
                        f"{line_word} of the band it does not occupy yet: remove "
                        f"{eliminations_ref(elims)}")
            yield make_step(
                shape, PATTERN_MATCH, template, eliminations=elims,
                cells=tuple(c for _, c in sorted(placed.items())),
                houses=tuple(boxes) + (lines[free[0]],),
                highlights=tuple((Role.DEFINING, c, value) for c in placed.values())
                + tuple((Role.REMOVED, c, v) for c, v in elims))
