"""A puzzle a player pastes: whatever they paste opens if any of it can, and what cannot
is told in their words.

Five lines of 81 symbols that fit together as a Samurai open as one; a text of several
puzzles opens its first readable one and says how many it holds; a text that holds none
gets one sentence naming the line and column where reading stopped, without the names
of the functions and options behind it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import formats
from ..errors import FormatError, NumberplaceError
from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle

#: What the readers call the text in their own messages (never shown to the player).
SOURCE = "the puzzle"
#: Grid sizes a default alphabet's description names.
_SIZES = (4, 6, 8, 9, 12, 16, 25)
_NOT_A_SYMBOL = re.compile(r"(?P<ch>'.*'|\".*\") is not a symbol of the alphabet (?P<of>.+)")
#: A clause of a message that names a function or an option of the library.
_LIBRARY_CLAUSE = re.compile(r";[^;]*\b(?:parse|read_records|shape=|format=)[^;]*")


@dataclass(frozen=True)
class Opened:
    """The puzzle opened, and how many readable puzzles the text holds."""

    puzzle: Puzzle
    count: int = 1

    @property
    def note(self) -> str | None:
        """What to tell the player when the text held more than the puzzle opened."""
        if self.count < 2:
            return None
        return f"This text holds {self.count} puzzles; the first is open."


def open_text(text: str, *, shape: str | None = None, alphabet: str | None = None,
              format: str | None = None) -> Opened:
    """The puzzle a pasted ``text`` holds (``shape``, ``alphabet`` and ``format`` as
    :func:`numberplace.formats.parse` takes them); NumberplaceError with a sentence for
    the player when it holds none."""
    if not text.strip():
        raise NumberplaceError("The text is empty.")
    try:
        return Opened(formats.parse(text, shape=shape, alphabet=alphabet, format=format,
                                    source=SOURCE))
    except FormatError as exc:
        error = exc
    records = list(formats.read_records(text.splitlines(), shape=shape, alphabet=alphabet,
                                        format=format, source=SOURCE))
    if shape is None and format is None and _five_classic_lines(records):
        try:
            return Opened(formats.parse(text, shape="samurai", alphabet=alphabet,
                                        source=SOURCE))
        except NumberplaceError:
            pass  # five grids that do not overlap as a Samurai's: five puzzles
    readable = [r.puzzle for r in records if r.puzzle is not None]
    if len(records) > 1 and readable:
        return Opened(readable[0], len(readable))
    first = records[0].error if len(records) > 1 and records[0].error else error
    raise NumberplaceError(player_message(first, text))


def _five_classic_lines(records: list[formats.Record]) -> bool:
    return len(records) == 5 and all(
        len(r.text.strip()) == 81 and (r.puzzle is None or r.puzzle.shape.name == "9x9")
        for r in records)


def player_message(error: FormatError, text: str = "") -> str:
    """``error`` as one sentence for a player: where (``Line 2, column 14: ``) and what,
    without the library's own words."""
    reason = error.reason
    if reason.startswith("no puzzle here"):
        return "The text is empty." if not text.strip() else \
            "The text holds no puzzle, only comments."
    found = _NOT_A_SYMBOL.fullmatch(reason)
    if found:
        reason = f"{found['ch']} is not {_symbols(found['of'])}"
    reason = _LIBRARY_CLAUSE.sub("", reason).strip()
    reason = reason[:1].upper() + reason[1:]
    if not reason.endswith((".", "!", "?")):
        reason += "."
    where = ([f"line {error.line}"] if error.line is not None else []) + \
        ([f"column {error.column}"] if error.column is not None else [])
    if not where:
        return reason
    return (", ".join(where) + ": ").capitalize() + reason


def _symbols(description: str) -> str:
    """``a digit of a 9x9 puzzle``: what a character should have been, by the alphabet's
    description."""
    for size in _SIZES:
        if Alphabet.default(size).describe() == description:
            grid = f"{'an' if size == 8 else 'a'} {size}x{size} puzzle"
            if size <= 9:
                return f"a digit of {grid}"
            return f"a symbol of {grid} ({description})"
    return f"one of the puzzle's symbols ({description})"
