"""End to end in a real browser: a person's whole game on 9x9, shorter games on Samurai,
16x16 and jigsaw, the live solver page, sharing by link and dark mode; axe-core finds no
serious or critical accessibility fault on any of them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from browser import cell, page, serious_violations, shot, site  # noqa: F401  # fixtures

from numberplace import Puzzle, solve

from conftest import BOOK_PUZZLES

BOOK = BOOK_PUZZLES[0]
SOLUTION = solve(BOOK).solution
GIVENS = Puzzle.from_string(BOOK).givens
FIENDISH = "....9..8..47..8......4579..5....4.96...8......26..5....68....3..32.....8......16."


def value_in(page: Any, i: int) -> str:
    return cell(page, i).locator(".value").inner_text() if cell(page, i).locator(".value").count() \
        else ""


def message(page: Any) -> str:
    return page.locator("#message").inner_text()


def no_serious_faults(page: Any) -> None:
    assert serious_violations(page) == []


def test_a_whole_game_on_9x9(site: tuple[str, Any], page: Any) -> None:
    base, _ = site
    assert SOLUTION is not None
    page.goto(f"{base}/#p={BOOK}&shape=9x9")
    page.wait_for_function("document.querySelectorAll('.cell').length === 81")
    page.wait_for_url(re.compile(r"#game="))
    shot(page, "9x9-1-new")
    no_serious_faults(page)
    empty = [i for i, v in enumerate(GIVENS) if not v]

    # a digit by keyboard, into the selected cell
    cell(page, empty[0]).click()
    page.keyboard.press(str(SOLUTION[empty[0]]))
    page.wait_for_function(f"document.querySelector('[data-cell=\"{empty[0]}\"] .value')")
    # a digit by mouse, digit first: arm the digit, then click the cell
    page.keyboard.press("Escape")
    page.locator(f'#pad button[data-value="{SOLUTION[empty[1]]}"]').click()
    cell(page, empty[1]).click()
    page.wait_for_function(f"document.querySelector('[data-cell=\"{empty[1]}\"] .value')")
    assert value_in(page, empty[1]) == str(SOLUTION[empty[1]])
    page.locator(f'#pad button[data-value="{SOLUTION[empty[1]]}"]').click()  # disarm

    # corner and centre marks
    target = empty[2]
    cell(page, target).click()
    for key in ("x", "1", "2", "c", "4", "z"):
        page.keyboard.press(key)
    page.wait_for_function(f"document.querySelector('[data-cell=\"{target}\"] .centre')")
    assert cell(page, target).locator(".corner span").all_inner_texts() == ["1", "2"]
    assert cell(page, target).locator(".centre").inner_text() == "4"
    shot(page, "9x9-2-marks")

    # undo and redo, by keyboard
    page.keyboard.press("Control+z")
    page.wait_for_function(f"!document.querySelector('[data-cell=\"{target}\"] .centre')")
    page.keyboard.press("Control+y")
    page.wait_for_function(f"document.querySelector('[data-cell=\"{target}\"] .centre')")

    # a digit that repeats one of its row is refused, the clash named
    clash_cell = next(i for i in empty if i < 9 and i not in empty[:2])
    cell(page, clash_cell).click()
    page.keyboard.press("9")  # the given 9 of row 1 is at (3,1)
    page.wait_for_function("document.getElementById('message').textContent.includes('9 is "
                           "already in row 1')")
    assert message(page) == "9 is already in row 1, at (3,1)"
    assert value_in(page, clash_cell) == ""

    # hints, tier by tier, drawn on the board
    page.click("#hint")
    page.wait_for_function("document.getElementById('message').textContent.startsWith('Hint 1/3')")
    page.click("#hint")
    page.wait_for_function("document.getElementById('message').textContent.startsWith('Hint 2/3')")
    assert page.locator(".cell.hinted").count() >= 1
    page.click("#hint")
    page.wait_for_function("document.getElementById('message').textContent.startsWith('Hint 3/3')")
    assert page.locator(".cands span.placed, .cands span.removed").count() >= 1
    shot(page, "9x9-3-hint")

    # one value by the step button, drawn in its own colour
    page.click("#step")
    page.wait_for_selector(".cell.by-step")
    assert " by " in message(page)

    # save the game
    with page.expect_download() as saving:
        page.click("#save-session")
    saved = json.loads(Path(saving.value.path()).read_text())
    assert saved["format"] == "numberplace-session"

    # reload: the game comes back as it was
    filled = page.evaluate("[...document.querySelectorAll('.cell .value')].length")
    page.reload()
    page.wait_for_function("document.querySelectorAll('.cell').length === 81")
    page.wait_for_function(f"document.querySelectorAll('.cell .value').length === {filled}")

    # finish by keyboard
    for i in empty:
        if value_in(page, i):
            continue
        cell(page, i).click()
        page.keyboard.press(str(SOLUTION[i]))
        page.wait_for_function(f"document.querySelector('[data-cell=\"{i}\"] .value')")
    page.wait_for_function("document.getElementById('message').textContent.startsWith('Solved in')")
    shown = page.locator("#timer").inner_text()
    page.wait_for_timeout(1500)
    assert page.locator("#timer").inner_text() == shown  # the clock stopped
    shot(page, "9x9-4-solved")
    no_serious_faults(page)


@pytest.mark.parametrize(("shape", "cells"), [("samurai", 369), ("16x16", 256),
                                               ("jigsaw", 81)])
def test_a_shorter_game(site: tuple[str, Any], page: Any, shape: str, cells: int) -> None:
    base, _ = site
    page.goto(f"{base}/")
    page.wait_for_selector(".cell")
    page.click("#new-game")
    page.wait_for_selector("#new-shape option", state="attached")
    page.select_option("#new-shape", shape)
    page.select_option("#new-level", "1")
    before = page.evaluate("location.href")
    page.click("#new-start")
    # the new game's link replaces the old one (a jigsaw has as many cells as the 9x9
    # shown before it, so the count alone would not tell that it has come)
    page.wait_for_function("(old) => location.href !== old", arg=before, timeout=60_000)
    page.wait_for_function(f"document.querySelectorAll('.cell').length === {cells}",
                           timeout=60_000)
    page.click("#hint")
    page.wait_for_function("document.getElementById('message').textContent.startsWith('Hint 1/3')")
    page.click("#step")
    page.wait_for_selector(".cell.by-step")
    # a candidate typed in: it may be wrong, so it is taken back
    page.check("#show-candidates")
    first = page.locator(".cell:has(.cands)").first
    candidate = first.locator(".cands span:not(:empty)").first.inner_text()
    index = int(first.get_attribute("data-cell"))
    first.click()
    page.keyboard.press(candidate.lower())
    page.wait_for_function(f"document.querySelector('[data-cell=\"{index}\"] .value')")
    page.click("#undo")
    page.wait_for_function(f"!document.querySelector('[data-cell=\"{index}\"] .value')")
    shot(page, f"{shape}-game")
    no_serious_faults(page)


def test_the_live_solver_page(site: tuple[str, Any], page: Any) -> None:
    base, _ = site
    page.goto(f"{base}/live")
    page.wait_for_function("document.querySelectorAll('.cell').length === 81")
    no_serious_faults(page)
    page.locator(".cell").first.click()
    for key in FIENDISH:
        page.keyboard.press(key)
    page.wait_for_function(
        "document.getElementById('verdict').textContent.includes('one solution')")
    page.wait_for_selector(".cell.forced")
    assert page.locator(".cands span.row, .cands span.column").count() >= 1
    shot(page, "live-solver")
    page.locator(".cell").nth(1).click()
    page.keyboard.press("4")  # the 4 of r2c2 would repeat in box 1
    page.wait_for_function("document.getElementById('verdict').textContent.includes('clash')")
    no_serious_faults(page)


def test_share_by_link_with_progress(site: tuple[str, Any], page: Any) -> None:
    base, browser = site
    assert SOLUTION is not None
    page.goto(f"{base}/#p={quote(BOOK)}&shape=9x9")
    page.wait_for_function("document.querySelectorAll('.cell').length === 81")
    cell(page, 0).click()
    page.keyboard.press(str(SOLUTION[0]))
    page.wait_for_function("document.querySelector('[data-cell=\"0\"] .value')")
    page.click("#share")
    page.wait_for_function("document.getElementById('message').textContent.includes('#p=')")
    link = re.search(r"(http\S+)", message(page))
    assert link is not None
    other = browser.new_context().new_page()
    other.goto(link.group(1))
    other.wait_for_function("document.querySelector('[data-cell=\"0\"] .value')")
    assert other.locator('[data-cell="0"] .value').inner_text() == str(SOLUTION[0])
    assert other.locator('[data-cell="2"] .value').inner_text() == "9"  # a given
    other.context.close()


def test_dark_mode(site: tuple[str, Any], page: Any) -> None:
    base, _ = site
    page.goto(f"{base}/#p={BOOK}&shape=9x9")
    page.wait_for_selector(".cell")
    page.click("#theme")
    assert page.evaluate("document.documentElement.classList.contains('dark')")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(21, 24, 28)"
    shot(page, "9x9-dark")
    no_serious_faults(page)
    page.reload()  # the choice is kept
    page.wait_for_selector(".cell")
    assert page.evaluate("document.documentElement.classList.contains('dark')")


def test_a_phone_screen(site: tuple[str, Any]) -> None:
    base, browser = site
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                is_mobile=True)
    page = phone.new_page()
    page.goto(f"{base}/#p={BOOK}&shape=9x9")
    page.wait_for_function("document.querySelectorAll('.cell').length === 81")
    width = page.evaluate("document.getElementById('board').getBoundingClientRect().width")
    assert width <= 390
    page.locator('.cell[data-cell="0"]').tap()
    page.locator(f'#pad button[data-value="{SOLUTION[0]}"]').tap()
    page.wait_for_function("document.querySelector('[data-cell=\"0\"] .value')")
    shot(page, "9x9-phone")
    phone.close()
