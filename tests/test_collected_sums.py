"""Published Kakuro and Killer Sudoku puzzles (``tests/data/sums``, sources in its README):
every engine back-end finds exactly one solution and they agree; the solution keeps every
rule by a check written here, not the library's; it is the one the source prints, where
it prints one; and the step-by-step solver solves or stalls, never breaks, with every step
sound against the solution."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from numberplace import engine
from numberplace.engine import Status
from numberplace.formats import read_file
from numberplace.logic.audit import audit, step_fault
from numberplace.logic.driver import SolveResult, solve_path
from numberplace.logic.step import LogicStatus
from numberplace.model.puzzle import Puzzle

DATA = Path(__file__).resolve().parent / "data" / "sums"

if not DATA.is_dir():
    pytest.skip(f"the collected puzzles ({DATA}) are missing", allow_module_level=True)

#: Searches longer than this many nodes are left to the slow run on the pure-Python
#: back-end (the hardest Killers take it a minute; the compiled one, under a second).
NODE_BUDGET = 100
SOLUTION_MARK = "# solution:"


@dataclass(frozen=True, eq=False)  # hashed by identity, for the caches
class Collected:
    """One puzzle of the collection, with where it is and what its source prints."""

    where: str
    title: str
    puzzle: Puzzle | None
    error: str | None
    published: tuple[int, ...] | None

    @property
    def kind(self) -> str:
        assert self.puzzle is not None
        return "killer" if self.puzzle.shape.houses else "kakuro"


def _published(text: str) -> tuple[int, ...] | None:
    for line in text.splitlines():
        if line.startswith(SOLUTION_MARK):
            return tuple(int(ch) for ch in line[len(SOLUTION_MARK):].strip())
    return None


def _title(text: str) -> str:
    return next((line.lstrip("# ").strip() for line in text.splitlines()
                 if line.startswith("#") and not line.startswith(SOLUTION_MARK)), "")


def _collect() -> list[Collected]:
    out = []
    for path in sorted(DATA.glob("*.txt")):
        for rec in read_file(path):
            out.append(Collected(f"{path.stem}:{rec.line}", _title(rec.text), rec.puzzle,
                                 None if rec.error is None else str(rec.error),
                                 _published(rec.text)))
    return out


COLLECTED = _collect()
PARAMS = [pytest.param(item, id=item.where) for item in COLLECTED]


@cache
def _search(item: Collected, backend: str, node_limit: int = 0) -> engine.Result:
    assert item.puzzle is not None, item.error
    return engine.solve(item.puzzle, backend=backend, node_limit=node_limit)


@cache
def _solution(item: Collected) -> tuple[int, ...]:
    result = _search(item, engine.available_backends()[0])
    assert result.status is Status.UNIQUE, (item.title, result.status)
    assert result.solution is not None
    return result.solution


@cache
def _path(item: Collected) -> SolveResult:
    assert item.puzzle is not None, item.error
    return solve_path(item.puzzle)


def _rule_breaks(puzzle: Puzzle, values: tuple[int, ...]) -> list[str]:
    """Every rule the values break: cage digits 1-9, different, adding up to the sum; for a
    Killer, each row, column and 3x3 box of the 9x9 holding 1-9 (found from the cells'
    places, not from the shape's houses)."""
    shape = puzzle.shape
    wrong = [f"{len(values)} values for {shape.ncells} cells"] if \
        len(values) != shape.ncells else []
    covered: Counter[int] = Counter()
    for cage in shape.cages:
        digits = [values[c] for c in cage.cells]
        covered.update(cage.cells)
        if not all(1 <= d <= 9 for d in digits):
            wrong.append(f"{cage}: digits {digits} outside 1-9")
        if len(set(digits)) != len(digits):
            wrong.append(f"{cage}: a digit repeats in {digits}")
        if cage.total is not None and sum(digits) != cage.total:
            wrong.append(f"{cage}: {digits} add up to {sum(digits)}, not {cage.total}")
    if any(covered[c] == 0 for c in range(shape.ncells)):
        wrong.append("a cell is in no cage")
    if shape.houses:  # a Killer: its cages part the grid, and the Sudoku rules hold
        if any(n > 1 for n in covered.values()):
            wrong.append("a cell is in two cages")
        groups: dict[tuple[str, int], list[int]] = {}
        for cell, (row, column) in enumerate(shape.coords):
            for key in (("row", row), ("column", column),
                        ("box", row // 3 * 3 + column // 3)):
                groups.setdefault(key, []).append(values[cell])
        wrong += [f"{name} {k + 1} holds {sorted(vals)}"
                  for (name, k), vals in groups.items() if sorted(vals) != list(range(1, 10))]
        if len(groups) != 27:
            wrong.append(f"{len(groups)} rows, columns and boxes, not 27")
    return wrong


def test_the_collection_reads_and_holds_enough() -> None:
    assert [(c.where, c.error) for c in COLLECTED if c.error is not None] == []
    kinds = Counter(c.kind for c in COLLECTED)
    assert kinds["kakuro"] >= 15 and kinds["killer"] >= 10, kinds
    assert all(c.title for c in COLLECTED), "every puzzle names its source in a comment"
    sizes = {c.puzzle.shape.canvas for c in COLLECTED if c.kind == "kakuro" and c.puzzle}
    assert len(sizes) >= 3, sizes


@pytest.mark.parametrize("item", PARAMS)
def test_the_engines_find_one_solution_that_keeps_the_rules(item: Collected) -> None:
    found: dict[str, engine.Result] = {}
    long_search = False
    for backend in engine.available_backends():
        if backend == "python" and "c" in found and found["c"].nodes > NODE_BUDGET:
            long_search = True  # the slow run searches it to the end
            continue
        result = _search(item, backend, NODE_BUDGET if backend == "python" else 0)
        if result.status is Status.LIMIT:  # the same, where there is no compiled back-end
            long_search = True
            continue
        assert result.status is Status.UNIQUE, (item.title, backend, result.status)
        found[backend] = result
    if not found:
        pytest.skip(f"{item.title}: a long search for the pure-Python back-end, searched "
                    f"in the slow run")
    solutions = {backend: r.solution for backend, r in found.items()}
    assert len(set(solutions.values())) == 1, (item.title, solutions)
    solution = next(iter(solutions.values()))
    assert solution is not None
    assert item.puzzle is not None
    assert _rule_breaks(item.puzzle, solution) == [], item.title
    if item.published is not None:
        assert solution == item.published, f"{item.title}: not the source's solution"
    assert long_search or len(found) == len(engine.available_backends())


@pytest.mark.slow
@pytest.mark.parametrize("item", PARAMS)
def test_the_pure_python_engine_searches_to_the_end(item: Collected) -> None:
    result = _search(item, "python")
    assert result.status is Status.UNIQUE, (item.title, result.status)
    assert result.solution == _solution(item)


@pytest.mark.slow
@pytest.mark.parametrize("item", PARAMS)
def test_the_step_by_step_solver_never_breaks_and_every_step_is_sound(
        item: Collected) -> None:
    """The path is walked once here, each step checked as the audit checks it; the slow
    run also walks the whole audit."""
    assert item.puzzle is not None, item.error
    path = _path(item)
    assert path.status in (LogicStatus.SOLVED, LogicStatus.STALLED), \
        (item.title, path.status, path.message)
    solution = _solution(item)
    faults = [fault for step in path.steps
              if (fault := step_fault(step, solution, item.puzzle.shape)) is not None]
    assert faults == [], item.title
    if path.status is LogicStatus.SOLVED:
        assert path.board is not None
        assert tuple(path.board.values) == solution, item.title


@pytest.mark.slow
@pytest.mark.parametrize("item", PARAMS)
def test_the_audit_finds_no_unsound_step(item: Collected) -> None:
    assert item.puzzle is not None, item.error
    report = audit(item.puzzle, _solution(item))
    assert report.faults == [], item.title
    assert report.solved == int(_path(item).status is LogicStatus.SOLVED), item.title


def test_logic_alone_solves_every_collected_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    """The step-by-step solver finishes every collected Kakuro and Killer without guessing
    (all 35 do today); the counts are printed, and a puzzle it stalls on is named."""
    solved: Counter[str] = Counter()
    total: Counter[str] = Counter()
    stalled = []
    for item in COLLECTED:
        if item.puzzle is None:
            continue
        total[item.kind] += 1
        if _path(item).status is LogicStatus.SOLVED:
            solved[item.kind] += 1
        else:
            stalled.append(item.title)
    lines = [f"collected puzzles solved step by step without guessing: "
             f"{solved[k]} of {total[k]} {k}" for k in sorted(total)]
    lines += [f"  stalls on: {title}" for title in stalled]
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    assert sum(total.values()) > 0 and stalled == [], stalled
