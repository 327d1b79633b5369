"""A candidates board, and optionally one step of the solver, as an SVG picture.

The picture is drawn on the shape's canvas, so one routine serves grids of every size,
jigsaw, diagonal and Samurai (whose gaps are left empty). Layers, bottom to top:

* ``houses`` - a light fill over the cells of the step's houses;
* ``cells`` - one ``rect`` per cell (class ``cell``, ``data-cell`` its index), thin lines,
  tinted by the most important role any highlight gives the cell;
* ``diagonals`` - the diagonal houses, faint;
* ``borders`` - thick lines (class ``thick``) between cells of different boxes or jigsaw
  regions, and around every grid; runs of edges along one line are joined;
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
from collections.abc import Collection, Iterable
from xml.sax.saxutils import escape, quoteattr

from ..alphabet import Alphabet
from ..logic.board import Board
from ..logic.step import Role, Step
from ..shape import HouseKind, Shape
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
STEP_CELL_FILL = "#fff9db"
GIVEN_COLOUR = "#000000"
VALUE_COLOUR = "#1864ab"
CANDIDATE_COLOUR = "#495057"
LINE_COLOUR = "#343a40"
DIAGONAL_COLOUR = "#adb5bd"

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


def render_svg(board: Board, shape: Shape, step: Step | None = None,
               alphabet: Alphabet | None = None, *, givens: Collection[int] | None = None,
               cell_size: int | None = None) -> str:
    """The board as an SVG document (a string), with ``step`` shown on it if given.

    ``alphabet`` gives the symbols (default :meth:`Alphabet.default` for the size).
    ``givens`` is the set of cells whose values were given: their values are drawn dark
    and other values in blue; without it every value is drawn dark. ``cell_size`` is the
    side of a cell in pixels (default grows with the candidate sub-grid).

    A step contributes its ``houses`` (light fill), ``cells`` (tinted), ``highlights``
    (``(role, cell, value)``: the candidate is marked in the role's colour, see
    :data:`ROLE_COLOURS`, and the cell tinted), its ``placements`` and ``eliminations``
    (shown as ``placed`` and ``removed`` when no highlight names them) and its ``link``
    highlights, taken in pairs, as lines between candidates.
    """
    n = shape.size
    alphabet = alphabet or Alphabet.default(n)
    k = max(1, math.ceil(math.sqrt(n)))
    size = float(cell_size or max(40, 12 * k))
    sub = size / k
    height, width = shape.canvas
    total_w = width * size + 2 * _MARGIN
    total_h = height * size + 2 * _MARGIN

    def x_of(col: float) -> float:
        return _MARGIN + col * size

    def y_of(row: float) -> float:
        return _MARGIN + row * size

    def cand_centre(cell: int, value: int) -> tuple[float, float]:
        r, c = shape.coords[cell]
        sr, sc = divmod(value - 1, k)
        return x_of(c) + (sc + 0.5) * sub, y_of(r) + (sr + 0.5) * sub

    # -- what the step marks --------------------------------------------------------
    highlights: list[tuple[Role, int, int]] = []
    house_cells: set[int] = set()
    step_cells: set[int] = set()
    if step is not None:
        highlights = list(step.highlights)
        named = {(c, v) for _, c, v in highlights}
        highlights += [(Role.PLACED, c, v) for c, v in step.placements if (c, v) not in named]
        highlights += [(Role.REMOVED, c, v) for c, v in step.eliminations if (c, v) not in named]
        for h in step.houses:
            house_cells.update(shape.houses[h].cells)
        step_cells.update(step.cells)
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

    title = f"{shape.name} board" + (f": {step.technique}" if step is not None else "")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'{_attrs(width=total_w, height=total_h)} '
        f'viewBox="0 0 {_num(total_w)} {_num(total_h)}" '
        f'font-family="Helvetica, Arial, sans-serif">',
        _el("title", title),
        _el("rect", x=0, y=0, width=total_w, height=total_h, fill="#ffffff", class_="background"),
    ]

    # -- houses of the step -----------------------------------------------------------
    out.append('<g class="houses">')
    for cell in sorted(house_cells):
        r, c = shape.coords[cell]
        out.append(_el("rect", x=x_of(c), y=y_of(r), width=size, height=size,
                       fill=HOUSE_FILL, class_="house-fill"))
    out.append("</g>")

    # -- cells ------------------------------------------------------------------------
    out.append('<g class="cells">')
    for cell, (r, c) in enumerate(shape.coords):
        if cell in tint_role:
            fill = ROLE_TINTS[tint_role[cell]]
        elif cell in step_cells:
            fill = STEP_CELL_FILL
        else:
            fill = "none"
        out.append(_el("rect", x=x_of(c), y=y_of(r), width=size, height=size, fill=fill,
                       stroke=LINE_COLOUR, stroke_width=0.5, class_="cell", data_cell=cell))
    out.append("</g>")

    # -- diagonals --------------------------------------------------------------------
    diagonals = [house for house in shape.houses if house.kind == HouseKind.DIAGONAL]
    if diagonals:
        out.append('<g class="diagonals">')
        for house in diagonals:
            ends = sorted(shape.coords[c] for c in house.cells)
            (r0, c0), (r1, c1) = ends[0], ends[-1]
            dr = (r1 > r0) - (r1 < r0)
            dc = (c1 > c0) - (c1 < c0)
            out.append(_el("line", x1=x_of(c0 + 0.5 - dc / 2), y1=y_of(r0 + 0.5 - dr / 2),
                           x2=x_of(c1 + 0.5 + dc / 2), y2=y_of(r1 + 0.5 + dr / 2),
                           stroke=DIAGONAL_COLOUR, stroke_width=2.0, stroke_opacity=0.6,
                           class_="diagonal"))
        out.append("</g>")

    # -- thick borders ----------------------------------------------------------------
    vertical, horizontal = thick_edges(shape)
    out.append(f'<g class="borders" stroke="{LINE_COLOUR}" stroke-width="3" '
               f'stroke-linecap="square">')
    for j in range(width + 1):
        for start, end in _runs(vertical[r][j] for r in range(height)):
            out.append(_el("line", x1=x_of(j), y1=y_of(start), x2=x_of(j), y2=y_of(end),
                           class_="thick"))
    for i in range(height + 1):
        for start, end in _runs(horizontal[i]):
            out.append(_el("line", x1=x_of(start), y1=y_of(i), x2=x_of(end), y2=y_of(i),
                           class_="thick"))
    out.append("</g>")

    # -- candidate marks --------------------------------------------------------------
    radius = sub * 0.45
    out.append('<g class="marks">')
    for (cell, value), role in sorted(mark_role.items()):
        if board.values[cell] or not 1 <= value <= n:
            continue
        cx, cy = cand_centre(cell, value)
        out.append(_el("circle", cx=cx, cy=cy, r=radius,
                       fill=ROLE_COLOURS.get(role, OTHER_ROLE_COLOUR),
                       class_=f"mark {role}", data_cell=cell, data_value=value))
    out.append("</g>")

    # -- values -----------------------------------------------------------------------
    out.append(f'<g class="values" text-anchor="middle" font-size="{_num(size * 0.62)}">')
    for cell, (r, c) in enumerate(shape.coords):
        value = board.values[cell]
        if not value:
            continue
        given = givens is None or cell in givens
        out.append(_el("text", alphabet.symbol(value), x=x_of(c + 0.5),
                       y=y_of(r + 0.5) + size * 0.22,
                       fill=GIVEN_COLOUR if given else VALUE_COLOUR,
                       class_="given" if given else "value", data_cell=cell))
    out.append("</g>")

    # -- candidates -------------------------------------------------------------------
    out.append(f'<g class="candidates" text-anchor="middle" font-size="{_num(sub * 0.7)}">')
    for cell in range(shape.ncells):
        if board.values[cell]:
            continue
        shown = {v for v in range(1, n + 1) if board.candidates[cell] >> (v - 1) & 1}
        # a highlighted candidate is shown even if the board no longer holds it
        shown.update(v for (c, v) in mark_role if c == cell and 1 <= v <= n)
        for value in sorted(shown):
            cx, cy = cand_centre(cell, value)
            marked = (cell, value) in mark_role
            out.append(_el("text", alphabet.symbol(value), x=cx, y=cy + sub * 0.25,
                           fill="#ffffff" if marked else CANDIDATE_COLOUR,
                           class_="candidate", data_cell=cell, data_value=value))
    out.append("</g>")

    # -- chain links ------------------------------------------------------------------
    ends = [(c, v) for role, c, v in highlights if role == Role.LINK and 1 <= v <= n]
    if len(ends) >= 2:
        out.append(f'<g class="links" stroke="{ROLE_COLOURS[Role.PIVOT]}" stroke-width="2" '
                   f'fill="none">')
        for (ca, va), (cb, vb) in zip(ends[0::2], ends[1::2], strict=False):
            ax, ay = cand_centre(ca, va)
            bx, by = cand_centre(cb, vb)
            length = math.hypot(bx - ax, by - ay)
            if length <= 2 * radius:
                continue
            ux, uy = (bx - ax) / length, (by - ay) / length
            out.append(_el("line", x1=ax + ux * radius, y1=ay + uy * radius,
                           x2=bx - ux * radius, y2=by - uy * radius, class_="link",
                           data_from=f"{ca}:{va}", data_to=f"{cb}:{vb}"))
        out.append("</g>")

    out.append("</svg>")
    return "\n".join(out) + "\n"
