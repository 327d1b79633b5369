"""Fish on one value: X-Wing, Swordfish, Jellyfish, and their finned and sashimi forms.

A basic fish of size n takes n disjoint *base* lines of one kind (rows, say) in which
every candidate of a value v lies in n *cover* lines of the other kind (columns). Each
base line holds v exactly once, so the n base lines put n copies of v into the n cover
lines, one each: v leaves every other cell of the cover lines.

A finned fish has a few base candidates outside the cover lines, the *fins*, all in one
box (or jigsaw region). Either a fin holds v, or the fish is real; so v leaves only the
cover cells outside the base lines that see every fin. It is *sashimi* when a base line
keeps a single candidate once the fins are set aside: without its fin the fish would be
degenerate.

Fish are defined on lines, so only houses of kind ``row`` and ``column`` are used, and
both sets are taken from one sub-grid at a time (a Samurai's five grids each have their
own rows and columns). Any grid size works, with boxes or jigsaw regions for the fins.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import combinations

from ..model.shape import LINE_KINDS, HouseKind, Shape
from .board import Board, bit, by_value, value_cells
from .geometry import bits, block_of, ones, peer_bits
from .step import Role, Step, cells_ref, eliminations_ref, house_ref, make_step, value_ref

#: Standard names of the basic fish by size.
FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}

#: (base kind, cover kind): rows as base first, then columns.
_ORIENTATIONS = ((HouseKind.ROW, HouseKind.COLUMN), (HouseKind.COLUMN, HouseKind.ROW))


@dataclass(frozen=True)
class _Frame:
    """One sub-grid seen with one kind of line as base and the other as cover.

    Base line i and cover line j meet in at most one cell, ``cell_at[i][j]`` (-1 when
    they do not meet). Positions along a base line are bit sets over cover indices.
    """

    base: tuple[int, ...]  # house ids, ascending
    cover: tuple[int, ...]
    base_cells: tuple[tuple[int, ...], ...]  # each base line's cells
    cover_index: dict[int, int]  # cell -> its cover line's index
    cell_at: tuple[tuple[int, ...], ...]
    # for each base line: (block house, bit set of cover indices the block holds there)
    blocks: tuple[tuple[tuple[int, int], ...], ...]
    # each block's cover-index bit set on every base line (0 where they do not meet)
    block_masks: dict[int, tuple[int, ...]]
    base_bits: tuple[int, ...]  # each base line's cells as a bit set over cells
    cover_bits: tuple[int, ...]


@lru_cache(maxsize=64)
def _frames(shape: Shape) -> tuple[_Frame, ...]:
    blocks = block_of(shape)
    out = []
    for g, _cells in enumerate(shape.grids or (tuple(range(shape.ncells)),)):
        lines = {kind: tuple(h for h, x in enumerate(shape.houses)
                             if x.kind == kind and x.grid == g) for kind in LINE_KINDS}
        for base_kind, cover_kind in _ORIENTATIONS:
            base, cover = lines[base_kind], lines[cover_kind]
            if not base or not cover:
                continue
            cover_index = {c: j for j, h in enumerate(cover) for c in shape.houses[h].cells}
            cell_at, line_blocks, base_cells = [], [], []
            for h in base:
                row = [-1] * len(cover)
                by_block: dict[int, int] = {}
                cs = tuple(c for c in shape.houses[h].cells if c in cover_index)
                for c in cs:
                    row[cover_index[c]] = c
                    if blocks[c] >= 0:
                        by_block[blocks[c]] = by_block.get(blocks[c], 0) | 1 << cover_index[c]
                cell_at.append(tuple(row))
                line_blocks.append(tuple(sorted(by_block.items())))
                base_cells.append(cs)
            out.append(_Frame(
                base, cover, tuple(base_cells), cover_index, tuple(cell_at),
                tuple(line_blocks),
                {b: tuple(dict(pairs).get(b, 0) for pairs in line_blocks)
                 for b in sorted({b for pairs in line_blocks for b, _ in pairs})},
                tuple(bits(shape.houses[h].cells) for h in base),
                tuple(bits(shape.houses[h].cells) for h in cover)))
    return tuple(out)


def _houses_text(houses: tuple[int, ...]) -> str:
    refs = [house_ref(h) for h in houses]
    return ", ".join(refs[:-1]) + " and " + refs[-1]


def _fish(board: Board, shape: Shape, size: int, variant: str) -> Iterator[Step]:
    """Fish of ``size`` lines; ``variant`` is ``basic``, ``finned`` or ``sashimi``."""
    if variant == "basic":
        yield from (step for _, step in _search(board, shape, size, False))
        return
    # the driver asks for finned and then sashimi fish of one size on the same board, and
    # one search finds both: the board's memo keeps them
    key = (shape, tuple(board.candidates))
    cached = board.memo.finned.get(size)
    if cached is None or cached[0] != key:
        cached = key, list(_search(board, shape, size, True))
        board.memo.finned[size] = cached
    want = variant == "sashimi"
    yield from (step for sashimi, step in cached[1] if sashimi == want)


def _search(board: Board, shape: Shape, size: int, finned: bool
            ) -> Iterator[tuple[bool, Step]]:
    """Basic or finned (and sashimi) fish of ``size`` lines, with their sashimi flag.

    Positions are bit sets over cover lines, so a base set's cover lines are the union of
    its lines' positions; this search runs between most harder steps, so it stays on ints.
    """
    peers = peer_bits(shape)
    cands = board.candidates
    masks = value_cells(board)

    def search(value: int) -> Iterator[tuple[bool, Step]]:
        vb = bit(value)
        vcells = masks[value]
        for frame in _frames(shape):
            board.memo.check_time()
            # Base lines with the value still open; a finned line may hold more cells than
            # the size (its fins), a basic one at most ``size``.
            pos: dict[int, int] = {}
            for i, cs in enumerate(frame.base_cells):
                p = 0
                for c in cs:
                    if cands[c] & vb:
                        p |= 1 << frame.cover_index[c]
                n = p.bit_count()
                if (n >= 2 or (finned and n)) and (finned or n <= size):
                    pos[i] = p
            if len(pos) < size:
                continue
            if finned:
                found = _finned_sets(frame, pos, size, vcells, peers)
            else:
                found = [(base, union, ()) for base, union in _base_sets(list(pos), pos, size)
                         if union.bit_count() == size]
            for base, covers, fins in found:
                in_base = 0
                for i in base:
                    in_base |= frame.base_bits[i]
                target = 0
                for j in ones(covers):
                    target |= frame.cover_bits[j]
                target &= vcells & ~in_base
                for f in fins:
                    target &= peers[f]
                if not target:
                    continue
                sashimi = bool(fins) and any((pos[i] & covers).bit_count() <= 1
                                             for i in base)
                yield sashimi, _fish_step(shape, size, value, frame, base, covers, pos,
                                          fins, tuple((c, value) for c in ones(target)),
                                          sashimi)

    return by_value(f"fish{size}{'f' if finned else 'b'}", board, search)


def _base_sets(lines: list[int], pos: dict[int, int], size: int
               ) -> list[tuple[tuple[int, ...], int]]:
    """Sets of ``size`` lines (in combination order) whose positions (``pos``) span at
    most ``size`` cover lines, with that union."""
    out: list[tuple[tuple[int, ...], int]] = []
    chosen: list[int] = []

    def grow(start: int, union: int) -> None:
        if len(chosen) == size:
            out.append((tuple(chosen), union))
            return
        for k in range(start, len(lines) - (size - len(chosen)) + 1):
            u = union | pos[lines[k]]
            if u.bit_count() <= size:
                chosen.append(lines[k])
                grow(k + 1, u)
                chosen.pop()

    grow(0, 0)
    return out


def _finned_sets(frame: _Frame, pos: dict[int, int], size: int, vcells: int,
                 peers: tuple[int, ...]) -> list[tuple[tuple[int, ...], int, tuple[int, ...]]]:
    """Finned fish shapes: (base lines, cover lines as a bit set, fins).

    The fins lie in one block, so for each block the base cells outside it must fit in
    at most ``size`` cover lines; that bound prunes the search over base sets. Results
    come in the order base set, block, covers.
    """
    lines = list(pos)
    found: list[tuple[tuple[int, ...], int, int, tuple[int, ...]]] = []
    blocks = sorted({b for i in lines for b, mask in frame.blocks[i] if pos[i] & mask})
    for block in blocks:
        masks = frame.block_masks[block]
        # A removal sees a fin, lies outside the fin's line and the fin's cover line
        # (that one is not covered): without such a cell for some fin, skip the block.
        reach = 0
        for i in lines:
            for j in ones(pos[i] & masks[i]):
                reach |= peers[frame.cell_at[i][j]] & ~frame.base_bits[i] & ~frame.cover_bits[j]
        if not reach & vcells:
            continue
        outside = {i: pos[i] & ~masks[i] for i in lines}
        inside = {i: pos[i] & masks[i] for i in lines}
        for base, required in _base_sets(lines, outside, size):
            optional = 0
            for i in base:
                optional |= inside[i]
            if not optional:
                continue  # no fin
            optional &= ~required
            for extra in combinations(ones(optional), size - required.bit_count()):
                covers = required
                for j in extra:
                    covers |= 1 << j
                # Every base line must keep a candidate in the cover lines.
                if any(not pos[i] & covers for i in base):
                    continue
                fins = tuple(frame.cell_at[i][j] for i in base
                             for j in ones(pos[i] & ~covers))
                if fins:
                    found.append((base, block, covers, fins))
    # the order of a search by base set first, so hints do not depend on block order
    found.sort(key=lambda item: (item[0], item[1]))
    return [(base, covers, fins) for base, _block, covers, fins in found]


def _fish_step(shape: Shape, size: int, value: int, frame: _Frame, base: tuple[int, ...],
               covers: int, pos: dict[int, int], fins: tuple[int, ...],
               elims: tuple[tuple[int, int], ...], sashimi: bool) -> Step:
    name = FISH_NAMES[size]
    base_cells = [frame.cell_at[i][j] for i in base for j in ones(pos[i])]
    body = [c for c in base_cells if c not in fins]
    if fins:
        name = ("Sashimi " if sashimi else "Finned ") + name
    fin_text = ""
    if fins:
        fin_text = f", fin{'s' if len(fins) > 1 else ''} {cells_ref(fins)}"
    base_houses = tuple(frame.base[i] for i in base)
    cover_houses = tuple(frame.cover[j] for j in ones(covers))
    template = (f"{name} on {value_ref(value)} in {_houses_text(base_houses)}, covered by "
                f"{_houses_text(cover_houses)}{fin_text}: remove {eliminations_ref(elims)}")
    return make_step(
        shape, name, template, eliminations=elims, cells=tuple(base_cells),
        houses=base_houses + cover_houses,
        highlights=tuple((Role.BASE, c, value) for c in body)
        + tuple((Role.FIN, c, value) for c in fins)
        + tuple((Role.REMOVED, c, v) for c, v in elims))


def find_basic_fish(board: Board, shape: Shape, size: int) -> Iterator[Step]:
    """Basic fish of ``size`` base lines (2 X-Wing, 3 Swordfish, 4 Jellyfish)."""
    return _fish(board, shape, size, "basic")


def find_finned_fish(board: Board, shape: Shape, size: int, sashimi: bool = False
                     ) -> Iterator[Step]:
    """Finned fish of ``size`` base lines that are not sashimi (or only sashimi ones)."""
    return _fish(board, shape, size, "sashimi" if sashimi else "finned")


# One finder per technique of the table, each a size and variant of the same search.
find_x_wing = partial(find_basic_fish, size=2)
find_swordfish = partial(find_basic_fish, size=3)
find_jellyfish = partial(find_basic_fish, size=4)
find_finned_x_wing = partial(find_finned_fish, size=2)
find_sashimi_x_wing = partial(find_finned_fish, size=2, sashimi=True)
find_finned_swordfish = partial(find_finned_fish, size=3)
find_sashimi_swordfish = partial(find_finned_fish, size=3, sashimi=True)
find_finned_jellyfish = partial(find_finned_fish, size=4)
find_sashimi_jellyfish = partial(find_finned_fish, size=4, sashimi=True)
