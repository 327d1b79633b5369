"""A server one client cannot stall, that never answers a move it did not store, and whose
work and size are bounded: the event loop never waits on a game, a search or the store;
a game's lock outlives its cached copy; a failed save is a JSON 503 and the move is not
kept; solver work has slots and a deadline; hostile or forged requests get a 4xx."""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from api import act, client, post_game  # noqa: F401  # the client fixture
from starlette.testclient import TestClient

from numberplace import limits
from numberplace.game import Session
from numberplace.game.history import UNDO_CHANGES, UNDO_MOVES
from numberplace.game.session import LOG_LINES
from numberplace.logic.explain import next_hint
from numberplace.model.puzzle import Puzzle
from numberplace.web import GameStore, create_app
from numberplace.web import app as web_app
from numberplace.web.store import StoreError
from numberplace.web.work import Busy, Slots, off_loop

ROOT = Path(__file__).resolve().parents[2]
BOOK = "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7.."
HARD_25 = (ROOT / "tests" / "data" / "hard-25x25.txt").read_text().split()[0]
JSON = {"content-type": "application/json"}


# -- the event loop never waits ---------------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Any:
    """``numberplace serve`` in a process of its own, as it is run; its address."""
    process = subprocess.Popen(
        [sys.executable, "-m", "numberplace", "serve", "--port", "0", "--db",
         str(tmp_path / "games.db")], stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    line = process.stderr.readline()
    assert "serving at" in line, line
    try:
        yield line.split("serving at ")[1].split()[0].rstrip("/")
    finally:
        process.terminate()
        process.wait(30)


@pytest.mark.slow
def test_hints_on_a_big_game_and_its_download_leave_the_page_answering(server: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as http:
        made = http.post("/api/games", json={"puzzle": "." * 625})
        assert made.status_code == 201, made.text
        game = made.json()["id"]

        def hint() -> int:
            return http.post(f"/api/games/{game}/actions",
                             json={"action": "hint", "tier": 3}).status_code

        with ThreadPoolExecutor(4) as pool:
            hints = [pool.submit(hint) for _ in range(3)]
            time.sleep(0.3)  # the hints have started, and hold the game or a solver slot
            download = pool.submit(http.get, f"/api/games/{game}/file")
            time.sleep(0.1)
            waits = []
            for _ in range(3):
                start = time.perf_counter()
                page = http.get("/")
                waits.append(time.perf_counter() - start)
                assert page.status_code == 200
            assert [h.result() for h in hints] and download.result().status_code == 200
    # a page that waited on the game's work would wait seconds
    assert min(waits) < 0.2, waits


# -- an answered move is stored, an unstored move is not answered ------------------------------


def test_a_game_dropped_from_the_cache_mid_action_loses_no_answered_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_app, "CACHED_GAMES", 1)
    store = GameStore(tmp_path / "games.db")
    http = TestClient(create_app(store), raise_server_exceptions=False)
    game = post_game(http, {"puzzle": BOOK})
    slow_step = Session.step

    def step(self: Session) -> Any:
        time.sleep(0.5)  # long enough for other requests to evict the game meanwhile
        return slow_step(self)

    monkeypatch.setattr(Session, "step", step)
    with ThreadPoolExecutor(2) as pool:
        stepped = pool.submit(act, http, game, action="step")
        time.sleep(0.1)
        post_game(http, {"puzzle": BOOK})  # the cache holds one game: this one now
        marked = pool.submit(act, http, game, action="mark", cells=[0], value=1)
        assert stepped.result()["ok"] and marked.result()["ok"]
    record = store.load(game["id"])
    assert record is not None
    kinds = [move["kind"] for move in record["undo"]]
    assert len(kinds) == 2, kinds  # both answered moves are stored


def test_a_failed_save_is_a_json_503_and_the_move_is_not_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = GameStore(tmp_path / "games.db")
    http = TestClient(create_app(store), raise_server_exceptions=False)
    game = post_game(http, {"puzzle": BOOK})
    saved = GameStore.append

    def full(*args: Any, **kwargs: Any) -> None:
        raise StoreError("cannot save the move in the game database: database or disk is "
                         "full")

    monkeypatch.setattr(GameStore, "append", full)
    answer = http.post(f"/api/games/{game['id']}/actions",
                       json={"action": "enter", "cells": [0], "value": 8})
    assert answer.status_code == 503 and "disk is full" in answer.json()["error"]
    assert answer.headers["retry-after"]
    monkeypatch.setattr(GameStore, "append", saved)
    after = http.get(f"/api/games/{game['id']}").json()
    assert after["values"][0] == 0 and not after["history"]["undo"]


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("mount") is None,
                    reason="mounting a small file system needs root")
def test_a_full_disk_is_a_json_503_and_the_move_is_not_kept(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)],
                      capture_output=True).returncode != 0:
        pytest.skip("tmpfs cannot be mounted here")
    try:
        store = GameStore(disk / "games.db")
        http = TestClient(create_app(store), raise_server_exceptions=False)
        game = post_game(http, {"puzzle": BOOK})
        filler = disk / "filler"
        out = open(filler, "wb")  # noqa: SIM115  # closed below, whatever the disk says
        try:  # the rest of the disk, taken
            while True:
                out.write(b"\0" * 4096)
                out.flush()
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                out.close()
        answers = [http.post(f"/api/games/{game['id']}/actions",
                             json={"action": "paint", "cells": list(range(81)),
                                   "value": 1 + n % 9}) for n in range(40)]
        refused = [a for a in answers if a.status_code != 200]
        assert refused and all(a.status_code == 503 and a.json()["error"] for a in refused)
        kept = sum(a.status_code == 200 for a in answers)
        filler.unlink()
        record = GameStore(disk / "games.db").load(game["id"])
        assert record is not None and len(record["undo"]) == kept
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


# -- solver work: slots, a deadline, cancellation ----------------------------------------------


def test_solver_work_past_its_slots_is_a_503_with_retry_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(GameStore(tmp_path / "games.db"), slots=Slots(1, 2, wait=0.2))
    http = TestClient(app, raise_server_exceptions=False)
    game = post_game(http, {"puzzle": BOOK})
    real = Session.hint

    def slow(self: Session, tier: int = 1) -> Any:
        time.sleep(1.0)
        return real(self, tier)

    monkeypatch.setattr(Session, "hint", slow)
    other = post_game(http, {"puzzle": BOOK})
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(http.post, f"/api/games/{game['id']}/actions",
                            json={"action": "hint"})
        time.sleep(0.3)
        second = http.post(f"/api/games/{other['id']}/actions", json={"action": "hint"})
        # moves need no slot: they go on while the search runs
        mark = http.post(f"/api/games/{other['id']}/actions",
                         json={"action": "mark", "cells": [0], "value": 1})
        assert first.result().status_code == 200
    assert second.status_code == 503 and second.headers["retry-after"]
    assert "busy" in second.json()["error"] and mark.status_code == 200


def test_one_client_has_at_most_its_share_of_slots() -> None:
    import asyncio

    async def take() -> None:
        slots = Slots(4, 1, wait=0.1)
        async with slots.held("a"):
            with pytest.raises(Busy, match="this client already has 1 search running"):
                async with slots.held("a"):
                    pass
        async with slots.held("a"), slots.held("b"):
            pass

    asyncio.run(take())


def test_a_ceiling_bounds_every_search_and_a_cancel_stops_it_at_once() -> None:
    puzzle = Puzzle.from_string(HARD_25)
    start = time.perf_counter()
    with limits.ceiling(0.3):
        found = next_hint(puzzle, time_limit=60)
    assert time.perf_counter() - start < 5
    gone = threading.Event()
    gone.set()
    start = time.perf_counter()
    with limits.ceiling(60, gone):
        assert limits.Deadline(60).passed()
        next_hint(puzzle, time_limit=60)
    assert time.perf_counter() - start < 5 and found is not None


def test_work_of_a_client_that_went_away_is_cancelled() -> None:
    seen: list[bool] = []

    class Gone:
        client = None

        async def receive(self) -> dict[str, str]:
            return {"type": "http.disconnect"}

    def work() -> None:
        deadline = limits.Deadline(30)
        for _ in range(200):
            if deadline.passed():
                seen.append(True)
                return
            time.sleep(0.01)
        seen.append(False)

    import asyncio

    asyncio.run(off_loop(Gone(), work))  # type: ignore[arg-type]
    assert seen == [True]


# -- bounded everything -------------------------------------------------------------------------


def test_a_game_can_be_deleted(client: TestClient) -> None:  # noqa: F811
    game = post_game(client, {"puzzle": BOOK})
    assert client.delete(f"/api/games/{game['id']}").json() == {"ok": True,
                                                                "deleted": game["id"]}
    assert client.get(f"/api/games/{game['id']}").status_code == 404
    assert client.delete(f"/api/games/{game['id']}").status_code == 404


def test_idle_games_expire(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.db")
    http = TestClient(create_app(store, idle_days=1), raise_server_exceptions=False)
    old = post_game(http, {"puzzle": BOOK})
    with sqlite3.connect(tmp_path / "games.db") as db:
        db.execute("UPDATE games SET updated = ? WHERE id = ?",
                   (time.time() - 2 * 86400, old["id"]))
    http.app.state.games._swept = -math.inf  # type: ignore[attr-defined]  # due now
    post_game(http, {"puzzle": BOOK})
    assert http.get(f"/api/games/{old['id']}").status_code == 404
    assert store.count() == 1


def test_a_client_starts_a_bounded_number_of_games(tmp_path: Path) -> None:
    http = TestClient(create_app(GameStore(tmp_path / "g.db"), games_per_hour=3),
                      raise_server_exceptions=False)
    for _ in range(3):
        post_game(http, {"puzzle": BOOK})
    answer = http.post("/api/games", json={"puzzle": BOOK})
    assert answer.status_code == 429 and int(answer.headers["retry-after"]) > 0


@pytest.mark.slow
def test_history_and_log_are_bounded(client: TestClient) -> None:  # noqa: F811
    game = post_game(client, {"puzzle": "." * 625})
    for n in range(UNDO_CHANGES // 625 + 20):  # repaint the whole 25x25 again and again
        act(client, game, action="paint", cells=list(range(625)), value=1 + n % 9)
    record = client.get(f"/api/games/{game['id']}/file").json()
    assert sum(len(m["changes"]) for m in record["undo"]) <= UNDO_CHANGES
    assert len(record["log"]) <= LOG_LINES
    assert len(json.dumps(record)) < 40 * UNDO_CHANGES + 100_000  # some 40 bytes a change
    session = Session(Puzzle.from_string(BOOK))
    for n in range(UNDO_MOVES + 50):
        session.mark([1], 1 + n % 9)
    assert len(session.history.done) == UNDO_MOVES and len(session.log) <= LOG_LINES


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r["timer"].update(elapsed=float("inf")), "elapsed"),
    (lambda r: r["timer"].update(elapsed=-5), "elapsed"),
    (lambda r: r["layers"]["value"].__setitem__(0, 99), "layer value"),
    (lambda r: r["layers"]["corner"].__setitem__(0, 1 << 20), "layer corner"),
    (lambda r: r["undo"].append({"kind": "enter", "changes": [["value", 0, 0, 50]]}),
     "out of range"),
    (lambda r: r.update(receipts={"tab": -1}), "receipts"),
])
def test_a_forged_session_is_refused(client: TestClient, change: Any,  # noqa: F811
                                     message: str) -> None:
    game = post_game(client, {"puzzle": BOOK})
    record = client.get(f"/api/games/{game['id']}/file").json()
    change(record)
    answer = client.post("/api/games", headers=JSON,
                         content=json.dumps({"puzzle": json.dumps(record, allow_nan=True)}))
    assert answer.status_code == 400 and message in answer.json()["error"], answer.text


# -- hardening ----------------------------------------------------------------------------------


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:  # noqa: F811
    game = post_game(client, {"puzzle": BOOK})
    for path in ("/", "/static/app.js", f"/api/games/{game['id']}", "/api/games/nothing"):
        headers = client.get(path).headers
        assert "script-src 'self'" in headers["content-security-policy"], path
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
        expected = "no-store" if path.startswith("/api/") else "no-cache"
        assert headers["cache-control"] == expected, path


def test_writes_from_other_sites_or_not_json_are_refused(client: TestClient) -> None:  # noqa: F811
    game = post_game(client, {"puzzle": BOOK})
    url = f"/api/games/{game['id']}/actions"
    move = json.dumps({"action": "enter", "cells": [0], "value": 8})
    plain = client.post(url, content=move, headers={"content-type": "text/plain"})
    assert plain.status_code == 415
    other = client.post(url, content=move, headers={**JSON, "origin": "https://evil.example"})
    assert other.status_code == 403 and "another origin" in other.json()["error"]
    fetched = client.post(url, content=move, headers={**JSON, "sec-fetch-site": "cross-site"})
    assert fetched.status_code == 403
    own = client.post(url, content=move, headers={**JSON, "origin": "http://testserver"})
    assert own.status_code == 200
    assert client.get(f"/api/games/{game['id']}").json()["values"][0] == 8


def test_deeply_nested_json_is_a_400(client: TestClient) -> None:  # noqa: F811
    deep = "[" * 1000 + "]" * 1000
    answer = client.post("/api/games", content='{"puzzle": ' + deep + "}", headers=JSON)
    assert answer.status_code == 400
    deeper = "[" * 100_000 + "]" * 100_000
    answer = client.post("/api/live", content=deeper, headers=JSON)
    assert answer.status_code == 400 and answer.json()["error"]


def test_the_host_is_never_echoed_and_a_local_app_answers_to_local_names(
        tmp_path: Path) -> None:
    http = TestClient(create_app(GameStore(tmp_path / "g.db"), hosts=["127.0.0.1",
                                                                       "localhost"]),
                      base_url="http://127.0.0.1:8000", raise_server_exceptions=False)
    assert http.get("/").status_code == 200
    rebound = http.get("/", headers={"host": "attacker.example"})
    assert rebound.status_code == 400
    slash = http.get("/api/games/", headers={"host": "127.0.0.1"}, follow_redirects=False)
    assert slash.status_code == 404 and "location" not in slash.headers


def test_the_cache_is_bounded_by_the_bytes_of_its_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = GameStore(tmp_path / "games.db")
    http = TestClient(create_app(store), raise_server_exceptions=False)
    game = post_game(http, {"puzzle": BOOK})
    one = store.stored(game["id"])
    assert one is not None
    monkeypatch.setattr(web_app, "CACHED_BYTES", 3 * one.size + 100)
    ids = [game["id"]] + [post_game(http, {"puzzle": BOOK})["id"] for _ in range(5)]
    games = http.app.state.games  # type: ignore[attr-defined]
    assert len(games._cache) == 3 and games._bytes == sum(g.size for g in games._cache.values())
    for game_id in ids:  # each read back from the store when asked for
        assert http.get(f"/api/games/{game_id}").status_code == 200
    assert len(games._cache) == 3
