"""Symmetries of a puzzle's givens: the groups of canvas cells that are given or empty
together, as a generator chooses them."""

from __future__ import annotations

from .errors import NumberplaceError, ShapeError

#: Symmetry names: each maps a canvas cell (r, c) of an R x C canvas to its images.
SYMMETRIES = ("none", "rotate180", "rotate90", "horizontal", "vertical", "diagonal",
              "antidiagonal", "dihedral", "random")


def images(name: str, r: int, c: int, rows: int, cols: int) -> list[tuple[int, int]]:
    """The images of (r, c) under the symmetry group ``name`` (the cell itself first)."""
    rot180 = (rows - 1 - r, cols - 1 - c)
    if name == "none":
        return [(r, c)]
    if name == "rotate180":
        return [(r, c), rot180]
    if name == "horizontal":  # mirror in the horizontal axis: top and bottom swap
        return [(r, c), (rows - 1 - r, c)]
    if name == "vertical":  # mirror in the vertical axis: left and right swap
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
