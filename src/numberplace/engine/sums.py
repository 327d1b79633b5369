"""Sums of distinct digits: the combination table that Kakuro and Killer cages are solved by.

A run of ``k`` cells with the clue ``s`` holds ``k`` different digits from ``1..n`` adding
up to ``s``; the sets that do are its *combinations*: 3 in 2 cells is only {1,2}, 7 in 2
cells is {1,6}, {2,5} or {3,4}. A cell of the run can only hold a digit of one of them, and
a digit found in every one of them must be in the run. Sets are kept as bit masks (bit
``v - 1`` for digit ``v``), as candidates are everywhere else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from ..errors import NumberplaceError

#: Largest digit a cage may use by default (Kakuro and 9x9 Killer use 1 to 9).
DIGITS = 9


def _check(total: int, cells: int, digits: int) -> None:
    for name, value in (("total", total), ("cells", cells), ("digits", digits)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be a whole number, not {type(value).__name__}")
    if not 1 <= digits <= 31:
        raise NumberplaceError(f"digits must be from 1 to 31, not {digits}")
    if not 1 <= cells <= digits:
        raise NumberplaceError(f"a run of different digits from 1 to {digits} has 1 to "
                               f"{digits} cells, not {cells}")
    if total < 1:
        raise NumberplaceError(f"a sum must be at least 1, not {total}")


@cache
def combination_masks(total: int, cells: int, digits: int = DIGITS) -> tuple[int, ...]:
    """Every set of ``cells`` different digits from ``1..digits`` adding up to ``total``,
    as bit masks in increasing order of their digits read as a sorted list (so {1,6} comes
    before {2,5}); empty when none does."""
    _check(total, cells, digits)
    found: list[tuple[int, ...]] = []

    def extend(start: int, left: int, chosen: tuple[int, ...]) -> None:
        need = cells - len(chosen)
        if need == 0:
            if left == 0:
                found.append(chosen)
            return
        for d in range(start, digits + 1):
            # the smallest sum the rest can still make, and the largest, bound the search
            if d * need + need * (need - 1) // 2 > left:
                break
            if sum(range(digits - need + 1, digits + 1)) < left:
                break
            extend(d + 1, left - d, (*chosen, d))

    extend(1, total, ())
    return tuple(sum(1 << (d - 1) for d in combo) for combo in found)


def combinations(total: int, cells: int, digits: int = DIGITS) -> list[tuple[int, ...]]:
    """The combinations of :func:`combination_masks` as sorted tuples of digits:
    ``combinations(7, 2) == [(1, 6), (2, 5), (3, 4)]``."""
    return [digits_of(mask) for mask in combination_masks(total, cells, digits)]


def digits_of(mask: int) -> tuple[int, ...]:
    """The digits of a bit mask, smallest first."""
    return tuple(v + 1 for v in range(mask.bit_length()) if mask >> v & 1)


def allowed(total: int, cells: int, digits: int = DIGITS) -> int:
    """The digits some combination uses (what a cell of the run may hold), as a mask."""
    mask = 0
    for combo in combination_masks(total, cells, digits):
        mask |= combo
    return mask


def required(total: int, cells: int, digits: int = DIGITS) -> int:
    """The digits every combination uses (they must be in the run), as a mask; 0 when there
    is no combination."""
    combos = combination_masks(total, cells, digits)
    if not combos:
        return 0
    mask = (1 << digits) - 1
    for combo in combos:
        mask &= combo
    return mask


def sum_range(cells: int, digits: int = DIGITS) -> tuple[int, int]:
    """The smallest and the largest sum of ``cells`` different digits from ``1..digits``."""
    _check(1, cells, digits)
    return cells * (cells + 1) // 2, cells * (2 * digits - cells + 1) // 2


def table(digits: int = DIGITS) -> list[tuple[int, int, list[tuple[int, ...]]]]:
    """The whole table: for every run length and every sum it can make, the combinations
    (``(cells, total, combinations)``, by cells then total)."""
    rows = []
    for cells in range(1, digits + 1):
        low, high = sum_range(cells, digits)
        for total in range(low, high + 1):
            rows.append((cells, total, combinations(total, cells, digits)))
    return rows


def support(masks: Sequence[int], targets: Iterable[int]) -> list[int]:
    """For cells that may hold the digits of ``masks`` (one mask per cell), the digits
    each can take when the cells hold different digits making up one of the sets in
    ``targets`` (every cell 0 when no set can be made).

    The sets of digits the first i cells can take are reached forwards from the empty
    set; walking back from the target sets, a digit stays in cell i if it leads from a
    set reached forwards to one that completes. At most ``2**digits`` sets per layer.
    """
    wanted = set(targets)
    digits = 0
    for s in wanted:
        digits |= s
    if wanted and all(m & digits == digits for m in masks):
        # every cell may take every digit of every set: each digit of a set can go in
        # any cell, the set's other digits in the others
        return [digits] * len(masks)
    layers: list[list[int]] = [[0]]
    for m in masks:
        avail = m & digits
        seen: set[int] = set()
        nxt: list[int] = []
        for u in layers[-1]:
            free = avail & ~u
            while free:
                b = free & -free
                free ^= b
                if u | b not in seen:
                    seen.add(u | b)
                    nxt.append(u | b)
        layers.append(nxt)
    completes = {u for u in layers[-1] if u in wanted}
    keep = [0] * len(masks)
    for i in range(len(masks) - 1, -1, -1):
        avail = masks[i] & digits
        found = 0
        done: set[int] = set()
        for u in layers[i]:
            free = avail & ~u
            while free:
                b = free & -free
                free ^= b
                if u | b in completes:
                    found |= b
                    done.add(u)
        completes = done
        keep[i] = found
    return keep


def repeat_support(masks: Sequence[int], total: int) -> list[int]:
    """For cells that may hold the digits of ``masks`` (one mask per cell, bit ``v - 1``
    for digit v), the digits each can take in some way of making ``total`` when digits
    may repeat (every cell 0 when there is none).

    The sums the first i cells can make are reached forwards from 0, the sums from which
    the last cells can complete ``total`` backwards from it (each a bit set over sums);
    a digit stays in cell i if it joins a sum reached forwards to one that completes.
    """
    if total < 0:
        return [0] * len(masks)
    limit = (1 << (total + 1)) - 1
    forward = [1]
    for m in masks:
        reach, made = forward[-1], 0
        while m:
            b = m & -m
            m ^= b
            made |= reach << b.bit_length()
        forward.append(made & limit)
    if not forward[-1] >> total & 1:
        return [0] * len(masks)
    completes = 1 << total
    keep = [0] * len(masks)
    for i in range(len(masks) - 1, -1, -1):
        m, found, before = masks[i], 0, 0
        while m:
            b = m & -m
            m ^= b
            back = completes >> b.bit_length()
            if forward[i] & back:
                found |= b
                before |= back
        keep[i] = found
        completes = before & forward[i]
    return keep
