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
def served(db: Path) -> Iterator[str]:
    """The web app on a free port of 127.0.0.1, for the block; its address."""
    import uvicorn

    from numberplace.web import GameStore, create_app
    from numberplace.web.server import listening_socket

    sock = listening_socket("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(GameStore(db)), log_level="warning"))
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


@pytest.fixture
def page(site: tuple[str, Any]) -> Iterator[Any]:
    """A fresh page (its own context); the test fails on any script error on it."""
    _, browser = site
    context = browser.new_context(viewport={"width": 1200, "height": 900}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors
