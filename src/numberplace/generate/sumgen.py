"""Generate Kakuros and Killer Sudokus with exactly one solution.

A Killer (:func:`generate_killer`) starts from a random full grid of its base shape. Its
cages grow from random cells, each taking random neighbours whose digits it does not
hold yet, up to a size drawn as published Killers' cage sizes go; a cell left alone
joins a neighbouring cage. The sums come from the grid. While a search finds a second
solution, a cell where the two differ moves to a neighbouring cage (a bounded number of
times), then a cage holding such a cell is split in two (each part still connected):
cages only get smaller then, so this ends. One-cell cages beyond the number allowed
(one by default) are merged into a neighbour where the puzzle keeps one solution, or
the grid is dropped for another.

A Kakuro is made in four parts:

1. **Layout** (:func:`kakuro_layout`): the white cells, symmetric under a half turn, in
   runs of 2 to 9 cells, all connected. Black squares are added in mirrored pairs, first
   to cut runs longer than nine, then, until a share of the inner squares is black,
   preferring runs longer than the layout's favourite length; a pair goes in only if no
   run is left with one cell and the white cells stay connected. A run longer than nine
   that no pair can cut is cut by a small group instead: the cells a pair would leave
   alone go too, as in a blackout (part 4).
2. **Sums, one run at a time**: the runs are taken in reading order, and each gets the
   sum, among its present one and a few others drawn at random, that leaves the fewest
   candidates after the engine's propagation (:func:`numberplace.engine.propagate`)
   over the sums chosen so far, as long as some filling still fits (the engine keeps a
   witness filling; a sum that differs from the witness's is searched for first).
3. **Repair**: the witness filling is changed a cell at a time, each time at a cell the
   propagation leaves undecided (after a search found a second solution: where the two
   differ), to the value (different from its runs') or by the swap with a cell of one of
   its runs that leaves the fewest undecided; a worse change is taken now and then, less
   often as the repair goes on (simulated annealing). It ends when propagation decides
   every cell or, when it stalls, when a search proves the sums have one solution.
4. **Blackout**: when the repair stalls (:data:`PATIENCE` steps without a new fewest of
   undecided cells) with a second solution left, a cell where the two differ (if none
   can go, one propagation leaves undecided) turns black with its mirror image
   (:func:`black_group`): a white cell this leaves alone across or down goes too, with
   its mirror image, and so on; if the white cells fall apart, every piece but the
   largest goes. The runs and their sums are taken again from the filling (a run's
   digits stay different, as it only loses cells), and the repair goes on. Runs only
   shrink, so this ends. If no such cell can go (the group would take more than a
   quarter of the white cells, or leave two mirror-image pieces of the same size), the
   repair goes on while its steps last; after that, a new layout is drawn.

Every puzzle returned has been checked by a full search to have exactly one solution.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .. import arguments
from ..engine import SumsProbe, solve
from ..engine.grids import random_grid
from ..engine.sums import combinations as sum_combinations
from ..errors import LimitError, NumberplaceError
from ..limits import NEVER, Deadline
from ..model.puzzle import Puzzle
from ..model.shape import Cage, KakuroSquare, Shape, classic, is_across, kakuro, killer

#: Kakuro sizes a generator makes (the whole grid, clue squares included).
MIN_SIDE, MAX_SIDE = 4, 40
#: Share of the inner squares made black, and the run length preferred, by default.
BLACK_SHARE, FAVOURITE_RUN = 0.3, 6
#: Squares a layout may turn black at once to cut a run longer than nine.
MAX_CUT = 6
#: Repair changes one attempt may make before it starts again from a new layout, at
#: least and per white cell.
REPAIR_STEPS, REPAIR_STEPS_PER_CELL = 400, 4
#: Repair steps without a new fewest of undecided cells after which a cell where two
#: solutions differ is blacked out instead.
PATIENCE = 20
#: Swaps with a cell of the same run tried at each repair step.
SWAPS_TRIED = 3
#: Other sums tried for a run while the sums are chosen.
SUMS_TRIED = 6
#: Nodes a search for a filling that fits a new sum may take (most take a few dozen).
FIT_NODES = 2_000
#: Nodes a search for a second solution may take during the repair.
CHECK_NODES = 20_000

Grid = list[list[bool]]


@dataclass
class GeneratedKakuro:
    """A generated Kakuro with its solution and the seed that reproduces it; ``attempts``
    counts the layouts drawn, ``blackouts`` the times cells of the last one were blacked
    out (each with its mirror image) on the way to one solution."""

    puzzle: Puzzle
    solution: tuple[int, ...]
    seed: int
    attempts: int = 1
    blackouts: int = 0


@dataclass
class GeneratedKiller:
    """A generated Killer Sudoku with its solution and the seed that reproduces it."""

    puzzle: Puzzle
    solution: tuple[int, ...]
    seed: int
    splits: int = 0


#: The largest cage a Killer generator grows.
MAX_CAGE = 5
#: Nodes a Killer's uniqueness check may take before a cage is split anyway.
KILLER_CHECK_NODES = 200_000
#: How many cages of each size published Killers have: the 14 collected 9x9 Killers of
#: two publishers (tests/data/sums/killer-9x9.txt, 424 cages). Cages grow to sizes drawn
#: with these weights; one-cell cages are not grown, as a one-cell cage is a given.
PUBLISHED_CAGE_SIZES = {1: 15, 2: 219, 3: 122, 4: 44, 5: 12, 6: 5, 7: 7}
#: One-cell cages a Killer may have by default (published ones have 0 to 3, 1 on average).
ONE_CELL_CAGES = 1
#: Moves of a cell from cage to cage a Killer's repair may make before it splits cages.
KILLER_MOVES = 60
#: Grids a Killer generator draws before it gives up keeping to the one-cell cages asked.
KILLER_GRIDS = 50


def generate_killer(base: Shape | None = None, *, seed: int | None = None,
                    max_cage: int | None = None, deadline: Deadline = NEVER,
                    repeats: bool = False, one_cell_cages: int = ONE_CELL_CAGES,
                    telling: bool = False) -> GeneratedKiller:
    """A Killer Sudoku on ``base`` (classic 9x9 by default; any Sudoku shape) with exactly
    one solution and no givens, its cages of up to ``max_cage`` cells (default
    :data:`MAX_CAGE`, at most the shape's size) and at most ``one_cell_cages`` cages of
    one cell (a one-cell cage is a given in disguise). With ``repeats``, the variant
    whose cage digits may repeat where a cage's cells share no house: every cage is such
    a cage, and cages grow over repeated digits. With ``telling``, a growing cage takes
    the neighbour that leaves its sum the fewest sets of digits (an easy Killer's cages
    mostly have one). The same seed gives the same puzzle.

    Cages grow to sizes drawn as published Killers have them
    (:data:`PUBLISHED_CAGE_SIZES`). While a search finds a second solution, a cell where
    the two differ moves to a neighbouring cage (both stay connected, no digit twice),
    which changes both sums; after :data:`KILLER_MOVES` moves, a cage holding such a cell
    is split in two instead. A cage of one cell is merged into a neighbour where that
    keeps one solution. A grid that ends with more one-cell cages than allowed is
    dropped for a new one (at most :data:`KILLER_GRIDS`; then NumberplaceError).
    """
    base = classic(9) if base is None else base
    if base.cages:
        raise NumberplaceError(f"the {base.name} shape has cages already")
    max_cage = (min(MAX_CAGE, base.size) if max_cage is None
                else arguments.whole(max_cage, "max_cage", 1, base.size))
    one_cell_cages = arguments.whole(one_cell_cages, "one_cell_cages", 0, base.ncells)
    seed = random.randrange(2**32) if seed is None else seed
    rng = random.Random(seed)
    splits = 0
    for _ in range(KILLER_GRIDS):
        grid = random_grid(base, rng.randrange(2**32))
        maker = _KillerCages(rng, base, grid, max_cage, repeats, telling)
        puzzle: Puzzle | None = maker.unique(deadline)
        splits += maker.splits
        if puzzle is not None and maker.singles() > one_cell_cages:
            puzzle = maker.merge_singles(deadline, one_cell_cages)
        if puzzle is not None:
            return GeneratedKiller(puzzle, grid, seed, splits)
    raise NumberplaceError(f"no Killer with at most {one_cell_cages} one-cell cages in "
                           f"{KILLER_GRIDS} grids; allow more one-cell cages")


class _KillerCages:
    """The cages of a Killer on one full grid, as they are grown and repaired (see
    :func:`generate_killer`)."""

    def __init__(self, rng: random.Random, base: Shape, grid: Sequence[int], max_cage: int,
                 repeats: bool, telling: bool = False) -> None:
        self.rng, self.base, self.grid = rng, base, grid
        self.max_cage, self.repeats = max_cage, repeats
        self.beside = _neighbours(base)
        self.cages = _grow_cages(rng, grid, self.beside, max_cage, repeats,
                                 base.size if telling and not repeats else 0)
        self.splits = 0

    def singles(self) -> int:
        return sum(1 for cells in self.cages if len(cells) == 1)

    def puzzle(self) -> Puzzle:
        shape = killer(self.base, [(cells, sum(self.grid[c] for c in cells), self.repeats)
                                   for cells in self.cages])
        return Puzzle(shape, (0,) * shape.ncells)

    def differ(self, puzzle: Puzzle) -> set[int] | None:
        """None when the puzzle has one solution, else the cells where a second differs
        from the grid (every cell where the search was cut short)."""
        found = solve(puzzle, limit=2, keep=2, node_limit=KILLER_CHECK_NODES)
        if found.status == "unique":
            return None
        other = [s for s in found.solutions if s != self.grid]
        return ({c for c in range(self.base.ncells) if other[0][c] != self.grid[c]} if other
                else set(range(self.base.ncells)))

    def unique(self, deadline: Deadline) -> Puzzle:
        """Repair the cages until the puzzle has one solution (see :func:`generate_killer`)."""
        moves = 0
        while True:
            deadline.check()
            puzzle = self.puzzle()
            differ = self.differ(puzzle)
            if differ is None:
                return puzzle
            if moves < KILLER_MOVES and self._move(differ):
                moves += 1
                continue
            whole = [k for k, cells in enumerate(self.cages)
                     if len(cells) > 1 and differ & set(cells)]
            # a split that leaves no one-cell cage, where a cage is big enough
            big = [k for k in whole if len(self.cages[k]) >= 4]
            k = self.rng.choice(big or whole)
            self.cages[k:k + 1] = _split(self.rng, self.cages[k], self.beside,
                                         least=2 if big else 1)
            self.splits += 1

    def _owner(self) -> list[int]:
        owner = [0] * self.base.ncells
        for k, cells in enumerate(self.cages):
            for c in cells:
                owner[c] = k
        return owner

    def _fits(self, cell: int, cells: Sequence[int]) -> bool:
        """Whether ``cell`` may join the cage of ``cells``: room, and its digit not there."""
        return (len(cells) < self.max_cage
                and (self.repeats or self.grid[cell] not in {self.grid[c] for c in cells}))

    def _move(self, differ: set[int]) -> bool:
        """Move a cell where two solutions differ to a neighbouring cage; False when no
        such cell can move (its cage would fall apart or become one cell)."""
        owner = self._owner()
        moves = []
        for c in sorted(differ):
            home = self.cages[owner[c]]
            if len(home) < 3 or not _connected(set(home) - {c}, self.beside):
                continue
            for k in sorted({owner[n] for n in self.beside[c]} - {owner[c]}):
                if self._fits(c, self.cages[k]):
                    moves.append((c, k))
        if not moves:
            return False
        c, k = self.rng.choice(moves)
        self.cages[owner[c]] = tuple(q for q in self.cages[owner[c]] if q != c)
        self.cages[k] = tuple(sorted((*self.cages[k], c)))
        return True

    def merge_singles(self, deadline: Deadline, allowed: int) -> Puzzle | None:
        """Merge one-cell cages into neighbouring cages, each merge kept only while the
        puzzle keeps one solution, until at most ``allowed`` are left; None if they
        cannot all go."""
        for single in [cells for cells in self.cages if len(cells) == 1]:
            if self.singles() <= allowed:
                break
            if single not in self.cages:
                continue  # another one-cell cage took it
            cell = single[0]
            owner = self._owner()
            for k in sorted({owner[n] for n in self.beside[cell]} - {owner[cell]}):
                deadline.check()
                if not self._fits(cell, self.cages[k]):
                    continue
                kept = list(self.cages)
                self.cages[k] = tuple(sorted((*self.cages[k], cell)))
                self.cages.remove(single)
                if self.differ(self.puzzle()) is None:
                    break
                self.cages = kept
        return self.puzzle() if self.singles() <= allowed else None


def _neighbours(shape: Shape) -> list[list[int]]:
    at = shape.cell_at
    return [[at[(r + dr, c + dc)] for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
             if (r + dr, c + dc) in at] for r, c in shape.coords]


def _draw_size(rng: random.Random, max_cage: int) -> int:
    """A cage size of 2 to ``max_cage``, drawn as published Killers' sizes go."""
    sizes = [s for s in PUBLISHED_CAGE_SIZES if 2 <= s <= max_cage] or [max_cage]
    return rng.choices(sizes, [PUBLISHED_CAGE_SIZES.get(s, 1) for s in sizes])[0]


def _grow_cages(rng: random.Random, grid: Sequence[int], beside: list[list[int]],
                max_cage: int, repeats: bool = False, telling: int = 0
                ) -> list[tuple[int, ...]]:
    """Cages grown from random cells to drawn sizes; a cell left alone joins a
    neighbouring cage that has room and lacks its digit, where there is one. With
    ``telling`` (the digits' count), a cage takes the neighbour that leaves its sum the
    fewest sets of digits."""
    owner = [-1] * len(grid)
    cages: list[list[int]] = []
    for start in rng.sample(range(len(grid)), len(grid)):
        if owner[start] >= 0:
            continue
        cage = [start]
        owner[start] = len(cages)
        size = _draw_size(rng, max_cage) if max_cage > 1 else 1
        while len(cage) < size:
            digits = {grid[c] for c in cage}
            free = [n for c in cage for n in beside[c]
                    if owner[n] < 0 and (repeats or grid[n] not in digits)]
            if not free:
                break
            if telling:
                total = sum(grid[c] for c in cage)
                ways = {n: len(sum_combinations(total + grid[n], len(cage) + 1, telling))
                        for n in free}
                fewest = min(ways.values())
                free = [n for n in free if ways[n] == fewest]
            pick = rng.choice(free)
            owner[pick] = len(cages)
            cage.append(pick)
        cages.append(cage)
    for k, cage in enumerate(cages):
        if len(cage) != 1 or max_cage == 1:
            continue
        cell = cage[0]
        homes = [j for j in sorted({owner[n] for n in beside[cell]})
                 if j != k and len(cages[j]) < max_cage
                 and (repeats or grid[cell] not in {grid[c] for c in cages[j]})]
        if homes:
            j = min(homes, key=lambda j: len(cages[j]))
            cages[j].append(cell)
            owner[cell] = j
            cage.clear()
    return [tuple(sorted(cage)) for cage in cages if cage]


def _piece(start: int, cells: set[int], beside: list[list[int]]) -> set[int]:
    """The cells of ``cells`` reached from ``start`` through neighbours among them."""
    seen, todo = {start}, [start]
    while todo:
        for n in beside[todo.pop()]:
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _connected(cells: set[int], beside: list[list[int]]) -> bool:
    """Whether ``cells`` form one piece."""
    return not cells or len(_piece(next(iter(cells)), cells, beside)) == len(cells)


def _split(rng: random.Random, cells: tuple[int, ...], beside: list[list[int]],
           least: int = 1) -> list[tuple[int, ...]]:
    """A cage cut in two connected parts: one grown from a random cell, the rest left
    connected (cells that would be cut off join the grown part); with ``least`` 2, a
    cut that leaves a part of one cell is tried again (a few times)."""
    for _ in range(20):
        parts = _split_once(rng, cells, beside)
        if min(len(p) for p in parts) >= least:
            break
    return parts


def _split_once(rng: random.Random, cells: tuple[int, ...], beside: list[list[int]]
                ) -> list[tuple[int, ...]]:
    inside = set(cells)
    part = {rng.choice(cells)}
    target = max(1, len(cells) // 2)
    while len(part) < target:
        grow = [n for c in part for n in beside[c] if n in inside and n not in part]
        part.add(rng.choice(grow))
    rest = inside - part
    # the rest may have fallen apart: keep its largest piece, the others join the part
    pieces: list[set[int]] = []
    for c in sorted(rest):
        if not any(c in piece for piece in pieces):
            pieces.append(_piece(c, rest, beside))
    keep = max(pieces, key=len)
    part |= rest - keep
    return [tuple(sorted(part)), tuple(sorted(keep))]


def kakuro_layout(rng: random.Random, rows: int, cols: int, *, black: float = BLACK_SHARE,
                  favourite: int = FAVOURITE_RUN, deadline: Deadline = NEVER
                  ) -> tuple[tuple[bool, ...], ...]:
    """A random layout (True: white), symmetric under a half turn; see the module's text.

    Raises NumberplaceError when 100 tries find none (grids too small for runs), and
    LimitError when the deadline passes first.
    """
    for _ in range(100):
        white = _try_layout(rng, rows, cols, black, favourite, deadline)
        if white is not None:
            return tuple(tuple(row) for row in white)
    raise NumberplaceError(f"no Kakuro layout of {rows}x{cols} found")


def _try_layout(rng: random.Random, rows: int, cols: int, black: float,
                favourite: int, deadline: Deadline) -> Grid | None:
    white = [[r > 0 and c > 0 for c in range(cols)] for r in range(rows)]
    target = black * (rows - 1) * (cols - 1)
    blacks = 0
    while True:
        deadline.check()
        runs = _runs(white)
        too_long = [run for run in runs if len(run) > 9]
        if too_long:
            # a run with no cut that fits may come first: the others are tried after it
            rng.shuffle(too_long)
            candidates = [x for run in too_long for x in rng.sample(_cut_points(run),
                                                                   len(_cut_points(run)))]
        elif blacks < target:
            long_runs = [run for run in runs if len(run) > favourite]
            candidates = (_cut_points(rng.choice(long_runs)) if long_runs and
                          rng.random() < 0.8 else [x for run in runs for x in run])
            rng.shuffle(candidates)
        else:
            return white
        for r, c in candidates:
            group = {(r, c), (rows - r, cols - c)}
            if not all(1 <= y < rows and 1 <= x < cols and white[y][x] for y, x in group):
                continue
            for y, x in group:
                white[y][x] = False
            if _fits(white, group) and _still_connected(white, group):
                blacks += len(group)
                break
            for y, x in group:
                white[y][x] = True
        else:
            if too_long:
                # a cut may leave a cell alone across or down (beside the edge, say):
                # that cell goes too, as a blackout takes it
                for cell in candidates:
                    cut = black_group(white, cell)
                    if cut is not None and len(cut) <= MAX_CUT:
                        for y, x in cut:
                            white[y][x] = False
                        blacks += len(cut)
                        break
                else:
                    return None
                continue
            if len(candidates) < sum(len(run) for run in runs):
                continue  # no cut of the chosen long run fits: try any cell next time
            return white if blacks >= target / 2 else None


def _runs(white: Grid) -> list[list[tuple[int, int]]]:
    """Every across and down run of two or more white cells."""
    rows, cols = len(white), len(white[0])
    out = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0)):
                if white[r][c] and not (r >= dr and c >= dc and white[r - dr][c - dc]):
                    run = []
                    y, x = r, c
                    while y < rows and x < cols and white[y][x]:
                        run.append((y, x))
                        y, x = y + dr, x + dc
                    if len(run) > 1:
                        out.append(run)
    return out


def _cut_points(run: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The cells of a run that can turn black without leaving a piece of one cell."""
    n = len(run)
    return [x for k, x in enumerate(run) if k != 1 and n - k - 1 != 1]


def _run_length(white: Grid, r: int, c: int, dr: int, dc: int) -> int:
    n = 1
    for step in (1, -1):
        y, x = r + dr * step, c + dc * step
        while 0 <= y < len(white) and 0 <= x < len(white[0]) and white[y][x]:
            n += 1
            y, x = y + dr * step, x + dc * step
    return n


def _fits(white: Grid, group: set[tuple[int, int]]) -> bool:
    """Every white cell beside the new black squares is still in an across and a down run
    of two or more cells."""
    for r, c in group:
        for y, x in ((r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)):
            if 0 <= y < len(white) and 0 <= x < len(white[0]) and white[y][x] and (
                    _run_length(white, y, x, 0, 1) < 2 or _run_length(white, y, x, 1, 0) < 2):
                return False
    return True


def _still_connected(white: Grid, group: set[tuple[int, int]]) -> bool:
    """Whether the white cells, connected before the squares of ``group`` turned black,
    still are: so they are if the white cells beside the group reach one another, and
    the search can stop once they all have been reached."""
    rows, cols = len(white), len(white[0])
    targets = {(y, x) for r, c in group
               for y, x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
               if 0 <= y < rows and 0 <= x < cols and white[y][x]}
    if not targets:
        return any(map(any, white))  # the group was a piece of its own
    start = next(iter(targets))
    seen, todo = {start}, [start]
    found = 1
    while todo and found < len(targets):
        r, c = todo.pop()
        for y, x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= y < rows and 0 <= x < cols and white[y][x] and (y, x) not in seen:
                seen.add((y, x))
                todo.append((y, x))
                found += (y, x) in targets
    return found == len(targets)


def layout_shape(white: Sequence[Sequence[bool]]) -> Shape:
    """The Kakuro shape of a layout, every run's sum its largest (a placeholder: the
    generator's probe sets the real ones)."""
    rows, cols = len(white), len(white[0])

    def top(r: int, c: int, dr: int, dc: int) -> int | None:
        n = 0
        while r + dr * (n + 1) < rows and c + dc * (n + 1) < cols and (
                white[r + dr * (n + 1)][c + dc * (n + 1)]):
            n += 1
        return sum(range(10 - n, 10)) if n else None

    squares: list[list[KakuroSquare]] = [
        [None if white[r][c] else (top(r, c, 1, 0), top(r, c, 0, 1)) for c in range(cols)]
        for r in range(rows)]
    return kakuro(squares)


def with_sums(shape: Shape, totals: Sequence[int]) -> Shape:
    """A Kakuro shape with its runs' sums replaced (in the order of ``shape.cages``)."""
    rows, cols = shape.canvas
    squares: list[list[KakuroSquare]] = [[(None, None)] * cols for _ in range(rows)]
    for r, c in shape.coords:
        squares[r][c] = None
    for cage, total in zip(shape.cages, totals, strict=True):
        r, c = shape.coords[cage.cells[0]]
        across = is_across(shape, cage)
        clue_at = (r, c - 1) if across else (r - 1, c)
        down, right = squares[clue_at[0]][clue_at[1]] or (None, None)
        squares[clue_at[0]][clue_at[1]] = (down, total) if across else (total, right)
    return kakuro(squares)


def generate_kakuro(rows: int, cols: int | None = None, *, seed: int | None = None,
                    attempts: int = 50, deadline: Deadline = NEVER) -> GeneratedKakuro:
    """A Kakuro of ``rows`` x ``cols`` squares (clue squares included) with exactly one
    solution. The same seed gives the same puzzle.

    Raises LimitError when ``attempts`` layouts or the deadline run out first.
    """
    rows = arguments.whole(rows, "rows", MIN_SIDE, MAX_SIDE)
    cols = rows if cols is None else arguments.whole(cols, "cols", MIN_SIDE, MAX_SIDE)
    attempts = arguments.whole(attempts, "attempts", 1, 1_000_000)
    seed = random.randrange(2**32) if seed is None else seed
    rng = random.Random(seed)
    for attempt in range(1, attempts + 1):
        deadline.check()
        white = [list(row) for row in kakuro_layout(rng, rows, cols, deadline=deadline)]
        base = layout_shape(white)
        probe = SumsProbe(base)
        fill = _choose_sums(rng, base, probe, deadline)
        blackouts, done = 0, 0
        budget = max(REPAIR_STEPS, REPAIR_STEPS_PER_CELL * base.ncells)
        while fill is not None:
            fill, differ, steps = _repair(rng, base, probe, fill, deadline, done, budget)
            done += steps
            if not differ:
                shape = with_sums(base, totals(base, fill))
                return GeneratedKakuro(Puzzle(shape, (0,) * shape.ncells), tuple(fill),
                                       seed, attempt, blackouts)
            deadline.check()
            group = _blackout(rng, white, [base.coords[c] for c in differ],
                              [base.coords[c] for c in _undecided(probe, base, fill)])
            if group is None:
                # no cell can go: repair on while steps are left, the second solution
                # may move to cells that can
                if done >= budget:
                    break
                continue
            values = dict(zip(base.coords, fill, strict=True))
            for r, c in group:
                white[r][c] = False
            base = layout_shape(white)
            probe = SumsProbe(base)
            fill = [values[rc] for rc in base.coords]
            blackouts += 1
    raise LimitError(f"no {rows}x{cols} Kakuro with one solution in {attempts} attempts")


def _blackout(rng: random.Random, white: Grid, differ: Sequence[tuple[int, int]],
              undecided: Sequence[tuple[int, int]]) -> set[tuple[int, int]] | None:
    """The squares to turn black so that one of the ``differ`` cells (or, if none of
    them can go, one of the ``undecided`` ones) goes with its mirror image, the layout
    keeping its rules (see :func:`black_group`): the smallest such group, ties broken at
    random. None if no group takes at most a quarter of the white cells."""
    most = sum(map(sum, white)) // 4
    for cells in (differ, undecided):
        best: tuple[int, float, set[tuple[int, int]]] | None = None
        for cell in cells:
            group = black_group(white, cell)
            if group is not None and len(group) <= most:
                key = (len(group), rng.random(), group)
                if best is None or key[:2] < best[:2]:
                    best = key
        if best is not None:
            return best[2]
    return None


def black_group(white: Sequence[Sequence[bool]], cell: tuple[int, int]
                ) -> set[tuple[int, int]] | None:
    """The white squares to turn black, ``cell`` and its mirror image among them, so
    that the layout stays symmetric, connected and in runs of 2 to 9.

    A white square left alone across or down goes too, with its mirror image, until none
    is; then, if the white cells fell apart, every piece but the largest goes. None if
    ``cell`` is not white or no piece is the one largest (two mirror images, or none).
    """
    rows, cols = len(white), len(white[0])
    r, c = cell
    if not (1 <= r < rows and 1 <= c < cols and white[r][c]):
        return None
    grid = [list(row) for row in white]
    group: set[tuple[int, int]] = set()
    todo = [(r, c)]
    while todo:
        y, x = todo.pop()
        for sy, sx in ((y, x), (rows - y, cols - x)):
            if grid[sy][sx]:
                grid[sy][sx] = False
                group.add((sy, sx))
                # only the squares beside a new black one can be left alone
                for ny, nx in ((sy, sx - 1), (sy, sx + 1), (sy - 1, sx), (sy + 1, sx)):
                    if 0 <= ny < rows and 0 <= nx < cols and grid[ny][nx] and (
                            _run_length(grid, ny, nx, 0, 1) < 2
                            or _run_length(grid, ny, nx, 1, 0) < 2):
                        todo.append((ny, nx))
    pieces = sorted(_pieces(grid), key=len, reverse=True)
    if not pieces or (len(pieces) > 1 and len(pieces[1]) == len(pieces[0])):
        return None
    # a piece cut off goes whole, so its runs are untouched; the mirror image of a piece
    # is a piece of the same size, so the one largest is its own and symmetry is kept
    for piece in pieces[1:]:
        group |= piece
    return group


def _pieces(grid: Sequence[Sequence[bool]]) -> list[set[tuple[int, int]]]:
    """The white cells in pieces joined side to side."""
    rows, cols = len(grid), len(grid[0])
    seen: set[tuple[int, int]] = set()
    pieces = []
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] and (r, c) not in seen:
                piece, todo = {(r, c)}, [(r, c)]
                while todo:
                    y, x = todo.pop()
                    for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                        if 0 <= ny < rows and 0 <= nx < cols and grid[ny][nx] and (
                                (ny, nx) not in piece):
                            piece.add((ny, nx))
                            todo.append((ny, nx))
                seen |= piece
                pieces.append(piece)
    return pieces


def totals(shape: Shape, values: Sequence[int]) -> list[int]:
    """The sum of every cage of ``shape`` in a filling (in the order of its cages)."""
    return [sum(values[c] for c in cage.cells) for cage in shape.cages]


def random_filling(rng: random.Random, probe: SumsProbe) -> list[int] | None:
    """A random filling of the probe's shape in which only the runs' digits differ (no
    sums); None if the search for one runs out of nodes."""
    found = probe.solve([None] * len(probe.shape.cages), limit=1, node_limit=CHECK_NODES)
    if not found.solutions:
        return None
    relabel = rng.sample(range(1, 10), 9)  # any relabelling fits runs without sums
    return [relabel[v - 1] for v in found.solutions[0]]


def _candidates(board: Sequence[int] | None) -> int:
    """Candidates left in all cells; a contradiction counts as worst of all."""
    return 1 << 30 if board is None else sum(m.bit_count() for m in board)


def _choose_sums(rng: random.Random, base: Shape, probe: SumsProbe, deadline: Deadline
                 ) -> list[int] | None:
    """A filling whose sums leave propagation little to guess (part 2 of the module's
    text); None if no first filling is found within the node budget."""
    cages = base.cages
    chosen: list[int | None] = [None] * len(cages)
    witness = random_filling(rng, probe)
    if witness is None:
        return None
    order = sorted(range(len(cages)),
                   key=lambda k: (min(base.coords[c] for c in cages[k].cells), rng.random()))
    for k in order:
        deadline.check()
        n = len(cages[k].cells)
        present = sum(witness[c] for c in cages[k].cells)
        others = [s for s in range(n * (n + 1) // 2, sum(range(10 - n, 10)) + 1)
                  if s != present]
        scored = []
        for total in [present, *rng.sample(others, min(SUMS_TRIED, len(others)))]:
            chosen[k] = total
            scored.append((_candidates(probe.propagate(chosen)), rng.random(), total))
        for _, _, total in sorted(scored):
            chosen[k] = total
            if total == present:
                break
            found = probe.solve(chosen, limit=1, node_limit=FIT_NODES)
            if found.solutions:
                witness = list(found.solutions[0])
                break
    return list(witness)


def _undecided(probe: SumsProbe, base: Shape, values: Sequence[int]) -> list[int]:
    """The cells propagation leaves more than one candidate under a filling's sums."""
    board = probe.propagate(totals(base, values))
    assert board is not None  # the filling itself fits
    return [c for c, m in enumerate(board) if m & (m - 1)]


def _repair(rng: random.Random, base: Shape, probe: SumsProbe, fill: list[int],
            deadline: Deadline, done: int, budget: int) -> tuple[list[int], list[int], int]:
    """Change the filling until its sums have one solution (part 3 of the module's text),
    from step ``done`` of ``budget`` (the annealing cools over the whole budget).

    Returns the filling, the cells where a second solution differs from it if the repair
    stalled or ran out of steps first (the cells propagation leaves undecided if the
    search for one ran out of nodes; none when the solution is proved unique), and the
    steps taken.
    """
    cages = base.cages
    runs_of: list[list[int]] = [[] for _ in range(base.ncells)]
    for k, cage in enumerate(cages):
        for c in cage.cells:
            runs_of[c].append(k)

    def undecided(values: list[int]) -> list[int]:
        return _undecided(probe, base, values)

    def second(values: list[int]) -> list[int] | None:
        """Where a second solution differs; [] if there is none, None if the search
        ran out of nodes."""
        found = probe.solve(totals(base, values), limit=2, keep=2, node_limit=CHECK_NODES)
        if found.status == "unique":
            return []
        other = [s for s in found.solutions if list(s) != values]
        return [c for c in range(len(values)) if other[0][c] != values[c]] if other else None

    open_cells = undecided(fill)
    best, best_fill, since_best = len(open_cells), list(fill), 0
    stalled = 0
    focus: list[int] = []  # where a second solution differs from the filling
    step = done
    while step < budget:
        if not open_cells:
            return fill, [], step - done
        if since_best >= PATIENCE and step > done:
            break
        if stalled >= 5 or len(open_cells) <= 6:
            stalled = 0
            differ = second(fill)
            if differ == []:
                return fill, [], step - done
            focus = differ or []
        if step % 16 == 0:
            deadline.check()
        still_open = set(open_cells)
        pool = [c for c in focus if c in still_open] or open_cells
        cell = rng.choice(pool)
        tried = []
        for move in _moves(rng, fill, cell, runs_of, cages):
            undo = [(c, fill[c]) for c, _ in move]
            for c, v in move:
                fill[c] = v
            now_open = undecided(fill)
            tried.append((len(now_open), rng.random(), move, now_open))
            for c, v in undo:
                fill[c] = v
        step += 1
        if not tried:
            continue
        chosen = min(tried)
        worse = chosen[0] - len(open_cells)
        heat = 2.0 * (1 - step / budget) + 0.05
        if worse <= 0 or rng.random() < math.exp(-worse / heat):
            stalled = stalled + 1 if worse >= 0 else 0
            for c, v in chosen[2]:
                fill[c] = v
            open_cells = chosen[3]
        else:
            stalled += 1
        if len(open_cells) < best:
            best, best_fill, since_best = len(open_cells), list(fill), 0
        else:
            since_best += 1
    if best == 0:
        return best_fill, [], step - done
    differ = second(best_fill)
    return best_fill, undecided(best_fill) if differ is None else differ, step - done


def _moves(rng: random.Random, fill: list[int], cell: int, runs_of: list[list[int]],
           cages: Sequence[Cage]) -> list[list[tuple[int, int]]]:
    """Changes of the filling at ``cell`` that keep every run's digits different: a new
    value, or (at most :data:`SWAPS_TRIED` of them) a swap with another cell of one of
    its runs, the only change a run of nine digits allows."""
    def others(c: int) -> set[int]:
        return {fill[x] for k in runs_of[c] for x in cages[k].cells if x != c}

    taken = others(cell)
    moves = [[(cell, v)] for v in range(1, 10) if v not in taken and v != fill[cell]]
    swaps = []
    for k in runs_of[cell]:
        for other in cages[k].cells:
            if other != cell:
                mine, theirs = fill[cell], fill[other]
                # each value must be new to the run the other cell does not share
                if all(theirs not in {fill[x] for x in cages[j].cells if x != cell}
                       for j in runs_of[cell] if j != k) and all(
                        mine not in {fill[x] for x in cages[j].cells if x != other}
                        for j in runs_of[other] if j != k):
                    swaps.append([(cell, theirs), (other, mine)])
    return moves + rng.sample(swaps, min(SWAPS_TRIED, len(swaps)))
