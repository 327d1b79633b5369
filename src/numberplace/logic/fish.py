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
from functools import lru_cache
from itertools import combinations

from ..shape import Shape
from .board import Board, bit
from .step import Step, cells_ref, eliminations_ref, house_ref, make_step

#: Standard names of the basic fish by size.
FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}

#: House kinds that are blocks; fins must lie in one of them.
_BLOCKS = ("box", "region")

#: (base kind, cover kind): rows as base first, then columns.
_ORIENTATIONS = (("row", "column"), ("column", "row"))


@lru_cache(maxsize=64)
def line_layout(shape: Shape) -> tuple[tuple[tuple[int, ...], dict[str, tuple[int, ...]],
                                             dict[str, dict[int, int]]], ...]:
    """For each sub-grid: its cells, its lines by kind, and each cell's line of a kind."""
    out = []
    for g, grid_cells in enumerate(shape.grids or (tuple(range(shape.ncells)),)):
        lines: dict[str, tuple[int, ...]] = {}
        line_of: dict[str, dict[int, int]] = {}
        for kind in ("row", "column"):
            hs = tuple(h for h, x in enumerate(shape.houses) if x.kind == kind and x.grid == g)
            lines[kind] = hs
            line_of[kind] = {c: h for h in hs for c in shape.houses[h].cells}
        out.append((grid_cells, lines, line_of))
    return tuple(out)


@lru_cache(maxsize=64)
def peer_sets(shape: Shape) -> tuple[frozenset[int], ...]:
    """Each cell's peers as a set."""
    return tuple(frozenset(p) for p in shape.peers)


@lru_cache(maxsize=64)
def block_of(shape: Shape) -> tuple[int, ...]:
    """Each cell's block house (box or jigsaw region), -1 where there is none."""
    out = [-1] * shape.ncells
    for h, house in enumerate(shape.houses):
        if house.kind in _BLOCKS:
            for c in house.cells:
                out[c] = h
    return tuple(out)


def _houses_text(houses: tuple[int, ...]) -> str:
    refs = [house_ref(h) for h in houses]
    return ", ".join(refs[:-1]) + " and " + refs[-1]


def _fish(board: Board, shape: Shape, size: int, variant: str) -> Iterator[Step]:
    """Fish of ``size`` lines; ``variant`` is ``basic``, ``finned`` or ``sashimi``."""
    finned = variant != "basic"
    peers = peer_sets(shape)
    blocks = block_of(shape)
    cands = board.candidates
    for value in range(1, shape.size + 1):
        vb = bit(value)
        for _grid_cells, lines, line_of in line_layout(shape):
            for base_kind, cover_kind in _ORIENTATIONS:
                cover_of = line_of[cover_kind]
                # Base lines with the value still open; a finned line may hold more cells
                # than the size (its fins), a basic one at most ``size``.
                where: dict[int, tuple[int, ...]] = {}
                for h in lines[base_kind]:
                    cs = tuple(c for c in shape.houses[h].cells if cands[c] & vb)
                    if len(cs) >= 2 or (finned and cs):
                        if finned or len(cs) <= size:
                            where[h] = cs
                for base in combinations(sorted(where), size):
                    base_cells = [c for h in base for c in where[h]]
                    in_base = set(base_cells)
                    if finned:
                        found = _finned_covers(base, where, base_cells, cover_of, blocks,
                                               size)
                    else:
                        covers = tuple(sorted({cover_of[c] for c in base_cells}))
                        found = [(covers, ())] if len(covers) == size else []
                    for covers, fins in found:
                        elims = []
                        for h in covers:
                            for c in shape.houses[h].cells:
                                if c in in_base or not cands[c] & vb:
                                    continue
                                if all(c in peers[f] for f in fins):
                                    elims.append((c, value))
                        if not elims:
                            continue
                        if finned and _is_sashimi(base, where, fins) != (variant == "sashimi"):
                            continue
                        yield _fish_step(shape, size, value, base, covers, base_cells,
                                         fins, tuple(sorted(elims)), where)


def _finned_covers(base: tuple[int, ...], where: dict[int, tuple[int, ...]],
                   base_cells: list[int], cover_of: dict[int, int], blocks: tuple[int, ...],
                   size: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Cover sets of ``size`` lines leaving a non-empty set of fins inside one block."""
    out = []
    seen = set()
    for block in sorted({blocks[c] for c in base_cells if blocks[c] >= 0}):
        required = {cover_of[c] for c in base_cells if blocks[c] != block}
        if len(required) > size:
            continue
        optional = sorted({cover_of[c] for c in base_cells if blocks[c] == block} - required)
        for extra in combinations(optional, size - len(required)):
            covers = tuple(sorted(required.union(extra)))
            fins = tuple(c for c in base_cells if cover_of[c] not in covers)
            if not fins or covers in seen:
                continue
            # Every base line must keep a candidate in the cover lines.
            if any(all(cover_of[c] not in covers for c in where[h]) for h in base):
                continue
            seen.add(covers)
            out.append((covers, fins))
    return out


def _is_sashimi(base: tuple[int, ...], where: dict[int, tuple[int, ...]],
                fins: tuple[int, ...]) -> bool:
    """True when a base line keeps a single candidate without the fins."""
    return any(len([c for c in where[h] if c not in fins]) <= 1 for h in base)


def _fish_step(shape: Shape, size: int, value: int, base: tuple[int, ...],
               covers: tuple[int, ...], base_cells: list[int], fins: tuple[int, ...],
               elims: tuple[tuple[int, int], ...], where: dict[int, tuple[int, ...]]
               ) -> Step:
    name = FISH_NAMES[size]
    body = [c for c in base_cells if c not in fins]
    if fins:
        name = ("Sashimi " if _is_sashimi(base, where, fins) else "Finned ") + name
    fin_text = ""
    if fins:
        fin_text = f", fin{'s' if len(fins) > 1 else ''} {cells_ref(fins)}"
    template = (f"{name} on {value} in {_houses_text(base)}, covered by "
                f"{_houses_text(covers)}{fin_text}: remove {eliminations_ref(elims)}")
    return make_step(
        shape, name, template, eliminations=elims, cells=tuple(base_cells),
        houses=base + covers,
        highlights=tuple(("base", c, value) for c in body)
        + tuple(("fin", c, value) for c in fins)
        + tuple(("removed", c, v) for c, v in elims))


def find_basic_fish(board: Board, shape: Shape, size: int) -> Iterator[Step]:
    """Basic fish of ``size`` base lines (2 X-Wing, 3 Swordfish, 4 Jellyfish)."""
    return _fish(board, shape, size, "basic")


def find_finned_fish(board: Board, shape: Shape, size: int, sashimi: bool = False
                     ) -> Iterator[Step]:
    """Finned fish of ``size`` base lines that are not sashimi (or only sashimi ones)."""
    return _fish(board, shape, size, "sashimi" if sashimi else "finned")


def find_x_wing(board: Board, shape: Shape) -> Iterator[Step]:
    """X-Wing: two lines whose value lies in two crossing lines."""
    return find_basic_fish(board, shape, 2)


def find_swordfish(board: Board, shape: Shape) -> Iterator[Step]:
    """Swordfish: three lines whose value lies in three crossing lines."""
    return find_basic_fish(board, shape, 3)


def find_jellyfish(board: Board, shape: Shape) -> Iterator[Step]:
    """Jellyfish: four lines whose value lies in four crossing lines."""
    return find_basic_fish(board, shape, 4)


def find_finned_x_wing(board: Board, shape: Shape) -> Iterator[Step]:
    """Finned X-Wing (not sashimi)."""
    return find_finned_fish(board, shape, 2)


def find_sashimi_x_wing(board: Board, shape: Shape) -> Iterator[Step]:
    """Sashimi X-Wing."""
    return find_finned_fish(board, shape, 2, sashimi=True)


def find_finned_swordfish(board: Board, shape: Shape) -> Iterator[Step]:
    """Finned Swordfish (not sashimi)."""
    return find_finned_fish(board, shape, 3)


def find_sashimi_swordfish(board: Board, shape: Shape) -> Iterator[Step]:
    """Sashimi Swordfish."""
    return find_finned_fish(board, shape, 3, sashimi=True)


def find_finned_jellyfish(board: Board, shape: Shape) -> Iterator[Step]:
    """Finned Jellyfish (not sashimi)."""
    return find_finned_fish(board, shape, 4)


def find_sashimi_jellyfish(board: Board, shape: Shape) -> Iterator[Step]:
    """Sashimi Jellyfish."""
    return find_finned_fish(board, shape, 4, sashimi=True)
