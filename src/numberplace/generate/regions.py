"""Random jigsaw shapes: regions that start as the classic boxes (or bands, for sizes
without boxes) and trade cells across their borders at random, each trade keeping both
regions connected, until a shape whose empty grid has a solution is found."""

from __future__ import annotations

import random

from .. import arguments, engine
from ..errors import ShapeError
from ..limits import Deadline
from ..model.puzzle import Puzzle
from ..model.shape import MAX_SIZE, HouseKind, Shape, classic, jigsaw


def random_regions(size: int, seed: int | None = None, moves: int | None = None, *,
                   time_limit: float | None = None) -> Shape:
    """A jigsaw shape of ``size`` with random connected regions that has complete grids.

    Regions start as the classic boxes (or bands for sizes without boxes) and trade
    cells across their borders at random, each trade keeping both regions connected.
    Raises :class:`~numberplace.errors.LimitError` when ``time_limit`` runs out first.
    """
    size = arguments.whole(size, "size", 4, MAX_SIZE)
    deadline = Deadline(arguments.seconds(time_limit))
    rng = random.Random(seed)
    moves = moves if moves is not None else 4 * size
    base = classic(size) if size not in (5, 7) else None
    for _ in range(100):
        if base is not None:
            region = [0] * (size * size)
            for h, house in enumerate(h for h in base.houses if h.kind == HouseKind.BOX):
                for c in house.cells:
                    region[c] = h
        else:
            region = [c // size for c in range(size * size)]
        for _ in range(moves * 20):
            if moves <= 0:
                break
            a = rng.randrange(size * size)
            b = rng.choice(_neighbours(a, size))
            ra, rb = region[a], region[b]
            if ra == rb:
                continue
            # a trade: a joins rb, and some cell of rb next to ra joins ra
            candidates = [x for x in range(size * size) if region[x] == rb and x != b
                          and any(region[y] == ra for y in _neighbours(x, size))]
            if not candidates:
                continue
            x = rng.choice(candidates)
            region[a], region[x] = rb, ra
            if _connected(region, ra, size) and _connected(region, rb, size):
                moves -= 1
            else:
                region[a], region[x] = ra, rb
        try:
            shape = jigsaw([region[r * size:(r + 1) * size] for r in range(size)])
        except ShapeError:
            continue
        found = engine.solve(Puzzle(shape, (0,) * shape.ncells), limit=1, keep=0,
                             node_limit=200_000, time_limit=deadline.left())
        if found.status is not engine.Status.NONE and found.count:
            return shape
        moves = moves or 4 * size
    raise ShapeError(f"no {size}x{size} jigsaw with complete grids was found")


def _neighbours(cell: int, size: int) -> list[int]:
    r, c = divmod(cell, size)
    out = []
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < size and 0 <= cc < size:
            out.append(rr * size + cc)
    return out


def _connected(region: list[int], which: int, size: int) -> bool:
    cells = [c for c, x in enumerate(region) if x == which]
    seen = {cells[0]}
    stack = [cells[0]]
    while stack:
        for y in _neighbours(stack.pop(), size):
            if region[y] == which and y not in seen:
                seen.add(y)
                stack.append(y)
    return len(seen) == len(cells)
