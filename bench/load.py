"""Load on loopback: many players making moves at once against one server.

Each player starts a game and then, until the time is up, toggles pencil marks (a move
that always changes the board, so every one is counted) with now and then a hint. At the
end every game is read back from the server: its history must hold exactly the moves the
player was told were made (no move lost, none doubled). Prints requests, errors and
latency percentiles.

    python bench/load.py [--players 50] [--seconds 60] [--url URL]

Without --url a server is started for the run, with its own temporary database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx2 as httpx

PUZZLE = "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7.."


@dataclass
class Tally:
    """What the players saw."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    moves: int = 0


async def player(client: httpx.AsyncClient, until: float, tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    made = await client.post("/api/games", json={"puzzle": PUZZLE})
    if made.status_code != 201:
        tally.errors.append(f"new game: {made.status_code}")
        return
    game = made.json()
    empty = [c for c, v in enumerate(game["givens"]) if not v]
    moves = 0
    while time.monotonic() < until:
        hint = rng.random() < 0.1
        body = ({"action": "hint", "tier": 1} if hint else
                {"action": "mark", "cells": [rng.choice(empty)], "value": rng.randint(1, 9),
                 "kind": rng.choice(["corner", "centre"])})
        start = time.perf_counter()
        try:
            answer = await client.post(f"/api/games/{game['id']}/actions", json=body)
        except httpx.HTTPError as exc:
            tally.errors.append(f"{type(exc).__name__}: {exc}")
            continue
        tally.latencies.append((time.perf_counter() - start) * 1e3)
        if answer.status_code != 200 or not answer.json().get("ok"):
            tally.errors.append(f"{answer.status_code}: {answer.text[:100]}")
        elif not hint:
            moves += 1
    saved = json.loads((await client.get(f"/api/games/{game['id']}/file")).text)
    if len(saved["undo"]) != moves:
        tally.lost.append(f"game {game['id']}: {moves} moves made, {len(saved['undo'])} kept")
    tally.moves += moves


async def run(url: str, players: int, seconds: float) -> Tally:
    """Run the players against ``url``; what they saw."""
    tally = Tally()
    limits = httpx.Limits(max_connections=players, max_keepalive_connections=players)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        until = time.monotonic() + seconds
        await asyncio.gather(*(player(client, until, tally, k) for k in range(players)))
    return tally


def start_server(folder: str) -> tuple[subprocess.Popen[str], str]:
    """A server process on a free port; it and its address."""
    server = subprocess.Popen([sys.executable, "-m", "numberplace", "serve", "--port", "0",
                               "--db", str(Path(folder) / "load.db")],
                              stderr=subprocess.PIPE, text=True, start_new_session=True)
    line = server.stderr.readline() if server.stderr else ""
    if " at " not in line:
        server.kill()
        raise RuntimeError(f"the server did not start: {line}")
    return server, line.split(" at ")[1].split(" ")[0].rstrip("/")


def report(tally: Tally, players: int, seconds: float) -> str:
    lat = sorted(tally.latencies)

    def pct(share: float) -> float:
        return lat[min(len(lat) - 1, int(share * len(lat)))] if lat else 0.0

    return (f"{players} players, {seconds:g} s: {len(lat):,} requests "
            f"({len(lat) / seconds:,.0f}/s), {tally.moves:,} moves, "
            f"{len(tally.errors)} errors, {len(tally.lost)} games with a lost move; "
            f"latency ms p50 {statistics.median(lat) if lat else 0:.1f}, "
            f"p95 {pct(0.95):.1f}, p99 {pct(0.99):.1f}, max {lat[-1] if lat else 0:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--url", help="a running server (default: start one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = None
        url = args.url
        if url is None:
            server, url = start_server(folder)
        try:
            tally = asyncio.run(run(url, args.players, args.seconds))
        finally:
            if server is not None:
                server.terminate()
                server.wait()
    print(report(tally, args.players, args.seconds))
    for line in (tally.errors + tally.lost)[:10]:
        print("  " + line)
    sys.exit(1 if tally.errors or tally.lost else 0)


if __name__ == "__main__":
    main()
