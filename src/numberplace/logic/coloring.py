"""Simple Colors and Multi-Colors: two-colouring the strong links of one value.

A *strong link* on a value is a house where the value has exactly two candidate cells:
one of them holds it. Chained together, strong links split their cells into two
colours, and in each connected chain exactly one colour holds the value.

Trap: a cell outside the chain that sees both colours cannot hold the value.
Wrap: if two cells of one colour see each other, that colour is false and the value
leaves all its cells.

Multi-Colors weighs two chains of one value against each other. Type 1: a colour of one
sees a colour of the other, so not both are true, and one of their partner colours is:
a cell seeing a cell of each partner cannot hold the value. Type 2: a colour of one
chain sees both colours of the other, one of which is true, so it is false.

The names are HoDoKu's ("Simple Colors Trap", "Simple Colors Wrap", "Multi-Colors"). Everything is
phrased in houses and peers, so the finders serve every shape.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..model.shape import Shape
from .board import Board, bit, by_value
from .geometry import peer_sets, strong_links
from .step import Role, Step, cell_ref, cells_ref, eliminations_ref, make_step, value_ref

SIMPLE_COLORS_TRAP = "Simple Colors Trap"
SIMPLE_COLORS_WRAP = "Simple Colors Wrap"
MULTI_COLORS_1 = "Multi-Colors 1"
MULTI_COLORS_2 = "Multi-Colors 2"


def color_chains(board: Board, shape: Shape, value: int
                 ) -> list[tuple[list[int], list[int], list[int]]]:
    """The two-coloured chains of a value's strong links: (colour 1, colour 2, houses).

    Each colour's cells are sorted; the first colour holds the chain's lowest cell.
    A chain that cannot be two-coloured (only on a contradictory board) is left out.
    """
    adjacent: dict[int, list[int]] = {}
    houses_between: dict[frozenset[int], list[int]] = {}
    for h, a, b in strong_links(board, shape, value):
        adjacent.setdefault(a, []).append(b)
        adjacent.setdefault(b, []).append(a)
        houses_between.setdefault(frozenset((a, b)), []).append(h)
    color: dict[int, int] = {}
    chains = []
    for start in sorted(adjacent):
        if start in color:
            continue
        color[start] = 0
        members = [start]
        queue = [start]
        ok = True
        while queue:
            c = queue.pop()
            for d in adjacent[c]:
                if d not in color:
                    color[d] = 1 - color[c]
                    members.append(d)
                    queue.append(d)
                elif color[d] == color[c]:
                    ok = False
        if not ok:
            continue
        member_set = set(members)
        houses = sorted({h for pair, hs in houses_between.items() if pair <= member_set
                         for h in hs})
        chains.append((sorted(c for c in members if color[c] == 0),
                       sorted(c for c in members if color[c] == 1), houses))
    return chains


def _color_step(shape: Shape, name: str, template: str, value: int, one: list[int],
                two: list[int], houses: list[int], elims: tuple[tuple[int, int], ...]) -> Step:
    """A colouring step: the chain's two colours on ``value`` and what they remove."""
    return make_step(
        shape, name, template, eliminations=elims, cells=tuple(one + two),
        houses=tuple(houses),
        highlights=tuple((Role.COLOR1, c, value) for c in one)
        + tuple((Role.COLOR2, c, value) for c in two)
        + tuple((Role.REMOVED, c, v) for c, v in elims))


def find_simple_colors_trap(board: Board, shape: Shape) -> Iterator[Step]:
    """Colour Trap: a cell seeing both colours of a chain loses the value."""
    peers = peer_sets(shape)

    def search(value: int) -> Iterator[Step]:
        vb = bit(value)
        for one, two, houses in color_chains(board, shape, value):
            colored = set(one) | set(two)
            sees_one: set[int] = set().union(*(peers[c] for c in one))
            sees_two: set[int] = set().union(*(peers[c] for c in two))
            elims = tuple((c, value) for c in sorted(sees_one & sees_two - colored)
                          if board.candidates[c] & vb)
            if not elims:
                continue
            template = (f"Simple Colors on {value_ref(value)}: strong links colour "
                        f"{cells_ref(one)} one way and {cells_ref(two)} the other, and one colour "
                        f"holds {value_ref(value)}; cells seeing both colours cannot: remove "
                        f"{eliminations_ref(elims)}")
            yield _color_step(shape, SIMPLE_COLORS_TRAP, template, value, one, two, houses,
                              elims)

    return by_value(SIMPLE_COLORS_TRAP, board, search)


def find_simple_colors_wrap(board: Board, shape: Shape) -> Iterator[Step]:
    """Colour Wrap: two cells of one colour see each other, so that colour is false."""
    peers = peer_sets(shape)

    def search(value: int) -> Iterator[Step]:
        for one, two, houses in color_chains(board, shape, value):
            for false, true in ((one, two), (two, one)):
                clash = next(((a, b) for i, a in enumerate(false) for b in false[i + 1:]
                              if b in peers[a]), None)
                if clash is None:
                    continue
                elims = tuple((c, value) for c in false)
                a, b = clash
                template = (f"Simple Colors on {value_ref(value)}: strong links colour "
                            f"{cells_ref(false)} one way and {cells_ref(true)} the other; "
                            f"{cell_ref(a)} and {cell_ref(b)} share a colour and see each "
                            f"other, so that colour is false: remove "
                            f"{eliminations_ref(elims)}")
                yield _color_step(shape, SIMPLE_COLORS_WRAP, template, value, one, two,
                                  houses, elims)
                break

    return by_value(SIMPLE_COLORS_WRAP, board, search)


def _sees(peers: Sequence[frozenset[int]], cells: list[int], others: list[int]) -> bool:
    """True when a cell of ``cells`` sees a cell of ``others``."""
    other = set(others)
    return any(peers[c] & other for c in cells)


def _multi_step(shape: Shape, name: str, value: int, first: tuple[list[int], list[int]],
                second: tuple[list[int], list[int]], reason: str,
                elims: tuple[tuple[int, int], ...]) -> Step:
    (a, b), (c, d) = first, second
    template = (f"Multi-Colors on {value_ref(value)}: one chain colours {cells_ref(a)} and "
                f"{cells_ref(b)}, another {cells_ref(c)} and {cells_ref(d)}; {reason}: remove "
                f"{eliminations_ref(elims)}")
    return make_step(
        shape, name, template, eliminations=elims, cells=tuple(a + b + c + d),
        highlights=tuple((Role.COLOR1, x, value) for x in a + c)
        + tuple((Role.COLOR2, x, value) for x in b + d)
        + tuple((Role.REMOVED, x, v) for x, v in elims))


def find_multi_colors_1(board: Board, shape: Shape) -> Iterator[Step]:
    """Multi-Colors 1: a colour of one chain sees a colour of another, so not both are
    true and one of the two other colours is; a cell seeing a cell of each loses the
    value."""
    peers = peer_sets(shape)

    def search(value: int) -> Iterator[Step]:
        vb = bit(value)
        chains = color_chains(board, shape, value)
        for i, (a1, a2, _) in enumerate(chains):
            # the test is the same both ways round: each pair of chains once
            for b1, b2, _ in chains[i + 1:]:
                found: set[int] = set()
                for x, other_x in ((a1, a2), (a2, a1)):
                    for y, other_y in ((b1, b2), (b2, b1)):
                        if not _sees(peers, x, y):
                            continue
                        for p in other_x:
                            for q in other_y:
                                found |= peers[p] & peers[q]
                elims = tuple((c, value) for c in sorted(found) if board.candidates[c] & vb)
                if elims:
                    yield _multi_step(shape, MULTI_COLORS_1, value, (a1, a2), (b1, b2),
                                      "a colour of each sees the other's, so one of their "
                                      "partner colours holds it and cells seeing both "
                                      "cannot", elims)

    return by_value(MULTI_COLORS_1, board, search)


def find_multi_colors_2(board: Board, shape: Shape) -> Iterator[Step]:
    """Multi-Colors 2: a colour of one chain sees both colours of another, one of which
    holds the value, so that colour is false and the value leaves all its cells."""
    peers = peer_sets(shape)

    def search(value: int) -> Iterator[Step]:
        chains = color_chains(board, shape, value)
        for i, (a1, a2, _) in enumerate(chains):
            for j, (b1, b2, _) in enumerate(chains):
                if i == j:
                    continue
                false = [x for x in (a1, a2) if _sees(peers, x, b1) and _sees(peers, x, b2)]
                elims = tuple((c, value) for x in false for c in x)
                if elims:
                    yield _multi_step(shape, MULTI_COLORS_2, value, (a1, a2), (b1, b2),
                                      "a colour sees both colours of the other chain, one of "
                                      "which holds it, so that colour is false", elims)

    return by_value(MULTI_COLORS_2, board, search)
