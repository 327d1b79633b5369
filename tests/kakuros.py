"""Random Kakuros and Killers for the tests: layouts whose clues come from a real filling,
shared by the engine's tests of sums and the format tests that write and read them."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from numberplace import Puzzle, solve
from numberplace.errors import ShapeError
from numberplace.model.shape import KakuroSquare, Shape, classic, kakuro, killer

#: A clue square with neither sum (a black square).
X: KakuroSquare = (None, None)


#: Hypothesis arguments for :func:`some_kakuro`: a seed and a grid of 3x3 to 8x8 squares.
LAYOUTS = {"seed": st.integers(0, 10**6), "rows": st.integers(3, 8), "cols": st.integers(3, 8)}


def some_kakuro(seed: int, rows: int, cols: int) -> Shape | None:
    """:func:`random_kakuro` from a seed, or None for a random layout without runs."""
    try:
        return random_kakuro(random.Random(seed), rows, cols)
    except (ValueError, ShapeError):
        return None


def random_kakuro(rng: random.Random, rows: int, cols: int, nudge: bool = False) -> Shape:
    """A random valid layout whose clues come from a random filling (with ``nudge``, one
    clue then changed by one, which often leaves no solution)."""
    white = [[r > 0 and c > 0 and rng.random() < 0.75 for c in range(cols)]
             for r in range(rows)]
    for _ in range(3):  # a white cell in no run of two or more turns black
        for r in range(rows):
            for c in range(cols):
                if white[r][c]:
                    across = (c > 0 and white[r][c - 1]) or (c + 1 < cols and white[r][c + 1])
                    down = (r > 0 and white[r - 1][c]) or (r + 1 < rows and white[r + 1][c])
                    if not (across or down):
                        white[r][c] = False
    runs: list[list[tuple[int, int]]] = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0)):
                if not white[r][c] and r + dr < rows and c + dc < cols and white[r + dr][c + dc]:
                    run = []
                    k = 1
                    while r + dr * k < rows and c + dc * k < cols and white[r + dr * k][c + dc * k]:
                        run.append((r + dr * k, c + dc * k))
                        k += 1
                    runs.append(run)
    if not runs:
        raise ValueError("no runs")
    fill: dict[tuple[int, int], int] = {}

    def place(cells: list[tuple[int, int]]) -> bool:
        if not cells:
            return True
        here = cells[0]
        for v in rng.sample(range(1, 10), 9):
            if all(fill.get(x) != v for run in runs if here in run for x in run):
                fill[here] = v
                if place(cells[1:]):
                    return True
                del fill[here]
        return False

    def walk(r: int, c: int, dr: int, dc: int) -> int | None:
        """The sum of the run after clue square (r, c) in one direction, if there is one."""
        total, k = 0, 1
        while r + dr * k < rows and c + dc * k < cols and white[r + dr * k][c + dc * k]:
            total += fill[(r + dr * k, c + dc * k)]
            k += 1
        return total or None

    whites = [(r, c) for r in range(rows) for c in range(cols) if white[r][c]]
    assert place(whites)
    layout: list[list[KakuroSquare]] = [[None if white[r][c] else X for c in range(cols)]
                                        for r in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if white[r][c]:
                continue
            layout[r][c] = (walk(r, c, 1, 0), walk(r, c, 0, 1))
    if nudge:
        r, c = rng.choice([(r, c) for r in range(rows) for c in range(cols)
                           if layout[r][c] not in (None, X)])
        down, across = layout[r][c]  # type: ignore[misc]
        layout[r][c] = (down + 1, across) if down else (down, across + 1)  # type: ignore[operator]
    return kakuro(layout)


def random_killer9(rng: random.Random, repeats: bool = False) -> Shape:
    """A 9x9 Killer: cages of 1 to 5 joined cells grown at random over a solved grid (with
    ``repeats``, cages whose digits may repeat, grown over repeated digits too)."""
    grid = solve(Puzzle(classic(9), (0,) * 81), keep=1, limit=1).solution
    assert grid is not None
    perm = rng.sample(range(1, 10), 9)  # another solved grid: its digits renamed
    values = [perm[v - 1] for v in grid]
    free = set(range(81))
    cages = []
    while free:
        cell = min(free)
        group = [cell]
        free.discard(cell)
        for _ in range(rng.randint(0, 4)):
            nxt = [n for c in group for n in (c + 1, c + 9) if n in free and (n != c + 1 or n % 9)
                   and (repeats or values[n] not in [values[g] for g in group])]
            if not nxt:
                break
            pick = rng.choice(nxt)
            group.append(pick)
            free.discard(pick)
        cages.append((group, sum(values[c] for c in group), repeats))
    return killer(classic(9), cages)
