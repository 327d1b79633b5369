"""Generate puzzles with exactly one solution, at a level, in a symmetry, on any shape.

A puzzle starts as a random full grid (:func:`numberplace.engine.grids.random_grid`). Givens are
then removed an *orbit* at a time (the cells the chosen symmetry maps onto each other),
each removal kept only while the exact engine still finds exactly one solution. For a
target level, the removal also stops at that level's share of empty cells, and a puzzle
whose solve needs harder techniques gets removed cells back until it does not. The
result is rated (:mod:`numberplace.logic.rating`) and kept only if it meets every request:
level, Explainer-scale difficulty range, a technique it must need, clue count range,
minimality. Every puzzle returned has been checked to have exactly one solution.

Two recipes of the sources are modes: the programming book's (its empty-cell counts and
score windows per level, symmetric pairs, retries) and the digit-count pattern of the
Samurai source (``0122211000``: how many digits keep 0, 1, ..., 9 copies). Kakuros and
Killers are made from their kind, not a shape (:func:`generate_sums`).

One module a job:

- :mod:`.sudoku`: :func:`generate`, full grids drawn until one meets the request;
- :mod:`.request`: the request checked before any work (:func:`check_request`);
- :mod:`.removal`: orbits emptied towards a level or a clue range, and the climb to the
  hardest level of logic;
- :mod:`.recipes`: Programming Sudoku's recipe and the digit-count pattern;
- :mod:`.minimal`: minimal puzzles (:func:`is_minimal`);
- :mod:`.symmetric`: the orbits of a symmetry (:func:`orbits`, :func:`has_symmetry`);
- :mod:`.budget`: the checks of every step (one solution, logic, rating) within the
  request's limits;
- :mod:`.made`: what a generator gives back (:class:`Generated`), and the solutions of a
  Samurai's grids each on its own (:func:`grid_solution_counts`);
- :mod:`.regions`: random jigsaw shapes (:func:`random_regions`);
- :mod:`.kakuro_killer`: Kakuros and Killers at a level (:func:`generate_sums`).
"""

from __future__ import annotations

from ..model.symmetry import SYMMETRIES
from .kakuro_killer import SUM_LEVELS, SumsKind, check_sums_level, generate_sums, sums_kind
from .made import Generated, grid_solution_counts
from .minimal import is_minimal
from .regions import random_regions
from .request import check_request
from .sudoku import generate
from .symmetric import has_symmetry, orbits

__all__ = ["SUM_LEVELS", "SYMMETRIES", "Generated", "SumsKind", "check_request",
           "check_sums_level", "generate", "generate_sums", "grid_solution_counts",
           "has_symmetry", "is_minimal", "orbits", "random_regions", "sums_kind"]
