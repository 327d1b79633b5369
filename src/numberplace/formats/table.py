"""What is known of each text format, in one table that loads no reader.

Each fact the package acts on is read from :data:`FORMATS`: the names (``--format`` and
``--to`` offer them before any reader is loaded, to keep start-up short), what one record
is (a stream is cut by it, and solutions of one-line records are printed one a line),
what the text holds besides the givens (the shapes a format serves follow from it: only
a format that holds sums serves a Kakuro or a Killer, only one that holds regions a
jigsaw; the candidates of a pencil-mark puzzle are written only where they can be), and
the file suffix a game saved under such a name is written in. Which format a text is in
is told by :mod:`.detection`, whose rules are code, not data.
"""

from __future__ import annotations

from .._frozen import Frozen, setter


class TextFormat(Frozen):
    """One text format: its name, what it is, and what its text holds."""

    name: str
    about: str
    """What the text is, in a few words (``docs/formats.md`` says more)."""
    record: str
    """What one record is: ``line`` (one line), ``block`` (lines between blank lines),
    ``grids`` (one line a grid of the shape) or ``header`` (a header and the rows it
    announces)."""
    holds: frozenset[str]
    """What the text holds besides the givens: ``candidates``, ``regions``, ``sums``."""
    suffix: str
    """A game saved under a file name with this suffix is saved as its puzzle alone, in
    this format (empty for none)."""

    def __init__(self, name: str, about: str, record: str,
                 holds: frozenset[str] = frozenset(), suffix: str = "") -> None:
        setter(self, "__dict__", {"name": name, "about": about, "record": record,
                                  "holds": holds, "suffix": suffix})


_CANDIDATES = frozenset({"candidates"})
_REGIONS = frozenset({"regions"})
_SUMS = frozenset({"sums"})

#: Every format, in the order the command line lists them.
FORMATS: tuple[TextFormat, ...] = (
    TextFormat("line", "all cells on one line", "line", suffix=".txt"),
    TextFormat("sdo", "Programming Sudoku's 81 digits, 0 for empty", "line", suffix=".sdo"),
    TextFormat("grid", "one grid row per line, as pasted", "block"),
    TextFormat("sdk", "SadMan Software's sections", "block", suffix=".sdk"),
    TextFormat("ss", "Simple Sudoku's rows with | between boxes", "block", suffix=".ss"),
    TextFormat("pencil", "a pencil-mark grid", "block", _CANDIDATES),
    TextFormat("sukaku", "every cell's candidates by position", "line", _CANDIDATES),
    TextFormat("samurai", "a Samurai in five lines of 81", "grids"),
    TextFormat("samurai-grid", "a Samurai on its 21x21 canvas", "block"),
    TextFormat("jigsaw", "givens and the region map", "block", _REGIONS),
    TextFormat("json", "numberplace's schema", "line",
               frozenset({"candidates", "regions", "sums"})),
    TextFormat("kakuro", "a Kakuro's clue squares written down\\across", "block", _SUMS),
    TextFormat("janko", "a Kakuro's sums per cell, as the janko.at collection has them",
               "header", _SUMS),
    TextFormat("puzzlekit", "a Kakuro's clue squares written down,across under a size "
                            "header, as the puzzlekit dataset has them", "header", _SUMS),
    TextFormat("killer", "a Killer's cage map and its sums", "block", _SUMS),
)

#: The names of the formats.
FORMAT_NAMES: tuple[str, ...] = tuple(f.name for f in FORMATS)
#: Formats whose records are single lines.
ONE_LINE_FORMATS = frozenset(f.name for f in FORMATS if f.record == "line")
#: One-line formats of the givens alone: a file in one is one plain puzzle a line.
PLAIN_LINE_FORMATS = frozenset(f.name for f in FORMATS if f.record == "line" and not f.holds)
#: Formats that write a puzzle's candidates; the others write its givens only.
CANDIDATE_FORMATS = frozenset(f.name for f in FORMATS if "candidates" in f.holds)
#: Formats that write a jigsaw's regions.
REGION_FORMATS = frozenset(f.name for f in FORMATS if "regions" in f.holds)
#: Formats that write cages and their sums: the only ones of a Kakuro or a Killer.
SUM_FORMATS = frozenset(f.name for f in FORMATS if "sums" in f.holds)
#: The file suffix of each format that has one.
SUFFIXES: dict[str, str] = {f.name: f.suffix for f in FORMATS if f.suffix}
#: The format a game is saved in under a file name with each suffix.
SUFFIX_FORMATS: dict[str, str] = {suffix: name for name, suffix in SUFFIXES.items()}
