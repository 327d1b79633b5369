"""The live solver: a puzzle as typed so far, with every candidate and forced value.

As the solver that updates as you type: after every keystroke the candidates of all cells
are recomputed and every value forced by the simple techniques is filled in (naked and
hidden singles, locked candidates, pattern match across a band); each locked-candidates
removal carries its direction (along a row or a column), for colouring. A clear word says
when the puzzle has no solution or several.
"""

from __future__ import annotations

from typing import Any

from .. import engine, formats
from ..errors import NumberplaceError
from ..game import LIVE_TECHNIQUES
from ..logic.board import Board
from ..logic.driver import solve_path
from ..logic.step import LogicStatus
from ..model.shape import HouseKind
from ..store.serialize import shape_view

#: What the engine's verdict tells the person typing.
VERDICTS = {
    "unique": "one solution",
    "multiple": "more than one solution so far: keep adding givens",
    "none": "no solution: some givens contradict each other",
    "invalid": "two givens clash",
    "limit": "undecided: the search ran out of time",
}


def live_view(body: dict[str, Any]) -> dict[str, Any]:
    """The view of ``{"puzzle": TEXT, "shape"?}`` (see the module docs)."""
    text = body.get("puzzle")
    shape = body.get("shape")
    if not isinstance(text, str) or (shape is not None and not isinstance(shape, str)):
        raise NumberplaceError("puzzle (and shape, when given) must be strings")
    puzzle = formats.parse(text, shape=shape, source="the puzzle")
    exact = engine.solve(puzzle, limit=2, keep=0, node_limit=2_000_000, time_limit=2)
    view: dict[str, Any] = {
        "shape": shape_view(puzzle.shape), "symbols": puzzle.alphabet.symbols,
        "givens": list(puzzle.givens), "status": str(exact.status),
        "verdict": VERDICTS[str(exact.status)] + (f": {exact.message}" if exact.message
                                                  else "")}
    if exact.status is engine.Status.INVALID:
        board = Board.from_puzzle(puzzle)
        view.update(values=list(puzzle.givens), candidates=board.candidates, forced=[],
                    directions=[], steps=[])
        return view
    path = solve_path(puzzle, LIVE_TECHNIQUES, time_limit=2)
    board = path.board or Board.from_puzzle(puzzle)
    directions = []
    for step in path.steps:
        if step.technique.startswith("Locked Candidates"):
            line = next((puzzle.shape.houses[h].kind for h in step.houses
                         if puzzle.shape.houses[h].kind in (HouseKind.ROW, HouseKind.COLUMN)),
                        None)
            directions += [[c, v, str(line)] for c, v in step.eliminations]
    view.update(
        values=list(board.values), candidates=list(board.candidates),
        forced=[[c, v] for step in path.steps for c, v in step.placements],
        directions=directions,
        steps=[step.describe(puzzle.shape, "rc", puzzle.alphabet) for step in path.steps],
        stalled=path.status is LogicStatus.STALLED)
    return view
