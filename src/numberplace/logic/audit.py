"""Soundness audit: walk a solve path and check every step against a known solution.

A sound step never removes a cell's true value and never places a wrong one. The audit
is how the tests and the soundness benchmark hold every technique to that, on any shape:
with a puzzle's solution (or any grid that fits its givens, since a sound step keeps
every solution), it follows the driver and records each step that breaks the rule.

A technique family can be *probed*: the techniques registered before it run first, and
each time they stall the family's finders are asked. Exhaustively, every step they find
on that board is checked (not only the one applied), which tests far more positions than
a solve path alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from ..model.puzzle import Puzzle
from ..model.shape import Shape
from .board import Board
from .driver import next_step
from .step import Step
from .techniques import REGISTRY, Finder


@dataclass
class Audit:
    """What an audit saw: steps found and applied by technique, and the faults."""

    found: Counter[str] = field(default_factory=Counter)
    applied: Counter[str] = field(default_factory=Counter)
    faults: list[str] = field(default_factory=list)
    puzzles: int = 0
    solved: int = 0

    def merge(self, other: Audit) -> None:
        """Add another audit's counts and faults to this one."""
        self.found.update(other.found)
        self.applied.update(other.applied)
        self.faults.extend(other.faults)
        self.puzzles += other.puzzles
        self.solved += other.solved


def step_fault(step: Step, solution: Sequence[int], shape: Shape) -> str | None:
    """Why ``step`` is unsound against ``solution``, or None when it is sound."""
    for c, v in step.eliminations:
        if solution[c] == v:
            return f"{step.technique} removes the true value {v} of " \
                   f"{shape.cell_name(c)}: {step.describe(shape)}"
    for c, v in step.placements:
        if solution[c] != v:
            return f"{step.technique} places {v} at {shape.cell_name(c)}, whose value " \
                   f"is {solution[c]}: {step.describe(shape)}"
    return None


def simpler_than(probe: Sequence[str]) -> list[str]:
    """Names of the registered techniques before the first of ``probe``."""
    wanted = set(probe)
    out = []
    for name in REGISTRY.names():
        if name in wanted:
            break
        out.append(name)
    return out


def audit(puzzle: Puzzle, solution: Sequence[int], probe: Sequence[str] | None = None,
          before: Sequence[str] | None = None, exhaustive: bool = True,
          unique: bool = False, max_steps: int = 10_000, each: bool = False,
          every: Collection[str] = ()) -> Audit:
    """Solve ``puzzle`` step by step and check every step against ``solution``.

    Without ``probe``, the driver's full path is followed (uniqueness techniques too when
    ``unique``). With ``probe`` (technique names), the techniques in ``before`` (default:
    those registered before the first probed one) run first; whenever they stall, the
    probed finders are asked: all their steps on that board are checked when
    ``exhaustive``, the first of each with ``each`` (a quicker audit that still asks
    every finder at every stall), else only the first of the first finder that has one;
    with ``each``, the probed techniques named in ``every`` have all their steps checked.
    The first step
    found is applied either way; the walk ends when the board is solved or stalls, or
    at the first fault.
    """
    shape = puzzle.shape
    report = Audit(puzzles=1)
    board = Board.from_puzzle(puzzle)
    if probe is None:
        first, probed = None, []
    else:
        first = list(before) if before is not None else simpler_than(probe)
        probed = REGISTRY.finders(probe, unique=True)
    in_full = set(REGISTRY.finders(list(every), unique=True))
    for _ in range(max_steps):
        if board.is_solved() or board.contradiction():
            break
        step = next_step(board, shape, first, unique=unique)
        if step is None and probed:
            step = _probe(board, shape, probed, solution, exhaustive and not each, report,
                          each, in_full)
        elif step is not None:
            fault = step_fault(step, solution, shape)
            if fault:
                report.faults.append(fault)
        if step is None or report.faults:
            break  # after a fault the board has left the solution: nothing more to check
        report.applied[step.technique] += 1
        step.apply(board)
    problem = board.contradiction()
    if problem:
        report.faults.append(f"the board broke: {problem}")
    report.solved = int(board.is_solved() and not problem)
    return report


def _probe(board: Board, shape: Shape, finders: list[Finder], solution: Sequence[int],
           exhaustive: bool, report: Audit, each: bool = False,
           in_full: Collection[Finder] = ()) -> Step | None:
    """Check the probed finders' steps on this board (all of them for the finders in
    ``in_full``); the first one found."""
    chosen = None
    for finder in finders:
        steps = list(finder(board, shape)) if exhaustive or finder in in_full else \
            [s for s in [next(finder(board, shape), None)] if s is not None]
        for s in steps:
            report.found[s.technique] += 1
            fault = step_fault(s, solution, shape)
            if fault:
                report.faults.append(fault)
        if steps and chosen is None:
            chosen = steps[0]
            if not exhaustive and not each:
                break
    return chosen
