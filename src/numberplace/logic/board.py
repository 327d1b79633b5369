"""A mutable candidates board: the state a human-style solver works on.

Each cell holds either a value (1..n) or, while empty, a bit mask of the values still
possible there (bit ``v - 1`` for value v, as in :class:`numberplace.model.puzzle.Puzzle`).
Everything is phrased in houses, so the board serves every shape.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..engine.sums import combination_masks, repeat_support, support
from ..limits import NEVER, Deadline
from ..model.puzzle import Puzzle
from ..model.shape import Shape

if TYPE_CHECKING:
    from .step import Step

T = TypeVar("T")


def bit(value: int) -> int:
    """The candidate mask bit of a value."""
    return 1 << (value - 1)


def values_of(mask: int) -> list[int]:
    """The values whose bits are set in a candidate mask, ascending."""
    out = []
    while mask:
        low = mask & -mask  # one turn a value, not one a bit: masks hold few values
        out.append(low.bit_length())
        mask ^= low
    return out


def remaining_combinations(rest: int, cells: int, placed: int, size: int) -> tuple[int, ...]:
    """The digit sets that ``cells`` empty cells of a cage may still hold: ``cells``
    different digits from 1 to ``size`` adding up to ``rest``, none of them among the
    digits ``placed`` in the cage already (a mask)."""
    low, high = cells * (cells + 1) // 2, cells * (2 * size - cells + 1) // 2
    if not low <= rest <= high:
        return ()
    return tuple(s for s in combination_masks(rest, cells, size) if not s & placed)


def cage_rest(values: Sequence[int], cells: Sequence[int], total: int
              ) -> tuple[tuple[int, ...], int, int]:
    """A cage's empty cells, what its sum ``total`` still lacks, and the digits placed in
    it (a mask), read from the cell ``values``."""
    placed = 0
    empty = []
    for c in cells:
        v = values[c]
        if v:
            placed |= 1 << (v - 1)
            total -= v
        else:
            empty.append(c)
    return tuple(empty), total, placed


@lru_cache(maxsize=65536)
def cage_support(masks: tuple[int, ...], rest: int, placed: int, size: int
                 ) -> tuple[int, ...]:
    """For a cage's empty cells (their candidates ``masks``), the candidates of each that
    some completion of what its sum lacks (``rest``, without the digits ``placed``)
    uses; all 0 when none can be made. Remembered: searches that try many assumptions
    meet the same cages again and again."""
    return tuple(support(masks, remaining_combinations(rest, len(masks), placed, size)))


@lru_cache(maxsize=64)
def peer_sets(shape: Shape) -> tuple[frozenset[int], ...]:
    """Each cell's peers as a set."""
    return tuple(frozenset(p) for p in shape.peers)


#: Most cells :func:`sum_support` reasons about with the houses they share (its search
#: grows with the digits of each); past it only the sum binds them (weaker, as sound).
MAX_SUPPORT_CELLS = 6


def sum_support(board: Board, cells: Sequence[int], total: int) -> list[int] | None:
    """For empty cells whose digits add up to ``total`` (different where two cells see
    each other), the candidates of each that some way of making the sum uses; None when
    there is no way."""
    cands = board.candidates
    # the sum alone (repeats allowed everywhere) already rules many candidates out
    loose = repeat_support([cands[c] for c in cells], total)
    if not all(loose):
        return None
    if len(cells) > MAX_SUPPORT_CELLS:
        return loose
    seen = peer_sets(board.shape)
    n = len(cells)
    options = [values_of(m) for m in loose]
    keep = [0] * n
    chosen = [0] * n

    def fill(i: int, left: int, low: list[int], high: list[int]) -> bool:
        """Whether cells i.. can make ``left``: one way, written into ``chosen``."""
        if i == n:
            return left == 0
        if not low[i] <= left <= high[i]:
            return False
        for v in options[i]:
            if v > left:
                break
            if any(chosen[j] == v and cells[j] in seen[cells[i]] for j in range(i)):
                continue
            chosen[i] = v
            if fill(i + 1, left - v, low, high):
                return True
        return False

    for i in range(n):
        for v in values_of(loose[i]):
            if keep[i] & bit(v):
                continue  # a way found for another candidate uses this one too
            mine, options[i] = options[i], [v]
            low, high = [0] * (n + 1), [0] * (n + 1)
            for j in range(n - 1, -1, -1):
                low[j], high[j] = low[j + 1] + options[j][0], high[j + 1] + options[j][-1]
            if fill(0, total, low, high):
                for j in range(n):
                    keep[j] |= bit(chosen[j])
            options[i] = mine
    return keep if all(keep) else None


def house_name(shape: Shape, house: int, notation: str = "rc") -> str:
    """Name a house; Programming Sudoku's notation calls boxes *minigrids*."""
    name = str(shape.houses[house])
    return name.replace("box", "minigrid") if notation == "book" else name


@dataclass
class Board:
    """Cell values (0 when empty) and candidate masks (0 once a cell holds a value).

    ``memo`` is what the searches on this board and its copies remember (see
    :class:`Memo`): one solve owns it, so solves in other threads never share it.
    """

    shape: Shape
    values: list[int]
    candidates: list[int]
    memo: Memo = field(default_factory=lambda: Memo(), compare=False, repr=False)
    #: the cells that were givens, as a bit set (None: not known); a value placed by the
    #: solver may be swapped in a deadly pattern, a given may not
    givens: int | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle, memo: Memo | None = None) -> Board:
        """The board of a puzzle's givens, with a new memo unless one is given.

        An empty cell may hold every value no given peer holds; when the puzzle carries
        pencil marks, those are intersected with that, so a player's marks never bring
        back a value the givens already exclude.
        """
        shape = puzzle.shape
        givens = puzzle.givens
        full = (1 << shape.size) - 1
        cands = []
        for cell, v in enumerate(givens):
            if v:
                cands.append(0)
                continue
            mask = full
            for p in shape.peers[cell]:
                if givens[p]:
                    mask &= ~bit(givens[p])
            if puzzle.candidates is not None:
                mask &= puzzle.candidates[cell]
            cands.append(mask)
        mask = sum(1 << c for c, v in enumerate(givens) if v)
        return cls(shape, list(givens), cands, memo or Memo(), mask)

    def copy(self) -> Board:
        """An independent copy of values and candidates; the shape (immutable) and the
        memo (keyed by board contents) are shared."""
        return Board(self.shape, list(self.values), list(self.candidates), self.memo,
                     self.givens)

    def place(self, cell: int, value: int) -> None:
        """Put ``value`` in ``cell`` and remove it from the candidates of every peer."""
        self.values[cell] = value
        self.candidates[cell] = 0
        clear = ~bit(value)
        for p in self.shape.peers[cell]:
            self.candidates[p] &= clear

    def eliminate(self, cell: int, value: int) -> bool:
        """Remove a candidate; True if it was there."""
        b = bit(value)
        had = bool(self.candidates[cell] & b)
        self.candidates[cell] &= ~b
        return had

    def is_solved(self) -> bool:
        """True when every cell holds a value (consistency is :meth:`contradiction`'s job)."""
        return all(self.values)

    def contradiction(self, notation: str = "rc") -> str | None:
        """None if no rule is visibly broken, else a message naming the cell or house.

        Checks: an empty cell without candidates, a value placed twice in a house or a
        cage, a value neither placed in a house nor a candidate in any of its cells, and
        a cage whose cells can no longer make its sum.
        """
        problem = self.problem()
        if problem is None:
            return None
        from .step import render  # steps build on boards: imported here, not at the top

        return render(problem, self.shape, notation)

    def broken_by(self, placements: Sequence[tuple[int, int]],
                  eliminations: Sequence[tuple[int, int]]) -> bool:
        """Whether the board, sound before these changes were made, is broken now.

        Only what the changes touched is looked at: the placed cells' peers (a cell left
        without candidates; a house left without a place for the value) and own houses
        (a value twice; a value left without a place), and the cells that lost a
        candidate. Much cheaper than :meth:`problem` on big grids.
        """
        shape = self.shape
        values, cands = self.values, self.candidates
        houses, houses_of, peers = shape.houses, shape.houses_of, shape.peers
        for cell, value in placements:
            b = 1 << (value - 1)
            own = houses_of[cell]
            touched: set[int] = set()
            for p in peers[cell]:
                if not values[p] and not cands[p]:
                    return True
                touched.update(houses_of[p])
            for h in touched.difference(own):
                if not any(values[c] == value or cands[c] & b for c in houses[h].cells):
                    return True
            # the cell's own houses: the value twice, or another value (one of the
            # cell's other candidates) left without a place
            if any(self._house_problem(h) for h in own):
                return True
        for cell, value in eliminations:
            if not values[cell] and not cands[cell]:
                return True
            b = 1 << (value - 1)
            for h in houses_of[cell]:
                if not any(values[c] == value or cands[c] & b for c in houses[h].cells):
                    return True
        if shape.cages:
            cages_of = shape.cages_of
            touched_cages = {k for cell, _ in eliminations for k in cages_of[cell]}
            for cell, _ in placements:
                for p in (cell, *peers[cell]):
                    touched_cages.update(cages_of[p])
            return any(self._cage_problem(k) for k in touched_cages)
        return False

    def problem(self) -> str | None:
        """:meth:`contradiction` as a step template (cells, houses and values as markers),
        so it can be written in either notation and with any alphabet."""
        shape = self.shape
        values, candidates = self.values, self.candidates
        for cell, v in enumerate(values):
            if not v and not candidates[cell]:
                return f"{{c{cell}}} has no candidate left"
        for h in range(len(shape.houses)):
            problem = self._house_problem(h)
            if problem:
                return problem
        for k in range(len(shape.cages)):
            problem = self._cage_problem(k)
            if problem:
                return problem
        return None

    def _house_problem(self, h: int) -> str | None:
        """A value twice in house ``h``, or a value with no place in it, as a template."""
        values, candidates = self.values, self.candidates
        placed = possible = 0
        for c in self.shape.houses[h].cells:
            v = values[c]
            if v:
                b = 1 << (v - 1)
                if placed & b:
                    return f"value {{v{v}}} appears twice in {{h{h}}}"
                placed |= b
            else:
                possible |= candidates[c]
        missing = ((1 << self.shape.size) - 1) & ~(placed | possible)
        if missing:
            return f"value {{v{values_of(missing)[0]}}} has no place in {{h{h}}}"
        return None

    def _cage_problem(self, k: int) -> str | None:
        """A value twice in cage ``k``, or a sum its cells can no longer make, as a
        template."""
        cage = self.shape.cages[k]
        values, candidates = self.values, self.candidates
        placed = total = 0
        masks = []
        for c in cage.cells:
            v = values[c]
            if v:
                b = 1 << (v - 1)
                if placed & b and not cage.repeats:
                    return f"value {{v{v}}} appears twice in {{g{k}}}"
                placed |= b
                total += v
            else:
                masks.append(candidates[c])
        if cage.total is None:
            return None
        rest = cage.total - total
        if not masks:
            return None if rest == 0 else f"{{g{k}}} adds up to {total}, not {cage.total}"
        if cage.repeats:
            empty = [c for c in cage.cells if not values[c]]
            if sum_support(self, empty, rest) is None:
                return f"{{g{k}}} can no longer make its sum {cage.total}"
        elif not any(cage_support(tuple(masks), rest, placed, self.shape.size)):
            return f"{{g{k}}} can no longer make its sum {cage.total}"
        return None

def value_cells(board: Board) -> list[int]:
    """For each value v (index v; index 0 unused), the cells where v is a candidate, as
    a bit set over cells (bit c for cell c).

    The last answer is kept in the board's memo: the finders tried in turn on one board
    all ask for it.
    """
    key = tuple(board.candidates)
    memo = board.memo
    if memo.value_cells is not None and memo.value_cells[0] == key:
        return memo.value_cells[1]
    out = [0] * (board.shape.size + 1)
    for c, m in enumerate(board.candidates):
        while m:
            low = m & -m
            out[low.bit_length()] |= 1 << c
            m ^= low
    memo.value_cells = (key, out)
    return out


class Barren:
    """Inputs on which a search found nothing, so it need not run on them again.

    A single-value technique's result depends only on the shape and the cells where
    that value is a candidate. Most steps change one or two values, so after a step the
    search of every other value would find nothing again: its key is remembered here.
    Only valid for searches that are pure functions of their key.
    """

    def __init__(self, limit: int = 100_000) -> None:
        self._keys: set[tuple[object, ...]] = set()
        self._limit = limit

    def __contains__(self, key: tuple[object, ...]) -> bool:
        return key in self._keys

    def clear(self) -> None:
        """Forget everything (to time a search as if it had never run)."""
        self._keys.clear()

    def add(self, key: tuple[object, ...]) -> None:
        """Remember that the search found nothing on ``key``."""
        if len(self._keys) >= self._limit:
            self._keys.clear()
        self._keys.add(key)


#: A board's whole state: its shape, candidates and values.
_BoardKey = tuple[Shape, tuple[int, ...], tuple[int, ...]]


def board_key(board: Board) -> _BoardKey:
    """A board's whole state as a key, for what the memo keeps of the latest board."""
    return board.shape, tuple(board.candidates), tuple(board.values)


class Memo:
    """What the searches of one solve remember between steps, so they are not repeated.

    Every entry is keyed by the exact inputs it was computed from (the shape among them,
    so a generator may keep one memo over many shapes), so it never goes stale. It
    belongs to one solve (a board and its copies), never to the module, so the same
    puzzle gives the same path in a thread, a process or a server.
    """

    def __init__(self) -> None:
        #: when the solve using this memo must end (its searches check it as they go)
        self.deadline: Deadline = NEVER
        #: most links of a chain the chain searches look for (None: as long as the
        #: board allows; each search visits a state once per start, so time stays bounded)
        self.chain_links: int | None = None
        #: most cells of an almost locked set the ALS searches look for (None: their own
        #: default)
        self.als_cells: int | None = None
        #: most sets of an ALS-XY-Chain, and most search steps its search spends on one
        #: board (None: its own defaults)
        self.als_chain_sets: int | None = None
        self.als_chain_steps: int | None = None
        #: most search steps of a Franken or Mutant fish search (None: its own default)
        self.fish_steps: int | None = None
        #: largest Franken or Mutant fish searched, 2 to 7 (None: its own default, 4)
        self.fish_size: int | None = None
        #: the almost locked sets of the last board seen (key, sets)
        self.als: tuple[tuple[object, ...], list[Any]] | None = None
        #: what the ALS searches derive from those sets (their links), by name
        self.als_derived: dict[object, Any] = {}
        self.barren = Barren()
        #: :func:`value_cells` of the last candidates seen
        self.value_cells: tuple[tuple[int, ...], list[int]] | None = None
        #: what :func:`for_last_board` keeps: by slot, the last board seen and what was
        #: made for it (the houses' states, the uniqueness rectangles, the templates'
        #: agreements, the strong links and the graph of the chains through almost
        #: locked sets, the forcing chains' outcomes)
        self.last: dict[str, tuple[_BoardKey, Any]] = {}
        #: finned and sashimi fish of the last candidates seen, by fish size
        self.finned: dict[int, tuple[tuple[Shape, tuple[int, ...]], list[tuple[bool, Step]]]] = {}
        #: each value's templates (None: too many to list), by (shape, the value's cells,
        #: its placed cells)
        self.value_templates: dict[tuple[Shape, int, int], list[int] | None] = {}
        #: boards on which the AIC search (plain or grouped: reach 0 or 1) found no chain,
        #: with the candidates its search proved true by a chain from themselves: (board
        #: key, reach) -> those candidates as ``(cell mask, value)``
        self.aic_barren: dict[tuple[_BoardKey, int], frozenset[tuple[int, int]]] = {}

    def clear(self) -> None:
        """Forget everything (to time a search as if it had never run)."""
        self.__init__()  # type: ignore[misc]

    def check_time(self) -> None:
        """Raise :class:`~numberplace.errors.LimitError` once the solve's time is up: long
        searches call it as they go, so a time limit holds inside one step too."""
        self.deadline.check()


def _skipping(barren: Barren, keyed: Iterator[tuple[int, tuple[object, ...]]],
              search: Callable[[int], Iterator[T]]) -> Iterator[T]:
    """``search(i)`` for each (i, key), unless the key is known barren; a search that
    yields nothing makes its key barren."""
    for i, key in keyed:
        if key in barren:
            continue
        empty = True
        for item in search(i):
            empty = False
            yield item
        if empty:
            barren.add(key)


def by_value(tag: str, board: Board, search: Callable[[int], Iterator[T]]) -> Iterator[T]:
    """``search(value)`` for every value in turn, skipping values whose candidate cells
    were already searched in vain by the technique ``tag``.

    ``search`` must depend on nothing but the shape and that value's candidate cells.
    """
    shape = board.shape
    masks = value_cells(board)
    return _skipping(board.memo.barren,
                     ((v, (tag, shape, v, masks[v])) for v in range(1, shape.size + 1)), search)


def house_states(board: Board) -> list[bytes]:
    """For each house, its cells' values and candidates packed into one bytes object.

    Bytes keep their hash once computed, so keys built of them are cheap to look up
    again; the last answer is kept, as for :func:`value_cells`.
    """
    return for_last_board(board, "house states", lambda: _house_states(board))


def _house_states(board: Board) -> list[bytes]:
    shape = board.shape
    values, cands = board.values, board.candidates
    # a placed value v is written as v << size, above every candidate mask
    size = shape.size
    code = [m if not v else v << size for v, m in zip(values, cands, strict=True)]
    return [array("L", [code[c] for c in h.cells]).tobytes() for h in shape.houses]


def for_last_board(board: Board, slot: str, make: Callable[[], T]) -> T:
    """``make()`` for this board, kept in its memo under ``slot`` for the last board seen:
    the finders tried in turn on one board share it."""
    memo = board.memo
    key = board_key(board)
    held = memo.last.get(slot)
    if held is not None and held[0] == key:
        return cast(T, held[1])
    out = make()
    memo.last[slot] = (key, out)
    return out


def by_houses(tag: str, board: Board, groups: Sequence[Sequence[int]],
              search: Callable[[int], Iterator[T]]) -> Iterator[T]:
    """``search(i)`` for every group of houses ``groups[i]`` in turn, skipping groups
    whose houses (values and candidates) were already searched in vain by ``tag``.

    ``search(i)`` must depend on nothing but the shape and the cells of the houses in
    ``groups[i]``.
    """
    shape = board.shape
    states = house_states(board)
    keyed = ((i, (tag, shape, i, *[states[h] for h in hs])) for i, hs in enumerate(groups))
    return _skipping(board.memo.barren, keyed, search)


def by_house(tag: str, board: Board, search: Callable[[int], Iterator[T]]) -> Iterator[T]:
    """:func:`by_houses` over single houses: ``search(h)`` may read only house h's cells."""
    return by_houses(tag, board, [(h,) for h in range(len(board.shape.houses))], search)
