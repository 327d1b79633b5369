"""Cage techniques: what the sums of Kakuro runs and Killer cages tell, in words.

A cage's empty cells must hold different digits, none of those already placed in it,
adding up to what its sum still lacks: the digit sets that do are its *combinations*
(:mod:`numberplace.engine.sums`). From the simplest to the hardest:

* **Unique Combination**: only one digit set makes the sum (3 in two cells is {1,2}), so
  the cage's cells hold only its digits; the last empty cell of a cage takes what the
  sum lacks.
* **Cage Combinations**: of the digit sets, only those the cells can still hold (each
  digit with a cell for it) count; a digit in none of them leaves the cage. Where a
  Kakuro cell's across and down runs both do this, the cell keeps what both allow: the
  programming book's intersection of the two runs.
* **Required Digit**: a digit in every combination that still fits must be in the cage.
  With one cell left for it, it goes there; otherwise every cell that sees all of its
  places in the cage loses it.
* **Cage Permutations**: a cell keeps a digit only if the other cells can then complete
  a combination (two cells of {1,2} in a 10 in three cells leave the third only 7).
* **Innies and Outies** (the 45 rule of Killer): a house, or a few neighbouring rows or
  columns, holds every digit once per house, so its digits add up to 45 per house on a
  9x9 grid. Subtract the cages lying wholly inside: the cells left over (*innies*) make
  the rest. The cages reaching out of it add up to more than it by what their cells
  outside (*outies*) hold. One innie or outie is a placement; two to four make a sum
  that limits their candidates.
* **Cage Splitting**: where the innies (or outies) are the part of one cage inside (or
  outside) the area, the rest of that cage makes the cage's sum less theirs.

Every finder reads the board and the shape only, so it serves Kakuro, Killer on every
Sudoku shape, and yields nothing at once on shapes without sums.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..engine.sums import support
from ..model.shape import HouseKind, Shape
from .board import (
    Board,
    bit,
    cage_rest,
    cage_support,
    remaining_combinations,
    sum_support,
    values_of,
)
from .geometry import peer_sets
from .step import (
    Role,
    Step,
    cage_ref,
    candidates_ref,
    cell_ref,
    cells_ref,
    eliminations_ref,
    house_ref,
    make_step,
    placement_step,
    value_ref,
    values_ref,
)

UNIQUE_COMBINATION = "Unique Combination"
CAGE_COMBINATIONS = "Cage Combinations"
REQUIRED_DIGIT = "Required Digit"
CAGE_PERMUTATIONS = "Cage Permutations"
INNIE_OUTIE = "Innie or Outie"
INNIES_OUTIES = "Innies and Outies"
CAGE_SPLITTING = "Cage Splitting"

#: Most empty cells an innie or outie sum is reasoned about (more say too little).
MAX_SUM_CELLS = 4


@lru_cache(maxsize=64)
def sum_cages(shape: Shape) -> tuple[int, ...]:
    """The indices of the cages that have a sum."""
    return tuple(k for k, cage in enumerate(shape.cages) if cage.total is not None)


@dataclass(frozen=True)
class _State:
    """A cage's empty cells, what its sum still lacks, its placed digits, and the digit
    sets its empty cells may hold (by the numbers alone)."""

    cage: int
    empty: tuple[int, ...]
    rest: int
    placed: int
    combos: tuple[int, ...]


def _states(board: Board, shape: Shape) -> Iterator[_State]:
    """Every cage with a sum and an empty cell, in cage order."""
    values = board.values
    for k in sum_cages(shape):
        cage = shape.cages[k]
        assert cage.total is not None  # sum_cages
        if cage.repeats:  # its digits may repeat: no digit sets (see _repeats_steps)
            continue
        empty, rest, placed = cage_rest(values, cage.cells, cage.total)
        if empty:
            yield _State(k, empty, rest, placed,
                         remaining_combinations(rest, len(empty), placed, shape.size))


def _lacks(state: _State) -> str:
    """What a cage still needs, as words: ``needs 7 in 2 cells``."""
    cells = len(state.empty)
    words = f"needs {state.rest} in {cells} cell{'s' if cells > 1 else ''}"
    if state.placed:
        return f"{words} besides {values_ref(values_of(state.placed), ' and ')}"
    return words


def _removals_ref(eliminations: Sequence[tuple[int, int]]) -> str:
    """Removals grouped by cells losing the same digits: ``{1,2} from r1c1, r1c2; 5 from
    r1c3`` (a cage's cells often lose many digits at once)."""
    lost: dict[int, int] = {}
    for cell, value in eliminations:
        lost[cell] = lost.get(cell, 0) | bit(value)
    groups: dict[int, list[int]] = {}
    for cell, mask in lost.items():
        groups.setdefault(mask, []).append(cell)
    return "; ".join(
        f"{value_ref(mask.bit_length()) if not mask & (mask - 1) else candidates_ref(mask)} "
        f"from {cells_ref(cells)}" for mask, cells in groups.items())


def _combos_ref(combos: Sequence[int]) -> str:
    return ", ".join(candidates_ref(s) for s in combos)


def _fitting(board: Board, state: _State) -> tuple[int, ...]:
    """The combinations the empty cells can still hold (a cell for each digit)."""
    masks = [board.candidates[c] for c in state.empty]
    return tuple(s for s in state.combos if _fits(tuple(masks), s))


@lru_cache(maxsize=65536)
def _fits(masks: tuple[int, ...], digits: int) -> bool:
    """Whether cells that may hold ``masks`` can take the set ``digits``, one each."""
    return any(support(masks, (digits,)))


def _elimination_step(shape: Shape, technique: str, template: str, state: _State,
                      elims: tuple[tuple[int, int], ...], defining: int = 0) -> Step:
    return make_step(
        shape, technique, template, eliminations=elims, cells=state.empty,
        cages=(state.cage,),
        highlights=tuple((Role.DEFINING, c, v) for c in state.empty
                         for v in values_of(defining)) +
        tuple((Role.REMOVED, c, v) for c, v in elims))


def _outside(board: Board, cells: Sequence[int], allowed: int) -> tuple[tuple[int, int], ...]:
    """The candidates of ``cells`` that are not in ``allowed``, as eliminations."""
    cands = board.candidates
    return tuple((c, v) for c in cells for v in values_of(cands[c] & ~allowed))


def find_unique_combination(board: Board, shape: Shape) -> Iterator[Step]:
    """A sum that only one digit set makes: its cells hold only those digits; the last
    empty cell of a cage takes what the sum lacks."""
    for state in _states(board, shape):
        if len(state.combos) != 1:
            continue
        only = state.combos[0]
        g = cage_ref(state.cage)
        if len(state.empty) == 1:
            cell, value = state.empty[0], only.bit_length()
            if board.candidates[cell] & only:
                yield placement_step(
                    shape, UNIQUE_COMBINATION,
                    f"{cell_ref(cell)} is the last empty cell of {g}, which {_lacks(state)}: "
                    f"place {value_ref(value)} at {cell_ref(cell)}", cell, value,
                    cages=(state.cage,))
            continue
        elims = _outside(board, state.empty, only)
        if elims:
            yield _elimination_step(
                shape, UNIQUE_COMBINATION,
                f"{g} {_lacks(state)}, and only {candidates_ref(only)} adds up to that: "
                f"remove {_removals_ref(elims)}", state, elims, only)


def find_cage_combinations(board: Board, shape: Shape) -> Iterator[Step]:
    """Digits in no combination that the cage's cells can still hold leave the cage."""
    for state in _states(board, shape):
        fitting = _fitting(board, state)
        allowed = 0
        for s in fitting:
            allowed |= s
        elims = _outside(board, state.empty, allowed)
        if not elims or not fitting:
            continue
        g = cage_ref(state.cage)
        dropped = [s for s in state.combos if s not in fitting]
        why = f" ({_combos_ref(dropped)} cannot be placed in its cells)" if dropped else ""
        kinds = "combination" if len(fitting) == 1 else "combinations"
        yield _elimination_step(
            shape, CAGE_COMBINATIONS,
            f"{g} {_lacks(state)}: its {kinds} {_combos_ref(fitting)}{why} "
            f"{'leaves' if len(fitting) == 1 else 'leave'} its cells "
            f"only {candidates_ref(allowed)}: remove {_removals_ref(elims)}",
            state, elims, allowed)
    yield from _repeats_steps(board, shape)


def _repeats_steps(board: Board, shape: Shape) -> Iterator[Step]:
    """A cage whose digits may repeat: a cell keeps a digit only if the other cells can
    make up the rest of the sum, different digits only where two cells share a house."""
    values, cands = board.values, board.candidates
    for k in sum_cages(shape):
        cage = shape.cages[k]
        if not cage.repeats:
            continue
        assert cage.total is not None  # sum_cages
        empty, rest, _ = cage_rest(values, cage.cells, cage.total)
        if not empty:
            continue
        keep = sum_support(board, empty, rest)
        if keep is None:
            continue  # the board is broken; the driver says so
        elims = tuple((c, v) for c, m in zip(empty, keep, strict=True)
                      for v in values_of(cands[c] & ~m))
        if not elims:
            continue
        cells = len(empty)
        state = _State(k, empty, rest, 0, ())
        yield _elimination_step(
            shape, CAGE_COMBINATIONS,
            f"{cage_ref(k)} needs {rest} in {cells} cell{'s' if cells > 1 else ''} (its "
            f"digits may repeat where its cells share no house), and no way of making that "
            f"uses these: remove {_removals_ref(elims)}",
            state, elims)


def find_required_digit(board: Board, shape: Shape) -> Iterator[Step]:
    """A digit every fitting combination holds must be in the cage: with one cell for it,
    it goes there; cells that see all its places lose it."""
    cands, values = board.candidates, board.values
    seen = peer_sets(shape)
    for state in _states(board, shape):
        fitting = _fitting(board, state)
        if not fitting:
            continue
        required = fitting[0]
        for s in fitting[1:]:
            required &= s
        g = cage_ref(state.cage)
        every = "the only combination" if len(fitting) == 1 else \
            f"every combination ({_combos_ref(fitting)})"
        for value in values_of(required):
            b = bit(value)
            places = [c for c in state.empty if cands[c] & b]
            if len(places) == 1:
                cell = places[0]
                yield placement_step(
                    shape, REQUIRED_DIGIT,
                    f"{g} {_lacks(state)}; {every} holds {value_ref(value)}, and only "
                    f"{cell_ref(cell)} can take it: place {value_ref(value)} at "
                    f"{cell_ref(cell)}", cell, value, cages=(state.cage,))
                continue
            if not places:
                continue
            common = set.intersection(*(set(seen[c]) for c in places))
            elims = tuple((c, value) for c in sorted(common)
                          if not values[c] and cands[c] & b)
            if elims:
                seeing = [c for c, _ in elims]
                yield make_step(
                    shape, REQUIRED_DIGIT,
                    f"{g} {_lacks(state)}; {every} holds {value_ref(value)}, so it is in "
                    f"one of {cells_ref(places)}, and {cells_ref(seeing)} "
                    f"{'sees' if len(seeing) == 1 else 'see'} all of them: remove "
                    f"{eliminations_ref(elims)}",
                    eliminations=elims, cells=tuple(places), cages=(state.cage,),
                    highlights=tuple((Role.DEFINING, c, value) for c in places)
                    + tuple((Role.REMOVED, c, value) for c, _ in elims))


def find_cage_permutations(board: Board, shape: Shape) -> Iterator[Step]:
    """A cell keeps a digit only if the cage's other cells can then complete one of its
    combinations with different digits."""
    cands = board.candidates
    for state in _states(board, shape):
        masks = [cands[c] for c in state.empty]
        keep = cage_support(tuple(masks), state.rest, state.placed, shape.size)
        if not any(keep):
            continue  # the board is broken; the driver says so
        elims = tuple((c, v) for c, m, k in zip(state.empty, masks, keep, strict=True)
                      for v in values_of(m & ~k))
        if not elims:
            continue
        g = cage_ref(state.cage)
        fitting = _fitting(board, state)
        removed_cells = sorted({c for c, _ in elims})
        yield make_step(
            shape, CAGE_PERMUTATIONS,
            f"{g} {_lacks(state)} with {_combos_ref(fitting)}; with {_at_ref(elims)} the "
            f"other cells could not complete any of them with different digits: remove "
            f"{_removals_ref(elims)}",
            eliminations=elims, cells=tuple(state.empty), cages=(state.cage,),
            highlights=tuple((Role.DEFINING, c, v) for c in state.empty
                             if c not in removed_cells for v in values_of(cands[c]))
            + tuple((Role.REMOVED, c, v) for c, v in elims))


def _at_ref(eliminations: Sequence[tuple[int, int]]) -> str:
    """Candidates as words: ``5 at r1c1 or r1c2, or 7 at r3c3``."""
    by_value: dict[int, list[int]] = {}
    for cell, value in eliminations:
        by_value.setdefault(value, []).append(cell)
    return ", or ".join(f"{value_ref(v)} at {' or '.join(cell_ref(c) for c in cs)}"
                        for v, cs in sorted(by_value.items()))


# -- the 45 rule --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Area:
    """Houses that share no cell, taken together: what their digits add up to, and how
    they are named."""

    houses: tuple[int, ...]
    cells: frozenset[int]


@lru_cache(maxsize=64)
def _areas(shape: Shape) -> tuple[_Area, ...]:
    """The areas the 45 rule is tried on: every house, then runs of neighbouring rows or
    columns of one grid (up to half the grid: a bigger run's rest is a smaller one)."""
    houses = shape.houses
    out = [_Area((h,), frozenset(house.cells)) for h, house in enumerate(houses)]
    for kind in (HouseKind.ROW, HouseKind.COLUMN):
        lines: dict[int, list[int]] = {}
        for h, house in enumerate(houses):
            if house.kind == kind:
                lines.setdefault(house.grid, []).append(h)
        for group in lines.values():
            group.sort(key=lambda h: houses[h].number)
            for width in range(2, len(group) // 2 + 1):
                for start in range(len(group) - width + 1):
                    chosen = tuple(group[start:start + width])
                    out.append(_Area(chosen, frozenset(c for h in chosen
                                                       for c in houses[h].cells)))
    return tuple(out)


@dataclass(frozen=True)
class _Fact:
    """Some cells whose digits add up to ``total``: the innies or outies of an area, or
    the rest of a cage they split."""

    technique: str
    cells: tuple[int, ...]
    total: int
    reason: str
    houses: tuple[int, ...]
    cages: tuple[int, ...]


def _area_ref(shape: Shape, area: _Area) -> str:
    refs = [house_ref(h) for h in area.houses]
    if len(refs) == 1:
        return refs[0]
    return ", ".join(refs[:-1]) + " and " + refs[-1]


@lru_cache(maxsize=64)
def _facts(shape: Shape) -> tuple[_Fact, ...]:
    """What the 45 rule and cage splitting say, area by area (the cells and their sum,
    before any digit is placed)."""
    return tuple(_area_facts(shape))


def _area_facts(shape: Shape) -> Iterator[_Fact]:
    cages = shape.cages
    with_sum = set(sum_cages(shape))
    if not with_sum or not shape.houses:
        return
    house_total = shape.size * (shape.size + 1) // 2
    for area in _areas(shape):
        touching: dict[int, None] = {}
        for c in sorted(area.cells):
            for k in shape.cages_of[c]:
                touching[k] = None
        inside = [k for k in touching if k in with_sum and cages[k].cells
                  and area.cells.issuperset(cages[k].cells)]
        covered = {c for k in inside for c in cages[k].cells}
        if len(covered) != sum(len(cages[k].cells) for k in inside):
            continue  # cages that overlap each other: their sums would count twice
        total = house_total * len(area.houses)
        name = _area_ref(shape, area)
        innies = tuple(sorted(area.cells - covered))
        if innies and len(innies) < len(area.cells):
            rest = total - sum(cages[k].total or 0 for k in inside)
            yield from _split(shape, innies, rest,
                              f"{name} add{'s' if len(area.houses) == 1 else ''} up to "
                              f"{total}; less the cages inside, the innies "
                              f"{cells_ref(innies)} make {rest}",
                              area, tuple(inside))
        # outies: cages with a sum covering the area, some reaching out of it
        out_cages = [k for k in touching if k not in inside]
        if not out_cages or any(k not in with_sum for k in out_cages):
            continue
        cover = covered | {c for k in out_cages for c in cages[k].cells}
        if not area.cells <= cover:
            continue
        if len(cover) != sum(len(cages[k].cells) for k in (*inside, *out_cages)):
            continue
        outies = tuple(sorted(cover - area.cells))
        rest = sum(cages[k].total or 0 for k in (*inside, *out_cages)) - total
        yield from _split(shape, outies, rest,
                          f"the cages covering {name} add up to {rest + total}, "
                          f"{rest} more than its {total}: the outies {cells_ref(outies)} "
                          f"make {rest}",
                          area, tuple(out_cages), outie=True)


def _split(shape: Shape, cells: tuple[int, ...], total: int, reason: str, area: _Area,
           cages: tuple[int, ...], outie: bool = False) -> Iterator[_Fact]:
    """The fact about ``cells`` and, where they are one cage's part inside (innies) or
    outside (outies) the area, the fact about the rest of that cage."""
    yield _Fact(INNIE_OUTIE, cells, total, reason, area.houses, cages)
    owners = {k for c in cells for k in shape.cages_of[c]
              if shape.cages[k].total is not None}
    for k in sorted(owners):
        cage = shape.cages[k]
        part = set(cage.cells)
        if not part.issuperset(cells):
            continue
        others = tuple(c for c in cage.cells if c not in cells)
        if not others or (outie and not area.cells.issuperset(others)):
            continue
        if not outie and area.cells.intersection(others):
            continue
        assert cage.total is not None
        yield _Fact(CAGE_SPLITTING, others, cage.total - total,
                    f"{reason}; so the rest of {cage_ref(k)}, {cells_ref(others)}, makes "
                    f"{cage.total} - {total} = {cage.total - total}",
                    area.houses, (*cages, k))


def _fact_steps(board: Board, shape: Shape, technique: str, placing: bool
                ) -> Iterator[Step]:
    values, cands = board.values, board.candidates
    done: set[tuple[tuple[int, ...], int]] = set()
    source = CAGE_SPLITTING if technique == CAGE_SPLITTING else INNIE_OUTIE
    for fact in _facts(shape):
        if fact.technique != source:
            continue
        empty = tuple(c for c in fact.cells if not values[c])
        rest = fact.total - sum(values[c] for c in fact.cells)
        if not empty or (empty, rest) in done:
            continue
        done.add((empty, rest))
        placed = "" if len(empty) == len(fact.cells) else \
            f"; less what is placed, {cells_ref(empty)} make {rest}"
        if len(empty) == 1:
            if not placing:
                continue
            cell = empty[0]
            if not 1 <= rest <= shape.size or not cands[cell] & bit(rest):
                continue  # a broken board: the driver says so
            yield placement_step(
                shape, technique,
                f"{fact.reason}{placed}: place {value_ref(rest)} at {cell_ref(cell)}",
                cell, rest, houses=fact.houses, cages=fact.cages)
            continue
        if placing or len(empty) > MAX_SUM_CELLS:
            continue
        keep = sum_support(board, empty, rest)
        if keep is None:
            continue
        elims = tuple((c, v) for c, k in zip(empty, keep, strict=True)
                      for v in values_of(cands[c] & ~k))
        if elims:
            yield make_step(
                shape, technique,
                f"{fact.reason}{placed}: remove {_removals_ref(elims)}",
                eliminations=elims, cells=empty, houses=fact.houses, cages=fact.cages,
                highlights=tuple((Role.DEFINING, c, v) for c, k in zip(empty, keep, strict=True)
                                 for v in values_of(cands[c] & k))
                + tuple((Role.REMOVED, c, v) for c, v in elims))


def find_innie_outie(board: Board, shape: Shape) -> Iterator[Step]:
    """The 45 rule with one innie or one outie left: it takes what the area lacks."""
    return _fact_steps(board, shape, INNIE_OUTIE, True)


def find_innies_outies(board: Board, shape: Shape) -> Iterator[Step]:
    """The 45 rule with two to four innies or outies: their sum limits their digits."""
    return _fact_steps(board, shape, INNIES_OUTIES, False)


def find_cage_splitting(board: Board, shape: Shape) -> Iterator[Step]:
    """The rest of a cage that innies or outies split: placed when one cell, limited by
    its sum otherwise."""
    yield from _fact_steps(board, shape, CAGE_SPLITTING, True)
    yield from _fact_steps(board, shape, CAGE_SPLITTING, False)
