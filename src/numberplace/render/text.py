r"""A candidates board as plain text for a terminal.

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

A Killer is drawn as its grid, then its cages as the ``killer`` format writes them: a line
``cages:``, a map of one label a cell and the sums (``A=21 B=7 ...``); so a Killer drawn
with ``candidates=False`` reads back as the puzzle of its values. A Kakuro is drawn as the
``kakuro`` format writes it, with the board's values (or candidates) in its white cells::

    #    4\   10\
    \3   1    2
    \11  3    .
"""

from __future__ import annotations

from ..formats.kakuro import is_kakuro
from ..formats.killer import sum_lines
from ..logic.board import Board
from ..model.alphabet import Alphabet
from ..model.shape import BLOCK_KINDS, Shape, is_across

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
    texts: dict[int, str] = {}
    for cell in range(shape.ncells):
        value = board.values[cell]
        if value:
            texts[cell] = alphabet.symbol(value)
        elif candidates:
            texts[cell] = _symbols(board.candidates[cell], alphabet) or "."
        else:
            texts[cell] = "."
    if is_kakuro(shape):
        return _kakuro_text(shape, texts)
    drawn = _grid_text(shape, texts, candidates)
    if any(cage.clue is None for cage in shape.cages):
        drawn += "\n" + _cages_text(shape)
    return drawn


def _grid_text(shape: Shape, texts: dict[int, str], candidates: bool) -> str:
    """The grid with each cell's text, boxes and regions shown by ``|`` and ``-`` lines."""
    height, width = shape.canvas
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


#: Labels of a Killer's cages in its map, in order (as the ``killer`` format gives them).
CAGE_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _cage_labels(shape: Shape) -> list[str]:
    """A label for each cage: all different while there are enough, else different from
    the label of every cage beside it, which still tells them apart on the map."""
    count = len(shape.cages)
    if count <= len(CAGE_LABELS):
        return list(CAGE_LABELS[:count])
    owner = {c: k for k, cage in enumerate(shape.cages) for c in cage.cells}
    out: list[str] = []
    for k, cage in enumerate(shape.cages):
        near = set()
        for c in cage.cells:
            r, col = shape.coords[c]
            for rc in ((r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1)):
                other = owner.get(shape.cell_at.get(rc, -1))
                if other is not None and other < k:
                    near.add(out[other])
        # four sides of a cell and its cage's other cells border fewer than 52 cages
        # in any grid but a huge one; past that a label may repeat beside its own
        out.append(next((ch for ch in CAGE_LABELS if ch not in near), CAGE_LABELS[k % 52]))
    return out


def _cages_text(shape: Shape) -> str:
    """``cages:``, the cage map (a label per cell, ``.`` outside every cage) and the sums,
    ten to a line, by label, or by first cell when labels repeat."""
    height, width = shape.canvas
    labels = _cage_labels(shape)
    mark = {c: label for cage, label in zip(shape.cages, labels, strict=True)
            for c in cage.cells}
    lines = ["cages:"]
    for r in range(height):
        row = []
        for c in range(width):
            at = shape.cell_at.get((r, c))
            row.append(" " if at is None else mark.get(at, "."))
        lines.append("".join(row).rstrip())
    lines += sum_lines(shape, labels)
    return "\n".join(lines)


def _kakuro_text(shape: Shape, texts: dict[int, str]) -> str:
    """The Kakuro's squares in aligned columns: ``#`` a block, ``down\\across`` a clue
    square, a white cell its text."""
    height, width = shape.canvas
    tokens = [["#"] * width for _ in range(height)]
    for cell, (r, c) in enumerate(shape.coords):
        tokens[r][c] = texts[cell]
    clues: dict[tuple[int, int], list[str]] = {}
    for cage in shape.cages:
        if cage.clue is not None:
            total = "" if cage.total is None else str(cage.total)
            clues.setdefault(cage.clue, ["", ""])[is_across(shape, cage)] = total
    for (r, c), (down, across) in clues.items():
        tokens[r][c] = f"{down}\\{across}"
    for row in tokens:
        # a line of blocks alone would read back as a comment
        if all(t == "#" for t in row):
            row[:] = ["X"] * len(row)
    w = max(len(t) for row in tokens for t in row)
    return "\n".join(" ".join(t.ljust(w) for t in row).rstrip() for row in tokens)
