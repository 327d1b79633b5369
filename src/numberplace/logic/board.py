"""A mutable candidates board: the state a human-style solver works on.

Each cell holds either a value (1..n) or, while empty, a bit mask of the values still
possible there (bit ``v - 1`` for value v, as in :class:`numberplace.puzzle.Puzzle`).
Everything is phrased in houses, so the board serves every shape.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..puzzle import Puzzle
from ..shape import Shape


def bit(value: int) -> int:
    """The candidate mask bit of a value."""
    return 1 << (value - 1)


def values_of(mask: int) -> list[int]:
    """The values whose bits are set in a candidate mask, ascending."""
    out = []
    v = 1
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return out


def house_name(shape: Shape, house: int, notation: str = "rc") -> str:
    """Name a house; the book's notation calls boxes *minigrids*."""
    name = str(shape.houses[house])
    return name.replace("box", "minigrid") if notation == "book" else name


@dataclass
class Board:
    """Cell values (0 when empty) and candidate masks (0 once a cell holds a value)."""

    shape: Shape
    values: list[int]
    candidates: list[int]

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle) -> Board:
        """The board of a puzzle's givens.

        An empty cell may hold every value no given peer holds; when the puzzle carries
        pencil marks, those are intersected with that, so a player's marks never bring
        back a value the givens already exclude.
        """
        shape = puzzle.shape
        givens = puzzle.givens
        full = (1 << shape.size) - 1
        cands = []
        for cell, v in enumerate(givens):
            if v:
                cands.append(0)
                continue
            mask = full
            for p in shape.peers[cell]:
                if givens[p]:
                    mask &= ~bit(givens[p])
            if puzzle.candidates is not None:
                mask &= puzzle.candidates[cell]
            cands.append(mask)
        return cls(shape, list(givens), cands)

    def copy(self) -> Board:
        """An independent copy (the shape is shared: it is immutable)."""
        return Board(self.shape, list(self.values), list(self.candidates))

    def place(self, cell: int, value: int) -> None:
        """Put ``value`` in ``cell`` and remove it from the candidates of every peer."""
        self.values[cell] = value
        self.candidates[cell] = 0
        clear = ~bit(value)
        for p in self.shape.peers[cell]:
            self.candidates[p] &= clear

    def eliminate(self, cell: int, value: int) -> bool:
        """Remove a candidate; True if it was there."""
        b = bit(value)
        had = bool(self.candidates[cell] & b)
        self.candidates[cell] &= ~b
        return had

    def is_solved(self) -> bool:
        """True when every cell holds a value (consistency is :meth:`contradiction`'s job)."""
        return all(self.values)

    def contradiction(self, notation: str = "rc") -> str | None:
        """None if no rule is visibly broken, else a message naming the cell or house.

        Checks: an empty cell without candidates, a value placed twice in a house, and a
        value neither placed in a house nor a candidate in any of its cells.
        """
        shape = self.shape
        values, candidates = self.values, self.candidates
        for cell, v in enumerate(values):
            if not v and not candidates[cell]:
                return f"{shape.cell_name(cell, notation)} has no candidate left"
        full = (1 << shape.size) - 1
        # this runs before every step: plain loops over locals, no helper calls
        for h, house in enumerate(shape.houses):
            placed = possible = 0
            for c in house.cells:
                v = values[c]
                if v:
                    b = 1 << (v - 1)
                    if placed & b:
                        return f"value {v} appears twice in {house_name(shape, h, notation)}"
                    placed |= b
                else:
                    possible |= candidates[c]
            missing = full & ~(placed | possible)
            if missing:
                v = values_of(missing)[0]
                return f"value {v} has no place in {house_name(shape, h, notation)}"
        return None
