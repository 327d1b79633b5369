"""Per-shape tables the techniques share, built once per shape, and bit-set helpers.

Cells are often handled as bit sets over cells (bit c for cell c): a house, a cell's
peers or a value's candidate cells become single ints, so "sees all of", "lies in" and
"how many" are one or two integer operations.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from ..model.shape import BLOCK_KINDS, Shape
from .board import Board, peer_sets, value_cells

__all__ = ["peer_sets"]  # kept here too, where the other geometry helpers are


def bits(cells: Iterable[int]) -> int:
    """The bit set of some cells."""
    out = 0
    for c in cells:
        out |= 1 << c
    return out


def packed_cell_sets(shape: Shape, masks: Iterable[int]) -> bytes:
    """Cell sets one after another as the compiled core reads them: each in whole
    little-endian 64-bit words, as many as the shape's cells need."""
    size = 8 * ((shape.ncells + 63) // 64)
    return b"".join(m.to_bytes(size, "little") for m in masks)


def ones(mask: int) -> list[int]:
    """The set bits of a bit set (the cells of a cell set), ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@lru_cache(maxsize=64)
def peer_bits(shape: Shape) -> tuple[int, ...]:
    """Each cell's peers as a bit set."""
    return tuple(bits(p) for p in shape.peers)


@lru_cache(maxsize=64)
def house_sets(shape: Shape) -> tuple[frozenset[int], ...]:
    """Each house's cells as a set."""
    return tuple(frozenset(h.cells) for h in shape.houses)


@lru_cache(maxsize=64)
def house_bits(shape: Shape) -> tuple[int, ...]:
    """Each house's cells as a bit set."""
    return tuple(bits(h.cells) for h in shape.houses)


@lru_cache(maxsize=64)
def block_of(shape: Shape) -> tuple[int, ...]:
    """Each cell's block house (box or jigsaw region), -1 where there is none."""
    out = [-1] * shape.ncells
    for h, house in enumerate(shape.houses):
        if house.kind in BLOCK_KINDS:
            for c in house.cells:
                out[c] = h
    return tuple(out)


def strong_links(board: Board, shape: Shape, value: int, distinct: bool = False
                 ) -> list[tuple[int, int, int]]:
    """Houses where ``value`` has exactly two candidate cells: (house, cell, cell), the
    cells ascending. With ``distinct``, two houses sharing the same two cells give one
    link (kept in the first house)."""
    vcells = value_cells(board)[value]
    out = []
    seen = set()
    for h, hm in enumerate(house_bits(shape)):
        where = hm & vcells
        if where.bit_count() == 2:
            if distinct:
                if where in seen:
                    continue
                seen.add(where)
            low = where & -where
            out.append((h, low.bit_length() - 1, (where ^ low).bit_length() - 1))
    return out


def scaled_budget(steps: int, shape: Shape) -> int:
    """A search budget set for 9x9 grids, scaled down on larger ones by their cells.

    On an open 16x16 or 25x25 board the budgeted searches (templates, Franken and Mutant
    fish) spend all of it on every value and find nothing, and in Python: at the 9x9
    budget a hint on an empty 16x16 took 2.3 s. A search that ends within its budget
    finds the same on any grid; the budget only decides when to give up."""
    return steps if shape.ncells <= 81 else max(1, steps * 81 // shape.ncells)
