"""Sudoku Explainer's rules for the value of a board that needs forcing chains.

The Explainer rates such a board by the first kind of chain that finds anything there,
simplest kind first, and within that kind by its smallest chain: a contradiction on one
digit (Nishio, 7.5), then multiple chains whose links hold on the board as it stands
(cell and house forcing chains: 8.0), then dynamic chains, whose links may rest on what
earlier links removed (8.5). Each adds 0.1 for every length bracket its size
passes, the size being the number of candidate states (a value assumed in a cell, or
taken from it) its conclusion rests on.

Our forcing steps follow singles from an assumption; to put them and the techniques the
Explainer lacks (grouped chains, almost locked sets, ...) on that scale, the states are
followed again here, each remembering the states it came from, breadth first as the
Explainer does.

Only the classic rules (cells, houses) are traced; shapes with sums are valued by their
technique's table value alone.
"""

from __future__ import annotations

from collections import deque

from .board import Board, bit, values_of

#: The Explainer's base values: a contradiction reached on one digit, multiple chains
#: with links of the board as it stands, and chains whose links rest on earlier ones.
NISHIO = 7.5
MULTIPLE = 8.0
DYNAMIC = 8.5

#: A state: (cell, value, on) where ``on`` says the value is placed, else removed.
State = tuple[int, int, bool]


def length_bonus(size: int) -> float:
    """The Explainer's addition for a chain resting on ``size`` states: 0.1 for each
    bracket (4, 6, 8, 12, 16, 24, ...) that ``size - 2`` passes."""
    length = size - 2
    added, ceiling, odd = 0, 4, False
    while length > ceiling:
        added += 1
        ceiling = ceiling * 3 // 2 if not odd else ceiling * 4 // 3
        odd = not odd
    return added / 10


def contradiction_size(board: Board, cell: int, value: int, one_digit: bool = False,
                       on: bool = True) -> int | None:
    """The size of the smallest proof (by breadth-first tracing) that ``value`` in
    ``cell`` (or, not ``on``, its absence) breaks the board; None if following singles
    from it does not break the board. With ``one_digit``, only that value's links are
    followed (the Explainer's Nishio chains)."""
    shape = board.shape
    if shape.cages:
        return None
    peers = shape.peers
    houses = [h.cells for h in shape.houses]
    houses_of = shape.houses_of
    cands = list(board.candidates)
    start = cands[:]
    placed = {c: v for c, v in enumerate(board.values) if v}
    removed: set[tuple[int, int]] = set()
    parents: dict[State, tuple[State, ...]] = {(cell, value, on): ()}
    queue: deque[State] = deque([(cell, value, on)])

    def size(*ends: State) -> int:
        # as the Explainer counts: each end's states, those they share once per end
        return sum(_ancestors(parents, end) for end in ends)

    def derive(state: State, why: tuple[State, ...]) -> None:
        if state not in parents:
            parents[state] = why
            queue.append(state)

    while queue:
        state = queue.popleft()
        c, v, on = state
        b = 1 << (v - 1)
        if on:
            if c in placed:
                if placed[c] != v:
                    return size(state, (c, placed[c], True))
                continue
            if (c, v) in removed:
                return size(state, (c, v, False))
            placed[c] = v
            # the value leaves the cell's other candidates and its peers
            for w in values_of(cands[c] & ~b) if not one_digit else ():
                derive((c, w, False), (state,))
            for p in peers[c]:
                if cands[p] & b or placed.get(p) == v:
                    if (p, v, True) in parents:
                        return size((p, v, True), state)
                    derive((p, v, False), (state,))
            continue
        if (c, v) in removed:
            continue
        removed.add((c, v))
        cands[c] &= ~b
        if (c, v, True) in parents:
            return size((c, v, True), state)
        if c not in placed and not one_digit:
            left = cands[c]
            if not left:
                return size(*((c, w, False) for w in values_of(start[c])))
            if not left & (left - 1):
                derive((c, left.bit_length(), True),
                       tuple((c, x, False) for x in values_of(start[c] & ~left)))
        for h in houses_of[c]:
            if any(placed.get(q) == v for q in houses[h]):
                continue
            where = [q for q in houses[h] if cands[q] & b and (q, v) not in removed]
            if not where:
                return size(*((q, v, False) for q in houses[h] if start[q] & b))
            if len(where) == 1:
                derive((where[0], v, True),
                       tuple((q, v, False) for q in houses[h] if q != where[0] and start[q] & b))
    return None


def _static_closure(board: Board, start: State) -> dict[State, tuple[State, ...]]:
    """Every state that follows from ``start`` by links of the board as it stands (a
    value placed leaves its cell and peers; a value gone from a cell of two candidates,
    or from a house where it had two places, puts the other one), each with the states
    it follows from, breadth first."""
    shape = board.shape
    cands = board.candidates
    peers = shape.peers
    houses = [h.cells for h in shape.houses]
    houses_of = shape.houses_of
    parents: dict[State, tuple[State, ...]] = {start: ()}
    queue: deque[State] = deque([start])
    while queue:
        state = queue.popleft()
        c, v, on = state
        b = 1 << (v - 1)
        if on:
            nxt = [(c, w, False) for w in values_of(cands[c] & ~b)]
            nxt += [(p, v, False) for p in peers[c] if cands[p] & b]
        else:
            m = cands[c]
            nxt = [(c, (m & ~b).bit_length(), True)] if m.bit_count() == 2 else []
            for h in houses_of[c]:
                where = [q for q in houses[h] if cands[q] & b]
                if len(where) == 2:
                    nxt.append((where[0] if where[1] == c else where[1], v, True))
        for n in nxt:
            if n not in parents:
                parents[n] = (state,)
                queue.append(n)
    return parents


def _ancestors(parents: dict[State, tuple[State, ...]], end: State) -> int:
    """How many states ``end`` rests on, itself included."""
    seen: set[State] = set()
    todo = [end]
    while todo:
        s = todo.pop()
        if s not in seen:
            seen.add(s)
            todo.extend(parents[s])
    return len(seen)


def _useful(board: Board, state: State) -> bool:
    """True when a state says something new: a candidate removed or a value placed."""
    c, v, on = state
    return bool(board.candidates[c] & bit(v)) and (not on or board.candidates[c] != bit(v))


def multiple_value(board: Board) -> float | None:
    """The Explainer's value of the simplest multiple chain on ``board`` (links of the
    board as it stands): cell and house forcing chains; None where there is none."""
    shape = board.shape
    if shape.cages:
        return None
    cands = board.candidates
    closures: dict[State, dict[State, tuple[State, ...]]] = {}

    def closure(state: State) -> dict[State, tuple[State, ...]]:
        if state not in closures:
            board.memo.check_time()
            closures[state] = _static_closure(board, state)
        return closures[state]

    best: int | None = None

    def offer(size: int) -> None:
        nonlocal best
        if best is None or size < best:
            best = size

    def forcing(branches: list[State]) -> None:
        maps = [closure(b) for b in branches]
        common = set(maps[0]).intersection(*maps[1:])
        for state in common:
            if _useful(board, state) and state not in branches:
                offer(sum(_ancestors(m, state) for m in maps))

    for c, m in enumerate(cands):
        if board.values[c] or not m & (m - 1):
            continue
        forcing([(c, v, True) for v in values_of(m)])
    for h in shape.houses:
        for v in range(1, shape.size + 1):
            where = [q for q in h.cells if cands[q] & bit(v)]
            if len(where) >= 2:
                forcing([(q, v, True) for q in where])
    return None if best is None else round(MULTIPLE + length_bonus(best), 1)


def _smallest_contradiction(board: Board, one_digit: bool) -> int | None:
    """The size of the smallest proof that some candidate, assumed true or false, breaks
    the board (see :func:`contradiction_size`); None if none does."""
    best: int | None = None
    for c, m in enumerate(board.candidates):
        if board.values[c] or not m & (m - 1):
            continue
        for v in values_of(m):
            for on in (True, False):
                board.memo.check_time()
                found = contradiction_size(board, c, v, one_digit, on)
                if found is not None and (best is None or found < best):
                    best = found
    return best


def forcing_value(board: Board) -> float | None:
    """The Explainer's value of ``board`` where it needs forcing chains: the first kind
    that finds anything (a contradiction on one digit, then multiple chains, then
    dynamic contradictions), at its smallest chain; None where none of them does."""
    if board.shape.cages:
        return None
    nishio = _smallest_contradiction(board, True)
    if nishio is not None:
        return round(NISHIO + length_bonus(nishio), 1)
    multiple = multiple_value(board)
    if multiple is not None:
        return multiple
    dynamic = _smallest_contradiction(board, False)
    return None if dynamic is None else round(DYNAMIC + length_bonus(dynamic), 1)
