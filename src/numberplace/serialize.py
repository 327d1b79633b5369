"""Results as plain data (dicts of str, int, float, list and None), ready for JSON.

One place turns what the library returns into records: a search result, a step, an
explanation, a hint, a rating, a generated puzzle, and a record that could not be read.
The command line's ``--json`` prints them and a web front end sends them; both get the
same keys. Cells are written ``r5c6`` (or the book's ``(6,5)``), values as numbers 1..n,
puzzles and solutions as one line of symbols.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import formats
from .errors import FormatError
from .puzzle import Puzzle

if TYPE_CHECKING:
    from .alphabet import Alphabet
    from .engine import Result
    from .generate import Generated
    from .logic.explain import Explanation, Hint
    from .logic.step import Step
    from .rating import Rating
    from .shape import Shape

Record = dict[str, object]


def puzzle_line(puzzle: Puzzle) -> str:
    """The puzzle's givens as one line of symbols."""
    return formats.write(puzzle, "line")


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
    """A rating: the puzzle, status, level and number, difficulty, the book's score and
    level, hardest technique, guesses, steps per technique, and a message if any."""
    record: Record = {"line": line, "puzzle": puzzle_line(puzzle), **rating_fields(rating)}
    if rating.message:
        record["message"] = rating.message
    return record


def rating_fields(rating: Rating) -> Record:
    """The fields of a rating alone."""
    return {"status": str(rating.status), "level": rating.level,
            "level_number": rating.level_number, "difficulty": rating.difficulty,
            "book_score": rating.book_score, "book_level": rating.book_level,
            "hardest": rating.hardest, "guesses": rating.guesses,
            "steps": dict(rating.steps)}


def generated_record(made: Generated, symmetry: str) -> Record:
    """A generated puzzle: puzzle, solution, its rating's fields, the seed that makes it
    again and the symmetry; a multi-grid shape adds each grid's solution count, a
    jigsaw its region map (needed to read the puzzle back)."""
    from .formats._common import REGION_LABELS
    from .generate import grid_solution_counts

    puzzle, shape = made.puzzle, made.puzzle.shape
    record: Record = {
        "puzzle": puzzle_line(puzzle),
        "solution": formats.write(puzzle, "line", values=made.solution),
        **rating_fields(made.rating), "seed": made.seed, "symmetry": symmetry}
    if len(shape.grids) > 1:
        record["grid_solutions"] = grid_solution_counts(puzzle)
    if shape.regions:
        record["regions"] = "".join(REGION_LABELS[r] for r in shape.regions)
    return record
