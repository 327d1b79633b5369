"""Results as plain data (dicts of str, int, float, list and None), ready for JSON.

One place turns what the library returns into records: a search result, a step, an
explanation, a hint, a rating, a generated puzzle, and a record that could not be read.
The command line's ``--json`` prints them and a web front end sends them; both get the
same keys. Cells are written ``r5c6`` (or Programming Sudoku's ``(6,5)``), values as numbers 1..n,
puzzles and solutions as one line of symbols.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .. import formats
from ..errors import FormatError
from ..model.puzzle import Puzzle
from ..model.shape import BLOCK_KINDS, HouseKind, is_across

if TYPE_CHECKING:
    from ..engine import Result
    from ..game import HintView, Session
    from ..generate import Generated
    from ..logic.explain import Explanation, Hint
    from ..logic.rating import Rating
    from ..logic.step import Step
    from ..model.alphabet import Alphabet
    from ..model.shape import Shape

Record = dict[str, object]


def plain_format(puzzle: Puzzle) -> str:
    """The format JSON records write a puzzle and its solutions in: one line of symbols,
    or for a puzzle with sums (which a line cannot hold) the kakuro or killer grid."""
    if not puzzle.shape.cages:
        return "line"
    return "killer" if puzzle.shape.houses else "kakuro"


def puzzle_line(puzzle: Puzzle) -> str:
    """The puzzle's givens as one line of symbols (a grid, for a puzzle with sums)."""
    return formats.write(puzzle, plain_format(puzzle))


def result_record(line: int, text: str, result: Result,
                  render: Callable[[tuple[int, ...]], str], every: bool = False) -> Record:
    """A search result: the puzzle as read, status, first solution (``render`` writes
    values as text), count, nodes, guesses, seconds; ``solutions`` with ``every``;
    ``message`` when the engine left one."""
    record: Record = {
        "line": line, "puzzle": text, "status": str(result.status),
        "solution": render(result.solution) if result.solution else None,
        "count": result.count, "nodes": result.nodes, "guesses": result.guesses,
        "seconds": round(result.seconds, 6),
    }
    if every:
        record["solutions"] = [render(s) for s in result.solutions]
    if result.message:
        record["message"] = result.message
    return record


def error_record(line: int, error: FormatError) -> Record:
    """A record that could not be read: ``invalid`` with the reason and the full message."""
    return {"line": line, "status": "invalid", "error": error.reason, "message": str(error)}


def step_record(step: Step, shape: Shape, notation: str = "rc",
                alphabet: Alphabet | None = None) -> Record:
    """A step: technique, book name, placements and eliminations as ``[cell, value]``,
    ``depth`` (open guesses; 0 for pure logic) and its text (values written with
    ``alphabet``'s symbols, cells in ``notation``)."""
    return {
        "technique": step.technique,
        "book_name": step.book_name,
        "placements": [[shape.cell_name(c), v] for c, v in step.placements],
        "eliminations": [[shape.cell_name(c), v] for c, v in step.eliminations],
        "depth": step.depth,
        "text": step.describe(shape, notation, alphabet),
    }


def explanation_record(line: int, puzzle: Puzzle, explanation: Explanation,
                       notation: str = "rc") -> Record:
    """An explanation: the puzzle, status, every step, and a message when there is one."""
    record: Record = {
        "line": line, "puzzle": puzzle_line(puzzle), "status": str(explanation.status),
        "steps": [step_record(s, puzzle.shape, notation, puzzle.alphabet)
                  for s in explanation.steps]}
    if explanation.message:
        record["message"] = explanation.message
    return record


def hint_record(line: int, puzzle: Puzzle, hint: Hint, notation: str = "rc") -> Record:
    """A hint: the puzzle, status, the step (or None), the elimination steps a placement
    hint took first, and a message when there is one."""
    def steps(s: Step) -> Record:
        return step_record(s, puzzle.shape, notation, puzzle.alphabet)

    record: Record = {
        "line": line, "puzzle": puzzle_line(puzzle), "status": str(hint.status),
        "step": steps(hint.step) if hint.step is not None else None,
        "before": [steps(s) for s in hint.before]}
    if hint.message:
        record["message"] = hint.message
    return record


def rating_record(line: int, puzzle: Puzzle, rating: Rating) -> Record:
    """A rating: the puzzle, status, level and number, difficulty, Programming Sudoku's score and
    level, the technique that decided the level, the step that set the difficulty,
    guesses, steps per technique, and a message if any."""
    record: Record = {"line": line, "puzzle": puzzle_line(puzzle), **rating_fields(rating)}
    if rating.message:
        record["message"] = rating.message
    return record


def rating_fields(rating: Rating) -> Record:
    """The fields of a rating alone."""
    return {"status": str(rating.status), "level": rating.level,
            "level_number": rating.level_number, "difficulty": rating.difficulty,
            "book_score": rating.book_score, "book_level": rating.book_level,
            "hardest": rating.hardest, "explainer_hardest": rating.explainer_hardest,
            "guesses": rating.guesses, "steps": dict(rating.steps)}


def generated_record(made: Generated, symmetry: str) -> Record:
    """A generated puzzle: puzzle, solution, its rating's fields, the seed that makes it
    again and the symmetry; a multi-grid shape adds each grid's solution count, a
    jigsaw its region map (needed to read the puzzle back)."""
    # imported here: the generator, and the readers' common part (it loads dataclasses),
    # which a command that prints no generated puzzle does without
    from ..formats._common import REGION_LABELS
    from ..generate import grid_solution_counts

    puzzle, shape = made.puzzle, made.puzzle.shape
    record: Record = {
        "puzzle": puzzle_line(puzzle),
        "solution": formats.write(puzzle, plain_format(puzzle), values=made.solution),
        **rating_fields(made.rating), "seed": made.seed, "symmetry": symmetry}
    if len(shape.grids) > 1:
        record["grid_solutions"] = grid_solution_counts(puzzle)
    if shape.regions:
        record["regions"] = "".join(REGION_LABELS[r] for r in shape.regions)
    return record


# -- play -----------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def shape_view(shape: Shape) -> Record:
    """What a front end needs to draw a shape: the canvas, each cell's place on it, which
    of its sides (top, right, bottom, left, as bits 1, 2, 4, 8) are thick block borders,
    the diagonal cells, and its houses (name and cells, in the shape's order). Cells are
    numbered as everywhere else. A shape with sums adds its ``kind`` (``killer`` or
    ``kakuro``; ``sudoku`` otherwise) and its cages (cells, sum, a Kakuro run's clue
    square ``[row, column]`` or None, and whether the run reads across); a Kakuro its clue
    squares (row, column, down sum, across sum; None where there is no such sum) and its
    blocks (row, column), the canvas squares that are neither."""
    blocks: list[set[int]] = [set() for _ in range(shape.ncells)]
    diagonal: set[int] = set()
    for h, house in enumerate(shape.houses):
        for c in house.cells:
            if house.kind in BLOCK_KINDS:
                blocks[c].add(h)
            elif house.kind == HouseKind.DIAGONAL:
                diagonal.add(c)
    at = shape.cell_at
    sides = []
    for cell, (r, c) in enumerate(shape.coords):
        thick = 0
        for bit_, (dr, dc) in zip((1, 2, 4, 8), ((-1, 0), (0, 1), (1, 0), (0, -1)),
                                  strict=True):
            other = at.get((r + dr, c + dc))
            if other is None or not blocks[cell] & blocks[other]:
                thick |= bit_
        # a Kakuro has no blocks of cells to mark off: its runs end at dark squares
        sides.append(thick if shape.houses else 0)
    rows, cols = shape.canvas
    view: Record = {"name": shape.name, "size": shape.size, "rows": rows, "cols": cols,
                    "cells": [list(rc) for rc in shape.coords], "thick": sides,
                    "diagonal": sorted(diagonal), "grids": len(shape.grids),
                    "kind": plain_kind(shape),
                    "houses": [{"name": str(house), "cells": list(house.cells)}
                               for house in shape.houses]}
    if shape.cages:
        view["cages"] = [{"cells": list(cage.cells), "sum": cage.total,
                          "clue": list(cage.clue) if cage.clue is not None else None,
                          "across": is_across(shape, cage),
                          **({"repeats": True} if cage.repeats else {})}
                         for cage in shape.cages]
    if view["kind"] == "kakuro":
        view["clues"], view["blocks"] = _kakuro_squares(shape)
    return view


def shape_label(shape: Shape) -> str:
    """A shape's family as a player names it: ``killer``, ``kakuro``, ``jigsaw``,
    ``samurai``, ``diagonal``, or a classic grid's name such as ``9x9``."""
    if shape.cages:
        return plain_kind(shape)
    if shape.regions:
        return "jigsaw"
    if len(shape.grids) > 1:
        return "samurai" if shape.name == "samurai" else shape.name
    if any(house.kind == HouseKind.DIAGONAL for house in shape.houses):
        return "diagonal"
    return shape.name


def plain_kind(shape: Shape) -> str:
    """``kakuro`` (sums and no houses), ``killer`` (sums and houses) or ``sudoku``."""
    if not shape.cages:
        return "sudoku"
    return "killer" if shape.houses else "kakuro"


def _kakuro_squares(shape: Shape) -> tuple[list[list[int | None]], list[list[int]]]:
    """A Kakuro's clue squares ``[row, column, down, across]`` and blocks ``[row, column]``,
    in reading order."""
    sums: dict[tuple[int, int], list[int | None]] = {}
    for cage in shape.cages:
        if cage.clue is not None:
            square = sums.setdefault(cage.clue, [None, None])
            square[1 if is_across(shape, cage) else 0] = cage.total
    rows, cols = shape.canvas
    clues: list[list[int | None]] = []
    blocks: list[list[int]] = []
    for r in range(rows):
        for c in range(cols):
            if (r, c) in shape.cell_at:
                continue
            if (r, c) in sums:
                clues.append([r, c, *sums[(r, c)]])
            else:
                blocks.append([r, c])
    return clues, blocks


#: Moves of each side of the history a game record carries, and lines of its log.
HISTORY_MOVES = 100
LOG_SHOWN = 200
#: The layers of a game record by their name in a session, and the record's key for each.
LAYER_KEYS = {"value": "values", "source": "sources", "corner": "corner", "centre": "centre",
              "colour": "colours"}


def game_record(session: Session, game_id: str = "",
                meta: Mapping[str, object] | None = None) -> Record:
    """A game as the board shows it: the shape, symbols, givens, every layer, the
    candidates, conflicts, what can be undone (and the latest moves each way, for undoing
    on the page), the timer, the latest log lines, the notation, the receipts of the
    requests carried out, the verdict on the puzzle itself and ``meta`` (``label``,
    ``level``, ``daily``; by default the shape's family and no level or date)."""
    # imported here: the game's package loads its sessions, which a command does without
    from ..game import Layer

    puzzle = session.puzzle
    layers = session.layers
    history = session.history
    verdict = session.verdict()
    shown_meta: dict[str, object] = {"label": shape_label(puzzle.shape), "level": None,
                                     "daily": None}
    shown_meta.update(meta or {})
    return {
        "id": game_id, "shape": shape_view(puzzle.shape),
        "symbols": puzzle.alphabet.symbols, "puzzle": puzzle_line(puzzle),
        "givens": list(puzzle.givens), "values": session.values(),
        "sources": layers[Layer.SOURCE], "corner": layers[Layer.CORNER],
        "centre": layers[Layer.CENTRE], "colours": layers[Layer.COLOUR],
        "candidates": session.candidates(), "conflicts": session.conflicts(),
        "forced": sorted(session.forced()) if session.auto_fill else [],
        "mode": str(session.mode), "auto_fill": session.auto_fill,
        "solved": session.solved, "can_undo": bool(session.history.done),
        "can_redo": bool(session.history.undone),
        "timer": {"elapsed": round(session.timer.elapsed(), 1),
                  "running": session.timer.running},
        "log": session.log[-LOG_SHOWN:], "log_total": len(session.log), "log_shown": LOG_SHOWN,
        "share": share_text(puzzle),
        "notation": session.notation, "receipts": dict(session.receipts),
        "history": {"undo": [m.to_record() for m in history.done[-HISTORY_MOVES:]],
                    "redo": [m.to_record() for m in history.undone[-HISTORY_MOVES:]],
                    "undo_total": len(history.done), "redo_total": len(history.undone),
                    "shown": HISTORY_MOVES},
        "verdict": {"status": verdict.status, "message": verdict.message},
        "meta": shown_meta,
    }


def game_changes(session: Session, change: Mapping[str, Any] | None, base: int,
                 version: int) -> Record:
    """What an action changed in a game as its board shows it, for a board that shows
    the game at version ``base``: ``change`` is what it changed in the session (see
    :mod:`numberplace.game.journal`), ``version`` the game's version after it.
    :func:`patched` applies it. The layers that changed come whole, the lists (history,
    log) as the ``[drop, keep, tail]`` of the whole list, the states that may have
    changed as they are now; candidates and conflicts do not come (the board finds its
    own)."""
    history = session.history
    out: Record = {"base": base, "version": version, "solved": session.solved,
                   "can_undo": bool(history.done), "can_redo": bool(history.undone),
                   "timer": {"elapsed": round(session.timer.elapsed(), 1),
                             "running": session.timer.running}}
    change = change or {}
    layers = {layer for layer, _, _ in change.get("cells", ())}
    filling = session.auto_fill or "auto_fill" in change.get("set", {})
    if "value" in layers or filling:  # forced values are shown among the values
        out["values"] = session.values()
    if filling:
        out["forced"] = sorted(session.forced()) if session.auto_fill else []
    by_name = {str(layer): values for layer, values in session.layers.items()}
    for layer in layers - {"value"}:
        out[LAYER_KEYS[layer]] = list(by_name[layer])
    if "undo" in change or "redo" in change:
        out["history"] = {"undo": change.get("undo"), "redo": change.get("redo"),
                          "undo_total": len(history.done), "redo_total": len(history.undone)}
    if "log" in change:
        out["log"], out["log_total"] = change["log"], len(session.log)
    if "receipts" in change:
        out["receipts"], out["receipts_kept"] = change["receipts"], change["receipts_kept"]
    for key in ("mode", "notation", "auto_fill"):
        if key in change.get("set", {}):
            out[key] = change["set"][key]
    if "verdict" in change.get("set", {}):
        verdict = session.verdict()
        out["verdict"] = {"status": verdict.status, "message": verdict.message}
    return out


def patched(record: Mapping[str, Any], changes: Mapping[str, Any]) -> Record | None:
    """A game record (:func:`game_record`) brought up to date with :func:`game_changes`;
    None when they are of different versions (the whole game must be read again). The
    page does the same in JavaScript."""
    if changes.get("base") != record.get("version"):
        return None
    out = dict(record)
    out["version"] = changes["version"]
    for key in ("values", "sources", "corner", "centre", "colours", "forced", "timer",
                "solved", "can_undo", "can_redo", "mode", "notation", "auto_fill", "verdict",
                "log_total"):
        if key in changes:
            out[key] = changes[key]
    if "history" in changes:
        old, new = record["history"], changes["history"]
        out["history"] = {
            "undo": _windowed(old["undo"], old["undo_total"], new["undo"], old["shown"]),
            "redo": _windowed(old["redo"], old["redo_total"], new["redo"], old["shown"]),
            "undo_total": new["undo_total"], "redo_total": new["redo_total"],
            "shown": old["shown"]}
    if "log" in changes:
        out["log"] = _windowed(record["log"], record["log_total"], changes["log"],
                               record["log_shown"])
    if "receipts" in changes:
        receipts = dict(record["receipts"])
        for client, seq in changes["receipts"].items():
            receipts.pop(client, None)
            receipts[client] = seq
        while len(receipts) > changes["receipts_kept"]:
            del receipts[next(iter(receipts))]
        out["receipts"] = receipts
    return out


def _windowed(window: list[Any], total: int, change: list[Any] | None, shown: int) -> list[Any]:
    """The last ``shown`` items of a list of ``total`` items whose last ones ``window``
    are, after the list changed as ``[drop, keep, tail]`` tells (None: it did not)."""
    if change is None:
        return window
    drop, keep, tail = change
    start = total - len(window)  # the whole list's index of the window's first item
    first = max(drop, start) - start
    last = max(first, drop + keep - start)
    return (window[first:last] + list(tail))[-shown:]


def hint_view_record(view: HintView, shape: Shape) -> Record:
    """A hint told at a tier, with what to draw: the houses and cages (and their cells),
    the cells, the role-coloured candidates."""
    return {"status": str(view.status), "tier": view.tier, "text": view.text,
            "technique": view.step.technique if view.step is not None else None,
            "houses": list(view.houses),
            "house_cells": [list(shape.houses[h].cells) for h in view.houses],
            "cages": list(view.cages),
            "cage_cells": [list(shape.cages[g].cells) for g in view.cages],
            "cells": list(view.cells), "highlights": [list(h) for h in view.highlights]}


def share_text(puzzle: Puzzle) -> Record:
    """The puzzle as a link carries it: one line and the shape's name, or, for a jigsaw,
    the jigsaw format with its regions, for a Kakuro or Killer its own format (which
    holds the sums); the symbols too when they are not the shape's usual ones (a
    Wordoku)."""
    usual = type(puzzle.alphabet).default(puzzle.shape.size) == puzzle.alphabet
    symbols = None if usual else puzzle.alphabet.symbols
    if puzzle.shape.cages:
        return {"text": puzzle_line(puzzle), "shape": None, "alphabet": symbols}
    if puzzle.shape.regions:
        return {"text": formats.write(puzzle, "jigsaw"), "shape": None, "alphabet": symbols}
    return {"text": formats.write(puzzle, "line"), "shape": puzzle.shape.name,
            "alphabet": symbols}
