"""The checks a puzzle in the making goes through, within its request's limits: exactly
one solution (for one puzzle, or for each of many removals at once), solved by given
techniques, rated; and the emptying of cells that keeps exactly one solution, on which
every way of removing givens is built.

Every engine search and solve path of a request is bounded by its :class:`Budget`: the
engine's node limit for each check and the deadline of the whole request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import engine
from ..limits import NEVER, Deadline
from ..logic.board import Memo
from ..logic.driver import solve_path
from ..logic.rating import Rating, rate
from ..logic.step import LogicStatus
from ..model.puzzle import Puzzle
from ..model.shape import Shape

#: The engine's node limit for one uniqueness check on shapes larger than 16x16.
_LARGE_CHECK_NODES = 2_000


@dataclass
class Budget:
    """The engine's node limit for each check, and the deadline of the whole request
    (every engine search and solve path of an attempt is bounded by the time left)."""

    node_limit: int
    deadline: Deadline = NEVER
    #: what the solve paths of this request learnt (one request runs in one thread)
    memo: Memo = field(default_factory=Memo)

    def left(self) -> float | None:
        """Seconds left (None: no limit); raises :class:`LimitError` when none are."""
        return self.deadline.left()

    def unique(self, shape: Shape, values: Sequence[int]) -> bool:
        """True when ``values`` (givens taken from a full grid: they cannot clash) have
        exactly one solution."""
        nodes = self.node_limit
        if shape.size > 16:
            # Past 16x16 a check that does not settle soon can take seconds; counting it
            # as not unique only keeps a given, so every puzzle kept is still unique.
            nodes = min(nodes, _LARGE_CHECK_NODES)
        status, _ = engine.solve_givens(shape, values, limit=2, node_limit=nodes,
                                        time_limit=self.left())
        if status is engine.Status.LIMIT:
            self.left()  # the search may have stopped at the deadline
        return status is engine.Status.UNIQUE

    def removable(self, shape: Shape, values: Sequence[int],
                  groups: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """The groups of ``groups`` that can each be emptied from ``values`` (givens taken
        from a full grid) leaving exactly one solution, each checked on its own."""
        if shape.ncells > 81:
            # a batch bounds each search by the time left, not the whole batch: on larger
            # shapes, where one check can take long, the deadline is looked at between them
            return [g for g in groups if self.unique(shape, _without(values, g))]
        if not groups:
            return []
        blob = b"".join(_without(values, g) for g in groups)
        out = engine.solve_blob(shape, blob, limit=2, keep_first=False,
                                node_limit=self.node_limit, time_limit=self.left())
        if any(out.aborted):
            self.left()  # the search may have stopped at the deadline
        return [g for g, found, stopped in zip(groups, out.counts, out.aborted, strict=True)
                if found == 1 and not stopped]

    def solves(self, shape: Shape, values: Sequence[int], techniques: Sequence[str]) -> bool:
        """True when ``techniques`` alone solve the (unique) puzzle ``values``."""
        path = solve_path(Puzzle(shape, tuple(values)), techniques, unique=True,
                          solvable=True, time_limit=self.left(), memo=self.memo)
        if path.status != "solved":
            self.left()
        return path.status is LogicStatus.SOLVED

    def rate(self, puzzle: Puzzle, book: bool, explainer: bool = False) -> Rating:
        """:func:`rate` within the time left; the Explainer's path (the costliest part on
        hard puzzles) only when asked, as most puzzles rated here are not kept."""
        rating = rate(puzzle, node_limit=self.node_limit, book=book, time_limit=self.left(),
                      memo=self.memo, explainer=explainer)
        if rating.status is engine.Status.LIMIT:
            self.left()
        return rating


def _without(values: Sequence[int], group: tuple[int, ...]) -> bytes:
    """``values`` with the cells of ``group`` emptied, as the engine takes them."""
    out = bytearray(values)
    for c in group:
        out[c] = 0
    return bytes(out)


def empty_while_unique(shape: Shape, values: list[int], solution: Sequence[int],
                       groups: Sequence[tuple[int, ...]], budget: Budget,
                       most: int | None = None) -> list[tuple[int, ...]]:
    """Empty each group of cells in turn, keeping it empty only while the puzzle stays
    unique (and, with ``most``, while at most that many cells have been emptied in all);
    a group put back takes its values from ``solution``. Returns the groups emptied."""
    emptied: list[tuple[int, ...]] = []
    count = 0
    for group in groups:
        if most is not None and count + len(group) > most:
            continue
        for c in group:
            values[c] = 0
        if budget.unique(shape, values):
            count += len(group)
            emptied.append(group)
        else:
            for c in group:
                values[c] = solution[c]
    return emptied
