"""The game layer: the book's rules, error detection, help from the solver, and a history
that takes every action back and forth; saving and opening."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numberplace import Puzzle, by_name, engine, formats, solve
from numberplace.errors import FormatError, NumberplaceError
from numberplace.game import Layer, Mode, Session
from numberplace.game import session as session_module
from numberplace.game.saving import from_record, open_game, save, to_record
from numberplace.logic.step import LogicStatus
from pace import within

from conftest import BOOK_PUZZLES

BOOK = BOOK_PUZZLES[0]
FIENDISH = "....9..8..47..8......4579..5....4.96...8......26..5....68....3..32.....8......16."
SOLUTION = solve(BOOK).solution
assert SOLUTION is not None


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def game(text: str = BOOK, **options: object) -> tuple[Session, Clock]:
    clock = Clock()
    return Session(text, clock=clock, **options), clock  # type: ignore[arg-type]


def cell(name: str) -> int:
    return by_name("9x9").parse_cell(name)


# -- the book's rules -----------------------------------------------------------------------


def test_givens_cannot_change() -> None:
    session, _ = game()
    reply = session.enter(cell("r1c3"), 4)  # r1c3 holds the given 9
    assert not reply.ok and reply.message == "a given cannot change"
    assert session.values()[cell("r1c3")] == 9


def test_a_clashing_digit_is_refused_in_the_books_mode_with_the_clash_named() -> None:
    session, _ = game()
    reply = session.enter(cell("r1c1"), 9)  # 9 is given at r1c3
    assert not reply.ok
    assert reply.message == "9 is already in row 1, at (3,1)"
    assert session.entries()[cell("r1c1")] == 0 and not session.history.done


def test_free_mode_takes_the_clash_and_shows_it() -> None:
    session, _ = game(mode=Mode.FREE)
    assert session.enter(cell("r1c1"), 9).ok
    assert session.conflicts() == [cell("r1c1"), cell("r1c3")]
    assert session.diagnose().status == "clash"


def test_solving_says_so_and_stops_the_timer() -> None:
    session, clock = game()
    clock.now += 90
    missing = [c for c, v in enumerate(Puzzle.from_string(BOOK).givens) if not v]
    for c in missing[:-1]:
        assert not session.enter(c, SOLUTION[c]).solved
    reply = session.enter(missing[-1], SOLUTION[missing[-1]])
    assert reply.solved and session.solved
    assert session.log[-1] == "Solved in 1:30"
    clock.now += 50
    assert session.timer.elapsed() == 90
    session.undo()  # no longer solved: the clock goes on
    clock.now += 10
    assert not session.solved and session.timer.elapsed() == 100


def test_the_log_speaks_the_books_words() -> None:
    session, _ = game()
    session.enter(cell("r1c1"), SOLUTION[0])
    session.step()
    assert session.log[0] == f"Value {SOLUTION[0]} in (1,1)"
    assert session.log[1].startswith("Value ") and " by " in session.log[1]


# -- error detection, as the book tells it --------------------------------------------------


def test_an_entry_that_makes_the_puzzle_unsolvable_is_told_apart() -> None:
    session, _ = game()
    wrong = next(v for v in session.candidates_of(0) if v != SOLUTION[0])
    session.enter(0, wrong)
    assert session.mistakes() == [0]
    diagnosis = session.diagnose()
    if diagnosis.status == "stuck":  # a wrong value may also just lead nowhere later
        assert "your entries made the puzzle unsolvable" in diagnosis.message
    assert session.hint().status == "invalid" or diagnosis.status == "ok"


def test_an_invalid_puzzle_is_the_puzzles_fault() -> None:
    session, _ = game("55" + "." * 79, mode=Mode.FREE)
    assert session.diagnose().status == "invalid"
    assert session.diagnose().message.startswith("the puzzle itself is invalid: 5 appears twice")
    assert not session.step().ok


def test_a_puzzle_without_solution_is_the_puzzles_fault() -> None:
    text = "12345678." + "." * 8 + "9" + "." * 63  # r1c9 can hold nothing but 9
    session, _ = game(text)
    assert session.diagnose().status == "unsolvable"


def test_mistakes_are_only_told_on_request() -> None:
    session, _ = game()
    wrong = next(v for v in session.candidates_of(0) if v != SOLUTION[0])
    reply = session.enter(0, wrong)
    assert reply.ok and reply.message == f"Value {wrong} in (1,1)"  # and not "a mistake"
    assert session.mistakes() == [0]


def test_candidates_of_a_cell() -> None:
    session, _ = game()
    assert SOLUTION[0] in session.candidates_of(0)
    assert 9 not in session.candidates_of(0)  # the given 9 of its row


# -- the live solver: forced values filled and rebuilt --------------------------------------


def test_auto_fill_fills_forced_values_and_deleting_rebuilds_them() -> None:
    session, _ = game(FIENDISH)  # the live solver's techniques do not finish it
    solution = solve(FIENDISH).solution
    assert solution is not None
    before = session.values().count(0)
    session.set_auto_fill(True)
    forced = session.forced()
    assert forced and session.values().count(0) == before - len(forced) > 0
    assert all(solution[c] == v for c, v in forced.items())
    assert session.entries() == [0] * 81  # derived, not entered
    c = next(c for c in range(81) if session.values()[c] == 0)
    session.enter(c, solution[c])
    grown = session.forced()
    assert len(grown) >= len(forced)
    session.erase(c)
    assert session.forced() == forced


# -- hints, step, solve all -----------------------------------------------------------------


def test_hints_in_tiers_draw_more_at_each() -> None:
    session, _ = game()
    one, two, three = (session.hint(t) for t in (1, 2, 3))
    assert one.status == "hinted" and one.houses or one.step is not None
    assert not one.cells and not one.highlights
    assert two.cells and not two.highlights
    assert three.step is not None and three.highlights
    assert three.text == three.step.describe(session.shape, "book")


def test_a_hint_with_every_entry_right_runs_no_search_once_the_solution_is_known(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The solution is looked for once a game; while the board agrees with it, a hint
    neither checks the puzzle nor the position again (seconds each on a hard 25x25)."""
    session, _ = game()
    assert session.solution() == SOLUTION
    first = session.hint(3)
    empty = next(c for c, v in enumerate(session.values()) if not v)
    session.enter(empty, SOLUTION[empty])

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("the engine was asked again")

    monkeypatch.setattr(engine, "solve", no_search)
    again = session.hint(3)
    assert first.step is not None and again.step is not None
    assert again.status == "hinted"
    # a wrong entry: the board no longer agrees, and the searches tell what is wrong
    monkeypatch.undo()
    assert any(session.enter(c, v).ok for c, right in enumerate(SOLUTION)
               if not session.values()[c] for v in range(1, 10) if v != right)
    told = session.hint(1)
    assert told.status is LogicStatus.INVALID and "unsolvable" in told.text


def test_a_hint_keeps_to_its_budget_checks_included(monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    """An open 25x25 has many solutions and takes seconds of search for nothing: with a
    budget of half a second, the hint (the puzzle's checks first) ends near it, saying
    it stopped."""
    monkeypatch.setattr(session_module, "HELP_SECONDS", 0.5)
    session = Session(Puzzle.empty(by_name("25x25")))
    start = time.perf_counter()
    told = session.hint(1)
    assert within(time.perf_counter() - start, 1.5)
    assert told.step is None and "time limit" in told.text


def test_a_puzzle_too_hard_to_check_is_searched_once_for_hints(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """When the game's verdict could not be found in time (the hardest 25x25), a hint on
    the puzzle as given leaves it to the techniques; once values are entered, the
    puzzle's solution is looked for once within half the hint's budget, not at every
    hint (the position with the entries is still checked)."""
    puzzle_searches: list[tuple[int, float]] = []  # (limit, seconds)
    position_searches: list[tuple[int, float]] = []

    def too_hard(puzzle: Puzzle, *args: object, limit: int = 2,
                 time_limit: float | None = None, **kwargs: object) -> engine.Result:
        own = puzzle.givens == session.puzzle.givens
        (puzzle_searches if own else position_searches).append((limit, time_limit or 0.0))
        return engine.Result(engine.Status.LIMIT, 0)

    session, _ = game()
    monkeypatch.setattr(engine, "solve", too_hard)
    assert session.verdict().status == "unknown"
    puzzle_searches.clear()
    first = session.hint(1)
    assert puzzle_searches == position_searches == []
    assert first.step is not None and first.step.placements
    assert session.enter(*first.step.placements[0]).ok
    session.hint(1)
    solution = [s for limit, s in puzzle_searches if limit == 2]
    assert len(solution) == 1 and solution[0] <= session_module.HELP_SECONDS / 2
    assert position_searches
    asked = len(puzzle_searches)
    session.hint(1)
    # the puzzle is still checked (one solution at least), never its solution again
    assert puzzle_searches[asked:] and all(limit == 1 for limit, _ in puzzle_searches[asked:])


def test_step_places_exactly_one_value_and_names_its_technique() -> None:
    session, _ = game()
    reply = session.step()
    assert reply.ok and reply.move is not None and reply.move.kind == "step"
    placed = [c for c in reply.move.changes if c.layer is Layer.VALUE]
    assert len(placed) == 1 and SOLUTION[placed[0].cell] == placed[0].after
    assert session.layers[Layer.SOURCE][placed[0].cell] == 1  # drawn as the step's
    assert "by" in reply.move.text


def test_solve_all_is_one_move() -> None:
    session, _ = game()
    reply = session.solve_all()
    assert reply.solved and tuple(session.values()) == SOLUTION
    session.undo()
    assert session.values() == list(Puzzle.from_string(BOOK).givens)


# -- the history ------------------------------------------------------------------------------

SMALL = "1..4...........2"  # a 4x4: every action's effect is quick to compare

ACTIONS = st.one_of(
    st.tuples(st.just("enter"), st.lists(st.integers(0, 15), min_size=1, max_size=3),
              st.integers(0, 4)),
    st.tuples(st.just("erase"), st.lists(st.integers(0, 15), min_size=1, max_size=3),
              st.just(0)),
    st.tuples(st.sampled_from(["corner", "centre"]),
              st.lists(st.integers(0, 15), min_size=1, max_size=4), st.integers(1, 4)),
    st.tuples(st.just("paint"), st.lists(st.integers(0, 15), min_size=1, max_size=4),
              st.integers(0, 9)),
    st.tuples(st.sampled_from(["undo", "redo", "step", "auto"]), st.just([0]),
              st.integers(0, 1)),
)


def act(session: Session, action: tuple[str, list[int], int]) -> None:
    kind, cells, value = action
    if kind == "enter":
        session.enter(cells, value)
    elif kind == "erase":
        session.erase(cells)
    elif kind in ("corner", "centre"):
        session.mark(cells, value, kind)
    elif kind == "paint":
        session.paint(cells, value)
    elif kind == "auto":
        session.set_auto_fill(bool(value))
    else:
        getattr(session, kind)()


def board_state(session: Session) -> dict[str, list[int]]:
    return {str(layer): list(values) for layer, values in session.layers.items()}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=st.lists(ACTIONS, max_size=25), mode=st.sampled_from(["book", "free"]))
def test_undo_of_all_returns_to_the_start_and_redo_of_all_to_the_end(
        actions: list[tuple[str, list[int], int]], mode: str) -> None:
    session, _ = game(SMALL, mode=mode)
    start = board_state(session)
    for action in actions:
        act(session, action)
    end = board_state(session)
    ahead = len(session.history.undone)  # moves undone in the sequence, still redoable
    while session.undo().ok:
        pass
    assert board_state(session) == start
    while session.redo().ok:
        pass
    for _ in range(ahead):  # back over the moves that were undone at the end
        session.undo()
    assert board_state(session) == end


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=st.lists(ACTIONS, max_size=20))
def test_save_then_open_gives_an_equal_session(actions: list[tuple[str, list[int], int]],
                                               tmp_path_factory: pytest.TempPathFactory
                                               ) -> None:
    session, clock = game(SMALL, mode="free")
    for action in actions:
        act(session, action)
        clock.now += 1.5
    path = tmp_path_factory.mktemp("saves") / "game.json"
    save(session, path)
    again = open_game(path, clock=clock)
    assert to_record(again) == to_record(session)
    assert again.values() == session.values() and again.candidates() == session.candidates()


def test_a_new_move_clears_what_could_be_redone() -> None:
    session, _ = game()
    session.enter(0, SOLUTION[0])
    session.undo()
    assert session.history.undone
    session.mark(1, 3, "corner")
    assert not session.history.undone and not session.redo().ok


def test_marks_and_colours_toggle() -> None:
    session, _ = game()
    session.mark([0, 1], 3, "centre")
    assert session.layers[Layer.CENTRE][0] == session.layers[Layer.CENTRE][1] == 0b100
    session.mark([0, 1], 3, "centre")
    assert session.layers[Layer.CENTRE][0] == 0
    session.paint([0, 1], 2)
    session.paint([0, 1], 2)
    assert session.layers[Layer.COLOUR][:2] == [0, 0]


def test_a_pencil_mark_grid_keeps_its_marks() -> None:
    puzzle = Puzzle.from_string(BOOK)
    board_marks = tuple(0 if v else 0b111 for v in puzzle.givens)
    session = Session(Puzzle(puzzle.shape, puzzle.givens, candidates=board_marks))
    assert session.layers[Layer.CENTRE][0] == 0b111


# -- files ------------------------------------------------------------------------------------


def test_sdo_saves_the_puzzle_alone_and_opens_as_a_new_game(tmp_path: Path) -> None:
    session, _ = game()
    session.enter(0, SOLUTION[0])
    path = tmp_path / "game.sdo"
    save(session, path)
    assert path.read_text() == formats.write(session.puzzle, "sdo") + "\n"
    opened = open_game(path)
    assert opened.puzzle == session.puzzle and opened.entries() == [0] * 81


def test_a_save_cut_short_leaves_the_previous_save_whole(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    session, _ = game()
    path = tmp_path / "game.json"
    save(session, path)
    before = path.read_text()
    session.enter(0, SOLUTION[0])

    def crash(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(NumberplaceError, match="No space left on device"):
        save(session, path)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary left


@pytest.mark.parametrize(("text", "message"), [
    ("{\"format\": \"numberplace-session\", \"version\": 1", "the session file is damaged"),
    (json.dumps({"format": "numberplace-session", "version": 7}), "version 7"),
    ("hello\n", "5 characters"),
    ("", "no puzzle here"),
])
def test_a_bad_file_is_one_clear_error(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(FormatError, match=message):
        open_game(path)


def test_from_record_refuses_a_damaged_layer() -> None:
    session, _ = game(SMALL)
    record = to_record(session)
    record["layers"]["value"] = [0] * 3
    with pytest.raises(FormatError, match="layer value must hold 16 whole numbers"):
        from_record(record)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.permutations(range(81)), erase_at=st.integers(0, 20))
def test_forced_values_built_step_by_step_equal_those_built_at_once(order: list[int],
                                                                    erase_at: int) -> None:
    solution = solve(FIENDISH).solution
    assert solution is not None
    session, _ = game(FIENDISH)
    session.set_auto_fill(True)
    entered = []
    for k, c in enumerate(order[:25]):
        if session.values()[c]:
            continue
        session.enter(c, solution[c])
        entered.append(c)
        if k == erase_at and entered:
            session.erase(entered.pop(0))
        fresh, _ = game(FIENDISH)
        for e in entered:
            fresh.enter(e, solution[e])
        fresh.set_auto_fill(True)
        assert session.forced() == fresh.forced()


# -- the verdict on the puzzle itself, receipts, "solve all" remembered, notation ---------


@pytest.mark.parametrize(("text", "status", "message"), [
    (BOOK, "unique", ""),
    ("." * 81, "multiple", "This puzzle has more than one solution: hints and checks may "
                           "not match the one you find."),
    ("12345678." + "." * 8 + "9" + "." * 63, "none", "This puzzle has no solution."),
    (".5" + "." * 5 + "5" + "." * 73, "invalid",
     "This puzzle cannot be solved: two 5s in row 1 (r1c2 and r1c8)."),
])
def test_the_verdict_on_the_puzzle_itself(text: str, status: str, message: str) -> None:
    session, _ = game(text, notation="rc", mode=Mode.FREE)
    verdict = session.verdict()
    assert (verdict.status, verdict.message) == (status, message)
    assert session.puzzle_status == status


def test_the_verdict_names_cells_in_the_notation_of_the_moment() -> None:
    session, _ = game("." * 9 + "7" + "." * 8 + "7" + "." * 62, mode=Mode.FREE)
    assert session.verdict().message == ("This puzzle cannot be solved: two 7s in "
                                         "column 1, at (1,2) and (1,3).")
    session.set_notation("rc")
    assert session.verdict().message == ("This puzzle cannot be solved: two 7s in "
                                         "column 1 (r2c1 and r3c1).")


def test_a_verdict_that_ran_out_of_time_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    from numberplace.game import session as session_module

    monkeypatch.setattr(session_module, "VERDICT_NODES", 1)  # the budget runs out at once
    session, _ = game(FIENDISH, notation="rc")
    verdict = session.verdict()
    assert verdict.status == "unknown" and verdict.message == (
        "This puzzle could not be checked in time; it may have no solution or several.")


def test_a_known_verdict_is_not_searched_again_and_a_bad_one_is_refused() -> None:
    session, _ = game("." * 81, verdict="unique")  # as a generated puzzle says
    assert session.verdict().status == "unique"
    with pytest.raises(NumberplaceError, match="a verdict is one of"):
        game(verdict="maybe")
    multiple, _ = game("." * 81)
    assert multiple.verdict().status == "multiple" and multiple.solution() is None


def test_receipts_keep_the_latest_request_of_the_sixteen_latest_clients() -> None:
    session, _ = game(SMALL)
    session.receipt("a", 3)
    assert session.already_done("a", 3) and session.already_done("a", 1)
    assert not session.already_done("a", 4) and not session.already_done("b", 1)
    for k in range(16):
        session.receipt(f"c{k}", 1)
    assert "a" not in session.receipts and len(session.receipts) == 16
    session.receipt("c0", 2)  # a client heard from again is the most recent
    session.receipt("d", 1)
    assert "c0" in session.receipts and "c1" not in session.receipts


def test_solve_all_is_remembered_even_when_undone() -> None:
    session, _ = game()
    assert not session.revealed
    session.solve_all()
    session.undo()
    assert session.revealed and not session.solved


def test_the_notation_can_change_mid_game() -> None:
    session, _ = game()
    session.enter(cell("r1c1"), SOLUTION[0])
    session.set_notation("rc")
    session.enter(cell("r1c2"), SOLUTION[1])
    assert session.log[-2:] == [f"Value {SOLUTION[0]} in (1,1)", f"Value {SOLUTION[1]} in r1c2"]
    assert session.enter(cell("r1c4"), 9).message == "9 is already in row 1, at r1c3"
    with pytest.raises(NumberplaceError, match="notation must be book or rc"):
        session.set_notation("a1")


def test_the_new_state_is_saved_and_an_older_record_opens_without_it() -> None:
    session, _ = game(notation="rc")
    session.verdict()
    session.receipt("tab-1", 7)
    session.solve_all()
    again = from_record(to_record(session))
    assert again.receipts == {"tab-1": 7} and again.revealed
    assert again.puzzle_status == "unique" and again.notation == "rc"
    older = to_record(session)
    for key in ("receipts", "revealed", "verdict"):
        del older[key]
    opened = from_record(older)
    assert opened.receipts == {} and not opened.revealed and opened.puzzle_status is None
    damaged = to_record(session) | {"receipts": {"tab": "x"}}
    with pytest.raises(FormatError, match="receipts must map"):
        from_record(damaged)
