"""Chains: X-Chain, XY-Chain, Alternating Inference Chains, and forcing chains.

A chain runs over *nodes*: a value in a cell, or (grouped) a value in a few cells of a
house that all lie in one intersection with another house. Two kinds of link join them:

* a *strong* link (written ``=``): the two nodes are not both false. Either a bivalue
  cell (its two values), or a house where a value's candidates are exactly the two nodes;
* a *weak* link (written ``-``): the two nodes are not both true. Two values of one cell,
  or one value in nodes whose cells all see each other.

An Alternating Inference Chain starts and ends with a strong link and alternates: if its
first node is false the next is true, so the one after is false, and so on, so the last
node is true. Hence one of its two end nodes is true. With ends of one value, that value
leaves every cell seeing both ends; with two values in one cell, every other value
leaves that cell; with values a and b at ends that see each other, b leaves the a end's
cell and a leaves the b end's cell. An X-Chain is an AIC on one value with single
cells, an XY-Chain one through bivalue cells only, with ends of the same value.

The search is breadth-first from every node and keeps only the shortest chains found
(at most ``MAX_LINKS`` links), so its steps are the simplest of their kind; among
chains of one length, those removing most candidates come first.

Forcing chains try each possibility in turn on a copy of the board and follow only
naked and hidden singles from it (and, where cages have sums, what the sums allow).
Whatever every possibility of a cell (Cell Forcing Chain) or every place of a value in
a house (House Forcing Chain) leads to is true; a candidate whose assumption leads to a
broken board (Forcing Chain Contradiction) is false.

Everything is phrased in houses and peers, so the finders serve every shape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import islice

from ..shape import Shape
from ..sums import repeat_support
from .board import Board, bit, by_value, cage_rest, cage_support, value_cells, values_of
from .geometry import house_bits, ones, peer_bits, strong_links
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

X_CHAIN = "X-Chain"
XY_CHAIN = "XY-Chain"
REMOTE_PAIR = "Remote Pair"
AIC = "AIC"
GROUPED_AIC = "Grouped AIC"
CELL_FORCING = "Cell Forcing Chain"
HOUSE_FORCING = "House Forcing Chain"
FORCING_CONTRADICTION = "Forcing Chain Contradiction"

#: Longest chain searched, in links.
MAX_LINKS = 12

Node = tuple[int, int]  # (bit mask of cells, value)


# -- geometry -----------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _intersections(shape: Shape) -> tuple[int, ...]:
    """Masks of two houses' common cells, where they share two cells or more."""
    masks = house_bits(shape)
    out = set()
    for h, a in enumerate(masks):
        for b in masks[h + 1:]:
            common = a & b
            if common.bit_count() >= 2 and common != a and common != b:
                out.add(common)
    return tuple(sorted(out))


def _common_peers(shape: Shape, mask: int) -> int:
    """Cells that see every cell of ``mask``."""
    pm = peer_bits(shape)
    out = -1
    for c in ones(mask):
        out &= pm[c]
    return out


# -- the chain graph ---------------------------------------------------------------------

class _Graph:
    """Nodes with strong and weak links; only nodes with a strong link take part."""

    def __init__(self, shape: Shape, nodes: list[Node], strong: set[tuple[int, int]],
                 same_cell_weak: bool, check_time: Callable[[], None]) -> None:
        self.shape = shape
        self.nodes = nodes
        #: the solve's deadline check, called as the search goes
        self.check_time = check_time
        pm = peer_bits(shape)
        self.cp = [pm[m.bit_length() - 1] if not m & (m - 1) else _common_peers(shape, m)
                   for m, _ in nodes]
        n = len(nodes)
        self.strong: list[list[int]] = [[] for _ in range(n)]
        for a, b in sorted(strong):
            self.strong[a].append(b)
            self.strong[b].append(a)
        self.weak: list[list[int]] = [[] for _ in range(n)]
        by_value: dict[int, list[int]] = {}
        for i, (_, v) in enumerate(nodes):
            by_value.setdefault(v, []).append(i)
        for group in by_value.values():
            for x in group:
                mx, cpx = nodes[x][0], self.cp[x]
                self.weak[x].extend(y for y in group
                                    if y != x and not nodes[y][0] & ~cpx
                                    and not nodes[y][0] & mx)
        if same_cell_weak:
            by_cell: dict[int, list[int]] = {}
            for i, (m, _) in enumerate(nodes):
                if m & (m - 1) == 0:
                    by_cell.setdefault(m, []).append(i)
            for group in by_cell.values():
                for x in group:
                    self.weak[x].extend(y for y in group if y != x)


def _build(board: Board, strong_pairs: list[tuple[Node, Node]], same_cell_weak: bool
           ) -> _Graph:
    index: dict[Node, int] = {}
    nodes: list[Node] = []
    strong: set[tuple[int, int]] = set()
    for a, b in strong_pairs:
        for x in (a, b):
            if x not in index:
                index[x] = len(nodes)
                nodes.append(x)
        i, j = index[a], index[b]
        strong.add((min(i, j), max(i, j)))
    return _Graph(board.shape, nodes, strong, same_cell_weak, board.memo.check_time)


def _house_links(board: Board, values: Sequence[int], grouped: bool
                 ) -> list[tuple[Node, Node]]:
    """Strong links in houses: a value's candidates there split into exactly two nodes."""
    shape = board.shape
    vmasks = value_cells(board)
    out: list[tuple[Node, Node]] = []
    if not grouped:
        for v in values:
            for _, a, b in strong_links(board, shape, v):
                out.append(((1 << a, v), (1 << b, v)))
        return out
    inters = _intersections(shape)
    for v in values:
        vm = vmasks[v]
        groups = {m & vm for m in inters if (m & vm).bit_count() >= 2}
        for hm in house_bits(shape):
            hv = hm & vm
            if hv.bit_count() < 2:
                continue
            parts = [1 << c for c in ones(hv)] + [g for g in groups if not g & ~hv]
            known = set(parts)
            for x in parts:
                y = hv ^ x
                if x < y and y in known:
                    out.append(((x, v), (y, v)))
    return out


def _bivalue_links(board: Board) -> list[tuple[Node, Node]]:
    out = []
    for c, m in enumerate(board.candidates):
        if m.bit_count() == 2:
            a, b = values_of(m)
            out.append(((1 << c, a), (1 << c, b)))
    return out


Conclusion = Callable[[int, int], tuple[tuple[int, int], ...]]


def _same_value_conclusion(graph: _Graph, vmasks: list[int]) -> Conclusion:
    nodes, cp = graph.nodes, graph.cp

    def conclude(s: int, t: int) -> tuple[tuple[int, int], ...]:
        (ms, vs), (mt, vt) = nodes[s], nodes[t]
        if vs != vt:
            return ()
        hit = cp[s] & cp[t] & vmasks[vs] & ~(ms | mt)
        return tuple((c, vs) for c in ones(hit))

    return conclude


def _aic_conclusion(graph: _Graph, board: Board, vmasks: list[int]) -> Conclusion:
    nodes, cp = graph.nodes, graph.cp
    same = _same_value_conclusion(graph, vmasks)
    cands = board.candidates

    def conclude(s: int, t: int) -> tuple[tuple[int, int], ...]:
        (ms, vs), (mt, vt) = nodes[s], nodes[t]
        if vs == vt:
            return same(s, t)
        single_s, single_t = ms & (ms - 1) == 0, mt & (mt - 1) == 0
        if single_s and ms == mt:
            c = ms.bit_length() - 1
            return tuple((c, v) for v in values_of(cands[c] & ~(bit(vs) | bit(vt))))
        out = []
        # the s end's cell cannot hold vt if it sees the whole t end, and vice versa
        if single_s and ms & cp[t] and vmasks[vt] & ms:
            out.append((ms.bit_length() - 1, vt))
        if single_t and mt & cp[s] and vmasks[vs] & mt:
            out.append((mt.bit_length() - 1, vs))
        return tuple(sorted(out))

    return conclude


def _search(graph: _Graph, conclude: Conclusion, max_links: int
            ) -> list[tuple[list[int], tuple[tuple[int, int], ...]]]:
    """The shortest chains (strong link first and last) with a conclusion.

    Breadth-first from each node assumed false; states are ``2 * node + on``. All starts
    advance one link at a time together, so the search ends with the first length at
    which any chain concludes. A chain whose nodes repeat is not kept (it is sound, but
    confusing to read).
    """
    found: list[tuple[int, list[int], tuple[tuple[int, int], ...]]] = []
    strong, weak = graph.strong, graph.weak
    starts = [s for s in range(len(graph.nodes)) if strong[s]]
    parents = {s: {2 * s: -1} for s in starts}
    frontiers = {s: [2 * s] for s in starts}
    depth = 0
    while depth < max_links and not found and starts:
        depth += 1
        for s in starts:
            graph.check_time()
            parent = parents[s]
            nxt = []
            for st in frontiers[s]:
                n, on = st >> 1, st & 1
                new_on = 0 if on else 1
                for m in (weak[n] if on else strong[n]):
                    ns = 2 * m + new_on
                    if ns in parent:
                        continue
                    parent[ns] = st
                    nxt.append(ns)
                    if not new_on or m == s:
                        continue
                    elims = conclude(s, m)
                    if not elims:
                        continue
                    path = []
                    x = ns
                    while x != -1:
                        path.append(x >> 1)
                        x = parent[x]
                    path.reverse()
                    if len(set(path)) != len(path):
                        continue
                    found.append((depth, path, elims))
            frontiers[s] = nxt
        starts = [s for s in starts if frontiers[s]]
    out = []
    seen: set[frozenset[tuple[int, int]]] = set()
    for _depth, path, elims in sorted(found, key=lambda f: -len(f[2])):
        key = frozenset(elims)
        if key in seen:
            continue
        seen.add(key)
        out.append((path, elims))
    return out


# -- writing chains --------------------------------------------------------------------------

def _node_ref(node: Node, with_value: bool) -> str:
    mask, value = node
    cells = "/".join(cell_ref(c) for c in ones(mask))
    return f"({value_ref(value)}){cells}" if with_value else cells


def _chain_text(graph: _Graph, path: list[int], with_value: bool) -> str:
    parts = [_node_ref(graph.nodes[path[0]], with_value)]
    for i, n in enumerate(path[1:]):
        parts.append(" = " if i % 2 == 0 else " - ")
        parts.append(_node_ref(graph.nodes[n], with_value))
    return "".join(parts)


def _xy_text(graph: _Graph, path: list[int]) -> str:
    """Eureka style: ``(4=6)r1c2 - (6=8)r1c7``: one bracket per bivalue cell."""
    parts = []
    for i in range(0, len(path), 2):
        (m, a), (_, b) = graph.nodes[path[i]], graph.nodes[path[i + 1]]
        parts.append(f"({value_ref(a)}={value_ref(b)}){cell_ref(m.bit_length() - 1)}")
    return " - ".join(parts)


def _chain_step(shape: Shape, technique: str, graph: _Graph, path: list[int],
                elims: tuple[tuple[int, int], ...], chain: str) -> Step:
    nodes = [graph.nodes[n] for n in path]
    cells = tuple(dict.fromkeys(c for m, _ in nodes for c in ones(m)))
    template = f"{chain}: remove {eliminations_ref(elims)}"
    return make_step(
        shape, technique, template, eliminations=elims, cells=cells,
        chain_length=sum(m.bit_count() for m, _ in nodes),
        highlights=tuple((Role.CHAIN, c, v) for m, v in nodes for c in ones(m))
        + tuple((Role.REMOVED, c, v) for c, v in elims))


def find_x_chain(board: Board, shape: Shape) -> Iterator[Step]:
    """X-Chain: strong and weak links on one value; it leaves cells seeing both ends."""
    vmasks = value_cells(board)

    def search(v: int) -> Iterator[tuple[int, int, _Graph, list[int], tuple[tuple[int, int], ...]]]:
        links = _house_links(board, [v], grouped=False)
        if len(links) < 2:  # one strong link alone is a pointing or claiming at most
            return
        graph = _build(board, links, False)
        for path, elims in _search(graph, _same_value_conclusion(graph, vmasks), MAX_LINKS):
            yield len(path), v, graph, path, elims

    results = list(by_value(X_CHAIN, board, search))
    results.sort(key=lambda r: (r[0], -len(r[4]), r[1]))
    for _, v, graph, path, elims in results:
        chain = f"X-Chain on {value_ref(v)}: {_chain_text(graph, path, False)}"
        yield _chain_step(shape, X_CHAIN, graph, path, elims, chain)


def find_xy_chain(board: Board, shape: Shape) -> Iterator[Step]:
    """XY-Chain: bivalue cells linked by shared values; the end value leaves cells seeing
    both ends."""
    graph = _build(board, _bivalue_links(board), False)
    # within a bivalue cell the link is strong; between cells only same-value weak links
    vmasks = value_cells(board)
    for path, elims in _search(graph, _same_value_conclusion(graph, vmasks), MAX_LINKS):
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


def _aic(board: Board, shape: Shape, grouped: bool, technique: str) -> Iterator[Step]:
    values = range(1, shape.size + 1)
    links = _house_links(board, values, grouped) + _bivalue_links(board)
    graph = _build(board, links, True)
    conclude = _aic_conclusion(graph, board, value_cells(board))
    for path, elims in _search(graph, conclude, MAX_LINKS):
        yield _chain_step(shape, technique, graph, path, elims,
                          f"{technique}: {_chain_text(graph, path, True)}")


def find_aic(board: Board, shape: Shape) -> Iterator[Step]:
    """Alternating Inference Chain over single-cell nodes."""
    return _aic(board, shape, False, AIC)


def find_grouped_aic(board: Board, shape: Shape) -> Iterator[Step]:
    """Alternating Inference Chain whose nodes may be groups in an intersection."""
    return _aic(board, shape, True, GROUPED_AIC)


# -- forcing chains --------------------------------------------------------------------------

Outcome = tuple[list[int], list[int]] | None  # (values, candidates) or None if broken


def propagate(board: Board, cell: int, value: int) -> Outcome:
    """Place ``value`` in ``cell`` on a copy and follow naked and hidden singles.

    On shapes with sums, each cage's empty cells also keep only the digits some
    completion of its sum uses. Returns the resulting values and candidates, or None
    when the board breaks (a cell without candidates, a value without a place in a
    house, a sum that can no longer be made). Each round places a value or removes a
    candidate, so the propagation ends.
    """
    shape = board.shape
    peers = shape.peers
    houses = [h.cells for h in shape.houses]
    full = (1 << shape.size) - 1
    vals, cands = list(board.values), list(board.candidates)
    queue = [(cell, value)]
    sums = [(cage.cells, cage.total, cage.repeats) for cage in shape.cages
            if cage.total is not None]
    narrowed = False
    while queue or narrowed:
        narrowed = False
        while queue:
            c, v = queue.pop()
            b = 1 << (v - 1)
            if vals[c]:
                if vals[c] != v:
                    return None
                continue
            if not cands[c] & b:
                return None
            vals[c] = v
            cands[c] = 0
            for p in peers[c]:
                m = cands[p]
                if m & b:
                    m &= ~b
                    cands[p] = m
                    if not m:
                        return None
                    if not m & (m - 1):
                        queue.append((p, m.bit_length()))
        for cells in houses:
            once = twice = placed = 0
            for c in cells:
                v = vals[c]
                if v:
                    placed |= 1 << (v - 1)
                else:
                    m = cands[c]
                    twice |= once & m
                    once |= m
            if full & ~(placed | once):
                return None
            hidden = once & ~twice & ~placed
            while hidden:
                low = hidden & -hidden
                hidden ^= low
                v = low.bit_length()
                for c in cells:
                    if cands[c] & low:
                        queue.append((c, v))
                        break
        for cells, total, repeats in sums:
            found = _narrow_cage(vals, cands, cells, total, shape.size, queue, repeats)
            if found is None:
                return None
            narrowed |= found
    return vals, cands


def _narrow_cage(vals: list[int], cands: list[int], cells: tuple[int, ...], total: int,
                 size: int, queue: list[tuple[int, int]], repeats: bool = False
                 ) -> bool | None:
    """Keep in a cage's empty cells only the digits some completion of its sum uses
    (``repeats``: digits may repeat in it); True if a candidate went, None if the sum can
    no longer be made. Cells left with one candidate join ``queue``."""
    empty, rest, placed = cage_rest(vals, cells, total)
    if not empty:
        return None if rest else False
    masks = tuple(cands[c] for c in empty)
    keep = repeat_support(masks, rest) if repeats else cage_support(masks, rest, placed, size)
    changed = False
    for c, k in zip(empty, keep, strict=True):
        m = cands[c]
        if m & ~k:
            m &= k
            if not m:
                return None
            cands[c] = m
            changed = True
            if not m & (m - 1):
                queue.append((c, m.bit_length()))
    return changed


def _outcome(board: Board, cell: int, value: int) -> Outcome:
    """:func:`propagate`, remembered in the board's memo for the latest board seen (the
    forcing-chain finders share it)."""
    memo = board.memo
    key = (board.shape, tuple(board.candidates), tuple(board.values))
    if memo.outcomes_key != key:
        memo.outcomes.clear()
        memo.outcomes_key = key
    if (cell, value) not in memo.outcomes:
        memo.check_time()
        memo.outcomes[(cell, value)] = propagate(board, cell, value)
    return memo.outcomes[(cell, value)]


def _common(board: Board, outcomes: list[Outcome]
            ) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """What every unbroken outcome agrees on: new placements and removed candidates."""
    live = [o for o in outcomes if o is not None]
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


def _places_text(placements: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{value_ref(v)} in {cell_ref(c)}" for c, v in placements)


def _forcing_step(board: Board, shape: Shape, technique: str, premise: str,
                  branches: list[tuple[int, int]], outcomes: list[Outcome]) -> Step | None:
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
    for c, m in enumerate(board.candidates):
        if m.bit_count() < 2:
            continue
        board.memo.check_time()
        branches = [(c, v) for v in values_of(m)]
        outcomes = [_outcome(board, c, v) for _, v in branches]
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
    for h, house in enumerate(shape.houses):
        for v in range(1, shape.size + 1):
            b = bit(v)
            where = [c for c in house.cells if board.candidates[c] & b]
            if len(where) >= 2:
                found.append((len(where), h, v, where))
    steps = []
    for _, h, v, where in found:
        board.memo.check_time()
        branches = [(c, v) for c in where]
        outcomes = [_outcome(board, c, v) for c in where]
        places = ", ".join(cell_ref(c) for c in where)
        step = _forcing_step(board, shape, HOUSE_FORCING,
                             f"{value_ref(v)} goes in {house_ref(h)} at one of {places}",
                             branches, outcomes)
        if step is not None:
            steps.append(step)
    yield from _strongest_first(steps)


def find_forcing_contradiction(board: Board, shape: Shape) -> Iterator[Step]:
    """A candidate whose assumption leads by singles to a broken board is removed."""
    for c, m in enumerate(board.candidates):
        if m.bit_count() < 2:
            continue
        for v in values_of(m):
            if _outcome(board, c, v) is not None:
                continue
            template = (f"{FORCING_CONTRADICTION}: {value_ref(v)} in {cell_ref(c)}, followed by "
                        f"singles, breaks the board: remove {value_ref(v)} from {cell_ref(c)}")
            yield make_step(shape, FORCING_CONTRADICTION, template,
                            eliminations=((c, v),), cells=(c,),
                            highlights=((Role.REMOVED, c, v),))
