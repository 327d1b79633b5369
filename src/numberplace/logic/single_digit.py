"""Single-digit patterns built from strong links: Skyscraper, 2-String Kite, Empty Rectangle
and their duals.

A *strong link* on a value v is a house where v has exactly two candidate cells: one of
them holds v. Two strong links whose ends a1 and a2 see each other (at most one of them
holds v) leave at least one of the far ends b1, b2 holding v, so v leaves every cell that
sees both b1 and b2. The patterns are named by where the links lie:

* Skyscraper: both links in parallel lines (two rows, or two columns) and a1, a2 in one
  line of the other kind;
* 2-String Kite: one link in a row, the other in a column, and a1, a2 in one box (or
  jigsaw region).

An Empty Rectangle is a block whose candidates for v all lie on two crossing lines R and
C (and not on one of them alone), with a strong link p-q where p is on R outside the
block: if q is false, p is true, so v leaves R's part of the block and must sit on C
inside the block. Either way a cell of C outside the block that sees q loses v.

A Dual 2-String Kite or Dual Empty Rectangle is two of them on the same links or block
pattern removing different candidates, given as one step.

Everything is phrased in houses and peers; line kinds (rows and columns, of any sub-grid)
only choose the pattern's name, so classic grids of any size, jigsaw, diagonal and Samurai
grids are all served.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator

from ..model.shape import BLOCK_KINDS, LINE_KINDS, HouseKind, Shape
from .board import Board, bit, by_value
from .geometry import house_sets, peer_sets, strong_links
from .step import (
    Role,
    Step,
    cell_ref,
    eliminations_ref,
    house_ref,
    joined,
    make_step,
    pattern_value,
    value_ref,
)

Link = tuple[int, int, int]  # (house, cell, cell)


DUAL_KITE = "Dual 2-String Kite"
DUAL_ER = "Dual Empty Rectangle"

def _common(shape: Shape, a: int, b: int, kinds: Collection[HouseKind]) -> int | None:
    """A house of one of ``kinds`` holding both cells, or None."""
    for h in shape.houses_of[a]:
        if shape.houses[h].kind in kinds and b in house_sets(shape)[h]:
            return h
    return None


def _seeing_both(board: Board, shape: Shape, value: int, b1: int, b2: int,
                 pattern: set[int]) -> tuple[tuple[int, int], ...]:
    peers = peer_sets(shape)
    vb = bit(value)
    return tuple((c, value) for c in sorted(peers[b1] & peers[b2])
                 if c not in pattern and board.candidates[c] & vb)


def _two_links(board: Board, shape: Shape, kite: bool) -> Iterator[Step]:
    name = "2-String Kite" if kite else "Skyscraper"

    def search(value: int) -> Iterator[Step]:
        links = [lk for lk in strong_links(board, shape, value, distinct=True)
                 if shape.houses[lk[0]].kind in LINE_KINDS]
        for i, (h1, x1, y1) in enumerate(links):
            for h2, x2, y2 in links[i + 1:]:
                k1, k2 = shape.houses[h1].kind, shape.houses[h2].kind
                if kite != (k1 != k2):
                    continue
                if len({x1, y1, x2, y2}) < 4:
                    continue
                if not kite and house_sets(shape)[h1] & house_sets(shape)[h2]:
                    continue  # parallel lines are disjoint
                for a1, b1 in ((x1, y1), (y1, x1)):
                    for a2, b2 in ((x2, y2), (y2, x2)):
                        if kite:
                            joint = _common(shape, a1, a2, BLOCK_KINDS)
                        else:
                            other = tuple(k for k in LINE_KINDS if k != k1)
                            joint = _common(shape, a1, a2, other)
                            # Both pairs of ends on crossing lines is an X-Wing.
                            if joint is None or _common(shape, b1, b2, other) is not None:
                                continue
                        if joint is None:
                            continue
                        elims = _seeing_both(board, shape, value, b1, b2, {a1, a2, b1, b2})
                        if not elims:
                            continue
                        template = (
                            f"{name} on {value_ref(value)}: strong links "
                            f"{cell_ref(b1)}-{cell_ref(a1)} in {house_ref(h1)} and "
                            f"{cell_ref(a2)}-{cell_ref(b2)} in {house_ref(h2)}, joined in "
                            f"{house_ref(joint)}; {cell_ref(b1)} or {cell_ref(b2)} holds "
                            f"{value_ref(value)}: remove {eliminations_ref(elims)}")
                        pattern = (b1, a1, a2, b2)
                        yield make_step(
                            shape, name, template, eliminations=elims, cells=pattern,
                            houses=(h1, h2, joint),
                            highlights=tuple((Role.DEFINING, c, value) for c in pattern)
                            + tuple((Role.REMOVED, c, v) for c, v in elims))

    return by_value(name, board, search)


def find_skyscraper(board: Board, shape: Shape) -> Iterator[Step]:
    """Skyscraper: strong links in two parallel lines, one end of each on a common line."""
    return _two_links(board, shape, False)


def find_two_string_kite(board: Board, shape: Shape) -> Iterator[Step]:
    """2-String Kite: a row link and a column link with one end of each in one block."""
    return _two_links(board, shape, True)


def find_empty_rectangle(board: Board, shape: Shape) -> Iterator[Step]:
    """Empty Rectangle: a block's value on two crossing lines plus a strong link."""
    sets = house_sets(shape)
    peers = peer_sets(shape)

    def search(value: int) -> Iterator[Step]:
        vb = bit(value)
        links = strong_links(board, shape, value, distinct=True)
        for b, block in enumerate(shape.houses):
            if block.kind not in BLOCK_KINDS:
                continue
            inside = {c for c in block.cells if board.candidates[c] & vb}
            if len(inside) < 2:
                continue
            lines = sorted({h for c in inside for h in shape.houses_of[c]
                            if shape.houses[h].kind in LINE_KINDS})
            for r in lines:
                for col in lines:
                    if shape.houses[r].kind == shape.houses[col].kind:
                        continue
                    if not inside <= sets[r] | sets[col] or inside <= sets[r] \
                            or inside <= sets[col]:
                        continue
                    for lh, x, y in links:
                        if lh == b:
                            continue
                        for p, q in ((x, y), (y, x)):
                            if p not in sets[r] or p in sets[b] or q in sets[b] \
                                    or p in sets[col]:
                                continue
                            elims = tuple(
                                (t, value) for t in shape.houses[col].cells
                                if t not in sets[b] and t not in (p, q)
                                and board.candidates[t] & vb and t in peers[q])
                            if not elims:
                                continue
                            template = (
                                f"Empty Rectangle on {value_ref(value)}: in {house_ref(b)} it lies "
                                f"only on {house_ref(r)} and {house_ref(col)}; with the strong "
                                f"link {cell_ref(p)}-{cell_ref(q)} in {house_ref(lh)}, either "
                                f"{cell_ref(q)} holds {value_ref(value)} or {house_ref(col)} takes "
                                f"it in {house_ref(b)}: remove {eliminations_ref(elims)}")
                            defining = tuple(sorted(inside)) + (p, q)
                            yield make_step(
                                shape, "Empty Rectangle", template, eliminations=elims,
                                cells=defining, houses=(b, r, col, lh),
                                highlights=tuple((Role.DEFINING, c, value) for c in defining)
                                + tuple((Role.REMOVED, c, v) for c, v in elims))

    return by_value("Empty Rectangle", board, search)


def _duals(steps: list[Step], key: Callable[[Step], object], name: str) -> Iterator[Step]:
    """Two steps of one pattern (same ``key``) removing different candidates, as one."""
    return joined(steps, key, name, lambda first, second: (
        f"Dual {first.template.split(': remove ')[0]}; and "
        f"{second.template.split(': remove ')[0].split(': ', 1)[1]}"))


def find_dual_two_string_kite(board: Board, shape: Shape) -> Iterator[Step]:
    """Dual 2-String Kite: two kites joined by the same two cells of a box (each the end
    of one kite's row link and the other's column link; the values may differ, as in
    HoDoKu): both removals in one step."""
    kites = list(find_two_string_kite(board, shape))
    return _duals(kites, lambda s: frozenset(s.cells[1:3]), DUAL_KITE)


def find_dual_empty_rectangle(board: Board, shape: Shape) -> Iterator[Step]:
    """Dual Empty Rectangle: one box pattern with two strong links: both removals in one
    step."""
    rects = list(find_empty_rectangle(board, shape))
    return _duals(rects, lambda s: (pattern_value(s), s.houses[0], frozenset(s.cells[:-2])),
                  DUAL_ER)
