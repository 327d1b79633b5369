"""End to end in a real browser on Kakuro and Killer: a new game from the dialog, the board
drawn (a Killer's dashed cages and sums, a Kakuro's dark blocks and clue squares), digits,
a pencil mark, undo, a hint drawn on its cages, a shared link, the solution typed to the
end and "solved"; axe-core finds no accessibility fault, in light and dark mode."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser import (  # noqa: F401  # fixtures
    cell,
    fresh_page,
    menu,
    page,
    shot,
    site,
    violations,
    wait_message,
)
from browser import new_game as new_game_from_dialog

from numberplace import formats, solve


def new_game(page: Any, base: str, shape: str) -> dict[str, Any]:
    """A new game from the dialog, the level left at its default; the server's record."""
    page.goto(f"{base}/")
    page.wait_for_selector(".cell")
    page.click("#new-game")
    page.select_option("#new-shape", shape)
    levels = page.locator("#new-level option").all_inner_texts()
    assert levels == ["1 Easy", "2 Medium", "3 Difficult"]
    assert page.locator("#new-level").input_value() == "1"
    page.keyboard.press("Escape")
    record = new_game_from_dialog(page, shape)
    page.wait_for_function("(s) => document.getElementById('shape-name').textContent"
                           ".startsWith(s)", arg=shape.split("-")[0])
    return record


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["killer", "kakuro-10x10"])
def test_a_whole_game_with_sums(site: tuple[str, Any], page: Any, shape: str) -> None:
    base, browser = site
    game = new_game(page, base, shape)
    view = game["shape"]
    puzzle = formats.parse(game["puzzle"])
    solution = solve(puzzle).solution
    assert solution is not None
    empty = [i for i, v in enumerate(game["givens"]) if not v]
    assert page.locator(".cell").count() == len(view["cells"])

    # the board as drawn
    if shape == "killer":
        assert page.locator(".board-wrap svg.cages path.cage-line").count() == 1
        # one closed path around each cage, whatever its shape
        loops = page.evaluate("document.querySelector('.cage-line').getAttribute('d')"
                              ".split('M').length - 1")
        assert loops == len(view["cages"])
        sums = page.locator(".board-wrap svg.cages text.cage-sum").all_text_contents()
        assert sorted(sums) == sorted(str(c["sum"]) for c in view["cages"])
        assert page.locator(".clue").count() == 0
        dashes = page.evaluate("getComputedStyle(document.querySelector('.cage-line'))"
                               ".strokeDasharray")
        assert dashes not in ("", "none")
    else:
        assert page.locator('.board-wrap[data-kind="kakuro"]').count() == 1
        assert page.locator(".clue").count() == len(view["clues"])
        r, c, down, across = view["clues"][0]
        first = page.locator(".clue").first
        shown = [t for t in (down, across) if t is not None]
        assert sorted(first.locator(".down, .across").all_inner_texts()) == \
            sorted(str(t) for t in shown)
        assert page.locator("#pad .left").count() == 0  # nothing to count in a Kakuro
    shot(page, f"{shape}-1-new")
    assert violations(page) == []

    # a digit by keyboard, a digit refused where its cage already has it: in a cage with
    # two empty cells (a random easy puzzle may give all but one cell of some cages)
    target, mate = next((t, c) for t in empty for cage in view["cages"] if t in cage["cells"]
                        for c in cage["cells"] if c != t and c in empty)
    cell(page, target).click()
    page.keyboard.press(str(solution[target]))
    page.wait_for_function(f"document.querySelector('[data-cell=\"{target}\"] .value')")
    cell(page, mate).click()
    page.keyboard.press(str(solution[target]))
    wait_message(page, f"{solution[target]} is already in ")
    assert cell(page, mate).locator(".value").count() == 0

    # a corner mark, then undo takes it back
    for key in ("x", "1", "3", "z"):
        page.keyboard.press(key)
    assert cell(page, mate).locator(".corner span").all_inner_texts() == ["1", "3"]
    page.click("#undo")
    assert cell(page, mate).locator(".corner span").all_inner_texts() == ["1"]
    page.keyboard.press("Control+z")
    assert cell(page, mate).locator(".corner").count() == 0

    # a hint, tier by tier: its cages' cells drawn like a house
    with page.expect_response(lambda r: r.url.endswith("/actions")
                              and '"hint"' in (r.request.post_data or "")) as answered:
        page.click("#hint")
    hint = answered.value.json()["hint"]
    wait_message(page, "Hint 1/3")
    assert hint["cages"], hint
    for c in hint["cage_cells"][0]:
        assert re.search(r"\b(house|hinted)\b", cell(page, c).get_attribute("class") or "")
    page.click("#hint")
    wait_message(page, "Hint 2/3")
    assert page.locator(".cell.hinted").count() >= 1
    page.click("#hint")
    wait_message(page, "Hint 3/3")
    assert page.locator(".cands span.placed, .cands span.removed").count() >= 1
    shot(page, f"{shape}-2-hint")

    # shared by link: the sums and the entries come along
    menu(page, "share")
    page.wait_for_function("document.getElementById('message').textContent.includes('#p=')")
    link = re.search(r"(http\S+)", page.locator("#message").inner_text())
    assert link is not None
    with fresh_page(browser) as other:
        other.goto(link.group(1))
        other.wait_for_function(f"document.querySelector('[data-cell=\"{target}\"] .value')")
        assert other.locator(".cell").count() == len(view["cells"])
        assert other.locator(".clue").count() == len(view.get("clues", []))

    # the solution to the end, by keyboard
    for i in (i for i in empty if i != target):
        cell(page, i).click()
        page.keyboard.press(str(solution[i]))
        page.wait_for_function(f"document.querySelector('[data-cell=\"{i}\"] .value')")
    wait_message(page, "Solved in")
    shot(page, f"{shape}-3-solved")
    assert violations(page) == []

    # dark mode keeps every contrast
    menu(page, "settings")
    page.check('input[name="theme"][value="dark"]')
    page.click("#settings-close")
    shot(page, f"{shape}-4-dark")
    assert violations(page) == []
