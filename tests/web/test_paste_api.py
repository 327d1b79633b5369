"""A puzzle a player pastes: a Samurai in five lines opens as one, a text of several
puzzles opens its first and says how many it holds, the example files open, and text
that holds no puzzle is told in a player's words, naming the line and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from api import client, post_game  # noqa: F401  # client: a fixture
from starlette.testclient import TestClient

from numberplace import formats

from conftest import BOOK_PUZZLES

ROOT = Path(__file__).resolve().parents[2]
BOOK = BOOK_PUZZLES[0]
#: Words of the library's own that a player should never read.
LIBRARY_WORDS = ("parse", "read_records", "shape=", "format=", "the puzzle,", "alphabet 1-9")


def example(name: str) -> str:
    return (ROOT / "examples" / name).read_text()


def test_a_samurai_in_five_lines_opens_as_a_samurai(client: TestClient) -> None:
    game = post_game(client, {"puzzle": example("samurai.txt")})
    assert game["shape"]["name"] == "samurai" and game["shape"]["grids"] == 5
    assert game["meta"]["label"] == "samurai" and game.get("note") is None
    assert game["givens"] == list(formats.parse(example("samurai.txt"),
                                                shape="samurai").givens)


def test_five_lines_that_are_no_samurai_are_five_puzzles(client: TestClient) -> None:
    # the same puzzle five times: the corner boxes the grids would share disagree
    game = post_game(client, {"puzzle": "\n".join([BOOK] * 5)})
    assert game["shape"]["name"] == "9x9"
    assert game["note"] == "This text holds 5 puzzles; the first is open."


@pytest.mark.parametrize(("name", "count", "shape"), [
    ("kakuro.txt", 2, "kakuro-3x3"), ("classic.txt", 3, "9x9"),
    ("kakuro-janko.txt", 2, "kakuro-6x6"), ("errors.txt", 2, "9x9"),
])
def test_a_text_of_several_puzzles_opens_the_first(client: TestClient, name: str, count: int,
                                                   shape: str) -> None:
    text = example(name)
    game = post_game(client, {"puzzle": text})
    assert game["note"] == f"This text holds {count} puzzles; the first is open."
    first = next(r.puzzle for r in formats.read_records(text.splitlines()) if r.puzzle)
    assert game["shape"]["name"] == shape and game["givens"] == list(first.givens)


@pytest.mark.parametrize("name", ["killer.txt", "jigsaw.txt", "16x16.txt", "6x6.txt",
                                  "puzzle.sdo", "nearly-done.txt"])
def test_a_text_of_one_puzzle_has_no_note(client: TestClient, name: str) -> None:
    game = post_game(client, {"puzzle": example(name)})
    assert game.get("note") is None


def test_many_one_line_puzzles(client: TestClient) -> None:
    lines = [BOOK, BOOK_PUZZLES[1]] * 300
    game = post_game(client, {"puzzle": "\n".join(lines)})
    assert game["note"] == "This text holds 600 puzzles; the first is open."
    assert "".join(str(v or ".") for v in game["givens"]) == BOOK


@pytest.mark.parametrize(("text", "message"), [
    ("", "The text is empty."),
    ("  \n\t\n", "The text is empty."),
    ("# a comment\n# and another", "The text holds no puzzle, only comments."),
    ("# my puzzle\n" + BOOK[:13] + "x" + BOOK[14:],
     "Line 2, column 14: 'x' is not a digit of a 9x9 puzzle."),
    ("." * 255 + "Z", "Line 1, column 256: 'Z' is not a symbol of a 16x16 puzzle (1-9, A-G)."),
    ("." * 63 + "9", "Line 1, column 64: '9' is not a digit of an 8x8 puzzle."),
    ("123", "Line 1: 3 characters, a 4x4 puzzle needs 16."),
    (BOOK + " and more", "Line 1, column 83: Unexpected text after the 81 cells of the puzzle."),
    ("12x\n34y\n", "Line 1: 3 cells in the first row; a grid row has 4, 6, 8, 9, 12, 16 or 25 "
                   "cells."),
])
def test_text_without_a_puzzle_is_told_in_a_players_words(client: TestClient, text: str,
                                                          message: str) -> None:
    answer = client.post("/api/games", json={"puzzle": text})
    assert answer.status_code == 400
    assert answer.json() == {"error": message}


@pytest.mark.parametrize("text", [
    "\n".join(["x" * 81] * 5), "." * 405, "x" * 81 + "\n" + "y" * 81,
    "{\"givens\": 5}", "cages:\nAB\nCD\nA=3", "#  4\\\n\\3 . .", "1 2 3\n4 5 6",
])
def test_no_message_speaks_the_librarys_words(client: TestClient, text: str) -> None:
    answer = client.post("/api/games", json={"puzzle": text})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error[0].isupper() and error.endswith(".") and "\n" not in error
    assert not any(word in error for word in LIBRARY_WORDS), error


def test_a_shape_or_format_asked_for_is_kept(client: TestClient) -> None:
    # five lines read as one Samurai only when no shape is named
    game = post_game(client, {"puzzle": example("samurai.txt"), "shape": "9x9"})
    assert game["shape"]["name"] == "9x9" and "5 puzzles" in game["note"]
    answer = client.post("/api/games", json={"puzzle": BOOK, "format": "kakuro"})
    assert answer.status_code == 400 and answer.json()["error"].startswith("Line 1")
