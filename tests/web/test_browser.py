"""End to end in a real browser, as a person meets the app: a fresh profile and the
defaults untouched; whole games by touch on phones and by keyboard on a laptop; a 16x16
with corner and centre marks; a Killer's candidates; pause; puzzles that cannot be solved;
the project's own examples opened through "Your puzzle"; sharing; the live solver; every
shape drawn; no layout shift; and axe-core finding no accessibility fault of any impact."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from browser import (  # noqa: F401  # site: a fixture
    PHONE,
    SMALL_PHONE,
    cell,
    fresh_page,
    game_record,
    menu,
    message,
    new_game,
    shot,
    site,
    value_in,
    violations,
    wait_message,
    wait_value,
)

from numberplace import formats, solve

from conftest import BOOK_PUZZLES

ROOT = Path(__file__).resolve().parents[2]
BOOK = BOOK_PUZZLES[0]
FIENDISH = "....9..8..47..8......4579..5....4.96...8......26..5....68....3..32.....8......16."


def solution_of(record: dict[str, Any]) -> tuple[int, ...]:
    """The solution of the game a record shows, found by the library."""
    share = record["share"]
    puzzle = formats.parse(share["text"], shape=share["shape"], alphabet=share["alphabet"])
    found = solve(puzzle).solution
    assert found is not None
    return found


def empty_cells(record: dict[str, Any]) -> list[int]:
    return [i for i, v in enumerate(record["givens"]) if not v]


def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.locator(selector).first.bounding_box()
    return found


def inside_viewport(page: Any, selector: str) -> list[str]:
    """The elements matched that do not lie wholly inside the viewport, one line each."""
    out: list[str] = page.evaluate("""(sel) => [...document.querySelectorAll(sel)]
        .filter((e) => e.offsetParent !== null)
        .map((e) => [e, e.getBoundingClientRect()])
        .filter(([, r]) => r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5
                           || r.bottom > innerHeight + 0.5)
        .map(([e, r]) => `${e.id || e.dataset.value || e.dataset.mode || e.className}: ` +
                         `${Math.round(r.left)},${Math.round(r.top)} ` +
                         `${Math.round(r.right)}x${Math.round(r.bottom)}`)""", selector)
    return out


def small_targets(page: Any) -> list[str]:
    """Visible buttons and links of the page's frame smaller than 44 px either way."""
    out: list[str] = page.evaluate("""() => [...document.querySelectorAll(
            '.topbar button, .gamebar button, .controls button')]
        .filter((e) => e.offsetParent !== null)
        .map((e) => [e, e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44)
        .map(([e, r]) => `${e.id || e.textContent}: ${r.width}x${r.height}`)""")
    return out


def fits_without_scrolling(page: Any) -> None:
    """The whole board and every key of the keypad lie inside the viewport, and the page
    has nothing to scroll to."""
    assert inside_viewport(page, ".board-wrap, #pad button, #modes button, .edit-row button, "
                                 "#hint") == []
    assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight + 1")
    assert page.evaluate("scrollY") == 0


def no_faults(page: Any) -> None:
    assert violations(page) == []


def focus_cell(page: Any) -> int:
    return int(page.evaluate("document.querySelector('.cell[tabindex=\"0\"]').dataset.cell"))


def go_to(page: Any, record: dict[str, Any], target: int) -> None:
    """Move the selection to ``target`` with the arrow keys."""
    coords = record["shape"]["cells"]
    here = focus_cell(page)
    (r0, c0), (r1, c1) = coords[here], coords[target]
    if here == target:  # select it: a step away and back
        away = "ArrowLeft" if c0 > 0 else "ArrowRight"
        back = "ArrowRight" if away == "ArrowLeft" else "ArrowLeft"
        page.keyboard.press(away)
        page.keyboard.press(back)
    for _ in range(abs(r1 - r0)):
        page.keyboard.press("ArrowDown" if r1 > r0 else "ArrowUp")
    for _ in range(abs(c1 - c0)):
        page.keyboard.press("ArrowRight" if c1 > c0 else "ArrowLeft")
    assert focus_cell(page) == target


def confirmed(page: Any) -> dict[str, Any]:
    """The server's record once every move the page made has reached it."""
    page.wait_for_function("(() => { const id = location.hash.slice(6); "
                           "const box = localStorage.getItem('numberplace-outbox:' + id); "
                           "return !box || JSON.parse(box).length === 0; })()", timeout=20_000)
    return game_record(page)


# -- the first run -------------------------------------------------------------------------


@pytest.mark.slow
def test_first_run_every_dialog_works_at_its_defaults(site: tuple[str, Any]) -> None:
    base, browser = site
    with fresh_page(browser) as page:
        page.goto(f"{base}/")
        first = game_record(page)  # a game is there at once
        assert first["meta"]["label"] == "9x9" and first["meta"]["level"] == 1
        # New game, then Start with nothing chosen
        made = new_game(page)
        assert made["id"] != first["id"]
        assert made["meta"] == {"label": "9x9", "level": 1, "daily": None}
        assert "unknown" not in message(page)
        # the shape and level asked for last are the next defaults
        page.click("#new-game")
        assert page.locator("#new-shape").input_value() == "9x9"
        assert page.locator("#new-level").input_value() == "1"
        page.select_option("#new-shape", "6x6")
        page.select_option("#new-level", "2")
        page.click("#new-start")
        page.wait_for_function("document.querySelectorAll('.cell').length === 36")
        page.click("#new-game")
        assert page.locator("#new-shape").input_value() == "6x6"
        assert page.locator("#new-level").input_value() == "2"
        page.keyboard.press("Escape")
        # Your puzzle with nothing pasted: said in the dialog, which stays open
        menu(page, "open-own")
        page.click("#own-start")
        assert page.locator("#own-error").inner_text().startswith("Paste a puzzle")
        assert page.locator("#own-dialog[open]").count() == 1
        page.keyboard.press("Escape")
        # Settings open on their defaults
        menu(page, "settings")
        assert page.locator('input[name="notation"][value="rc"]').is_checked()
        assert page.locator('input[name="theme"][value="system"]').is_checked()
        assert not page.locator('input[name="showMistakes"]').is_checked()
        assert page.locator('input[name="showTimer"]').is_checked()
        shot(page, "dialog-settings")
        no_faults(page)
        page.click("#settings-close")
        # the daily puzzle: today's, in the page's own calendar
        page.click("#daily")
        today = page.evaluate("(() => { const d = new Date(); return d.getFullYear() + '-' + "
                              "String(d.getMonth() + 1).padStart(2, '0') + '-' + "
                              "String(d.getDate()).padStart(2, '0'); })()")
        page.wait_for_function("(d) => document.getElementById('shape-name').textContent"
                               ".includes(d)", arg=today, timeout=60_000)
        daily = game_record(page)
        assert daily["meta"]["daily"] == today
        # My games lists the four games and the statistics
        menu(page, "my-games")
        page.wait_for_selector("#games-list button")
        assert page.locator("#games-list button").count() == 4
        assert page.locator("#stats-table tbody tr").count() >= 2
        shot(page, "dialog-games")
        no_faults(page)
        page.keyboard.press("Escape")
        # a new visit opens the game left last
        page.goto(f"{base}/")
        assert game_record(page)["id"] == daily["id"]


# -- whole games ---------------------------------------------------------------------------


def touch_drag(page: Any, cells: list[int]) -> None:
    """A finger drawn across the cells, as a touch screen sends it."""
    cdp = page.context.new_cdp_session(page)
    points = []
    for i in cells:
        b = cell(page, i).bounding_box()
        points.append({"x": b["x"] + b["width"] / 2, "y": b["y"] + b["height"] / 2})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [points[0]]})
    for here, there in zip(points, points[1:], strict=False):
        for k in range(1, 5):  # at a finger's pace, in short steps
            step = {axis: here[axis] + (there[axis] - here[axis]) * k / 4 for axis in "xy"}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [step]})
            page.wait_for_timeout(30)
    page.wait_for_timeout(150)  # the finger rests before it lifts, as it does
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.mark.slow
@pytest.mark.parametrize("screen", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
def test_a_whole_9x9_game_by_touch_on_a_phone(site: tuple[str, Any],
                                              screen: dict[str, Any]) -> None:
    base, browser = site
    size = f"{screen['viewport']['width']}x{screen['viewport']['height']}"
    with fresh_page(browser, screen) as page:
        page.goto(f"{base}/")
        page.wait_for_selector(".cell")
        before = page.evaluate("location.href")
        page.locator("#new-game").tap()
        page.locator("#new-start").tap()
        page.wait_for_function("(old) => location.href !== old", arg=before)
        game = game_record(page)
        fits_without_scrolling(page)
        assert small_targets(page) == []
        assert page.locator(".keyboard-only").first.is_hidden()  # no keyboard help on touch
        shot(page, f"phone-{size}-1-new")
        no_faults(page)
        solution = solution_of(game)
        empty = empty_cells(game)

        # a finger drawn over three cells of a row selects them; centre marks go in the
        # empty ones
        start = next(r * 9 + c for r in range(9) for c in range(7)
                     if sum(r * 9 + c + k in empty for k in range(3)) >= 2)
        three = [start, start + 1, start + 2]
        touch_drag(page, three)
        assert page.evaluate("[...document.querySelectorAll('.cell.selected')]"
                             ".map((c) => +c.dataset.cell)") == three
        page.locator('#modes [data-mode="centre"]').tap()
        page.locator('#pad button[data-value="1"]').tap()
        page.locator('#pad button[data-value="2"]').tap()
        marked = [i for i in three if i in empty]
        for i in marked:
            assert cell(page, i).locator(".centre").inner_text() == "12"
        page.locator("#undo").tap()
        page.locator("#undo").tap()
        page.locator('#modes [data-mode="normal"]').tap()
        assert cell(page, marked[0]).locator(".centre").count() == 0
        shot(page, f"phone-{size}-2-marks")

        # every value by a tap on its cell, then on its digit: shown at once
        for i in empty:
            cell(page, i).tap()
            page.locator(f'#pad button[data-value="{solution[i]}"]').tap()
            assert value_in(page, i) == str(solution[i])
        wait_message(page, "Solved in")
        fits_without_scrolling(page)
        shot(page, f"phone-{size}-3-solved")
        assert confirmed(page)["solved"]


@pytest.mark.slow
def test_a_whole_9x9_game_by_keyboard_on_a_laptop(site: tuple[str, Any]) -> None:
    base, browser = site
    with fresh_page(browser) as page:
        page.goto(f"{base}/")
        page.wait_for_selector(".cell")
        # a new game by keyboard: the dialog's Start has the focus
        before = page.evaluate("location.href")
        page.focus("#new-game")
        page.keyboard.press("Enter")
        page.wait_for_selector("#new-dialog[open]")
        page.keyboard.press("Enter")
        page.wait_for_function("(old) => location.href !== old", arg=before)
        game = game_record(page)
        fits_without_scrolling(page)
        shot(page, "laptop-1-new")
        no_faults(page)
        solution = solution_of(game)
        empty = empty_cells(game)
        symbols = game["symbols"]

        # a refused repeat, named in r1c1 notation; the value is not placed
        row_given = next(c for c in range(9) if game["givens"][c])
        target = next(i for i in empty if i < 9)
        go_to(page, game, target)
        page.keyboard.press(str(game["givens"][row_given]))
        assert message(page) == (f"{game['givens'][row_given]} is already in row 1, at "
                                 f"r1c{row_given + 1}")
        assert value_in(page, target) == ""

        # corner marks with Shift, a centre mark with Ctrl, whatever the mode
        page.keyboard.press("Shift+1")
        page.keyboard.press("Shift+3")
        page.keyboard.press("Control+5")
        assert cell(page, target).locator(".corner span").all_inner_texts() == ["1", "3"]
        assert cell(page, target).locator(".centre").inner_text() == "5"
        page.keyboard.press("Control+z")
        assert cell(page, target).locator(".centre").count() == 0
        page.keyboard.press("Control+y")
        assert cell(page, target).locator(".centre").inner_text() == "5"
        shot(page, "laptop-2-marks")

        # hints, tier by tier, drawn on the board
        for tier in (1, 2, 3):
            page.click("#hint")
            wait_message(page, f"Hint {tier}/3")
        assert page.locator(".cands span.placed, .cands span.removed").count() >= 1
        shot(page, "laptop-3-hint")
        no_faults(page)

        # the whole grid by the arrow keys and the digits
        for i in empty:
            go_to(page, game, i)
            page.keyboard.press(symbols[solution[i] - 1])
            assert value_in(page, i) == symbols[solution[i] - 1]
        wait_message(page, "Solved in")
        shown = page.locator("#timer").inner_text()
        page.wait_for_timeout(1300)
        assert page.locator("#timer").inner_text() == shown  # the clock stopped
        shot(page, "laptop-4-solved")
        record = confirmed(page)
        assert record["solved"] and not record["timer"]["running"]


def test_a_16x16_game_with_corner_and_centre_marks_by_keyboard(site: tuple[str, Any]) -> None:
    base, browser = site
    with fresh_page(browser) as page:
        page.goto(f"{base}/")
        game = new_game(page, "16x16")
        assert page.locator(".cell").count() == 256
        assert page.locator("#pad button").count() == 16
        fits_without_scrolling(page)
        solution = solution_of(game)
        empty = empty_cells(game)
        target = focus_cell(page)
        assert target == empty[0]
        # Shift gives corner marks, letters and digits alike
        for key in ("Shift+A", "Shift+C", "Shift+1"):
            page.keyboard.press(key)
        assert cell(page, target).locator(".corner span").all_inner_texts() == ["1", "A", "C"]
        # Space goes through the modes; C is a symbol here, so it types C, not a mode
        page.keyboard.press(" ")
        page.keyboard.press(" ")
        assert page.locator('#modes [data-mode="centre"]').get_attribute("aria-checked") == "true"
        page.keyboard.press("c")
        page.keyboard.press("g")
        assert cell(page, target).locator(".centre").inner_text() == "CG"
        page.keyboard.press("Control+b")  # a centre mark from any mode
        assert cell(page, target).locator(".centre").inner_text() == "BCG"
        page.keyboard.press(" ")
        page.keyboard.press(" ")
        assert page.locator('#modes [data-mode="normal"]').get_attribute("aria-checked") == "true"
        shot(page, "16x16-marks")
        no_faults(page)
        # values in letters: typed and shown
        for i in empty[:6]:
            go_to(page, game, i)
            symbol = game["symbols"][solution[i] - 1]
            page.keyboard.press(symbol.lower())
            assert value_in(page, i) == symbol
        record = confirmed(page)
        assert all(record["values"][i] == solution[i] for i in empty[:6])
        assert record["centre"][target] == 0 or record["values"][target]


# -- helpers that must be right ------------------------------------------------------------


def shown_candidates(page: Any, symbols: str) -> list[int]:
    """Each cell's candidates as the page draws them, as bit masks (0 where none)."""
    masks: list[int] = page.evaluate("""(symbols) => [...document.querySelectorAll('.cell')]
        .sort((a, b) => a.dataset.cell - b.dataset.cell)
        .map((c) => [...c.querySelectorAll('.cands span')]
             .map((s) => s.textContent).filter(Boolean)
             .reduce((m, s) => m | (1 << symbols.indexOf(s)), 0))""", symbols)
    return masks


@pytest.mark.slow
def test_a_killers_candidates_follow_its_cages(site: tuple[str, Any]) -> None:
    base, browser = site
    killer = (ROOT / "examples" / "killer.txt").read_text()
    with fresh_page(browser) as page:
        page.goto(f"{base}/#p={quote(killer)}")
        game = game_record(page)
        assert game["shape"]["kind"] == "killer"
        page.check("#show-candidates")
        solution = solution_of(game)
        ones = [c["cells"][0] for c in game["shape"]["cages"] if len(c["cells"]) == 1]
        shown = shown_candidates(page, game["symbols"])
        for i in ones:  # a one-cell cage of sum s can only hold s
            total = next(c["sum"] for c in game["shape"]["cages"] if c["cells"] == [i])
            assert shown[i] == 1 << (total - 1)
        # the page draws what the server computes, and never leaves out the true value
        assert shown == game["candidates"]
        assert all(shown[i] >> (solution[i] - 1) & 1 for i in range(81))
        shot(page, "killer-candidates")
        no_faults(page)
        # after some values (the page works alone): the same again
        for i in range(0, 81, 7):
            cell(page, i).click()
            page.keyboard.press(str(solution[i]))
        shown = shown_candidates(page, game["symbols"])
        now = confirmed(page)
        assert shown == now["candidates"]
        assert all(shown[i] >> (solution[i] - 1) & 1 for i in range(81) if not now["values"][i])
    # and on a generated Killer
    with fresh_page(browser) as page:
        page.goto(f"{base}/")
        game = new_game(page, "killer")
        page.check("#show-candidates")
        assert shown_candidates(page, game["symbols"]) == game["candidates"]


def test_pause_hides_the_board(site: tuple[str, Any]) -> None:
    base, browser = site
    with fresh_page(browser) as page:
        page.goto(f"{base}/#p={BOOK}&shape=9x9")
        game = game_record(page)
        empty = empty_cells(game)
        page.click("#pause")
        cover, board = box(page, "#paused"), box(page, ".board-wrap")
        assert page.locator("#paused").is_visible()
        # the whole board covered, its outer lines too
        assert cover["x"] <= board["x"] and cover["y"] <= board["y"]
        assert cover["x"] + cover["width"] >= board["x"] + board["width"]
        assert cover["y"] + cover["height"] >= board["y"] + board["height"]
        assert page.evaluate("document.getElementById('board').inert")
        cell(page, empty[0]).click(force=True)
        page.keyboard.press("4")
        assert value_in(page, empty[0]) == ""  # nothing is entered while paused
        shown = page.locator("#timer").inner_text()
        page.wait_for_timeout(1200)
        assert page.locator("#timer").inner_text() == shown
        shot(page, "paused")
        no_faults(page)
        page.click("#resume")
        assert page.locator("#paused").is_hidden()
        assert confirmed(page)["timer"]["running"]


@pytest.mark.slow
def test_a_puzzle_that_cannot_be_solved_is_said_so(site: tuple[str, Any]) -> None:
    base, browser = site
    clashing = "55" + BOOK[2:]
    with fresh_page(browser) as page:
        page.goto(f"{base}/#p={clashing}&shape=9x9")
        page.wait_for_selector("#verdict-chip")
        assert "cannot be solved" in message(page)
        assert "r1c1" in message(page) and "r1c2" in message(page)
        page.click("#check")
        page.wait_for_function("!document.getElementById('message').textContent"
                               ".startsWith('No mistakes')")
        assert "No mistakes" not in message(page)
        shot(page, "clashing-givens")
        no_faults(page)
    with fresh_page(browser) as page:  # an open grid: several solutions
        page.goto(f"{base}/#p={'.' * 81}&shape=9x9")
        page.wait_for_selector("#verdict-chip")
        assert "more than one solution" in message(page)


@pytest.mark.slow
@pytest.mark.parametrize(("example", "cells", "note"), [
    ("samurai.txt", 369, None), ("kakuro.txt", None, "holds 2 puzzles")])
def test_the_examples_open_through_your_puzzle(site: tuple[str, Any], example: str,
                                               cells: int | None, note: str | None) -> None:
    base, browser = site
    with fresh_page(browser) as page:
        page.goto(f"{base}/")
        page.wait_for_selector(".cell")
        before = page.evaluate("location.href")
        menu(page, "open-own")
        page.set_input_files("#own-file", str(ROOT / "examples" / example))
        page.wait_for_function("document.getElementById('own-text').value.length > 0")
        page.click("#own-start")
        page.wait_for_function("(old) => location.href !== old", arg=before)
        game = game_record(page)
        if cells is not None:
            assert len(game["shape"]["cells"]) == cells
        else:
            assert game["shape"]["kind"] == "kakuro"
            assert page.locator(".clue").count() == len(game["shape"]["clues"])
        if note:
            assert note in message(page)
        fits_without_scrolling(page)
        shot(page, f"own-{example.split('.')[0]}")
        no_faults(page)


def test_your_puzzle_says_what_is_wrong_and_stays_open(site: tuple[str, Any]) -> None:
    base, browser = site
    with fresh_page(browser) as page:
        page.goto(f"{base}/")
        page.wait_for_selector(".cell")
        menu(page, "open-own")
        page.fill("#own-text", "12345678x" + "." * 72)
        page.click("#own-start")
        page.wait_for_function("document.getElementById('own-error').textContent.length > 0")
        error = page.locator("#own-error").inner_text()
        assert "column 9" in error and "'x'" in error
        assert not re.search(r"parse|read_records|shape=|format=", error)
        assert page.locator("#own-dialog[open]").count() == 1
        shot(page, "own-error")
        no_faults(page)


# -- sharing, the live solver, every shape -------------------------------------------------


def test_share_by_link_with_progress(site: tuple[str, Any]) -> None:
    base, browser = site
    solution = solve(BOOK).solution
    assert solution is not None
    with fresh_page(browser) as page:
        page.goto(f"{base}/#p={quote(BOOK)}&shape=9x9")
        page.wait_for_function("document.querySelectorAll('.cell').length === 81")
        cell(page, 0).click()
        page.keyboard.press(str(solution[0]))
        menu(page, "share")
        page.wait_for_function("document.getElementById('message').textContent.includes('#p=')")
        link = re.search(r"(http\S+)", message(page))
        assert link is not None
        with fresh_page(browser) as other:
            other.goto(link.group(1))
            wait_value(other, 0, str(solution[0]))
            assert value_in(other, 2) == "9"  # a given


@pytest.mark.slow
def test_the_live_solver_page(site: tuple[str, Any]) -> None:
    base, browser = site
    with fresh_page(browser) as page:
        page.goto(f"{base}/live")
        page.wait_for_function("document.querySelectorAll('.cell').length === 81")
        no_faults(page)
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
        no_faults(page)


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["samurai", "jigsaw", "diagonal", "wordoku", "25x25", "4x4"])
def test_every_shape_is_drawn_and_played(site: tuple[str, Any], shape: str) -> None:
    base, browser = site
    for screen, dark in (({}, False), (PHONE, True)):
        with fresh_page(browser, screen, color_scheme="dark" if dark else "light") as page:
            page.goto(f"{base}/")
            game = new_game(page, shape)
            fits_without_scrolling(page)
            assert page.locator(".cell").count() == len(game["shape"]["cells"])
            if shape == "diagonal":
                assert page.locator("svg.lines line.diagonal").count() == 2
            solution = solution_of(game)
            i = empty_cells(game)[0]
            cell(page, i).click()
            symbol = game["symbols"][solution[i] - 1]
            page.keyboard.press(symbol.lower())
            assert value_in(page, i) == symbol
            page.click("#hint")
            wait_message(page, "Hint 1/3")
            where = "phone-dark" if dark else "laptop"
            shot(page, f"shape-{shape}-{where}")
            no_faults(page)


def test_dark_mode_is_a_setting_kept(site: tuple[str, Any]) -> None:
    base, browser = site
    with fresh_page(browser) as page:
        page.goto(f"{base}/#p={BOOK}&shape=9x9")
        page.wait_for_selector(".cell")
        menu(page, "settings")
        page.check('input[name="theme"][value="dark"]')
        page.click("#settings-close")
        assert page.evaluate("document.documentElement.classList.contains('dark')")
        shot(page, "laptop-dark")
        no_faults(page)
        page.reload()
        page.wait_for_selector(".cell")
        assert page.evaluate("document.documentElement.classList.contains('dark')")


def test_cell_names_follow_the_setting(site: tuple[str, Any]) -> None:
    base, browser = site
    with fresh_page(browser) as page:
        page.goto(f"{base}/#p={BOOK}&shape=9x9")
        game = game_record(page)
        menu(page, "settings")
        page.check('input[name="notation"][value="book"]')
        page.click("#settings-close")
        cell(page, 0).click()
        page.keyboard.press("9")  # the given 9 of row 1 is at (3,1)
        assert message(page) == "9 is already in row 1, at (3,1)"
        assert confirmed(page)["notation"] == "book"
        page.click("#hint")
        page.click("#hint")
        wait_message(page, "Hint 2/3")
        assert not re.search(r"r\dc\d", message(page))
        assert game["id"] == game_record(page)["id"]


def test_no_layout_shift_when_the_longest_hint_arrives(site: tuple[str, Any]) -> None:
    base, browser = site
    for screen in ({}, PHONE):
        with fresh_page(browser, screen) as page:
            page.goto(f"{base}/#p={FIENDISH}&shape=9x9")
            page.wait_for_selector(".cell")
            board, panel = box(page, ".board-wrap"), box(page, ".controls")
            for tier in (1, 2, 3):
                page.click("#hint")
                wait_message(page, f"Hint {tier}/3")
            # and longer than any hint: the message box scrolls, nothing moves
            page.evaluate("document.getElementById('message').textContent = "
                          "'A very long message. '.repeat(60)")
            assert box(page, ".board-wrap") == board
            assert box(page, ".controls") == panel


def test_free_rules_mark_a_clash_and_mistakes_show_when_asked(site: tuple[str, Any]) -> None:
    base, browser = site
    with fresh_page(browser) as page:
        page.goto(f"{base}/")
        page.wait_for_selector(".cell")
        page.click("#new-game")
        page.select_option("#new-mode", "free")
        before = page.evaluate("location.href")
        page.click("#new-start")
        page.wait_for_function("(old) => location.href !== old", arg=before)
        game = game_record(page)
        assert game["mode"] == "free"
        solution = solution_of(game)
        empty = empty_cells(game)
        # a repeat is taken and both cells marked
        given = next(c for c in range(9) if game["givens"][c])
        target = next(i for i in empty if i < 9)
        cell(page, target).click()
        page.keyboard.press(str(game["givens"][given]))
        assert value_in(page, target) == str(game["givens"][given])
        assert "conflict" in (cell(page, target).get_attribute("class") or "")
        assert "conflict" in (cell(page, given).get_attribute("class") or "")
        shot(page, "free-rules-clash")
        no_faults(page)
        page.keyboard.press("Backspace")
        assert "conflict" not in (cell(page, given).get_attribute("class") or "")
        # mistakes are not shown unless asked for in the settings
        wrong = next(v for v in range(1, 10) if v != solution[target]
                     and not any(game["givens"][p] == v for p in range(9)))
        page.keyboard.press(str(wrong))
        page.wait_for_timeout(500)
        assert "mistake" not in (cell(page, target).get_attribute("class") or "")
        menu(page, "settings")
        page.check('input[name="showMistakes"]')
        page.click("#settings-close")
        other = next(i for i in empty if i != target and i // 9 != target // 9
                     and i % 9 != target % 9)
        cell(page, other).click()
        page.keyboard.press(str(next(v for v in range(1, 10) if v != solution[other])))
        page.wait_for_selector(f'.cell[data-cell="{other}"].mistake')


def test_the_page_keeps_to_its_content_security_policy(site: tuple[str, Any]) -> None:
    base, browser = site
    # with the policy in force, no waits given as script text: the page's own work only
    with fresh_page(browser, csp=True) as page:
        answer = page.goto(f"{base}/")
        assert answer is not None
        assert "script-src 'self'" in answer.headers["content-security-policy"]
        page.wait_for_selector(".cell")
        page.locator(".cell").nth(1).click()
        page.keyboard.press("4")
        page.keyboard.press("Shift+5")
        page.click("#new-game")
        page.wait_for_selector("#new-dialog[open]")
        page.select_option("#new-shape", "killer")
        page.click("#new-start")
        page.wait_for_selector("#new-dialog", state="hidden", timeout=60_000)
        page.wait_for_selector(".cage-line")
        page.goto(f"{base}/live")
        page.wait_for_selector("body")
        page.wait_for_timeout(500)  # any refused style, script or request is reported


def test_the_pages_record_kept_from_the_answers_changes_is_the_servers(
        site: tuple[str, Any]) -> None:
    """The page asks for what each move changed, not the whole game, and keeps its record
    of the game up to date from those changes: after marks, values, colours, undo and
    redo it holds what the server's whole record says (but the candidates and conflicts,
    which it finds itself)."""
    base, browser = site
    with fresh_page(browser) as page:
        answers: list[dict[str, Any]] = []
        page.on("response", lambda r: answers.append(r.json()) if "/actions" in r.url
                and r.status == 200 else None)
        page.goto(f"{base}/")
        game = new_game(page)
        empty = empty_cells(game)
        solution = solution_of(game)
        for n, i in enumerate(empty[:6]):
            go_to(page, game, i)
            page.keyboard.press(f"Shift+{1 + n % 9}")
            page.keyboard.press(f"Control+{1 + (n + 4) % 9}")
            if n % 2:
                page.keyboard.press(game["symbols"][solution[i] - 1])
        page.keyboard.press("Control+z")
        page.keyboard.press("Control+z")
        page.keyboard.press("Control+y")
        page.keyboard.press("v")  # colours
        page.keyboard.press("3")
        page.keyboard.press("z")
        page.click("#hint")
        wait_message(page, "Hint 1/3")
        server = confirmed(page)
        kept = page.evaluate("(id) => JSON.parse(localStorage.getItem("
                             "'numberplace-record:' + id))", server["id"])
        for key in ("candidates", "conflicts"):
            server.pop(key)
        # the clock runs on between the last answer and this look at the server
        assert kept["timer"]["running"] == server["timer"]["running"]
        assert server["timer"]["elapsed"] - 5 < kept["timer"]["elapsed"] \
            <= server["timer"]["elapsed"]
        kept["timer"] = server["timer"]
        assert {k: v for k, v in kept.items() if k not in ("candidates", "conflicts")} \
            == server
        assert len(answers) > 15 and all("changes" in a and "game" not in a for a in answers)
        assert answers[-1]["changes"]["version"] == server["version"]
