"""Sudoku Explainer's way to a difficulty (``logic/explainer.py``) and its chains
(``logic/xchain.py``, ``logic/xchain_plus.py``)."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from numberplace import engine, formats, native
from numberplace.errors import LimitError
from numberplace.limits import Deadline
from numberplace.logic.board import Board
from numberplace.logic.explainer import explainer_difficulty
from numberplace.logic.rating import rate, step_difficulty
from numberplace.logic.xchain import (
    DYNAMIC,
    DYNAMIC_PLUS,
    FAMILIES,
    MULTIPLE,
    NESTED,
    NESTED_DYNAMIC,
    NESTED_MULTIPLE,
    NISHIO,
    Chaining,
    Hint,
    _compiled_tables,
    length_bonus,
)
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, classic, diagonal, jigsaw

from conftest import data_lines
from positions import JIGSAW_9, S9, near_solved

compiled = pytest.mark.skipif(native.core is None or not native.core.HAVE_XCHAIN,
                              reason="the compiled core is not built")

#: Sudoku Explainer's ratings of magictour_top1465 puzzles (by their place in the file),
#: measured with its ``serate`` command restricted to Sudoku Explainer 1.2.1's
#: techniques; one or two for each kind of step that can be the hardest.
EXPLAINER_RATINGS = [
    (1303, 2.0),  # a hidden pair that leaves a hidden single
    (1186, 2.3),  # naked singles
    (1402, 2.5),  # a hidden triple that leaves a hidden single
    (982, 2.6),   # pointing
    (121, 2.8),   # claiming
    (4, 3.4),     # hidden pair
    (157, 4.2),   # XY-Wing
    (1057, 6.6),  # a forcing chain on one digit
    (754, 6.9),   # a cycle
    (1444, 7.2),  # a forcing chain through cells and houses
    (1366, 7.6),  # Nishio
    (796, 8.2),   # multiple chains
    (1096, 8.5),  # dynamic chains
    (808, 8.8),
    (634, 9.1),   # dynamic chains with pairs and intersections inside
]


def _value_of(step):  # type: ignore[no-untyped-def]
    kind = step.shape.houses[step.houses[0]].kind if step.houses else None
    return step_difficulty(step, kind)


def test_length_bonus_follows_the_explainer_brackets() -> None:
    # the size counts states; 0.1 for each of 4, 6, 8, 12, 16, 24, ... that size - 2 passes
    assert [length_bonus(n) for n in (1, 6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27)] == [
        0, 0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6]
    assert NISHIO < MULTIPLE < DYNAMIC < DYNAMIC_PLUS


@pytest.mark.parametrize(("index", "theirs"), EXPLAINER_RATINGS)
def test_the_difficulty_is_the_explainers(index: int, theirs: float) -> None:
    line = data_lines("magictour_top1465.txt")[index]
    assert rate(line, book=False).difficulty == theirs


def test_no_chain_removes_a_true_value() -> None:
    # soundness: at every board where the path needs chains, every conclusion of every
    # kind (not only the one applied) keeps the solution's digits
    seen: list[Hint] = []
    original = Chaining.first

    def spy(self: Chaining, kinds: range | None = None) -> Hint | None:
        if kinds is None or 0 in kinds:
            for kind in (self.cycles, self.nishio, self.multiple, self.dynamic):
                seen.extend(kind())
        return original(self, kinds)

    checked = 0
    lines = data_lines("magictour_top1465.txt")
    for line in (lines[i] for i, _ in EXPLAINER_RATINGS[7:]):
        puzzle = formats.parse(line)
        solution = engine.solve(puzzle, limit=1).solution
        assert solution is not None
        seen.clear()
        Chaining.first = spy  # type: ignore[method-assign]
        try:
            explainer_difficulty(Board.from_puzzle(puzzle), _value_of)
        finally:
            Chaining.first = original  # type: ignore[method-assign]
        for hint in seen:
            for c, v in hint.removals:
                assert solution[c] != v, (line, hint)
        checked += len(seen)
    assert checked > 1000


def test_each_kind_waits_for_the_ones_before() -> None:
    # the first board of this puzzle's path that needs chains has no cycle or forcing
    # chain on it, and a contradiction on one digit, which the Explainer applies
    line = data_lines("magictour_top1465.txt")[1366]
    board = Board.from_puzzle(formats.parse(line))
    boards: list[Board] = []
    original = Chaining.first

    def spy(self: Chaining, kinds: range | None = None) -> Hint | None:
        boards.append(self.board.copy())
        return original(self, kinds)

    Chaining.first = spy  # type: ignore[method-assign]
    try:
        explainer_difficulty(board, _value_of)
    finally:
        Chaining.first = original  # type: ignore[method-assign]
    chaining = Chaining(boards[0])
    assert chaining.cycles() == []
    nishio = chaining.nishio()
    assert nishio and all(h.kind.startswith("Nishio") for h in nishio)
    first = chaining.first()
    assert first is not None and first == min(nishio, key=lambda h: h.rank)
    assert first.value == 7.6


def test_without_the_compiled_core_a_board_past_every_kind_is_valued_nested(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the first of forum_hardest_1106, which serate rates 10.3 by nested chains: neither
    # the kinds the Python search follows nor our own techniques get past one of its boards
    monkeypatch.setenv("NUMBERPLACE_BACKEND", "python")
    line = data_lines("forum_hardest_1106.txt", 1)[0]
    board = Board.from_puzzle(formats.parse(line))
    value, name, solved = explainer_difficulty(board, _value_of)
    assert (value, name, solved) == (NESTED, "Nested Forcing Chain", False)
    assert rate(line, book=False).difficulty == NESTED


def _random_boards(shape: Shape, rng: random.Random, count: int
                   ) -> Iterator[tuple[Board, tuple[int, ...]]]:
    """Boards on the way to a random solution of ``shape``: a share of its values given,
    and some of the other candidates struck at random, so that every kind of chain has
    something to find on some of them; with the solution."""
    solution = engine.solve(Puzzle.empty(shape), limit=1).solution
    assert solution is not None
    labels = list(range(1, shape.size + 1))
    rng.shuffle(labels)
    solution = tuple(labels[v - 1] for v in solution)
    for _ in range(count):
        kept = set(rng.sample(range(shape.ncells), int(rng.uniform(0.15, 0.5) * shape.ncells)))
        board = Board.from_puzzle(
            Puzzle(shape, tuple(v if c in kept else 0 for c, v in enumerate(solution))))
        for c, m in enumerate(board.candidates):
            for v in range(1, shape.size + 1):
                wrong = m >> (v - 1) & 1 and v != solution[c]
                if wrong and rng.random() < 0.1 and board.candidates[c] & ~(1 << (v - 1)):
                    board.candidates[c] &= ~(1 << (v - 1))
        yield board, solution


@compiled
@pytest.mark.parametrize("shape", [classic(4), classic(6), S9, jigsaw(JIGSAW_9), diagonal(S9)],
                         ids=["4x4", "6x6", "9x9", "jigsaw", "diagonal"])
def test_the_compiled_chains_find_what_the_reference_finds(shape: Shape) -> None:
    # each kind up to 9.0, on boards of every kind of density: the compiled search's
    # cheapest hint is the Python search's, value, size, name and removals alike
    rng = random.Random(shape.ncells)
    searches = ("cycles", "nishio", "multiple", "dynamic", "dynamic_plus")
    found = 0
    for board, solution in _random_boards(shape, rng, 8):
        chaining = Chaining(board)
        for kind, search in enumerate(searches):
            hints = getattr(chaining, search)()
            ours = chaining.compiled(kind)
            assert ours == (min(hints, key=lambda h: h.rank) if hints else None), search
            if ours is not None:
                found += 1
                assert all(solution[c] != v for c, v in ours.removals)
    assert found >= 10


@compiled
def test_shapes_the_compiled_chains_cannot_take() -> None:
    assert _compiled_tables(classic(9)) is not None
    assert _compiled_tables(classic(16)) is None  # 256 cells
    with pytest.raises(ValueError, match="81 cells"):
        Chaining(Board.from_puzzle(Puzzle.empty(classic(16)))).compiled(0)


def _hardest_path(line: str) -> tuple[float, str, bool, list[Hint]]:
    """The Explainer's path on ``line`` with every chain step it took, each checked
    against the solution: no step removes a true value."""
    puzzle = formats.parse(line)
    solution = engine.solve(puzzle, limit=1).solution
    assert solution is not None
    taken: list[Hint] = []
    original = Chaining.first

    def spy(self: Chaining, kinds: range | None = None) -> Hint | None:
        hint = original(self, kinds)
        if hint is not None:
            assert all(solution[c] != v for c, v in hint.removals), (line, hint)
            taken.append(hint)
        return hint

    Chaining.first = spy  # type: ignore[method-assign]
    try:
        value, name, solved = explainer_difficulty(Board.from_puzzle(puzzle), _value_of)
    finally:
        Chaining.first = original  # type: ignore[method-assign]
    return value, name, solved, taken


@compiled
def test_nested_chains_rate_a_hardest_puzzle_as_the_explainer_does() -> None:
    # serate rates the first of forum_hardest_1106 10.3; its path needs chains with
    # cycles and forcing chains nested inside, each step sound
    line = data_lines("forum_hardest_1106.txt", 1)[0]
    value, name, solved, taken = _hardest_path(line)
    assert solved
    assert abs(value - 10.3) <= 0.2
    assert name.startswith(FAMILIES[5])
    nested = [h for h in taken if h.kind.startswith("Nested")]
    assert nested and all(h.kind.startswith(FAMILIES[5]) and h.value >= NESTED
                          for h in nested)
    assert rate(line, book=False).difficulty == value


@compiled
@pytest.mark.slow
def test_deeper_nesting_where_the_first_level_finds_nothing() -> None:
    # the 51st of forum_hardest_1106 (serate: 11.7) has a board where chains with
    # forcing chains inside find nothing, and chains with multiple chains inside do
    line = data_lines("forum_hardest_1106.txt", 51)[50]
    value, _, solved, taken = _hardest_path(line)
    assert solved
    assert abs(value - 11.7) <= 0.2
    assert any(h.kind.startswith(FAMILIES[6]) for h in taken)
    assert max(h.value for h in taken) == value


@compiled
def test_nested_chains_keep_the_time_limit() -> None:
    line = data_lines("forum_hardest_1106.txt", 1)[0]
    board = Board.from_puzzle(formats.parse(line))
    board.memo.deadline = Deadline(0.05)
    with pytest.raises(LimitError, match="time limit"):
        for kind in range(len(FAMILIES)):
            Chaining(board).compiled(kind)
    assert NESTED < NESTED_MULTIPLE < NESTED_DYNAMIC


def test_no_chain_where_no_cell_has_a_choice() -> None:
    chaining = Chaining(near_solved("r1c1", "r5c5", "r9c9"))
    assert chaining.first() is None
    assert chaining.cycles() == chaining.dynamic_plus() == []


def test_the_path_keeps_the_time_limit() -> None:
    line = data_lines("magictour_top1465.txt")[634]
    board = Board.from_puzzle(formats.parse(line))
    board.memo.deadline = Deadline(1e-9)
    with pytest.raises(LimitError):
        explainer_difficulty(board, _value_of)


@compiled
def test_ctrl_c_stops_a_nested_search_with_no_time_limit() -> None:
    # the search runs without the GIL; it still lets Python's signal handlers run
    line = data_lines("forum_hardest_1106.txt", 1)[0]
    script = ("from numberplace import formats\n"
              "from numberplace.logic.board import Board\n"
              "from numberplace.logic.xchain import FAMILIES, Chaining\n"
              f"board = Board.from_puzzle(formats.parse({line!r}))\n"
              "print('searching', flush=True)\n"
              "Chaining(board).compiled(len(FAMILIES) - 1)\n")
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdout.readline() == "searching\n"
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode != 0 and "KeyboardInterrupt" in err
