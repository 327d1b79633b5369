"""The rules inside Sudoku Explainer's dynamic chains "plus" (9.0), and inside the nested
chains built on them.

Where the links of such a chain stop, the first of pointing or claiming, hidden pair,
naked pair and X-Wing that removes anything on the board the chain has made, thanks to
states of the chain, takes it further: its removals join the chain as states of their
own, each resting on the chain's removals the rule needed (their number counts in the
size, and so in the value, of what follows). :class:`PairRules` is the Python
reference of the compiled core's ``xc_advanced`` (``logic/_xchain.c``); the chains
themselves are in :mod:`.xchain`.

A candidate state is one int, as in :mod:`.xchain`: (cell << 6 | value) << 1 | on.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from ..model.shape import HouseKind, Shape
from .board import bit, values_of
from .geometry import bits, house_bits, ones

#: What a rule removes, as (cell, value) pairs, and the off states it rests on.
Rule = tuple[tuple[tuple[int, int], ...], tuple[int, ...]]


class PairRules:
    """The rules inside a dynamic chain "plus" on one board, whose candidates were
    ``start`` before the chain."""

    def __init__(self, shape: Shape, start: list[int]) -> None:
        self.start = start
        self.size = shape.size
        self.houses = [h.cells for h in shape.houses]
        self.house_masks = house_bits(shape)
        self._crossings = crossings(shape)
        self._lines = _lines(shape)

    def advance(self, grid: list[int], vmask: list[int], off: dict[int, tuple[int, ...]],
                pend_off: deque[int]) -> bool:
        """The first of pointing/claiming, hidden pair, naked pair and X-Wing that removes
        anything on ``grid`` thanks to states of the chain: its removals join the chain,
        resting on the removals it needed. True when that brought new states."""
        where = [[vmask[v] & hm for v in range(self.size + 1)] for hm in self.house_masks]
        for rule in (self._locking, self._hidden_pairs, self._naked_pairs, self._x_wings):
            found = rule(grid, where)
            if found:
                new = False
                for removals, parents in found:
                    for c, v in removals:
                        q = (c << 6 | v) << 1
                        if q not in off:
                            off[q] = parents
                            pend_off.append(q)
                            new = True
                return new
        return False

    def _gone(self, cells: int, v: int, grid: list[int]) -> tuple[int, ...]:
        """Off states of ``v`` in ``cells`` (a bit set) that the chain removed."""
        b = 1 << (v - 1)
        out = []
        while cells:
            low = cells & -cells
            q = low.bit_length() - 1
            if self.start[q] & b and not grid[q] & b:
                out.append((q << 6 | v) << 1)
            cells ^= low
        return tuple(out)

    def _locking(self, grid: list[int], where: list[list[int]]) -> list[Rule]:
        out = []
        for h1, h2, inside in self._crossings:
            for v in range(1, self.size + 1):
                p = where[h1][v]
                if p & (p - 1) and not p & ~inside:
                    rem = where[h2][v] & ~inside
                    if rem:
                        parents = self._gone(self.house_masks[h1] & ~inside, v, grid)
                        if parents:
                            out.append((_pairs(rem, v), parents))
        return out

    def _hidden_pairs(self, grid: list[int], where: list[list[int]]) -> list[Rule]:
        out = []
        for h, cells in enumerate(self.houses):
            vals = [v for v in range(1, self.size + 1) if where[h][v]]
            for i, a in enumerate(vals):
                for bv in vals[i + 1:]:
                    both = where[h][a] | where[h][bv]
                    if both.bit_count() != 2:
                        continue
                    keep = bit(a) | bit(bv)
                    rem = tuple((q, w) for q in ones(both) for w in values_of(grid[q] & ~keep))
                    if not rem:
                        continue
                    rest = bits(cells) & ~both
                    parents = self._gone(rest, a, grid) + self._gone(rest, bv, grid)
                    if parents:
                        out.append((rem, parents))
        return out

    def _naked_pairs(self, grid: list[int], where: list[list[int]]) -> list[Rule]:
        out = []
        for cells in self.houses:
            two = [q for q in cells if grid[q].bit_count() == 2]
            for i, a in enumerate(two):
                for q2 in two[i + 1:]:
                    if grid[q2] != grid[a]:
                        continue
                    pair = grid[a]
                    rem = tuple((q, w) for q in cells if q not in (a, q2)
                                for w in values_of(grid[q] & pair))
                    if not rem:
                        continue
                    parents = tuple((q << 6 | u) << 1 for q in (a, q2)
                                    for u in values_of(self.start[q] & ~pair))
                    if parents:
                        out.append((rem, parents))
        return out

    def _x_wings(self, grid: list[int], where: list[list[int]]) -> list[Rule]:
        out = []
        for bases, covers, index in self._lines:
            for v in range(1, self.size + 1):
                spots = []
                for h in bases:
                    p = where[h][v]
                    if p & (p - 1):
                        cols = 0
                        for q in ones(p):
                            cols |= 1 << index[q]
                        if cols.bit_count() == 2:
                            spots.append((h, cols))
                for i, (h1, cols) in enumerate(spots):
                    for h2, cols2 in spots[i + 1:]:
                        if cols2 != cols:
                            continue
                        base = self.house_masks[h1] | self.house_masks[h2]
                        rem = 0
                        for j in ones(cols):
                            rem |= where[covers[j]][v] & ~base
                        if not rem:
                            continue
                        cover = 0
                        for j in ones(cols):
                            cover |= self.house_masks[covers[j]]
                        parents = self._gone(base & ~cover, v, grid)
                        if parents:
                            out.append((_pairs(rem, v), parents))
        return out

def _pairs(mask: int, v: int) -> tuple[tuple[int, int], ...]:
    return tuple((q, v) for q in ones(mask))


@lru_cache(maxsize=64)
def crossings(shape: Shape) -> list[tuple[int, int, int]]:
    """(house, other house, their common cells as a bit set) for houses that share two
    cells or more: a digit confined to the common cells of one leaves the other."""
    masks = [bits(h.cells) for h in shape.houses]
    out = []
    for i, a in enumerate(masks):
        for j, b in enumerate(masks):
            if i != j and (a & b).bit_count() >= 2:
                out.append((i, j, a & b))
    return out


@lru_cache(maxsize=64)
def _lines(shape: Shape) -> list[tuple[list[int], list[int], dict[int, int]]]:
    """Rows as base lines with columns as covers, and the other way round: (bases,
    covers by position, each cell's position along a base line)."""
    rows = [i for i, h in enumerate(shape.houses) if h.kind == HouseKind.ROW]
    cols = [i for i, h in enumerate(shape.houses) if h.kind == HouseKind.COLUMN]
    out = []
    for bases, covers in ((rows, cols), (cols, rows)):
        index = {}
        for j, h in enumerate(covers):
            for q in shape.houses[h].cells:
                index[q] = j
        out.append((bases, covers, index))
    return out
