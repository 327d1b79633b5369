"""The web API: games isolated and saved, every action, the live solver, and bad requests
answered with a 4xx and a clear message, never a 500."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from api import act, client, post_game  # noqa: F401  # client: a fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from numberplace import solve
from numberplace.web import GameStore, create_app

from conftest import BOOK_PUZZLES

BOOK = BOOK_PUZZLES[0]
SOLUTION = solve(BOOK).solution
assert SOLUTION is not None


def new_game(client: TestClient, **body: object) -> dict:
    return post_game(client, body or {"puzzle": BOOK})


def test_the_pages_and_their_files_are_served(client: TestClient) -> None:
    for path in ("/", "/live"):
        page = client.get(path)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/api/shapes").json()["shapes"][3] == "9x9"


def test_a_game_from_a_puzzle_and_a_whole_play(client: TestClient) -> None:
    game = new_game(client)
    assert game["shape"]["rows"] == 9 and game["givens"][2] == 9
    refused = act(client, game, action="enter", cells=[0], value=9)
    assert not refused["ok"] and refused["message"] == "9 is already in row 1, at r1c3"
    played = act(client, game, action="enter", cells=[0], value=SOLUTION[0])
    assert played["ok"] and played["game"]["values"][0] == SOLUTION[0]
    act(client, game, action="mark", cells=[1, 10], value=2, kind="centre")
    act(client, game, action="paint", cells=[1], value=3)
    undone = act(client, game, action="undo")["game"]
    assert undone["colours"][1] == 0 and undone["can_redo"]
    hint = act(client, game, action="hint", tier=3)["hint"]
    assert hint["status"] == "hinted" and hint["highlights"]
    step = act(client, game, action="step")
    assert step["ok"]
    solved = act(client, game, action="solve")
    assert solved["solved"] and solved["game"]["solved"]
    assert not solved["game"]["timer"]["running"]


def test_the_shape_names_its_houses_in_order(client: TestClient) -> None:
    houses = new_game(client)["shape"]["houses"]
    assert len(houses) == 27
    assert houses[0] == {"name": "row 1", "cells": list(range(9))}
    assert houses[9] == {"name": "column 1", "cells": list(range(0, 81, 9))}
    assert houses[22] == {"name": "box 5", "cells": [30, 31, 32, 39, 40, 41, 48, 49, 50]}
    samurai = new_game(client, shape="samurai", level=1, seed=1)["shape"]["houses"]
    assert samurai[54]["name"] == "row 1 of grid 3" and len(samurai) == 131
    diagonal = new_game(client, puzzle=BOOK, shape="diagonal")["shape"]["houses"]
    assert diagonal[-2] == {"name": "main diagonal", "cells": list(range(0, 81, 10))}


def test_games_are_isolated_and_survive_a_restart(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.db")
    first = TestClient(create_app(store))
    one, two = new_game(first), new_game(first)
    act(first, one, action="enter", cells=[0], value=SOLUTION[0])
    assert first.get(f"/api/games/{two['id']}").json()["values"][0] == 0
    again = TestClient(create_app(GameStore(tmp_path / "games.db")))  # a new server
    assert again.get(f"/api/games/{one['id']}").json()["values"][0] == SOLUTION[0]


def test_a_generated_game_on_every_offered_shape(client: TestClient) -> None:
    for shape in client.get("/api/shapes").json()["shapes"]:
        game = new_game(client, shape=shape, level=1, seed=3)
        assert game["shape"]["size"] in (4, 6, 8, 9, 12, 16, 25), shape
        assert len(game["values"]) == len(game["shape"]["cells"])


def test_files_to_keep(client: TestClient) -> None:
    game = new_game(client)
    act(client, game, action="enter", cells=[0], value=SOLUTION[0])
    sdo = client.get(f"/api/games/{game['id']}/file?as=sdo")
    assert sdo.text.strip() == BOOK.replace(".", "0")
    session = json.loads(client.get(f"/api/games/{game['id']}/file").text)
    assert session["format"] == "numberplace-session" and session["layers"]["value"][0]
    reopened = new_game(client, puzzle=json.dumps(session))
    assert reopened["values"][0] == SOLUTION[0] and reopened["id"] != game["id"]


def test_the_live_solver(client: TestClient) -> None:
    view = client.post("/api/live", json={"puzzle": BOOK}).json()
    assert view["status"] == "unique" and view["verdict"] == "one solution"
    assert view["forced"] and all(v for v in view["values"])  # singles finish it
    open_ = client.post("/api/live", json={"puzzle": "." * 81}).json()
    assert open_["status"] == "multiple" and "more than one solution" in open_["verdict"]
    clash = client.post("/api/live", json={"puzzle": "55" + "." * 79}).json()
    assert clash["status"] == "invalid" and clash["verdict"].startswith("two givens clash")
    hard = "....9..8..47..8......4579..5....4.96...8......26..5....68....3..32.....8......16."
    directed = client.post("/api/live", json={"puzzle": hard}).json()
    assert all(d[2] in ("row", "column") for d in directed["directions"])


@pytest.mark.parametrize(("method", "path", "body", "status", "message"), [
    ("post", "/api/games", {"puzzle": "123"}, 400, "3 characters"),
    ("post", "/api/games", {"shape": "37x37"}, 400, "size must be"),
    ("post", "/api/games", {"shape": "9x9", "level": "impossible"}, 400, "unknown level"),
    ("post", "/api/games", {"mode": "chaos", "puzzle": BOOK}, 400, "mode must be"),
    ("post", "/api/games", [1, 2], 400, "must be a JSON object"),
    ("get", "/api/games/nosuchgame", None, 404, "no game"),
    ("get", "/api/games/" + "x" * 300, None, 404, "no game"),
    ("post", "/api/live", {"puzzle": 5}, 400, "must be strings"),
])
def test_bad_requests_get_a_4xx_and_a_message(client: TestClient, method: str, path: str,
                                              body: object, status: int, message: str) -> None:
    answer = getattr(client, method)(path, **({"json": body} if body is not None else {}))
    assert answer.status_code == status
    assert message in answer.json()["error"]


@pytest.mark.parametrize("body", [
    {"action": "fly"}, {"action": "enter", "cells": "all", "value": 1},
    {"action": "enter", "cells": [999], "value": 1}, {"action": "enter", "cells": [0],
                                                       "value": 99},
    {"action": "mark", "cells": [0], "value": 1, "kind": "side"},
    {"action": "hint", "tier": 9}, {"action": "paint", "cells": [0], "value": "red"},
    {"action": None}, {"cells": [[0]]},
])
def test_bad_actions_get_a_400(client: TestClient, body: dict) -> None:
    game = new_game(client)
    answer = client.post(f"/api/games/{game['id']}/actions", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]


def test_malformed_and_oversized_bodies(client: TestClient) -> None:
    game = new_game(client)
    url = f"/api/games/{game['id']}/actions"
    broken = client.post(url, content=b"{not json", headers={"content-type": "application/json"})
    assert broken.status_code == 400 and "not JSON" in broken.json()["error"]
    huge = client.post("/api/games", content=b"x" * 300_000,
                       headers={"content-type": "application/json"})
    assert huge.status_code == 413 and "larger than" in huge.json()["error"]


ACTIONS = ["enter", "erase", "mark", "paint", "undo", "redo", "hint", "step", "check",
           "diagnose", "pause", "resume", "auto", "notation", "fly"]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4), max_leaves=8)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=st.sampled_from(ACTIONS), cells=JSON_VALUES, value=JSON_VALUES,
       extra=st.dictionaries(st.sampled_from(["kind", "tier", "on", "client", "seq", "player"]),
                             JSON_VALUES | st.sampled_from(["tab-1", 1, 2 ** 53])))
def test_any_action_body_gets_an_answer_never_a_500(client: TestClient, action: str,
                                                    cells: object, value: object,
                                                    extra: dict) -> None:
    game = new_game(client)
    body = {"action": action, "cells": cells, "value": value, **extra}
    answer = client.post(f"/api/games/{game['id']}/actions",
                         content=json.dumps(body, allow_nan=True),
                         headers={"content-type": "application/json"})
    assert answer.status_code in (200, 400), (body, answer.text)
    if answer.status_code == 400:
        assert answer.json()["error"]


def test_a_wordoku_is_in_letters_and_its_share_link_keeps_them(client: TestClient) -> None:
    game = new_game(client, shape="wordoku", level=1, seed=2)
    assert game["symbols"].isalpha() and len(set(game["symbols"])) == 9
    assert not set(game["symbols"]) & set("ZXCV")  # the mode keys stay keys
    share = game["share"]
    assert share["alphabet"] == game["symbols"]
    again = new_game(client, puzzle=share["text"], shape=share["shape"],
                     alphabet=share["alphabet"])
    assert again["givens"] == game["givens"] and again["symbols"] == game["symbols"]
    assert new_game(client, puzzle=BOOK)["share"]["alphabet"] is None


def test_new_games_come_from_the_bank_when_it_has_them(tmp_path: Path) -> None:
    from numberplace.logic.rating import rate
    from numberplace.model.puzzle import Puzzle
    from numberplace.store.bank import Bank, entry

    puzzle = Puzzle.from_string(BOOK)
    bank = Bank(tmp_path / "bank.sqlite")
    level = rate(puzzle).level_number
    found = entry(puzzle, rate=True)
    assert not isinstance(found, str)
    bank.add([found])
    client = TestClient(create_app(GameStore(tmp_path / "games.db"), bank))
    for _ in range(3):  # the bank's one puzzle of that shape and level, every time
        game = new_game(client, shape="9x9", level=level)
        assert "".join(str(v or ".") for v in game["givens"]) == BOOK
    # another level, or a seed asked for: generated
    other = new_game(client, shape="9x9", level=level % 5 + 1)
    assert "".join(str(v or ".") for v in other["givens"]) != BOOK
    seeded = new_game(client, shape="9x9", level=level, seed=1)
    assert "".join(str(v or ".") for v in seeded["givens"]) != BOOK
