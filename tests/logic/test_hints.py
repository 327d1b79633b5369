"""Hints as data: the next step, or why there is none, checked against the exact engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from numberplace import engine, formats
from numberplace.cli import main
from numberplace.formats._common import candidate_masks
from numberplace.logic.explain import STALLED, UNPROVED, Hint, explain, next_hint
from numberplace.logic.step import LogicStatus
from numberplace.model.puzzle import Puzzle

from conftest import BOOK_PUZZLES

BOOK = formats.parse(BOOK_PUZZLES[0])
SOLUTION = "819754362352196487764328915298543671173269854546871239935487126487612593621935748"


def test_a_sound_puzzle_gets_its_next_step() -> None:
    hint = next_hint(BOOK)
    assert hint.status is LogicStatus.HINTED and hint.step is not None
    assert hint.step == explain(BOOK).steps[0] and not hint.message


def test_a_placement_hint_counts_the_eliminations_before_it() -> None:
    pointing = "Locked Candidates Type 1 (Pointing)"
    hint = next_hint(BOOK, techniques=[pointing, "Hidden Single"], placement=True)
    assert hint.status is LogicStatus.HINTED and hint.step is not None
    assert hint.step.technique == "Hidden Single" and hint.step.placements
    assert len(hint.before) > 1
    assert all(s.technique == pointing and s.eliminations for s in hint.before)


@pytest.mark.parametrize(("text", "status", "message"), [
    ("11" + "." * 79, LogicStatus.INVALID, "1 appears twice in row 1: at r1c1 and r1c2"),
    # row 1 leaves r1c1 only 1, which r2c1 holds: no clash, no solution
    ("." + "23456789" + "1" + "." * 71, LogicStatus.NONE, "the puzzle has no solution"),
    (SOLUTION, LogicStatus.SOLVED, "every cell already holds a value"),
])
def test_a_puzzle_without_a_next_step_says_why(text: str, status: LogicStatus,
                                               message: str) -> None:
    hint = next_hint(formats.parse(text))
    assert (hint.status, hint.step, hint.before) == (status, None, ())
    assert message in hint.message


def test_a_puzzle_with_several_solutions_gets_a_step_and_a_warning() -> None:
    hint = next_hint(formats.parse("." * 81))
    assert hint.status is LogicStatus.MULTIPLE and hint.step is None
    assert hint.message == "the puzzle has more than one solution; no technique applies"
    givens = list(BOOK_PUZZLES[0])
    while engine.count(formats.parse("".join(givens))).count < 2:
        givens[max(i for i, ch in enumerate(givens) if ch != ".")] = "."
    hint = next_hint(formats.parse("".join(givens)))
    assert hint.status is LogicStatus.MULTIPLE and hint.step is not None
    assert hint.message == "the puzzle has more than one solution"


def test_pencil_marks_that_lost_the_true_value_contradict_the_puzzle() -> None:
    masks = candidate_masks(BOOK)
    assert masks[0] == 0b011000000  # r1c1: 7 or 8, and 8 is the solution's
    masks[0] = 1 << 6
    hint = next_hint(Puzzle(BOOK.shape, BOOK.givens, candidates=tuple(masks)))
    assert hint == Hint(LogicStatus.NONE, message="the pencil marks rule out every solution")


def test_a_stalled_hint_says_no_technique_applies() -> None:
    hint = next_hint(formats.parse(BOOK_PUZZLES[1]), techniques=["Full House"])
    assert hint == Hint(LogicStatus.STALLED, message="no technique applies")


@pytest.mark.parametrize(("text", "said"), [
    ("11" + "." * 79, "line 1: invalid: 1 appears twice in row 1: at r1c1 and r1c2"),
    (SOLUTION, "line 1: solved: every cell already holds a value"),
    ("." * 81, "line 1: multiple: the puzzle has more than one solution; no technique applies"),
])
def test_the_hint_command_says_why(text: str, said: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.txt"
    path.write_text(text + "\n")
    assert main(["hint", str(path), "--jobs", "1"]) == 0
    assert capsys.readouterr().out.strip() == said
    assert main(["hint", "--json", str(path), "--jobs", "1"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == said.split(": ")[1] and record["step"] is None


def test_the_engine_check_takes_half_the_time_and_the_path_goes_on_without_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[float | None] = []

    def too_slow(puzzle: Puzzle, **options: object) -> engine.Result:
        asked.append(options["time_limit"])  # type: ignore[arg-type]
        return engine.Result(engine.Status.LIMIT, 0)

    monkeypatch.setattr(engine, "solve", too_slow)
    result = explain(BOOK_PUZZLES[0], time_limit=30)
    assert asked and 14 < asked[0] <= 15  # type: ignore[operator]
    assert result.status is LogicStatus.SOLVED and result.steps  # logic alone proves it
    # a path that stalls says the check was not made
    stalled = explain(BOOK_PUZZLES[1], techniques=["Full House"], time_limit=30)
    assert stalled.status is LogicStatus.STALLED
    assert stalled.message == f"{STALLED}; {UNPROVED}"
    hint = next_hint(BOOK_PUZZLES[1], techniques=["Full House"], time_limit=30)
    assert hint == Hint(LogicStatus.STALLED, message=f"{STALLED}; {UNPROVED}")
    # no limit, no share
    explain(BOOK_PUZZLES[1], techniques=["Full House"], time_limit=None)
    assert asked[-1] is None
