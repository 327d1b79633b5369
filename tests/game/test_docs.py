"""The example of docs/play.md runs, and every value its comments show is the one it gives."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "play.md"


def test_the_game_example_gives_what_its_comments_say(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    block = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert block is not None
    monkeypatch.chdir(tmp_path)
    scope: dict[str, object] = {}
    checked = 0
    for line in block.group(1).splitlines():
        code, _, comment = line.partition("  # ")
        shown = re.match(r"('[^']*'|True|False)", comment.strip())
        if shown:
            assert eval(code, scope) == ast.literal_eval(shown.group(1)), line
            checked += 1
        else:
            exec(code, scope)
    assert checked >= 4
    assert (tmp_path / "game.json").exists()
