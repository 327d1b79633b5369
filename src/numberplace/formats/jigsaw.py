"""The ``jigsaw`` format: the givens, a line ``regions:``, then the region map::

    3.......4
    ..2.6.1..
    ...
    regions:
    111222333
    112222333
    ...

The givens are one line of n*n characters or n rows (read like the ``grid`` format). The
region map gives each cell's region, by any label characters, as n rows of n or one line
of n*n; spaces in it are ignored. Each region needs n cells. The map makes the shape: it
needs no other shape. The two diagonals are houses too (a jigsaw-X, or the X variant of a
classic grid) when the line reads ``regions: diagonal``, or when a ``diagonal`` shape is
asked for; a shape with diagonals is written so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..errors import NumberplaceError
from ..model.puzzle import Puzzle
from ..model.shape import MAX_SIZE, Shape, classic, diagonal, jigsaw
from . import grid, line
from ._common import (
    REGION_LABELS,
    Context,
    Numbered,
    content_lines,
    fail,
    has_diagonals,
    is_single_grid,
    region_numbers,
    with_article,
)

#: The line between the givens and the region map.
MARKER = "regions:"
#: The same line for a shape whose two diagonals are houses too.
DIAGONAL_MARKER = "regions: diagonal"


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read givens and their region map."""
    givens, marker, regions, diagonals = _parts(record)
    shape = _region_shape(regions, marker)
    if diagonals:
        shape = _with_diagonals(shape, marker)
    shape = _fit(shape, ctx.shape, marker)
    inner = Context(shape, ctx.alphabet)
    if not givens:
        fail(f"no givens before {MARKER!r}", marker)
    if len(givens) == 1:
        return line.read(givens, inner)
    return grid.read(givens, inner)


def write(puzzle: Puzzle) -> str:
    """The givens as rows, ``regions:``, and the region map with labels 1-9, A, B, ..."""
    shape = puzzle.shape
    numbers = region_numbers(shape) if is_single_grid(shape) else None
    if numbers is None:
        fail(f"the jigsaw format needs regions or boxes; {with_article(shape.name)} puzzle "
             f"has neither")
    width = shape.canvas[1]
    labels = "".join(REGION_LABELS[n] for n in numbers)
    rows = ["".join(row) for row in grid.cell_symbols(puzzle)]
    marker = DIAGONAL_MARKER if has_diagonals(shape) else MARKER
    return "\n".join(rows + [marker] + [labels[i:i + width] for i in range(0, len(labels), width)])


def is_marker(text: str) -> bool:
    """True for the line between the givens and the region map."""
    return " ".join(text.lower().split()) in (MARKER, DIAGONAL_MARKER)


def _parts(record: Sequence[Numbered]) -> tuple[list[Numbered], int, list[Numbered], bool]:
    lines = content_lines(record)
    for i, (number, text) in enumerate(lines):
        if is_marker(text):
            diagonals = " ".join(text.lower().split()) == DIAGONAL_MARKER
            return lines[:i], number, lines[i + 1:], diagonals
    fail(f"no line {MARKER!r}; a jigsaw gives its givens, then {MARKER!r}, then the region map",
         lines[0][0] if lines else None)


def _region_shape(regions: Sequence[Numbered], marker: int) -> Shape:
    """The jigsaw shape a region map draws."""
    if not regions:
        fail(f"no region map after {MARKER!r}", marker)
    cells = [(number, col, ch) for number, text in regions
             for col, ch in enumerate(text, start=1) if not ch.isspace()]
    size = math.isqrt(len(cells)) if len(regions) == 1 else len(regions)
    if not 1 <= size <= MAX_SIZE or len(cells) != size * size:
        fail(f"a region map of {len(cells)} labels; a map has n rows of n labels, "
             f"n up to {MAX_SIZE}", regions[0][0])
    if len(regions) > 1:
        _check_map_rows(regions, size)
    labels: dict[str, int] = {}
    counts: dict[str, int] = {}
    for _, _, ch in cells:
        labels.setdefault(ch, len(labels))
        counts[ch] = counts.get(ch, 0) + 1
    for number, col, ch in cells:
        # The labels number size*size, so a wrong count of regions shows as a wrong size.
        if counts[ch] != size:
            fail(f"region {ch!r} has {counts[ch]} cells; a {size}x{size} jigsaw needs "
                 f"{size} regions of {size} cells", number, col)
    try:
        return jigsaw([labels[ch] for _, _, ch in cells], size)
    except NumberplaceError as exc:
        fail(str(exc), regions[0][0])


def _check_map_rows(regions: Sequence[Numbered], size: int) -> None:
    for number, text in regions:
        count = len("".join(text.split()))
        if count != size:
            fail(f"{count} labels, a row of the region map needs {size}", number)


def _fit(shape: Shape, asked: Shape | None, marker: int) -> Shape:
    """Reconcile the map's shape with the shape the caller named, if any."""
    if asked is None:
        return shape
    if has_diagonals(asked):
        shape = _with_diagonals(shape, marker)
        if _is_plain_diagonal(asked):
            # 'diagonal' asks for the diagonals on whatever regions the map draws.
            return shape
    if shape != asked:
        fail(f"the region map does not match the {asked.name} shape asked for", marker)
    return shape


def _with_diagonals(shape: Shape, marker: int) -> Shape:
    try:
        return diagonal(shape)
    except NumberplaceError as exc:
        fail(str(exc), marker)


def _is_plain_diagonal(shape: Shape) -> bool:
    """True for the X variant of a classic grid, as the shape name ``diagonal`` gives."""
    try:
        return shape == diagonal(classic(shape.size))
    except NumberplaceError:
        return False
