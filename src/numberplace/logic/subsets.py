"""Naked and Hidden subsets (pairs, triples, quadruples), one routine per kind.

Naked: k cells of a house whose candidates together are just k values; those values
leave the house's other cells (Programming Sudoku's Twins for k=2, Triplets for k=3).
Locked: a naked pair or triple whose cells lie in two houses at once (a block and a line):
its values leave the other cells of both, in one step.
Hidden: k values of a house whose candidate cells are together just k cells; those cells
lose every other candidate.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache, partial
from itertools import combinations

from ..model.shape import Shape
from .board import Board, bit, by_house, by_houses, values_of
from .intersections import house_pairs
from .step import Role, Step, cells_ref, eliminations_ref, house_ref, make_step, values_ref

SIZE_NAMES = {2: "Pair", 3: "Triple", 4: "Quadruple"}


def find_naked_subset(board: Board, shape: Shape, size: int) -> Iterator[Step]:
    """Naked subsets of ``size`` cells in any house."""
    name = f"Naked {SIZE_NAMES[size]}"

    def search(h: int) -> Iterator[Step]:
        house = shape.houses[h]
        # Cells with more candidates than the subset size can never be part of it.
        pool = [c for c in house.cells if 1 < board.candidates[c].bit_count() <= size]
        empties = sum(1 for c in house.cells if not board.values[c])
        if len(pool) < size or empties <= size:
            return
        for group in combinations(pool, size):
            union = 0
            for c in group:
                union |= board.candidates[c]
            if union.bit_count() != size:
                continue
            vals = values_of(union)
            elims = tuple((c, v) for c in house.cells if c not in group
                          for v in vals if board.candidates[c] & bit(v))
            if not elims:
                continue
            template = (f"In {house_ref(h)}, {cells_ref(group)} hold only "
                        f"{values_ref(vals)} between them: remove "
                        f"{eliminations_ref(elims)}")
            yield make_step(
                shape, name, template,
                eliminations=elims, cells=group, houses=(h,),
                highlights=tuple((Role.DEFINING, c, v) for c in group for v in vals
                                 if board.candidates[c] & bit(v))
                + tuple((Role.REMOVED, c, v) for c, v in elims))

    return by_house(name, board, search)


@lru_cache(maxsize=64)
def _shared_pairs(shape: Shape) -> tuple[tuple[tuple[int, int], ...], tuple[frozenset[int], ...]]:
    """Each two houses that share two or more cells (once, lower index first), and the
    cells they share."""
    pairs = [(a, b, shared) for a, b, shared in house_pairs(shape) if a < b]
    return tuple((a, b) for a, b, _ in pairs), tuple(shared for _, _, shared in pairs)


def find_locked_subset(board: Board, shape: Shape, size: int) -> Iterator[Step]:
    """Naked subsets of ``size`` cells that two houses share: their values leave both."""
    name = f"Locked {SIZE_NAMES[size]}"
    groups, shared_cells = _shared_pairs(shape)
    cands = board.candidates

    def search(i: int) -> Iterator[Step]:
        a, b = groups[i]
        pool = sorted(c for c in shared_cells[i] if 1 < cands[c].bit_count() <= size)
        for group in combinations(pool, size):
            union = 0
            for c in group:
                union |= cands[c]
            if union.bit_count() != size:
                continue
            elims = tuple(sorted({(c, v) for h in (a, b) for c in shape.houses[h].cells
                                  if c not in group for v in values_of(cands[c] & union)}))
            if not elims:
                continue
            vals = values_of(union)
            yield make_step(
                shape, name,
                f"{cells_ref(group)} hold only {values_ref(vals)} between them and lie in "
                f"both {house_ref(a)} and {house_ref(b)}: remove {eliminations_ref(elims)}",
                eliminations=elims, cells=group, houses=(a, b),
                highlights=tuple((Role.DEFINING, c, v) for c in group for v in vals
                                 if cands[c] & bit(v))
                + tuple((Role.REMOVED, c, v) for c, v in elims))

    return by_houses(name, board, groups, search)


def find_hidden_subset(board: Board, shape: Shape, size: int) -> Iterator[Step]:
    """Hidden subsets of ``size`` values in any house."""
    name = f"Hidden {SIZE_NAMES[size]}"

    def search(h: int) -> Iterator[Step]:
        house = shape.houses[h]
        where: dict[int, list[int]] = {}
        for c in house.cells:
            for v in values_of(board.candidates[c]):
                where.setdefault(v, []).append(c)
        if len([c for c in house.cells if not board.values[c]]) <= size:
            return
        pool = [v for v, cs in sorted(where.items()) if 1 < len(cs) <= size]
        for group in combinations(pool, size):
            cells = sorted({c for v in group for c in where[v]})
            if len(cells) != size:
                continue
            keep = 0
            for v in group:
                keep |= bit(v)
            elims = tuple((c, v) for c in cells
                          for v in values_of(board.candidates[c] & ~keep))
            if not elims:
                continue
            vals = values_ref(group)
            template = (f"In {house_ref(h)}, {vals} can only go in {cells_ref(cells)}: "
                        f"remove {eliminations_ref(elims)}")
            yield make_step(
                shape, name, template, eliminations=elims, cells=tuple(cells), houses=(h,),
                highlights=tuple((Role.DEFINING, c, v) for c in cells for v in group
                                 if board.candidates[c] & bit(v))
                + tuple((Role.REMOVED, c, v) for c, v in elims))

    return by_house(name, board, search)


# One finder per technique of the table (Naked Pair is Programming Sudoku's Twins, Naked Triple its
# Triplets), each a size of the same search.
find_naked_pair = partial(find_naked_subset, size=2)
find_naked_triple = partial(find_naked_subset, size=3)
find_naked_quadruple = partial(find_naked_subset, size=4)
find_locked_pair = partial(find_locked_subset, size=2)
find_locked_triple = partial(find_locked_subset, size=3)
find_hidden_pair = partial(find_hidden_subset, size=2)
find_hidden_triple = partial(find_hidden_subset, size=3)
find_hidden_quadruple = partial(find_hidden_subset, size=4)
