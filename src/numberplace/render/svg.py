"""A candidates board, and optionally one step of the solver, as an SVG picture.

The picture is drawn on the shape's canvas, so one routine serves grids of every size,
jigsaw, diagonal, Samurai (whose gaps are left empty), Killer and Kakuro. Layers, bottom
to top:

* ``houses`` - a light fill over the cells of the step's houses (class ``house-fill``) and
  of its cages (class ``cage-fill``);
* ``cells`` - one ``rect`` per cell (class ``cell``, ``data-cell`` its index), thin lines,
  tinted by the most important role any highlight gives the cell;
* ``diagonals`` - the diagonal houses, faint;
* ``borders`` - thick lines (class ``thick``) between cells of different boxes or jigsaw
  regions, and around every grid; runs of edges along one line are joined;
* ``kakuro`` (Kakuro only, instead of the borders) - each square that is not a cell filled
  dark: a ``rect`` of class ``block``, or of class ``clue`` for a clue square, which has a
  light ``line`` (class ``clue-diagonal``) from its top-left to its bottom-right corner, the
  down sum (``text`` of class ``clue-sum down``, ``data-clue`` the square's canvas row and
  column from 0) below it and the across sum (class ``clue-sum across``) above it; the
  triangle of a sum whose run the step names is coloured (class ``clue-highlight``); a
  frame (class ``frame``) goes around the canvas;
* ``cages`` (Killer only) - one dashed ``path`` per cage (class ``cage``, ``data-cage``
  its index in ``shape.cages``), inset inside its cells along the cage's boundary;
* ``cage-sums`` (Killer only) - each cage's sum, small (class ``cage-sum``), in the top-left
  corner of its first cell, on a patch of the cell's colour that breaks the outline; the
  candidates of a Killer are drawn in a smaller sub-grid below it, so the two never meet;
* ``marks`` - a coloured ``circle`` (class ``mark <role>``, ``data-cell``, ``data-value``)
  behind every highlighted candidate;
* ``values`` - placed values, large (class ``given`` or ``value``);
* ``candidates`` - candidates of empty cells, small, in a ``k`` x ``k`` sub-grid of the
  cell (``k = ceil(sqrt(n))``), value ``v`` at row ``(v-1) // k``, column ``(v-1) % k``;
* ``links`` - for each pair of consecutive ``link`` highlights, a line between the two
  candidates (class ``link``).

Output is deterministic: the same input gives the same text.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from ..formats.kakuro import is_kakuro
from ..logic.board import Board
from ..logic.step import Role, Step
from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import HouseKind, Shape, is_across
from .text import thick_edges

#: Colour of a candidate's mark for each highlight role.
ROLE_COLOURS: dict[Role, str] = {
    Role.REMOVED: "#e03131",
    Role.PLACED: "#1c7ed6",
    Role.DEFINING: "#2f9e44",
    Role.BASE: "#2f9e44",
    Role.COVER: "#0c8599",
    Role.FIN: "#9c36b5",
    Role.PIVOT: "#f08c00",
    Role.PINCER: "#e8590c",
    Role.LINK: "#868e96",
    Role.CHAIN: "#3b5bdb",
    Role.COLOR1: "#1971c2",
    Role.COLOR2: "#e8590c",
    Role.PREMISE: "#f08c00",
}
#: Light tint of a cell for each role.
ROLE_TINTS: dict[Role, str] = {
    Role.REMOVED: "#ffe3e3",
    Role.PLACED: "#d0ebff",
    Role.DEFINING: "#d3f9d8",
    Role.BASE: "#d3f9d8",
    Role.COVER: "#c5f6fa",
    Role.FIN: "#f3d9fa",
    Role.PIVOT: "#fff3bf",
    Role.PINCER: "#ffe8cc",
    Role.CHAIN: "#dbe4ff",
    Role.COLOR1: "#d0ebff",
    Role.COLOR2: "#ffe8cc",
    Role.PREMISE: "#fff3bf",
}
#: Colour for a role not named above.
OTHER_ROLE_COLOUR = "#495057"
#: Fill of the cells of the step's houses, and of its cells without a role.
HOUSE_FILL = "#edf2ff"
#: Fill of the cells of the step's cages (a cell in one of its houses too keeps that fill).
CAGE_FILL = HOUSE_FILL
STEP_CELL_FILL = "#fff9db"
GIVEN_COLOUR = "#000000"
VALUE_COLOUR = "#1864ab"
CANDIDATE_COLOUR = "#495057"
LINE_COLOUR = "#343a40"
DIAGONAL_COLOUR = "#adb5bd"
#: A Killer cage's dashed outline and its sum.
CAGE_COLOUR = "#495057"
#: Kakuro: the blocks and clue squares, their diagonal and sums, and the triangle of a sum
#: whose run the step names.
BLOCK_FILL = "#343a40"
CLUE_LINE_COLOUR = "#ced4da"
CLUE_TEXT_COLOUR = "#ffffff"
CLUE_HIGHLIGHT = "#1971c2"

# Which role wins when one candidate (marks) or one cell (tints) has several.
_MARK_PRIORITY = (Role.REMOVED, Role.PLACED, Role.FIN, Role.PIVOT, Role.PINCER, Role.PREMISE,
                  Role.COLOR1, Role.COLOR2, Role.CHAIN, Role.DEFINING, Role.BASE, Role.COVER,
                  Role.LINK)
_TINT_PRIORITY = (Role.PLACED, Role.PIVOT, Role.PINCER, Role.PREMISE, Role.FIN, Role.COLOR1,
                  Role.COLOR2, Role.CHAIN, Role.BASE, Role.DEFINING, Role.COVER, Role.REMOVED)

_MARGIN = 10


def _num(x: float) -> str:
    """A coordinate with at most two decimals, without trailing zeros."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attrs(**attrs: object) -> str:
    parts = []
    for key, value in attrs.items():
        name = key.rstrip("_").replace("_", "-")
        text = _num(value) if isinstance(value, float) else str(value)
        parts.append(f"{name}={quoteattr(text)}")
    return " ".join(parts)


def _el(tag: str, text: str | None = None, **attrs: object) -> str:
    head = " ".join([tag, _attrs(**attrs)]) if attrs else tag
    if text is None:
        return f"<{head}/>"
    return f"<{head}>{escape(text)}</{tag}>"


def _priority(role: Role, order: tuple[Role, ...]) -> int:
    return order.index(role) if role in order else len(order)


def _runs(flags: Iterable[bool]) -> list[tuple[int, int]]:
    """Maximal runs ``[start, end)`` of True values."""
    out = []
    start = None
    i = -1
    for i, flag in enumerate(flags):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            out.append((start, i))
            start = None
    if start is not None:
        out.append((start, i + 1))
    return out


@dataclass(frozen=True)
class _Canvas:
    """The drawing's geometry: cell side, candidate sub-grid, and canvas size in pixels."""

    shape: Shape
    #: candidates per row and column of a cell's sub-grid
    k: int
    #: side of a cell, and of a candidate's square in its sub-grid
    size: float
    sub: float
    #: where the candidate sub-grid starts inside a cell (a Killer's leaves room for sums)
    left: float = 0.0
    top: float = 0.0

    @property
    def width(self) -> float:
        """Width of the whole picture, margins included."""
        return self.shape.canvas[1] * self.size + 2 * _MARGIN

    @property
    def height(self) -> float:
        """Height of the whole picture, margins included."""
        return self.shape.canvas[0] * self.size + 2 * _MARGIN

    @property
    def radius(self) -> float:
        """Radius of a candidate's mark (links start and end on it)."""
        return self.sub * 0.45

    def x_of(self, col: float) -> float:
        """The x coordinate of the left edge of canvas column ``col``."""
        return _MARGIN + col * self.size

    def y_of(self, row: float) -> float:
        """The y coordinate of the top edge of canvas row ``row``."""
        return _MARGIN + row * self.size

    def cand_centre(self, cell: int, value: int) -> tuple[float, float]:
        """The centre of candidate ``value`` in its cell's sub-grid."""
        r, c = self.shape.coords[cell]
        sr, sc = divmod(value - 1, self.k)
        return (self.x_of(c) + self.left + (sc + 0.5) * self.sub,
                self.y_of(r) + self.top + (sr + 0.5) * self.sub)

    def value_base(self, cell: int) -> tuple[float, float]:
        """Where a cell's placed value is written: the middle of its candidate sub-grid,
        on the baseline of a glyph centred there."""
        r, c = self.shape.coords[cell]
        grid = self.k * self.sub
        if not (self.left or self.top):
            # the plain grid's own arithmetic, so its pictures stay exactly as they were
            return self.x_of(c + 0.5), self.y_of(r + 0.5) + self.size * 0.22
        return (self.x_of(c) + self.left + grid / 2,
                self.y_of(r) + self.top + grid / 2 + grid * 0.22)


#: A Killer's candidate sub-grid, as a share of the cell's side: the rest makes a band for
#: the sum above it and room for the cage outline around it.
_KILLER_GRID = 0.68


def _canvas(shape: Shape, cell_size: int | None) -> _Canvas:
    """The geometry for ``shape``, the cell side defaulting to one that fits the sub-grid."""
    k = max(1, math.ceil(math.sqrt(shape.size)))
    if _killer_cages(shape):
        # the candidates keep the size they have on a plain grid, and the cell grows
        size = float(cell_size or round(max(40, 12 * k) / _KILLER_GRID))
        grid = size * _KILLER_GRID
        return _Canvas(shape, k, size, grid / k, left=(size - grid) / 2,
                       top=size - grid - size * 0.09)
    size = float(cell_size or max(40, 12 * k))
    return _Canvas(shape, k, size, size / k)


def _killer_cages(shape: Shape) -> bool:
    """True when the shape's cages are drawn as outlines (a Killer, not Kakuro runs)."""
    return any(cage.clue is None for cage in shape.cages)


@dataclass
class _Marks:
    """What a step marks: its highlights, the cells of its houses, its own cells, and its
    cages with their cells."""

    highlights: list[tuple[Role, int, int]] = field(default_factory=list)
    house_cells: set[int] = field(default_factory=set)
    step_cells: set[int] = field(default_factory=set)
    cages: set[int] = field(default_factory=set)
    cage_cells: set[int] = field(default_factory=set)


def _step_marks(step: Step | None, shape: Shape) -> _Marks:
    """The step's highlights, with its placements and eliminations that none names."""
    marks = _Marks()
    if step is None:
        return marks
    highlights = list(step.highlights)
    named = {(c, v) for _, c, v in highlights}
    highlights += [(Role.PLACED, c, v) for c, v in step.placements if (c, v) not in named]
    highlights += [(Role.REMOVED, c, v) for c, v in step.eliminations if (c, v) not in named]
    marks.highlights = highlights
    for h in step.houses:
        marks.house_cells.update(shape.houses[h].cells)
    marks.step_cells.update(step.cells)
    # a step of a kind that names no cages may lack the field
    for k in getattr(step, "cages", ()):
        marks.cages.add(k)
        marks.cage_cells.update(shape.cages[k].cells)
    return marks


def _winning_roles(highlights: Iterable[tuple[Role, int, int]]
                   ) -> tuple[dict[tuple[int, int], Role], dict[int, Role]]:
    """The role each highlighted candidate is marked in, and each tinted cell's role."""
    mark_role: dict[tuple[int, int], Role] = {}
    tint_role: dict[int, Role] = {}
    for role, cell, value in highlights:
        key = (cell, value)
        if key not in mark_role or (_priority(role, _MARK_PRIORITY)
                                    < _priority(mark_role[key], _MARK_PRIORITY)):
            mark_role[key] = role
        if role in ROLE_TINTS and (cell not in tint_role or _priority(role, _TINT_PRIORITY)
                                   < _priority(tint_role[cell], _TINT_PRIORITY)):
            tint_role[cell] = role
    return mark_role, tint_role


def _header(shape: Shape, step: Step | None, cv: _Canvas) -> list[str]:
    """The opening ``svg`` tag, the title and the white background."""
    title = f"{shape.name} board" + (f": {step.technique}" if step is not None else "")
    total_w, total_h = cv.width, cv.height
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'{_attrs(width=total_w, height=total_h)} '
        f'viewBox="0 0 {_num(total_w)} {_num(total_h)}" '
        f'font-family="Helvetica, Arial, sans-serif">',
        _el("title", title),
        _el("rect", x=0, y=0, width=total_w, height=total_h, fill="#ffffff", class_="background"),
    ]


def _house_layer(cv: _Canvas, house_cells: set[int], cage_cells: set[int]) -> list[str]:
    """The light fill over the cells of the step's houses and cages."""
    out = ['<g class="houses">']
    for cell in sorted(house_cells):
        r, c = cv.shape.coords[cell]
        out.append(_el("rect", x=cv.x_of(c), y=cv.y_of(r), width=cv.size, height=cv.size,
                       fill=HOUSE_FILL, class_="house-fill"))
    for cell in sorted(cage_cells - house_cells):
        r, c = cv.shape.coords[cell]
        out.append(_el("rect", x=cv.x_of(c), y=cv.y_of(r), width=cv.size, height=cv.size,
                       fill=CAGE_FILL, class_="cage-fill", data_cell=cell))
    out.append("</g>")
    return out


def _cell_layer(cv: _Canvas, tint_role: dict[int, Role], step_cells: set[int]) -> list[str]:
    """One thin-lined rectangle per cell, tinted by its role or as a cell of the step."""
    out = ['<g class="cells">']
    for cell, (r, c) in enumerate(cv.shape.coords):
        if cell in tint_role:
            fill = ROLE_TINTS[tint_role[cell]]
        elif cell in step_cells:
            fill = STEP_CELL_FILL
        else:
            fill = "none"
        out.append(_el("rect", x=cv.x_of(c), y=cv.y_of(r), width=cv.size, height=cv.size,
                       fill=fill, stroke=LINE_COLOUR, stroke_width=0.5, class_="cell",
                       data_cell=cell))
    out.append("</g>")
    return out


def _diagonal_layer(cv: _Canvas) -> list[str]:
    """A faint line along each diagonal house (nothing for shapes without them)."""
    diagonals = [house for house in cv.shape.houses if house.kind == HouseKind.DIAGONAL]
    if not diagonals:
        return []
    out = ['<g class="diagonals">']
    for house in diagonals:
        ends = sorted(cv.shape.coords[c] for c in house.cells)
        (r0, c0), (r1, c1) = ends[0], ends[-1]
        dr = (r1 > r0) - (r1 < r0)
        dc = (c1 > c0) - (c1 < c0)
        out.append(_el("line", x1=cv.x_of(c0 + 0.5 - dc / 2), y1=cv.y_of(r0 + 0.5 - dr / 2),
                       x2=cv.x_of(c1 + 0.5 + dc / 2), y2=cv.y_of(r1 + 0.5 + dr / 2),
                       stroke=DIAGONAL_COLOUR, stroke_width=2.0, stroke_opacity=0.6,
                       class_="diagonal"))
    out.append("</g>")
    return out


def _border_layer(cv: _Canvas) -> list[str]:
    """Thick lines between boxes or regions and around grids, runs joined into one line."""
    height, width = cv.shape.canvas
    vertical, horizontal = thick_edges(cv.shape)
    out = [f'<g class="borders" stroke="{LINE_COLOUR}" stroke-width="3" '
           f'stroke-linecap="square">']
    for j in range(width + 1):
        for start, end in _runs(vertical[r][j] for r in range(height)):
            out.append(_el("line", x1=cv.x_of(j), y1=cv.y_of(start), x2=cv.x_of(j),
                           y2=cv.y_of(end), class_="thick"))
    for i in range(height + 1):
        for start, end in _runs(horizontal[i]):
            out.append(_el("line", x1=cv.x_of(start), y1=cv.y_of(i), x2=cv.x_of(end),
                           y2=cv.y_of(i), class_="thick"))
    out.append("</g>")
    return out


def _mark_layer(board: Board, cv: _Canvas, mark_role: dict[tuple[int, int], Role]) -> list[str]:
    """A coloured circle behind each highlighted candidate of an empty cell."""
    n = cv.shape.size
    out = ['<g class="marks">']
    for (cell, value), role in sorted(mark_role.items()):
        if board.values[cell] or not 1 <= value <= n:
            continue
        cx, cy = cv.cand_centre(cell, value)
        out.append(_el("circle", cx=cx, cy=cy, r=cv.radius,
                       fill=ROLE_COLOURS.get(role, OTHER_ROLE_COLOUR),
                       class_=f"mark {role}", data_cell=cell, data_value=value))
    out.append("</g>")
    return out


def _value_layer(board: Board, cv: _Canvas, alphabet: Alphabet,
                 givens: Collection[int] | None) -> list[str]:
    """The placed values, large: givens dark, the others blue."""
    # as large as the candidate sub-grid, which is the whole cell but in a Killer
    size = cv.size if not (cv.left or cv.top) else cv.k * cv.sub
    out = [f'<g class="values" text-anchor="middle" font-size="{_num(size * 0.62)}">']
    for cell in range(cv.shape.ncells):
        value = board.values[cell]
        if not value:
            continue
        given = givens is None or cell in givens
        x, y = cv.value_base(cell)
        out.append(_el("text", alphabet.symbol(value), x=x, y=y,
                       fill=GIVEN_COLOUR if given else VALUE_COLOUR,
                       class_="given" if given else "value", data_cell=cell))
    out.append("</g>")
    return out


def _candidate_layer(board: Board, cv: _Canvas, alphabet: Alphabet,
                     mark_role: dict[tuple[int, int], Role]) -> list[str]:
    """The candidates of empty cells, small, each in its place in the cell's sub-grid."""
    n, sub = cv.shape.size, cv.sub
    out = [f'<g class="candidates" text-anchor="middle" font-size="{_num(sub * 0.7)}">']
    for cell in range(cv.shape.ncells):
        if board.values[cell]:
            continue
        shown = {v for v in range(1, n + 1) if board.candidates[cell] >> (v - 1) & 1}
        # a highlighted candidate is shown even if the board no longer holds it
        shown.update(v for (c, v) in mark_role if c == cell and 1 <= v <= n)
        for value in sorted(shown):
            cx, cy = cv.cand_centre(cell, value)
            marked = (cell, value) in mark_role
            out.append(_el("text", alphabet.symbol(value), x=cx, y=cy + sub * 0.25,
                           fill="#ffffff" if marked else CANDIDATE_COLOUR,
                           class_="candidate", data_cell=cell, data_value=value))
    out.append("</g>")
    return out


def _link_layer(cv: _Canvas, highlights: Sequence[tuple[Role, int, int]]) -> list[str]:
    """A line between the candidates of each pair of ``link`` highlights, rim to rim."""
    n, radius = cv.shape.size, cv.radius
    ends = [(c, v) for role, c, v in highlights if role == Role.LINK and 1 <= v <= n]
    if len(ends) < 2:
        return []
    out = [f'<g class="links" stroke="{ROLE_COLOURS[Role.PIVOT]}" stroke-width="2" '
           f'fill="none">']
    for (ca, va), (cb, vb) in zip(ends[0::2], ends[1::2], strict=False):
        ax, ay = cv.cand_centre(ca, va)
        bx, by = cv.cand_centre(cb, vb)
        length = math.hypot(bx - ax, by - ay)
        if length <= 2 * radius:
            continue
        ux, uy = (bx - ax) / length, (by - ay) / length
        out.append(_el("line", x1=ax + ux * radius, y1=ay + uy * radius,
                       x2=bx - ux * radius, y2=by - uy * radius, class_="link",
                       data_from=f"{ca}:{va}", data_to=f"{cb}:{vb}"))
    out.append("</g>")
    return out


def _kakuro_layer(cv: _Canvas, highlighted: Collection[int]) -> list[str]:
    """Every square that is not a cell filled dark; clue squares split by a diagonal, the
    down sum below it and the across sum above it; a frame around the canvas."""
    shape = cv.shape
    height, width = shape.canvas
    size = cv.size
    # per clue square: (down, across) of (sum, highlighted)
    clues: dict[tuple[int, int], list[tuple[int | None, bool] | None]] = {}
    for k, cage in enumerate(shape.cages):
        if cage.clue is not None:
            side = 1 if is_across(shape, cage) else 0
            clues.setdefault(cage.clue, [None, None])[side] = (cage.total, k in highlighted)
    out = ['<g class="kakuro">']
    texts = []
    for r in range(height):
        for c in range(width):
            if (r, c) in shape.cell_at:
                continue
            x, y = cv.x_of(c), cv.y_of(r)
            sums = clues.get((r, c))
            out.append(_el("rect", x=x, y=y, width=size, height=size, fill=BLOCK_FILL,
                           stroke=LINE_COLOUR, stroke_width=0.5,
                           class_="clue" if sums else "block"))
            if sums is None:
                continue
            down, across = sums
            if down is not None and down[1]:
                out.append(_el("polygon", points=_points((x, y), (x, y + size),
                                                          (x + size, y + size)),
                               fill=CLUE_HIGHLIGHT, class_="clue-highlight down"))
            if across is not None and across[1]:
                out.append(_el("polygon", points=_points((x, y), (x + size, y),
                                                          (x + size, y + size)),
                               fill=CLUE_HIGHLIGHT, class_="clue-highlight across"))
            out.append(_el("line", x1=x, y1=y, x2=x + size, y2=y + size,
                           stroke=CLUE_LINE_COLOUR, stroke_width=1.0, class_="clue-diagonal"))
            # each sum sits in the middle of the widest part of its triangle, clear of
            # the diagonal for two digits
            if down is not None and down[0] is not None:
                texts.append(_el("text", str(down[0]), x=x + size * 0.3, y=y + size * 0.86,
                                 class_="clue-sum down", data_clue=f"{r},{c}"))
            if across is not None and across[0] is not None:
                texts.append(_el("text", str(across[0]), x=x + size * 0.7, y=y + size * 0.4,
                                 class_="clue-sum across", data_clue=f"{r},{c}"))
    out.append("</g>")
    if texts:
        out.append(f'<g class="clue-sums" text-anchor="middle" fill="{CLUE_TEXT_COLOUR}" '
                   f'font-size="{_num(size * 0.3)}" font-weight="bold">')
        out += texts
        out.append("</g>")
    out.append(_el("rect", x=cv.x_of(0), y=cv.y_of(0), width=width * size, height=height * size,
                   fill="none", stroke=LINE_COLOUR, stroke_width=3, class_="frame"))
    return out


def _points(*points: tuple[float, float]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


#: A Killer's outline: its inset from the cell's edge and its dashes, as shares of the side.
_CAGE_INSET = 0.07
_CAGE_DASH = 0.08


#: A corner of an outline: canvas row, offset, column, offset (offsets -1, 0 or 1 insets),
#: exact, so the two edges that meet at a corner find each other.
_Point = tuple[int, int, int, int]


def _cage_outline(cv: _Canvas, cells: Iterable[int]) -> str:
    """The path data of a cage's outline: its boundary, pulled ``_CAGE_INSET`` inside.

    Every side of a cell on the boundary gives one edge, going clockwise around the cage.
    At each end the edge stops short of the corner where the boundary turns outward, runs
    on past it where the boundary turns inward, and reaches the corner where the next
    cell's side carries on the line; so ends meet exactly, and edges chain into rings.
    """
    members = {cv.shape.coords[c] for c in cells}
    # clockwise sides: (row step, col step) to the outside, then the start and end
    # corners as (row, col) offsets from the cell's top-left, and the edge's direction
    sides = (((-1, 0), (0, 0), (0, 1), (0, 1)),   # top, left to right
             ((0, 1), (0, 1), (1, 1), (1, 0)),    # right, top to bottom
             ((1, 0), (1, 1), (1, 0), (0, -1)),   # bottom, right to left
             ((0, -1), (1, 0), (0, 0), (-1, 0)))  # left, bottom to top
    nxt: dict[_Point, _Point] = {}
    for r, c in sorted(members):
        for (orow, ocol), start, end, (dr, dc) in sides:
            if (r + orow, c + ocol) in members:
                continue
            # inward normal: the inset moves the edge against the outside direction
            nr, nc = -orow, -ocol
            ends = []
            for corner, along in ((start, -1), (end, 1)):
                # the square beside this cell past this end, and the one diagonally out
                br, bc = r + along * dr, c + along * dc
                if (br, bc) not in members:
                    shift = -along        # outward turn: stop one inset short
                elif (br + orow, bc + ocol) in members:
                    shift = along         # inward turn: run one inset on
                else:
                    shift = 0             # the line carries on into the next cell
                ends.append((r + corner[0], nr + shift * dr, c + corner[1], nc + shift * dc))
            nxt[ends[0]] = ends[1]
    inset = cv.size * _CAGE_INSET
    parts = []
    while nxt:
        first = min(nxt)
        ring = [first]
        point = nxt.pop(first)
        while point != first:
            ring.append(point)
            point = nxt.pop(point)
        # only the corners are kept: a point between two edges along one line is dropped
        corners = [p for i, p in enumerate(ring)
                   if not _collinear(ring[i - 1], p, ring[(i + 1) % len(ring)])]
        xy = [(cv.x_of(col) + dcol * inset, cv.y_of(row) + drow * inset)
              for row, drow, col, dcol in corners]
        parts.append("M" + " L".join(f"{_num(x)} {_num(y)}" for x, y in xy) + " Z")
    return " ".join(parts)


def _collinear(a: _Point, b: _Point, c: _Point) -> bool:
    """True when ``b`` lies on the line from ``a`` to ``c`` (all on one row or column)."""
    return (a[0], a[1]) == (b[0], b[1]) == (c[0], c[1]) or (a[2], a[3]) == (b[2], b[3]) == (
        c[2], c[3])


def _cage_layer(cv: _Canvas) -> list[str]:
    """A dashed outline inside the boundary of every cage without a clue square."""
    dash = _num(cv.size * _CAGE_DASH)
    out = [f'<g class="cages" fill="none" stroke="{CAGE_COLOUR}" stroke-width="1.2" '
           f'stroke-dasharray="{dash} {_num(cv.size * _CAGE_DASH * 0.6)}">']
    for k, cage in enumerate(cv.shape.cages):
        if cage.clue is None:
            out.append(_el("path", d=_cage_outline(cv, cage.cells), class_="cage",
                           data_cage=k))
    out.append("</g>")
    return out


def _cell_fills(cv: _Canvas, marks: _Marks, tint_role: dict[int, Role]) -> dict[int, str]:
    """The colour each cell shows, as the cell and house layers paint it."""
    fills: dict[int, str] = {}
    for cell in range(cv.shape.ncells):
        if cell in tint_role:
            fills[cell] = ROLE_TINTS[tint_role[cell]]
        elif cell in marks.step_cells:
            fills[cell] = STEP_CELL_FILL
        elif cell in marks.house_cells:
            fills[cell] = HOUSE_FILL
        elif cell in marks.cage_cells:
            fills[cell] = CAGE_FILL
        else:
            fills[cell] = "#ffffff"
    return fills


def _cage_sum_layer(cv: _Canvas, fills: dict[int, str]) -> list[str]:
    """Each cage's sum in the top-left corner of its first cell (top row, then left), on a
    patch of the cell's own colour so that the outline stops short of it."""
    size = cv.size
    font = size * 0.2
    inset = size * _CAGE_INSET
    out = [f'<g class="cage-sums" fill="{CAGE_COLOUR}" font-size="{_num(font)}">']
    for k, cage in enumerate(cv.shape.cages):
        if cage.clue is not None or cage.total is None:
            continue
        cell = min(cage.cells, key=lambda c: cv.shape.coords[c])
        r, c = cv.shape.coords[cell]
        x, y = cv.x_of(c), cv.y_of(r)
        text = f"{cage.total}*" if cage.repeats else str(cage.total)  # as the killer format
        # digits are about 0.56 of the font size wide in the usual sans-serif faces
        out.append(_el("rect", x=x + inset - 1, y=y + inset - 1,
                       width=len(text) * font * 0.56 + 2, height=font * 0.8 + 2,
                       fill=fills[cell], class_="cage-sum-bg", data_cage=k))
        out.append(_el("text", text, x=x + inset, y=y + inset + font * 0.76,
                       class_="cage-sum", data_cage=k, data_cell=cell))
    out.append("</g>")
    return out


def render_svg(board: Board, shape: Shape, step: Step | None = None,
               alphabet: Alphabet | None = None, *, givens: Collection[int] | None = None,
               cell_size: int | None = None) -> str:
    """The board as an SVG document (a string), with ``step`` shown on it if given.

    ``alphabet`` gives the symbols (default :meth:`Alphabet.default` for the size).
    ``givens`` is the set of cells whose values were given: their values are drawn dark
    and other values in blue; without it every value is drawn dark. ``cell_size`` is the
    side of a cell in pixels (default grows with the candidate sub-grid).

    A step contributes its ``houses`` and ``cages`` (light fill; the triangle of a Kakuro
    run's sum is coloured too), ``cells`` (tinted), ``highlights``
    (``(role, cell, value)``: the candidate is marked in the role's colour, see
    :data:`ROLE_COLOURS`, and the cell tinted), its ``placements`` and ``eliminations``
    (shown as ``placed`` and ``removed`` when no highlight names them) and its ``link``
    highlights, taken in pairs, as lines between candidates.
    """
    alphabet = alphabet or Alphabet.default(shape.size)
    cv = _canvas(shape, cell_size)
    marks = _step_marks(step, shape)
    mark_role, tint_role = _winning_roles(marks.highlights)
    out = _header(shape, step, cv)
    out += _house_layer(cv, marks.house_cells, marks.cage_cells)
    out += _cell_layer(cv, tint_role, marks.step_cells)
    out += _diagonal_layer(cv)
    if is_kakuro(shape):
        out += _kakuro_layer(cv, marks.cages)
    else:
        out += _border_layer(cv)
    if _killer_cages(shape):
        out += _cage_layer(cv)
        out += _cage_sum_layer(cv, _cell_fills(cv, marks, tint_role))
    out += _mark_layer(board, cv, mark_role)
    out += _value_layer(board, cv, alphabet, givens)
    out += _candidate_layer(board, cv, alphabet, mark_role)
    out += _link_layer(cv, marks.highlights)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render_puzzle_svg(puzzle: Puzzle, values: Sequence[int] | None = None, *,
                      cell_size: int = 40) -> str:
    """The puzzle as an SVG picture to print: its givens (and a Killer's cages, a Kakuro's
    clues), or ``values`` (say, its solution) with the givens dark and the rest blue; no
    candidates."""
    shape = puzzle.shape
    shown = list(values) if values is not None else list(puzzle.givens)
    if len(shown) != shape.ncells:
        raise ValueError(f"values: {len(shown)} given, the {shape.name} shape has "
                         f"{shape.ncells} cells")
    board = Board(shape, shown, [0] * shape.ncells)
    givens = {cell for cell, v in enumerate(puzzle.givens) if v}
    return render_svg(board, shape, alphabet=puzzle.alphabet, givens=givens,
                      cell_size=cell_size)
