"""Fish beyond rows and columns: Franken and Mutant fish, and Siamese fish.

A fish of size n on a value v takes n *base* houses and n *cover* houses (none of them a
base house). Each base house holds v once, so n copies of v lie in the base; each cover
house holds at most one, so when the covers hold every base candidate, each cover takes
exactly one of the n, and v leaves the covers' other cells. A base candidate in two
covers would fill two covers at once and leave one empty: it is not v either (a
*cannibal* elimination). Base candidates outside the covers are *fins*, and so are
candidates two base houses share (*endo fins*, at most two): either a fin holds v or the
fish stands, so only cells seeing every fin lose v.

Basic fish use rows as base and columns as cover (or the reverse) and are the fish
module's. A *Franken* fish adds boxes (or jigsaw regions) to one side or both: rows and
boxes against columns and boxes, or columns and boxes against rows and boxes. A *Mutant*
fish mixes any kinds on either side.

Two finned fish of one value on the same base houses with different covers, removing
different candidates, are given as one *Siamese* step (as HoDoKu does).

The search picks base houses, then covers the lowest base candidate not yet covered by
one of its houses, or leaves it as a fin (at most :data:`MAX_FINS`, all seeing some cell);
so only covers that matter are tried.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

from ..model.shape import BLOCK_KINDS, HouseKind, Shape
from ..native import backend_name, core
from .board import Board, value_cells
from .fish import FISH_NAMES, _fish
from .geometry import house_bits, ones, packed_cell_sets, peer_bits, scaled_budget
from .step import (
    Role,
    Step,
    cells_ref,
    eliminations_ref,
    house_ref,
    joined,
    make_step,
    pattern_value,
    value_ref,
)

FRANKEN_FISH = "Franken Fish"
MUTANT_FISH = "Mutant Fish"
SIAMESE_FISH = "Siamese Fish"

#: Most fins of a finned fish, most of them in two base houses at once (endo fins), and
#: the largest fish searched unless the caller sets ``Memo.fish_size`` (up to
#: :data:`LARGEST`, a Leviathan; the step budget bounds the time either way).
MAX_FINS = 4
MAX_ENDO_FINS = 2
MAX_SIZE = 4
LARGEST = 7
#: Most search steps for one value's fish of one kind, unless the caller sets
#: ``Memo.fish_steps`` (Mutant jellyfish can take millions on an open board).
FISH_BUDGET = 20_000

_LINES = (HouseKind.ROW, HouseKind.COLUMN)
_NAMES = {**FISH_NAMES, 5: "Squirmbag", 6: "Whale", 7: "Leviathan"}


def _kind(shape: Shape, h: int) -> str:
    kind = shape.houses[h].kind
    if kind in BLOCK_KINDS:
        return "box"
    return kind.value if kind in _LINES else "other"


def _category(kinds_base: set[str], kinds_cover: set[str]) -> str:
    """basic, franken or mutant, as HoDoKu names a fish by its houses' kinds."""
    if kinds_base | kinds_cover <= {"row", "column"} and len(kinds_base) == 1 \
            and len(kinds_cover) == 1 and kinds_base != kinds_cover:
        return "basic"
    for line, other in (("row", "column"), ("column", "row")):
        if kinds_base <= {line, "box"} and kinds_cover <= {other, "box"}:
            return "franken"
    return "mutant"


Found = tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]


def _search(board: Board, shape: Shape, value: int, category: str) -> Iterator[Found]:
    """Fish of ``category`` on ``value``: (base houses, cover houses, fins, cells losing
    the value)."""
    vcells = value_cells(board)[value]
    hb = house_bits(shape)
    pm = peer_bits(shape)
    kinds = [_kind(shape, h) for h in range(len(hb))]
    usable = [h for h in range(len(hb)) if kinds[h] != "other" and hb[h] & vcells]
    masks = {h: hb[h] & vcells for h in usable}
    houses_of_cell: dict[int, list[int]] = {}
    for h in usable:
        for c in ones(masks[h]):
            houses_of_cell.setdefault(c, []).append(h)
    budget = [board.memo.fish_steps or scaled_budget(FISH_BUDGET, shape)]
    largest = min(board.memo.fish_size or MAX_SIZE, LARGEST)
    found: set[frozenset[int]] = set()

    def sides() -> list[tuple[set[str], set[str]]]:
        if category == "franken":
            return [({"row", "box"}, {"column", "box"}), ({"column", "box"}, {"row", "box"})]
        return [({"row", "column", "box"}, {"row", "column", "box"})]

    compiled = _compiled(shape, largest)
    # the value's candidates in each house, packed once for every side and size
    packed = (packed_cell_sets(shape, (masks.get(h, 0) for h in range(len(hb))))
              if compiled is not None else b"")
    for base_kinds, cover_kinds in sides():
        bases = [h for h in usable if kinds[h] in base_kinds]
        for size in range(2, largest + 1):
            fish: Iterable[Found]
            if compiled is not None:
                fish = _compiled_size(compiled, packed, masks, vcells, bases, kinds,
                                      cover_kinds, size, budget, category)
                board.memo.check_time()
            else:
                fish = _python_size(board, bases, masks, houses_of_cell, kinds, cover_kinds,
                                    vcells, pm, size, budget, category)
            for base, covers, fins, elims in fish:
                key = frozenset(elims)
                if not elims or key in found:
                    continue
                found.add(key)
                yield base, covers, fins, elims
            if budget[0] < 0:
                return


def _python_size(board: Board, bases: list[int], masks: dict[int, int],
                 houses_of_cell: dict[int, list[int]], kinds: list[str],
                 cover_kinds: set[str], vcells: int, pm: Sequence[int], size: int,
                 budget: list[int], category: str) -> Iterator[Found]:
    """The fish of one size and ``category`` on ``bases``, before removals are compared."""
    for base, endo in _bases(bases, masks, size, budget):
        board.memo.check_time()
        body = 0
        for h in base:
            body |= masks[h]
        in_base = set(base)
        for covers, fins in _covers(body, endo, size, houses_of_cell, masks, kinds,
                                    cover_kinds, in_base, pm, budget):
            cat = _category({kinds[h] for h in base}, {kinds[h] for h in covers})
            if cat == category:
                yield base, covers, fins, _eliminations(body, covers, fins, masks, vcells, pm)


#: The compiled search (logic/_fish.c) where this core has one, else None.
_FISH = core if core is not None and core.HAVE_FISH else None
#: How it numbers the kinds of houses and the categories of fish.
_KIND_BITS = {"row": _FISH.FISH_ROW, "column": _FISH.FISH_COLUMN, "box": _FISH.FISH_BOX,
              "other": 0} if _FISH else {}
_CATEGORIES = {"basic": _FISH.FISH_BASIC, "franken": _FISH.FISH_FRANKEN,
               "mutant": _FISH.FISH_MUTANT} if _FISH else {}


@lru_cache(maxsize=64)
def _compiled_tables(shape: Shape) -> tuple[bytes, bytes]:
    """Each cell's peers and each house's kind, as the compiled search reads them."""
    peers = packed_cell_sets(shape, peer_bits(shape))
    kinds = bytes(_KIND_BITS[_kind(shape, h)] for h in range(len(shape.houses)))
    return peers, kinds


def _compiled(shape: Shape, largest: int) -> tuple[bytes, bytes] | None:
    if (_FISH is None or backend_name() != "c" or shape.ncells > _FISH.FISH_CELLS
            or len(shape.houses) > _FISH.FISH_HOUSES or largest > _FISH.FISH_SIZE):
        return None
    return _compiled_tables(shape)


def _compiled_size(tables: tuple[bytes, bytes], house_masks: bytes, masks: dict[int, int],
                   vcells: int, bases: list[int], kinds: list[str], cover_kinds: set[str],
                   size: int, budget: list[int], category: str) -> list[Found]:
    """:func:`_python_size` in the compiled core: the same fish, in the same order, and
    the same use of the budget. ``house_masks``: ``masks`` packed for the core."""
    peers, kind_bits = tables
    nh = len(kind_bits)
    cover_ok = bytes(1 if h in masks and kinds[h] in cover_kinds else 0 for h in range(nh))
    assert _FISH is not None  # _compiled gave the tables
    found, budget[0] = _FISH.fish_search(
        house_masks, kind_bits, cover_ok, peers, array("i", bases).tobytes(),
        vcells.to_bytes(len(house_masks) // nh, "little"), size, budget[0],
        _CATEGORIES[category], MAX_FINS, MAX_ENDO_FINS)
    return [(base, covers, int.from_bytes(fins, "little"),
             tuple(ones(int.from_bytes(elims, "little"))))
            for base, covers, fins, elims in found]


def _bases(houses: list[int], masks: dict[int, int], size: int, budget: list[int]
           ) -> Iterator[tuple[tuple[int, ...], int]]:
    """Sets of ``size`` houses, with the candidates two of them share (endo fins, at most
    :data:`MAX_ENDO_FINS`)."""
    chosen: list[int] = []

    def pick(start: int, used: int, endo: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if len(chosen) == size:
            yield tuple(chosen), endo
            return
        for i in range(start, len(houses)):
            budget[0] -= 1
            if budget[0] < 0:
                return
            h = houses[i]
            shared = endo | (masks[h] & used)
            if shared.bit_count() > MAX_ENDO_FINS:
                continue
            chosen.append(h)
            yield from pick(i + 1, used | masks[h], shared)
            chosen.pop()

    return pick(0, 0, 0)


def _covers(body: int, endo: int, size: int, houses_of_cell: dict[int, list[int]],
            masks: dict[int, int], kinds: list[str], cover_kinds: set[str],
            base: set[int], pm: Sequence[int], budget: list[int]
            ) -> list[tuple[tuple[int, ...], int]]:
    """Cover sets of ``size`` houses for the base candidates ``body``, with their fins."""
    found: list[tuple[tuple[int, ...], int]] = []
    seen: set[tuple[int, ...]] = set()
    covers: list[int] = []
    # for each base candidate, the houses that may cover it
    options: dict[int, list[int]] = {}

    # A plain recursion collecting into a list: as generators, each cover set found
    # climbed back through every level of the search, most of the fish search's time
    def walk(covered: int, fins: int, fin_peers: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            return
        open_ = body & ~covered & ~fins
        if len(covers) == size:
            fins |= open_
            if fins.bit_count() > MAX_FINS:
                return
            key = tuple(sorted(covers))
            if key not in seen:
                seen.add(key)
                found.append((key, fins))
            return
        if not open_:
            return  # fewer covers than bases hold every base candidate: a broken board
        c = (open_ & -open_).bit_length() - 1
        hs = options.get(c)
        if hs is None:
            hs = options[c] = [h for h in houses_of_cell.get(c, ())
                               if h not in base and kinds[h] in cover_kinds]
        for h in hs:
            if h in covers:
                continue
            covers.append(h)
            walk(covered | masks[h], fins, fin_peers)
            covers.pop()
        if fins.bit_count() < MAX_FINS and fin_peers & pm[c]:
            walk(covered, fins | 1 << c, fin_peers & pm[c])

    fin_peers = -1
    for c in ones(endo):
        fin_peers &= pm[c]
    if fin_peers:
        walk(0, endo, fin_peers)
    return found


def _eliminations(body: int, covers: tuple[int, ...], fins: int, masks: dict[int, int],
                  vcells: int, pm: Sequence[int]) -> tuple[int, ...]:
    covered = 0
    twice = 0
    for h in covers:
        twice |= covered & masks[h]
        covered |= masks[h]
    targets = (covered & ~body) | (twice & body)
    targets &= vcells & ~fins
    for c in ones(fins):
        targets &= pm[c]
    return tuple(ones(targets))  # cells; the value is the caller's


def _name(category: str, size: int, fins: int) -> str:
    finned = "Finned " if fins else ""
    kind = {"franken": "Franken ", "mutant": "Mutant ", "basic": ""}[category]
    return f"{finned}{kind}{_NAMES.get(size, f'{size}-fish')}"


def _step(shape: Shape, technique: str, value: int, category: str,
          base: tuple[int, ...], covers: tuple[int, ...], fins: int, cells: tuple[int, ...]
          ) -> Step:
    elims = tuple((c, value) for c in cells)
    fin_text = ""
    if fins:
        fin_text = (f"; with fins at {cells_ref(ones(fins))}, only "
                    f"cells seeing every fin")
    name = _name(category, len(base), fins)
    template = (f"{name} on {value_ref(value)}: base "
                f"{', '.join(house_ref(h) for h in base)}; cover "
                f"{', '.join(house_ref(h) for h in covers)}{fin_text}: remove "
                f"{eliminations_ref(elims)}")
    return make_step(shape, technique, template, eliminations=elims, houses=base + covers,
                     highlights=tuple((Role.FIN, c, value) for c in ones(fins))
                     + tuple((Role.REMOVED, c, v) for c, v in elims))


def _finder(board: Board, shape: Shape, category: str, technique: str) -> Iterator[Step]:
    steps: list[tuple[int, int, Step]] = []
    for v in range(1, shape.size + 1):
        if not value_cells(board)[v]:
            continue
        for base, covers, fins, cells in _search(board, shape, v, category):
            steps.append((len(base), fins.bit_count(),
                          _step(shape, technique, v, category, base, covers, fins, cells)))
    steps.sort(key=lambda s: (s[0], s[1]))
    plain = [s for _, _, s in steps]
    yield from plain
    yield from _siamese(plain, technique)


def find_franken_fish(board: Board, shape: Shape) -> Iterator[Step]:
    """Franken fish (basic and finned, sizes 2 to 4, or up to ``Memo.fish_size``): boxes
    among the base or the cover houses of a row or column fish; then the Siamese pairs
    among them."""
    return _finder(board, shape, "franken", FRANKEN_FISH)


def find_mutant_fish(board: Board, shape: Shape) -> Iterator[Step]:
    """Mutant fish (basic and finned, sizes 2 to 4, or up to ``Memo.fish_size``): rows,
    columns and boxes mixed on a side; then the Siamese pairs among them."""
    return _finder(board, shape, "mutant", MUTANT_FISH)


def _siamese(steps: list[Step], technique: str) -> Iterator[Step]:
    """Two fish of one value on the same base houses removing different candidates."""

    def base(step: Step) -> tuple[int, tuple[int, ...]]:
        return pattern_value(step), tuple(sorted(step.houses[:len(step.houses) // 2]))

    def describe(first: Step, second: Step) -> str:
        covers = second.houses[len(second.houses) // 2:]
        return (f"Siamese fish: {first.template.split(': remove ')[0]}; and cover "
                f"{', '.join(house_ref(h) for h in covers)}")

    return joined(steps, base, technique, describe)


def find_siamese_fish(board: Board, shape: Shape) -> Iterator[Step]:
    """Siamese fish: two finned (or sashimi) row and column fish of one value on the
    same base lines, with different covers and removals, as one step."""
    for size in sorted(FISH_NAMES):
        found = list(_fish(board, shape, size, "finned")) + list(_fish(board, shape, size,
                                                                       "sashimi"))
        yield from _siamese(found, SIAMESE_FISH)

