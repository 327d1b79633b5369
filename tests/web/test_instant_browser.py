"""The page answers at once and does without the server: a key paints its digit in under
50 ms when every answer of the server takes 200 ms more, and a started game plays on with
the server stopped (the page reloaded too), its moves saved when the server is back."""

from __future__ import annotations

import asyncio
import statistics
from pathlib import Path
from typing import Any

import pytest
from browser import (
    ARGS,
    CHROMIUM,
    LAPTOP,
    cell,
    fresh_page,
    game_record,
    need_browser,
    served,
    shot,
    value_in,
)

from numberplace import solve
from numberplace.web import GameStore

from conftest import BOOK_PUZZLES

BOOK = BOOK_PUZZLES[1]
SOLUTION = solve(BOOK).solution
assert SOLUTION is not None
EMPTY = [i for i, ch in enumerate(BOOK) if ch == "."]
KEYS = 50
#: In the page: every move it made has reached the server.
OUTBOX_EMPTY = ("(() => { const box = localStorage.getItem('numberplace-outbox:' + "
                "location.hash.slice(6)); return !box || JSON.parse(box).length === 0; })()")
DELAY = 0.2  # seconds added to every answer of the server

#: In the page: for every key pressed, the time from the key's event to the first frame
#: painted after the cell shows its digit (a rAF callback runs just before a frame's paint;
#: a task queued from it runs after that paint).
PROBE = """() => {
  window.latencies = [];
  document.addEventListener('keydown', (event) => {
    if (!/^[1-9]$/.test(event.key)) return;
    const start = event.timeStamp;
    const target = document.querySelector('.cell.selected');
    requestAnimationFrame(() => {
      const shown = target?.querySelector('.value')?.textContent === event.key;
      setTimeout(() => window.latencies.push(shown ? performance.now() - start : Infinity), 0);
    });
  }, true);
}"""


async def _latencies(base: str) -> list[float]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        # no service worker: the route below must see every request the page makes
        # the test's waits are scripts given as text, which the page's policy refuses
        context = await browser.new_context(**LAPTOP, service_workers="block", bypass_csp=True)
        page = await context.new_page()

        async def slow(route: Any) -> None:
            await asyncio.sleep(DELAY)
            await route.continue_()

        await page.route("**/api/**", slow)
        await page.goto(f"{base}/#p={BOOK}&shape=9x9")
        await page.wait_for_function("location.hash.startsWith('#game=')")
        await page.evaluate(PROBE)
        for k in range(KEYS):
            i = EMPTY[k % len(EMPTY)]
            await page.locator(f'.cell[data-cell="{i}"]').click()
            if k >= len(EMPTY):
                await page.keyboard.press("Backspace")
            await page.keyboard.press(str(SOLUTION[i]))
            await page.wait_for_function(f"window.latencies.length === {k + 1}")
        found: list[float] = await page.evaluate("window.latencies")
        # the server has every move in the end
        await page.wait_for_function(OUTBOX_EMPTY, timeout=60_000)
        record = await page.evaluate("async () => (await fetch('/api/games/' + "
                                     "location.hash.slice(6))).json()")
        await browser.close()
    assert all(record["values"][i] == SOLUTION[i] for i in EMPTY)
    return found


@pytest.mark.slow
def test_a_key_paints_its_digit_at_once_when_the_server_is_slow(
        tmp_path: Path, record_property: Any) -> None:
    need_browser()
    with served(tmp_path / "games.db") as base:
        found = asyncio.run(_latencies(base))
    assert len(found) == KEYS and all(t != float("inf") for t in found)
    median = statistics.median(found)
    record_property("median key-to-paint (ms)", round(median, 1))
    print(f"key-to-paint over {KEYS} keys with {DELAY * 1000:.0f} ms added to every answer: "
          f"median {median:.1f} ms, max {max(found):.1f} ms")
    assert median < 50


@pytest.mark.slow
def test_a_started_game_plays_on_with_the_server_stopped(tmp_path: Path) -> None:
    need_browser()
    from playwright.sync_api import sync_playwright

    db = tmp_path / "games.db"
    before, later = EMPTY[:5], EMPTY[5:12]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        with fresh_page(browser) as page:
            with served(db) as base:
                port = int(base.rsplit(":", 1)[1])
                page.goto(f"{base}/#p={BOOK}&shape=9x9")
                game_id = game_record(page)["id"]
                page.evaluate("navigator.serviceWorker.ready.then(() => true)")
                page.wait_for_function("navigator.serviceWorker.controller !== null")
                for i in before:
                    cell(page, i).click()
                    page.keyboard.press(str(SOLUTION[i]))
                page.wait_for_function(OUTBOX_EMPTY)
            # the server is stopped: moves are taken, drawn and kept
            for i in later[:4]:
                cell(page, i).click()
                page.keyboard.press(str(SOLUTION[i]))
                assert value_in(page, i) == str(SOLUTION[i])
            page.wait_for_selector("#line-state:not([hidden])")
            shot(page, "offline-1-moves-kept")
            # a reload with the server away: the app and the game come from the browser
            page.reload()
            page.wait_for_function(f"document.querySelectorAll('.cell .value').length === "
                                   f"{81 - len(EMPTY) + len(before) + 4}")
            for i in later[4:]:
                cell(page, i).click()
                page.keyboard.press(str(SOLUTION[i]))
                assert value_in(page, i) == str(SOLUTION[i])
            shot(page, "offline-2-reloaded")
            assert GameStore(db).load(game_id)["layers"]["value"][later[0]] == 0
            # the server is back: the moves go out in order, each once
            with served(db, port):
                page.wait_for_function(OUTBOX_EMPTY, timeout=30_000)
                page.wait_for_selector("#line-state", state="hidden")
                shot(page, "offline-3-back")
                record = game_record(page)
        browser.close()
    saved = GameStore(db).load(game_id)
    assert all(saved["layers"]["value"][i] == SOLUTION[i] for i in before + later)
    assert all(record["values"][i] == SOLUTION[i] for i in before + later)
    entered = [m for m in record["history"]["undo"] if m["kind"] == "enter"]
    assert len(entered) == len(before) + len(later)  # none applied twice


def test_the_app_is_installable(tmp_path: Path) -> None:
    need_browser()
    from playwright.sync_api import sync_playwright

    with served(tmp_path / "games.db") as base, sync_playwright() as playwright:
        # a profile of its own: a private window's app is never installable
        # bypass_csp: the test's own waits are scripts given as text, which the page's
        # policy refuses (as it should)
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, bypass_csp=True,
            **LAPTOP)
        page = context.new_page()
        page.goto(f"{base}/")
        game_record(page)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        context.close()
    assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
    assert errors == []
