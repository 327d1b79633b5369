"""The chain graph and its search, for the chains of :mod:`.chains`.

A chain runs over *nodes*: a value in a cell, or (grouped) a value in a few cells of a
house that all lie in one intersection with another house. Two kinds of link join them:

* a *strong* link (written ``=``): the two nodes are not both false. Either a bivalue
  cell (its two values), or a house where a value's candidates are exactly the two nodes,
  or (chains with ALS) two values of an almost locked set, each node the set's cells
  holding its value: take one value out of the set and the others are locked in it;
* a *weak* link (written ``-``): the two nodes are not both true. Two values of one cell,
  or one value in nodes whose cells all see each other.

:class:`Graph` holds the nodes and links of one board. The search over it is
breadth-first from every start at once, one link further each round, so the chains
come shortest first (among chains of one length, those removing most first) and each
set of eliminations once, by its shortest chain. A chain may not cross itself: no node
holds the first cell of a node two or more places away (a loop's start cell excepted).
Every chain of a board can be listed; how long they may be is the caller's
(``Memo.chain_links``), and each start visits a state once, so the time stays bounded.
:func:`aic_chains` finds Alternating Inference Chains (what their ends remove:
:func:`aic_ends`), :func:`nice_loops` Nice Loops and what each proves.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import pairwise

from ..errors import LimitError
from ..model.shape import Shape
from ..native import backend_name, core
from .als import Als, almost_locked_sets, als_cell_limit
from .board import Board, bit, value_cells, values_of
from .geometry import house_bits, ones, packed_cell_sets, peer_bits, strong_links

Node = tuple[int, int]  # (bit mask of cells, value)
#: a graph's links as the compiled search reads them: offsets and indices of the strong
#: links, of the weak links to nodes with a strong link, and of all weak links
Packed = tuple[bytes, bytes, bytes, bytes, bytes, bytes]


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

class Graph:
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
        self.memo = board.memo
        self._packed: Packed | None = None
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
        # weak links: one value in nodes whose cells all see each other. A cell sees
        # every cell of a node exactly when it is among the node's common peers, so each
        # node's partners of one cell are read off those peers, and pairs of groups
        # (few) are tested one by one. Two nodes without a strong link (lone candidates,
        # on the board of a nice loop) are not linked in different cells: no chain
        # passes through such a node, and a loop's two ends (its start and an end in the
        # start's cell) are never one link apart; on an open big board most nodes are
        # such, and most links would join two
        single_at: list[dict[int, int]] = [{} for _ in range(shape.size + 1)]
        single_cells = [0] * (shape.size + 1)
        linked_cells = [0] * (shape.size + 1)
        groups: dict[int, list[int]] = {}
        for i, (m, v) in enumerate(nodes):
            if m & (m - 1):
                groups.setdefault(v, []).append(i)
            else:
                single_at[v][m.bit_length() - 1] = i
                single_cells[v] |= m
                if self.strong[i]:
                    linked_cells[v] |= m
        cp = self.cp
        self.weak: list[list[int]] = [[] for _ in range(n)]
        weak = self.weak
        for x, (mx, v) in enumerate(nodes):
            if not x & 255:
                self.check_time()
            at = single_at[v]
            if not mx & (mx - 1):
                partners = single_cells[v] if self.strong[x] else linked_cells[v]
                weak[x] = [at[c] for c in ones(cp[x] & partners)]
        for v, members in groups.items():
            at = single_at[v]
            for k, x in enumerate(members):
                mx = nodes[x][0]
                for c in ones(cp[x] & single_cells[v]):
                    y = at[c]
                    weak[x].append(y)
                    weak[y].append(x)
                for y in members[k + 1:]:
                    my = nodes[y][0]
                    if not my & ~cp[x] and not my & mx:
                        weak[x].append(y)
                        weak[y].append(x)
        for x in range(n):
            weak[x].sort()
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

    def packed(self) -> Packed:
        """The strong, live weak and weak links as the compiled search reads them (each
        offsets and indices)."""
        if self._packed is None:
            assert core is not None
            self._packed = (*core.pack_groups(self.strong), *core.pack_groups(self.live_weak),
                            *core.pack_groups(self.weak))
        return self._packed

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


def house_links(board: Board, values: Sequence[int], grouped: bool
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


def bivalue_links(board: Board) -> list[tuple[Node, Node]]:
    out = []
    for c, m in enumerate(board.candidates):
        if m.bit_count() == 2:
            a, b = values_of(m)
            out.append(((1 << c, a), (1 << c, b)))
    return out


def als_links(board: Board) -> list[tuple[Node, Node, Als]]:
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


def same_value_ends(graph: Graph, vmasks: list[int], s: int, t: int) -> Elims:
    """An AIC's ends of one value: that value leaves every cell seeing both ends."""
    (ms, vs), (mt, vt) = graph.nodes[s], graph.nodes[t]
    if vs != vt:
        return ()
    hit = graph.cp[s] & graph.cp[t] & vmasks[vs] & ~(ms | mt)
    return tuple((c, vs) for c in ones(hit))


def aic_ends(graph: Graph, board: Board, vmasks: list[int], s: int, t: int) -> Elims:
    """What an AIC from node ``s`` to node ``t`` removes (one of them is true)."""
    nodes, cp = graph.nodes, graph.cp
    (ms, vs), (mt, vt) = nodes[s], nodes[t]
    if vs == vt:
        return same_value_ends(graph, vmasks, s, t)
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

#: What a reader of the search's rounds keeps of the pairs they list: every pair; an
#: AIC's ends of one value that remove something (and each start's proof of itself); of
#: any values (:func:`aic_ends`); a nice loop's ends, back in its start's cell. The
#: compiled search thins its rounds to these; the Python search lists every pair, and the
#: reader tests each again either way.
ALL, SAME_ENDS, MIXED_ENDS, LOOPS = "all", "same ends", "mixed ends", "loops"
_MODES = ({ALL: core.CHAIN_ALL, SAME_ENDS: core.CHAIN_SAME_ENDS,
           MIXED_ENDS: core.CHAIN_MIXED_ENDS, LOOPS: core.CHAIN_LOOPS} if core else {})


class _FoundAgain(dict[int, dict[int, int]]):
    """Each start's distances, found again by the compiled search when a reader asks."""

    def __init__(self, graph: Graph, max_links: int | None,
                 ends: dict[int, list[int]] | None) -> None:
        super().__init__()
        self.graph, self.max_links, self.ends = graph, max_links, ends

    def __missing__(self, start: int) -> dict[int, int]:
        assert core is not None
        extra = self.ends.get(start, ()) if self.ends else ()
        found = core.chain_depths(*self.graph.packed(), start, array("i", extra).tobytes(),
                                  -1 if self.max_links is None else self.max_links)
        self[start] = found
        return found


def _compiled_layers(graph: Graph, starts: Sequence[int], max_links: int | None,
                     ends: dict[int, list[int]] | None, mode: str, board: Board | None
                     ) -> Iterator[tuple[list[tuple[int, int]], list[tuple[int, int]], Depths]]:
    """:func:`_layers` in the compiled core (logic/_chains.c), its rounds thinned to what
    ``mode`` keeps; the distances of a start are found again when a reader asks."""
    assert core is not None
    if not starts:
        return
    nodes = graph.nodes
    if ends:
        ends_off, ends_idx = core.pack_groups([ends.get(s, ()) for s in starts])
    else:
        ends_off = ends_idx = b""
    cells = values = masks = peers = vms = cands = b""
    if mode != ALL:
        cells = array("i", [m.bit_length() - 1 if not m & (m - 1) else -1
                            for m, _ in nodes]).tobytes()
    if mode in (SAME_ENDS, MIXED_ENDS):
        assert board is not None
        values = array("i", [v for _, v in nodes]).tobytes()
        masks = packed_cell_sets(board.shape, (m for m, _ in nodes))
        peers = packed_cell_sets(board.shape, graph.cp)
        vms = packed_cell_sets(board.shape, value_cells(board))
        cands = array("Q", board.candidates).tobytes()
    memo = graph.memo
    memo.check_time()
    rounds = core.chain_layers(*graph.packed(), array("i", starts).tobytes(), ends_off,
                               ends_idx, -1 if max_links is None else max_links,
                               _MODES[mode], cells, values, masks, peers, vms, cands,
                               memo.deadline.at or 0.0)
    if rounds is False:
        memo.check_time()
        raise LimitError(memo.deadline.stop_text())
    depths = _FoundAgain(graph, max_links, ends)
    for reached, closed in rounds:
        graph.check_time()
        yield reached, closed, depths


def _layers(graph: Graph, starts: Sequence[int], max_links: int | None,
            ends: dict[int, list[int]] | None = None, mode: str = ALL,
            board: Board | None = None
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
    cell) by a test. The compiled core runs the same search where it is built, its
    rounds thinned to what ``mode`` keeps (``board``: the board of the ends' tests).
    """
    if core is not None and backend_name() == "c":
        yield from _compiled_layers(graph, starts, max_links, ends, mode, board)
        return
    strong, weak = graph.strong, graph.live_weak
    weak_sets = [set(ws) for ws in graph.weak] if ends else []
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


def _chains_to(graph: Graph, seen: dict[int, int], target: int, loop: bool
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


def aic_chains(graph: Graph, board: Board, max_links: int | None,
               keep: Callable[[list[int]], bool] | None = None,
               proofs: set[int] | None = None, mixed: bool = True) -> Iterator[Found]:
    """AICs: from a node assumed false to a node then true, strong link first and last,
    shortest first, with what their ends remove from ``board`` (:func:`aic_ends`; with
    ``mixed`` False only ends of one value count, :func:`same_value_ends`); with
    ``keep``, only the chains it accepts. The nodes whose falsehood leads back to
    themselves true go into ``proofs`` as they are met."""
    nodes, cp = graph.nodes, graph.cp
    vmasks = value_cells(board)

    def conclude(s: int, t: int) -> Elims:
        # most ends share their value and remove nothing: that case is tested here
        (ms, vs), (mt, vt) = nodes[s], nodes[t]
        if vs == vt:
            hit = cp[s] & cp[t] & vmasks[vs] & ~(ms | mt)
            return tuple((c, vs) for c in ones(hit)) if hit else ()
        return aic_ends(graph, board, vmasks, s, t) if mixed else ()

    def rounds() -> Iterator[list[Found]]:
        starts = [2 * s for s in range(len(graph.nodes)) if graph.strong[s]]
        for reached, _, depths in _layers(graph, starts, max_links, None,
                                          MIXED_ENDS if mixed else SAME_ENDS, board):
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


def _loop_result(graph: Graph, board: Board, vmasks: list[int], path: list[int]
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


def nice_loops(graph: Graph, board: Board, max_links: int | None,
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
        for reached, closed, depths in _layers(graph, starts, max_links, ends, LOOPS):
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
