"""Symmetric patterns of givens: the cells of a shape that a symmetry maps onto each
other (its *orbits*), which generation empties and refills together so that the givens
keep the symmetry."""

from __future__ import annotations

from functools import lru_cache

from ..errors import ShapeError
from ..model.puzzle import Puzzle
from ..model.shape import Shape
from ..model.symmetry import images


@lru_cache(maxsize=64)
def orbits(shape: Shape, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """The cells of ``shape`` grouped by ``symmetry``: removing whole groups keeps it.

    Raises :class:`ShapeError` when the symmetry would map a cell off the shape.
    """
    rows, cols = shape.canvas
    at = shape.cell_at
    seen: set[int] = set()
    out = []
    for cell, (r, c) in enumerate(shape.coords):
        if cell in seen:
            continue
        group = []
        for rc in images(symmetry, r, c, rows, cols):
            if rc not in at:
                raise ShapeError(f"the {shape.name} shape has no {symmetry} symmetry")
            if at[rc] not in group:
                group.append(at[rc])
        seen.update(group)
        out.append(tuple(sorted(group)))
    return tuple(out)


def has_symmetry(puzzle: Puzzle, symmetry: str) -> bool:
    """True when the puzzle's givens are unchanged by ``symmetry`` (as a pattern)."""
    return all(len({bool(puzzle.givens[c]) for c in group}) == 1
               for group in orbits(puzzle.shape, symmetry))


def fits(shape: Shape, symmetry: str) -> bool:
    """True when ``symmetry`` maps every cell of ``shape`` onto a cell of it."""
    try:
        orbits(shape, symmetry)
    except ShapeError:
        return False
    return True
