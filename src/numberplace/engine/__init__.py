"""Exact search: first solution, counting up to a limit, enumeration, uniqueness.

Every call returns a :class:`Result` with a :class:`Status`, the solutions kept, and the
cost of the search (nodes, guesses, seconds). Searches are bounded by ``limit`` (solutions
to look for), ``node_limit`` and ``time_limit``; a search stopped by a budget ends
cleanly with status ``limit``.

Two back-ends give the same answers: the compiled core (``numberplace._core``, built by
pip when a C compiler is present) and the pure-Python reference. ``backend="python"`` or
the environment variable ``NUMBERPLACE_BACKEND=python`` selects the latter.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from functools import cache, lru_cache
from itertools import accumulate, chain, combinations
from typing import TYPE_CHECKING, NamedTuple, cast

from .. import arguments, native
from .._frozen import Frozen
from ..errors import LimitError, NumberplaceError
from ..limits import bounded
from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import House, Shape, classic, default_box
from ..native import available_backends, backend_name
from . import _pure
from .sums import combination_masks

if TYPE_CHECKING:
    from ..native import CompiledEngine


__all__ = [
    "Status", "Result", "BatchOutcome", "solve", "count", "first_solution", "is_unique",
    "solutions", "solve_batch", "solve_blob", "solve_values", "backend_name",
    "available_backends", "vector9", "propagate", "SumsProbe", "solve_lines", "LineBlock",
    "LineHole",
]


class Status(str, Enum):
    """What a search concluded."""

    UNIQUE = "unique"        #: exactly one solution (the whole tree was searched)
    MULTIPLE = "multiple"    #: two or more solutions
    NONE = "none"            #: no solution
    SOLVED = "solved"        #: a solution found with limit=1; uniqueness not checked
    LIMIT = "limit"          #: a node or time budget ran out before an answer (the count
    #: of solutions found so far is a lower bound)
    INVALID = "invalid"      #: the givens break a rule (two equal values in one house)

    def __str__(self) -> str:
        return self.value


class Result(Frozen):
    """The outcome of one search.

    ``count`` is the number of solutions found, at most the ``limit`` asked for; it is
    exact when the status is ``unique`` or ``none``. ``solutions`` holds the first ones
    found (as many as ``keep`` asked), each a tuple of cell values.
    """

    status: Status
    count: int
    solutions: tuple[tuple[int, ...], ...] = ()
    nodes: int = 0
    guesses: int = 0
    seconds: float = 0.0
    message: str = ""
    backend: str = ""
    _uncompared = ("backend",)  # the same outcome from either engine is the same result

    @property
    def solution(self) -> tuple[int, ...] | None:
        """The first solution found, or None."""
        return self.solutions[0] if self.solutions else None


def status_of(count: int, limit: int, aborted: bool) -> Status:
    """The status implied by a search that found ``count`` solutions of at most ``limit``;
    ``aborted`` when its budget ran out first (then the count is only a lower bound)."""
    if aborted:
        return Status.LIMIT
    if count >= 2:
        return Status.MULTIPLE
    if count == 0:
        return Status.NONE
    return Status.SOLVED if limit == 1 else Status.UNIQUE


def vector9() -> bool:
    """Whether plain 9x9 searches take the compiled core's vector form (processors with
    AVX-512; ``NUMBERPLACE_VECTOR9=0`` keeps the scalar form). Both give the same answers;
    only node counts differ."""
    return bool(native.core is not None and native.core.vector9())


@lru_cache(maxsize=64)
def _geometry(shape: Shape) -> _pure.Geometry:
    houses = _house_cells(shape.houses)
    return _pure.Geometry(shape.ncells, (1 << shape.size) - 1, shape.peers, houses,
                          _intersections(houses), _cage_sums(shape))


@lru_cache(maxsize=64)
def _cage_sums(shape: Shape) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Each cage with a sum: its cells and the digit sets that make the sum."""

    n = shape.size
    table = _digit_sets(n) if n <= _TABLE_DIGITS else {}
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for cage in shape.cages:
        total = cage.total
        if cage.repeats and total is not None:  # its digits may repeat: no digit sets
            out.append((cage.cells, (-total,)))
        elif total is not None:
            k = len(cage.cells)
            sets = table.get((total, k))
            out.append((cage.cells, combination_masks(total, k, n) if sets is None else sets))
    return tuple(out)


def _cage_records(shape: Shape) -> bytes:
    """The compiled engine's cage records (as :func:`_sums_array` writes them), in one
    pass over the cages."""

    n = shape.size
    table = _digit_sets(n) if n <= _TABLE_DIGITS else {}
    out: list[int] = []
    for cage in shape.cages:
        total = cage.total
        if cage.repeats and total is not None:  # one "set", minus the sum, marks it
            out += (len(cage.cells), 1)
            out += cage.cells
            out.append(-total)
        elif total is not None:
            cells = cage.cells
            k = len(cells)
            sets = table.get((total, k))
            if sets is None:
                sets = combination_masks(total, k, n)
            out += (k, len(sets))
            out += cells
            out += sets
    return _int32s(out)


#: Up to this many digits, every set of them is listed at once (2**9 sets for 9 digits).
_TABLE_DIGITS = 9


@cache
def _digit_sets(n: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """Every set of different digits from 1 to n as a mask, by (total, number of digits),
    in the order of :func:`numberplace.engine.sums.combination_masks`: the sets' digits read as
    sorted lists, in increasing order. Listing them all once costs less than finding the
    sets of a few dozen sums one by one, which a first Kakuro would do."""
    found: dict[tuple[int, int], list[int]] = {}
    for k in range(1, n + 1):
        for digits in combinations(range(n), k):  # bit v-1 for digit v
            mask = 0
            for bit in digits:
                mask |= 1 << bit
            found.setdefault((sum(digits) + k, k), []).append(mask)
    return {key: tuple(masks) for key, masks in found.items()}


class _Houses:
    """What the engines need of a shape's houses, worked out once for all the shapes that
    share them (every Killer on one base does)."""

    __slots__ = ("houses", "cells", "arrays")

    def __init__(self, houses: tuple[House, ...], cells: tuple[tuple[int, ...], ...]) -> None:
        self.houses = houses  # held, so their id is not reused while this lives
        self.cells = cells
        #: the compiled engine's houses and house pairs, once asked for
        self.arrays: tuple[bytes, bytes] | None = None


_HOUSES: dict[int, _Houses] = {}


def _houses(houses: tuple[House, ...]) -> _Houses:
    """The entry of these houses, found by their identity (a look-up by value would hash
    every cell of every house on each call)."""
    hit = _HOUSES.get(id(houses))
    if hit is not None and hit.houses is houses:
        return hit
    if len(_HOUSES) >= 64:
        _HOUSES.clear()
    made = _HOUSES[id(houses)] = _Houses(houses, tuple(h.cells for h in houses))
    return made


def _house_cells(houses: tuple[House, ...]) -> tuple[tuple[int, ...], ...]:
    """The cells of each house."""
    return _houses(houses).cells


@lru_cache(maxsize=64)
def _intersections(houses: tuple[tuple[int, ...], ...]
                   ) -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    # every Killer on one base shares its houses: their pairs are found once
    return _pure.intersections(houses)


def _int32s(values: Sequence[int]) -> bytes:
    """Whole numbers as the compiled core reads its arrays (native 32-bit ints)."""
    if native.core is not None:
        return native.core.pack_int32(values)
    return array("i", values).tobytes()


def _groups(groups: Sequence[Sequence[int]]) -> tuple[bytes, bytes]:
    """Groups of cells as the compiled core reads them: where each group starts (and
    where the last ends), and every group's cells one after the other."""
    if native.core is not None:
        return native.core.pack_groups(groups)
    return (array("i", [0, *accumulate(map(len, groups))]).tobytes(),
            array("i", chain.from_iterable(groups)).tobytes())


def _sums_array(sums: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]) -> bytes:
    out: list[int] = []
    for cells, sets in sums:
        out += (len(cells), len(sets))
        out += cells
        out += sets
    return _int32s(out)


def _house_arrays(entry: _Houses) -> tuple[bytes, bytes]:
    """The compiled engine's houses and house pairs, for every shape with these houses."""
    if entry.arrays is None:
        pairs: list[int] = []
        for shared, rest_a, rest_b in _intersections(entry.cells):
            pairs += (len(shared), len(rest_a), len(rest_b))
            pairs += shared
            pairs += rest_a
            pairs += rest_b
        entry.arrays = _groups(entry.cells)[1], _int32s(pairs)
    return entry.arrays


@lru_cache(maxsize=64)
def _arrays(shape: Shape) -> tuple[bytes, bytes, bytes, bytes]:
    """The compiled engine's arrays of a shape, but its sums: houses, peer offsets, peers
    and house pairs."""
    entry = _houses(shape.houses)
    houses, pairs = _house_arrays(entry)
    if native.core is not None:
        # the core works the peers out from the houses and cages, as Shape.peers does
        # (the search needs them only as arrays); a cage whose digits repeat makes none
        starts, peers = native.core.peer_arrays(shape.ncells, entry.cells + tuple(
            c.cells for c in shape.cages if not c.repeats))
        return houses, starts, peers, pairs
    starts, peers = _groups(shape.peers)
    return houses, starts, peers, pairs


@lru_cache(maxsize=64)
def _compiled(shape: Shape, specialised: bool = True) -> CompiledEngine:
    """The compiled engine of a shape; ``specialised=False`` keeps 9x9 puzzles on the
    general search too (for differential tests)."""
    assert native.core is not None  # asked for only where backend_name() is "c"
    houses, starts, peers, pairs = _arrays(shape)
    return native.core.Engine(shape.ncells, shape.size, houses, starts, peers,
                              specialised and shape.is_classic9, pairs, _cage_records(shape))


class SumsProbe:
    """The engine on one shape whose cage sums change from call to call.

    A generator tries thousands of sums on one layout; building a shape for each would
    cost far more than the search. Every call takes one total per cage of the shape (None:
    the cage's digits only differ), in the order of ``shape.cages``.
    """

    def __init__(self, shape: Shape, *, backend: str | None = None) -> None:
        self.shape = shape
        self.backend = backend_name(backend)
        self._base = _geometry(shape)
        self._records: dict[tuple[int, int], bytes] = {}

    def _check(self, totals: Sequence[int | None]) -> None:
        if len(totals) != len(self.shape.cages):
            raise NumberplaceError(f"{len(totals)} totals for {len(self.shape.cages)} cages")

    def _sums(self, totals: Sequence[int | None]
              ) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:

        cages = self.shape.cages
        return tuple((cage.cells, combination_masks(t, len(cage.cells), self.shape.size))
                     for cage, t in zip(cages, totals, strict=True) if t is not None)

    def _engine(self, totals: Sequence[int | None]) -> CompiledEngine:
        # the compiled records of each cage and total are kept: a generator asks for the
        # same ones thousands of times
        records = b"".join(self._record(k, t) for k, t in enumerate(totals) if t is not None)
        houses, starts, peers, pairs = _arrays(self.shape)
        assert native.core is not None  # the "c" back-end
        return native.core.Engine(self.shape.ncells, self.shape.size, houses, starts, peers,
                                  False, pairs, records)

    def _record(self, k: int, total: int) -> bytes:
        key = (k, total)
        if key not in self._records:

            cells = self.shape.cages[k].cells
            self._records[key] = _sums_array(
                ((cells, combination_masks(total, len(cells), self.shape.size)),))
        return self._records[key]

    def propagate(self, totals: Sequence[int | None]) -> tuple[int, ...] | None:
        """The candidates after propagation alone (see :func:`propagate`)."""
        self._check(totals)
        givens = bytes(self.shape.ncells)
        if self.backend == "c":
            blob = self._engine(totals).propagate(givens, None)
            return None if blob is None else tuple(array("I", blob))
        geo = self._base.with_sums(self._sums(totals))
        board = _pure.propagate(geo, givens)
        return None if board is None else tuple(board)

    def solve(self, totals: Sequence[int | None], *, limit: int = 2, keep: int = 1,
              node_limit: int = 0) -> Result:
        """Search the empty grid under these totals, as :func:`solve` does."""
        self._check(totals)
        n = self.shape.ncells
        start = time.perf_counter()
        if self.backend == "c":
            found, aborted, blob, nodes, guesses = self._engine(totals).solve(
                bytes(n), None, limit, keep, node_limit, 0.0)
            sols = tuple(tuple(blob[i:i + n]) for i in range(0, len(blob), n))
        else:
            out = _pure.search(self._base.with_sums(self._sums(totals)), (0,) * n,
                               limit=limit, keep=keep, node_limit=node_limit)
            found, aborted, sols, nodes, guesses = (out.count, out.aborted,
                                                    tuple(out.solutions), out.nodes,
                                                    out.guesses)
        return Result(status_of(found, limit, bool(aborted)), found, sols, nodes, guesses,
                      time.perf_counter() - start, backend=self.backend)


def _candidates_blob(puzzle: Puzzle) -> bytes | None:
    """A puzzle's pencil marks as the compiled core reads them (None: none given)."""
    return None if puzzle.candidates is None else array("I", puzzle.candidates).tobytes()


def _invalid(puzzle: Puzzle) -> Result | None:
    clashes = puzzle.clashes()
    if clashes:
        return Result(Status.INVALID, 0, message=puzzle.describe_clash(clashes[0]))
    return None


def _limits(limit: object, node_limit: object, time_limit: object
            ) -> tuple[int, int, float | None]:
    """The search limits, checked (see :mod:`numberplace.arguments`)."""
    return (arguments.whole(limit, "limit", 1, arguments.MAX_LIMIT),
            arguments.whole(node_limit, "node_limit"),
            bounded(arguments.seconds(time_limit)))


def solve(puzzle: Puzzle | str, *, limit: int = 2, keep: int = 1, node_limit: int = 0,
          time_limit: float | None = None, backend: str | None = None,
          on_solutions: Callable[[list[tuple[int, ...]]], object] | None = None) -> Result:
    """Search ``puzzle`` for up to ``limit`` solutions, keeping the first ``keep``.

    ``limit=2`` (the default) answers "is it unique?". ``node_limit`` (0: none) and
    ``time_limit`` (seconds, None: none) bound the search. Givens that clash give status
    ``invalid`` with a message naming both cells, before any search. With
    ``on_solutions``, every solution found is passed to it as the search goes, in lists
    of up to :data:`STREAM_BATCH`, and none is kept in the result: memory stays flat
    however many are asked for.
    """
    puzzle = arguments.puzzle(puzzle)
    limit, node_limit, time_limit = _limits(limit, node_limit, time_limit)
    keep = min(arguments.whole(keep, "keep", 0, arguments.MAX_LIMIT), limit)
    if on_solutions is not None and not callable(on_solutions):
        raise TypeError("on_solutions must be callable")
    which = backend_name(backend)
    bad = _invalid(puzzle)
    if bad is not None:
        return bad
    if on_solutions is not None:
        keep = min(STREAM_BATCH, limit)
    n = puzzle.shape.ncells
    if which == "c":
        compiled = _compiled(puzzle.shape)  # built once per shape, outside the timing
        cands = _candidates_blob(puzzle)
        batch = None if on_solutions is None else (
            lambda blob: on_solutions([tuple(blob[i:i + n]) for i in range(0, len(blob), n)]))
        start = time.perf_counter()
        found, aborted, blob, nodes, guesses = compiled.solve(
            bytes(puzzle.givens), cands, limit, keep, node_limit, time_limit or 0.0, batch)
        sols = tuple(tuple(blob[i:i + n]) for i in range(0, len(blob), n))
    else:
        geo = _geometry(puzzle.shape)
        start = time.perf_counter()
        out = _pure.search(geo, puzzle.givens, puzzle.candidates,
                           limit=limit, keep=keep, node_limit=node_limit,
                           time_limit=time_limit, on_batch=on_solutions)
        found, aborted, sols, nodes, guesses = (out.count, out.aborted, tuple(out.solutions),
                                                out.nodes, out.guesses)
    seconds = time.perf_counter() - start
    return Result(status_of(found, limit, bool(aborted)), found, sols, nodes, guesses,
                  seconds, backend=which)


def propagate(puzzle: Puzzle | str, *, backend: str | None = None) -> tuple[int, ...] | None:
    """The candidates of every cell (bit v-1 for value v) after the engine's propagation
    alone, without a guess: what its rules (singles, locked candidates, sums) settle. None
    if they find a contradiction. A puzzle they leave with one candidate per cell has
    exactly one solution."""
    puzzle = arguments.puzzle(puzzle)
    if _invalid(puzzle) is not None:
        return None
    if backend_name(backend) == "c":
        blob = _compiled(puzzle.shape).propagate(bytes(puzzle.givens), _candidates_blob(puzzle))
        return None if blob is None else tuple(array("I", blob))
    board = _pure.propagate(_geometry(puzzle.shape), puzzle.givens, puzzle.candidates)
    return None if board is None else tuple(board)


def propagate_masks(shape: Shape, masks: bytes, locked: bool = True) -> bytes | None:
    """The compiled core's propagation of a board given as masks (``shape.ncells``
    native uint32s, bit v-1 for value v; a cell with one bit holds that value): the masks
    it settles, or None on a contradiction. Singles and sums, and with ``locked`` locked
    candidates, as :func:`propagate`. For callers that propagate many boards of one
    shape (the step-by-step solver's forcing chains), when :func:`backend_name` is
    ``"c"``."""
    return cast("bytes | None", _compiled(shape).propagate(bytes(shape.ncells), masks, locked))


#: The caller's rule for cages with sums that :func:`settle` takes, and how such a rule
#: narrows the cells of a cage to the digits it found.
CageRule = _pure.CageRule
keep_only = _pure.keep_only


def settle(shape: Shape, masks: list[int], queue: list[int], *, locked: bool = True,
           cages: CageRule | None = None, eager: bool = False) -> bool:
    """The pure-Python engine's propagation of a board given as masks (a list, one per
    cell, bit v-1 for value v; a cell with one bit holds that value), in place: the
    values of the cells in ``queue`` leave their peers, and hidden singles are placed,
    until nothing changes; then ``cages``, the caller's rule for cages with sums (it
    narrows the masks, queues the cells it leaves with one candidate, and says whether
    it changed anything, None when the board broke), and with ``locked`` locked
    candidates, until no rule changes anything; with ``eager``, ``cages`` runs after
    every round of singles, not only once they run out (the outcome is the same). False
    on a contradiction. For callers that follow many assumptions on boards of one shape
    (the step-by-step solver's forcing chains) in Python."""
    return _pure.settle(_geometry(shape), masks, queue, locked, cages, eager=eager)


#: Solutions per call of ``on_solutions`` when a search streams them.
STREAM_BATCH = 256


def solve_givens(shape: Shape, givens: Sequence[int], *, limit: int = 2, keep: int = 0,
                 node_limit: int = 0, time_limit: float | None = None,
                 backend: str | None = None) -> tuple[Status, tuple[int, ...] | None]:
    """The status of ``givens`` (solutions counted up to ``limit``) and, with ``keep``,
    the first solution found. ``node_limit`` (0: none) and ``time_limit`` (seconds)
    bound the search.

    For callers making many calls (a generator adding or removing givens): no
    :class:`Puzzle` is built and no clash is named. Clashing givens have no solution.
    """
    limit, node_limit, time_limit = _limits(limit, node_limit, time_limit)
    keep = min(arguments.whole(keep, "keep", 0, arguments.MAX_LIMIT), 1)
    first: tuple[int, ...] | None = None
    if backend_name(backend) == "c":
        found, aborted, blob, _nodes, _guesses = _compiled(shape).solve(
            bytes(givens), None, limit, keep, node_limit, time_limit or 0.0)
        if blob:
            first = tuple(blob[:shape.ncells])
    else:
        out = _pure.search(_geometry(shape), tuple(givens), None, limit=limit, keep=keep,
                           node_limit=node_limit, time_limit=time_limit)
        found, aborted = out.count, out.aborted
        if out.solutions:
            first = tuple(out.solutions[0])
    return status_of(found, limit, bool(aborted)), first


def count(puzzle: Puzzle | str, limit: int = 2, *, keep: int = 1, node_limit: int = 0,
          time_limit: float | None = None, backend: str | None = None) -> Result:
    """Count solutions up to ``limit`` (default 2: unique or not). Keeps the first one."""
    return solve(puzzle, limit=limit, keep=keep, node_limit=node_limit, time_limit=time_limit,
                 backend=backend)


def first_solution(puzzle: Puzzle | str, *, node_limit: int = 0, time_limit: float | None = None,
                   backend: str | None = None) -> tuple[int, ...] | None:
    """The first solution the search finds, or None if there is none (or the budget ran
    out first)."""
    return solve(puzzle, limit=1, node_limit=node_limit, time_limit=time_limit,
                 backend=backend).solution


def is_unique(puzzle: Puzzle | str, *, node_limit: int = 0, time_limit: float | None = None,
              backend: str | None = None) -> bool:
    """True if the puzzle has exactly one solution (raises on an exhausted budget)."""
    result = solve(puzzle, limit=2, keep=0, node_limit=node_limit, time_limit=time_limit,
                   backend=backend)
    if result.status is Status.LIMIT:
        raise LimitError("the search budget ran out before uniqueness was decided")
    return result.status is Status.UNIQUE


def solutions(puzzle: Puzzle | str, limit: int = 1000, *, node_limit: int = 0,
              time_limit: float | None = None, backend: str | None = None
              ) -> list[tuple[int, ...]]:
    """All solutions, up to ``limit`` of them, in the order the search finds them."""
    return list(solve(puzzle, limit=limit, keep=limit, node_limit=node_limit,
                      time_limit=time_limit, backend=backend).solutions)


class BatchOutcome:
    """Per-puzzle arrays of one batch: solutions found, budget stops, costs, time."""

    __slots__ = ("counts", "aborted", "first", "nodes", "guesses", "nanoseconds")

    def __init__(self, counts: Sequence[int], aborted: Sequence[int], first: bytes,
                 nodes: Sequence[int], guesses: Sequence[int],
                 nanoseconds: Sequence[int]) -> None:
        self.counts = counts
        self.aborted = aborted
        self.first = first  #: first solution of each puzzle, ncells values each (0s: none)
        self.nodes = nodes
        self.guesses = guesses
        self.nanoseconds = nanoseconds


def solve_blob(shape: Shape, blob: bytes, *, limit: int = 2, keep_first: bool = True,
               node_limit: int = 0, time_limit: float | None = None,
               backend: str | None = None) -> BatchOutcome:
    """Solve many puzzles of one shape given as one byte string of cell values.

    ``blob`` holds ``ncells`` bytes per puzzle (values 0..n). This is the batch entry
    point: with the compiled core the whole batch crosses into C once. Clashing givens
    simply have no solution here; :func:`solve_batch` tells them apart.
    """
    shape = arguments.shape(shape)
    limit, node_limit, time_limit = _limits(limit, node_limit, time_limit)
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise TypeError(f"blob must be bytes, not {arguments.type_name(blob)}")
    n = shape.ncells
    if len(blob) % n:
        raise NumberplaceError(f"a batch of {shape.name} puzzles needs a multiple of {n} values")
    if backend_name(backend) == "c":
        cnt, ab, first, nodes, guesses, ns = _compiled(shape).solve_batch(
            blob, limit, int(keep_first), node_limit, time_limit or 0.0)
        return BatchOutcome(memoryview(cnt).cast("i"), ab, first, memoryview(nodes).cast("Q"),
                            memoryview(guesses).cast("Q"), memoryview(ns).cast("Q"))
    geo = _geometry(shape)
    out = BatchOutcome(array("i"), bytearray(), b"", array("Q"), array("Q"), array("Q"))
    firsts = bytearray()
    for i in range(0, len(blob), n):
        t0 = time.perf_counter_ns()
        r = _pure.search(geo, blob[i:i + n], None, limit=limit, keep=int(keep_first),
                         node_limit=node_limit, time_limit=time_limit)
        out.counts.append(r.count)  # type: ignore[attr-defined]
        out.aborted.append(int(r.aborted))  # type: ignore[attr-defined]
        if keep_first:
            firsts.extend(r.solutions[0] if r.solutions else bytes(n))
        out.nodes.append(r.nodes)  # type: ignore[attr-defined]
        out.guesses.append(r.guesses)  # type: ignore[attr-defined]
        out.nanoseconds.append(time.perf_counter_ns() - t0)  # type: ignore[attr-defined]
    out.first = bytes(firsts)
    return out


def solve_values(shape: Shape, blob: bytes, *, limit: int = 2, node_limit: int = 0,
                 time_limit: float | None = None, backend: str | None = None) -> list[Result]:
    """Results (first solution kept) for puzzles given as one byte string of cell values.

    Like :func:`solve_blob`, one engine call for the whole batch; puzzles without a
    solution are then checked for clashing givens, which get status ``invalid``.
    """
    out = solve_blob(shape, blob, limit=limit, node_limit=node_limit, time_limit=time_limit,
                     backend=backend)
    which = backend_name(backend)
    n = shape.ncells
    return [_found(shape, blob[k * n:(k + 1) * n], found, limit, bool(out.aborted[k]),
                   out.first[k * n:(k + 1) * n], out.nodes[k], out.guesses[k],
                   out.nanoseconds[k], which)
            for k, found in enumerate(out.counts)]


def _found(shape: Shape, givens: bytes, found: int, limit: int, aborted: bool,
           first: bytes | None, nodes: int, guesses: int, nanoseconds: int,
           backend: str) -> Result:
    """The Result of one puzzle of a batch (``first``: its first solution, None when not
    kept); one without a solution is checked for clashing givens, which make it
    ``invalid``."""
    if found == 0:
        bad = _invalid(Puzzle(shape, tuple(givens)))
        if bad is not None:
            return bad
    return Result(status_of(found, limit, aborted), found,
                  (tuple(first),) if found and first else (), nodes, guesses,
                  nanoseconds / 1e9, backend=backend)


class LineHole(NamedTuple):
    """A line :func:`solve_lines` left for the caller to write: ``puzzle`` and ``result``
    when it was read and searched, None when the line is not a plain puzzle of the shape
    (the caller reads it with the format readers)."""

    offset: int   #: where its text goes in the output
    line: int
    text: str     #: the line, stripped
    puzzle: Puzzle | None
    result: Result | None


class LineBlock(NamedTuple):
    """The output of :func:`solve_lines`: text (each record ends with a line end), how
    many puzzles ended ``unique``, ``multiple`` and ``solved`` in it, and the lines left
    to the caller, in order."""

    output: str
    counts: dict[str, int]
    holes: list[LineHole]


#: The text :func:`solve_lines` writes for each command.
LINE_COMMANDS = {"count": 0, "solve": 1, "check": 2}


@cache
def _line_tables(size: int) -> tuple[bytes, bytes]:
    """The character -> value table of one-line puzzles in the default alphabet (255:
    not read here) and the symbol of each value ("." for empty)."""
    symbols = Alphabet.default(size).symbols
    table = bytearray([255]) * 256
    for v, ch in enumerate(symbols, start=1):
        table[ord(ch)] = table[ord(ch.lower())] = v
    table[ord(".")] = 0
    # a 16x16 line with a 0 may be hexadoku (0-9, A-F): that is the format readers' call
    if size != 16:
        table[ord("0")] = 0
    return bytes(table), ("." + symbols).encode("ascii")


def solve_lines(shape: Shape, text: str | bytes, first_line: int = 1, *, command: str = "count",
                as_json: bool = False, write: bool = True, limit: int = 2,
                node_limit: int = 0, time_limit: float | None = None,
                backend: str | None = None) -> LineBlock | None:
    """Solve a block of lines of one-line puzzles of a classic ``shape`` (default
    alphabet), writing what the command line's ``command`` writes for each (``count``,
    ``solve`` or ``check``; a JSON record with ``as_json``): text in (ASCII ``str``,
    read in place, or ``bytes``), text out, in one call of the compiled core. The first
    line is numbered ``first_line``; blank lines and ``#`` comments are skipped.

    The common outcomes (unique, multiple, solved) are written; every other line (no
    solution, a search cut short, a complete grid to check, a line that is not a plain
    puzzle of the shape) is a :class:`LineHole` for the caller, and so is every puzzle
    when ``write`` is false. None when the compiled core is not in use.
    """
    shape = arguments.shape(shape)
    limit, node_limit, time_limit = _limits(limit, node_limit, time_limit)
    if command not in LINE_COMMANDS:
        raise ValueError(f"command must be one of {', '.join(LINE_COMMANDS)}, not {command!r}")
    which = backend_name(backend)
    if which != "c" or shape.cages or default_box(shape.size) is None \
            or shape != classic(shape.size):
        return None
    table, symbols = _line_tables(shape.size)
    mode = LINE_COMMANDS[command] | (4 if as_json else 0) | (0 if write else 8)
    output, unique, multiple, solved, raw = _compiled(shape).lines(
        text, first_line, table, symbols, mode, limit, node_limit, time_limit or 0.0)
    holes = []
    for offset, line, stripped, givens, found, aborted, nodes, guesses, ns, first in raw:
        if givens is None:
            holes.append(LineHole(offset, line, stripped, None, None))
            continue
        puzzle = Puzzle(shape, tuple(givens))
        holes.append(LineHole(offset, line, stripped, puzzle, _found(
            shape, givens, found, limit, bool(aborted), first, nodes, guesses, ns, which)))
    return LineBlock(output, {"unique": unique, "multiple": multiple, "solved": solved},
                     holes)


def solve_batch(puzzles: Iterable[Puzzle | str], *, limit: int = 2, node_limit: int = 0,
                time_limit: float | None = None, backend: str | None = None) -> list[Result]:
    """Solve many puzzles, keeping each one's first solution; results in input order.

    Puzzles of one shape without pencil marks are solved in a single call of the engine.
    """
    if isinstance(puzzles, (str, bytes)):
        raise TypeError("puzzles must be an iterable of puzzles, not one string")
    items = [arguments.puzzle(p, f"puzzles[{i}]") for i, p in enumerate(puzzles)]
    results: list[Result | None] = [None] * len(items)
    groups: dict[Shape, list[int]] = {}
    for i, p in enumerate(items):
        if p.candidates is None:
            groups.setdefault(p.shape, []).append(i)
        else:
            results[i] = solve(p, limit=limit, node_limit=node_limit, time_limit=time_limit,
                               backend=backend)
    for shape, idx in groups.items():
        found = solve_values(shape, b"".join(bytes(items[i].givens) for i in idx), limit=limit,
                             node_limit=node_limit, time_limit=time_limit, backend=backend)
        for i, r in zip(idx, found, strict=True):
            results[i] = r
    return results  # type: ignore[return-value]
