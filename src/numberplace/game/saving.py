"""Games on disk: a lossless session file, Programming Sudoku's ``.sdo``, and puzzle files.

A session file is one JSON object (``"format": "numberplace-session"``) holding the puzzle
(in numberplace's JSON puzzle format), the mode, every layer of the board (entries, who
wrote them, corner and centre marks, colours), the undo and redo history, the activity
log, the timer and the settings, the puzzle's verdict once known, the numbers of the
requests carried out for each client and whether "solve all" was used: opening it gives
back an equal session (a file written before those last three existed opens with none
known). Every file is
written atomically (a temporary file in the same folder, flushed to disk, then renamed
over the old one), so a crash in the middle of a save leaves the previous save whole.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import formats
from ..atomic import write_atomically
from ..errors import FormatError
from ..formats.inputs import open_input
from ..formats.table import SUFFIX_FORMATS
from .history import UNDO_MOVES, History, Layer, Move
from .session import COLOURS, LOG_LINES, VERDICTS, Mode, Session, Source
from .timer import Timer

#: The ``format`` of a session file, and its version.
FORMAT = "numberplace-session"
VERSION = 1


def to_record(session: Session) -> dict[str, Any]:
    """The whole session as JSON-ready data."""
    return {
        "format": FORMAT, "version": VERSION,
        "puzzle": json.loads(formats.write(session.puzzle, "json")),
        "mode": str(session.mode), "notation": session.notation,
        "auto_fill": session.auto_fill,
        "layers": {str(layer): list(values) for layer, values in session.layers.items()},
        "undo": [m.to_record() for m in session.history.done],
        "redo": [m.to_record() for m in session.history.undone],
        "log": list(session.log),
        "timer": {"elapsed": round(session.timer.elapsed(), 3),
                  "running": session.timer.running},
        "solved": session.solved,
        "revealed": session.revealed,
        "verdict": session.puzzle_status,
        "receipts": dict(session.receipts),
    }


def from_record(record: object, clock: Callable[[], float] = time.monotonic,
                source: str = "<session>") -> Session:
    """A session from :func:`to_record`'s data; FormatError naming what is wrong."""
    try:
        return _from_record(record, clock, source)
    except FormatError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise FormatError(f"not a session file this version can read: {exc}",
                          source=source) from None


def _from_record(record: object, clock: Callable[[], float], source: str) -> Session:
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError(f"no \"format\": \"{FORMAT}\"")
    if record.get("version") != VERSION:
        raise ValueError(f"version {record.get('version')!r}, this program reads {VERSION}")
    puzzle = formats.parse(json.dumps(record["puzzle"]), format="json", source=source)
    session = Session(puzzle, mode=Mode(record["mode"]), notation=record["notation"],
                      clock=clock)
    n = puzzle.shape.ncells
    highest = _layer_limits(puzzle.size)
    for layer in Layer:
        values = record["layers"][str(layer)]
        if not (isinstance(values, list) and len(values) == n
                and all(isinstance(v, int) and not isinstance(v, bool)
                        and 0 <= v <= highest[layer] for v in values)):
            raise ValueError(f"layer {layer} must hold {n} whole numbers from 0 to "
                             f"{highest[layer]}")
        session.layers[layer] = list(values)
    done, undone = (_moves(record[side], side) for side in ("undo", "redo"))
    for move in done + undone:
        if any(not 0 <= c.cell < n or not 0 <= c.before <= highest[c.layer]
               or not 0 <= c.after <= highest[c.layer] for c in move.changes):
            raise ValueError("a move names a cell outside the grid or a value out of range")
    history = History()
    for move in done:  # recorded again, so the undo depth is bounded as in play
        history.record(move)
    history.undone = undone[-UNDO_MOVES:]
    session.history = history
    log = record["log"]
    if not isinstance(log, list):
        raise ValueError("log must be a list of lines")
    session.log = [str(line) for line in log[-LOG_LINES:]]
    timer = record["timer"]
    elapsed = timer["elapsed"]
    if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)) \
            or not 0 <= elapsed <= MAX_SECONDS:
        raise ValueError(f"the timer's elapsed time must be 0 to {MAX_SECONDS:g} seconds")
    session.timer = Timer(float(elapsed), bool(timer["running"]), clock)
    session.auto_fill = bool(record["auto_fill"])
    session.solved = bool(record["solved"])
    session.revealed = bool(record.get("revealed", False))
    verdict = record.get("verdict")
    if verdict is not None and verdict not in VERDICTS:
        raise ValueError(f"verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
    session.puzzle_status = verdict
    receipts = record.get("receipts", {})
    if not (isinstance(receipts, dict) and len(receipts) <= MAX_CLIENTS and all(
            isinstance(k, str) and len(k) <= 64 and isinstance(v, int)
            and not isinstance(v, bool) and 0 <= v <= 2 ** 53 for k, v in receipts.items())):
        raise ValueError(f"receipts must map at most {MAX_CLIENTS} clients to whole numbers")
    session.receipts = dict(receipts)
    session._derived = None
    return session


#: The longest time a saved game may have been played (some centuries: any finite number
#: a person could have played, and no more).
MAX_SECONDS = 1e10
#: Clients whose numbered requests a saved game may remember.
MAX_CLIENTS = 10_000


def _layer_limits(size: int) -> dict[Layer, int]:
    """The highest number each layer may hold in a puzzle of ``size`` symbols."""
    marks = (1 << size) - 1
    return {Layer.VALUE: size, Layer.CORNER: marks, Layer.CENTRE: marks,
            Layer.COLOUR: COLOURS, Layer.SOURCE: max(Source)}


def _moves(items: object, side: str) -> list[Move]:
    if not isinstance(items, list):
        raise ValueError(f"{side} must be a list of moves")
    return [Move.from_record(m) for m in items]


def save(session: Session, path: str | os.PathLike[str]) -> None:
    """Write the session to ``path`` atomically: a ``.sdo`` (or ``.txt``, ``.sdk``, ``.ss``)
    file gets the puzzle alone, as Programming Sudoku saves it (a Kakuro or Killer in ``.txt`` in
    its own format, the only one that holds its sums); any other name the whole
    session."""
    # imported here: serialize imports game, this module's package
    from ..store.serialize import plain_format

    target = Path(path)
    fmt = SUFFIX_FORMATS.get(target.suffix.lower())
    if fmt == "line":
        fmt = plain_format(session.puzzle)
    text = (formats.write(session.puzzle, fmt) + "\n" if fmt else
            json.dumps(to_record(session), separators=(",", ":")) + "\n")
    write_atomically(target, text)


def open_game(path: str | os.PathLike[str], clock: Callable[[], float] = time.monotonic,
              mode: Mode | str = Mode.BOOK, notation: str = "book", number: int = 1
              ) -> Session:
    """A session file reopened as it was saved, or a new game (in ``mode`` and
    ``notation``) on puzzle ``number`` (from 1) of a puzzle file (any format numberplace
    reads). FormatError names what is wrong."""
    with open_input(path) as source:
        text = "\n".join(source.lines())
        name = source.name
    if is_session_text(text):
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise FormatError(f"the session file is damaged: {exc.msg}", source=name,
                              line=exc.lineno, column=exc.colno) from None
        return from_record(record, clock, name)
    seen = 0
    for seen, record in enumerate(formats.read_records(text.splitlines(), source=name), 1):
        if seen < number:
            continue
        if record.error is not None:
            raise record.error
        assert record.puzzle is not None
        return Session(record.puzzle, mode=mode, notation=notation, clock=clock)
    if seen:
        raise FormatError(f"puzzle {number} asked for; the file holds {seen}", source=name)
    raise FormatError("no puzzle here: the file is empty or holds only comments",
                      source=name)


def is_session_text(text: str) -> bool:
    """True for the text of a session file (its format named near its start), as opposed
    to a puzzle's."""
    return text.lstrip().startswith("{") and f'"{FORMAT}"' in text[:200]


def puzzles_in(path: str | os.PathLike[str]) -> int:
    """How many puzzles (readable or not) a puzzle file holds; 0 for a saved game."""
    with open_input(path) as source:
        lines = list(source.lines())
    if is_session_text("\n".join(lines)):
        return 0
    return sum(1 for _ in formats.read_records(lines, source=os.fspath(path)))
