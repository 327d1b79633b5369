"""numberplace: Sudoku-family puzzles, solved instantly or step by step."""

from .alphabet import Alphabet
from .engine import Result, Status, count, first_solution, is_unique, solutions, solve, solve_batch
from .errors import FormatError, NumberplaceError, PuzzleError, ShapeError
from .puzzle import Puzzle
from .shape import House, Shape, by_name, classic, diagonal, jigsaw, samurai

__version__ = "0.1.0"

__all__ = [
    "Alphabet", "FormatError", "House", "NumberplaceError", "Puzzle", "PuzzleError", "Result",
    "Shape", "ShapeError", "Status", "by_name", "classic", "count", "diagonal",
    "first_solution", "is_unique", "jigsaw", "samurai", "solve", "solve_batch", "solutions",
    "__version__",
]
