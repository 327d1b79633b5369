"""Telling the format of a record from its text.

Detection looks at the first block of the text (lines up to the first blank line, past
blocks of comments only) and at no more than :data:`HEAD_LIMIT` of its lines, so a stream
of millions of lines is told by its beginning. The rules, first match wins:

1. a first line starting with ``{``: ``json``;
2. a clue square such as ``17\\23``: ``kakuro``; a header ``NAME ROWS COLS`` over a row of
   as many numbers: ``janko``; a header ``ROWS COLS`` over a row of as many Kakuro
   squares, with a clue square ``16,23`` below it: ``puzzlekit``;
3. a ``[Section]`` line: ``sdk``;
4. a line ``regions:`` (or ``regions: diagonal``): ``jigsaw``; a line ``cages:``: ``killer``;
5. a shape of several grids (Samurai) given: ``samurai`` when the first line holds one
   grid (81 characters), ``line`` (or ``sukaku``) for a lone line of all cells, else
   ``samurai-grid``;
6. a first line (borders aside) that is a whole puzzle: ``sukaku`` for n**3 characters or
   n*n groups of n, ``sdo`` for 81 digits with a ``0``, ``line`` for another puzzle length
   (or the given shape's cell count) or any line of 36 characters or more without spaces;
   also ``line`` when most lines of the block are such lines (a damaged first line). Sixteen
   lines of 16 are a 16x16 grid unless they use only 4x4 symbols;
7. a single line: ``line``;
8. 21 lines whose 10th starts with six gaps: ``samurai-grid``;
9. n rows of n cells apart by spaces, some cell of several characters: ``pencil``;
10. ``#A``-style metadata over rows without separators: ``sdk``;
11. rows without spaces with ``|`` between boxes: ``ss``;
12. anything else: ``grid``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..model.shape import Shape
from ._common import LINE_LENGTHS, SIZES, fail, is_blank, is_comment, is_content, is_single_grid
from .grid import is_border, number_rows
from .janko import looks_like as looks_janko
from .jigsaw import is_marker as is_jigsaw_marker
from .kakuro import looks_like as looks_kakuro
from .puzzlekit import looks_like as looks_puzzlekit
from .sdk import section_name
from .sukaku import SUKAKU_LENGTHS

#: Most lines of a block that detection looks at (and a stream holds back to look at).
HEAD_LIMIT = 200
#: Shortest line without spaces that can only be a whole puzzle, never a grid row.
_LONGEST_ROW = 36
_SDK_META = re.compile(r"#[A-Z]")


def first_block(lines: Iterable[str]) -> tuple[list[str], list[str]]:
    """Leading comments and rows of the first block that has more than comments."""
    block: list[str] = []
    for text in lines:
        if is_blank(text):
            if any(is_content(t) for t in block):
                break
            block = []
            continue
        if len(block) >= HEAD_LIMIT:
            if any(is_content(t) for t in block):
                break
            block.pop(0)
        block.append(text)
    meta = 0
    while meta < len(block) and is_comment(block[meta]):
        meta += 1
    return block[:meta], block[meta:]


#: Characters no puzzle text holds: control characters, and what undecodable bytes read as.
_BINARY = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]")


#: Why a file whose first puzzle line is not text is not read.
NOT_TEXT = ("not a puzzle text: it holds bytes that are not text (binary data, or an "
            "encoding other than UTF-8 and UTF-16)")


def binary_column(line: str) -> int | None:
    """The column of the first character no puzzle text holds (a control character, or
    what an undecodable byte reads as), or None."""
    found = _BINARY.search(line)
    return found.start() + 1 if found else None


def detect_lines(lines: Iterable[str], shape: Shape | None = None) -> str:
    """The name of the format of the first record among these lines."""
    lines = list(lines)
    meta, rows = first_block(lines)
    if not rows:
        fail("no puzzle here: the text is empty or only comments")
    column = binary_column(rows[0])
    if column is not None:
        fail(NOT_TEXT, column=column)
    if rows[0].lstrip().startswith("{"):
        # before sections: a JSON-lines file with a stray "[...]" line is still JSON lines
        return "json"
    if looks_kakuro(rows):
        return "kakuro"
    if looks_janko([t for t in lines[:HEAD_LIMIT] if is_content(t)][:2]):
        return "janko"  # its header stands alone, a blank line above the layout
    if looks_puzzlekit(rows):
        return "puzzlekit"
    if any(section_name(row) is not None for row in rows):
        return "sdk"
    if any(is_jigsaw_marker(row) for row in rows):
        return "jigsaw"
    if any(row.strip().lower() == "cages:" for row in rows):
        return "killer"
    if shape is not None and len(shape.grids) > 1:
        return _multi_grid(rows, shape)
    body = [row for row in rows if not is_border(row)]
    if not body:
        return "grid"
    return (_one_line_format(body, shape)
            or ("line" if len(body) == 1 else None)
            or ("samurai-grid" if shape is None and _looks_samurai_grid(rows) else None)
            or ("grid" if _looks_numbers(rows, shape) else None)
            or ("pencil" if _looks_pencil(rows, shape) else None)
            or ("sdk" if _looks_sdk(meta, rows) else None)
            or ("ss" if _looks_ss(rows) else None)
            or "grid")


def _multi_grid(rows: Sequence[str], shape: Shape) -> str:
    first = rows[0].strip()
    if len(first) == len(shape.grids[0]):
        return "samurai"
    if len(rows) == 1:
        return "sukaku" if len(first) == shape.ncells * shape.size else "line"
    return "samurai-grid"


def _one_line_format(rows: Sequence[str], shape: Shape | None) -> str | None:
    found = _first_line_format(rows, shape)
    if found is None and len(rows) > 1:
        # A stream of puzzle lines whose first line is damaged is still a stream of lines.
        long_rows = [row for row in rows if _is_long_token(row)]
        if 2 * len(long_rows) > len(rows):
            return _first_line_format(long_rows, shape) or "line"
    return found


def _is_long_token(row: str) -> bool:
    body = row.strip()
    return len(body) >= _LONGEST_ROW and len(body.split()) == 1


def _first_line_format(rows: Sequence[str], shape: Shape | None) -> str | None:
    first = rows[0].strip()
    groups = first.split()
    if len(groups) > 1:
        return "sukaku" if _sukaku_groups(groups, shape) else None
    length = len(first)
    if shape is not None and is_single_grid(shape):
        if length == shape.ncells * shape.size and length != shape.ncells:
            return "sukaku"
        if length == shape.ncells:
            return _line_or_sdo(first)
    elif shape is None:
        if length in SUKAKU_LENGTHS:
            return "sukaku"
        if length in LINE_LENGTHS and not _square_of_rows(rows):
            return _line_or_sdo(first)
    return "line" if length >= _LONGEST_ROW else None


def _line_or_sdo(first: str) -> str:
    if len(first) == 81 and "0" in first and all(ch in "0123456789" for ch in first):
        return "sdo"
    return "line"


def _sukaku_groups(groups: Sequence[str], shape: Shape | None) -> bool:
    if shape is not None:
        size, ncells = shape.size, shape.ncells
    else:
        size = LINE_LENGTHS.get(len(groups), 0)
        ncells = size * size
    return len(groups) == ncells and all(len(g) == size for g in groups)


def _square_of_rows(rows: Sequence[str]) -> bool:
    """True for a 16x16 grid drawn as 16 rows of 16, which a 4x4 puzzle line could also be.

    A block of exactly 16 such lines is a grid unless it uses only 4x4 symbols.
    """
    if len(rows) != 16 or any(len(row.strip()) != 16 or " " in row.strip() for row in rows):
        return False
    return not set("".join(rows).upper()) <= set("1234.0 \t")


def _looks_samurai_grid(rows: Sequence[str]) -> bool:
    # Rows 10-12 of a Samurai canvas start with six gaps, left of the centre grid.
    return len(rows) == 21 and len(rows[9].rstrip()) > 6 and all(ch in " #" for ch in rows[9][:6])


def _looks_numbers(rows: Sequence[str], shape: Shape | None) -> bool:
    width = shape.canvas[1] if shape is not None and is_single_grid(shape) else None
    return number_rows(list(enumerate(rows, start=1)), width) is not None


def _looks_pencil(rows: Sequence[str], shape: Shape | None) -> bool:
    body = [row for row in rows if not is_border(row) and not is_comment(row)]
    size = shape.size if shape is not None else len(body)
    if len(body) != size or (shape is None and size not in SIZES):
        return False
    cells = [row.replace("|", " ").split() for row in body]
    return (all(len(row) == size for row in cells)
            and any(len(cell) > 1 for row in cells for cell in row))


def _looks_sdk(meta: Sequence[str], rows: Sequence[str]) -> bool:
    return (any(_SDK_META.match(line.lstrip()) for line in meta)
            and all(len(row.split()) == 1 and "|" not in row for row in rows))


def _looks_ss(rows: Sequence[str]) -> bool:
    body = [row for row in rows if not is_border(row)]
    return all(len(row.split()) == 1 for row in body) and any("|" in row for row in body)
