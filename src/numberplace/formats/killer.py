"""The ``killer`` format: a Killer Sudoku as its cage map and sums, after any givens::

    cages:
    AABBBCCDE
    ...
    A=3 B=15 C=10 D=11 E=17 ...

The givens, when there are any, come first (one line or n rows, read like the ``line``
and ``grid`` formats), then a line ``cages:``, then the cage map: n rows of n labels, one
character a cell (spaces ignored), ``.`` for a cell in no cage. A cage is the cells of one
label that touch (so a label may serve two cages that do not). Then the sums, as
``LABEL=SUM`` words, any number to a line; a cage whose label is used by several cages is
named by its first cell instead (``r4c7=12``). A cage without a sum only needs different
digits; a ``*`` after a sum (``B=20*``) marks a cage whose digits may repeat where its
cells share no house, as a variant of Killer allows. The grid is a classic one of the
map's size unless a shape is given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache

from ..errors import NumberplaceError
from ..model.puzzle import Puzzle
from ..model.shape import Shape, classic, killer
from . import grid, line
from ._common import Context, Numbered, content_lines, fail

#: The line between the givens and the cage map.
MARKER = "cages:"
#: After a sum, marks a cage whose digits may repeat (where its cells share no house).
REPEATS = "*"
#: Labels the writer gives cages, in order.
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read givens (if any), the cage map and the sums."""
    lines = content_lines(record)
    at = next((i for i, (_, text) in enumerate(lines) if text.strip().lower() == MARKER), None)
    if at is None:
        fail(f"no line {MARKER!r}; a Killer gives its givens (if any), then {MARKER!r}, the "
             f"cage map and the sums", lines[0][0] if lines else None)
    givens, marker, rest = lines[:at], lines[at][0], lines[at + 1:]
    size = _map_size(rest, marker)
    base = ctx.shape or classic(size)
    if base.canvas != (size, size) or base.ncells != size * size:
        fail(f"a cage map of {size} rows does not fit the {base.name} shape", marker)
    rows, sums = rest[:size], rest[size:]
    cages = _cages(rows, _sums(sums, marker), base)
    if not cages:
        fail("the cage map has no cage (every cell is '.')", marker)
    try:
        shape = killer(base, cages)
    except NumberplaceError as exc:
        fail(str(exc), marker)
    inner = Context(shape, ctx.alphabet)
    if not givens:
        return Puzzle(shape, (0,) * shape.ncells) if ctx.alphabet is None else \
            Puzzle(shape, (0,) * shape.ncells, ctx.alphabet)
    return line.read(givens, inner) if len(givens) == 1 else grid.read(givens, inner)


def _map_size(rest: Sequence[Numbered], marker: int) -> int:
    """The size of the map: the length of its first row."""
    if not rest:
        fail(f"no cage map after {MARKER!r}", marker)
    size = len("".join(rest[0][1].split()))
    if len(rest) < size:
        fail(f"a cage map of {size} columns needs {size} rows, not {len(rest)}", rest[-1][0])
    for number, text in rest[:size]:
        if len("".join(text.split())) != size:
            fail(f"this row of the cage map has {len(''.join(text.split()))} labels, the "
                 f"first has {size}", number)
    return size


def _sums(lines: Sequence[Numbered], marker: int) -> dict[str, tuple[int, int, bool]]:
    """Each sum by its label or cell name, with the line it is on and whether the cage's
    digits may repeat (a ``*`` after the sum)."""
    out: dict[str, tuple[int, int, bool]] = {}
    for number, text in lines:
        words = text.replace(",", " ").split()
        if words and words[0].lower() == "sums:":
            words = words[1:]
        for word in words:
            # a label (anything up to the last '='), '=', and the sum in ASCII digits
            label, _, total = word.rpartition("=")
            repeats = total.endswith(REPEATS)
            total = total[:-1] if repeats else total
            if not (label and total.isdigit() and total.isascii()):
                fail(f"{word!r} is not a sum like A=10, r4c7=12 or B=20{REPEATS} (digits "
                     f"may repeat)", number)
            if label in out:
                fail(f"two sums for {label}", number)
            out[label] = (int(total), number, repeats)
    return out


def _cages(rows: Sequence[Numbered], sums: dict[str, tuple[int, int, bool]],
           base: Shape) -> list[tuple[list[int], int | None, bool]]:
    """The cages of the map (each label's touching cells), with their sums."""
    labels = "".join("".join(text.split()) for _, text in rows)  # n labels a row
    cell_of = _reading_cells(base)
    beside = _beside_squares(len(rows))
    seen = bytearray(len(labels))
    found: list[tuple[str, list[int]]] = []
    for start, label in enumerate(labels):  # reading order
        if seen[start] or label == ".":
            continue
        seen[start] = 1
        group = [start]
        todo = [start]
        while todo:
            for near in beside[todo.pop()]:
                if not seen[near] and labels[near] == label:
                    seen[near] = 1
                    group.append(near)
                    todo.append(near)
        found.append((label, sorted([cell_of[x] for x in group])))
    used = Counter(label for label, _ in found)
    cages: list[tuple[list[int], int | None, bool]] = []
    named: set[str] = set()
    for label, cells in found:
        key = label if used[label] == 1 else base.cell_name(cells[0])
        if key not in sums and used[label] == 1 and base.cell_name(cells[0]) in sums:
            key = base.cell_name(cells[0])
        named.add(key)
        total, _, repeats = sums.get(key, (None, 0, False))
        cages.append((cells, total, repeats))
    for key, (_, number, _) in sums.items():
        if key not in named:
            fail(f"a sum for {key}, but no cage is {'at' if key[:1] == 'r' else 'labelled'} "
                 f"{key}", number)
    return cages


@lru_cache(maxsize=32)
def _beside_squares(n: int) -> tuple[tuple[int, ...], ...]:
    """For each square of an n x n map in reading order, the squares beside it (below,
    above, right, left)."""
    return tuple(tuple(at + d for d, inside in ((n, r + 1 < n), (-n, r > 0),
                                                (1, c + 1 < n), (-1, c > 0)) if inside)
                 for r in range(n) for c in range(n) for at in (r * n + c,))


@lru_cache(maxsize=32)
def _reading_cells(base: Shape) -> tuple[int, ...]:
    """The cell of each square of a square canvas, in reading order."""
    rows, columns = base.canvas
    return tuple(base.cell_at[(r, c)] for r in range(rows) for c in range(columns))


def is_killer(shape: Shape) -> bool:
    """True for a Sudoku shape with cages (and no Kakuro clue squares)."""
    return bool(shape.houses) and bool(shape.cages)


def write(puzzle: Puzzle) -> str:
    """The givens as rows (when there are any), ``cages:``, the cage map and the sums."""
    shape = puzzle.shape
    if not is_killer(shape) or len(shape.grids) != 1 or shape.canvas[0] != shape.canvas[1]:
        fail(f"the killer format holds Sudoku grids with cages, not {shape.name}")
    for cage in shape.cages:
        if not _joined(shape, cage.cells):
            fail(f"{cage} has cells that do not touch; a cage map cannot draw it")
    labels = _labels(shape)
    n = shape.canvas[0]
    mark = ["."] * shape.ncells
    for cage, label in zip(shape.cages, labels, strict=True):
        for c in cage.cells:
            mark[c] = label
    sums = sum_lines(shape, labels)
    out = ["".join(row) for row in grid.cell_symbols(puzzle)] if any(puzzle.givens) else []
    out.append(MARKER)
    out += ["".join(mark[r * n:(r + 1) * n]) for r in range(n)]
    out += sums
    return "\n".join(out)


def sum_lines(shape: Shape, labels: Sequence[str]) -> list[str]:
    """The sums of the cages that have one, ten to a line: by label, or by first cell when
    labels repeat; ``*`` after the sum of a cage whose digits may repeat."""
    unique = len(set(labels)) == len(labels)
    words = [f"{label if unique else shape.cell_name(min(cage.cells))}={cage.total}"
             f"{REPEATS if cage.repeats else ''}"
             for cage, label in zip(shape.cages, labels, strict=True) if cage.total is not None]
    return [" ".join(words[i:i + 10]) for i in range(0, len(words), 10)]


def _labels(shape: Shape) -> list[str]:
    """A label for each cage: all different while there are enough, else (for very many
    cages) different from every touching cage's, so the map still reads back."""
    if len(shape.cages) <= len(LABELS):
        return list(LABELS[:len(shape.cages)])
    owner = {c: k for k, cage in enumerate(shape.cages) for c in cage.cells}
    at = shape.cell_at
    out: list[str] = []
    for k, cage in enumerate(shape.cages):
        near = set()
        for c in cage.cells:
            for rc in _beside(shape.coords[c]):
                other = owner.get(at.get(rc, -1))
                if other is not None and other < k:
                    near.add(out[other])
        out.append(next(ch for ch in LABELS if ch not in near))
    return out


def _joined(shape: Shape, cells: Sequence[int]) -> bool:
    """True when the cells form one group of side-by-side neighbours."""
    members = {shape.coords[c] for c in cells}
    return len(_group(next(iter(members)), members.__contains__)) == len(members)


def _beside(rc: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The four squares beside a square of the canvas."""
    r, c = rc
    return ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))


def _group(start: tuple[int, int], inside: Callable[[tuple[int, int]], bool]
           ) -> set[tuple[int, int]]:
    """The squares reached from ``start`` through squares beside each other that are
    ``inside``."""
    reached = {start}
    todo = [start]
    while todo:
        for rc in _beside(todo.pop()):
            if rc not in reached and inside(rc):
                reached.add(rc)
                todo.append(rc)
    return reached
