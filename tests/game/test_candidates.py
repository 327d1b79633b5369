"""Candidates that respect the sums: the rule as written (checked against a plain, slow
reading of it), a one-cell cage, a cage whose digits repeat, and soundness: whatever
part of the solution is entered, every empty cell keeps its true value."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numberplace import formats, solve
from numberplace.game import Mode, Session
from numberplace.game.candidates import board_candidates, peer_candidates
from numberplace.generate import Generated, generate_sums
from numberplace.model.shape import Shape, classic, killer

ROOT = Path(__file__).resolve().parents[2]


def literal_rule(shape: Shape, values: list[int]) -> list[int]:
    """The candidates rule read word for word, without any shortcut: every k-subset
    tried, every assignment of it to the free cells tried."""
    n = shape.size
    peer = {x: {v for v in range(1, n + 1)} - {values[p] for p in shape.peers[x]}
            for x in range(shape.ncells) if not values[x]}
    out = {x: set(vs) for x, vs in peer.items()}
    for cage in shape.cages:
        if cage.total is None:
            continue
        free = [c for c in cage.cells if not values[c]]
        placed = [values[c] for c in cage.cells if values[c]]
        k, target = len(free), cage.total - sum(placed)
        if not free:
            continue
        if cage.repeats:
            for x in free:
                out[x] &= {v for v in peer[x] if (k - 1) <= target - v <= (k - 1) * n}
            continue

        def assignable(cells: list[int], left: set[int]) -> bool:
            if not cells:
                return True
            return any(v in peer[cells[0]] and assignable(cells[1:], left - {v})
                       for v in left)

        union: set[int] = set()
        for combo in combinations(sorted(set(range(1, n + 1)) - set(placed)), k):
            if sum(combo) == target and assignable(free, set(combo)):
                union |= set(combo)
        for x in free:
            out[x] &= union
    return [sum(1 << (v - 1) for v in out[x]) if x in out else 0
            for x in range(shape.ncells)]


#: A 4x4 Killer with cages of every sort: summed, one without a sum, one whose digits
#: may repeat (r1c1 and r4c4 share no house), and cells in no cage.
SMALL = killer(classic(4), [([1, 2], 5), ([4, 8, 9], 6), ([5, 6], None),
                            ([0, 15], 5, True), ([10, 11, 14], 8), ([3, 7], 3)])


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.integers(0, 4), min_size=16, max_size=16))
def test_the_rule_as_written_on_a_small_killer(values: list[int]) -> None:
    assert board_candidates(SMALL, values) == literal_rule(SMALL, values)


@cache
def made(kind: str, level: int, seed: int) -> Generated:
    return generate_sums(kind, level=level, seed=seed)


SUMS = [("killer", 1, 3), ("killer", 3, 5), ("kakuro-10x10", 2, 11), ("kakuro-10x10", 3, 4)]


@pytest.mark.parametrize(("kind", "level", "seed"), SUMS)
def test_the_rule_as_written_on_wrong_and_right_entries(kind: str, level: int,
                                                        seed: int) -> None:
    puzzle = made(kind, level, seed)
    shape, rng = puzzle.puzzle.shape, random.Random(seed)
    for _ in range(15):
        values = [g or (rng.randint(1, shape.size) if rng.random() < 0.3 else 0)
                  for g in puzzle.puzzle.givens]
        assert board_candidates(shape, values) == literal_rule(shape, values)


def test_a_one_cell_cage_of_sum_1_shows_only_1() -> None:
    text = (ROOT / "examples" / "killer.txt").read_text()
    session = Session(formats.parse(text))
    cage = next(c for c in session.shape.cages if c.total == 1)
    assert len(cage.cells) == 1
    assert session.candidates()[cage.cells[0]] == 0b1
    assert session.candidates_of(cage.cells[0]) == [1]
    # its peers, by the houses alone, could have had 1
    assert peer_candidates(session.shape, session.values())[cage.cells[0]] == 0b111111111


def test_a_cage_whose_digits_repeat_leaves_what_the_others_can_make_up() -> None:
    # r1c1 and r4c4 add up to 5 and may repeat: each may hold 1 to 4, as the other
    # makes up the rest; with 4 in r4c4, r1c1 may hold only 1
    values = [0] * 16
    assert board_candidates(SMALL, values)[0] & 0b1111 == 0b1111
    values[15] = 4
    assert board_candidates(SMALL, values)[0] == 0b0001


def test_a_viable_combination_gives_its_values_to_every_free_cell_of_its_cage() -> None:
    # the cage of 3 over r1c4 and r2c4 holds 1 and 2; with 1 in r1c1, r1c4 may hold only
    # 2 of them, yet r2c4 keeps both: the rule takes a viable combination's values for
    # each cell its peers allow, it does not pair cells with values
    values = [0] * 16
    values[0] = 1
    found = board_candidates(SMALL, values)
    assert found[3] == 0b10 and found[7] == 0b11


def sound(session: Session, solution: tuple[int, ...]) -> None:
    values = session.values()
    for cell, mask in enumerate(session.candidates()):
        if not values[cell]:
            assert mask >> (solution[cell] - 1) & 1, session.name(cell)


@pytest.mark.parametrize(("kind", "level", "seed"), SUMS)
@pytest.mark.parametrize("auto", [False, True])
def test_the_true_value_is_always_a_candidate(kind: str, level: int, seed: int,
                                              auto: bool) -> None:
    puzzle = made(kind, level, seed)
    rng = random.Random(seed * 7 + auto)
    empty = [c for c, v in enumerate(puzzle.puzzle.givens) if not v]
    for share in (0.0, 0.2, 0.5, 0.8):
        session = Session(puzzle.puzzle, mode=Mode.FREE)
        session.set_auto_fill(auto)
        for cell in rng.sample(empty, int(len(empty) * share)):
            session.enter(cell, puzzle.solution[cell])
        sound(session, puzzle.solution)


def test_the_true_value_is_always_a_candidate_in_the_example_killer() -> None:
    puzzle = formats.parse((ROOT / "examples" / "killer.txt").read_text())
    solution = solve(puzzle).solution
    assert solution is not None
    rng = random.Random(1)
    for _ in range(20):
        session = Session(puzzle)
        for cell in rng.sample(range(81), rng.randint(0, 70)):
            session.enter(cell, solution[cell])
        sound(session, solution)
