"""Puzzles: a shape, its givens and its alphabet. Immutable, hashable, comparable."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .._frozen import Frozen, setter
from ..arguments import optional_shape
from ..errors import PuzzleError
from .alphabet import Alphabet
from .shape import Cage, House, Shape, classic


class Clash(NamedTuple):
    """Two cells of one house (or cage) holding the same value."""

    house: str
    first: int
    second: int
    value: int


class Puzzle(Frozen):
    """A puzzle: ``givens[i]`` is the value (1..n) of cell i of ``shape``, 0 if empty.

    ``candidates``, when present, holds the pencil marks a player or a Sukaku supplies:
    one bit mask per cell, bit ``v - 1`` set when value v is still possible. Solvers start
    from them instead of from the givens alone.
    """

    shape: Shape
    givens: tuple[int, ...]
    #: None (or symbols as a string) is made the shape's default Alphabet (or that
    #: string's) when the puzzle is made
    alphabet: Alphabet = None  # type: ignore[assignment]
    candidates: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        shape = self.shape
        if not isinstance(shape, Shape):
            raise TypeError(f"shape must be a Shape, not {type(shape).__name__}")
        if self.alphabet is None:
            setter(self, "alphabet", Alphabet.default(shape.size))
        elif isinstance(self.alphabet, str):
            setter(self, "alphabet", Alphabet(self.alphabet.upper()))
        elif not isinstance(self.alphabet, Alphabet):
            raise TypeError(f"alphabet must be an Alphabet or its symbols, not "
                            f"{type(self.alphabet).__name__}")
        if isinstance(self.givens, (str, bytes)) or not isinstance(self.givens, Sequence):
            raise TypeError(f"givens must be a sequence of cell values, not "
                            f"{type(self.givens).__name__} (Puzzle.from_string reads text)")
        if not isinstance(self.givens, tuple):
            setter(self, "givens", tuple(self.givens))
        if len(self.givens) != shape.ncells:
            raise PuzzleError(f"a {shape.name} puzzle has {shape.ncells} cells, "
                              f"not {len(self.givens)}")
        if self.alphabet.size != shape.size:
            raise PuzzleError(f"alphabet {self.alphabet.describe()} has {self.alphabet.size} "
                              f"symbols, the {shape.name} shape needs {shape.size}")
        n = shape.size
        # one pass over types and the range, then a slow look only to name the bad cell
        if set(map(type, self.givens)) - {int} or min(self.givens, default=0) < 0 \
                or max(self.givens, default=0) > n:
            for i, v in enumerate(self.givens):
                if not (isinstance(v, int) and 0 <= v <= n):
                    raise PuzzleError(f"{shape.cell_name(i)}: value {v!r} is not in 0..{n}")
        if self.candidates is not None:
            if not isinstance(self.candidates, Sequence):
                raise TypeError(f"candidates must be a sequence of masks, not "
                                f"{type(self.candidates).__name__}")
            cands = tuple(self.candidates)
            setter(self, "candidates", cands)
            if len(cands) != shape.ncells:
                raise PuzzleError(f"candidates: {len(cands)} cells given, "
                                  f"{shape.ncells} expected")
            full = (1 << n) - 1
            for i, m in enumerate(cands):
                if not (isinstance(m, int) and 0 <= m <= full):
                    raise PuzzleError(f"{shape.cell_name(i)}: candidate mask {m!r} "
                                      f"out of range")

    # -- construction ---------------------------------------------------------------
    @classmethod
    def from_string(cls, text: str, shape: Shape | str | None = None,
                    alphabet: Alphabet | str | None = None) -> Puzzle:
        """Read one puzzle from text in any supported format (see :mod:`numberplace.formats`).
        ``alphabet`` may be an :class:`Alphabet` or its symbols (``"WORDPLAYS"``)."""
        # imported here: the formats build puzzles, so they import this module
        from ..formats import parse

        return parse(text, shape=shape, alphabet=alphabet)

    @classmethod
    def empty(cls, shape: Shape | str | None = None,
              alphabet: Alphabet | str | None = None) -> Puzzle:
        """A puzzle with no givens (on ``shape``, a Shape or its name; 9x9 by default)."""

        shape = optional_shape(shape) or classic(9)
        # the constructor turns symbols given as a string into an Alphabet
        return cls(shape, (0,) * shape.ncells, alphabet)  # type: ignore[arg-type]

    def with_values(self, values: Sequence[int]) -> Puzzle:
        """The same shape and alphabet with other cell values (e.g. a solution)."""
        return Puzzle(self.shape, tuple(values), self.alphabet)

    # -- queries -------------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of symbols (9 for classic Sudoku)."""
        return self.shape.size

    @property
    def clue_count(self) -> int:
        """Number of given cells."""
        return sum(1 for v in self.givens if v)

    @property
    def is_full(self) -> bool:
        """True when every cell has a value."""
        return all(self.givens)

    def clashes(self) -> list[Clash]:
        """Pairs of cells of one house (or cage) that hold the same value, first found
        first."""
        out: list[Clash] = []
        if not any(self.givens):  # a puzzle with no givens yet, as a Kakuro starts
            return out
        groups: list[House | Cage] = [*self.shape.houses,
                                      *(g for g in self.shape.cages if not g.repeats)]
        for house in groups:
            seen: dict[int, int] = {}
            for c in house.cells:
                v = self.givens[c]
                if v:
                    if v in seen:
                        out.append(Clash(str(house), seen[v], c, v))
                    else:
                        seen[v] = c
        return out

    def describe_clash(self, clash: Clash) -> str:
        """One line naming both cells of a clash."""
        sym = self.alphabet.symbol(clash.value)
        return (f"{sym} appears twice in {clash.house}: at {self.shape.cell_name(clash.first)}"
                f" and {self.shape.cell_name(clash.second)}")

    def fits(self, values: Sequence[int]) -> bool:
        """True if ``values`` is a complete grid that keeps every given and every rule."""
        if len(values) != self.shape.ncells or not all(values):
            return False
        if any(g and g != v for g, v in zip(self.givens, values, strict=True)):
            return False
        n = self.shape.size
        full = set(range(1, n + 1))
        return all({values[c] for c in h.cells} == full for h in self.shape.houses) and all(
            (cage.repeats or len({values[c] for c in cage.cells}) == len(cage.cells))
            and cage.total in (None, sum(values[c] for c in cage.cells))
            for cage in self.shape.cages)

    def to_line(self, empty: str = ".") -> str:
        """The givens as one line, cells in reading order."""
        sym = self.alphabet.symbols
        return "".join(sym[v - 1] if v else empty for v in self.givens)

    def __str__(self) -> str:
        return self.to_line()

    def rows(self) -> list[list[int]]:
        """Values on the drawing canvas, row by row; -1 where the canvas has no cell."""
        rows, cols = self.shape.canvas
        grid = [[-1] * cols for _ in range(rows)]
        for (r, c), v in zip(self.shape.coords, self.givens, strict=True):
            grid[r][c] = v
        return grid
