"""The pure-Python search engine: the reference the compiled core is tested against.

The board is a list of candidate masks, one per cell (bit ``v - 1`` for value v). Search
is constraint propagation plus depth-first search:

* *assign*: a cell whose mask has one bit left is a placed value; the value is removed
  from all its peers (a peer left with one bit is assigned in turn, with none the branch
  is dead);
* *hidden singles*: in every house, a value possible in only one cell goes there, and a
  value possible nowhere kills the branch;
* *locked candidates*: when singles are exhausted, for every two houses that share two or
  more cells, a value that one house can only hold inside the shared cells is removed
  from the rest of the other house (box-line "pointing" and "claiming", generalised to
  any pair of houses, so jigsaw regions, diagonals and Samurai grids get it too);
* *sums*: in every cage with a sum, a cell keeps a digit only if the other cells can
  take different digits completing one of the cage's digit sets (on shapes of more than
  EXACT_SUMS_MAX symbols, a coarser rule: cells keep only digits of the sets that still
  fit, and a digit every such set holds goes to the one cell that can take it);
* *branch* on the unfilled cell with the fewest candidates (among equals, the one with
  the most unfilled peers), trying values in increasing order, each on a copy of the
  board. On shapes with sums, where a wrong early choice can cost a long fruitless
  search, each cell counts the dead ends it took part in (a cage or house found
  impossible, a cell emptied by a peer), the branch cell is the one with the fewest
  candidates for its weight, k / (1 + dead ends), and until a first solution is found the
  search starts again from the top after 100 nodes, then after runs half as long again
  each time (so the last run always finishes).

A cell is queued exactly once per branch, at the moment its mask drops to one bit, so no
"already done" flags are needed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from .sums import repeat_support, support

Intersections = tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
Sums = tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]


class Geometry:
    """The flat arrays the search needs, derived once from a shape."""

    __slots__ = ("ncells", "full", "peers", "houses", "intersections", "sums")

    def __init__(self, ncells: int, full: int, peers: tuple[tuple[int, ...], ...],
                 houses: tuple[tuple[int, ...], ...], intersections: Intersections = (),
                 sums: Sums = ()) -> None:
        self.ncells = ncells
        self.full = full
        self.peers = peers
        self.houses = houses
        #: (shared cells, rest of the first house, rest of the second) for every two
        #: houses that share two or more cells
        self.intersections = intersections
        #: (cells, the masks of the digit sets that make its sum) for every cage with a
        #: sum; (cells, (-sum,)) for a cage whose digits may repeat
        self.sums = sums

    def with_sums(self, sums: Sums) -> Geometry:
        """The same geometry with other sums."""
        return Geometry(self.ncells, self.full, self.peers, self.houses, self.intersections,
                        sums)


def intersections(houses: Sequence[Sequence[int]]) -> Intersections:
    """House pairs that share at least two cells, in the order both engines use."""
    out = []
    sets = [set(h) for h in houses]
    for i, a in enumerate(houses):
        set_a = sets[i]
        for j in range(i + 1, len(houses)):
            in_b = sets[j]
            if len(set_a & in_b) >= 2:
                out.append((tuple(c for c in a if c in in_b), tuple(c for c in a if c not in in_b),
                            tuple(c for c in houses[j] if c not in set_a)))
    return tuple(out)


class SearchOutcome:
    """What a search found: solutions (as candidate-free value tuples) and its costs."""

    __slots__ = ("solutions", "count", "aborted", "nodes", "guesses")

    def __init__(self, solutions: list[tuple[int, ...]], count: int, aborted: bool,
                 nodes: int, guesses: int) -> None:
        self.solutions = solutions
        self.count = count
        self.aborted = aborted
        self.nodes = nodes
        self.guesses = guesses


class _Abort(Exception):
    pass


#: A rule the caller adds to :func:`settle` (cages with sums): it narrows the masks, queues
#: the cells it leaves with one candidate, and says whether it changed anything (None
#: when the board broke).
CageRule = Callable[[list[int], list[int]], bool | None]


def _blame_none(cells: Sequence[int]) -> None:
    """A search that does not weigh its dead ends blames no cell."""


def settle(geo: Geometry, board: list[int], queue: list[int], locked: bool = True,
           cages: CageRule | None = None,
           blame: Callable[[Sequence[int]], None] = _blame_none, eager: bool = False
           ) -> bool:
    """Propagate ``board`` (candidate masks, one bit for a placed value) in place: the
    values of the queued cells leave their peers (a peer left with one is queued in
    turn), and every value with one place in a house goes there, until nothing changes;
    then, when those run out, ``cages`` and (with ``locked``) locked candidates, until
    none of the rules changes anything. False on a contradiction, whose cells (a cell
    emptied by a peer, a house without a place for a value) ``blame`` is told.

    With ``eager``, ``cages`` runs after every look at the houses, not only once the
    singles run out: fewer looks where cages prune much. Each rule only takes
    candidates away, so where they end does not depend on the order; which
    contradiction is met first, and so what is blamed, does: the search keeps its
    order, as its counts of dead ends steer its branching.

    A cell with one candidate is taken as placed when a house is looked at, whether or
    not it was queued: only a queued cell's value leaves its peers."""
    peers = geo.peers
    full = geo.full
    houses = geo.houses
    while True:
        while queue:
            cell = queue.pop()
            bit = board[cell]
            for p in peers[cell]:
                m = board[p]
                if m & bit:
                    m ^= bit
                    if not m:
                        blame((cell, p))
                        return False
                    board[p] = m
                    if not m & (m - 1):
                        queue.append(p)
        for house in houses:
            once = twice = placed = 0
            for c in house:
                m = board[c]
                twice |= once & m
                once |= m
                if not m & (m - 1):
                    placed |= m
            if once != full:
                blame(house)
                return False
            hidden = once & ~twice & ~placed
            while hidden:
                bit = hidden & -hidden
                hidden ^= bit
                for c in house:
                    if board[c] & bit:
                        board[c] = bit
                        queue.append(c)
                        break
        if queue and not eager:
            continue
        if cages is not None:
            narrowed = cages(board, queue)
            if narrowed is None:
                return False
            if narrowed:
                continue
        if queue:
            continue
        if not locked:
            return True
        changed = _locked_candidates(geo.intersections, board, queue)
        if changed is None:
            return False
        if not changed:
            return True


def _locked_candidates(pairs: Intersections, board: list[int], queue: list[int]
                       ) -> bool | None:
    """One pass over house pairs; True if anything was removed, None on a
    contradiction."""
    changed = False
    for shared, rest_a, rest_b in pairs:
        inside = out_a = out_b = 0
        for c in shared:
            inside |= board[c]
        for c in rest_a:
            out_a |= board[c]
        for c in rest_b:
            out_b |= board[c]
        # values the first house keeps inside the shared cells leave the second's rest
        elim = inside & ~out_a & out_b
        if elim:
            changed = True
            if not _remove(board, rest_b, elim, queue):
                return None
            out_b &= ~elim
        elim = inside & ~out_b & out_a
        if elim:
            changed = True
            if not _remove(board, rest_a, elim, queue):
                return None
    return changed


class _Search:
    def __init__(self, geo: Geometry, limit: int, keep: int, node_limit: int,
                 deadline: float | None,
                 on_batch: Callable[[list[tuple[int, ...]]], object] | None = None) -> None:
        self.geo = geo
        self.on_batch = on_batch
        self.limit = limit
        self.keep = keep
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self.guesses = 0
        self.count = 0
        self.solutions: list[tuple[int, ...]] = []
        self.weight: list[int] | None = [0] * geo.ncells if geo.sums else None
        self.restart_budget = self.restart_at = FIRST_RESTART
        #: the rules for cages with sums, where the shape has any
        self.cage_rule = self._cages if geo.sums else None

    def _blame(self, cells: Sequence[int]) -> None:
        if self.weight is not None:
            for c in cells:
                self.weight[c] += 1

    def _propagate(self, board: list[int], queue: list[int]) -> bool:
        """Assign queued cells and hidden singles until nothing changes; False on a
        contradiction."""
        return settle(self.geo, board, queue, True, self.cage_rule, self._blame)

    def _cages(self, board: list[int], queue: list[int]) -> bool | None:
        """The rules for cages with sums (see :func:`_sums`)."""
        return _sums(board, self.geo.sums, queue,
                     self.geo.full.bit_length() <= EXACT_SUMS_MAX, self._blame)

    def pass_solutions(self) -> None:
        """Hand the solutions kept so far to ``on_batch`` (streaming) and forget them."""
        if self.on_batch is not None and self.solutions:
            batch, self.solutions = self.solutions, []
            self.on_batch(batch)

    def _check_budget(self) -> None:
        if self.node_limit and self.nodes >= self.node_limit:
            raise _Abort
        if self.deadline is not None and not self.nodes & 255:
            if time.monotonic() > self.deadline:
                raise _Abort

    def run(self, board: list[int]) -> bool:
        """Search from a board whose single-value cells are all still unpropagated.

        Returns True if the whole tree was explored (or the solution limit reached),
        False if a node or time budget stopped it.
        """
        queue = [c for c, m in enumerate(board) if m and not m & (m - 1)]
        if any(m == 0 for m in board):
            return True
        self.nodes = 1
        try:
            if self._propagate(board, queue):
                self._dfs(board)
        except _Abort:
            return False
        return True

    def _dfs(self, root: list[int]) -> None:
        # An explicit stack: a 25x25 grid can go deeper than Python's recursion limit.
        stack: list[tuple[list[int], int, int]] = []
        board: list[int] | None = root
        while True:
            if board is not None:
                cell = _branch_cell(board, self.geo.peers, self.weight)
                if cell < 0:
                    self.count += 1
                    if len(self.solutions) < self.keep:
                        self.solutions.append(tuple(m.bit_length() for m in board))
                    if self.on_batch is not None and len(self.solutions) >= self.keep:
                        self.pass_solutions()
                    if self.count >= self.limit:
                        return
                else:
                    self.guesses += 1
                    stack.append((board, cell, board[cell]))
                board = None
            while stack:
                parent, cell, untried = stack[-1]
                if not untried:
                    stack.pop()
                    continue
                bit = untried & -untried
                stack[-1] = (parent, cell, untried ^ bit)
                child = parent.copy()
                child[cell] = bit
                self.nodes += 1
                self._check_budget()
                if self.weight is not None and not self.count and self.nodes >= self.restart_at:
                    self.restart_budget += self.restart_budget // 2
                    self.restart_at = self.nodes + self.restart_budget
                    top = _branch_cell(root, self.geo.peers, self.weight)
                    stack = [(root, top, root[top])]
                    self.guesses += 1
                    continue
                if self._propagate(child, [cell]):
                    board = child
                    break
            else:
                return


EXACT_SUMS_MAX = 16
"""Shapes of up to this many symbols get the exact cage rule (as the compiled core)."""
FIRST_RESTART = 100
"""Nodes before the first restart of a search on a shape with sums (as the compiled core)."""


def _sums(board: list[int], sums: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...],
          queue: list[int], exact: bool, blame: Callable[[Sequence[int]], None]
          ) -> bool | None:
    """One pass over the cages with a sum; True if a candidate was removed or a value
    placed, None on a contradiction (whose cage is blamed)."""
    changed = False
    for cells, combos in sums:
        if combos[0] < 0:  # a cage whose digits may repeat: (-total,) stands for its sets
            r = _repeats_cage(board, cells, -combos[0], queue)
        else:
            r = _exact_cage(board, cells, combos, queue) if exact else _coarse_cage(
                board, cells, combos, queue)
        if r is None:
            blame(cells)
            return None
        changed |= r
    return changed


def _cage_values(board: list[int], cells: tuple[int, ...]) -> tuple[int, int]:
    """Every value possible in a cage's cells, and those placed in one of them."""
    union = placed = 0
    for c in cells:
        m = board[c]
        union |= m
        if not m & (m - 1):
            placed |= m
    return union, placed


def _exact_cage(board: list[int], cells: tuple[int, ...], combos: tuple[int, ...],
                queue: list[int]) -> bool | None:
    """The exact rule for one cage: a cell keeps a digit only if the other cells can take
    different digits that complete one of the cage's digit sets
    (:func:`numberplace.engine.sums.support`, which the compiled core does the same way).
    """
    union, placed = _cage_values(board, cells)
    targets = [s for s in combos if not placed & ~s and union & s == s]
    return keep_only(board, cells, support([board[c] for c in cells], targets), queue)


def _repeats_cage(board: list[int], cells: tuple[int, ...], total: int,
                  queue: list[int]) -> bool | None:
    """The rule for a cage whose digits may repeat: a cell keeps a digit only if the other
    cells can take digits (any, repeats allowed) that make up the rest of ``total``
    (:func:`numberplace.engine.sums.repeat_support`, which the compiled core does the same way).
    """
    return keep_only(board, cells, repeat_support([board[c] for c in cells], total), queue)


def keep_only(board: list[int], cells: Sequence[int], keep: Sequence[int],
              queue: list[int]) -> bool | None:
    """Keep in each cell of a cage only the digits ``keep`` allows it, queueing cells left
    with one; True if anything changed, None when a cell has no digit left. What a rule
    for cages (:data:`CageRule`) does with the digits it found."""
    changed = False
    for c, k in zip(cells, keep, strict=True):
        m = board[c]
        if m & ~k:
            m &= k
            if not m:
                return None
            board[c] = m
            changed = True
            if not m & (m - 1):
                queue.append(c)
    return changed


def _coarse_cage(board: list[int], cells: tuple[int, ...], combos: tuple[int, ...],
                 queue: list[int]) -> bool | None:
    """The coarse rule for one cage; True if a candidate was removed or a value placed,
    None on a contradiction.

    A digit set that makes a cage's sum still fits the board when it holds every value
    placed in the cage, each of its digits is possible in some cell, and every cell can
    take one of its digits. Cells keep only digits of the sets that fit, and a digit
    that every fitting set holds, possible in one cell only, goes there.
    """
    changed = False
    union, placed = _cage_values(board, cells)
    allowed = 0
    required = -1
    for combo in combos:
        if placed & ~combo or union & combo != combo:
            continue
        if all(board[c] & combo for c in cells):
            allowed |= combo
            required &= combo
    if not allowed:
        return None
    once = twice = 0
    for c in cells:
        m = board[c]
        if m & ~allowed:
            m &= allowed
            board[c] = m
            changed = True
            if not m & (m - 1):
                queue.append(c)
        twice |= once & m
        once |= m
    hidden = required & once & ~twice & ~placed
    while hidden:
        bit = hidden & -hidden
        hidden ^= bit
        for c in cells:
            if board[c] & bit:
                if board[c] != bit:
                    board[c] = bit
                    queue.append(c)
                    changed = True
                break
    return changed


def _remove(board: list[int], cells: Sequence[int], elim: int, queue: list[int]) -> bool:
    """Remove the values ``elim`` from cells; False if a cell is left with none."""
    for c in cells:
        m = board[c]
        if m & elim:
            m &= ~elim
            if not m:
                return False
            board[c] = m
            if not m & (m - 1):
                queue.append(c)
    return True


def _branch_cell(board: list[int], peers: tuple[tuple[int, ...], ...],
                 weight: list[int] | None) -> int:
    """The unfilled cell with the fewest candidates (with weights: the fewest for its
    weight, k / (1 + weight)); among equals, the one with the most unfilled peers (its
    choice constrains the most). -1 if every cell is filled."""
    best = -1
    best_k, best_w = 99, 1
    best_degree = -1
    for c, m in enumerate(board):
        if m & (m - 1):
            k = m.bit_count()
            wt = 1 + weight[c] if weight is not None else 1
            if k * best_w < best_k * wt:
                best, best_k, best_w, best_degree = c, k, wt, -1
            elif k * best_w == best_k * wt:
                if best_degree < 0:
                    best_degree = _unfilled(board, peers[best])
                d = _unfilled(board, peers[c])
                if d > best_degree:
                    best, best_k, best_w, best_degree = c, k, wt, d
    return best


def _unfilled(board: list[int], cells: tuple[int, ...]) -> int:
    return sum(1 for p in cells if board[p] & (board[p] - 1))


def initial_board(geo: Geometry, givens: Sequence[int],
                  candidates: Sequence[int] | None) -> list[int]:
    """Candidate masks before propagation: givens as single bits, pencil marks if given."""
    full = geo.full
    if candidates is None:
        return [1 << (v - 1) if v else full for v in givens]
    return [1 << (v - 1) if v else (m & full) for v, m in zip(givens, candidates, strict=True)]


def propagate(geo: Geometry, givens: Sequence[int],
              candidates: Sequence[int] | None = None) -> list[int] | None:
    """The candidate masks after propagation without branching; None on a contradiction."""
    board = initial_board(geo, givens, candidates)
    if any(m == 0 for m in board):
        return None
    queue = [c for c, m in enumerate(board) if not m & (m - 1)]
    return board if _Search(geo, 1, 0, 0, None)._propagate(board, queue) else None


def search(geo: Geometry, givens: Sequence[int], candidates: Sequence[int] | None = None, *,
           limit: int = 2, keep: int = 1, node_limit: int = 0,
           time_limit: float | None = None,
           on_batch: Callable[[list[tuple[int, ...]]], object] | None = None
           ) -> SearchOutcome:
    """Count solutions up to ``limit``, keeping the first ``keep`` of them; with
    ``on_batch``, every solution is passed to it instead, ``keep`` at a time."""
    deadline = time.monotonic() + time_limit if time_limit else None
    if on_batch is not None:
        keep = max(1, keep)
    s = _Search(geo, max(1, limit), keep, node_limit, deadline, on_batch)
    board = initial_board(geo, givens, candidates)
    finished = s.run(board)
    s.pass_solutions()
    return SearchOutcome(s.solutions, s.count, not finished, max(s.nodes, 1), s.guesses)
