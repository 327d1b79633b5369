"""Canonical forms: every equivalent form of a puzzle has one key, the form is the least of
them, and the compiled core agrees with the slower search in Python."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numberplace import engine
from numberplace.engine.canon import WORK_LIMIT, Canonical, canonical, canonical_key
from numberplace.errors import LimitError, PuzzleError
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, classic, diagonal, jigsaw, samurai

from conftest import data_lines

#: Classic shapes and their boxes (rows x columns).
SIZES = [(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4)), (9, (3, 3)), (12, (3, 4)),
         (16, (4, 4)), (25, (5, 5))]

HAVE_CORE = "c" in engine.available_backends()


def pattern_grid(n: int, box: tuple[int, int]) -> list[int]:
    """A complete grid of the shape: each row the one above shifted by a box's width, and
    by one more at a band's end."""
    br, bc = box
    return [((r % br) * bc + r // br + c) % n + 1 for r in range(n) for c in range(n)]


def block_order(rng: random.Random, n: int, block: int) -> list[int]:
    """A random order of 0..n-1 that moves whole blocks and orders each block's members."""
    blocks = rng.sample(range(n // block), n // block)
    return [b * block + i for b in blocks for i in rng.sample(range(block), block)]


def shuffled(values: list[int] | tuple[int, ...], n: int, box: tuple[int, int],
             rng: random.Random) -> list[int]:
    """The values changed by a random symmetry of the classic shape: rows within bands,
    bands, columns within stacks, stacks, the transpose (square boxes) and a relabelling."""
    br, bc = box
    grid = [list(values[r * n:(r + 1) * n]) for r in range(n)]
    if br == bc and rng.random() < 0.5:
        grid = [list(col) for col in zip(*grid, strict=True)]
    rows, cols = block_order(rng, n, br), block_order(rng, n, bc)
    symbols = [0] + rng.sample(range(1, n + 1), n)
    return [symbols[grid[r][c]] for r in rows for c in cols]


def random_puzzle(n: int, box: tuple[int, int], density: float, rng: random.Random) -> Puzzle:
    """A puzzle from a shuffled complete grid, each cell given with chance ``density``."""
    full = shuffled(pattern_grid(n, box), n, box, rng)
    return Puzzle(classic(n, box), tuple(v if rng.random() < density else 0 for v in full))


@given(st.sampled_from(SIZES), st.floats(0.0, 0.45), st.integers(0, 2**32 - 1))
@settings(max_examples=150, deadline=None)
def test_every_symmetry_of_a_classic_puzzle_gives_the_same_key(
        size: tuple[int, tuple[int, int]], density: float, seed: int) -> None:
    n, box = size
    rng = random.Random(seed)
    puzzle = random_puzzle(n, box, density, rng)
    other = puzzle.with_values(shuffled(puzzle.givens, n, box, rng))
    form, again = canonical(puzzle), canonical(other)
    assert form.key == again.key
    assert form.puzzle == again.puzzle
    # the transform says how: it maps each puzzle onto the form
    assert form.transform.apply(puzzle) == form.puzzle
    assert again.transform.apply(other) == form.puzzle
    # the form is its own form, and no greater than the puzzle itself
    assert canonical(form.puzzle).puzzle == form.puzzle
    assert form.puzzle.givens <= puzzle.givens
    assert form.puzzle.clue_count == puzzle.clue_count


def every_form(puzzle: Puzzle) -> set[tuple[int, ...]]:
    """Every form of a small classic puzzle: the whole symmetry group, one by one, each
    relabelled in order of first appearance."""
    n = puzzle.size
    br, bc = puzzle.shape.box or (n, n)
    grids = [puzzle.givens]
    if br == bc:
        grids.append(tuple(puzzle.givens[c * n + r] for r in range(n) for c in range(n)))

    def orders(block: int) -> list[list[int]]:
        inner = list(itertools.permutations(range(block)))
        return [[b * block + w[k] for b, w in zip(outer, within, strict=True) for k in range(block)]
                for outer in itertools.permutations(range(n // block))
                for within in itertools.product(inner, repeat=n // block)]

    forms = set()
    for g in grids:
        for rows in orders(br):
            for cols in orders(bc):
                labels: dict[int, int] = {}
                forms.add(tuple(labels.setdefault(v, len(labels) + 1) if v else 0
                                for v in (g[r * n + c] for r in rows for c in cols)))
    return forms


@given(st.sampled_from(SIZES[:3]), st.floats(0.0, 1.0), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_the_form_is_the_least_of_every_form(size: tuple[int, tuple[int, int]],
                                             density: float, seed: int) -> None:
    n, box = size
    puzzle = random_puzzle(n, box, density, random.Random(seed))
    assert canonical(puzzle).puzzle.givens == min(every_form(puzzle))


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_CORE, reason="the compiled core is not built")
@given(st.sampled_from(SIZES[:5]), st.floats(0.0, 1.0), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_the_core_and_the_python_search_agree(size: tuple[int, tuple[int, int]],
                                              density: float, seed: int) -> None:
    n, box = size
    puzzle = random_puzzle(n, box, density, random.Random(seed))
    core, python = canonical(puzzle, backend="c"), canonical(puzzle, backend="python")
    assert core.key == python.key
    assert python.transform.apply(puzzle) == python.puzzle


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_CORE, reason="the compiled core is not built")
@pytest.mark.parametrize("name", ["top95.txt", "17_clue.txt", "kaggle_like_10k.txt"])
def test_the_core_and_the_python_search_agree_on_published_puzzles(name: str) -> None:
    for line in data_lines(name, 40):
        puzzle = Puzzle.from_string(line)
        assert canonical(puzzle, backend="c").key == canonical(puzzle, backend="python").key


def test_published_forms_are_never_less_than_ours() -> None:
    # most of the 17-clue collection is published in this very form
    lines = data_lines("17_clue.txt", 3000)
    same = 0
    for line in lines:
        puzzle = Puzzle.from_string(line)
        form = canonical(puzzle).puzzle
        assert form.givens <= puzzle.givens
        same += form == puzzle
    assert same > len(lines) * 0.9


# -- other shapes ---------------------------------------------------------------------------

#: The turns of a square canvas as maps of (row, column), n the side.
TURNS = [
    lambda r, c, n: (r, c), lambda r, c, n: (c, n - 1 - r),
    lambda r, c, n: (n - 1 - r, n - 1 - c), lambda r, c, n: (n - 1 - c, r),
    lambda r, c, n: (n - 1 - r, c), lambda r, c, n: (r, n - 1 - c),
    lambda r, c, n: (c, r), lambda r, c, n: (n - 1 - c, n - 1 - r),
]


def turned(shape: Shape, values: tuple[int, ...], k: int) -> tuple[int, ...]:
    """Values moved by turn k of the canvas (cell at (r, c) goes to TURNS[k](r, c))."""
    out = [0] * shape.ncells
    at = shape.cell_at
    for i, (r, c) in enumerate(shape.coords):
        out[at[TURNS[k](r, c, shape.canvas[0])]] = values[i]
    return tuple(out)


def relabelled(values: tuple[int, ...], n: int, rng: random.Random) -> tuple[int, ...]:
    symbols = [0] + rng.sample(range(1, n + 1), n)
    return tuple(symbols[v] for v in values)


def solved(shape: Shape, rng: random.Random, density: float) -> Puzzle:
    """A random puzzle on ``shape`` cut from a complete grid found by the engine."""
    empty = Puzzle.empty(shape)
    grid = engine.first_solution(empty)
    assert grid is not None
    grid = relabelled(grid, shape.size, rng)
    return Puzzle(shape, tuple(v if rng.random() < density else 0 for v in grid))


@given(st.integers(0, 7), st.integers(0, 2**32 - 1))
@settings(max_examples=30, deadline=None)
def test_turns_of_a_jigsaw_turn_its_regions_too(k: int, seed: int) -> None:
    rng = random.Random(seed)
    # a layout without symmetry of its own
    regions = ("111123333111222223112223333444455666455555566445776666744788888777799888"
               "799999998")
    shape = jigsaw(regions)
    puzzle = solved(shape, rng, 0.4)
    moved_regions = turned(shape, shape.regions, k)
    other_shape = jigsaw(list(moved_regions), 9)
    other = Puzzle(other_shape, relabelled(turned(shape, puzzle.givens, k), 9, rng))
    assert canonical_key(puzzle) == canonical_key(other)
    form = canonical(other)
    assert form.transform.apply(other) == form.puzzle
    assert form.puzzle.shape.regions  # a jigsaw still


@given(st.integers(0, 7), st.integers(0, 2**32 - 1))
@settings(max_examples=20, deadline=None)
def test_samurai_forms_follow_the_turns_of_its_canvas(k: int, seed: int) -> None:
    rng = random.Random(seed)
    shape = samurai()
    puzzle = solved(shape, rng, 0.3)
    other = Puzzle(shape, relabelled(turned(shape, puzzle.givens, k), 9, rng))
    assert canonical_key(puzzle) == canonical_key(other)


@given(st.integers(0, 7), st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
@settings(max_examples=40, deadline=None)
def test_a_diagonal_grid_keeps_its_diagonals_under_every_symmetry(
        k: int, seed: int, swap_middle: bool, reorder_pairs: bool) -> None:
    rng = random.Random(seed)
    shape = diagonal(classic(9))
    puzzle = solved(shape, rng, 0.35)
    # rows and columns alike: 4 and 6 swap; the pairs (1, 9), (2, 8), (3, 7) reorder
    order = list(range(9))
    if swap_middle:
        order[3], order[5] = 5, 3
    if reorder_pairs:
        pairs = rng.sample([(0, 8), (1, 7), (2, 6)], 3)
        for (a, b), (x, y) in zip([(0, 8), (1, 7), (2, 6)], pairs, strict=True):
            order[a], order[b] = x, y
    values = tuple(puzzle.givens[order[i // 9] * 9 + order[i % 9]] for i in range(81))
    other = Puzzle(shape, relabelled(turned(shape, values, k), 9, rng))
    assert other.clashes() == []
    assert canonical_key(puzzle) == canonical_key(other)


def test_killer_cages_turn_and_their_sums_keep_the_values() -> None:
    from numberplace.model.shape import killer

    base = classic(4)
    cages = [([0, 1], 3), ([2, 3], 7), ([4, 8], None), ([15], 4)]
    shape = killer(base, cages)
    puzzle = Puzzle(shape, (1, 2, 3, 4) + (0,) * 12)
    # the same puzzle turned a half turn: cells i -> 15 - i
    other_shape = killer(base, [([15 - c for c in cells], total) for cells, total in cages])
    other = Puzzle(other_shape, tuple(reversed(puzzle.givens)))
    assert canonical_key(puzzle) == canonical_key(other)
    # relabelled, it is another puzzle: the sums fix the values
    swapped = Puzzle(shape, (2, 1, 3, 4) + (0,) * 12)
    assert canonical_key(swapped) != canonical_key(puzzle)


# -- what has no form -----------------------------------------------------------------------


def test_clashing_givens_have_no_form() -> None:
    puzzle = Puzzle.from_string("11" + "." * 79)
    with pytest.raises(PuzzleError, match="clash.*r1c1 and r1c2"):
        canonical(puzzle)


def test_pencil_marks_have_no_form() -> None:
    puzzle = Puzzle(classic(4), (0,) * 16, candidates=(15,) * 16)
    with pytest.raises(PuzzleError, match="pencil marks"):
        canonical(puzzle)


def test_the_work_is_bounded() -> None:
    n, box = 16, (4, 4)
    full = Puzzle(classic(n, box), tuple(pattern_grid(n, box)))
    with pytest.raises(LimitError, match="more than 1,000 steps"):
        canonical(full, work_limit=1000)
    with pytest.raises(LimitError):
        canonical(full, work_limit=1000, backend="python")


def test_the_default_work_limit_is_ample_for_real_puzzles() -> None:
    for line in data_lines("forum_hardest_1905_11plus.txt", 200):
        assert isinstance(canonical(Puzzle.from_string(line), work_limit=WORK_LIMIT // 100),
                          Canonical)


def test_a_puzzle_is_needed() -> None:
    with pytest.raises(TypeError):
        canonical("." * 81)  # type: ignore[arg-type]


def test_the_transform_reads_as_data() -> None:
    puzzle = Puzzle.from_string(data_lines("top95.txt", 1)[0])
    form = canonical(puzzle)
    data = form.transform.as_dict()
    assert sorted(data["rows"]) == list(range(1, 10))  # type: ignore[call-overload]
    assert sorted(data["columns"]) == list(range(1, 10))  # type: ignore[call-overload]
    assert isinstance(data["transpose"], bool)
    relabel = data["relabel"]
    assert isinstance(relabel, dict)
    # the relabelling of the transform, written out: only the symbols that change
    assert all(int(old) != new for old, new in relabel.items())


def test_the_example_of_the_docs_gives_what_its_comments_say() -> None:
    import ast
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "bank.md").read_text()
    block = re.search(r"```python\n(.*?)```", doc, re.S)
    assert block is not None
    scope: dict[str, object] = {}
    checked = 0
    statement = ""
    for line in block.group(1).splitlines():
        code, _, comment = line.partition("  # ")
        statement += code + "\n"
        if statement.count("(") != statement.count(")"):
            continue  # a statement over several lines
        if comment:
            assert eval(statement, scope) == ast.literal_eval(comment.strip()), line
            checked += 1
        else:
            exec(statement, scope)
        statement = ""
    assert checked == 5
