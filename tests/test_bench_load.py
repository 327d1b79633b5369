"""The load benchmark's check finds a lost move, a doubled one and a wrong receipt in a
stored record, and forgives only what the server said it let go or never answered."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import load  # noqa: E402  # bench/load.py, a script rather than a package


def mark(cell: int, before: int, after: int) -> dict[str, Any]:
    """A corner mark's move as a record holds it."""
    return {"kind": "corner", "text": f"mark {cell}",
            "changes": [["corner", cell, before, after]]}


MOVES = [mark(0, 0, 1), mark(0, 1, 0), mark(5, 0, 4), mark(7, 0, 2)]


def game(made: list[dict[str, Any]], **fields: Any) -> load.Game:
    """A player's game that was answered ``made``, its last request answered."""
    fields.setdefault("kept", len(made))
    fields.setdefault("answered", 9)
    fields.setdefault("sent", 9)
    return load.Game("g", "c", list(made), **fields)


def stored(moves: list[dict[str, Any]], receipt: int | None = 9) -> dict[str, Any]:
    """A stored record holding ``moves``, with client ``c``'s receipt."""
    return {"undo": list(moves), "redo": [], "receipts": {} if receipt is None
            else {"c": receipt}}


def test_a_record_holding_every_answered_move_once_passes() -> None:
    assert load.check_game(stored(MOVES), game(MOVES)) == load.Check(0, 0, None)


def test_a_lost_move_and_a_doubled_one_are_found() -> None:
    lost = MOVES[:2] + MOVES[3:]
    assert load.check_game(stored(lost), game(MOVES)) == load.Check(1, 0, None)
    doubled = MOVES[:3] + [MOVES[2]] + MOVES[3:]
    assert load.check_game(stored(doubled), game(MOVES)) == load.Check(0, 1, None)
    # a toggle carried out twice comes back undone: one extra move, not a lost one
    again = MOVES + [mark(7, 2, 0)]
    assert load.check_game(stored(again), game(MOVES)) == load.Check(0, 1, None)


def test_a_missing_record_loses_every_move() -> None:
    assert load.check_game(None, game(MOVES)) == load.Check(4, 0, "no record stored")


def test_a_receipt_behind_or_ahead_is_wrong() -> None:
    assert load.check_game(stored(MOVES, 8), game(MOVES)).receipt is not None
    assert load.check_game(stored(MOVES, 10), game(MOVES)).receipt is not None
    assert load.check_game(stored(MOVES, None), game(MOVES)).receipt is not None


def test_only_the_moves_the_server_let_go_may_be_missing() -> None:
    let_go = game(MOVES, kept=3)
    assert load.check_game(stored(MOVES[1:]), let_go) == load.Check(0, 0, None)
    assert load.check_game(stored(MOVES[2:]), let_go) == load.Check(1, 0, None)


def test_a_request_never_answered_may_or_may_not_have_been_carried_out() -> None:
    pending = game(MOVES[:3], answered=8, pending="mark")
    assert load.check_game(stored(MOVES[:3], 8), pending) == load.Check(0, 0, None)
    assert load.check_game(stored(MOVES, 9), pending) == load.Check(0, 0, None)
    # its move without its receipt cannot be: they are saved together
    assert load.check_game(stored(MOVES, 8), pending) == load.Check(0, 1, None)


def test_a_question_never_answered_may_be_the_receipt() -> None:
    unsure = game(MOVES, answered=7, unsure=[6, 8, 9])
    for receipt in (7, 8, 9):
        assert load.check_game(stored(MOVES, receipt), unsure).receipt is None
    assert load.check_game(stored(MOVES, 6), unsure).receipt is not None
