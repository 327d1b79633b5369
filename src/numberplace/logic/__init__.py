"""Human-style solving: a candidates board, techniques that explain themselves, a driver.

Usage: ``solve_path(puzzle)`` gives the steps; ``next_step(board, shape)`` finds one.
Every technique is an entry of :data:`REGISTRY`.
"""

from .board import Board
from .driver import BOOK, SolveResult, next_placement, next_step, solve_path
from .intersections import CLAIMING, POINTING, find_claiming, find_pointing
from .singles import find_full_house, find_hidden_single, find_naked_single
from .step import Role, Step
from .subsets import (
    find_hidden_pair,
    find_hidden_quadruple,
    find_hidden_subset,
    find_hidden_triple,
    find_naked_pair,
    find_naked_quadruple,
    find_naked_subset,
    find_naked_triple,
)
from .techniques import REGISTRY, Family, Technique

__all__ = [
    "BOOK", "CLAIMING", "POINTING", "REGISTRY", "Board", "Family", "Role", "SolveResult", "Step",
    "Technique", "find_claiming", "find_full_house", "find_hidden_pair", "find_hidden_quadruple",
    "find_hidden_single", "find_hidden_subset", "find_hidden_triple", "find_naked_pair",
    "find_naked_quadruple", "find_naked_single", "find_naked_subset", "find_naked_triple",
    "find_pointing", "next_placement", "next_step", "solve_path",
]
