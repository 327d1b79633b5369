"""Alphabets: the symbols a puzzle is written in.

Inside numberplace a symbol is a *value* ``1..n``; 0 means an empty cell. An
:class:`Alphabet` maps values to the characters people write: digits ``1-9``; for sizes
over 9 either ``1-9`` then ``A, B, ...`` or the hexadoku convention ``0-9`` then ``A-F``;
any ``n`` distinct letters for Wordoku.
"""

from __future__ import annotations

from functools import cached_property

from .._frozen import Frozen
from ..errors import PuzzleError

_DIGITS_THEN_LETTERS = "123456789ABCDEFGHIJKLMNOPQRSTUVW"
_HEX = "0123456789ABCDEF"
#: Characters that always mean "empty cell".
EMPTY_CHARS = "."


class Alphabet(Frozen):
    """The characters of values ``1..n``: ``symbols[v - 1]`` is the character of value v.

    Letters are matched without regard to case. ``0`` also means an empty cell when it is
    not one of the symbols (as in ``0123...`` hexadoku).
    """

    symbols: str
    name: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.symbols, str):
            raise TypeError(f"symbols must be a string, not {type(self.symbols).__name__}")
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a string, not {type(self.name).__name__}")
        up = self.symbols.upper()
        if not self.symbols or len(set(up)) != len(up):
            raise PuzzleError(f"alphabet {self.symbols!r} must be distinct characters")
        bad = [ch for ch in self.symbols if ch in EMPTY_CHARS or ch.isspace()]
        if bad:
            raise PuzzleError(f"alphabet {self.symbols!r} may not use {bad[0]!r}")

    @property
    def size(self) -> int:
        """Number of symbols."""
        return len(self.symbols)

    @cached_property
    def _values(self) -> dict[str, int]:
        table = {}
        for v, ch in enumerate(self.symbols, start=1):
            table[ch] = v
            table[ch.upper()] = v
            table[ch.lower()] = v
        for ch in EMPTY_CHARS:
            table[ch] = 0
        if "0" not in table:
            table["0"] = 0
        return table

    @property
    def empties(self) -> str:
        """The characters read as an empty cell."""
        return EMPTY_CHARS + ("" if "0" in self.symbols else "0")

    def value(self, ch: str) -> int | None:
        """Value of a character: 1..n, 0 for an empty cell, None if not of this alphabet."""
        return self._values.get(ch)

    def symbol(self, value: int, empty: str = ".") -> str:
        """Character of a value (``empty`` for 0)."""
        return self.symbols[value - 1] if value else empty

    def describe(self) -> str:
        """Short human description, e.g. ``1-9`` or ``0-9, A-F``."""
        if self.name:
            return self.name
        return _describe(self.symbols)

    @classmethod
    def default(cls, size: int) -> Alphabet:
        """Digits 1-9, then letters A, B, ... for sizes over 9."""
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"size must be a whole number, not {type(size).__name__}")
        if not 1 <= size <= len(_DIGITS_THEN_LETTERS):
            raise PuzzleError(f"no default alphabet for size {size}")
        return cls(_DIGITS_THEN_LETTERS[:size])

    @classmethod
    def hexadecimal(cls) -> Alphabet:
        """The 16 symbols ``0-9, A-F`` of hexadoku (``.`` is the empty cell)."""
        return cls(_HEX)

    @classmethod
    def letters(cls, word: str) -> Alphabet:
        """Wordoku: any distinct letters, e.g. ``Alphabet.letters("WORDPLAYS")``."""
        return cls(word.upper())

    @classmethod
    def for_size(cls, size: int, convention: str = "digits") -> Alphabet:
        """Alphabet for a size by convention: ``digits`` (1-9 then A...), ``hex`` (0-9 A-F,
        16 symbols only) or ``letters`` (A, B, C, ...)."""
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"size must be a whole number, not {type(size).__name__}")
        if not isinstance(convention, str):
            raise TypeError(f"convention must be a string, not {type(convention).__name__}")
        if convention == "hex":
            if size != 16:
                raise PuzzleError("the hex alphabet 0-9, A-F has 16 symbols")
            return cls.hexadecimal()
        if convention == "letters":
            if size > 26:
                raise PuzzleError(f"no letters alphabet for size {size}")
            return cls("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:size])
        if convention == "digits":
            return cls.default(size)
        if len(convention) == size:
            return cls(convention.upper())
        raise PuzzleError(f"unknown alphabet {convention!r}: use digits, hex, letters or "
                          f"{size} distinct characters")


def _describe(symbols: str) -> str:
    """Write runs of consecutive characters compactly: ``1-9, A-F``."""
    parts = []
    i = 0
    while i < len(symbols):
        j = i
        while j + 1 < len(symbols) and ord(symbols[j + 1]) == ord(symbols[j]) + 1:
            j += 1
        parts.append(symbols[i] if j == i else (f"{symbols[i]}{symbols[j]}" if j == i + 1
                                                else f"{symbols[i]}-{symbols[j]}"))
        i = j + 1
    return ", ".join(parts)
