"""The game layer on puzzles with sums: a Kakuro's runs and a Killer's cages refuse a
repeated digit as houses do, hints name the cages to look at, a full correct grid is
solved, and a session file or a puzzle file keeps the sums."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from numberplace import formats
from numberplace.game import Layer, Mode, Session
from numberplace.game.saving import from_record, open_game, save, to_record
from numberplace.generate import Generated, generate_sums

KINDS = ("kakuro-10x10", "killer")


@cache
def made(kind: str) -> Generated:
    return generate_sums(kind, level=2, seed=7)


def empty_cells(made_: Generated) -> list[int]:
    return [c for c, v in enumerate(made_.puzzle.givens) if not v]


def two_in_a_cage(session: Session, made_: Generated) -> tuple[int, int, int]:
    """Two empty cells of one cage and the first's solution value."""
    empty = set(empty_cells(made_))
    for cage in session.shape.cages:
        free = [c for c in cage.cells if c in empty]
        if len(free) >= 2:
            return free[0], free[1], made_.solution[free[0]]
    raise AssertionError("no cage with two empty cells")


@pytest.mark.parametrize("kind", KINDS)
def test_a_repeat_in_a_cage_is_refused_in_the_book_mode(kind: str) -> None:
    puzzle = made(kind)
    session = Session(puzzle.puzzle)
    first, second, value = two_in_a_cage(session, puzzle)
    assert session.enter(first, value).ok
    refused = session.enter(second, value)
    assert not refused.ok
    assert refused.message.startswith(f"{value} is already in ")
    assert refused.message.endswith(f"at {session.name(first)}")
    if kind.startswith("kakuro"):  # a Kakuro has no houses: only its runs can clash
        assert " run " in refused.message


@pytest.mark.parametrize("kind", KINDS)
def test_free_mode_shows_a_repeat_in_a_cage(kind: str) -> None:
    puzzle = made(kind)
    session = Session(puzzle.puzzle, mode=Mode.FREE)
    first, second, value = two_in_a_cage(session, puzzle)
    session.enter(first, value)
    assert session.enter(second, value).ok
    assert {first, second} <= set(session.conflicts())
    assert session.diagnose().status == "clash"


@pytest.mark.parametrize("kind", KINDS)
def test_marks_undo_hints_and_solving(kind: str) -> None:
    puzzle = made(kind)
    session = Session(puzzle.puzzle)
    empty = empty_cells(puzzle)
    assert session.mark(empty[0], 3, "corner").ok
    assert session.layers[Layer.CORNER][empty[0]] == 0b100
    assert session.undo().ok
    assert not any(session.layers[layer][empty[0]] for layer in session.layers)
    hint = session.hint(1)
    assert hint.step is not None and hint.text
    assert hint.cages, "a first hint on sums looks at a cage"
    assert all(0 <= g < len(session.shape.cages) for g in hint.cages)
    for cell in empty:
        reply = session.enter(cell, puzzle.solution[cell])
        assert reply.ok, reply.message
    assert reply.solved and session.solved


@pytest.mark.parametrize("kind", KINDS)
def test_a_session_file_and_a_puzzle_file_keep_the_sums(kind: str, tmp_path: Path) -> None:
    puzzle = made(kind)
    session = Session(puzzle.puzzle)
    cell = empty_cells(puzzle)[0]
    session.enter(cell, puzzle.solution[cell])
    again = from_record(to_record(session))
    assert again.shape == session.shape and again.shape.cages == session.shape.cages
    assert again.values() == session.values()
    save(session, tmp_path / "game.json")
    assert open_game(tmp_path / "game.json").values() == session.values()
    save(session, tmp_path / "puzzle.txt")
    opened = open_game(tmp_path / "puzzle.txt")
    assert opened.shape == session.shape and opened.puzzle.givens == puzzle.puzzle.givens
    assert formats.parse((tmp_path / "puzzle.txt").read_text()).shape == session.shape


@pytest.mark.parametrize("kind", KINDS)
def test_auto_fill_fills_what_the_sums_force(kind: str) -> None:
    made_ = generate_sums(kind, level=1, seed=3)
    session = Session(made_.puzzle)
    session.set_auto_fill(True)
    forced = session.forced()
    # an easy Kakuro or Killer is all first steps: the live solver fills it whole
    assert len(forced) == len(empty_cells(made_))
    assert all(made_.solution[c] == v for c, v in forced.items())
