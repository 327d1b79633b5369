r"""The ``janko`` format: a Kakuro as the janko.at collection is shared, sums per cell::

    001 3 4

    10 0 0 10
    0 0 0 0
    0 0 10 10

    0 4 4 0
    10 10 10 10
    3 3 0 0

    0 3 7 0
    3 3 7 0
    ...

A record starts with a header ``NAME ROWS COLS``. Then come blocks of ROWS lines of COLS
numbers each (blank lines between them are optional): the layout (``0`` a white cell,
any other number a block), the sum of the across run each white cell is in (``0`` for a
block), the sum of its down run, and optionally the values (``0`` for none). The grid
holds white cells and blocks only: the sums of runs on its top and left edges belong to
clue squares outside it. A values block that fills every white cell is the published
solution: it is checked against the sums and the puzzle is read without it, to be
solved; a partial one gives the values already written in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from ..model.puzzle import Puzzle
from ..model.shape import KakuroSquare, Shape, is_across, kakuro
from ._common import Context, Numbered, fail, is_blank, is_comment
from .kakuro import is_kakuro

_HEADER = re.compile(r"\s*(\S+)\s+([0-9]+)\s+([0-9]+)\s*")
#: The largest grid a header may announce (a bound on what a record holds in memory).
MAX_SIDE = 100
#: What the writer puts in the layout for a block (the collection's own choice).
BLOCK = "10"


def header(text: str) -> tuple[int, int] | None:
    """The rows and columns a record's header line announces, or None if it is none."""
    m = _HEADER.fullmatch(text)
    return (int(m.group(2)), int(m.group(3))) if m else None


def name_of(record: Sequence[Numbered]) -> str | None:
    """The NAME of a record's header (``001`` in ``001 3 4``), or None without a header."""
    first = next((text for _, text in record if not (is_blank(text) or is_comment(text))), "")
    m = _HEADER.fullmatch(first)
    return m.group(1) if m else None


def looks_like(rows: Sequence[str]) -> bool:
    """True when the text opens with a header followed by a row of as many numbers."""
    found = header(rows[0]) if rows else None
    if found is None or len(rows) < 2:
        return False
    tokens = rows[1].split()
    return len(tokens) == found[1] and all(t.isdigit() for t in tokens)


def records(numbered: Iterable[Numbered]) -> Iterator[tuple[list[Numbered], str | None]]:
    """Split a stream into records: a header and its three or four blocks of rows.

    Yields each record's lines and, for lines that make no record, why.
    """
    lines: list[Numbered] = []
    need = 0  # rows still to read for the three blocks every record has
    size: tuple[int, int] | None = None
    values_left = 0
    stray: list[Numbered] = []  # lines that make no record, and why
    why = _STRAY
    for item in numbered:
        text = item[1]
        if is_blank(text) or is_comment(text):
            continue
        if size is not None and need:
            lines.append(item)
            need -= 1
            if not need:
                values_left = size[0]
            continue
        if size is not None and values_left and (values_left < size[0]
                                                  or _value_row(text, size[1])):
            lines.append(item)
            values_left -= 1
            if not values_left:
                yield lines, None
                lines, size = [], None
            continue
        if size is not None:  # a record of three blocks ends where the next begins
            yield lines, None
            lines, size = [], None
        found = header(text)
        if found is None:
            stray.append(item)
            continue
        if stray:
            yield stray, why
            stray, why = [], _STRAY
        if not 1 <= found[0] <= MAX_SIDE or not 1 <= found[1] <= MAX_SIDE:
            # its rows, however many, belong to this error, not to errors of their own
            stray = [item]
            why = (f"a janko grid has 1 to {MAX_SIDE} rows and columns, not "
                   f"{found[0]}x{found[1]}")
            continue
        lines, size, need, values_left = [item], found, 3 * found[0], 0
    if stray:
        yield stray, why
    if size is not None:
        if need:
            yield lines, (f"the record ends after {len(lines) - 1} of its {3 * size[0]} rows "
                          f"(layout, across sums, down sums, {size[0]} rows each)")
        else:
            yield lines, None


_STRAY = "not a janko record: a record starts with a header 'NAME ROWS COLS'"


def _value_row(text: str, cols: int) -> bool:
    tokens = text.split()
    return len(tokens) == cols and all(len(t) == 1 and t.isdigit() for t in tokens)


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read one record: header, layout, across sums, down sums and optional values."""
    lines = [item for item in record if not is_blank(item[1]) and not is_comment(item[1])]
    if not lines:
        fail("no janko record here")
    start = lines[0][0]
    size = header(lines[0][1])
    if size is None:
        fail(_STRAY, start)
    rows, cols = size
    body = lines[1:]
    if len(body) not in (3 * rows, 4 * rows):
        fail(f"a {rows}x{cols} janko record has {3 * rows} rows (or {4 * rows} with values), "
             f"not {len(body)}", start)
    blocks = [_numbers(body[k * rows:(k + 1) * rows], cols) for k in range(len(body) // rows)]
    layout, across, down = blocks[:3]
    white = [[v == 0 for v, _ in row] for row in layout]
    squares: list[list[KakuroSquare]] = [[(None, None)] * (cols + 1) for _ in range(rows + 1)]
    for y in range(rows):
        for x in range(cols):
            if white[y][x]:
                squares[y + 1][x + 1] = None
    clues: dict[tuple[int, int], list[int | None]] = {}
    for sums, word, (dy, dx) in ((across, "across", (0, 1)), (down, "down", (1, 0))):
        side = word == "across"
        for y in range(rows):
            for x in range(cols):
                total, where = sums[y][x]
                if not white[y][x]:
                    if total:
                        fail(f"a block has {word} sum {total}; blocks have 0", *where)
                    continue
                py, px = y - dy, x - dx
                if py >= 0 and px >= 0 and white[py][px]:
                    if total != sums[py][px][0]:
                        fail(f"{word} sum {total} differs from {sums[py][px][0]} before it "
                             f"in the same run", *where)
                    continue
                if total:  # the run's first cell: its clue sits just before it
                    clues.setdefault((py + 1, px + 1), [None, None])[side] = total
    for (r, c), (d, a) in clues.items():
        squares[r][c] = (d, a)
    try:
        shape = kakuro(squares)
    except Exception as exc:  # a ShapeError names the run; the record names the place
        fail(str(exc), start)
    givens = _values(blocks[3], white, shape, start) if len(blocks) == 4 else \
        (0,) * shape.ncells
    return Puzzle(shape, givens)


def _numbers(rows: Sequence[Numbered], cols: int) -> list[list[tuple[int, tuple[int, int]]]]:
    """Each row's numbers with where each stands (line, column)."""
    out = []
    for number, text in rows:
        found = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]
        if len(found) != cols:
            fail(f"{len(found)} numbers in this row, the header says {cols}", number)
        row = []
        for token, column in found:
            if not token.isdigit() or len(token) > 3:
                fail(f"{token!r} is not a number from 0 to 999", number, column)
            row.append((int(token), (number, column)))
        out.append(row)
    return out


def _values(block: list[list[tuple[int, tuple[int, int]]]], white: list[list[bool]],
            shape: Shape, start: int) -> tuple[int, ...]:
    """The givens a values block holds; a complete block is checked as the solution and
    gives none."""
    values: list[int] = []
    for y, row in enumerate(block):
        for x, (v, where) in enumerate(row):
            if not white[y][x]:
                if v:
                    fail(f"a block holds value {v}; blocks have 0", *where)
            elif v > 9:
                fail(f"{v} is not a Kakuro value (1 to 9, or 0 for none)", *where)
            else:
                values.append(v)
    if 0 in values:
        return tuple(values)
    for cage in shape.cages:
        digits = [values[i] for i in cage.cells]
        if len(set(digits)) != len(digits) or (cage.total is not None
                                                and sum(digits) != cage.total):
            r, c = shape.coords[cage.cells[0]]
            word = "across" if is_across(shape, cage) else "down"
            fail(f"the solution does not fit the {word} run {cage.total} from "
                 f"r{r}c{c} (values {' '.join(map(str, digits))})", start)
    return (0,) * shape.ncells


def write(puzzle: Puzzle, name: str | None = None) -> str:
    """The record: a header (``name``, or ``kakuro``), the layout, across and down sums,
    and the values if any."""
    shape = puzzle.shape
    if not is_kakuro(shape):
        fail(f"the janko format holds Kakuro grids, not {shape.name}")
    canvas_rows, canvas_cols = shape.canvas
    # the record's grid starts below the top row and right of the left column, which hold
    # clues only; a grid with white cells there keeps them and gains a frame when read
    top = int(all(r for r, _ in shape.coords))
    left = int(all(c for _, c in shape.coords))
    rows, cols = canvas_rows - top, canvas_cols - left
    where = {rc: i for i, rc in enumerate(shape.coords)}
    across = [0] * shape.ncells
    down = [0] * shape.ncells
    for cage in shape.cages:
        target = across if is_across(shape, cage) else down
        for i in cage.cells:
            target[i] = cage.total or 0

    def block(value: Sequence[int] | None) -> list[str]:
        out = []
        for y in range(top, canvas_rows):
            cells = [where.get((y, x)) for x in range(left, canvas_cols)]
            if value is None:
                out.append(" ".join(BLOCK if i is None else "0" for i in cells))
            else:
                out.append(" ".join("0" if i is None else str(value[i]) for i in cells))
        return out

    label = "".join((name or "").split()) or "kakuro"  # one word: the header splits on spaces
    parts = [f"{label} {rows} {cols}", "", *block(None), "", *block(across), "", *block(down)]
    if any(puzzle.givens):
        parts += ["", *block(puzzle.givens)]
    return "\n".join(parts)
