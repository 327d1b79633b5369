"""Symmetries of a puzzle's givens: the groups of canvas cells that are given or empty
together, as a generator chooses them."""

from __future__ import annotations

from ..errors import NumberplaceError, ShapeError

#: Symmetry names: each maps a canvas cell (r, c) of an R x C canvas to its images.
SYMMETRIES = ("none", "rotate180", "rotate90", "top-bottom", "left-right", "diagonal",
              "antidiagonal", "dihedral", "random")
#: Older names, which people read both ways ("a horizontal mirror" or "a horizontal
#: line"), still taken: each means what it meant before.
ALIASES = {"horizontal": "top-bottom", "vertical": "left-right"}
#: What each symmetry does, for help texts and docs.
MEANINGS = {
    "none": "givens anywhere",
    "rotate180": "the same turned half a turn (Programming Sudoku's)",
    "rotate90": "the same turned a quarter turn",
    "top-bottom": "the same mirrored top to bottom (row 1 matches the last row)",
    "left-right": "the same mirrored left to right (column 1 matches the last column)",
    "diagonal": "mirrored in the diagonal from the top left",
    "antidiagonal": "mirrored in the diagonal from the top right",
    "dihedral": "all eight turns and mirrors",
    "random": "one of the above that fits the shape, at random",
}


def canonical(name: str) -> str:
    """The symmetry's name, an older name (``horizontal``, ``vertical``) made the new one."""
    return ALIASES.get(name, name)


def images(name: str, r: int, c: int, rows: int, cols: int) -> list[tuple[int, int]]:
    """The images of (r, c) under the symmetry group ``name`` (the cell itself first)."""
    rot180 = (rows - 1 - r, cols - 1 - c)
    name = canonical(name)
    if name == "none":
        return [(r, c)]
    if name == "rotate180":
        return [(r, c), rot180]
    if name == "top-bottom":
        return [(r, c), (rows - 1 - r, c)]
    if name == "left-right":
        return [(r, c), (r, cols - 1 - c)]
    if name in ("rotate90", "diagonal", "antidiagonal", "dihedral") and rows != cols:
        raise ShapeError(f"{name} symmetry needs a square canvas, not {rows}x{cols}")
    n = rows
    if name == "rotate90":
        return [(r, c), (c, n - 1 - r), rot180, (n - 1 - c, r)]
    if name == "diagonal":
        return [(r, c), (c, r)]
    if name == "antidiagonal":
        return [(r, c), (n - 1 - c, n - 1 - r)]
    if name == "dihedral":
        return [(r, c), (c, n - 1 - r), rot180, (n - 1 - c, r), (c, r), (n - 1 - c, n - 1 - r),
                (r, n - 1 - c), (n - 1 - r, c)]
    raise NumberplaceError(f"unknown symmetry {name!r}; known: {', '.join(SYMMETRIES)}")
