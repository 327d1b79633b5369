"""Generation: one solution always, the symmetry, level and other requests honoured."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from numberplace import engine, formats
from numberplace.cli import main
from numberplace.errors import NumberplaceError
from numberplace.generate import (
    SYMMETRIES,
    generate,
    grid_solution_counts,
    has_symmetry,
    is_minimal,
    orbits,
    random_regions,
)
from numberplace.logic.rating import BOOK_LEVELS
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, by_name, classic, samurai


def assert_unique_both_ways(puzzle: Puzzle, solution: tuple[int, ...]) -> None:
    """One solution, on the compiled engine and the pure-Python one, and it is ours."""
    for backend in engine.available_backends():
        r = engine.solve(puzzle, limit=2, backend=backend)
        assert r.status is engine.Status.UNIQUE, backend
        assert r.solution == solution


@pytest.mark.parametrize("symmetry", [s for s in SYMMETRIES if s != "random"])
def test_every_symmetry_on_9x9(symmetry: str) -> None:
    made = generate(classic(9), seed=3, symmetry=symmetry)
    assert has_symmetry(made.puzzle, symmetry)
    assert_unique_both_ways(made.puzzle, made.solution)
    assert made.puzzle.fits(made.solution)


def test_orbits_are_the_symmetry_groups() -> None:
    s9 = classic(9)
    assert len(orbits(s9, "none")) == 81
    assert len(orbits(s9, "rotate180")) == 41  # 40 pairs and the centre
    assert len(orbits(s9, "dihedral")) == 15
    assert all(len(g) in (1, 2) for g in orbits(samurai(), "rotate180"))
    with pytest.raises(NumberplaceError, match="unknown symmetry"):
        orbits(s9, "spiral")


@pytest.mark.slow
@pytest.mark.parametrize("level", [1, 2, 3])
def test_levels_are_rated_as_asked(level: int) -> None:
    for seed in range(3):
        made = generate(classic(9), level=level, seed=seed)
        assert made.rating.level_number == level
        assert has_symmetry(made.puzzle, "rotate180")
        assert_unique_both_ways(made.puzzle, made.solution)


def test_the_same_seed_gives_the_same_puzzle() -> None:
    a = generate(classic(9), level=2, seed=11)
    b = generate(classic(9), level="Medium", seed=11)
    assert a.puzzle == b.puzzle and a.seed == b.seed == 11
    assert generate(classic(9), level=2, seed=12).puzzle != a.puzzle


def test_minimal_clue_range_needs_and_difficulty() -> None:
    made = generate(classic(9), seed=4, symmetry="none", minimal=True)
    assert is_minimal(made.puzzle)
    made = generate(classic(9), seed=4, clues=(30, 34))
    assert 30 <= sum(1 for v in made.puzzle.givens if v) <= 34
    made = generate(classic(9), seed=4, needs="Naked Pair", level=2)
    assert made.rating.steps["Naked Pair"] >= 1
    made = generate(classic(9), seed=4, difficulty=(2.5, 3.5))
    assert made.rating.difficulty is not None and 2.5 <= made.rating.difficulty <= 3.5


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_the_book_recipe_reproduces_its_table(level: int) -> None:
    _name, empties, _mean, scores = BOOK_LEVELS[level - 1]
    for seed in range(2):
        made = generate(classic(9), level=level, seed=seed, recipe="book")
        assert made.puzzle.givens.count(0) in empties
        assert made.rating.book_score in scores
        assert has_symmetry(made.puzzle, "rotate180")
        assert_unique_both_ways(made.puzzle, made.solution)


def test_a_digit_count_pattern() -> None:
    made = generate(classic(9), seed=2, pattern="0122211000")
    copies = sorted(made.puzzle.givens.count(d) for d in range(1, 10))
    # 0122211000: one digit keeps 1 copy, two keep 2, two 3, two 4, one 5, one 6
    assert copies == [1, 2, 2, 3, 3, 4, 4, 5, 6]
    with pytest.raises(NumberplaceError, match="digit-count pattern"):
        generate(classic(9), seed=2, pattern="012")


@pytest.mark.parametrize("shape", [classic(6), classic(16), samurai(), by_name("diagonal")],
                         ids=str)
def test_other_shapes(shape: Shape) -> None:
    made = generate(shape, level=1, seed=1)
    assert made.rating.level_number == 1
    assert has_symmetry(made.puzzle, "rotate180")
    assert_unique_both_ways(made.puzzle, made.solution)


def test_fiendish_small_grids_are_reached_by_climbing() -> None:
    # nearly every 6x6 with as few givens as it can have is solved by singles; the
    # climb within one grid finds the few that need chains or ALS
    for seed in (1, 2):
        made = generate(classic(6), level=5, seed=seed, time_limit=120)
        assert made.rating.level_number == 5
        assert has_symmetry(made.puzzle, "rotate180")
        assert_unique_both_ways(made.puzzle, made.solution)
    made = generate(classic(9), level=5, seed=3, symmetry="none", minimal=True)
    assert made.rating.level_number == 5
    assert is_minimal(made.puzzle)


def test_large_shapes_and_the_time_limit() -> None:
    made = generate(classic(20), level=1, seed=1)
    assert made.rating.level_number == 1
    assert engine.solve(made.puzzle, limit=2).status is engine.Status.UNIQUE
    # the limit is kept inside an attempt too, not only between grids
    start = time.monotonic()
    with pytest.raises(NumberplaceError, match="within the time limit of 0.5 s"):
        generate(classic(25), level=4, seed=1, time_limit=0.5)
    assert time.monotonic() - start < 20  # a guard against a hang, not a speed target


def test_random_jigsaw_regions_and_samurai_grid_counts() -> None:
    shape = random_regions(9, seed=5)
    assert shape != random_regions(9, seed=6)
    assert sorted(len(h.cells) for h in shape.houses if h.kind == "region") == [9] * 9
    made = generate(shape, level=2, seed=1)
    assert_unique_both_ways(made.puzzle, made.solution)
    sam = generate(samurai(), seed=2)
    counts = grid_solution_counts(sam.puzzle)
    assert len(counts) == 5 and all(1 <= c <= 100 for c in counts)


def test_generate_command_appends_json_records(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "made.jsonl"
    out.write_text('{"kept": true}\n')
    for seed in ("1", "3"):
        assert main(["generate", "--level", "easy", "--count", "2", "--seed", seed,
                     "--json", "--output", str(out), "--jobs", "1"]) == 0
    lines = out.read_text().splitlines()
    assert lines[0] == '{"kept": true}' and len(lines) == 5
    records = [json.loads(x) for x in lines[1:]]
    assert [r["seed"] for r in records] == [1, 2, 3, 4]
    for r in records:
        assert r["level"] == "Easy" and r["status"] == "unique"
        puzzle = formats.parse(r["puzzle"])
        assert engine.solve(puzzle).solution == tuple(int(c) for c in r["solution"])
    # the seed reproduces the puzzle
    assert main(["generate", "--level", "1", "--seed", "2", "--jobs", "1"]) == 0
    assert capsys.readouterr().out.strip() == records[1]["puzzle"]
    assert main(["generate", "--level", "hardest"]) == 2
    assert "unknown level" in capsys.readouterr().err


def test_a_generated_jigsaw_is_written_with_its_regions(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--shape", "jigsaw", "--level", "1", "--seed", "3",
                 "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "regions:" in text
    puzzle = formats.parse(text)
    assert puzzle.shape.regions and engine.solve(puzzle).status is engine.Status.UNIQUE
    assert main(["generate", "--shape", "jigsaw", "--level", "1", "--seed", "3",
                 "--jobs", "1", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert len(record["regions"]) == 81


@pytest.mark.parametrize("args, message", [
    (["--shape", "jigsaw-x"], "jigsaw-NxN"),
    (["--shape", "7x9"], "square"),
    (["--pattern", "12"], "digit-count pattern"),
    (["--recipe", "book", "--shape", "6x6", "--level", "1"], "9x9"),
    (["--needs", "Foo"], "unknown technique"),
    (["--output", "/nonexistent/dir/made.txt"], "cannot write"),
])
def test_bad_requests_get_one_line_and_status_2(args: list[str], message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", *args, "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
