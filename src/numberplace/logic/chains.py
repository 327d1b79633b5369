"""Chains: X-Chain, XY-Chain, Alternating Inference Chains, Nice Loops, forcing chains.

A chain runs over *nodes*: a value in a cell, or (grouped) a value in a few cells of a
house that all lie in one intersection with another house. Two kinds of link join them:

* a *strong* link (written ``=``): the two nodes are not both false. Either a bivalue
  cell (its two values), or a house where a value's candidates are exactly the two nodes,
  or (chains with ALS) two values of an almost locked set, each node the set's cells
  holding its value: take one value out of the set and the others are locked in it;
* a *weak* link (written ``-``): the two nodes are not both true. Two values of one cell,
  or one value in nodes whose cells all see each other.

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

The search is breadth-first from every start at once, one link further each round, so
the steps come shortest first (among chains of one length, those removing most first)
and each set of eliminations once, by its shortest chain. A chain may not cross itself:
no node holds the first cell of a node two or more places away (a loop's start cell
excepted). Every chain of a board can be listed; how long they may be is the caller's
(``Memo.chain_links``), and each start visits a state once, so the time stays bounded.

Forcing chains try each possibility in turn on a copy of the board and follow only
naked and hidden singles from it (and, where cages have sums, what the sums allow).
Whatever every possibility of a cell (Cell Forcing Chain) or every place of a value in
a house (House Forcing Chain) leads to is true; a candidate whose assumption leads to a
broken board (Forcing Chain Contradiction) is false.

Everything is phrased in houses and peers, so the finders serve every shape.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import islice, pairwise

from .. import engine
from ..shape import Shape
from ..sums import repeat_support
from .als import Als, almost_locked_sets, als_cell_limit
from .board import (
    Board,
    bit,
    board_key,
    by_value,
    cage_support,
    value_cells,
    values_of,
)
from .geometry import house_bits, ones, peer_bits, strong_links
from .step import (
    Role,
    Step,
    candidates_ref,
    cell_ref,
    cells_ref,
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
NICE_LOOP = "Nice Loop"
GROUPED_NICE_LOOP = "Grouped Nice Loop"
ALS_AIC = "AIC with ALS"
ALS_NICE_LOOP = "Nice Loop with ALS"
CELL_FORCING = "Cell Forcing Chain"
HOUSE_FORCING = "House Forcing Chain"
FORCING_CONTRADICTION = "Forcing Chain Contradiction"
FORCING_CONTRADICTION_PLUS = "Forcing Chain Contradiction (+)"

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
    """Nodes with strong and weak links.

    Built from strong links alone (the nodes an AIC can pass through), or, ``singles``,
    with every candidate as a one-cell node too (a nice loop may start and end on a
    candidate that has no strong link). ``als_pairs`` adds the strong links almost locked
    sets make; a chain through them may come back to a cell it left (``may_cross``).
    """

    def __init__(self, board: Board, strong_pairs: list[tuple[Node, Node]],
                 same_cell_weak: bool, singles: bool = False,
                 als_pairs: Sequence[tuple[Node, Node, Als]] = ()) -> None:
        shape = board.shape
        self.shape = shape
        #: the solve's deadline check, called as the search goes
        self.check_time = board.memo.check_time
        index: dict[Node, int] = {}
        nodes: list[Node] = []

        def add(x: Node) -> int:
            i = index.get(x)
            if i is None:
                i = index[x] = len(nodes)
                nodes.append(x)
            return i

        pairs = [(add(a), add(b)) for a, b in strong_pairs]
        #: the strong links only an almost locked set makes, by their (lower, higher)
        #: node indices: the set that makes each
        self.als_link: dict[tuple[int, int], Als] = {}
        #: whether a chain may come back to a cell it left: through almost locked sets
        #: it may (a set's values often lie in cells the chain met before)
        self.may_cross = bool(als_pairs)
        plain = {(min(i, j), max(i, j)) for i, j in pairs}
        for na, nb, owner in als_pairs:
            i, j = add(na), add(nb)
            key = (min(i, j), max(i, j))
            if key not in plain and key not in self.als_link:
                self.als_link[key] = owner
                pairs.append(key)
        if singles:
            for c, m in enumerate(board.candidates):
                for v in values_of(m):
                    add((1 << c, v))
        self.nodes = nodes
        pm = peer_bits(shape)
        self.cp = [pm[m.bit_length() - 1] if not m & (m - 1) else _common_peers(shape, m)
                   for m, _ in nodes]
        n = len(nodes)
        self.strong: list[list[int]] = [[] for _ in range(n)]
        for a, b in sorted({(min(i, j), max(i, j)) for i, j in pairs}):
            self.strong[a].append(b)
            self.strong[b].append(a)
        # weak links: one value in nodes whose cells all see each other; a one-cell
        # node's partners are found through its peers, a group's by a test each
        single_at: dict[tuple[int, int], int] = {}
        groups: dict[int, list[int]] = {}
        for i, (m, v) in enumerate(nodes):
            if m & (m - 1):
                groups.setdefault(v, []).append(i)
            else:
                single_at[(m.bit_length() - 1, v)] = i
        vmasks = value_cells(board)
        self.weak: list[list[int]] = [[] for _ in range(n)]
        for x, (mx, v) in enumerate(nodes):
            if not x & 255:
                self.check_time()
            cpx = self.cp[x]
            out = [single_at[(c, v)] for c in ones(cpx & vmasks[v] & ~mx)
                   if (c, v) in single_at]
            out += [y for y in groups.get(v, ()) if y != x
                    and not nodes[y][0] & ~cpx and not nodes[y][0] & mx]
            self.weak[x] = sorted(out)
        if same_cell_weak:
            by_cell: dict[int, list[int]] = {}
            for i, (m, _) in enumerate(nodes):
                if m & (m - 1) == 0:
                    by_cell.setdefault(m, []).append(i)
            for group in by_cell.values():
                for x in group:
                    self.weak[x].extend(y for y in group if y != x)
        # a node without a strong link ends a chain where it is reached false: the
        # search follows only the others, and finds such ends by a test
        self.live_weak = [[y for y in ws if self.strong[y]] for ws in self.weak]
        self.weak_sets = [set(ws) for ws in self.weak]

    def grouped(self, path: Sequence[int]) -> bool:
        """True when a state of ``path`` is a group node."""
        nodes = self.nodes
        return any(nodes[st >> 1][0] & (nodes[st >> 1][0] - 1) for st in path)

    def link_als(self, a: int, b: int) -> Als | None:
        """The almost locked set behind the strong link between states ``a`` and ``b``
        (None when it is a plain link or weak)."""
        if not self.als_link or not b & 1:
            return None
        i, j = a >> 1, b >> 1
        return self.als_link.get((i, j) if i < j else (j, i))

    def through_als(self, path: Sequence[int]) -> bool:
        """True when ``path`` passes through an almost locked set."""
        return any(self.link_als(a, b) for a, b in pairwise(path))


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


def _als_links(board: Board) -> list[tuple[Node, Node, Als]]:
    """Strong links through almost locked sets of two cells or more (one cell is a
    bivalue cell, linked already): take a value x out of a set and its other values are
    locked in it, so of any two of its values x and z, x is in the set's cells holding
    x or z in those holding z."""
    out = []
    for a in almost_locked_sets(board, board.shape, als_cell_limit(board)):
        if len(a.cells) < 2:
            continue
        values = values_of(a.mask)
        for i, x in enumerate(values):
            for z in values[i + 1:]:
                out.append(((a.where[x], x), (a.where[z], z), a))
    return out


Elims = tuple[tuple[int, int], ...]


def _same_value_ends(graph: _Graph, vmasks: list[int], s: int, t: int) -> Elims:
    """An AIC's ends of one value: that value leaves every cell seeing both ends."""
    (ms, vs), (mt, vt) = graph.nodes[s], graph.nodes[t]
    if vs != vt:
        return ()
    hit = graph.cp[s] & graph.cp[t] & vmasks[vs] & ~(ms | mt)
    return tuple((c, vs) for c in ones(hit))


def _aic_ends(graph: _Graph, board: Board, vmasks: list[int], s: int, t: int) -> Elims:
    """What an AIC from node ``s`` to node ``t`` removes (one of them is true)."""
    nodes, cp = graph.nodes, graph.cp
    (ms, vs), (mt, vt) = nodes[s], nodes[t]
    if vs == vt:
        return _same_value_ends(graph, vmasks, s, t)
    single_s, single_t = ms & (ms - 1) == 0, mt & (mt - 1) == 0
    if single_s and ms == mt:
        c = ms.bit_length() - 1
        return tuple((c, v) for v in values_of(board.candidates[c] & ~(bit(vs) | bit(vt))))
    out = []
    # the s end's cell cannot hold vt if it sees the whole t end, and vice versa
    if single_s and ms & cp[t] and vmasks[vt] & ms:
        out.append((ms.bit_length() - 1, vt))
    if single_t and mt & cp[s] and vmasks[vs] & mt:
        out.append((mt.bit_length() - 1, vs))
    return tuple(sorted(out))


Depths = dict[int, dict[int, int]]


def _layers(graph: _Graph, starts: Sequence[int], max_links: int | None,
            ends: dict[int, list[int]] | None = None
            ) -> Iterator[tuple[list[tuple[int, int]], list[tuple[int, int]], Depths]]:
    """Every state reachable from each start state, one link further at a time.

    States are ``2 * node + on``: a node assumed true follows its weak links to nodes
    then false, a node assumed false its strong links to nodes then true. All starts
    advance together, so each round yields the (start, state) pairs first reached at
    that many links, the (start, state) pairs whose state links back to the start (a
    loop closed), and each start's states by their distance from it, from which
    :func:`_chains_to` reads the chains. A false node without a strong link leads
    nowhere: the search follows only nodes with strong links, and looks for the nodes
    without one that ``ends`` lists for a start (false ends, as a loop's in its start
    cell) by a test.
    """
    strong, weak, weak_sets = graph.strong, graph.live_weak, graph.weak_sets
    no_ends: list[int] = []
    depths: Depths = {s: {s: 0} for s in starts}
    frontiers = {s: [s] for s in starts}
    live = list(starts)
    depth = 0
    while live and (max_links is None or depth < max_links):
        depth += 1
        reached = []
        closed = []
        graph.check_time()
        for s in live:
            seen = depths[s]
            extra = ends.get(s, no_ends) if ends else no_ends
            nxt = []
            for st in frontiers[s]:
                n = st >> 1
                if st & 1 and extra:
                    for u in extra:
                        if 2 * u not in seen and u in weak_sets[n]:
                            seen[2 * u] = depth
                            reached.append((s, 2 * u))
                on = 0 if st & 1 else 1
                for m in (weak[n] if st & 1 else strong[n]):
                    ns = 2 * m + on
                    if ns in seen:
                        if ns == s and depth > 3:
                            closed.append((s, st))
                        continue
                    seen[ns] = depth
                    reached.append((s, ns))
                    if on or strong[m]:
                        nxt.append(ns)
            frontiers[s] = nxt
        live = [s for s in live if frontiers[s]]
        yield reached, closed, depths


#: Most shortest forms of one continuous loop whose eliminations are worked out.
LOOP_FORMS = 8

#: Most steps of the search for a chain's shortest forms that do not cross themselves.
PATH_BUDGET = 2_000


def _chains_to(graph: _Graph, seen: dict[int, int], target: int, loop: bool
               ) -> Iterator[list[int]]:
    """The shortest chains from a start (the state ``seen`` holds at 0) to ``target``
    that do not cross themselves (unless the graph's ``may_cross``): no node shares a
    cell with a node other than its neighbours (a loop's nodes in its start cell
    excepted), read backwards through ``seen``'s distances, within
    :data:`PATH_BUDGET` steps."""
    nodes, strong, weak = graph.nodes, graph.strong, graph.weak
    start = next(st for st, d in seen.items() if d == 0)
    home = nodes[start >> 1][0] if loop else 0

    def options(st: int) -> Iterator[int]:
        want = seen[st] - 1
        m = st >> 1
        for n in (strong[m] if st & 1 else weak[m]):
            p = 2 * n if st & 1 else 2 * n + 1
            if seen.get(p) == want:
                yield p

    def first(st: int) -> int:
        m = nodes[st >> 1][0]
        return m & -m

    budget = PATH_BUDGET
    rev = [target]
    # a node may not hold the first cell of a node two or more places after it (as
    # HoDoKu, a group is known by its first cell): the first cells of every node of
    # ``rev`` but its last
    masks = [first(target)]
    blocked = [0]
    choices = [options(target)]
    while choices:
        p = next(choices[-1], None)
        if p is None:
            choices.pop()
            rev.pop()
            masks.pop()
            blocked.pop()
            continue
        budget -= 1
        if budget < 0:
            return
        if nodes[p >> 1][0] & blocked[-1] & ~home and not graph.may_cross:
            continue
        if p == start:
            yield [p, *reversed(rev)]
            continue
        blocked.append(blocked[-1] | masks[-1])
        rev.append(p)
        masks.append(first(p))
        choices.append(options(p))


#: A chain found: its states (``2 * node + on``), what it removes, and its kind.
Found = tuple[list[int], Elims, str]


def _by_length(rounds: Iterator[list[Found]]) -> Iterator[Found]:
    """The chains of each round, those removing most first, each set of eliminations
    once (by its shortest chain)."""
    seen: set[frozenset[tuple[int, int]]] = set()
    for found in rounds:
        found.sort(key=lambda f: -len(f[1]))
        for item in found:
            key = frozenset(item[1])
            if key not in seen:
                seen.add(key)
                yield item


def _aic_chains(graph: _Graph, conclude: Callable[[int, int], Elims],
                max_links: int | None, keep: Callable[[list[int]], bool] | None = None,
                proofs: set[int] | None = None) -> Iterator[Found]:
    """AICs: from a node assumed false to a node then true, strong link first and last,
    shortest first; ``conclude(s, t)`` is what ends ``s`` and ``t`` remove; with
    ``keep``, only the chains it accepts. The nodes whose falsehood leads back to
    themselves true go into ``proofs`` as they are met."""

    def rounds() -> Iterator[list[Found]]:
        starts = [2 * s for s in range(len(graph.nodes)) if graph.strong[s]]
        for reached, _, depths in _layers(graph, starts, max_links):
            found = []
            for s, st in reached:
                if not st & 1 or st >> 1 == s >> 1:
                    if proofs is not None and st == s + 1:
                        proofs.add(s >> 1)
                    continue
                if depths[s][st] < 3:
                    continue
                elims = conclude(s >> 1, st >> 1)
                if not elims:
                    continue
                # ends in one cell: the chain comes back to its start cell, as a loop
                back = graph.nodes[st >> 1][0] == graph.nodes[s >> 1][0]
                for path in _chains_to(graph, depths[s], st, back):
                    if keep is None or keep(path):
                        found.append((path, elims, ""))
                        break
            yield found

    return _by_length(rounds())


def _all_of(board: Board, cell: int, keep: int) -> Elims:
    return tuple((cell, v) for v in values_of(board.candidates[cell] & ~keep))


def _loop_result(graph: _Graph, board: Board, vmasks: list[int], path: list[int]
                 ) -> tuple[str, Elims]:
    """What a chain from a candidate back to its own cell proves (HoDoKu's kinds).

    Discontinuous: the start assumed true leads to itself false (or to another value of
    its cell true), so it is false; assumed false, it leads to itself true, so it is
    true (every other value leaves); assumed false, it leads to another value of its
    cell false, so that value is false. Continuous: the chain closes into a loop of
    alternating links, so every weak link in it is strong as well: a value joined by a
    weak link between two nodes leaves every other cell seeing both, a cell
    entered and left by strong links keeps only those two values, and an almost locked
    set the loop passes through holds all of its other values.
    """
    nodes = graph.nodes
    first, last = path[0], path[-1]
    cell_mask, a = nodes[first >> 1]
    b = nodes[last >> 1][1]
    cell = cell_mask.bit_length() - 1
    first_strong = not first & 1   # the start assumed false: its first link is strong
    last_strong = bool(last & 1)
    if not first_strong and not last_strong and a == b:
        return "discontinuous", ((cell, a),)
    if first_strong and last_strong and a == b:
        return "discontinuous", _all_of(board, cell, bit(a))
    if first_strong != last_strong and a != b:
        return "discontinuous", ((cell, b if first_strong else a),)
    continuous = ((not first_strong and not last_strong
                   and board.candidates[cell].bit_count() == 2)
                  or (first_strong and last_strong) or a == b)
    if not continuous:
        return "", ()
    chain_cells = 0
    for st in path:
        chain_cells |= nodes[st >> 1][0]
    out: set[tuple[int, int]] = set()
    if first_strong and last_strong:
        out.update(_all_of(board, cell, bit(a) | bit(b)))
    n = len(path) - 1
    for i in range(1, n + 1):
        (m, v), on = nodes[path[i] >> 1], path[i] & 1
        previous = nodes[path[i - 1] >> 1][0]
        if on and i <= n - 2 and previous != m and not m & (m - 1):
            m1, v1 = nodes[path[i + 1] >> 1]
            m2 = nodes[path[i + 2] >> 1][0]
            if m1 == m and not path[i + 1] & 1 and path[i + 2] & 1 and m2 != m:
                out.update(_all_of(board, m.bit_length() - 1, bit(v) | bit(v1)))
        if not on and previous != m:
            hit = graph.cp[path[i - 1] >> 1] & graph.cp[path[i] >> 1] & vmasks[v]
            out.update((c, v) for c in ones(hit & ~chain_cells))
        als = graph.link_als(path[i - 1], path[i]) if on else None
        if als is not None:
            # exactly one of the two values the loop passes is in the set, so its other
            # values are all in it
            x = nodes[path[i - 1] >> 1][1]
            for w in values_of(als.mask & ~(bit(x) | bit(v))):
                out.update((c, w) for c in ones(als.seen[w] & vmasks[w]))
    return "continuous", tuple(sorted(out))


def _nice_loops(graph: _Graph, board: Board, max_links: int | None,
                keep: Callable[[list[int]], bool] | None = None,
                only: frozenset[Node] | None = None) -> Iterator[Found]:
    """Nice loops: chains from a candidate (assumed true or false) back to its cell,
    shortest first, each set of eliminations once; with ``keep``, only the loops it
    accepts; with ``only``, the loops from those candidates assumed false alone."""
    nodes = graph.nodes
    vmasks = value_cells(board)

    def loops(depths: Depths, s: int, st: int, closing: bool) -> Iterator[list[int]]:
        if closing:  # the last link comes back to the start itself
            for path in _chains_to(graph, depths[s], st, True):
                yield [*path, s]
        else:
            yield from _chains_to(graph, depths[s], st, True)

    def rounds() -> Iterator[list[Found]]:
        if only is None:
            starts = [2 * i + on for i, (m, _) in enumerate(nodes) if not m & (m - 1)
                      for on in (1, 0)]
        else:
            starts = [2 * i for i, node in enumerate(nodes) if node in only]
        in_cell: dict[int, list[int]] = {}
        for i, (m, _) in enumerate(nodes):
            if not m & (m - 1) and not graph.strong[i]:
                in_cell.setdefault(m, []).append(i)
        ends = {s: in_cell.get(nodes[s >> 1][0], []) for s in starts}
        for reached, closed, depths in _layers(graph, starts, max_links, ends):
            found = []
            pending = [(s, st, False) for s, st in reached] + [(s, st, True)
                                                                for s, st in closed]
            for s, st, closing in pending:
                home = nodes[s >> 1][0]
                if not closing and (nodes[st >> 1][0] != home or depths[s][st] < 3):
                    continue
                # a continuous loop's eliminations depend on its path: a few of its
                # shortest forms are tried
                tried = 0
                for path in loops(depths, s, st, closing):
                    if nodes[path[1] >> 1][0] & home:
                        continue
                    if keep is not None and not keep(path):
                        continue
                    kind, elims = _loop_result(graph, board, vmasks, path)
                    if elims:
                        found.append((path, elims, kind))
                    tried += 1
                    if kind != "continuous" or tried >= LOOP_FORMS:
                        break
            yield found

    return _by_length(rounds())


# -- writing chains --------------------------------------------------------------------------

def _node_ref(node: Node, with_value: bool) -> str:
    mask, value = node
    cells = "/".join(cell_ref(c) for c in ones(mask))
    return f"({value_ref(value)}){cells}" if with_value else cells


def _chain_text(graph: _Graph, path: list[int], with_value: bool) -> str:
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


def _xy_text(graph: _Graph, path: list[int]) -> str:
    """Eureka style: ``(4=6)r1c2 - (6=8)r1c7``: one bracket per bivalue cell."""
    parts = []
    for i in range(0, len(path), 2):
        (m, a), (_, b) = graph.nodes[path[i] >> 1], graph.nodes[path[i + 1] >> 1]
        parts.append(f"({value_ref(a)}={value_ref(b)}){cell_ref(m.bit_length() - 1)}")
    return " - ".join(parts)


def _chain_step(shape: Shape, technique: str, graph: _Graph, path: list[int],
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
    vmasks = value_cells(board)
    most = _max_links(board)

    def search(v: int) -> Iterator[tuple[int, int, _Graph, list[int], Elims]]:
        links = _house_links(board, [v], grouped=False)
        if len(links) < 2:  # one strong link alone is a pointing or claiming at most
            return
        graph = _Graph(board, links, False)
        for path, elims, _ in _aic_chains(
                graph, lambda s, t: _same_value_ends(graph, vmasks, s, t), most):
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
    graph = _Graph(board, _bivalue_links(board), False)
    vmasks = value_cells(board)
    for path, elims, _ in _aic_chains(
            graph, lambda s, t: _same_value_ends(graph, vmasks, s, t), _max_links(board)):
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
                 ) -> tuple[_Graph, Callable[[list[int]], bool] | None]:
    """The graph of an AIC or nice-loop search of that reach, and the test a chain
    passes to count as one of that reach (None: any chain)."""
    values = range(1, board.shape.size + 1)
    links = _house_links(board, values, reach >= GROUPED) + _bivalue_links(board)
    als = _als_links(board) if reach == WITH_ALS else ()
    graph = _Graph(board, links, True, singles=singles, als_pairs=als)
    if reach == PLAIN:
        return graph, None
    return graph, graph.grouped if reach == GROUPED else graph.through_als


def _aic(board: Board, shape: Shape, reach: int, technique: str) -> Iterator[Step]:
    graph, keep = _chain_graph(board, reach)
    vmasks = value_cells(board)
    proofs: set[int] = set()
    barren = True
    nodes, cp = graph.nodes, graph.cp

    def conclude(s: int, t: int) -> Elims:
        # most ends share their value and remove nothing: that case is tested here
        (ms, vs), (mt, vt) = nodes[s], nodes[t]
        if vs == vt:
            hit = cp[s] & cp[t] & vmasks[vs] & ~(ms | mt)
            return tuple((c, vs) for c in ones(hit)) if hit else ()
        return _aic_ends(graph, board, vmasks, s, t)

    for path, elims, _ in _aic_chains(graph, conclude, _max_links(board), keep, proofs):
        barren = False
        yield _chain_step(shape, technique, graph, path, elims,
                          f"{technique}: {_chain_text(graph, path, True)}")
    if not barren or reach == WITH_ALS:
        return
    # searched to the end in vain: a nice loop on this board can only be one that proves
    # its start true (any other would end an AIC the search met), so the nice-loop search
    # that follows starts from these nodes alone. Not through sets: what a continuous
    # loop's set holds would end an AIC only as a group of the set's cells proving itself
    memo = board.memo
    if len(memo.aic_barren) > 64:
        memo.aic_barren.clear()
    memo.aic_barren[(board_key(board), reach)] = frozenset(
        graph.nodes[n] for n in proofs if not graph.nodes[n][0] & (graph.nodes[n][0] - 1))


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
    for path, elims, kind in _nice_loops(graph, board, _max_links(board), keep, only):
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


# -- forcing chains --------------------------------------------------------------------------

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
    changed = False
    for c, k in zip(empty, keep, strict=True):
        m = masks[c]
        if m & ~k:
            m &= k
            if not m:
                return None
            masks[c] = m
            if not m & (m - 1):
                queue.append(c)
            changed = True
    return changed


#: A forcing chain's outcome as the finders keep it: every cell's mask (one bit for a
#: value, as the compiled core settles it) packed in one number, 32 bits a cell, or the
#: values and candidates of :func:`propagate`; None when the board broke.
Packed = int | tuple[list[int], list[int]] | None


def _outcome(board: Board, cell: int, value: int, locked: bool = False) -> Packed:
    """The outcome of ``value`` in ``cell``, remembered in the board's memo for the latest
    board seen (the forcing-chain finders share it)."""
    memo = board.memo
    key = board_key(board)
    if memo.outcomes_key != key:
        memo.outcomes.clear()
        memo.outcomes_key = key
        memo.outcomes_base = _packable(board)
        memo.outcomes_masks = _masks(board) if memo.outcomes_base is None else None
    at = (cell, value, locked)
    if at not in memo.outcomes:
        memo.check_time()
        base = memo.outcomes_base
        memo.outcomes[at] = (
            _propagate_python(board, cell, value, locked, memo.outcomes_masks)
            if base is None else _settle(board, base, cell, value, locked))
    return memo.outcomes[at]


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
    base = board.memo.outcomes_base
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


def _contradictions(board: Board, shape: Shape, locked: bool) -> Iterator[Step]:
    technique, how = ((FORCING_CONTRADICTION_PLUS, "singles and locked candidates")
                      if locked else (FORCING_CONTRADICTION, "singles"))
    for c, m in enumerate(board.candidates):
        if m.bit_count() < 2:
            continue
        for v in values_of(m):
            if _outcome(board, c, v, locked) is not None:
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
