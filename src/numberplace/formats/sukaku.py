"""The ``sukaku`` format: every cell written as its candidates, by position, on one line.

A 9x9 Sukaku is 729 characters: 81 cells of 9 positions each, in reading order; position
d holds the symbol of value d when d is a candidate and ``.`` (or ``0``) when it is not.
The 81 groups may also be set apart by spaces. Other sizes work alike (n*n cells of n
positions) when the shape is given.

Reading sets the puzzle's candidates. The format cannot mark a placed digit: a cell with
one candidate is placed when no peer still holds that value, and otherwise stays an
unsolved cell with one candidate. Writing a puzzle
without candidates fills them in as the ``pencil`` format does; a given is written as its
one candidate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import Shape, classic
from ._common import (
    LINE_LENGTHS,
    SIZES,
    Context,
    Numbered,
    build,
    candidate_masks,
    choose_alphabet,
    counted,
    fail,
    indent,
    only_line,
    placed_values,
    with_article,
)

#: Length of a one-line Sukaku for each size whose length no ``line`` puzzle has.
SUKAKU_LENGTHS: dict[int, int] = {n ** 3: n for n in SIZES if n ** 3 not in {m * m for m in SIZES}}

_GROUP = re.compile(r"\S+")


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read a Sukaku line."""
    number, text = only_line(record, "Sukaku")
    groups = [(m.start() + 1, m.group()) for m in _GROUP.finditer(text)]
    if len(groups) == 1:
        shape = ctx.shape or _shape_of_length(len(groups[0][1]), number)
        groups = _split(groups[0], shape, number)
    else:
        shape = ctx.shape or _shape_of_groups(len(groups), number, indent(text) + 1)
        _check_groups(groups, shape, number)
    alphabet = choose_alphabet(shape.size, "", ctx.alphabet, number)
    masks = [_mask(group, col, alphabet, number) for col, group in groups]
    return build(shape, placed_values(shape, masks), alphabet, masks, number)


def write(puzzle: Puzzle) -> str:
    """Each cell's candidates by position, ``.`` where a value is no candidate; the
    cells set apart by spaces when the line's length would be a one-line puzzle's too
    (a 4x4 Sukaku's 64 characters are an 8x8 line's), so it reads back as written."""
    symbols = puzzle.alphabet.symbols
    cells = ["".join(sym if mask >> v & 1 else "." for v, sym in enumerate(symbols))
             for mask in candidate_masks(puzzle)]
    length = puzzle.shape.ncells * puzzle.shape.size
    apart = length in LINE_LENGTHS and length not in SUKAKU_LENGTHS
    return (" " if apart else "").join(cells)


def _mask(group: str, column: int, alphabet: Alphabet, line: int) -> int:
    mask = 0
    for position, ch in enumerate(group, start=1):
        value = alphabet.value(ch)
        if value == position:
            mask |= 1 << (position - 1)
        elif ch not in ".0":
            fail(f"{ch!r} in position {position} of a cell; it holds "
                 f"{alphabet.symbol(position)!r} or '.'", line, column + position - 1)
    return mask


def _split(whole: tuple[int, str], shape: Shape, line: int) -> list[tuple[int, str]]:
    column, text = whole
    size = shape.size
    if len(text) != shape.ncells * size:
        fail(f"{counted(len(text), 'character')}, a Sukaku on {with_article(shape.name)} "
             f"grid needs {shape.ncells} x {size} = {shape.ncells * size}", line)
    return [(column + i, text[i:i + size]) for i in range(0, len(text), size)]


def _check_groups(groups: Sequence[tuple[int, str]], shape: Shape, line: int) -> None:
    if len(groups) != shape.ncells:
        fail(f"{counted(len(groups), 'cell')}, a Sukaku on {with_article(shape.name)} grid needs "
             f"{shape.ncells}", line)
    for column, group in groups:
        if len(group) != shape.size:
            fail(f"a cell of {len(group)} positions; each cell has {shape.size}", line, column)


def _shape_of_length(length: int, line: int) -> Shape:
    size = SUKAKU_LENGTHS.get(length)
    if size is None:
        fail(f"{counted(length, 'character')}; a Sukaku line has 729 (81 cells of 9 "
             f"positions)", line)
    return classic(size)


def _shape_of_groups(count: int, line: int, column: int) -> Shape:
    for size in SIZES:
        if size * size == count:
            return classic(size)
    fail(f"{count} cells; a Sukaku has 81 cells of 9 positions", line, column)
