"""A server under load loses no move, and a server killed while saving leaves every game
readable, as it was before the move or after it."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
import time
from pathlib import Path

import httpx2 as httpx
import pytest

from numberplace.game.saving import from_record
from numberplace.web import GameStore

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import load  # noqa: E402  # the load test's players, shared with bench/load.py


def test_twenty_players_for_five_seconds_lose_no_move(tmp_path: Path) -> None:
    server, url = load.start_server(str(tmp_path))
    try:
        tally = asyncio.run(load.run(url, players=20, seconds=5))
    finally:
        server.terminate()
        server.wait(10)
    assert tally.errors == [] and tally.lost == []
    assert tally.moves > 20
    print(load.report(tally, 20, 5))


@pytest.mark.slow
@pytest.mark.parametrize("after", [0.3, 0.7, 1.1])
def test_a_server_killed_while_saving_leaves_the_games_whole(tmp_path: Path,
                                                            after: float) -> None:
    server, url = load.start_server(str(tmp_path))
    made: dict[str, int] = {}
    try:
        with httpx.Client(base_url=url, timeout=10) as client:
            games = [client.post("/api/games", json={"puzzle": load.PUZZLE}).json()["id"]
                     for _ in range(3)]
            made = dict.fromkeys(games, 0)
            stop = time.monotonic() + after
            k = 0
            while time.monotonic() < stop:
                game = games[k % 3]
                answer = client.post(f"/api/games/{game}/actions", json={
                    "action": "mark", "cells": [0], "value": 1 + k % 9, "kind": "corner"})
                assert answer.json()["ok"]
                made[game] += 1
                k += 1
            # one more move, the server killed while it works on it
            body = json.dumps({"action": "mark", "cells": [1], "value": 1, "kind": "centre"})
            host, port = url.removeprefix("http://").rsplit(":", 1)
            with socket.create_connection((host, int(port)), timeout=10) as raw:
                raw.sendall((f"POST /api/games/{games[0]}/actions HTTP/1.1\r\n"
                             f"Host: {host}\r\nContent-Type: application/json\r\n"
                             f"Content-Length: {len(body)}\r\n\r\n{body}").encode())
                time.sleep(after / 1000)  # a save takes about a millisecond
                os.kill(server.pid, signal.SIGKILL)
    finally:
        if server.poll() is None:
            server.kill()
        server.wait(10)
    store = GameStore(Path(tmp_path) / "load.db")
    for game, moves in made.items():
        session = from_record(store.load(game))
        kept = len(session.history.done)
        assert kept in (moves, moves + 1) if game == list(made)[0] else kept == moves
