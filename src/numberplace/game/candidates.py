"""The candidates a board shows: what the peers leave, narrowed by every sum a cell is in.

The rule (a page applies the same one to a move before the server answers, so both must
agree exactly):

- ``peer(x)``, for an empty cell ``x``: the values 1..n that no other cell sharing a
  house with ``x``, or a cage whose digits may not repeat, holds.
- For each cage with a sum that holds ``x``: ``placed`` are the values in its cells,
  ``free`` its ``k`` empty cells, ``target`` the sum less the placed values.

  - In a cage whose digits differ, a combination is a k-subset of the values not placed
    that adds up to ``target`` and is *viable*: its values can be given one to each free
    cell ``y`` with every value in ``peer(y)`` (a perfect matching). ``x`` may take the
    values of ``peer(x)`` that some viable combination holds.
  - In a cage whose digits may repeat, ``x`` may take ``v`` of ``peer(x)`` when the other
    ``k - 1`` cells can make up ``target - v`` (each 1..n).

- A cell's candidates are ``peer(x)`` narrowed by each of its cages in turn, every cage
  judged against ``peer`` (one pass, not repeated until nothing changes); 0 for a cell
  with a value.

Masks hold value ``v`` as bit ``v - 1``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from ..model.shape import Shape


def board_candidates(shape: Shape, values: Sequence[int]) -> list[int]:
    """Each cell's candidates by the rule above, from ``values`` (0: empty)."""
    peer = peer_candidates(shape, values)
    out = list(peer)
    n = shape.size
    for cage in shape.cages:
        if cage.total is None:
            continue
        free = [c for c in cage.cells if not values[c]]
        if not free:
            continue
        placed = [values[c] for c in cage.cells if values[c]]
        target = cage.total - sum(placed)
        if cage.repeats:
            allowed = [_repeating(n, len(free), target, peer[c]) for c in free]
        else:
            taken = 0
            for v in placed:
                taken |= 1 << (v - 1)
            allowed = list(_differing(n, target, taken, tuple(peer[c] for c in free)))
        for c, mask in zip(free, allowed, strict=True):
            out[c] &= mask
    return out


def peer_candidates(shape: Shape, values: Sequence[int]) -> list[int]:
    """Each empty cell's values that no peer holds (0 for a cell with a value)."""
    full = (1 << shape.size) - 1
    out = []
    for cell, peers in enumerate(shape.peers):
        if values[cell]:
            out.append(0)
            continue
        mask = full
        for p in peers:
            v = values[p]
            if v:
                mask &= ~(1 << (v - 1))
        out.append(mask)
    return out


def _repeating(n: int, k: int, target: int, peer: int) -> int:
    """The values of ``peer`` that leave the other ``k - 1`` cells a sum they can make."""
    out = 0
    for v in range(1, n + 1):
        if peer >> (v - 1) & 1 and (k - 1) <= target - v <= (k - 1) * n:
            out |= 1 << (v - 1)
    return out


@lru_cache(maxsize=4096)
def _differing(n: int, target: int, taken: int, peers: tuple[int, ...]) -> tuple[int, ...]:
    """For each free cell (its peer mask in ``peers``), its peer values that some viable
    combination holds (see the module docs)."""
    k = len(peers)
    # a value no free cell may take is in no viable combination, so the search can
    # leave it out without changing the answer
    reach = 0
    for mask in peers:
        reach |= mask
    pool = [v for v in range(1, n + 1) if reach >> (v - 1) & 1 and not taken >> (v - 1) & 1]
    # a cell may take v when v is in peer(cell) and in some viable combination: the
    # union of those combinations is all that is needed, so each value is searched for
    # only until one viable combination holding it turns up
    held = 0
    for v in pool:
        if held >> (v - 1) & 1:
            continue
        rest = [w for w in pool if w != v]
        for combo in _subsets(rest, k - 1, target - v):
            combo |= 1 << (v - 1)
            if _matches(peers, combo):
                held |= combo
                break
    return tuple(mask & held for mask in peers)


def _subsets(pool: list[int], k: int, target: int) -> Iterator[int]:
    """The k-subsets of ``pool`` (ascending values) that add up to ``target``, as masks,
    found as they are asked for."""
    size = len(pool)

    def walk(start: int, left: int, rest: int, mask: int) -> Iterator[int]:
        if left == 0:
            if rest == 0:
                yield mask
            return
        # the smallest and the largest values still to be had bound what they can make
        if size - start < left or sum(pool[start:start + left]) > rest \
                or sum(pool[size - left:]) < rest:
            return
        for i in range(start, size - left + 1):
            v = pool[i]
            if v * left > rest:  # the values only grow from here
                break
            yield from walk(i + 1, left - 1, rest - v, mask | 1 << (v - 1))

    return walk(0, k, target, 0)


def _matches(peers: tuple[int, ...], combo: int) -> bool:
    """True when the values of ``combo`` can go one to each cell, each in its peer mask
    (as many values as cells)."""
    owner: dict[int, int] = {}  # value bit -> the cell holding it

    def place(cell: int, seen: set[int]) -> bool:
        options = peers[cell] & combo
        while options:
            low = options & -options
            options ^= low
            if low in seen:
                continue
            seen.add(low)
            if low not in owner or place(owner[low], seen):
                owner[low] = cell
                return True
        return False

    return all(place(cell, set()) for cell in range(len(peers)))
