"""numberplace: Sudoku-family puzzles, solved instantly or step by step.

The names below are loaded on first use (PEP 562), so a command that needs only part of
the package starts without importing the rest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import (
        Result,
        Status,
        count,
        first_solution,
        is_unique,
        solutions,
        solve,
        solve_batch,
    )
    from .errors import FormatError, NumberplaceError, PuzzleError, ShapeError
    from .model.alphabet import Alphabet
    from .model.puzzle import Puzzle
    from .model.shape import House, Shape, by_name, classic, diagonal, jigsaw, samurai

__version__ = "0.1.0"

# public name -> the module that defines it
_HOMES = {
    "Alphabet": "model.alphabet",
    **dict.fromkeys(("Result", "Status", "count", "first_solution", "is_unique", "solutions",
                     "solve", "solve_batch"), "engine"),
    **dict.fromkeys(("FormatError", "NumberplaceError", "PuzzleError", "ShapeError"), "errors"),
    "Puzzle": "model.puzzle",
    **dict.fromkeys(("House", "Shape", "by_name", "classic", "diagonal", "jigsaw", "samurai"),
                    "model.shape"),
}

__all__ = [
    "Alphabet", "FormatError", "House", "NumberplaceError", "Puzzle", "PuzzleError", "Result",
    "Shape", "ShapeError", "Status", "by_name", "classic", "count", "diagonal",
    "first_solution", "is_unique", "jigsaw", "samurai", "solve", "solve_batch", "solutions",
    "__version__",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'numberplace' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
