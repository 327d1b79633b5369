"""Play speed, server side: an edit with the candidates worked out again, an edit with the
forced values filled in (the live solver), a hint, and the game page's first paint from a
cold server.

Edits: on generated puzzles of each shape (seeds 1..--games, level 3), every empty cell in
turn gets its solution value; each edit is timed with what the server does for it (the
action, then the board's record: values, candidates, conflicts), without HTTP. Hints: the
first hint (tier 1) at every tenth position along the way. First paint: a server process
is started, Debian's Chromium opens the page as soon as the server listens, and the
browser's own first-contentful-paint time is added to the time the server took to start.

    python bench/play.py [--games 5] [--no-browser]

About a minute on 2 cores.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from numberplace import by_name
from numberplace.game import Session
from numberplace.generate import generate
from numberplace.store.serialize import game_record

SHAPES = ("9x9", "16x16", "samurai")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def edits(shape_name: str, games: int, auto_fill: bool) -> tuple[list[float], list[float]]:
    """Milliseconds of each edit (action and record), and of each timed hint."""
    edit_ms: list[float] = []
    hint_ms: list[float] = []
    for seed in range(1, games + 1):
        made = generate(by_name(shape_name), level=3, seed=seed, time_limit=120)
        session = Session(made.puzzle)
        session.set_auto_fill(auto_fill)
        solution = made.solution
        empty = [c for c, v in enumerate(made.puzzle.givens) if not v]
        for k, cell in enumerate(empty):
            if session.values()[cell]:
                continue  # filled as forced
            if k % 10 == 0:
                start = time.perf_counter()
                session.hint(1)
                hint_ms.append((time.perf_counter() - start) * 1e3)
            start = time.perf_counter()
            session.enter(cell, solution[cell])
            game_record(session)
            edit_ms.append((time.perf_counter() - start) * 1e3)
    return edit_ms, hint_ms


def first_paint() -> tuple[float, float] | None:
    """(seconds for the server to listen, seconds to the page's first contentful paint)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        print("skipped first paint: Debian's chromium is not installed", file=sys.stderr)
        return None
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        server = subprocess.Popen([sys.executable, "-m", "numberplace", "serve", "--port",
                                   "0", "--db", str(Path(folder) / "g.db")],
                                  stderr=subprocess.PIPE, text=True)
        try:
            line = server.stderr.readline() if server.stderr else ""
            listening = time.perf_counter() - start
            url = line.split(" at ")[1].split(" ")[0]
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=[
                    "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--no-first-run"])
                page = browser.new_page()
                page.goto(url)
                page.wait_for_selector(".cell")
                paint = page.evaluate(
                    "performance.getEntriesByName('first-contentful-paint')[0].startTime")
                browser.close()
        finally:
            server.terminate()
            server.wait()
    return listening, paint / 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games per shape (default 5)")
    parser.add_argument("--no-browser", action="store_true", help="skip the first paint")
    args = parser.parse_args()
    table = Table(title="numberplace play, server side (ms)")
    for col in ("shape", "edits", "edit p50", "edit p95", "edit + forced p95", "hints",
                "hint median"):
        table.add_column(col, justify="left" if col == "shape" else "right")
    for shape in SHAPES:
        plain, hints = edits(shape, args.games, auto_fill=False)
        forced, _ = edits(shape, args.games, auto_fill=True)
        table.add_row(shape, f"{len(plain):,}", f"{statistics.median(plain):.2f}",
                      f"{percentile(plain, 0.95):.2f}", f"{percentile(forced, 0.95):.2f}",
                      f"{len(hints):,}", f"{statistics.median(hints):.1f}")
    console = Console(width=120)
    console.print(table)
    if not args.no_browser:
        found = first_paint()
        if found:
            console.print(f"cold server: listening after {found[0]:.2f} s, first contentful "
                          f"paint {found[1]:.2f} s after the page was asked for "
                          f"({sum(found):.2f} s in all)")


if __name__ == "__main__":
    main()
