"""Simple Colors (Simple Colouring): two-colouring the strong links of one value.

A *strong link* on a value is a house where the value has exactly two candidate cells:
one of them holds it. Chained together, strong links split their cells into two
colours, and in each connected chain exactly one colour holds the value.

Trap: a cell outside the chain that sees both colours cannot hold the value.
Wrap: if two cells of one colour see each other, that colour is false and the value
leaves all its cells.

The names are HoDoKu's ("Simple Colors Trap", "Simple Colors Wrap"). Everything is
phrased in houses and peers, so the finders serve every shape.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..shape import Shape
from .board import Board, bit, by_value
from .geometry import peer_sets, strong_links
from .step import Role, Step, cell_ref, cells_ref, eliminations_ref, make_step, value_ref

SIMPLE_COLORS_TRAP = "Simple Colors Trap"
SIMPLE_COLORS_WRAP = "Simple Colors Wrap"


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
