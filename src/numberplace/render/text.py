"""A candidates board as plain text for a terminal.

Every shape is drawn the same way, on its canvas: one slot per canvas position, a ``|``
between two cells of different boxes (or jigsaw regions, or between a cell and the edge
of its grid) and a line of ``-`` (``+`` where lines meet) between two rows wherever cells
above and below lie in different boxes or regions. Slots of the canvas that hold no cell
(the gaps of a Samurai) are blank. So a classic grid comes out as the familiar
HoDoKu-style pencil-mark grid::

    +----------------------+----------------------+-----...
    | 1248  12    9        | 2467  5     478      | ...

which ``numberplace.formats.parse(text, format="pencil")`` reads back; a jigsaw shows its
regions by the same ``|`` and ``-`` lines, and a Samurai shows its five grids with blank
gaps between them (neither of those two can be read back as a pencil grid, which holds a
single classic grid).

With ``candidates=True`` an empty cell shows its candidates (``.`` when it has none left)
and a cell with a value shows the value, each padded to the width of the largest candidate
set on the board. With ``candidates=False`` only values are shown, ``.`` for an empty
cell, in a compact layout of one character per cell.
"""

from __future__ import annotations

from ..alphabet import Alphabet
from ..logic.board import Board
from ..shape import BLOCK_KINDS, Shape

_BLOCK_KINDS = BLOCK_KINDS


def cell_blocks(shape: Shape) -> list[frozenset[int]]:
    """For each cell, the houses of kind box or region that hold it (the blocks it is in)."""
    blocks: list[set[int]] = [set() for _ in range(shape.ncells)]
    for h, house in enumerate(shape.houses):
        if house.kind in _BLOCK_KINDS:
            for c in house.cells:
                blocks[c].add(h)
    return [frozenset(b) for b in blocks]


def thick_edges(shape: Shape) -> tuple[list[list[bool]], list[list[bool]]]:
    """Where thick lines go on the shape's canvas of ``height`` x ``width`` positions.

    Returns ``(vertical, horizontal)``: ``vertical[r][j]`` (``j`` in ``0..width``) is True
    when the edge left of canvas position ``(r, j)`` is thick; ``horizontal[i][c]``
    (``i`` in ``0..height``) when the edge above ``(i, c)`` is. An edge is thick between
    two cells of different blocks and between a cell and a position with no cell (the
    outside, or a gap); it is never drawn between two positions without cells.
    """
    height, width = shape.canvas
    blocks = cell_blocks(shape)
    cell_at = shape.cell_at

    def thick(a: tuple[int, int], b: tuple[int, int]) -> bool:
        ca, cb = cell_at.get(a), cell_at.get(b)
        if ca is None or cb is None:
            return (ca is None) != (cb is None)
        return blocks[ca] != blocks[cb]

    vertical = [[thick((r, j - 1), (r, j)) for j in range(width + 1)] for r in range(height)]
    horizontal = [[thick((i - 1, c), (i, c)) for c in range(width)] for i in range(height + 1)]
    return vertical, horizontal


def _symbols(mask: int, alphabet: Alphabet) -> str:
    out = []
    v = 1
    while mask:
        if mask & 1:
            out.append(alphabet.symbol(v))
        mask >>= 1
        v += 1
    return "".join(out)


def render_text(board: Board, shape: Shape, alphabet: Alphabet | None = None,
                candidates: bool = True) -> str:
    """The board as text: a pencil-mark grid, or values only (see the module docstring).

    ``alphabet`` gives the symbols (default :meth:`Alphabet.default` for the shape's
    size). Lines carry no trailing spaces; there is no final newline.
    """
    alphabet = alphabet or Alphabet.default(shape.size)
    height, width = shape.canvas
    texts: dict[int, str] = {}
    for cell in range(shape.ncells):
        value = board.values[cell]
        if value:
            texts[cell] = alphabet.symbol(value)
        elif candidates:
            texts[cell] = _symbols(board.candidates[cell], alphabet) or "."
        else:
            texts[cell] = "."
    w = max((len(t) for t in texts.values()), default=1)
    pad = " " if candidates else ""
    slot = w + 2 * len(pad)
    vertical, horizontal = thick_edges(shape)

    def junction(i: int, j: int) -> str:
        up = i > 0 and vertical[i - 1][j]
        down = i < height and vertical[i][j]
        left = j > 0 and horizontal[i][j - 1]
        right = j < width and horizontal[i][j]
        if (left or right) and (up or down):
            return "+"
        if left or right:
            return "-"
        return "|" if up or down else " "

    lines = []
    for i in range(height + 1):
        if any(horizontal[i]):
            parts = []
            for c in range(width):
                parts.append(junction(i, c))
                parts.append(("-" if horizontal[i][c] else " ") * slot)
            parts.append(junction(i, width))
            lines.append("".join(parts).rstrip())
        if i == height:
            break
        parts = []
        for c in range(width):
            parts.append("|" if vertical[i][c] else " ")
            at = shape.cell_at.get((i, c))
            body = texts[at].ljust(w) if at is not None else " " * w
            parts.append(pad + body + pad)
        parts.append("|" if vertical[i][width] else " ")
        lines.append("".join(parts).rstrip())
    return "\n".join(lines)
