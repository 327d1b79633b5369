"""Shared fixtures: the public benchmark data (read in place, never copied)."""

from __future__ import annotations

import random
import re
import signal
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest

from numberplace.formats.inputs import open_input

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku9"

#: The two puzzles printed in the programming book (figures 1-4 and 1-7).
BOOK_PUZZLES = (
    "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7..",
    ".34....9.6....8214..1.27...4.9.83.5.56.....87.2.56.4.1...21.8..8579....6.9....34.",
)


#: The reason :func:`data_lines` gives for a skip, which the summary counts.
MISSING = re.compile(r"benchmark data (.+) is missing \(see shared/data/README\.md\)")


def data_lines(name: str, limit: int | None = None) -> list[str]:
    """Puzzle lines of a shared benchmark file; skips the test if the data is absent
    (every test reaches the data through here, so the summary can count such skips)."""
    path = DATA / name
    if not path.exists():
        pytest.skip(f"benchmark data {path} is missing (see shared/data/README.md)")
    with open_input(path) as source:
        return list(islice(source.puzzle_lines(), limit))


def shuffled_9x9(line: str, rng: random.Random) -> str:
    """A one-line 9x9 puzzle changed by a random symmetry: rows within bands, bands,
    columns within stacks, stacks, the transpose half the time, and a relabelling."""

    def order() -> list[int]:
        return [b * 3 + i for b in rng.sample(range(3), 3) for i in rng.sample(range(3), 3)]

    grid = [line[r * 9:(r + 1) * 9] for r in range(9)]
    if rng.random() < 0.5:
        grid = ["".join(col) for col in zip(*grid, strict=True)]
    table = str.maketrans("123456789", "".join(rng.sample("123456789", 9)))
    rows, cols = order(), order()
    return "".join(grid[r][c] for r in rows for c in cols).translate(table)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say loudly, at any verbosity, when benchmark data is absent and tests were skipped
    for it; print nothing when the data is all there."""
    names: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
        match = MISSING.search(reason)
        if match:
            name = Path(match[1]).name
            names[name] = names.get(name, 0) + 1
    if not DATA.is_dir():
        what, it = f"benchmark data {DATA} is missing", "it"
    elif names:
        what, it = f"benchmark data {DATA} lacks {', '.join(sorted(names))}", "them"
    else:
        return
    count = sum(names.values())
    tests = f"test that needs {it} is" if count == 1 else f"tests that need {it} are"
    terminalreporter.write_line(
        f"{what}: {count} {tests} skipped (see shared/data/README.md)", yellow=True, bold=True)


# A job a shell starts in the background inherits Ctrl-C ignored, and Python then leaves
# it so: the tests that press Ctrl-C (SIGINT) would wait for searches that never end.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _ctrl_c_left_as_found() -> Iterator[None]:
    """Every test leaves Ctrl-C handled as it found it: a handler left behind would keep
    a later test's search from being interrupted, and that test would never end."""
    before = signal.getsignal(signal.SIGINT)
    yield
    after = signal.getsignal(signal.SIGINT)
    if after is not before:
        signal.signal(signal.SIGINT, before)
        pytest.fail(f"the test left Ctrl-C (SIGINT) handled by {after!r}")
