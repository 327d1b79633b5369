"""Every puzzle of the public benchmark sets: right status, solutions that fit.

Three searches are compared: the engine's default path (the specialised 9x9 solver when
built), the general compiled engine, and, on a sample, the pure-Python reference. The
files are read from ../shared/data/sudoku9 and the tests skip when it is absent.
"""

from __future__ import annotations

import pytest

from numberplace import Puzzle, classic, engine, formats

from conftest import data_lines

SHAPE = classic(9)

#: file -> the status every puzzle in it must get (None: not documented, compare engines)
FILES = {
    "17_clue.txt": "unique",
    "magictour_top1465.txt": "unique",
    "forum_hardest_1905_11plus.txt": "unique",
    "forum_hardest_1106.txt": None,
    "top95.txt": "unique",
    "kaggle_like_10k.txt": None,
    "serg_benchmark.txt": "multiple",
}

#: files whose whole-file check takes long (tens of thousands of hard puzzles)
SLOW = {"forum_hardest_1905_11plus.txt"}


def _blob(lines: list[str]) -> bytes:
    values = [formats.values9(line) for line in lines]
    assert None not in values
    return b"".join(values)  # type: ignore[arg-type]


def _engines():  # type: ignore[no-untyped-def]
    """The default compiled engine (9x9 fast path when built) and the general one."""
    if "c" not in engine.available_backends():
        pytest.skip("the compiled engine is not built")
    return engine._compiled(SHAPE), engine._compiled(SHAPE, specialised=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n
                                  for n in sorted(FILES)])
def test_every_puzzle_gets_the_right_status(name: str) -> None:
    lines = data_lines(name)
    blob = _blob(lines)
    default, general = _engines()
    a = default.solve_batch(blob, 2, 1, 0, 0.0)
    b = general.solve_batch(blob, 2, 1, 0, 0.0)
    counts_a = memoryview(a[0]).cast("i").tolist()
    counts_b = memoryview(b[0]).cast("i").tolist()
    assert counts_a == counts_b
    expected = FILES[name]
    statuses = {str(engine.status_of(c, 2, False)) for c in counts_a}
    if expected is not None:
        assert statuses == {expected}
    assert not any(a[1]) and not any(b[1])  # nothing stopped by a budget
    for k, count in enumerate(counts_a):
        if count:
            puzzle = Puzzle(SHAPE, tuple(blob[k * 81:(k + 1) * 81]))
            sol_a = tuple(a[2][k * 81:(k + 1) * 81])
            assert puzzle.fits(sol_a), (name, k + 1)
            if count == 1:  # a unique solution must be the same from both engines
                assert sol_a == tuple(b[2][k * 81:(k + 1) * 81]), (name, k + 1)


@pytest.mark.parametrize("name", sorted(FILES))
def test_pure_python_agrees_on_a_sample(name: str) -> None:
    lines = data_lines(name, 40)
    for line in lines:
        puzzle = Puzzle(SHAPE, tuple(_blob([line])))
        c = engine.solve(puzzle)
        py = engine.solve(puzzle, backend="python")
        assert (c.status, c.count) == (py.status, py.count), line
        if c.status is engine.Status.UNIQUE:
            assert c.solution == py.solution
