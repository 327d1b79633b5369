"""Singles: Full House, Naked Single (Programming Sudoku's CRME), Hidden Single (Lone Ranger).

Every finder yields the steps it sees, in house/cell order; the driver takes the first.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from ..model.shape import BLOCK_KINDS, Shape
from .board import Board, bit, values_of
from .geometry import house_bits
from .step import Step, cell_ref, house_ref, kind_ref, placement_step, value_ref

#: Byte table: 0 (an empty cell) to "1", every value to "0".
_EMPTY_DIGIT = bytes([49] + [48] * 255)


def find_full_house(board: Board, shape: Shape) -> Iterator[Step]:
    """The last empty cell of a house takes the one value the house still lacks."""
    full = (1 << shape.size) - 1
    values = board.values
    # the empty cells as a bit set (made at C speed: one byte per cell, "1" where empty,
    # read as a binary number); a house is a full house when it holds just one
    empty_cells = int(bytes(values).translate(_EMPTY_DIGIT)[::-1], 2)
    for h, hm in enumerate(house_bits(shape)):
        empty = hm & empty_cells
        if not empty or empty & (empty - 1):
            continue
        cell = empty.bit_length() - 1
        house = shape.houses[h]
        placed = 0
        for c in house.cells:
            if board.values[c]:
                placed |= bit(board.values[c])
        missing = full & ~placed
        # Only when the lacking value is still a candidate: otherwise the board is
        # contradictory and placing it would hide that.
        if missing & (missing - 1) or not missing & board.candidates[cell]:
            continue
        value = values_of(missing)[0]
        ref = cell_ref(cell)
        yield placement_step(
            shape, "Full House",
            f"{ref} is the last empty cell of {house_ref(h)}: place {value_ref(value)} at {ref}",
            cell, value, houses=(h,))


def find_naked_single(board: Board, shape: Shape) -> Iterator[Step]:
    """A cell with one candidate left takes it.

    Programming Sudoku calls this CRME (Column, Row and Minigrid Elimination): once the values of
    a cell's row, column and minigrid are crossed out, one remains.
    """
    # with cages, the sums may have ruled values out as well as the houses
    because = "every other value is ruled out" if shape.cages else None
    for cell, mask in enumerate(board.candidates):
        if mask and not mask & (mask - 1):
            value = mask.bit_length()
            ref = cell_ref(cell)
            why = because or "every other value is in one of its houses"
            yield placement_step(
                shape, "Naked Single",
                f"{ref} can only hold {value_ref(value)}, {why}: place {value_ref(value)} "
                f"at {ref}", cell, value)


@lru_cache(maxsize=64)
def _blocks_first(shape: Shape) -> tuple[int, ...]:
    """House indices with the blocks (boxes, regions) first, then the rest in order."""
    houses = shape.houses
    return tuple(sorted(range(len(houses)), key=lambda h: houses[h].kind not in BLOCK_KINDS))


def find_hidden_single(board: Board, shape: Shape) -> Iterator[Step]:
    """A value that fits only one cell of a house goes there (Programming Sudoku's Lone Ranger).

    Blocks are searched first, as Programming Sudoku does (lone rangers in minigrids first) and as
    the Explainer scale rates them (1.2 in a box, 1.5 in a row or column).
    """
    for h in _blocks_first(shape):
        house = shape.houses[h]
        # Masks of values seen in at least one / at least two empty cells of the house.
        once = twice = 0
        for c in house.cells:
            m = board.candidates[c]
            twice |= once & m
            once |= m
        lone = once & ~twice
        if not lone:
            continue
        for c in house.cells:
            m = board.candidates[c] & lone
            # A cell alone holding two lone values is a contradiction; keep to soundness
            # by reporting only the lowest, the board checker will flag the rest.
            if m:
                value = values_of(m)[0]
                ref = cell_ref(c)
                yield placement_step(
                    shape, "Hidden Single",
                    f"In {house_ref(h)} only {ref} can hold {value_ref(value)} (a lone "
                    f"ranger in the {kind_ref(h)}): place {value_ref(value)} at {ref}",
                    c, value, houses=(h,))
