"""Forcing chains: Cell and House Forcing Chains, Forcing Chain Contradictions.

Forcing chains try each possibility in turn on a copy of the board and follow only
naked and hidden singles from it (and, where cages have sums, what the sums allow).
Whatever every possibility of a cell (Cell Forcing Chain) or every place of a value in
a house (House Forcing Chain) leads to is true; a candidate whose assumption leads to a
broken board (Forcing Chain Contradiction) is false; followed by locked candidates too,
that is Forcing Chain Contradiction (+), as the Explainer's dynamic forcing chains
"plus" do.

An assumption is followed by the engine's propagation: the compiled core's where it
can take the board, else the pure-Python engine's (:func:`numberplace.engine.settle`)
with a rule of this module for cages with sums. The outcome of each assumption is
remembered in the board's memo, which the finders share.

Everything is phrased in houses and peers, so the finders serve every shape.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from .. import engine
from ..engine.sums import repeat_support
from ..model.shape import Shape
from .board import Board, cage_support, for_last_board, value_cells, values_of
from .geometry import house_bits, ones
from .step import (
    Role,
    Step,
    cell_ref,
    eliminations_ref,
    house_ref,
    make_step,
    value_ref,
    values_ref,
)

CELL_FORCING = "Cell Forcing Chain"
HOUSE_FORCING = "House Forcing Chain"
FORCING_CONTRADICTION = "Forcing Chain Contradiction"
FORCING_CONTRADICTION_PLUS = "Forcing Chain Contradiction (+)"

Outcome = tuple[list[int], list[int]] | None  # (values, candidates) or None if broken


def propagate(board: Board, cell: int, value: int, locked: bool = False) -> Outcome:
    """Place ``value`` in ``cell`` on a copy and follow naked and hidden singles.

    On shapes with sums, each cage's empty cells also keep only the digits some
    completion of its sum uses; with ``locked``, where the singles run out, locked
    candidates (a value of one house confined to its cells shared with another leaves
    the rest of the other) take the board further. Returns the resulting values and
    candidates, or None when the board breaks (a cell without candidates, a value
    without a place in a house, a sum that can no longer be made). Each round places a
    value or removes a candidate, so the propagation ends.
    """
    return _propagate_compiled(board, cell, value, locked)


def _propagate_python(board: Board, cell: int, value: int, locked: bool,
                      base: tuple[list[int], frozenset[int]] | None = None) -> Outcome:
    """:func:`propagate` in Python, for every shape: the pure-Python engine's rules
    (:func:`numberplace.engine.settle`), with the cage rule of :func:`_cage_rule`. The
    engine takes a cell with one candidate as placed; on the board a cell left so
    before the assumption (a naked single no step has taken yet) is placed only when
    something reaches it: a house where it is the last place of its value. ``base``:
    :func:`_masks` of the board, when the caller has it."""
    b = 1 << (value - 1)
    held = board.values[cell]
    if held:
        if held != value:
            return None
        queue = []
    elif not board.candidates[cell] & b:
        return None
    else:
        queue = [cell]
    shape = board.shape
    start, lone = base or _masks(board)
    masks = start.copy()
    masks[cell] = b
    waiting = set(lone)
    waiting.discard(cell)
    cages = _cage_rule(shape, waiting)
    while True:
        if not engine.settle(shape, masks, queue, locked=locked, cages=cages, eager=True):
            return None
        queue = [c for c in waiting if _last_place(shape, masks, c)]
        if not queue:
            break
        waiting.difference_update(queue)
    vals = [0 if m & (m - 1) else m.bit_length() for m in masks]
    out = [m & (m - 1) and m for m in masks]  # the cells placed have none
    for c in waiting:
        vals[c], out[c] = 0, masks[c]
    return vals, out


def _masks(board: Board) -> tuple[list[int], frozenset[int]]:
    """The board's masks as the engine takes them (one bit for a placed value), and its
    cells with one candidate and no value."""
    cands = board.candidates
    return ([1 << (v - 1) if v else m for v, m in zip(board.values, cands, strict=True)],
            frozenset(c for c, m in enumerate(cands) if m and not m & (m - 1)))


def _last_place(shape: Shape, masks: list[int], cell: int) -> bool:
    """True when ``cell``'s one candidate has no other place in one of its houses."""
    b = masks[cell]
    houses = shape.houses
    return any(not any(masks[q] & b for q in houses[h].cells if q != cell)
               for h in shape.houses_of[cell])


def _cage_rule(shape: Shape, waiting: set[int]) -> engine.CageRule | None:
    """The rule for the shape's cages with sums, as :func:`numberplace.engine.settle`
    takes it (None when it has none): each cage's empty cells keep only the digits some
    completion of its sum uses (cells in ``waiting`` count as empty). The engine's own
    rule for cages differs: it weighs every digit set of the whole sum, takes a coarser
    rule past 16 symbols, and counts dead ends for its branching; this one looks up the
    sets of what a sum still lacks in a table remembered across boards
    (:func:`~numberplace.logic.board.cage_support`), exact on every shape."""
    sums = _sums(shape)
    if not sums:
        return None
    size = shape.size

    def narrow(masks: list[int], queue: list[int]) -> bool | None:
        changed = False
        for cells, total, repeats in sums:
            found = _narrow_cage(masks, waiting, cells, total, size, queue, repeats)
            if found is None:
                return None
            changed |= found
        return changed

    return narrow


def _propagate_compiled(board: Board, cell: int, value: int, locked: bool) -> Outcome:
    """:func:`propagate` by the compiled core where it can (see :func:`_packable`). The
    rules are the same and each only takes candidates away, so where they end does not
    depend on their order: the outcome is the same."""
    base = _packable(board)
    if base is None:
        return _propagate_python(board, cell, value, locked)
    packed = _settle(board, base, cell, value, locked)
    if packed is None:
        return None
    settled = array("I", packed.to_bytes(4 * board.shape.ncells, "little")).tolist()
    vals = [m.bit_length() if not m & (m - 1) else 0 for m in settled]
    return vals, [0 if v else m for v, m in zip(vals, settled, strict=True)]


def _packable(board: Board) -> tuple[bytes, int] | None:
    """The board's masks as the compiled core takes them, and its candidates packed as
    :data:`Packed` (placed cells 0), when the core can settle its outcomes: a shape
    without cages, and no cell with one candidate and no value (the core would place it,
    the rules of :func:`propagate` only when something else reaches it)."""
    # (the packing reads the core's native words as little-endian ones)
    if board.shape.cages or engine.backend_name() != "c" or sys.byteorder != "little":
        return None
    cands = board.candidates
    if any(m and not m & (m - 1) for m in cands):
        return None
    masks = [1 << (v - 1) if v else m for v, m in zip(board.values, cands, strict=True)]
    return array("I", masks).tobytes(), int.from_bytes(array("I", cands).tobytes(), "little")


def _settle(board: Board, base: tuple[bytes, int], cell: int, value: int,
            locked: bool) -> int | None:
    """The compiled core's outcome of ``value`` in ``cell``, packed (see :data:`Packed`);
    ``base`` is :func:`_packable` of the board."""
    held = board.values[cell]
    if held:
        if held != value:
            return None
        masks = base[0]
    elif not base[1] >> (32 * cell + value - 1) & 1:
        return None
    else:
        changed = bytearray(base[0])
        changed[4 * cell:4 * cell + 4] = (1 << (value - 1)).to_bytes(4, "little")
        masks = bytes(changed)
    out = engine.propagate_masks(board.shape, masks, locked)
    return None if out is None else int.from_bytes(out, "little")


@lru_cache(maxsize=64)
def _sums(shape: Shape) -> tuple[tuple[tuple[int, ...], int, bool], ...]:
    """The shape's cages with sums: cells, sum, and whether digits may repeat."""
    return tuple((cage.cells, cage.total, cage.repeats) for cage in shape.cages
                 if cage.total is not None)


def _narrow_cage(masks: list[int], waiting: set[int], cells: tuple[int, ...], total: int,
                 size: int, queue: list[int], repeats: bool = False) -> bool | None:
    """Keep in a cage's empty cells (those with more than one candidate, and those in
    ``waiting``) only the digits some completion of its sum uses (``repeats``: digits
    may repeat in it); True if a candidate went, None if the sum can no longer be made.
    Cells left with one candidate join ``queue``."""
    empty = []
    placed = 0
    rest = total
    for c in cells:
        m = masks[c]
        if m & (m - 1) or c in waiting:
            empty.append(c)
        else:
            placed |= m
            rest -= m.bit_length()
    if not empty:
        return None if rest else False
    held = tuple(masks[c] for c in empty)
    keep = repeat_support(held, rest) if repeats else cage_support(held, rest, placed, size)
    return engine.keep_only(masks, empty, keep, queue)


#: A forcing chain's outcome as the finders keep it: every cell's mask (one bit for a
#: value, as the compiled core settles it) packed in one number, 32 bits a cell, or the
#: values and candidates of :func:`propagate`; None when the board broke.
Packed = int | tuple[list[int], list[int]] | None


@dataclass
class _Outcomes:
    """The forcing chains' outcomes on one board, as far as they were worked out, and
    how they are worked out there: ``base``, the board packed for the compiled core
    (:func:`_packable`), or where it is None, ``masks`` for the Python rules."""

    base: tuple[bytes, int] | None
    masks: tuple[list[int], frozenset[int]] | None
    known: dict[tuple[int, int, bool], Packed] = field(default_factory=dict)


def _outcomes(board: Board) -> _Outcomes:
    """The outcomes of this board, kept in its memo for the last board seen (the
    forcing-chain finders share them)."""
    def make() -> _Outcomes:
        base = _packable(board)
        return _Outcomes(base, _masks(board) if base is None else None)

    return for_last_board(board, "forcing outcomes", make)


def _outcome(board: Board, outcomes: _Outcomes, cell: int, value: int,
             locked: bool = False) -> Packed:
    """The outcome of ``value`` in ``cell`` (``outcomes``: :func:`_outcomes` of the
    board), worked out the first time it is asked for."""
    at = (cell, value, locked)
    known = outcomes.known
    if at not in known:
        board.memo.check_time()
        known[at] = (_propagate_python(board, cell, value, locked, outcomes.masks)
                     if outcomes.base is None
                     else _settle(board, outcomes.base, cell, value, locked))
    return known[at]


def _common(board: Board, outcomes: list[Packed]
            ) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """What every unbroken outcome agrees on: new placements and removed candidates."""
    packed = [o for o in outcomes if isinstance(o, int)]
    if packed:  # one board's outcomes are all packed or none is
        return _common_packed(board, packed)
    live = [o for o in outcomes if isinstance(o, tuple)]
    if not live:
        return (), ()
    placements: list[tuple[int, int]] = []
    eliminations: list[tuple[int, int]] = []
    for c, orig in enumerate(board.candidates):
        if not orig:
            continue
        first = live[0][0][c]
        if first and all(o[0][c] == first for o in live[1:]):
            placements.append((c, first))
            continue
        kept = 0
        for vals, cands in live:
            kept |= cands[c] | (1 << (vals[c] - 1) if vals[c] else 0)
        eliminations.extend((c, v) for v in values_of(orig & ~kept))
    return tuple(placements), tuple(eliminations)


def _common_packed(board: Board, live: list[int]
                   ) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """:func:`_common` of packed outcomes: a candidate no outcome keeps goes, and a cell
    where all keep the same one value gets it (each outcome placed it: the board had no
    cell with a lone candidate, and the core places every one)."""
    kept = 0
    for masks in live:
        kept |= masks
    base = _outcomes(board).base
    assert base is not None  # packed outcomes come with the board's packed candidates
    gone = base[1] & ~kept
    if not gone:  # the usual answer, found without looking at a cell
        return (), ()
    placements: list[tuple[int, int]] = []
    eliminations: list[tuple[int, int]] = []
    while gone:
        c = (gone & -gone).bit_length() - 1 >> 5
        shift = 32 * c
        here = kept >> shift & 0xFFFFFFFF
        if not here & (here - 1):
            placements.append((c, here.bit_length()))
        else:
            eliminations.extend((c, v) for v in values_of(gone >> shift & 0xFFFFFFFF))
        gone &= ~(0xFFFFFFFF << shift)
    return tuple(placements), tuple(eliminations)


def _places_text(placements: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{value_ref(v)} in {cell_ref(c)}" for c, v in placements)


def _forcing_step(board: Board, shape: Shape, technique: str, premise: str,
                  branches: list[tuple[int, int]], outcomes: list[Packed]) -> Step | None:
    placements, eliminations = _common(board, outcomes)
    if not placements and not eliminations:
        return None
    broken = [f"{value_ref(v)} in {cell_ref(c)}"
              for (c, v), o in zip(branches, outcomes, strict=True) if o is None]
    said = []
    if placements:
        said.append(f"place {_places_text(placements)}")
    if eliminations:
        said.append(f"remove {eliminations_ref(eliminations)}")
    note = f" (and {', '.join(broken)} would break the board)" if broken else ""
    template = (f"{technique}: {premise}; each case, followed by singles, leads to the "
                f"same{note}, so {' and '.join(said)}")
    return make_step(
        shape, technique, template, placements=placements, eliminations=eliminations,
        cells=tuple(c for c, _ in branches),
        highlights=tuple((Role.PREMISE, c, v) for c, v in branches)
        + tuple((Role.PLACED, c, v) for c, v in placements)
        + tuple((Role.REMOVED, c, v) for c, v in eliminations))


def _strongest_first(steps: list[Step]) -> list[Step]:
    """Steps placing most values first, then those removing most candidates."""
    return sorted(steps, key=lambda s: (-len(s.placements), -len(s.eliminations)))


def find_cell_forcing_chain(board: Board, shape: Shape) -> Iterator[Step]:
    """Every candidate of a cell leads by singles to the same placement or removal.

    All cells are tried, and the steps placing most values come first.
    """
    steps = []
    known = _outcomes(board)
    for c, m in enumerate(board.candidates):
        if m.bit_count() < 2:
            continue
        board.memo.check_time()
        branches = [(c, v) for v in values_of(m)]
        outcomes = [_outcome(board, known, c, v) for _, v in branches]
        listed = values_ref(v for _, v in branches)
        step = _forcing_step(board, shape, CELL_FORCING,
                             f"{cell_ref(c)} holds one of {listed}", branches, outcomes)
        if step is not None:
            steps.append(step)
    yield from _strongest_first(steps)


def find_house_forcing_chain(board: Board, shape: Shape) -> Iterator[Step]:
    """Every place of a value in a house leads by singles to the same result.

    All houses and values are tried, and the steps placing most values come first.
    """
    found = []
    vmasks = value_cells(board)
    for h, hb in enumerate(house_bits(shape)):
        for v in range(1, shape.size + 1):
            here = hb & vmasks[v]
            if here & (here - 1):
                found.append((h, v, ones(here)))
    steps = []
    known = _outcomes(board)
    for h, v, where in found:
        board.memo.check_time()
        branches = [(c, v) for c in where]
        outcomes = [_outcome(board, known, c, v) for c in where]
        places = ", ".join(cell_ref(c) for c in where)
        step = _forcing_step(board, shape, HOUSE_FORCING,
                             f"{value_ref(v)} goes in {house_ref(h)} at one of {places}",
                             branches, outcomes)
        if step is not None:
            steps.append(step)
    yield from _strongest_first(steps)


def _contradictions(board: Board, shape: Shape, locked: bool) -> Iterator[Step]:
    technique, how = ((FORCING_CONTRADICTION_PLUS, "singles and locked candidates")
                      if locked else (FORCING_CONTRADICTION, "singles"))
    known = _outcomes(board)
    for c, m in enumerate(board.candidates):
        if m.bit_count() < 2:
            continue
        for v in values_of(m):
            if _outcome(board, known, c, v, locked) is not None:
                continue
            template = (f"{technique}: {value_ref(v)} in {cell_ref(c)}, followed by {how}, "
                        f"breaks the board: remove {value_ref(v)} from {cell_ref(c)}")
            yield make_step(shape, technique, template,
                            eliminations=((c, v),), cells=(c,),
                            highlights=((Role.REMOVED, c, v),))


def find_forcing_contradiction(board: Board, shape: Shape) -> Iterator[Step]:
    """A candidate whose assumption leads by singles to a broken board is removed."""
    return _contradictions(board, shape, False)


def find_forcing_contradiction_plus(board: Board, shape: Shape) -> Iterator[Step]:
    """A candidate whose assumption leads by singles and locked candidates to a broken
    board is removed (the Explainer's dynamic forcing chains "plus")."""
    return _contradictions(board, shape, True)
