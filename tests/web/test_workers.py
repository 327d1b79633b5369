"""Several servers on one game store: workers of one ``serve``, or servers on several
machines sharing a PostgreSQL database. Nothing one keeps in memory may contradict what
another saved: each reads the game again when the store has moved on, and a save from an
older version is refused and tried again. The PostgreSQL tests need a database given by
NUMBERPLACE_TEST_POSTGRES (.ci/run starts one); without it they are skipped."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2 as httpx
import pytest
from api import act, post_game
from starlette.testclient import TestClient

from numberplace.web import GameStore, create_app
from numberplace.web.server import worker_cpus

URL = os.environ.get("NUMBERPLACE_TEST_POSTGRES")
ROOT = Path(__file__).resolve().parents[2]
BOOK = "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7.."
EMPTY = [c for c, ch in enumerate(BOOK) if ch == "."]
pytestmark = pytest.mark.xdist_group("postgres")  # one test database: one at a time


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A game store's address: a SQLite file, or the test PostgreSQL database emptied."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.db")
        return
    if not URL:
        pytest.skip("NUMBERPLACE_TEST_POSTGRES is not set")
    psycopg = pytest.importorskip("psycopg", reason="the bank-postgres extra is missing")
    with psycopg.connect(URL, autocommit=True) as con:
        con.execute("DROP TABLE IF EXISTS games, entries, daily")
    yield URL


def test_two_servers_on_one_store_play_one_game_and_each_sees_the_others_moves(
        db: str) -> None:
    one = TestClient(create_app(GameStore(db)))
    two = TestClient(create_app(GameStore(db)))
    game = post_game(one, {"puzzle": BOOK})
    rng = random.Random(5)
    made = []
    for n in range(40):  # turn about, and now and then twice on one
        server = (one, two)[(n + (n % 7 == 0)) % 2]
        cell = rng.choice(EMPTY)
        answer = act(server, game, action="mark", cells=[cell], value=1 + n % 9,
                     kind="corner")
        assert answer["ok"], answer
        made.append(answer["game"]["history"]["undo"][-1])
        # the answer is the game after every move so far, whichever server made them
        assert answer["game"]["history"]["undo"] == made[-100:]
    for server in (one, two):
        seen = server.get(f"/api/games/{game['id']}").json()
        assert seen["history"]["undo"] == made and seen["version"] == 40
    record = GameStore(db).load(game["id"])
    assert record is not None and record["undo"] == made


def test_an_answer_that_saves_nothing_is_the_game_as_stored_not_a_copy_left_behind(
        db: str) -> None:
    one = TestClient(create_app(GameStore(db)))
    two = TestClient(create_app(GameStore(db)))
    game = post_game(one, {"puzzle": BOOK})
    numbered = {"action": "mark", "cells": [EMPTY[0]], "value": 1, "kind": "corner",
                "client": "c", "seq": 1}
    first = two.post(f"/api/games/{game['id']}/actions", json=numbered).json()
    assert first["game"]["version"] == 1
    act(one, game, action="mark", cells=[EMPTY[1]], value=2, kind="corner")
    # two's copy is a version behind: a redo with nothing to redo saves nothing, and a
    # request sent again is found done in it; both answer with the game as stored
    idle = act(two, game, action="redo")
    assert not idle["ok"] and idle["game"]["version"] == 2
    assert idle["game"]["corner"][EMPTY[1]] != 0
    act(one, game, action="mark", cells=[EMPTY[2]], value=3, kind="corner")
    again = two.post(f"/api/games/{game['id']}/actions", json=numbered).json()
    assert again["duplicate"] and again["game"]["version"] == 3
    assert again["game"]["corner"][EMPTY[2]] != 0


def test_two_servers_writing_one_game_at_once_lose_no_answered_move(db: str) -> None:
    servers = [TestClient(create_app(GameStore(db))) for _ in range(2)]
    game = post_game(servers[0], {"puzzle": BOOK})

    def play(n: int) -> dict:
        return act(servers[n % 2], game, action="paint", cells=[n % 81], value=1 + n % 9)

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(play, range(60)))
    assert all(a["ok"] and a["message"] for a in answers)
    record = GameStore(db).load(game["id"])
    assert record is not None and len(record["undo"]) == 60
    assert sorted(m["changes"][0][1] for m in record["undo"]) == sorted(n % 81
                                                                        for n in range(60))


def test_a_server_reads_a_game_again_once_another_compacted_it(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from numberplace.web import app as web_app

    monkeypatch.setattr(web_app, "COMPACT_EVERY", 4)
    one = TestClient(create_app(GameStore(db)))
    two = TestClient(create_app(GameStore(db)))
    game = post_game(one, {"puzzle": BOOK})
    for n in range(11):
        act((one, two)[n % 3 == 0], game, action="mark", cells=[EMPTY[n]], value=1,
            kind="centre")
    store = GameStore(db)
    stored = store.stored(game["id"])
    assert stored is not None and stored.version == 11 and stored.entries < 4
    for server in (one, two):
        seen = server.get(f"/api/games/{game['id']}").json()
        assert [m["changes"][0][1] for m in seen["history"]["undo"]] == EMPTY[:11]


@pytest.mark.slow
def test_serve_with_two_workers_shares_games_between_them(db: str, tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "numberplace", "serve", "--port", "0", "--workers", "2",
         "--db", db], stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, start_new_session=True)
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        assert "with 2 workers" in line, line
        url = line.split(" at ")[1].split()[0]
        deadline = time.monotonic() + 60
        while True:  # the workers come up after the socket listens
            try:
                httpx.get(url + "api/shapes", timeout=5)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
        game = httpx.post(url + "api/games", json={"puzzle": BOOK}, timeout=30).json()
        answers = []
        for n in range(30):  # a new connection each: the workers take turns as they accept
            with httpx.Client(base_url=url, timeout=30) as client:
                answer = client.post(f"api/games/{game['id']}/actions", json={
                    "action": "mark", "cells": [EMPTY[n]], "value": 1, "kind": "corner",
                    "client": "c", "seq": n + 1, "answer": "changes"})
                assert answer.status_code == 200, answer.text
                answers.append(answer.json())
        assert [a["changes"]["version"] for a in answers] == list(range(1, 31))
        whole = httpx.get(f"{url}api/games/{game['id']}/file", timeout=30).json()
        assert len(whole["undo"]) == 30 and whole["receipts"] == {"c": 30}
        assert json.loads(json.dumps(whole))["layers"]["corner"][EMPTY[29]] == 1
        if len(os.sched_getaffinity(0)) >= 2:  # each worker keeps to a processor of its own
            pinned = [os.sched_getaffinity(pid) for pid in _children(server.pid)
                      if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
            assert len(pinned) == 2 and all(len(cpus) == 1 for cpus in pinned)
            assert pinned[0] != pinned[1]
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # the parent's id follows the name, which is in parentheses and may hold spaces
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return sorted(found)


def test_workers_keep_to_processors_in_turn() -> None:
    cpus = sorted(os.sched_getaffinity(0))
    chosen = worker_cpus(2 * len(cpus) + 1)
    assert chosen == cpus * 2 + cpus[:1]


def test_servers_setting_up_one_new_database_at_once_take_turns(db: str) -> None:
    # the workers of `serve --workers N` start together on a database with no tables yet
    for _ in range(3):
        with ThreadPoolExecutor(6) as pool:
            stores = list(pool.map(lambda _: GameStore(db), range(6)))
        assert all(store.version("no-such-game") is None for store in stores)
        if db.startswith("postgresql"):
            psycopg = pytest.importorskip("psycopg")
            with psycopg.connect(db, autocommit=True) as con:
                con.execute("DROP TABLE IF EXISTS games, entries, daily")
