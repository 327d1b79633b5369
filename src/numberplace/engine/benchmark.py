"""``numberplace bench``: solve files of puzzles and measure throughput and latency.

Method: each file is read into memory first (so disk speed is not measured); the timed
part turns every line into cell values and counts each puzzle's solutions up to ``limit``
in one process, through the same batch entry point the command line uses. Per-puzzle
times come from the engine's own clock around each search; puzzles/s is the number of
puzzles divided by the wall time of the timed part, parsing included.
"""

from __future__ import annotations

import os
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import islice
from typing import TextIO

from rich.console import Console
from rich.table import Table

from .. import engine, formats
from ..errors import NumberplaceError
from ..formats.inputs import open_input
from ..model.shape import Shape, classic


@dataclass
class BenchRow:
    """Measurements of one file."""

    name: str
    puzzles: int
    seconds: float
    nanoseconds: list[int]
    guesses: int
    statuses: Counter[str] = field(default_factory=Counter)
    backend: str = ""

    @property
    def rate(self) -> float:
        """Puzzles per second, parsing included."""
        return self.puzzles / self.seconds if self.seconds else 0.0

    @property
    def median_ms(self) -> float:
        """Median time per puzzle in milliseconds."""
        return statistics.median(self.nanoseconds) / 1e6 if self.nanoseconds else 0.0

    @property
    def worst_ms(self) -> float:
        """Worst time of one puzzle in milliseconds."""
        return max(self.nanoseconds) / 1e6 if self.nanoseconds else 0.0


def _lines(path: str, max_puzzles: int | None) -> list[str]:
    with open_input(path) as source:
        return list(islice(source.puzzle_lines(), max_puzzles))


def _blob9(lines: list[str]) -> bytes | None:
    """Cell values of 81-character lines, or None if any line needs the general reader."""
    values = [formats.values9(ln) for ln in lines]
    if any(v is None for v in values):
        return None
    return b"".join(values)  # type: ignore[arg-type]


def bench_file(path: str, *, limit: int = 2, max_puzzles: int | None = None, repeat: int = 1,
               backend: str | None = None, shape: Shape | None = None) -> BenchRow:
    """Measure one file; with ``repeat`` > 1 the fastest run is kept."""
    lines = _lines(path, max_puzzles)
    best: BenchRow | None = None
    for _ in range(repeat):
        row = _run_once(path, lines, limit, backend, shape)
        if best is None or row.seconds < best.seconds:
            best = row
    assert best is not None
    return best


def _run_once(path: str, lines: list[str], limit: int, backend: str | None,
              shape: Shape | None) -> BenchRow:
    which = engine.backend_name(backend)
    start = time.perf_counter()
    groups: list[tuple[Shape, bytes]] = []
    blob = _blob9(lines) if shape in (None, classic(9)) else None
    if blob is not None:
        groups.append((classic(9), blob))
    else:
        by_shape: dict[Shape, list[bytes]] = {}
        for rec in formats.read_records(lines, shape=shape, source=path):
            if rec.puzzle is None:
                raise NumberplaceError(str(rec.error))
            by_shape.setdefault(rec.puzzle.shape, []).append(bytes(rec.puzzle.givens))
        groups = [(s, b"".join(v)) for s, v in by_shape.items()]
    ns: list[int] = []
    guesses = 0
    statuses: Counter[str] = Counter()
    for s, data in groups:
        out = engine.solve_blob(s, data, limit=limit, keep_first=False, backend=backend)
        ns.extend(out.nanoseconds)
        guesses += sum(out.guesses)
        for found in out.counts:
            statuses[str(engine.status_of(found, limit, False))] += 1
    seconds = time.perf_counter() - start
    return BenchRow(os.path.basename(path), len(ns), seconds, ns, guesses, statuses, which)


def render_table(rows: list[BenchRow], out: TextIO) -> None:
    """Print the measurements as a table."""
    table = Table(title=f"numberplace bench (engine: {rows[0].backend if rows else '-'}, "
                        "one process)")
    for name in ("file", "puzzles", "puzzles/s", "median ms", "worst ms", "guesses/puzzle",
                 "unique", "multiple", "none"):
        table.add_column(name, justify="left" if name == "file" else "right")
    for r in rows:
        table.add_row(r.name, f"{r.puzzles:,}", f"{r.rate:,.0f}", f"{r.median_ms:.4f}",
                      f"{r.worst_ms:.3f}", f"{r.guesses / max(r.puzzles, 1):.1f}",
                      f"{r.statuses['unique']:,}", f"{r.statuses['multiple']:,}",
                      f"{r.statuses['none']:,}")
    Console(file=out, width=120).print(table)
