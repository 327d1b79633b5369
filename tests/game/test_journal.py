"""What an action changed, as the store keeps it and as the board takes it: a saved record
with every delta applied is the session's record, and a board record patched with every
answer's changes is the game's record."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from numberplace.game import Session, journal
from numberplace.game import history as history_module
from numberplace.game import session as session_module
from numberplace.game.saving import to_record
from numberplace.store.serialize import game_changes, game_record, patched

PUZZLE = "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7.."
EMPTY = [i for i, ch in enumerate(PUZZLE) if ch == "."]
#: What the board does not take from an answer's changes (it finds them itself).
FOUND_BY_THE_BOARD = ("candidates", "conflicts")

actions = st.one_of(
    st.builds(lambda c, v: ("enter", [c], v), st.sampled_from(EMPTY), st.integers(1, 9)),
    st.builds(lambda c: ("erase", [c], 0), st.sampled_from(EMPTY)),
    st.builds(lambda cs, v, k: ("mark", cs, (v, k)),
              st.lists(st.sampled_from(EMPTY), min_size=1, max_size=3),
              st.integers(1, 9), st.sampled_from(["corner", "centre"])),
    st.builds(lambda cs, v: ("paint", cs, v), st.lists(st.integers(0, 80), min_size=1,
                                                      max_size=4), st.integers(0, 9)),
    st.just(("undo", [], 0)), st.just(("redo", [], 0)), st.just(("pause", [], 0)),
    st.just(("resume", [], 0)), st.just(("auto", [], True)), st.just(("auto", [], False)),
    st.just(("notation", [], "book")), st.just(("notation", [], "rc")),
    st.builds(lambda c, s: ("receipt", [c], s), st.sampled_from(["a", "b", "c"]),
              st.integers(1, 10 ** 6)),
)


def do(session: Session, action: tuple[str, list[int], object]) -> None:
    kind, cells, value = action
    if kind == "enter":
        session.enter(cells, value)  # type: ignore[arg-type]
    elif kind == "erase":
        session.erase(cells)
    elif kind == "mark":
        digit, layer = value  # type: ignore[misc]
        session.mark(cells, digit, layer)
    elif kind == "paint":
        session.paint(cells, value)  # type: ignore[arg-type]
    elif kind in ("undo", "redo", "pause", "resume"):
        getattr(session, kind)()
    elif kind == "auto":
        session.set_auto_fill(bool(value))
    elif kind == "notation":
        session.set_notation(str(value))
    else:
        session.receipt(str(cells[0]), int(value))  # type: ignore[call-overload]


class Clock:
    """A clock that moves only when told, so two records of one moment agree."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@settings(max_examples=60, deadline=None)
@given(st.lists(actions, min_size=1, max_size=40))
def test_a_record_with_every_delta_applied_is_the_sessions_record(
        steps: list[tuple[str, list[int], object]]) -> None:
    clock = Clock()
    session = Session(PUZZLE, verdict="unique", clock=clock)
    stored = to_record(session)
    saved = journal.mark(session)
    for step in steps:
        clock.now += 1.5
        do(session, step)
        change = journal.delta(saved, session)
        if change is not None:
            json.dumps(change)  # stored as JSON
            journal.apply(stored, json.loads(json.dumps(change)))
            saved = journal.mark(session)
        mine = to_record(session)
        if change is None and session.timer.running:
            # nothing to store but a running clock: its time goes with the next change
            assert stored["timer"]["running"]
            mine["timer"] = stored["timer"]
        assert stored == mine


@settings(max_examples=60, deadline=None)
@given(st.lists(actions, min_size=1, max_size=40))
def test_a_board_record_patched_with_every_answer_is_the_games_record(
        steps: list[tuple[str, list[int], object]]) -> None:
    clock = Clock()
    session = Session(PUZZLE, verdict="unique", clock=clock)
    version = 0
    board = game_record(session, "g")
    board["version"] = version
    saved = journal.mark(session)
    for step in steps:
        clock.now += 1.5
        do(session, step)
        change = journal.delta(saved, session)
        saved = journal.mark(session)
        changes = json.loads(json.dumps(game_changes(session, change, version,
                                                     version + (change is not None))))
        version += change is not None
        before = copy.deepcopy(board)
        new = patched(board, changes)
        assert new is not None and board == before  # the old record is left as it was
        board = new
        whole = game_record(session, "g")
        whole["version"] = version
        for key in FOUND_BY_THE_BOARD:
            board.pop(key, None)
            whole.pop(key)
        assert {k: v for k, v in board.items() if k not in FOUND_BY_THE_BOARD} == whole


def test_changes_of_another_version_are_not_applied() -> None:
    session = Session(PUZZLE, verdict="unique")
    board = game_record(session, "g")
    board["version"] = 3
    saved = journal.mark(session)
    session.enter(EMPTY[0], 1)
    changes = game_changes(session, journal.delta(saved, session), 2, 3)
    assert patched(board, changes) is None


def test_a_long_game_stores_a_small_delta_a_move(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(history_module, "UNDO_MOVES", 50)
    monkeypatch.setattr(session_module, "LOG_LINES", 60)
    session = Session(PUZZLE, verdict="unique")
    stored = to_record(session)
    saved = journal.mark(session)
    sizes = []
    for i in range(300):  # past both bounds: the oldest moves and lines go
        session.mark(EMPTY[i % len(EMPTY)], 1 + i % 9, "corner")
        change = journal.delta(saved, session)
        assert change is not None
        sizes.append(len(json.dumps(change)))
        journal.apply(stored, change)
        saved = journal.mark(session)
    mine = to_record(session)
    stored["timer"] = mine["timer"]
    assert stored == mine and len(stored["undo"]) == 50 and len(stored["log"]) == 60
    assert max(sizes) < 400 < len(json.dumps(mine)) / 10  # a move's delta, not the game


def test_nothing_changed_is_no_delta_and_a_hint_is_its_log_line() -> None:
    session = Session(PUZZLE, verdict="unique")
    saved = journal.mark(session)
    assert journal.delta(saved, session) is None
    session.mistakes()
    session.conflicts()
    assert journal.delta(saved, session) is None
    session.hint(1)
    change = journal.delta(saved, session)
    # the log line, and the clock where it moved on by a millisecond since the mark
    assert change is not None and "log" in change and set(change) <= {"log", "set"}
    assert set(change.get("set", {})) <= {"timer"}
    assert change["log"][:2] == [0, 0] and change["log"][2][0].startswith("Hint: ")
