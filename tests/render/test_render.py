"""SVG and text pictures of a board (numberplace.render)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from drawings import NS, find, parse_svg

from numberplace import formats
from numberplace.logic.board import Board, bit, values_of
from numberplace.logic.driver import solve_path
from numberplace.logic.step import Step
from numberplace.model.alphabet import Alphabet
from numberplace.model.shape import classic, diagonal
from numberplace.render import ROLE_COLOURS, render_svg, render_text

from positions import open_board

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EASY = "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7.."
# stalls after a pointing step, which is the first step of its path
POINTING = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
FOUR = "1..4.4....1.3..."


def example(name: str, **kwargs: object) -> Board:
    return open_board((EXAMPLES / name).read_text(), **kwargs)


def cell_rects(root: ET.Element) -> dict[int, ET.Element]:
    return {int(e.get("data-cell")): e for e in find(root, "rect", "cell")}


def in_candidate_box(root: ET.Element, cell: int, value: int, size: int,
                     x: float, y: float) -> bool:
    """True when (x, y) lies in the sub-square of ``value`` inside ``cell``'s rect."""
    rect = cell_rects(root)[cell]
    k = math.ceil(math.sqrt(size))
    side = float(rect.get("width")) / k
    row, col = divmod(value - 1, k)
    left = float(rect.get("x")) + col * side
    top = float(rect.get("y")) + row * side
    return left < x < left + side and top < y < top + side


# -- SVG ------------------------------------------------------------------------------------


def test_svg_4x4() -> None:
    board = open_board(FOUR)
    root = parse_svg(render_svg(board, board.shape))
    assert len(cell_rects(root)) == 16
    # boxes 2x2: three vertical and three horizontal thick lines, each one run
    assert len(find(root, "line", "thick")) == 6
    values = [e.text for e in find(root, "text", "given")]
    assert sorted(values) == sorted(ch for ch in FOUR if ch != ".")
    cands = find(root, "text", "candidate")
    assert len(cands) == sum(len(values_of(m)) for m in board.candidates)


def test_svg_9x9_removed_candidate_is_marked_in_red() -> None:
    board = open_board(EASY)
    cell = next(c for c in range(81) if len(values_of(board.candidates[c])) >= 3)
    value = values_of(board.candidates[cell])[-1]
    other = next(c for c in range(81) if board.candidates[c] and c != cell)
    step = Step(technique="Test", eliminations=((cell, value),), houses=(0, 18),
                highlights=(("defining", other, values_of(board.candidates[other])[0]),
                            ("removed", cell, value)))
    root = parse_svg(render_svg(board, board.shape, step))
    red = [e for e in root.iter(f"{NS}circle") if e.get("fill") == ROLE_COLOURS["removed"]]
    assert len(red) == 1
    mark = red[0]
    assert (int(mark.get("data-cell")), int(mark.get("data-value"))) == (cell, value)
    assert in_candidate_box(root, cell, value, 9, float(mark.get("cx")), float(mark.get("cy")))
    green = [e for e in root.iter(f"{NS}circle") if e.get("fill") == ROLE_COLOURS["defining"]]
    assert [int(e.get("data-cell")) for e in green] == [other]
    # the candidate's symbol is drawn over its mark
    texts = [e for e in find(root, "text", "candidate")
             if (int(e.get("data-cell")), int(e.get("data-value"))) == (cell, value)]
    assert len(texts) == 1 and texts[0].text == str(value)
    assert in_candidate_box(root, cell, value, 9, float(texts[0].get("x")),
                            float(texts[0].get("y")) - 1)
    # houses 0 and 18 (row 1, box 1) get a light fill
    assert len(find(root, "rect", "house-fill")) == 9 + 9 - 3


def test_svg_real_pointing_step() -> None:
    board = open_board(POINTING)
    step = solve_path(formats.parse(POINTING), max_steps=1).steps[0]
    assert step.eliminations
    root = parse_svg(render_svg(board, board.shape, step))
    marks = {(int(e.get("data-cell")), int(e.get("data-value"))): e
             for e in find(root, "circle", "mark")}
    for cell, value in step.eliminations:
        assert marks[(cell, value)].get("fill") == ROLE_COLOURS["removed"]
    for role, cell, value in step.highlights:
        assert role in marks[(cell, value)].get("class").split() or role != "removed"


def test_svg_placement_and_givens() -> None:
    puzzle = formats.parse(EASY)
    board = open_board(puzzle)
    givens = {c for c, v in enumerate(puzzle.givens) if v}
    step = solve_path(puzzle, max_steps=1).steps[0]
    cell, value = step.placements[0]
    before = render_svg(board, board.shape, step, givens=givens)
    root = parse_svg(before)
    blue = [e for e in find(root, "circle", "mark") if e.get("fill") == ROLE_COLOURS["placed"]]
    assert [(int(e.get("data-cell")), int(e.get("data-value"))) for e in blue] == [(cell, value)]
    step.apply(board)
    root = parse_svg(render_svg(board, board.shape, givens=givens))
    placed = find(root, "text", "value")
    assert [(int(e.get("data-cell")), e.text) for e in placed] == [(cell, str(value))]
    assert len(find(root, "text", "given")) == len(givens)
    assert before == render_svg(open_board(puzzle), puzzle.shape, step, givens=givens)


def test_svg_16x16() -> None:
    board = example("16x16.txt")
    root = parse_svg(render_svg(board, board.shape))
    assert len(cell_rects(root)) == 256
    assert len(find(root, "line", "thick")) == 10
    cands = find(root, "text", "candidate")
    assert len(cands) == sum(len(values_of(m)) for m in board.candidates)
    assert {e.text for e in cands} <= set("123456789ABCDEFG")
    assert "G" in {e.text for e in cands}
    for e in cands[:50]:
        assert in_candidate_box(root, int(e.get("data-cell")), int(e.get("data-value")), 16,
                                float(e.get("x")), float(e.get("y")) - 1)


def test_svg_25x25_empty() -> None:
    shape = classic(25)
    board = open_board("." * 625, shape=shape)
    root = parse_svg(render_svg(board, shape))
    assert len(cell_rects(root)) == 625
    assert len(find(root, "text", "candidate")) == 625 * 25


def test_svg_jigsaw_has_its_own_borders() -> None:
    board = example("jigsaw.txt")
    classic_root = parse_svg(render_svg(open_board(EASY), classic(9)))
    root = parse_svg(render_svg(board, board.shape))
    assert len(cell_rects(root)) == 81
    assert len(find(classic_root, "line", "thick")) == 8
    assert len(find(root, "line", "thick")) != 8
    assert len(find(root, "line", "thick")) > 8


def test_svg_samurai_gaps_have_no_cells() -> None:
    board = example("samurai.txt", shape="samurai")
    shape = board.shape
    root = parse_svg(render_svg(board, shape))
    rects = cell_rects(root)
    assert len(rects) == 369
    size = float(rects[0].get("width"))
    x0, y0 = float(rects[0].get("x")), float(rects[0].get("y"))
    positions = {(round((float(e.get("y")) - y0) / size), round((float(e.get("x")) - x0) / size))
                 for e in rects.values()}
    assert positions == set(shape.coords)
    assert (0, 9) not in positions and (10, 0) not in positions


def test_svg_diagonal_and_links() -> None:
    shape = diagonal(classic(9))
    board = open_board(POINTING, shape=shape)
    a, b = [c for c in range(81) if board.candidates[c] & bit(1)][:2]
    step = Step(technique="Chain", highlights=(("link", a, 1), ("link", b, 1)))
    root = parse_svg(render_svg(board, shape, step))
    assert len(find(root, "line", "diagonal")) == 2
    links = find(root, "line", "link")
    assert len(links) == 1 and links[0].get("data-from") == f"{a}:1"


def test_svg_alphabet_and_escaping() -> None:
    alphabet = Alphabet("<&>ABCDEF")
    puzzle = formats.parse(EASY)
    board = open_board(puzzle)
    text = render_svg(board, puzzle.shape, alphabet=alphabet)
    root = parse_svg(text)
    assert {e.text for e in find(root, "text", "given")} <= set(alphabet.symbols)
    assert "<&>"[0] in {e.text for e in find(root, "text", "candidate")}


# -- text -----------------------------------------------------------------------------------


def expected_marks(board: Board) -> list[int]:
    return [bit(v) if v else m for v, m in zip(board.values, board.candidates, strict=True)]


@pytest.mark.parametrize("text,kwargs", [(EASY, {}), (POINTING, {}), (FOUR, {}),
                                         ((EXAMPLES / "16x16.txt").read_text(), {}),
                                         ((EXAMPLES / "jigsaw.txt").read_text(), {})])
def test_text_round_trip_through_pencil(text: str, kwargs: dict[str, object]) -> None:
    puzzle = formats.parse(text, **kwargs)  # type: ignore[arg-type]
    board = open_board(puzzle)
    step = solve_path(puzzle, max_steps=1).steps[0]
    step.apply(board)
    drawn = render_text(board, puzzle.shape)
    back = formats.parse(drawn, format="pencil", shape=puzzle.shape)
    assert back.candidates is not None
    assert list(back.candidates) == expected_marks(board)


def test_text_classic_layout() -> None:
    board = open_board(EASY)
    lines = render_text(board, board.shape).splitlines()
    assert len(lines) == 9 + 4
    assert lines[0].startswith("+---") and lines[0].count("+") == 4
    widest = max(len(values_of(m)) for m in board.candidates)
    row = lines[1]
    assert row.count("|") == 4
    assert len(row) == 1 + 9 * (widest + 2) + 9 and len(set(map(len, lines))) == 1


def test_text_values_only() -> None:
    puzzle = formats.parse(EASY)
    drawn = render_text(open_board(puzzle), puzzle.shape, candidates=False)
    assert drawn.splitlines()[1] == "|. . 9|. 5 .|. 6 .|"
    assert formats.parse(drawn).givens == puzzle.givens


def test_text_samurai_gaps_are_blank() -> None:
    board = example("samurai.txt", shape="samurai")
    for candidates in (False, True):
        lines = render_text(board, board.shape, candidates=candidates).splitlines()
        rows = [ln for ln in lines if "+-" not in ln]
        assert len(rows) == 21
        middle = rows[10]
        assert middle.startswith(" ") and middle.lstrip().startswith("|")
        assert rows[0].count("|") == 8


def test_every_role_the_techniques_use_has_a_colour() -> None:
    """Each highlight role has a colour of its own, and the colours are distinct where
    two roles meet on one step (a candidate removed is never drawn as one placed)."""
    from numberplace.logic import Role

    assert set(Role) == set(ROLE_COLOURS)
    assert ROLE_COLOURS[Role.REMOVED] != ROLE_COLOURS[Role.PLACED]
    assert ROLE_COLOURS[Role.COLOR1] != ROLE_COLOURS[Role.COLOR2]
