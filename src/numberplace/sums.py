"""Sums of distinct digits: the combination table that Kakuro and Killer cages are solved by.

A run of ``k`` cells with the clue ``s`` holds ``k`` different digits from ``1..n`` adding
up to ``s``; the sets that do are its *combinations*: 3 in 2 cells is only {1,2}, 7 in 2
cells is {1,6}, {2,5} or {3,4}. A cell of the run can only hold a digit of one of them, and
a digit found in every one of them must be in the run. Sets are kept as bit masks (bit
``v - 1`` for digit ``v``), as candidates are everywhere else.
"""

from __future__ import annotations

from functools import cache

from .errors import NumberplaceError

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
