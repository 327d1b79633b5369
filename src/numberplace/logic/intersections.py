"""Locked Candidates: a value confined to where two houses meet.

If, within house A, every candidate cell of a value lies in house B too, the value must
go in A's part of B, so it leaves the rest of B. With A a box (or jigsaw region) and B a
line this is Type 1, *Pointing*; with A a line and B a box, Type 2, *Claiming*. The rule
needs nothing about rows and columns, so any two houses sharing two or more cells are
used (diagonals, jigsaw regions, the overlaps of Samurai grids). One of the source
programs calls the line-to-box case "direction elimination".
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from ..model.shape import BLOCK_KINDS, Shape
from .board import Board, bit, by_houses
from .step import Role, Step, cells_ref, eliminations_ref, house_ref, kind_ref, make_step, value_ref

POINTING = "Locked Candidates Type 1 (Pointing)"
CLAIMING = "Locked Candidates Type 2 (Claiming)"


@lru_cache(maxsize=64)
def house_pairs(shape: Shape) -> tuple[tuple[int, int, frozenset[int]], ...]:
    """Ordered pairs (source, target, shared cells) of houses sharing 2+ cells."""
    out = []
    sets = [frozenset(h.cells) for h in shape.houses]
    for a in range(len(sets)):
        for b in range(len(sets)):
            if a != b:
                shared = sets[a] & sets[b]
                if len(shared) >= 2:
                    out.append((a, b, shared))
    return tuple(out)


@lru_cache(maxsize=64)
def _pairs(shape: Shape, pointing: bool
           ) -> tuple[tuple[tuple[int, int, frozenset[int]], ...], tuple[tuple[int, int], ...]]:
    """The house pairs whose source is a block (pointing) or not (claiming), and the
    two houses of each pair (all a search of that pair reads)."""
    pairs = tuple(p for p in house_pairs(shape)
                  if (shape.houses[p[0]].kind in BLOCK_KINDS) == pointing)
    return pairs, tuple((a, b) for a, b, _ in pairs)


def _locked(board: Board, shape: Shape, pointing: bool, name: str) -> Iterator[Step]:
    pairs, groups = _pairs(shape, pointing)
    cands = board.candidates

    def search(i: int) -> Iterator[Step]:
        a, b, shared = pairs[i]
        # Values that are candidates in A, and only inside the shared cells.
        inside = outside = 0
        for c in shape.houses[a].cells:
            if c in shared:
                inside |= cands[c]
            else:
                outside |= cands[c]
        confined = inside & ~outside
        if not confined:
            return
        rest = [c for c in shape.houses[b].cells if c not in shared]
        for value in range(1, shape.size + 1):
            vb = bit(value)
            if not confined & vb:
                continue
            elims = tuple((c, value) for c in rest if cands[c] & vb)
            if not elims:
                continue
            base = tuple(c for c in sorted(shared) if cands[c] & vb)
            direction = ("pointing along the " if pointing else "claiming from the ") + \
                kind_ref(b if pointing else a)
            template = (f"In {house_ref(a)}, {value_ref(value)} can only go in "
                        f"{cells_ref(base)}, all in {house_ref(b)} ({direction}): remove "
                        f"{eliminations_ref(elims)}")
            yield make_step(
                shape, name, template, eliminations=elims, cells=base, houses=(a, b),
                highlights=tuple((Role.DEFINING, c, value) for c in base)
                + tuple((Role.REMOVED, c, value) for c, _ in elims))

    return by_houses(name, board, groups, search)


def find_pointing(board: Board, shape: Shape) -> Iterator[Step]:
    """Locked Candidates Type 1: a block's value confined to one line leaves the line."""
    return _locked(board, shape, True, POINTING)


def find_claiming(board: Board, shape: Shape) -> Iterator[Step]:
    """Locked Candidates Type 2: a line's value confined to one block leaves the block.

    Also covers two lines sharing cells (a diagonal and a Samurai row, say)."""
    return _locked(board, shape, False, CLAIMING)
