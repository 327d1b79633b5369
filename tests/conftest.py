"""Shared fixtures: the public benchmark data (read in place, never copied)."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku9"

#: The two puzzles printed in the programming book (figures 1-4 and 1-7).
BOOK_PUZZLES = (
    "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7..",
    ".34....9.6....8214..1.27...4.9.83.5.56.....87.2.56.4.1...21.8..8579....6.9....34.",
)


def data_lines(name: str, limit: int | None = None) -> list[str]:
    """Puzzle lines of a shared benchmark file; skips the test if the data is absent."""
    path = DATA / name
    if not path.exists():
        pytest.skip(f"benchmark data {path} is not present (see shared/data/README.md)")
    out = []
    with path.open() as handle:
        for raw in handle:
            text = raw.strip()
            if text and not text.startswith("#"):
                out.append(text)
                if limit and len(out) >= limit:
                    break
    return out
