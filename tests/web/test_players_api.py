"""A player's games, statistics and the daily puzzle, all in the game database: games
listed most recent first with where they stand, statistics per kind and level with the
streak of days, one daily puzzle a date for everyone, and a database of an older
version gaining the new columns."""

from __future__ import annotations

import json
import sqlite3
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from api import act, client, post_game  # noqa: F401  # client: a fixture
from starlette.testclient import TestClient

from numberplace import formats, solve
from numberplace.generate import generate
from numberplace.model.shape import by_name
from numberplace.web import GameStore, create_app
from numberplace.web.players import player_stats
from numberplace.web.store import Played

from conftest import BOOK_PUZZLES

BOOK = BOOK_PUZZLES[0]
KEYS = {"id", "label", "name", "level", "daily", "created", "updated", "elapsed", "solved",
        "revealed", "filled", "cells"}


def finish(client: TestClient, game: dict) -> dict:
    """Enter the solution of every empty cell; the last answer."""
    solution = solve(formats.parse(game["puzzle"])).solution
    assert solution is not None
    answer: dict = {}
    for cell, given in enumerate(game["givens"]):
        if not given:
            answer = act(client, game, action="enter", cells=[cell], value=solution[cell])
    assert answer["solved"]
    return answer


def test_a_players_games_most_recent_first_with_where_they_stand(client: TestClient) -> None:
    first = post_game(client, {"shape": "4x4", "level": 1, "seed": 1, "player": "ann"})
    second = post_game(client, {"puzzle": BOOK, "player": "ann"})
    post_game(client, {"puzzle": BOOK, "player": "bob"})
    listed = client.get("/api/players/ann/games").json()["games"]
    assert [g["id"] for g in listed] == [second["id"], first["id"]]
    assert set(listed[0]) == KEYS
    assert listed[1]["label"] == "4x4" and listed[1]["name"] == "4x4"
    assert listed[1]["level"] == 1 and listed[1]["daily"] is None
    assert listed[0]["label"] == "9x9" and listed[0]["level"] is None
    assert listed[0]["filled"] == 81 - BOOK.count(".") and listed[0]["cells"] == 81
    assert not listed[0]["solved"] and not listed[0]["revealed"]
    assert listed[0]["created"] <= listed[0]["updated"]
    finish(client, first)  # played last: now the first of the list
    listed = client.get("/api/players/ann/games").json()["games"]
    assert listed[0]["id"] == first["id"] and listed[0]["solved"]
    assert listed[0]["filled"] == 16 and listed[0]["elapsed"] >= 0
    act(client, second, action="solve")
    act(client, second, action="undo")  # "solve all" taken back still counts
    listed = client.get("/api/players/ann/games").json()["games"]
    assert listed[0]["id"] == second["id"] and listed[0]["revealed"] and not listed[0]["solved"]


def test_a_list_holds_the_hundred_latest(client: TestClient) -> None:
    made = [post_game(client, {"puzzle": BOOK, "player": "many"})["id"] for _ in range(102)]
    listed = client.get("/api/players/many/games").json()["games"]
    assert [g["id"] for g in listed] == made[::-1][:100]


@pytest.mark.parametrize("path", ["/api/players/no%20way/games", "/api/players/" + "x" * 65
                                  + "/stats", "/api/players/a.b/games"])
def test_bad_player_ids_are_a_400(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 400 and "player must be" in answer.json()["error"]
    made = client.post("/api/games", json={"puzzle": BOOK, "player": "a b"})
    assert made.status_code == 400 and "player must be" in made.json()["error"]


def test_statistics_per_kind_and_level(client: TestClient) -> None:
    games = [post_game(client, {"shape": "4x4", "level": 1, "seed": k, "player": "cy"})
             for k in range(3)]
    finish(client, games[0])
    finish(client, games[1])
    act(client, games[2], action="solve")  # solved, but not by the player
    post_game(client, {"puzzle": BOOK, "player": "cy"})
    post_game(client, {"shape": "6x6", "level": 1, "seed": 5, "player": "cy"})
    answer = client.get("/api/players/cy/stats").json()
    listed = {g["id"]: g for g in client.get("/api/players/cy/games").json()["games"]}
    times = [listed[g["id"]]["elapsed"] for g in games[:2]]
    assert answer["stats"] == [
        {"label": "4x4", "level": 1, "games": 3, "solved": 2, "best": min(times),
         "average": round(sum(times) / 2, 1)},
        {"label": "6x6", "level": 1, "games": 1, "solved": 0, "best": None, "average": None},
        {"label": "9x9", "level": None, "games": 1, "solved": 0, "best": None,
         "average": None}]
    assert answer["streak"] == {"current": 1, "best": 1}
    assert answer["daily"] == {"played": 0, "solved": 0}
    assert client.get("/api/players/nobody/stats").json() == {
        "stats": [], "streak": {"current": 0, "best": 0}, "daily": {"played": 0, "solved": 0}}


@pytest.mark.parametrize("tz", ["abc", "841", "-841", "1.5", ""])
def test_a_bad_time_zone_is_a_400(client: TestClient, tz: str) -> None:
    answer = client.get(f"/api/players/cy/stats?tz={tz}")
    assert answer.status_code == 400 and "tz must be minutes east of UTC" in \
        answer.json()["error"]
    assert client.get("/api/players/cy/stats?tz=-840").status_code == 200


def at(day: date, hour: float) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc).timestamp() + hour * 3600


def solved_on(*moments: float, revealed: bool = False) -> list[Played]:
    return [Played("9x9", 1, None, True, revealed, 60.0, t) for t in moments]


TODAY = date(2024, 3, 10)
NOW = at(TODAY, 12)


def test_the_streak_counts_from_today_or_from_yesterday() -> None:
    days = [TODAY - timedelta(days=k) for k in (1, 2, 3, 5, 6, 7, 8, 9)]
    played = solved_on(*(at(d, 10) for d in days))
    assert player_stats(played, NOW)["streak"] == {"current": 3, "best": 5}
    played += solved_on(at(TODAY, 9))
    assert player_stats(played, NOW)["streak"] == {"current": 4, "best": 5}
    # two days ago is no streak any more, and a revealed game is no solve
    gap = solved_on(at(TODAY - timedelta(days=2), 10)) + solved_on(at(TODAY, 1), revealed=True)
    assert player_stats(gap, NOW)["streak"] == {"current": 0, "best": 1}


def test_days_are_the_players_own() -> None:
    # solved at 23:30 UTC the day before: that is today for a player at UTC+1
    played = solved_on(at(TODAY, -0.5))
    assert player_stats(played, NOW, 60)["streak"]["current"] == 1
    assert player_stats(played, NOW, 0)["streak"]["current"] == 1  # yesterday, in UTC
    # at 23:30 UTC it is already tomorrow at UTC+1: a solve of the day before
    # yesterday's, in that player's days, ends the streak; in UTC it was yesterday's
    late, before = at(TODAY, 23.5), solved_on(at(TODAY - timedelta(days=1), 22))
    assert player_stats(before, late, 60)["streak"]["current"] == 0
    assert player_stats(before, late, 0)["streak"]["current"] == 1


# -- the daily puzzle -----------------------------------------------------------------------


def daily(client: TestClient, status: int = 201, **body: object) -> dict:
    answer = client.post("/api/daily", json=body)
    assert answer.status_code == status, answer.text
    return answer.json()


def test_the_daily_puzzle_is_the_same_for_everyone_and_once_a_player(
        client: TestClient, tmp_path: Path) -> None:
    sunday = daily(client, date="2024-01-07", player="ann")
    made = generate(by_name("9x9"), level=4, seed=20240107, time_limit=20)
    assert sunday["givens"] == list(made.puzzle.givens)
    assert sunday["meta"] == {"label": "9x9", "level": 4, "daily": "2024-01-07"}
    assert sunday["verdict"]["status"] == "unique" and sunday["notation"] == "rc"
    act(client, sunday, action="enter", cells=[sunday["givens"].index(0)], value=1)
    again = daily(client, 200, date="2024-01-07", player="ann")
    assert again["id"] == sunday["id"] and again["values"] != sunday["values"]
    other = daily(client, date="2024-01-07", player="bob", notation="book", mode="free")
    assert other["id"] != sunday["id"] and other["givens"] == sunday["givens"]
    assert other["notation"] == "book" and other["mode"] == "free"
    elsewhere = TestClient(create_app(GameStore(tmp_path / "other.db")))
    assert daily(elsewhere, date="2024-01-07")["givens"] == sunday["givens"]
    assert daily(client, date="2024-01-01")["meta"]["level"] == 1  # a Monday
    listed = client.get("/api/players/ann/games").json()["games"]
    assert [g["daily"] for g in listed] == ["2024-01-07"]
    assert client.get("/api/players/ann/stats").json()["daily"] == {"played": 1, "solved": 0}


def test_the_daily_puzzle_is_made_once_a_database(client: TestClient,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    first = daily(client, date="2024-01-01")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("made again")

    monkeypatch.setattr("numberplace.generate.generate", refuse)
    again = daily(client, date="2024-01-01")  # no player: a new game of the same puzzle
    assert again["id"] != first["id"] and again["givens"] == first["givens"]


def test_a_solved_daily_counts(client: TestClient) -> None:
    game = daily(client, date="2024-01-01", player="dee")
    finish(client, game)
    assert client.get("/api/players/dee/stats").json()["daily"] == {"played": 1, "solved": 1}


def test_dates_run_from_2000_to_tomorrow(client: TestClient) -> None:
    today = datetime.now(timezone.utc).date()
    for bad in ("2024-02-30", "2024-1-7", "1999-12-31", (today + timedelta(days=2)).isoformat(),
                20240107, None, "yesterday"):
        answer = client.post("/api/daily", json={"date": bad})
        assert answer.status_code == 400, bad
        assert answer.json()["error"] and "\n" not in answer.json()["error"]
    assert daily(client, date="2000-01-01")["meta"]["daily"] == "2000-01-01"
    tomorrow = (today + timedelta(days=1)).isoformat()
    assert daily(client, date=tomorrow)["meta"]["daily"] == tomorrow
    bad_player = client.post("/api/daily", json={"date": "2000-01-01", "player": "?"})
    assert bad_player.status_code == 400


def test_an_older_database_gains_the_new_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = GameStore(tmp_path / "new.db")
    client = TestClient(create_app(store))
    game = post_game(client, {"puzzle": BOOK})
    record = store.load(game["id"])
    store.close()
    with sqlite3.connect(path) as old:
        old.execute("CREATE TABLE games (id TEXT PRIMARY KEY, record TEXT NOT NULL, "
                    "updated REAL NOT NULL)")
        old.execute("INSERT INTO games VALUES ('old-game', ?, 1.0)",
                    (json.dumps(record),))
    client = TestClient(create_app(GameStore(path)))
    shown = client.get("/api/games/old-game").json()
    assert shown["meta"] == {"label": "9x9", "level": None, "daily": None}
    act(client, {"id": "old-game"}, action="pause", player="eve")
    listed = client.get("/api/players/eve/games").json()["games"]
    assert [g["id"] for g in listed] == ["old-game"] and listed[0]["name"] == "9x9"
    assert listed[0]["created"] is None and listed[0]["filled"] == 81 - BOOK.count(".")
    with sqlite3.connect(path) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    assert {"player", "label", "level", "daily", "created", "solved", "revealed", "elapsed",
            "solved_at", "filled", "cells"} <= columns
