"""Chains: X-Chain, XY-Chain, Remote Pair, Alternating Inference Chains, Nice Loops.

A chain runs over nodes (a value in a cell, or a group of cells in an intersection)
joined by strong and weak links (see :mod:`.chain_search`, which holds the graph of
nodes and links and the search for chains over it; this module picks each technique's
graph and writes its steps).

An Alternating Inference Chain starts and ends with a strong link and alternates: if its
first node is false the next is true, so the one after is false, and so on, so the last
node is true. Hence one of its two end nodes is true. With ends of one value, that value
leaves every cell seeing both ends; with two values in one cell, every other value
leaves that cell; with values a and b at ends that see each other, b leaves the a end's
cell and a leaves the b end's cell. An X-Chain is an AIC on one value with single
cells, an XY-Chain one through bivalue cells only, with ends of the same value.

A Nice Loop is a chain from a candidate back to its own cell. Discontinuous, it proves
its start: assumed true, the start leads to itself false (or to another value of its
cell true), so it is false; assumed false, it leads to itself true, so it is true.
Continuous, the chain closes into a loop of alternating links, so each weak link in it
is strong as well, and every candidate seeing both ends of one goes. Grouped chains and
loops pass through at least one group node, chains and loops with ALS through at least
one almost locked set (and may come back to a cell they left, as a set's values often
lie in cells the chain met before).

A Remote Pair is a path of cells holding the same two values only, each seeing the
next: they alternate the two values, so a cell seeing two of them an odd number of
steps apart loses both.

The steps come shortest first, each set of eliminations once. Everything is phrased in
houses and peers, so the finders serve every shape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import islice, pairwise

from ..model.shape import Shape
from .board import Board, board_key, by_value, for_last_board, values_of
from .chain_search import (
    Elims,
    Graph,
    Node,
    aic_chains,
    als_links,
    bivalue_links,
    house_links,
    nice_loops,
)
from .geometry import ones
from .step import (
    Role,
    Step,
    candidates_ref,
    cell_ref,
    cells_ref,
    eliminations_ref,
    make_step,
    value_ref,
    values_ref,
)

X_CHAIN = "X-Chain"
XY_CHAIN = "XY-Chain"
REMOTE_PAIR = "Remote Pair"
AIC = "AIC"
GROUPED_AIC = "Grouped AIC"
NICE_LOOP = "Nice Loop"
GROUPED_NICE_LOOP = "Grouped Nice Loop"
ALS_AIC = "AIC with ALS"
ALS_NICE_LOOP = "Nice Loop with ALS"


# -- writing chains --------------------------------------------------------------------------

def _node_ref(node: Node, with_value: bool) -> str:
    mask, value = node
    cells = "/".join(cell_ref(c) for c in ones(mask))
    return f"({value_ref(value)}){cells}" if with_value else cells


def _chain_text(graph: Graph, path: list[int], with_value: bool) -> str:
    """Eureka style: ``=`` into a node then true, ``-`` into a node then false; a strong
    link through an almost locked set names the set: ``=[ALS r5c1, r5c2 {2,5,8}]=``."""
    parts = [_node_ref(graph.nodes[path[0] >> 1], with_value)]
    for prev, st in pairwise(path):
        als = graph.link_als(prev, st)
        if als is not None:
            parts.append(f" =[ALS {cells_ref(als.cells)} {candidates_ref(als.mask)}]= ")
        else:
            parts.append(" = " if st & 1 else " - ")
        parts.append(_node_ref(graph.nodes[st >> 1], with_value))
    return "".join(parts)


def _xy_text(graph: Graph, path: list[int]) -> str:
    """Eureka style: ``(4=6)r1c2 - (6=8)r1c7``: one bracket per bivalue cell."""
    parts = []
    for i in range(0, len(path), 2):
        (m, a), (_, b) = graph.nodes[path[i] >> 1], graph.nodes[path[i + 1] >> 1]
        parts.append(f"({value_ref(a)}={value_ref(b)}){cell_ref(m.bit_length() - 1)}")
    return " - ".join(parts)


def _chain_step(shape: Shape, technique: str, graph: Graph, path: list[int],
                elims: Elims, chain: str) -> Step:
    nodes = [graph.nodes[st >> 1] for st in path]
    cells = tuple(dict.fromkeys(c for m, _ in nodes for c in ones(m)))
    template = f"{chain}: remove {eliminations_ref(elims)}"
    return make_step(
        shape, technique, template, eliminations=elims, cells=cells,
        chain_length=sum(m.bit_count() for m, _ in nodes),
        highlights=tuple((Role.CHAIN, c, v) for m, v in nodes for c in ones(m))
        + tuple((Role.REMOVED, c, v) for c, v in elims))


def _max_links(board: Board) -> int | None:
    return board.memo.chain_links


def find_x_chain(board: Board, shape: Shape) -> Iterator[Step]:
    """X-Chain: strong and weak links on one value; it leaves cells seeing both ends."""
    most = _max_links(board)

    def search(v: int) -> Iterator[tuple[int, int, Graph, list[int], Elims]]:
        links = house_links(board, [v], grouped=False)
        if len(links) < 2:  # one strong link alone is a pointing or claiming at most
            return
        graph = Graph(board, links, False)
        for path, elims, _ in aic_chains(graph, board, most, mixed=False):
            yield len(path), v, graph, path, elims

    # each value's graph is small: every chain of every value, then the shortest first
    results = list(by_value(X_CHAIN, board, search))
    results.sort(key=lambda r: (r[0], -len(r[4]), r[1]))
    for _, v, graph, path, elims in results:
        chain = f"X-Chain on {value_ref(v)}: {_chain_text(graph, path, False)}"
        yield _chain_step(shape, X_CHAIN, graph, path, elims, chain)


def find_xy_chain(board: Board, shape: Shape) -> Iterator[Step]:
    """XY-Chain: bivalue cells linked by shared values; the end value leaves cells seeing
    both ends."""
    # within a bivalue cell the link is strong; between cells only same-value weak links
    graph = Graph(board, bivalue_links(board), False)
    for path, elims, _ in aic_chains(graph, board, _max_links(board), mixed=False):
        chain = f"XY-Chain: {_xy_text(graph, path)}"
        yield _chain_step(shape, XY_CHAIN, graph, path, elims, chain)


#: Most cells of a remote pair searched, and most paths tried for one pair of values (a
#: bound: many cells holding one pair make very many paths).
MAX_REMOTE_CELLS = 12
MAX_REMOTE_PATHS = 20_000


def find_remote_pair(board: Board, shape: Shape) -> Iterator[Step]:
    """Remote Pair: a path of cells holding the same two values only, each seeing the
    next, alternates them; a cell that sees two of its cells an odd number of steps apart
    sees both values, and loses both."""
    cands, peers = board.candidates, shape.peers
    by_pair: dict[int, list[int]] = {}
    for c, m in enumerate(cands):
        if m.bit_count() == 2:
            by_pair.setdefault(m, []).append(c)
    found: list[tuple[int, list[int], tuple[tuple[int, int], ...]]] = []
    for pair, cells in sorted(by_pair.items()):
        if len(cells) < 4:
            continue
        members = set(cells)
        links = {c: [p for p in peers[c] if p in members] for c in cells}
        for path in islice(_simple_paths(links, cells, MAX_REMOTE_CELLS), MAX_REMOTE_PATHS):
            if len(path) < 4 or len(path) % 2 or path[0] > path[-1]:
                continue
            colour = [0, 0]  # the path's cells by parity, as bit sets
            for i, c in enumerate(path):
                colour[i % 2] |= 1 << c
            on_path = set(path)
            elims = tuple((c, v) for c in range(len(cands)) if c not in on_path
                          and cands[c] & pair and _sees(peers[c], colour)
                          for v in values_of(cands[c] & pair))
            if elims:
                found.append((pair, path, elims))
    # the shortest path first; among equals, the one that removes most
    found.sort(key=lambda f: (len(f[1]), -len(f[2]), f[1]))
    for pair, path, elims in found:
        a, b = values_of(pair)
        yield make_step(
            shape, REMOTE_PAIR,
            f"Remote Pair: {', '.join(cell_ref(c) for c in path)} hold only "
            f"{values_ref((a, b))}, each seeing the next, so they alternate {value_ref(a)} "
            f"and {value_ref(b)}; a cell seeing two of them an odd number of steps apart "
            f"sees both: remove {eliminations_ref(elims)}",
            eliminations=elims, cells=tuple(path), chain_length=len(path),
            highlights=tuple((Role.CHAIN, c, v) for c in path for v in (a, b))
            + tuple((Role.REMOVED, c, v) for c, v in elims))


def _simple_paths(links: dict[int, list[int]], starts: Sequence[int], most: int
                  ) -> Iterator[list[int]]:
    """Every simple path of up to ``most`` cells over ``links``, from each start."""
    for start in starts:
        path = [start]
        stack = [iter(links[start])]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                path.pop()
                continue
            if nxt in path:
                continue
            path.append(nxt)
            yield list(path)
            if len(path) < most:
                stack.append(iter(links[nxt]))
            else:
                path.pop()


def _sees(peers: Sequence[int], colour: list[int]) -> bool:
    """True when these peers include a cell of each colour."""
    seen = 0
    for p in peers:
        seen |= 1 << p
    return bool(seen & colour[0]) and bool(seen & colour[1])


#: How far a chain's nodes reach: single candidates; also groups of cells in an
#: intersection; also the values of almost locked sets.
PLAIN, GROUPED, WITH_ALS = 0, 1, 2


def _chain_graph(board: Board, reach: int, singles: bool = False
                 ) -> tuple[Graph | None, Callable[[list[int]], bool] | None]:
    """The graph of an AIC or nice-loop search of that reach, and the test a chain
    passes to count as one of that reach (None: any chain). No graph where the board has
    no strong link: every chain needs one (an open 16x16 or 25x25 has none, and its graph
    of every candidate would take seconds to build).

    The AICs and the nice loops through sets search one graph of a board (the nice
    loops follow its AICs on every board, as no AIC search there rules them out): with
    every candidate a node, which the nice loops need; the AICs start at the nodes with a
    strong link alone, numbered first, and meet the same chains in it."""
    if reach == WITH_ALS:
        return for_last_board(board, "chains through sets",
                              lambda: _make_chain_graph(board, reach, True))
    return _make_chain_graph(board, reach, singles)


def _make_chain_graph(board: Board, reach: int, singles: bool
                      ) -> tuple[Graph | None, Callable[[list[int]], bool] | None]:
    values = range(1, board.shape.size + 1)
    # the grouped chains and those through sets start from the same links
    grouped = reach >= GROUPED
    links = for_last_board(board, f"strong links{' grouped' if grouped else ''}",
                           lambda: house_links(board, values, grouped) + bivalue_links(board))
    als = als_links(board) if reach == WITH_ALS else ()
    if not links and not als:
        return None, None
    graph = Graph(board, links, True, singles=singles, als_pairs=als)
    if reach == PLAIN:
        return graph, None
    return graph, graph.grouped if reach == GROUPED else graph.through_als


def _aic(board: Board, shape: Shape, reach: int, technique: str) -> Iterator[Step]:
    graph, keep = _chain_graph(board, reach)
    if graph is None:
        if reach != WITH_ALS:
            _barren(board, reach, frozenset())  # no chain at all: no nice loop either
        return
    proofs: set[int] = set()
    barren = True
    for path, elims, _ in aic_chains(graph, board, _max_links(board), keep, proofs):
        barren = False
        yield _chain_step(shape, technique, graph, path, elims,
                          f"{technique}: {_chain_text(graph, path, True)}")
    if not barren or reach == WITH_ALS:
        return
    # searched to the end in vain: a nice loop on this board can only be one that proves
    # its start true (any other would end an AIC the search met), so the nice-loop search
    # that follows starts from these nodes alone. Not through sets: what a continuous
    # loop's set holds would end an AIC only as a group of the set's cells proving itself
    _barren(board, reach, frozenset(graph.nodes[n] for n in proofs
                                    if not graph.nodes[n][0] & (graph.nodes[n][0] - 1)))


def _barren(board: Board, reach: int, proved: frozenset[tuple[int, int]]) -> None:
    """Remember that the AIC search of ``reach`` found nothing on the board, and the
    candidates its search proved true by a chain from themselves."""
    memo = board.memo
    if len(memo.aic_barren) > 64:
        memo.aic_barren.clear()
    memo.aic_barren[(board_key(board), reach)] = proved


def find_aic(board: Board, shape: Shape) -> Iterator[Step]:
    """Alternating Inference Chain over single-cell nodes."""
    return _aic(board, shape, PLAIN, AIC)


def find_grouped_aic(board: Board, shape: Shape) -> Iterator[Step]:
    """Alternating Inference Chain through at least one group of cells in an
    intersection."""
    return _aic(board, shape, GROUPED, GROUPED_AIC)


def find_als_aic(board: Board, shape: Shape) -> Iterator[Step]:
    """Alternating Inference Chain through at least one almost locked set: the set
    without one value holds all its others."""
    return _aic(board, shape, WITH_ALS, ALS_AIC)


def _nice_loop(board: Board, shape: Shape, reach: int, technique: str) -> Iterator[Step]:
    only = board.memo.aic_barren.get((board_key(board), reach))
    if only is not None and not only:
        return
    graph, keep = _chain_graph(board, reach, singles=True)
    if graph is None:
        return
    for path, elims, kind in nice_loops(graph, board, _max_links(board), keep, only):
        first, last = path[0], path[-1]
        cell, a = graph.nodes[first >> 1]
        b = graph.nodes[last >> 1][1]
        start = f"{cell_ref(cell.bit_length() - 1)}"
        if kind == "continuous":
            why = ("the chain closes into a loop, so each of its weak links is strong as "
                   "well")
            if graph.through_als(path):
                why += ", and each almost locked set it passes holds its other values"
        elif not first & 1 and last & 1 and a == b:
            why = (f"if {start} were not {value_ref(a)}, the chain would make it "
                   f"{value_ref(a)}: it is {value_ref(a)}")
        elif first & 1 and not last & 1 and a == b:
            why = (f"if {start} were {value_ref(a)}, the chain would take {value_ref(a)} "
                   f"away from it: it is not {value_ref(a)}")
        elif first & 1:
            why = (f"if {start} were {value_ref(a)}, the chain would make it "
                   f"{value_ref(b)} as well: it is not {value_ref(a)}")
        else:
            why = (f"if {start} were not {value_ref(a)}, the chain would take "
                   f"{value_ref(b)} away from it as well, so {value_ref(b)} there would "
                   f"leave it {value_ref(a)}: it is not {value_ref(b)}")
        name = f"{kind.capitalize()} {technique}"
        yield _chain_step(shape, technique, graph, path, elims,
                          f"{name}: {_chain_text(graph, path, True)}; {why}")


def find_nice_loop(board: Board, shape: Shape) -> Iterator[Step]:
    """Nice Loop: a chain from a candidate back to its own cell, continuous (a loop of
    alternating links) or discontinuous (it proves the start true or false)."""
    return _nice_loop(board, shape, PLAIN, NICE_LOOP)


def find_grouped_nice_loop(board: Board, shape: Shape) -> Iterator[Step]:
    """Nice Loop through at least one group of cells in an intersection."""
    return _nice_loop(board, shape, GROUPED, GROUPED_NICE_LOOP)


def find_als_nice_loop(board: Board, shape: Shape) -> Iterator[Step]:
    """Nice Loop through at least one almost locked set."""
    return _nice_loop(board, shape, WITH_ALS, ALS_NICE_LOOP)
