"""Reading and writing puzzles in the text formats people use.

The formats, and what each one is and holds, are the rows of :data:`.table.FORMATS` (see
also ``docs/formats.md``).

>>> puzzle = parse("..9.5..6.3.219..87.6.3.......85.3..117....."
...                "545..8.12.......7.2.48..125.3.2..3.7..")
>>> puzzle.shape.name, puzzle.clue_count
('9x9', 34)
>>> print(write(puzzle, "ss").splitlines()[0])
..9|.5.|.6.

Every problem with the text is a :class:`~numberplace.errors.FormatError` that names the
source, line and column.

The functions live in :mod:`.api` with the readers, which this package loads the first
time one of them is asked for: the command line offers the format names at start-up
(:data:`FORMAT_NAMES`) without the cost of loading every reader.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..errors import FormatError as FormatError
from .table import FORMAT_NAMES

if TYPE_CHECKING:
    from .api import Record, detect, parse, read_file, read_records, values9, write

__all__ = ["FORMAT_NAMES", "Record", "detect", "parse", "read_file", "read_records", "values9",
           "write"]

#: The names this package takes from :mod:`.api` when first asked for one.
_FROM_API = frozenset(__all__) - {"FORMAT_NAMES"}


def __getattr__(name: str) -> object:
    """A function of :mod:`.api`, loaded (with every reader) on first use."""
    if name not in _FROM_API:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value: object = getattr(importlib.import_module(".api", __name__), name)
    globals()[name] = value  # asked once: later uses find it here
    return value
