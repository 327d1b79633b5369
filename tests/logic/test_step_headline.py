"""A step's headline names its technique once: an explanation that opens with the name is
not prefixed again (``W-Wing: W-Wing: ...``), one that does not gets it in front; and a
single cell "holds" where several "hold"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from numberplace.cli import main
from numberplace.logic import Board
from numberplace.logic.step import make_step
from numberplace.logic.wings import find_w_wing
from numberplace.model.shape import classic

from positions import S9, keep_only, open_board, row, set_cands

ROOT = Path(__file__).resolve().parents[2]
HARD = ROOT.parent / "shared" / "data" / "sudoku9" / "top95.txt"


def test_a_w_wing_is_named_once() -> None:
    board: Board = open_board()
    set_cands(board, "r1c1", 1, 2)
    set_cands(board, "r5c9", 1, 2)
    keep_only(board, 1, row(9), "r9c1", "r9c9")
    step = next(find_w_wing(board, S9))
    assert step.headline(S9).startswith("W-Wing: r1c1 and r5c9 both hold {1,2}")
    assert step.headline(S9).count("W-Wing") == 1


@pytest.mark.parametrize(("technique", "template", "headline"), [
    ("Naked Pair", "In row 1, r1c1, r1c2 hold only 1, 2", "Naked Pair: In row 1, r1c1"),
    ("Skyscraper", "Skyscraper on 9: strong links", "Skyscraper on 9: strong links"),
    ("Finned X-Wing", "Finned X-Wing on 7 in row 2", "Finned X-Wing on 7 in row 2"),
    # the name of another technique inside the text is no reason to drop this one's
    ("Unique Rectangle Type 4", "Unique Rectangle on {1,5}", "Unique Rectangle Type 4: "),
    ("X-Wing", "X-Wings aside, ...", "X-Wing: X-Wings aside"),
])
def test_the_name_is_prefixed_only_when_the_text_lacks_it(technique: str, template: str,
                                                          headline: str) -> None:
    step = make_step(classic(9), technique, template)
    assert step.headline(classic(9)).startswith(headline)


@pytest.mark.skipif(not HARD.exists(), reason=f"benchmark set {HARD} is absent")
def test_explain_never_repeats_a_technique_name(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hard.txt"
    path.write_text("".join(HARD.read_text().splitlines(keepends=True)[:12]))
    assert main(["explain", str(path), "--no-progress", "--jobs", "1"]) == 0
    lines = [line.split(". ", 1)[1] for line in capsys.readouterr().out.splitlines()
             if line.startswith("  ") and ". " in line]
    assert len(lines) > 500
    repeated = [line for line in lines
                if (name := line.split(": ", 1)[0]) and line.count(f"{name}: {name}")]
    assert not repeated, repeated[:3]
    lone = [line for line in lines if re.search(r": r\d+c\d+ hold only", line)]
    assert not lone, lone[:3]
