"""Wings: XY-Wing, XYZ-Wing and W-Wing, short chains through bivalue cells.

XY-Wing: a *pivot* with candidates {x,y} sees two *pincers* {x,z} and {y,z}. Whichever
value the pivot takes, one pincer is z, so z leaves every cell seeing both pincers.
XYZ-Wing: the pivot is {x,y,z} and the pincers {x,z}, {y,z}; now the pivot may be z
itself, so z leaves only the cells seeing all three.
W-Wing: two cells {x,y} that do not see each other, joined by a strong link on x (a
house where x has exactly two candidate cells, one seeing each): they cannot both be x,
so one of them is y, and y leaves every cell seeing both.

Everything is phrased in peers and houses, so the finders serve every shape.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ..model.shape import Shape
from .board import Board, bit, values_of
from .geometry import peer_sets, strong_links
from .step import (
    Role,
    Step,
    candidates_ref,
    cell_ref,
    eliminations_ref,
    house_ref,
    make_step,
    value_ref,
)

XY_WING = "XY-Wing"
XYZ_WING = "XYZ-Wing"
W_WING = "W-Wing"


def _removals(board: Board, seeing: frozenset[int], value: int) -> tuple[tuple[int, int], ...]:
    vb = bit(value)
    return tuple((c, value) for c in sorted(seeing) if board.candidates[c] & vb)


def _pivots(board: Board, count: int) -> Iterator[tuple[int, int]]:
    """(cell, candidate mask) of the cells with ``count`` candidates."""
    return ((c, m) for c, m in enumerate(board.candidates) if m.bit_count() == count)


def find_xy_wing(board: Board, shape: Shape) -> Iterator[Step]:
    """XY-Wing: pivot {x,y}, pincers {x,z} and {y,z}; z leaves cells seeing both pincers."""
    peers = peer_sets(shape)
    cands = board.candidates
    for pivot, pm in _pivots(board, 2):
        low = pm & -pm  # the pivot's smaller value x; the pincer holding it comes first
        wings = [c for c in shape.peers[pivot]
                 if cands[c].bit_count() == 2 and cands[c] != pm
                 and (cands[c] & pm).bit_count() == 1]
        for a in wings:
            if not cands[a] & low:
                continue
            zb = cands[a] & ~pm
            for b in wings:
                if cands[b] != (pm & ~low) | zb:
                    continue
                z = zb.bit_length()
                elims = _removals(board, (peers[a] & peers[b]) - {pivot}, z)
                if not elims:
                    continue
                yield _wing_step(board, shape, XY_WING, pivot, a, b, elims,
                                 f"one pincer is {value_ref(z)} whatever the pivot holds")


def find_xyz_wing(board: Board, shape: Shape) -> Iterator[Step]:
    """XYZ-Wing: pivot {x,y,z}, pincers {x,z} and {y,z}; z leaves cells seeing all three."""
    peers = peer_sets(shape)
    cands = board.candidates
    for pivot, pm in _pivots(board, 3):
        wings = [c for c in shape.peers[pivot]
                 if cands[c].bit_count() == 2 and not cands[c] & ~pm]
        for a, b in combinations(wings, 2):
            ma, mb = cands[a], cands[b]
            common = ma & mb
            if ma | mb != pm or common.bit_count() != 1:
                continue
            z = common.bit_length()
            elims = _removals(board, peers[pivot] & peers[a] & peers[b], z)
            if not elims:
                continue
            yield _wing_step(board, shape, XYZ_WING, pivot, a, b, elims,
                             f"one of the three is {value_ref(z)}")


def _wing_step(board: Board, shape: Shape, name: str, pivot: int, a: int, b: int,
               elims: tuple[tuple[int, int], ...], reason: str) -> Step:
    """The step of a wing with a pivot and pincers ``a`` and ``b``, for ``reason``."""
    cands = board.candidates
    template = (f"{name} with pivot {cell_ref(pivot)} {candidates_ref(cands[pivot])} and "
                f"pincers {cell_ref(a)} {candidates_ref(cands[a])}, {cell_ref(b)} "
                f"{candidates_ref(cands[b])}: {reason}, remove {eliminations_ref(elims)}")
    return make_step(
        shape, name, template, eliminations=elims, cells=(pivot, a, b),
        highlights=tuple((Role.PIVOT, pivot, v) for v in values_of(cands[pivot]))
        + tuple((Role.PINCER, c, v) for c in (a, b) for v in values_of(cands[c]))
        + tuple((Role.REMOVED, c, v) for c, v in elims))


def find_w_wing(board: Board, shape: Shape) -> Iterator[Step]:
    """W-Wing: two unrelated {x,y} cells joined by a strong link on x lose y around them."""
    peers = peer_sets(shape)
    cands = board.candidates
    by_mask: dict[int, list[int]] = {}
    for c, m in enumerate(cands):
        if m.bit_count() == 2:
            by_mask.setdefault(m, []).append(c)
    links: dict[int, list[tuple[int, int, int]]] = {}
    for mask, group in sorted(by_mask.items()):
        if len(group) < 2:
            continue
        for p, q in combinations(group, 2):
            if q in peers[p]:
                continue
            for x in values_of(mask):
                y = values_of(mask & ~bit(x))[0]
                if x not in links:
                    links[x] = strong_links(board, shape, x)
                for h, a, b in links[x]:
                    if a in peers[q] and b in peers[p]:
                        a, b = b, a
                    if not (a in peers[p] and b in peers[q]):
                        continue
                    elims = _removals(board, peers[p] & peers[q], y)
                    if not elims:
                        continue
                    template = (f"W-Wing: {cell_ref(p)} and {cell_ref(q)} both hold "
                                f"{candidates_ref(mask)}; in {house_ref(h)}, {value_ref(x)} can "
                                f"only go in {cell_ref(a)} or {cell_ref(b)}, which see them, so "
                                f"they are not both {value_ref(x)} and one of them is "
                                f"{value_ref(y)}: remove "
                                f"{eliminations_ref(elims)}")
                    yield make_step(
                        shape, W_WING, template, eliminations=elims, cells=(p, q, a, b),
                        houses=(h,),
                        highlights=tuple((Role.PINCER, c, v) for c in (p, q)
                                         for v in (x, y))
                        + ((Role.LINK, a, x), (Role.LINK, b, x))
                        + tuple((Role.REMOVED, c, v) for c, v in elims))
