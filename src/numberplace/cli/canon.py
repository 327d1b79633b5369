"""``canon``: each puzzle's canonical form, so equivalent puzzles can be told."""

from __future__ import annotations

import argparse
import functools
import json
from typing import NamedTuple, TextIO

from .. import formats
from ..errors import LimitError, NumberplaceError
from ..formats.kakuro import is_kakuro
from ..formats.table import ONE_LINE_FORMATS
from ..model.puzzle import Puzzle
from . import options
from .pipeline import UNREADABLE, Meter, Outcome, Settings, run
from .search import Chunk, line_chunks, plain_values, read_one

#: The statuses of canon's summary.
_SHOWN = ("canonical", "invalid", "limit")
#: The status of a Kakuro, which stops the command (see :func:`_refuse_kakuro`).
_KAKURO = "kakuro"
#: Why a Kakuro gets no form: its clue squares pin every run, so no change of rows,
#: columns or symbols keeps it the same puzzle.
NO_KAKURO_FORM = "a Kakuro has no canonical form; canon is for Sudoku shapes"


class _Options(NamedTuple):
    key: bool
    as_json: bool
    work_limit: int
    backend: str | None
    source: str


def _canon_chunk(chunk: Chunk, opts: _Options) -> list[Outcome]:
    """The canonical form of each puzzle of a chunk (runs in a worker). A block of
    one-line puzzles goes to the compiled core in one call; lines it does not take (not a
    plain puzzle of the shape, clashing givens, past the work limit) and JSON records are
    written one by one."""
    if chunk.text is None:
        return [_canon_one(rec, opts) for rec in chunk.records or []]
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..engine.canon import FORM, canonical_forms, values_text

    shape = chunk.shape
    assert shape is not None
    size = shape.ncells
    numbered, blob = plain_values(chunk, take=not opts.as_json)
    forms, status = canonical_forms(shape, blob, work_limit=opts.work_limit,
                                    backend=opts.backend) if blob else (b"", b"")
    written = values_text(shape, forms)  # every form's symbols at once
    prefix = f"{shape.name}:" if opts.key else ""
    out: list[Outcome] = []
    run_lines: list[str] = []  # forms in a row, handed on as one text

    def flush() -> None:
        if run_lines:
            out.append(Outcome(0, "", "\n".join(run_lines) + "\n",
                               counts={"canonical": len(run_lines)}))
            run_lines.clear()

    k = 0
    for line, text, plain in numbered:
        if plain and status[k] == FORM:
            run_lines.append(prefix + written[k * size:(k + 1) * size])
        else:  # written as any record is, so each message has one author
            flush()
            out.append(_canon_one(read_one(line, text, opts.source, shape), opts))
        k += plain
    flush()
    return out


def _canon_one(rec: formats.Record, opts: _Options) -> Outcome:
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..engine.canon import canonical

    if rec.puzzle is None:
        return Outcome(rec.line, UNREADABLE, "", str(rec.error))
    if is_kakuro(rec.puzzle.shape):
        return Outcome(rec.line, _KAKURO, "")
    try:
        found = canonical(rec.puzzle, work_limit=opts.work_limit, backend=opts.backend)
    except NumberplaceError as exc:
        status = "limit" if isinstance(exc, LimitError) else "invalid"
        if opts.as_json:
            return Outcome(rec.line, status, json.dumps(
                {"line": rec.line, "status": status, "message": str(exc)}))
        return Outcome(rec.line, status, f"# line {rec.line}: {status}: {exc}")
    if opts.as_json:
        return Outcome(rec.line, "canonical", json.dumps(
            {"line": rec.line, "key": found.key, "puzzle": found.puzzle.to_line(),
             "transform": found.transform.as_dict()}))
    if opts.key:
        return Outcome(rec.line, "canonical", found.key)
    # written in the puzzle's own format and alphabet
    form = Puzzle(found.puzzle.shape, found.puzzle.givens, rec.puzzle.alphabet)
    text = formats.write(form, rec.format)
    return Outcome(rec.line, "canonical",
                   text if rec.format in ONE_LINE_FORMATS else text + "\n")


def _refuse_kakuro(outcome: Outcome, source: str) -> Outcome:
    """The outcome as it is; a Kakuro's stops the command with one error line (exit 2)."""
    if outcome.status == _KAKURO:
        raise NumberplaceError(f"{source}, line {outcome.line}: {NO_KAKURO_FORM}")
    return outcome


def canon(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Write each puzzle's canonical form; exit status 1 if a puzzle has none (clashing
    givens, or past the work limit), 2 if a record could not be read."""

    chosen, alphabet = options.reading(args)
    with options.open_puzzles(args) as source:
        opts = _Options(args.key, args.json, args.work_limit, args.backend, source.name)
        pieces, settings = line_chunks(source, args, chosen, alphabet, settings)
        statuses = run(out.write, settings.replace(shown=_SHOWN), pieces,
                       functools.partial(_canon_chunk, opts=opts),
                       functools.partial(_refuse_kakuro, source=source.name), Meter.of(source))
        options.require_some(sum(statuses.values()), source)
    if statuses[UNREADABLE]:
        return 2
    return 1 if statuses["invalid"] or statuses["limit"] else 0


def add_parsers(sub: options.Commands) -> None:
    """The ``canon`` command."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..engine.canon import WORK_LIMIT

    p = options.command(
        sub, "canon", canon, "write each puzzle's canonical form",
        "Write each puzzle's canonical form: the least of all its equivalent forms (rows "
        "within bands, bands, columns within stacks, stacks, the transpose and relabelling "
        "for classic grids; turns and mirror images for other shapes), so equivalent "
        "puzzles get the same text. Puzzles whose givens clash get a comment line "
        "'# line N: invalid: reason' and exit status 1.")
    options.add_input(p)
    p.add_argument("--key", action="store_true",
                   help="write the key instead (one line: the shape, a jigsaw's regions or "
                        "a Killer's cages, and the canonical givens)")
    options.add_json(p, "one JSON object per puzzle per line: line, key, puzzle (the "
                        "canonical givens as a line), transform (rows, columns, transpose "
                        "or turn, relabel)")
    p.add_argument("--work-limit", type=options.positive, default=WORK_LIMIT, metavar="N",
                   help=f"give up on a puzzle after N steps of work (status limit; default "
                        f"{WORK_LIMIT:,}; only grids of 16x16 and more that are nearly "
                        f"full come near it)")
    options.add_backend(p, "compiled core (c) or the search in pure Python (default: "
                           "fastest)")
