"""What a page that plays ahead of the server relies on: actions numbered by their client
are carried out once however often they are sent; a game joins the player who first
acts on it; the notation of names; the history to undo from, the verdict on the puzzle
and what the game is, all in the game's record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from api import act, client, post_game  # noqa: F401  # client: a fixture
from starlette.testclient import TestClient

from numberplace import solve
from numberplace.game import Move
from numberplace.web import GameStore, create_app

from conftest import BOOK_PUZZLES

BOOK = BOOK_PUZZLES[0]
SOLUTION = solve(BOOK).solution
assert SOLUTION is not None
EMPTY = [c for c, ch in enumerate(BOOK) if ch == "."]


def new_game(client: TestClient, **body: object) -> dict:
    return post_game(client, body or {"puzzle": BOOK})


def numbered(http: TestClient, game: dict, client: str, seq: int, **body: object) -> dict:
    """One action sent as request ``seq`` of ``client``; the answer."""
    answer = http.post(f"/api/games/{game['id']}/actions",
                       json={**body, "client": client, "seq": seq})
    assert answer.status_code == 200, answer.text
    return answer.json()


# -- C: numbered actions, carried out once --------------------------------------------------


def test_a_numbered_action_sent_twice_is_carried_out_once(client: TestClient) -> None:
    game = new_game(client)
    first = numbered(client, game, "tab-1", 1, action="mark", cells=[0], value=4)
    assert first["ok"] and "duplicate" not in first
    assert first["game"]["corner"][0] == 0b1000 and first["game"]["receipts"] == {"tab-1": 1}
    again = numbered(client, game, "tab-1", 1, action="mark", cells=[0], value=4)
    # a second toggle would have taken the mark away again
    assert again == {"ok": True, "duplicate": True, "game": again["game"]}
    assert again["game"]["corner"][0] == 0b1000
    assert again["game"]["history"]["undo_total"] == 1
    numbered(client, game, "tab-1", 2, action="mark", cells=[0], value=5)
    late = numbered(client, game, "tab-1", 1, action="mark", cells=[0], value=6)  # late
    assert late["duplicate"] and late["game"]["corner"][0] == 0b11000
    other = numbered(client, game, "phone", 1, action="mark", cells=[0], value=4)
    # another client counts on its own
    assert "duplicate" not in other and other["game"]["corner"][0] == 0b10000
    assert other["game"]["receipts"] == {"tab-1": 2, "phone": 1}


def test_a_refused_move_is_received_a_bad_request_is_not(client: TestClient) -> None:
    game = new_game(client)
    refused = numbered(client, game, "c", 5, action="enter", cells=[0], value=9)
    assert not refused["ok"] and refused["game"]["receipts"] == {"c": 5}
    assert numbered(client, game, "c", 5, action="enter", cells=[0], value=9)["duplicate"]
    bad = client.post(f"/api/games/{game['id']}/actions",
                      json={"action": "enter", "cells": [999], "value": 1, "client": "c",
                            "seq": 6})
    assert bad.status_code == 400
    taken = numbered(client, game, "c", 6, action="enter", cells=[0], value=SOLUTION[0])
    assert taken["ok"] and "duplicate" not in taken and taken["game"]["receipts"] == {"c": 6}


@pytest.mark.parametrize("extra", [
    {"client": "", "seq": 1}, {"client": "a b", "seq": 1}, {"client": "x" * 65, "seq": 1},
    {"client": 7, "seq": 1}, {"client": "c", "seq": 0}, {"client": "c", "seq": 2 ** 53 + 1},
    {"client": "c", "seq": "1"}, {"client": "c", "seq": True}, {"client": "c", "seq": 1.5},
    {"client": "c"}, {"seq": 1}, {"player": "no way"}, {"player": ""}, {"player": 5},
])
def test_bad_clients_numbers_and_players_are_a_400(client: TestClient, extra: dict) -> None:
    game = new_game(client)
    answer = client.post(f"/api/games/{game['id']}/actions",
                         json={"action": "mark", "cells": [0], "value": 1, **extra})
    assert answer.status_code == 400 and answer.json()["error"]
    assert "\n" not in answer.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json()["corner"][0] == 0  # not applied


def test_receipts_are_saved_and_kept_for_sixteen_clients(tmp_path: Path) -> None:
    client = TestClient(create_app(GameStore(tmp_path / "games.db")))
    game = new_game(client)
    for k in range(18):
        numbered(client, game, f"client-{k}", k + 1, action="pause")
    again = TestClient(create_app(GameStore(tmp_path / "games.db")))  # a new server
    receipts = again.get(f"/api/games/{game['id']}").json()["receipts"]
    assert len(receipts) == 16 and receipts["client-17"] == 18 and "client-0" not in receipts
    assert numbered(again, game, "client-17", 18, action="resume")["duplicate"]
    saved = json.loads(again.get(f"/api/games/{game['id']}/file").text)
    assert saved["receipts"] == receipts


def test_a_game_joins_the_player_who_first_acts_on_it(client: TestClient) -> None:
    game = new_game(client)
    assert client.get("/api/players/p-1/games").json() == {"games": []}
    act(client, game, action="pause", player="p-1")
    act(client, game, action="resume", player="p-2")  # it is p-1's already
    listed = client.get("/api/players/p-1/games").json()["games"]
    assert [g["id"] for g in listed] == [game["id"]]
    assert client.get("/api/players/p-2/games").json() == {"games": []}


# -- D: notation ----------------------------------------------------------------------------


def test_web_games_name_cells_r1c1_unless_asked_otherwise(client: TestClient) -> None:
    game = new_game(client)
    assert game["notation"] == "rc"
    assert act(client, game, action="enter", cells=[0], value=9)["message"] == \
        "9 is already in row 1, at r1c3"
    book = new_game(client, puzzle=BOOK, notation="book")
    assert book["notation"] == "book"
    assert act(client, book, action="enter", cells=[0], value=9)["message"] == \
        "9 is already in row 1, at (3,1)"
    answer = client.post("/api/games", json={"puzzle": BOOK, "notation": "a1"})
    assert answer.status_code == 400 and "notation must be rc or book" in answer.json()["error"]


def test_the_notation_action_changes_what_follows(client: TestClient) -> None:
    game = new_game(client)
    act(client, game, action="enter", cells=[0], value=SOLUTION[0])
    changed = act(client, game, action="notation", value="book")
    assert changed["ok"] and changed["game"]["notation"] == "book"
    act(client, game, action="enter", cells=[1], value=SOLUTION[1])
    assert changed["game"]["log"][-1] == f"Value {SOLUTION[0]} in r1c1"
    log = client.get(f"/api/games/{game['id']}").json()["log"]
    assert log[-1] == f"Value {SOLUTION[1]} in (2,1)"
    clash = act(client, game, action="enter", cells=[3], value=9)
    assert clash["message"] == "9 is already in row 1, at (3,1)"
    hint = act(client, game, action="hint", tier=3)["hint"]
    assert "(" in hint["text"] and not any(f"r{r}c" in hint["text"] for r in range(1, 10))
    bad = client.post(f"/api/games/{game['id']}/actions",
                      json={"action": "notation", "value": "a1"})
    assert bad.status_code == 400 and "notation must be rc or book" in bad.json()["error"]


def test_a_saved_game_keeps_its_notation_unless_asked(client: TestClient) -> None:
    game = new_game(client, puzzle=BOOK, notation="book")
    saved = client.get(f"/api/games/{game['id']}/file").text
    assert new_game(client, puzzle=saved)["notation"] == "book"
    assert new_game(client, puzzle=saved, notation="rc")["notation"] == "rc"


# -- E: the history, the verdict and what the game is ----------------------------------------


def test_the_record_carries_the_history_to_undo_and_redo_from(client: TestClient) -> None:
    game = new_game(client)
    act(client, game, action="enter", cells=[0], value=SOLUTION[0])
    act(client, game, action="mark", cells=[1], value=3, kind="centre")
    act(client, game, action="paint", cells=[2], value=4)
    history = act(client, game, action="undo")["game"]["history"]
    assert history["undo_total"] == 2 and history["redo_total"] == 1
    assert [m["kind"] for m in history["undo"]] == ["enter", "centre"]  # next to undo last
    assert history["redo"] == [{"kind": "colour", "text": "Colour 4 on r1c3",
                                "changes": [["colour", 2, 0, 4]]}]
    assert history["undo"][0]["changes"] == [["value", 0, 0, SOLUTION[0]]]
    for move in history["undo"] + history["redo"]:
        assert Move.from_record(move).to_record() == move


def test_the_record_carries_the_latest_hundred_moves_each_way(client: TestClient) -> None:
    game = new_game(client)
    for k in range(104):
        act(client, game, action="mark", cells=[EMPTY[k % 20]], value=1 + k % 9)
    for _ in range(2):
        act(client, game, action="undo")
    history = client.get(f"/api/games/{game['id']}").json()["history"]
    assert history["undo_total"] == 102 and len(history["undo"]) == 100
    assert history["redo_total"] == 2 and len(history["redo"]) == 2
    # the oldest kept first, the one to undo next last; the one to redo next last
    assert history["undo"][-1]["changes"][0][1] == EMPTY[101 % 20]
    assert history["undo"][0]["changes"][0][1] == EMPTY[2 % 20]
    assert history["redo"][-1]["changes"][0][1] == EMPTY[102 % 20]
    assert history["redo"][0]["changes"][0][1] == EMPTY[103 % 20]


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"shape": "4x4", "level": 1, "seed": 2}, "unique", ""),
    ({"puzzle": BOOK}, "unique", ""),
    ({"puzzle": "." * 81}, "multiple", "more than one solution"),
    ({"puzzle": "12345678." + "." * 8 + "9" + "." * 63}, "none",
     "This puzzle has no solution."),
    ({"puzzle": ".5" + "." * 5 + "5" + "." * 73, "mode": "free"}, "invalid",
     "This puzzle cannot be solved: two 5s in row 1 (r1c2 and r1c8)."),
])
def test_the_verdict_on_the_puzzle_itself(client: TestClient, body: dict, status: str,
                                          words: str) -> None:
    game = new_game(client, **body)
    assert game["verdict"]["status"] == status and words in game["verdict"]["message"]
    assert bool(game["verdict"]["message"]) == (status != "unique")
    checked = act(client, game, action="check")
    assert checked["status"] == status and checked["mistakes"] == []
    if status == "unique":
        assert "message" not in checked
    else:
        assert checked["message"] == game["verdict"]["message"]


def test_a_check_on_a_puzzle_with_one_solution_names_the_mistakes(client: TestClient) -> None:
    game = new_game(client)
    wrong = next(v for v in range(1, 10) if v != SOLUTION[EMPTY[0]]
                 and act(client, game, action="enter", cells=[EMPTY[0]], value=v)["ok"])
    assert wrong
    checked = act(client, game, action="check")
    assert checked == {"ok": True, "mistakes": [EMPTY[0]], "status": "unique",
                       "game": checked["game"]}


def test_the_verdict_is_kept_and_found_for_a_game_saved_without_it(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.db")
    client = TestClient(create_app(store))
    game = new_game(client, puzzle="." * 81)
    assert store.load(game["id"])["verdict"] == "multiple"
    older = store.load(game["id"])
    del older["verdict"]
    store.save("older-game", older)
    shown = client.get("/api/games/older-game").json()
    assert shown["verdict"]["status"] == "multiple"
    assert store.load("older-game")["verdict"] == "multiple"  # found once, and kept


@pytest.mark.parametrize(("body", "meta"), [
    ({"shape": "9x9", "level": 2, "seed": 4}, {"label": "9x9", "level": 2, "daily": None}),
    ({"shape": "wordoku", "level": "Easy", "seed": 4},
     {"label": "wordoku", "level": 1, "daily": None}),
    ({"shape": "jigsaw", "level": 1, "seed": 4}, {"label": "jigsaw", "level": 1, "daily": None}),
    ({"shape": "killer", "level": 1, "seed": 3}, {"label": "killer", "level": 1, "daily": None}),
    ({"shape": "kakuro-10x10", "level": 1, "seed": 3},
     {"label": "kakuro-10x10", "level": 1, "daily": None}),
    ({"puzzle": BOOK}, {"label": "9x9", "level": None, "daily": None}),
    ({"puzzle": BOOK, "shape": "diagonal"}, {"label": "diagonal", "level": None,
                                             "daily": None}),
    ({"puzzle": "." * 256}, {"label": "16x16", "level": None, "daily": None}),
])
def test_what_the_game_is(client: TestClient, body: dict, meta: dict) -> None:
    game = new_game(client, **body)
    assert game["meta"] == meta
    assert client.get(f"/api/games/{game['id']}").json()["meta"] == meta


def test_a_reopened_game_is_labelled_by_its_family(client: TestClient) -> None:
    killer = new_game(client, shape="killer", level=1, seed=3)
    saved = client.get(f"/api/games/{killer['id']}/file").text
    assert new_game(client, puzzle=saved)["meta"] == {"label": "killer", "level": None,
                                                      "daily": None}
    text = client.get(f"/api/games/{killer['id']}/file?as=puzzle").text
    assert new_game(client, puzzle=text)["meta"]["label"] == "killer"
