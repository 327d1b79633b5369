"""The web API on Kakuro and Killer: new games of each kind and level, pasted puzzles in
their formats, the shape view the board is drawn from (cages, clue squares, blocks),
hints naming cages, saving and sharing that keep the sums, and bad kinds or levels
answered 400 with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from api import act, client, post_game  # noqa: F401  # client: a fixture
from starlette.testclient import TestClient

from numberplace import formats
from numberplace.generate import generate_sums
from numberplace.model.shape import is_across

ROOT = Path(__file__).resolve().parents[2]


def new_game(client: TestClient, **body: object) -> dict:
    return post_game(client, body)


def first_example(name: str) -> str:
    """The first puzzle of an example file (its opening comment line and the puzzles after
    it left out; a Kakuro's ``#`` squares are blocks, not comments)."""
    lines = (ROOT / "examples" / name).read_text().splitlines()
    return "\n".join(lines[1:]).strip().split("\n\n")[0]


def test_the_shapes_offer_kakuro_and_killer_with_their_levels(client: TestClient) -> None:
    offered = client.get("/api/shapes").json()
    assert {"kakuro-10x10", "killer"} <= set(offered["shapes"])
    assert offered["sum_levels"] == {"kakuro-10x10": ["Easy", "Medium", "Difficult"],
                                     "killer": ["Easy", "Medium", "Difficult"]}


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_new_kakuro_at_each_level(client: TestClient, level: int) -> None:
    game = new_game(client, shape="kakuro-10x10", level=level, seed=11)
    made = generate_sums("kakuro-10x10", level=level, seed=11)
    view = game["shape"]
    assert view["kind"] == "kakuro" and (view["rows"], view["cols"]) == (10, 10)
    assert game["givens"] == list(made.puzzle.givens)
    assert view["thick"] == [0] * len(view["cells"])
    assert len(view["cages"]) == len(made.puzzle.shape.cages)
    squares = {(r, c) for r, c, *_ in view["clues"]} | {tuple(b) for b in view["blocks"]}
    whites = {tuple(rc) for rc in view["cells"]}
    assert not squares & whites and len(squares | whites) == 100
    # every run's sum stands in its clue square, down first, across second
    clues = {(r, c): (down, across) for r, c, down, across in view["clues"]}
    for cage in made.puzzle.shape.cages:
        assert cage.clue is not None
        down, across = clues[cage.clue]
        assert cage.total in (down, across)
    assert all(down is not None or across is not None for down, across in clues.values())
    # each run names its clue square and direction, as the game names a run
    for cage, drawn in zip(made.puzzle.shape.cages, view["cages"], strict=True):
        r, c = drawn["clue"]
        assert (r, c) == cage.clue and drawn["across"] == is_across(made.puzzle.shape, cage)
        assert clues[(r, c)][1 if drawn["across"] else 0] == drawn["sum"]
        first_row = view["cells"][drawn["cells"][0]][0]
        assert drawn["across"] == (first_row == r)
    assert {d["across"] for d in view["cages"]} == {True, False}
    assert view["houses"] == []


def test_a_new_killer_draws_its_cages(client: TestClient) -> None:
    game = new_game(client, shape="killer", level=1, seed=3)
    view = game["shape"]
    assert view["kind"] == "killer" and view["rows"] == 9 and "clues" not in view
    cells = sorted(c for cage in view["cages"] for c in cage["cells"])
    assert cells == list(range(81))
    assert all(isinstance(cage["sum"], int) for cage in view["cages"])
    assert all(cage["clue"] is None and cage["across"] is False for cage in view["cages"])
    assert view["thick"][0] == 0b1001  # the box borders stay


@pytest.mark.parametrize(("body", "words"), [
    ({"shape": "kakuro-10x10", "level": 4}, "a Kakuro is made at level 1, 2, 3, not 4"),
    ({"shape": "killer", "level": 0}, "a Killer is made at level 1, 2, 3, not 0"),
    ({"shape": "killer", "level": "hard"}, "not 'hard'"),
    ({"shape": "kakuro-2x2", "level": 1}, "6x6 to 30x30"),
    ({"shape": "kakurox", "level": 1}, "unknown shape 'kakurox'"),
    ({"shape": "killer", "level": 1, "seed": "x"}, "seed must be a whole number"),
])
def test_bad_kinds_and_levels_are_refused(client: TestClient, body: dict, words: str) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert words in error and "\n" not in error


@pytest.mark.parametrize(("name", "kind"), [("kakuro.txt", "kakuro"), ("killer.txt", "killer")])
def test_a_pasted_puzzle_in_its_format(client: TestClient, name: str, kind: str) -> None:
    text = first_example(name)
    game = new_game(client, puzzle=text)
    assert game["shape"]["kind"] == kind
    assert formats.parse(game["puzzle"]).shape == formats.parse(text).shape


def test_candidates_in_the_record_respect_the_sums(client: TestClient) -> None:
    game = new_game(client, puzzle=first_example("killer.txt"))
    # the example has no givens: a one-cell cage shows its sum alone (three of 1 among them)
    alone = [cage for cage in game["shape"]["cages"] if len(cage["cells"]) == 1]
    assert sum(cage["sum"] == 1 for cage in alone) == 3
    assert all(game["candidates"][cage["cells"][0]] == 1 << (cage["sum"] - 1)
               for cage in alone)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["kakuro-10x10", "killer"])
def test_a_whole_game_hints_saving_and_sharing(client: TestClient, kind: str) -> None:
    made = generate_sums(kind, level=2, seed=5)
    game = new_game(client, shape=kind, level=2, seed=5)
    empty = [c for c, v in enumerate(game["givens"]) if not v]
    hint = act(client, game, action="hint", tier=1)["hint"]
    assert hint["cages"] and hint["cage_cells"]
    assert hint["cage_cells"][0] == game["shape"]["cages"][hint["cages"][0]]["cells"]
    played = act(client, game, action="enter", cells=[empty[0]], value=made.solution[empty[0]])
    assert played["ok"]
    act(client, game, action="mark", cells=[empty[1]], value=4, kind="centre")

    # the session file and the puzzle file keep the sums; .sdo has no place for them
    saved = client.get(f"/api/games/{game['id']}/file?as=session").text
    reopened = new_game(client, puzzle=saved)
    assert reopened["shape"] == played["game"]["shape"]
    assert reopened["values"] == played["game"]["values"]
    assert reopened["centre"][empty[1]] == 0b1000
    text = client.get(f"/api/games/{game['id']}/file?as=puzzle")
    assert text.status_code == 200 and "filename" in text.headers["content-disposition"]
    assert formats.parse(text.text).shape == made.puzzle.shape
    sdo = client.get(f"/api/games/{game['id']}/file?as=sdo")
    assert sdo.status_code == 400 and "as=puzzle" in sdo.json()["error"]

    # a shared link: the puzzle in its own format, the progress one symbol a cell
    share = played["game"]["share"]
    assert share["shape"] is None
    progress = "".join(str(v) if v and not g else "." for v, g in
                       zip(played["game"]["values"], game["givens"], strict=True))
    shared = new_game(client, puzzle=share["text"], entries=progress)
    assert shared["shape"] == game["shape"] and shared["values"] == played["game"]["values"]

    # to the end: solved
    for cell in empty[1:]:
        answer = act(client, game, action="enter", cells=[cell], value=made.solution[cell])
        assert answer["ok"], answer["message"]
    assert answer["solved"] and answer["game"]["solved"]
    assert json.loads(client.get(f"/api/games/{game['id']}/file").text)["solved"]
