"""The page's rules (static/rules.js) against the game layer's, move by move: random moves
on every kind of shape, applied by the server's code and by the page's, give the same
refusals with the same words, the same layers, undo and redo alike, and the same
candidates and conflicts. The page draws a move before the server has it, so any
difference would show as a move the board takes back."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from browser import fresh_page, site  # noqa: F401  # site: a fixture

from numberplace import formats
from numberplace.game import Layer, Session
from numberplace.store.serialize import game_record
from numberplace.web.app import act

from conftest import BOOK_PUZZLES

ROOT = Path(__file__).resolve().parents[2]
STEPS = 120

#: Runs the moves in the page, as the page would: each one's answer, and the board after.
REPLAY = """async ([record, moves, notation]) => {
  const rules = await import('/static/rules.js');
  const geo = rules.geometry(record.shape);
  const state = rules.stateFrom(record);
  const out = [];
  for (const body of moves) {
    const done = rules.apply(state, geo, body, notation, record.symbols);
    const values = rules.values(state);
    out.push({
      ok: done.ok, message: done.message, remote: Boolean(done.remote),
      layers: structuredClone(state.layers), candidates: rules.candidates(geo, values),
      conflicts: [...rules.conflicts(geo, values)].sort((a, b) => a - b),
    });
  }
  return JSON.parse(JSON.stringify(out));
}"""


def puzzles() -> dict[str, str]:
    return {
        "9x9": BOOK_PUZZLES[0],
        "jigsaw": (ROOT / "examples" / "jigsaw.txt").read_text(),
        "samurai": (ROOT / "examples" / "samurai.txt").read_text(),
        "killer": (ROOT / "examples" / "killer.txt").read_text(),
        "kakuro": (ROOT / "examples" / "kakuro.txt").read_text().split("\n\n")[1],
        "16x16": (ROOT / "examples" / "16x16.txt").read_text(),
    }


def random_moves(session: Session, rng: random.Random) -> list[dict[str, Any]]:
    n, size = session.shape.ncells, session.shape.size
    moves: list[dict[str, Any]] = []
    for _ in range(STEPS):
        kind = rng.choice(["enter"] * 6 + ["erase", "mark", "mark", "paint", "undo", "redo"])
        cells = rng.sample(range(n), rng.choice([1, 1, 1, 2, 3]))
        if kind == "enter":
            moves.append({"action": "enter", "cells": cells, "value": rng.randint(0, size)})
        elif kind == "erase":
            moves.append({"action": "erase", "cells": cells})
        elif kind == "mark":
            moves.append({"action": "mark", "cells": cells, "value": rng.randint(1, size),
                          "kind": rng.choice(["corner", "centre"])})
        elif kind == "paint":
            moves.append({"action": "paint", "cells": cells, "value": rng.randint(0, 9)})
        else:
            moves.append({"action": kind})
    return moves


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["book", "free"])
@pytest.mark.parametrize("kind", ["9x9", "jigsaw", "samurai", "killer", "kakuro", "16x16"])
def test_the_page_and_the_server_apply_every_move_alike(site: tuple[str, Any], kind: str,
                                                        mode: str) -> None:
    base, browser = site
    rng = random.Random(f"{kind}-{mode}")
    text = puzzles()[kind]
    shape = "samurai" if kind == "samurai" else None
    notation = rng.choice(["rc", "book"])
    session = Session(formats.parse(text, shape=shape), mode=mode, notation=notation)
    record = json.loads(json.dumps(game_record(session, "test")))
    moves = random_moves(session, rng)
    with fresh_page(browser) as page:
        page.goto(f"{base}/live")
        answers = page.evaluate(REPLAY, [record, moves, notation])
    refused = 0
    for step, (body, shown) in enumerate(zip(moves, answers, strict=True)):
        reply = act(session, dict(body))
        where = f"step {step}: {body}"
        assert not shown["remote"], where
        assert shown["ok"] == reply["ok"], (where, shown["message"], reply["message"])
        if not reply["ok"]:
            refused += 1
            assert shown["message"] == reply["message"], where
        for layer in Layer:
            assert shown["layers"][str(layer)] == session.layers[layer], (where, layer)
        assert shown["candidates"] == session.candidates(), where
        assert shown["conflicts"] == session.conflicts(), where
    if mode == "book":
        assert refused  # some repeats were refused, and said alike
