"""``explain``, ``hint`` and ``rate``: the human-style solver over files of puzzles.

Workers return the library's data (an Explanation, a Hint, a Rating); the words, the
JSON records and the pictures are made here, in input order.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TextIO, TypeVar

from .. import formats
from ..arguments import SCALES
from ..errors import FormatError, NumberplaceError
from ..formats._common import counted
from ..model.puzzle import Puzzle
from ..store.serialize import error_record, explanation_record, hint_record, rating_record
from . import options
from .pipeline import UNREADABLE, Meter, Outcome, Settings, run

if TYPE_CHECKING:
    from ..logic.explain import Explanation, Hint
    from ..logic.rating import Rating
    from ..logic.step import Step

R = TypeVar("R")

#: Records per piece of work handed to a worker.
_PIECE = 8


#: A record and what the work made of it (None for a record that could not be read).
Done = tuple[formats.Record, R | None]


def _work(records: list[formats.Record], task: Callable[[Puzzle], R]) -> list[Done[R]]:
    """``task`` on each readable record's puzzle (runs in a worker)."""
    return [(rec, task(rec.puzzle) if rec.puzzle is not None else None) for rec in records]


def _pieces(records: Iterator[formats.Record]) -> Iterator[list[formats.Record]]:
    """The records in pieces of 1, 2, 4, ... up to ``_PIECE``: a small file is spread over
    every worker and its progress shown from the first puzzle on; a long one is handed out in
    pieces large enough that passing them costs little."""
    piece: list[formats.Record] = []
    size = 1
    for rec in records:
        piece.append(rec)
        if len(piece) >= size:
            yield piece
            piece = []
            size = min(2 * size, _PIECE)
    if piece:
        yield piece


def _through(args: argparse.Namespace, out: TextIO, settings: Settings,
             task: Callable[[Puzzle], R],
             say: Callable[[formats.Record, Puzzle, R], tuple[str, str]]) -> int:
    """Run ``task`` over the input's puzzles through the pipeline; ``say`` turns a result
    into (status, text). Exit status 2 if any record could not be read."""

    def emit(done: Done[R]) -> Outcome:
        rec, result = done
        if rec.puzzle is None or result is None:
            # marked in place, as solve marks it, so the output keeps a line per record
            error = rec.error
            reason = error.reason if isinstance(error, FormatError) else str(error)
            text = (json.dumps(error_record(rec.line, error))
                    if getattr(args, "json", False) and isinstance(error, FormatError)
                    else f"line {rec.line}: invalid: {reason}")
            return Outcome(rec.line, UNREADABLE, text, str(error))
        status, text = say(rec, rec.puzzle, result)
        return Outcome(rec.line, status, text)

    with options.open_puzzles(args) as source:
        statuses = run(out.write, settings, _pieces(options.records(source, args)),
                       functools.partial(_work, task=task), emit,
                       Meter.of(source))
        options.require_some(sum(statuses.values()), source)
    return 2 if statuses[UNREADABLE] else 0


# -- explain --------------------------------------------------------------------------------


#: Said after a path that stalled for want of a technique.
_GUESS_ADVICE = " (--guess goes on by trial and error)"


def explain(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Explain each puzzle step by step."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..logic.explain import STALLED
    from ..logic.explain import explain as explain_puzzle

    book = options.is_book(args.techniques)
    if args.svg:
        _picture_folder(args.svg)
    task = functools.partial(explain_puzzle, techniques=options.techniques(args.techniques),
                             guess=args.guess or book, time_limit=args.time_limit)

    def say(rec: formats.Record, puzzle: Puzzle, result: Explanation) -> tuple[str, str]:
        if args.svg:
            _write_pictures(args.svg, rec.line, puzzle, result.steps)
        if args.json:
            return str(result.status), json.dumps(
                explanation_record(rec.line, puzzle, result, args.notation))
        advice = (_GUESS_ADVICE if result.message.startswith(STALLED) and not args.guess
                  else "")
        return str(result.status), _explanation_text(rec.line, puzzle, result,
                                                     args.notation, book, advice)

    return _through(args, out, settings, task, say)


def _explanation_text(line: int, puzzle: Puzzle, result: Explanation, notation: str,
                      book: bool, advice: str = "") -> str:
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..logic.explain import book_log_line

    shape = puzzle.shape
    used = ", ".join(f"{name} {n}" for name, n in result.technique_counts().items())
    text = [f"line {line}: {result.status}, {counted(len(result.steps), 'step')}"
            + (f" ({used})" if used else "")
            + (f": {result.message}" if result.message else "") + advice]
    for number, step in enumerate(result.steps, start=1):
        said = (book_log_line(step, shape, puzzle.alphabet) if book else
                step.headline(shape, notation, puzzle.alphabet))
        text.append(f"  {number}. {said}")
    return "\n".join(text)


def _write_pictures(folder: str, line: int, puzzle: Puzzle, steps: Sequence[Step]) -> None:
    """One SVG per step, each written to a temporary file first and then renamed, so an
    interrupted run never leaves half a picture."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..logic.explain import boards_before_steps
    from ..render import render_svg

    givens = {c for c, v in enumerate(puzzle.givens) if v}
    for number, (board, step) in enumerate(zip(boards_before_steps(puzzle, steps), steps,
                                               strict=True), start=1):
        picture = render_svg(board, puzzle.shape, step, puzzle.alphabet, givens=givens)
        path = os.path.join(folder, f"line{line}-step{number:03d}.svg")
        try:
            with tempfile.NamedTemporaryFile("w", dir=folder, suffix=".tmp", delete=False,
                                             encoding="utf-8") as handle:
                handle.write(picture)
            os.replace(handle.name, path)
        except OSError as exc:
            raise NumberplaceError(f"cannot write {path}: {exc.strerror or exc}") from None


def _picture_folder(folder: str) -> None:
    """Make the folder of ``--svg`` (before any work), or say why it cannot be one."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise NumberplaceError(f"--svg {folder}: is not a directory")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise NumberplaceError(f"--svg {folder}: cannot create it: "
                               f"{exc.strerror or exc}") from None


# -- hint -----------------------------------------------------------------------------------


def hint(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """The next step of each puzzle."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..logic.explain import next_hint

    task = functools.partial(next_hint, techniques=options.techniques(args.techniques),
                             placement=args.placement, time_limit=args.time_limit)

    def say(rec: formats.Record, puzzle: Puzzle, result: Hint) -> tuple[str, str]:
        if args.json:
            return str(result.status), json.dumps(
                hint_record(rec.line, puzzle, result, args.notation))
        return str(result.status), f"line {rec.line}: " + _hint_text(puzzle, result, args)

    return _through(args, out, settings, task, say)


def _hint_text(puzzle: Puzzle, result: Hint, args: argparse.Namespace) -> str:
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..logic.explain import STALLED, hint_text
    from ..logic.step import LogicStatus

    if result.status is LogicStatus.STALLED:
        return f"stalled: {result.message}" + (
            _GUESS_ADVICE if result.message.startswith(STALLED) else "")
    if result.step is None:
        return f"{result.status}: {result.message}"
    text = hint_text(result.step, puzzle.shape, args.tier, args.notation, puzzle.alphabet)
    if result.before:
        names = ", ".join(sorted({s.technique for s in result.before}))
        n = len(result.before)
        text += f" (after {n} elimination step{'s' if n > 1 else ''}: {names})"
    if result.message:
        text += f" ({result.status}: {result.message})"
    return text


# -- rate -----------------------------------------------------------------------------------


def rate(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Rate each puzzle."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..logic.rating import rate as rate_puzzle

    task = functools.partial(rate_puzzle, time_limit=args.time_limit, scale=args.scale)

    def say(rec: formats.Record, puzzle: Puzzle, r: Rating) -> tuple[str, str]:
        status = r.level or str(r.status)
        if args.json:
            return status, json.dumps(rating_record(rec.line, puzzle, r))
        if r.level is None:
            return status, f"line {rec.line}: {r.status}" + (f": {r.message}" if r.message
                                                            else "")
        book = (f"; book score {r.book_score}, book level {r.book_level}" if r.book_score
                else "")
        return status, (f"line {rec.line}: {r.level} (level {r.level_number}), hardest "
                        f"{r.hardest}, {counted(r.guesses, 'guess', 'guesses')}; difficulty "
                        f"{r.difficulty} ({args.scale} scale, set by {r.explainer_hardest})"
                        f"{book}")

    return _through(args, out, settings, task, say)


def add_parsers(sub: options.Commands) -> None:
    """The ``explain``, ``hint`` and ``rate`` commands."""
    _add_explain(sub)
    p = options.command(sub, "hint", hint, "the next step of each puzzle",
                        "Find the next step of each puzzle (or of a pencil-mark grid) and tell it "
                        "at the chosen level of detail. A puzzle that is invalid, has no solution "
                        "or is already solved is reported as such; for one with several solutions "
                        "the step is given with a warning.")
    options.add_input(p)
    options.add_logic(p)
    p.add_argument("--tier", type=int, choices=(1, 2, 3), default=3,
                   help="1: technique and house, 2: also the cells, 3: the whole step")
    p.add_argument("--placement", action="store_true",
                   help="the next value to write, one per call as a step-at-a-time "
                        "solver gives it (eliminations on the way are counted)")
    options.add_json(p, "one JSON object per puzzle per line: puzzle, status, step, before")
    options.add_time_limit(p, options.DEFAULT_SECONDS, "give up a puzzle's hint after S "
                           f"seconds (status stalled; default {options.DEFAULT_SECONDS:g}, 0 "
                           "for none)")

    p = options.command(sub, "rate", rate, "rate each puzzle's difficulty",
                        "Rate each puzzle: our level (1 Easy ... 6 Trial and Error) and the "
                        "hardest technique, which decided it; guesses; a difficulty on the "
                        "Sudoku Explainer scale and the hardest step of the Explainer's path, "
                        "which set it; and the programming book's score and level. "
                        "Puzzles without exactly one solution are reported as such, never rated.")
    options.add_input(p)
    p.add_argument("--scale", choices=SCALES, default=SCALES[0],
                   help="the Explainer's technique set the difficulty follows: "
                        "explainer, Sudoku Explainer 1.2.1's, which most published ratings "
                        "use; sukaku, SukakuExplainer's default set, which adds "
                        "strong-linked fish and ALS wings and rates the largest public "
                        "banks (default: explainer)")
    options.add_json(p, "one JSON object per puzzle per line: puzzle, status, level, "
                        "level_number, difficulty, book_score, book_level, hardest (the "
                        "technique that decided the level), explainer_hardest (the step that "
                        "set the difficulty), guesses")
    options.add_time_limit(p, options.DEFAULT_SECONDS, "give up rating a puzzle after S "
                           f"seconds (status limit; default {options.DEFAULT_SECONDS:g}, 0 for "
                           "none)")


def _add_explain(sub: options.Commands) -> None:
    p = options.command(sub, "explain", explain, "solve step by step, explaining every step",
                        "Solve each puzzle the way a person does, simplest technique first, and "
                        "print the numbered steps with a summary of the techniques used. A pencil-"
                        "mark grid is explained from its own candidates.")
    options.add_input(p)
    options.add_logic(p)
    options.add_json(p, "one JSON object per puzzle per line: puzzle, status, steps")
    p.add_argument("--svg", metavar="DIR",
                   help="also write one SVG picture per step into DIR "
                        "(line<L>-step<NNN>.svg)")
    p.add_argument("--guess", action="store_true",
                   help="when logic stalls, guess and backtrack (Programming Sudoku's brute force; "
                        "implied by --techniques book); every guess is a step")
    options.add_time_limit(p, options.DEFAULT_SECONDS, "stop a puzzle's path after S seconds, "
                           "reporting it stalled; the check for one solution takes at most "
                           f"half (default {options.DEFAULT_SECONDS:g}, 0 for none)")
