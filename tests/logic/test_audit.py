"""The soundness audit."""

from __future__ import annotations

from numberplace import Puzzle, engine, formats
from numberplace.logic import REGISTRY, Family, Technique

from conftest import BOOK_PUZZLES


def book_case() -> tuple[Puzzle, tuple[int, ...], int, int]:
    """A book puzzle, its solution, its first open cell and a wrong value for it."""
    puzzle = formats.parse(BOOK_PUZZLES[0])
    solution = engine.solve(puzzle).solution
    assert solution is not None
    open_cell = puzzle.givens.index(0)
    return puzzle, tuple(solution), open_cell, solution[open_cell] % 9 + 1


def test_audit_flags_an_unsound_technique() -> None:
    """The soundness audit must be able to fail: a made-up technique that removes a true
    value, and one that places a wrong value, are both reported."""
    from numberplace.logic.audit import audit
    from numberplace.logic.step import make_step

    puzzle, solution, open_cell, wrong = book_case()

    def remove_truth(board, shape):  # type: ignore[no-untyped-def]
        yield make_step(shape, "Bogus", "remove the truth",
                        eliminations=((open_cell, solution[open_cell]),))

    def place_wrong(board, shape):  # type: ignore[no-untyped-def]
        yield make_step(shape, "Bogus", "place a wrong value",
                        placements=((open_cell, wrong),))

    for finder in (remove_truth, place_wrong):
        REGISTRY.add(Technique("Bogus", finder, Family.SINGLES, 1, 1.0))
        try:
            report = audit(puzzle, solution, ["Bogus"], before=[])
        finally:
            REGISTRY.remove("Bogus")
        assert report.faults and "Bogus" in report.faults[0]
        assert report.found["Bogus"] == 1
    assert not audit(puzzle, solution).faults  # the real techniques are sound here


def test_audit_modes_check_more_or_fewer_steps() -> None:
    """``each`` checks the first step of every probed technique at each stall: more than
    the first finder's first step, fewer than every step of every finder."""
    from numberplace.logic.audit import audit

    from conftest import data_lines

    puzzle = formats.parse(data_lines("magictour_top1465.txt", 1)[0])
    solution = engine.solve(puzzle).solution
    assert solution is not None
    probe = ["X-Wing", "Skyscraper", "XY-Wing", "AIC", "Forcing Chain Contradiction"]
    before = ["Full House", "Naked Single", "Hidden Single"]
    counts = [sum(audit(puzzle, solution, probe, before=before, **mode).found.values())
              for mode in ({"exhaustive": False}, {"each": True}, {"exhaustive": True})]
    assert counts[0] < counts[1] < counts[2]


def test_every_checks_all_steps_of_the_techniques_named_in_each_mode() -> None:
    """With ``each``, a probed technique gives its first step only, unless named in
    ``every``: then each step it finds is checked (here a wrong one after a sound one)."""
    from numberplace.logic.audit import audit
    from numberplace.logic.step import make_step

    puzzle, solution, open_cell, wrong = book_case()

    def two_steps(board, shape):  # type: ignore[no-untyped-def]
        if board.values[open_cell]:
            return
        yield make_step(shape, "Bogus", "remove a wrong value",
                        eliminations=((open_cell, wrong),))
        yield make_step(shape, "Bogus", "remove the truth",
                        eliminations=((open_cell, solution[open_cell]),))

    REGISTRY.add(Technique("Bogus", two_steps, Family.SINGLES, 1, 1.0))
    try:
        first_only = audit(puzzle, solution, ["Bogus"], before=[], each=True)
        every = audit(puzzle, solution, ["Bogus"], before=[], each=True, every=["Bogus"])
    finally:
        REGISTRY.remove("Bogus")
    assert not first_only.faults and first_only.found["Bogus"] >= 1
    assert every.faults and "remove the truth" in every.faults[0]
