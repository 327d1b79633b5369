"""Pieces shared by the format readers and writers.

A reader is given one *record*: its lines, each paired with its line number in the whole
source, so every error it raises already names the right line. The caller adds the file
name. A writer is given a puzzle and returns text without a trailing newline.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NoReturn

from ..errors import FormatError, NumberplaceError
from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import Shape

#: Grid sizes the readers recognise without being told the shape.
SIZES: tuple[int, ...] = (4, 6, 8, 9, 12, 16, 25)
SIZE_WORDS = "4, 6, 8, 9, 12, 16 or 25"
#: Number of characters of a one-line puzzle, mapped to the size of its grid.
LINE_LENGTHS: dict[int, int] = {n * n: n for n in SIZES}
#: Labels of regions 1, 2, 3, ... when a region map is written.
REGION_LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVW"

#: One line of a source: its number (from 1) and its text without the line end.
Numbered = tuple[int, str]

_NEWLINE = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Context:
    """What the caller knows before reading: the shape and the alphabet, when given."""

    shape: Shape | None = None
    alphabet: Alphabet | None = None


def fail(message: str, line: int | None = None, column: int | None = None) -> NoReturn:
    """Raise a FormatError at a place of the source."""
    raise FormatError(message, line=line, column=column)


# -- lines ----------------------------------------------------------------------------------


def split_lines(text: str) -> list[str]:
    """The lines of a text, whatever its line ends (``\\n``, ``\\r\\n`` or ``\\r``)."""
    return _NEWLINE.split(text)


def numbered(lines: Sequence[str], first: int = 1) -> list[Numbered]:
    """Pair lines with their numbers."""
    return list(enumerate(lines, start=first))


def is_blank(text: str) -> bool:
    """True for a line holding nothing but whitespace."""
    return not text.strip()


#: A square of a Kakuro grid: a block, a white cell, a value, or a clue ``down\\across``.
KAKURO_SQUARE = re.compile(r"[#Xx._0-9]|[0-9]*\\[0-9]*")


#: Two or more Kakuro squares and the spaces around them: one match for a whole row
#: (``\\s`` is the whitespace ``str.split`` splits at).
_KAKURO_ROW = re.compile(rf"\s*(?:{KAKURO_SQUARE.pattern})(?:\s+(?:{KAKURO_SQUARE.pattern}))+\s*")


def kakuro_row(text: str) -> bool:
    """True for a row of Kakuro squares with a clue or a white cell in it: such a row may
    start with a block ``#`` and is still not a comment."""
    if _KAKURO_ROW.fullmatch(text) is None:
        return False
    if "\\" in text:
        return True
    words = text.split()
    return "." in words or "_" in words


def is_comment(text: str) -> bool:
    """True for a comment line: ``#`` is its first visible character (and it is not a row
    of a Kakuro grid)."""
    return text.lstrip().startswith("#") and not kakuro_row(text)


def is_content(text: str) -> bool:
    """True for a line that is neither blank nor a comment."""
    stripped = text.strip()
    return bool(stripped) and (not stripped.startswith("#") or kakuro_row(stripped))


def indent(text: str) -> int:
    """Number of whitespace characters before the first visible one."""
    return len(text) - len(text.lstrip())


def content_lines(record: Sequence[Numbered]) -> list[Numbered]:
    """The lines of a record that are neither blank nor comments."""
    return [item for item in record if is_content(item[1])]


def only_line(record: Sequence[Numbered], what: str = "puzzle") -> Numbered:
    """The one content line of a record of a one-line format."""
    lines = content_lines(record)
    if not lines:
        fail(f"no {what} here", record[0][0] if record else None)
    if len(lines) > 1:
        fail(f"a second {what} line; this format has one puzzle per line", lines[1][0])
    return lines[0]


def counted(n: int, noun: str, plural: str = "") -> str:
    """``1 character``, ``2 characters``: a count with its noun in the right number
    (``plural`` when it is not the noun and an s)."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"


def with_article(word: str) -> str:
    """``a 9x9``, ``an 8x8``: the article a reader says aloud."""
    spoken_vowel = word[:1] in "8aeiou" or word.startswith(("11", "18"))
    return ("an " if spoken_vowel else "a ") + word


# -- symbols and alphabets ----------------------------------------------------------------


def not_a_symbol(ch: str, alphabet: Alphabet) -> str:
    """The message for a character that the alphabet does not know."""
    return f"{ch!r} is not a symbol of the alphabet {alphabet.describe()}"


@lru_cache(maxsize=64)
def symbol_table(alphabet: Alphabet) -> dict[str, int]:
    """Every character the alphabet reads, with its value: a plain dict for fast loops."""
    chars = alphabet.symbols + alphabet.symbols.upper() + alphabet.symbols.lower() + ".0"
    table = {ch: alphabet.value(ch) for ch in chars}
    return {ch: v for ch, v in table.items() if v is not None}


def line_values(text: str, alphabet: Alphabet, line: int, column: int) -> list[int]:
    """Values of the characters of ``text``, which starts at ``column`` of ``line``."""
    values = list(map(symbol_table(alphabet).get, text))
    if None in values:
        i = values.index(None)
        fail(not_a_symbol(text[i], alphabet), line, column + i)
    return values  # type: ignore[return-value]


def looks_hexadecimal(chars: str) -> bool:
    """True if 16x16 cell text is written in hexadoku symbols ``0-9, A-F``.

    In the default alphabet ``1-9, A-G`` a ``0`` is an empty cell, so ``0`` only proves
    hexadoku next to ``.`` for the empties and no ``G``; a complete grid has no empty
    cell to tell, but there every hex symbol appears equally often.
    """
    if "0" not in chars or "G" in chars or "g" in chars:
        return False
    if "." in chars:
        return True
    upper = chars.upper()
    share, rest = divmod(len(upper), 16)
    return rest == 0 and all(upper.count(ch) == share for ch in "0123456789ABCDEF")


def choose_alphabet(size: int, chars: str, given: Alphabet | None,
                    line: int | None = None) -> Alphabet:
    """The alphabet to read cells with: the given one, else the usual one for the size."""
    if given is not None:
        if given.size != size:
            fail(f"the alphabet {given.describe()} has {given.size} symbols, "
                 f"{with_article(f'{size}x{size}')} puzzle needs {size}", line)
        return given
    if size == 16 and looks_hexadecimal(chars):
        return hexadecimal_alphabet()
    return _default_alphabet(size)


# Alphabets are immutable; sharing one per size spares rebuilding its tables per record.
_default_alphabet = lru_cache(maxsize=None)(Alphabet.default)
hexadecimal_alphabet = lru_cache(maxsize=None)(Alphabet.hexadecimal)


def mask_symbols(mask: int, alphabet: Alphabet) -> str:
    """The symbols of the values in a candidate mask, in value order."""
    return "".join(sym for v, sym in enumerate(alphabet.symbols) if mask >> v & 1)


# -- shapes and puzzles -------------------------------------------------------------------


def has_diagonals(shape: Shape) -> bool:
    """True if the shape has the two diagonal houses of the X variant."""
    return any(house.kind == "diagonal" for house in shape.houses)


def is_single_grid(shape: Shape) -> bool:
    """True for a shape that fills its whole rectangular canvas with one grid."""
    rows, cols = shape.canvas
    return len(shape.grids) == 1 and shape.ncells == rows * cols


def require_single_grid(shape: Shape, format_name: str) -> None:
    """Refuse shapes made of several grids in a format that draws one grid."""
    if not is_single_grid(shape):
        fail(f"the {format_name} format holds one grid; write {with_article(shape.name)} "
             f"puzzle as samurai, samurai-grid, line or json")


def region_numbers(shape: Shape) -> list[int] | None:
    """Each cell's region (jigsaw) or box (classic) number from 0; None if it has neither."""
    if shape.regions:
        return list(shape.regions)
    numbers = [-1] * shape.ncells
    boxes = [house for house in shape.houses if house.kind == "box"]
    for number, house in enumerate(boxes):
        for cell in house.cells:
            numbers[cell] = number
    if len(boxes) != shape.size or -1 in numbers:
        return None
    return numbers


def build(shape: Shape, givens: Iterable[int], alphabet: Alphabet,
          candidates: Sequence[int] | None = None, line: int | None = None) -> Puzzle:
    """Make the puzzle, turning a complaint of the model into a FormatError."""
    try:
        return Puzzle(shape, tuple(givens), alphabet,
                      tuple(candidates) if candidates is not None else None)
    except NumberplaceError as exc:
        fail(str(exc), line)


def candidate_masks(puzzle: Puzzle) -> list[int]:
    """Each cell's candidates: a given counts as its one candidate.

    Without pencil marks a cell may hold any value that no given peer holds, the marks a
    player writes first.
    """
    shape = puzzle.shape
    givens = puzzle.givens
    if puzzle.candidates is not None:
        masks = list(puzzle.candidates)
    else:
        full = (1 << shape.size) - 1
        masks = []
        for cell in range(shape.ncells):
            seen = 0
            for peer in shape.peers[cell]:
                if givens[peer]:
                    seen |= 1 << (givens[peer] - 1)
            masks.append(full & ~seen)
    return [1 << (v - 1) if v else mask for v, mask in zip(givens, masks, strict=True)]


def placed_values(shape: Shape, masks: Sequence[int]) -> list[int]:
    """The values a candidate grid shows as placed, 0 for the other cells.

    Neither the pencil nor the Sukaku format can mark a placed digit, so the marks decide:
    a cell down to one candidate that no peer still holds is placed (its value has been
    crossed out around it, as a given's is); a cell whose one candidate a peer still
    holds is a naked single the player has not taken yet, and stays unsolved.
    """
    values = [0] * len(masks)
    for cell, mask in enumerate(masks):
        if mask and not mask & (mask - 1) and not any(masks[p] & mask for p in shape.peers[cell]):
            values[cell] = mask.bit_length()
    return values
