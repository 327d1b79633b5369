"""Pictures of shapes with cages: Killer outlines and sums, Kakuro clue squares (SVG and
text)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from drawings import find, parse_svg

from numberplace import formats
from numberplace.logic.board import values_of
from numberplace.logic.driver import solve_path
from numberplace.logic.step import Step
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, classic, is_across, killer
from numberplace.render import render_svg, render_text

from positions import open_board

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SMALL_KAKURO = "#   4\\  10\\\n\\3  .   .\n\\11 .   ."


def killer_puzzle() -> Puzzle:
    return formats.parse((EXAMPLES / "killer.txt").read_text())


def kakuro_puzzles() -> list[Puzzle]:
    text = (EXAMPLES / "kakuro.txt").read_text()
    return [formats.parse(chunk) for chunk in text.split("\n\n") if chunk.strip()]


def group(root: ET.Element, cls: str) -> ET.Element:
    (found,) = find(root, "g", cls)
    return found


def cell_boxes(root: ET.Element) -> dict[int, tuple[float, float, float]]:
    """Each cell's left, top and side."""
    return {int(e.get("data-cell", "")): (float(e.get("x", "")), float(e.get("y", "")),
                                          float(e.get("width", "")))
            for e in find(root, "rect", "cell")}


def rings(d: str) -> list[list[tuple[float, float]]]:
    """The corners of each closed ring of a path's data (``M x y L x y ... Z``)."""
    out = []
    for part in d.split("Z"):
        numbers = [float(x) for x in re.findall(r"-?[0-9.]+", part)]
        if numbers:
            out.append(list(zip(numbers[0::2], numbers[1::2], strict=True)))
    return out


# -- Killer ---------------------------------------------------------------------------------


def test_killer_has_one_outline_per_cage_and_each_sum_once() -> None:
    puzzle = killer_puzzle()
    shape = puzzle.shape
    root = parse_svg(render_svg(open_board(puzzle), shape))
    outlines = find(root, "path", "cage")
    assert sorted(int(e.get("data-cage", "")) for e in outlines) == list(range(len(shape.cages)))
    sums = find(root, "text", "cage-sum")
    assert sorted(int(e.get("data-cage", "")) for e in sums) == list(range(len(shape.cages)))
    for e in sums:
        cage = shape.cages[int(e.get("data-cage", ""))]
        assert e.text == str(cage.total)
        # in the cage's top-left cell
        assert int(e.get("data-cell", "")) == min(cage.cells, key=shape.coords.__getitem__)
    # every cage of the example is one piece, so one ring each
    assert all(len(rings(e.get("d", ""))) == 1 for e in outlines)


def test_killer_outline_stays_inside_its_cells() -> None:
    puzzle = killer_puzzle()
    shape = puzzle.shape
    root = parse_svg(render_svg(open_board(puzzle), shape))
    boxes = cell_boxes(root)
    for e in find(root, "path", "cage"):
        cells = shape.cages[int(e.get("data-cage", ""))].cells
        for x, y in rings(e.get("d", ""))[0]:
            # strictly inside one of the cage's cells, off every grid line
            assert any(left < x < left + side and top < y < top + side
                       for left, top, side in (boxes[c] for c in cells))


def test_killer_outline_corners() -> None:
    base = classic(4)
    # an L of three cells, two cells that touch only at a corner, and a sumless cage
    shape = killer(base, [((0, 1, 4), 7), ((10, 15), 5), ((2, 3), None)])
    root = parse_svg(render_svg(open_board(shape), shape))
    paths = {int(e.get("data-cage", "")): rings(e.get("d", "")) for e in find(root, "path", "cage")}
    by_cells = {shape.cages[k].cells: v for k, v in paths.items()}
    (ell,) = by_cells[(0, 1, 4)]
    assert len(ell) == 6
    assert len(by_cells[(10, 15)]) == 2 and all(len(r) == 4 for r in by_cells[(10, 15)])
    assert len(by_cells[(2, 3)]) == 1
    # the sumless cage is outlined, but has no sum
    assert sorted(e.text or "" for e in find(root, "text", "cage-sum")) == ["5", "7"]


def test_killer_candidates_keep_clear_of_the_sums() -> None:
    puzzle = killer_puzzle()
    shape = puzzle.shape
    root = parse_svg(render_svg(open_board(puzzle), shape))
    boxes = cell_boxes(root)
    sum_bottom = {}
    for e in find(root, "rect", "cage-sum-bg"):
        sum_bottom[int(e.get("data-cage", ""))] = float(e.get("y", "")) + float(
            e.get("height", ""))
    candidate_font = float(group(root, "candidates").get("font-size", ""))
    for e in find(root, "text", "cage-sum"):
        cell = int(e.get("data-cell", ""))
        bottom = sum_bottom[int(e.get("data-cage", ""))]
        tops = [float(c.get("y", "")) - candidate_font * 0.75
                for c in find(root, "text", "candidate") if c.get("data-cell") == str(cell)]
        assert tops and min(tops) > bottom
        left, top, side = boxes[cell]
        assert top < bottom < top + side / 3


def test_step_with_a_cage_fills_its_cells() -> None:
    puzzle = killer_puzzle()
    shape = puzzle.shape
    board = open_board(puzzle)
    cage = max(range(len(shape.cages)), key=lambda k: len(shape.cages[k].cells))
    step = Step(technique="Test", cages=(cage,))
    root = parse_svg(render_svg(board, shape, step))
    filled = {int(e.get("data-cell", "")) for e in find(root, "rect", "cage-fill")}
    assert filled == set(shape.cages[cage].cells)
    assert not find(parse_svg(render_svg(board, shape)), "rect", "cage-fill")


def test_plain_sudoku_has_no_cage_layers() -> None:
    shape = classic(9)
    root = parse_svg(render_svg(open_board(shape), shape))
    for cls in ("cages", "cage-sums", "kakuro"):
        assert not find(root, "g", cls)


# -- Kakuro ---------------------------------------------------------------------------------


def clue_squares(shape: Shape) -> dict[tuple[int, int], dict[str, int | None]]:
    out: dict[tuple[int, int], dict[str, int | None]] = {}
    for cage in shape.cages:
        assert cage.clue is not None
        out.setdefault(cage.clue, {})["across" if is_across(shape, cage) else "down"] = \
            cage.total
    return out


def test_kakuro_canvas_clue_squares_and_sums() -> None:
    for puzzle in kakuro_puzzles():
        shape = puzzle.shape
        root = parse_svg(render_svg(open_board(puzzle), shape))
        rows, cols = shape.canvas
        boxes = cell_boxes(root)
        assert len(boxes) == shape.ncells
        side = next(iter(boxes.values()))[2]
        width, height = float(root.get("width", "")), float(root.get("height", ""))
        assert root.get("viewBox") == f"0 0 {width:g} {height:g}"
        # the margins are the same on every side, and the canvas lies between them
        margin = (width - cols * side) / 2
        assert margin > 0 and height == rows * side + 2 * margin
        clues = clue_squares(shape)
        squares = {(round((float(e.get("y", "")) - margin) / side),
                    round((float(e.get("x", "")) - margin) / side)): e
                   for e in find(root, "rect", "clue")}
        assert set(squares) == set(clues)
        blocks = find(root, "rect", "block")
        assert len(blocks) == rows * cols - shape.ncells - len(clues)
        diagonals = find(root, "line", "clue-diagonal")
        assert len(diagonals) == len(clues)
        for line in diagonals:
            x1, y1, x2, y2 = (float(line.get(a, "")) for a in ("x1", "y1", "x2", "y2"))
            # from the top-left corner to the bottom-right one of a clue square
            r, c = round((y1 - margin) / side), round((x1 - margin) / side)
            assert (r, c) in clues
            assert (x2 - x1, y2 - y1) == (side, side)
        seen = []
        for e in find(root, "text", "clue-sum"):
            r, c = (int(v) for v in e.get("data-clue", "").split(","))
            word = "across" if "across" in e.get("class", "").split() else "down"
            assert e.text == str(clues[(r, c)][word])
            # across sums above the diagonal, down sums below it
            dx = float(e.get("x", "")) - (margin + c * side)
            dy = float(e.get("y", "")) - (margin + r * side)
            assert 0 < dx < side and 0 < dy < side
            assert (dy < dx) == (word == "across")
            seen.append(((r, c), word))
        assert sorted(seen) == sorted((rc, w) for rc, sums in clues.items() for w in sums)
        # a Kakuro is not outlined like a Killer, nor boxed like a Sudoku
        assert not find(root, "path", "cage") and not find(root, "line", "thick")


def test_kakuro_values_and_candidates_in_white_cells() -> None:
    puzzle = formats.parse(SMALL_KAKURO)
    board = open_board(puzzle)
    step = solve_path(puzzle, max_steps=1).steps[0]
    step.apply(board)
    root = parse_svg(render_svg(board, puzzle.shape))
    cands = find(root, "text", "candidate")
    assert len(cands) == sum(len(values_of(m)) for v, m in
                             zip(board.values, board.candidates, strict=True) if not v)


def test_kakuro_step_highlights_its_run() -> None:
    puzzle = formats.parse(SMALL_KAKURO)
    shape = puzzle.shape
    board = open_board(puzzle)
    across = next(k for k, cage in enumerate(shape.cages) if is_across(shape, cage))
    root = parse_svg(render_svg(board, shape, Step(technique="Test", cages=(across,))))
    (triangle,) = find(root, "polygon", "clue-highlight")
    assert "across" in triangle.get("class", "").split()
    filled = {int(e.get("data-cell", "")) for e in find(root, "rect", "cage-fill")}
    assert filled == set(shape.cages[across].cells)


# -- text -----------------------------------------------------------------------------------


def test_text_kakuro() -> None:
    puzzle = formats.parse(SMALL_KAKURO)
    board = open_board(puzzle)
    assert render_text(board, puzzle.shape, candidates=False) == SMALL_KAKURO
    for step in solve_path(puzzle).steps:
        step.apply(board)
    drawn = render_text(board, puzzle.shape, candidates=False)
    assert drawn == "#   4\\  10\\\n\\3  1   2\n\\11 3   8"
    with_candidates = render_text(open_board(puzzle), puzzle.shape).splitlines()
    assert with_candidates[1].split() == ["\\3", "123456789", "123456789"]
    # columns line up
    assert len({line.index("123") for line in with_candidates[1:]}) == 1


def test_text_kakuro_reads_back_with_its_values() -> None:
    for puzzle in kakuro_puzzles():
        board = open_board(puzzle)
        for step in solve_path(puzzle, max_steps=8).steps:
            step.apply(board)
        back = formats.parse(render_text(board, puzzle.shape, candidates=False))
        assert back.shape == puzzle.shape
        assert list(back.givens) == list(board.values)


def test_text_killer_grid_map_and_sums() -> None:
    puzzle = killer_puzzle()
    board = open_board(puzzle)
    for step in solve_path(puzzle, max_steps=10).steps:
        step.apply(board)
    drawn = render_text(board, puzzle.shape, candidates=False)
    lines = drawn.splitlines()
    assert lines[:13] == render_text(board, classic(9), candidates=False).splitlines()
    assert lines[13] == "cages:"
    assert lines[14] == "AABBCDDEF"
    assert lines[23].startswith("A=21 B=7 C=17")
    back = formats.parse(drawn)
    assert back.shape == puzzle.shape and list(back.givens) == list(board.values)
    # with candidates, the same map follows the pencil-mark grid
    pencil = render_text(board, puzzle.shape).splitlines()
    assert pencil[pencil.index("cages:"):] == lines[13:]
