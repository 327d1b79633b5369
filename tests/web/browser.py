"""A real server and a real browser for end-to-end tests: the app served by uvicorn in a
thread, Debian's Chromium driven by Playwright (never a downloaded browser), axe-core from
npm for accessibility, screenshots kept under artifacts/screenshots."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
AXE = ROOT / ".ci" / "node" / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ROOT / "artifacts" / "screenshots"
#: Chromium in a closed sandbox: no first-run pages, no calls home.
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _missing(why: str) -> None:
    """Skip, saying why; fail where the end-to-end tests must run (.ci/run says so)."""
    if os.environ.get("NUMBERPLACE_E2E") == "required":
        pytest.fail(why)
    pytest.skip(why)


def need_browser() -> None:
    """Chromium, Playwright and axe-core, or a skip that says which is missing."""
    if not Path(CHROMIUM).exists():
        _missing("Debian's chromium is not installed (apt-get install chromium); "
                 ".ci/run installs it")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[test]')")
    if not AXE.exists():
        _missing(f"axe-core is missing at {AXE.relative_to(ROOT)}; .ci/run installs it "
                 "with npm")


@contextmanager
def served(db: Path, port: int = 0) -> Iterator[str]:
    """The web app on 127.0.0.1 (a free port unless ``port``), for the block; its
    address. The server stops at the end of the block, as a stopped server would."""
    import uvicorn

    from numberplace.web import GameStore, create_app
    from numberplace.web.server import listening_socket

    sock = listening_socket("127.0.0.1", port)
    server = uvicorn.Server(uvicorn.Config(create_app(GameStore(db)), log_level="warning",
                                           timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium browser."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def shot(page: Any, name: str) -> None:
    """Keep a screenshot of the page as a test artifact."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def violations(page: Any, impacts: tuple[str, ...] | None = None) -> list[str]:
    """axe-core's findings on the page (those of the given impacts, or all), one line
    each."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run()).violations.map(v => "
                          "({id: v.id, impact: v.impact, help: v.help, "
                          "nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in found
            if impacts is None or v["impact"] in impacts]


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page, one line each."""
    return violations(page, ("serious", "critical"))


def cell(page: Any, i: int) -> Any:
    """The board's cell i."""
    return page.locator(f'.cell[data-cell="{i}"]')


# -- fixtures (a test module imports them by name) ----------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """The app served on a fresh games database, and the browser: (base URL, browser)."""
    need_browser()
    with served(tmp_path_factory.mktemp("web") / "games.db") as base, chromium() as browser:
        yield base, browser


#: The screens the tests play on: a laptop, and two phones held upright.
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 3}
SMALL_PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True,
               "device_scale_factor": 2}


@contextmanager
def fresh_page(browser: Any, screen: dict[str, Any] | None = None, *, csp: bool = False,
               **options: Any) -> Iterator[Any]:
    """A page in a fresh profile (no storage, no service worker from before) on a screen;
    the block fails on any script error on it. The page's Content-Security-Policy holds
    only with ``csp``: the tests' own waits (``wait_for_function``) are scripts given as
    text, which the policy refuses, as it should."""
    context = browser.new_context(**{**LAPTOP, **(screen or {}), "accept_downloads": True,
                                     "bypass_csp": not csp, **options})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the page must keep to its own Content-Security-Policy: a refused script, style or
    # request is a console error, not a page error
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and "Content Security Policy" in m.text else None)
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


@pytest.fixture
def page(site: tuple[str, Any]) -> Iterator[Any]:
    """A fresh page on a laptop screen; the test fails on any script error on it."""
    _, browser = site
    with fresh_page(browser) as fresh:
        yield fresh


def game_record(page: Any) -> dict[str, Any]:
    """The server's record of the game the page shows."""
    page.wait_for_function("location.hash.startsWith('#game=')")
    record: dict[str, Any] = page.evaluate(
        "async () => (await fetch('/api/games/' + location.hash.slice(6))).json()")
    return record


def wait_message(page: Any, start: str, timeout: float = 30_000) -> None:
    """Wait until the message line starts with ``start``."""
    page.wait_for_function("(s) => document.getElementById('message').textContent"
                           ".startsWith(s)", arg=start, timeout=timeout)


def message(page: Any) -> str:
    """The message line's text."""
    text: str = page.locator("#message").inner_text()
    return text


def menu(page: Any, item: str) -> None:
    """Choose an item of the menu (opened from the top bar)."""
    page.click("#menu-button")
    page.click(f"#{item}")


def new_game(page: Any, shape: str | None = None) -> dict[str, Any]:
    """A new game from the dialog, everything at its default but ``shape`` when given;
    the server's record of it."""
    page.wait_for_selector(".cell")
    before = page.evaluate("location.href")
    page.click("#new-game")
    page.wait_for_selector("#new-dialog[open]")
    if shape is not None:
        page.select_option("#new-shape", shape)
    page.click("#new-start")
    page.wait_for_function("(old) => location.href !== old", arg=before, timeout=60_000)
    page.wait_for_selector("#new-dialog", state="hidden")
    return game_record(page)


def value_in(page: Any, i: int) -> str:
    """The value cell i shows ("" for none)."""
    found = cell(page, i).locator(".value")
    return str(found.inner_text()) if found.count() else ""


def wait_value(page: Any, i: int, symbol: str) -> None:
    """Wait until cell i shows ``symbol``."""
    page.wait_for_function("([i, s]) => document.querySelector(`[data-cell=\"${i}\"] .value`)"
                           "?.textContent === s", arg=[i, symbol])
