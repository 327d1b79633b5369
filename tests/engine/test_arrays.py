"""The arrays the compiled core is given: packed quickly, and the same as the slow way."""

from __future__ import annotations

import random
from array import array
from itertools import chain

import pytest

from numberplace import classic, diagonal, engine, jigsaw, native, samurai
from numberplace.engine.sums import combination_masks
from numberplace.model.shape import Shape, kakuro, killer

core = native.core
pytestmark = pytest.mark.skipif(core is None, reason="the compiled engine is not built")

LAYOUT = [[(None, None), (4, None), (10, None)],
          [(None, 3), None, None],
          [(None, 11), None, None]]


def _shapes() -> list[Shape]:
    base = classic(9)
    return [base, classic(4), classic(16), diagonal(base), samurai(),
            jigsaw("AAABB\nAABBB\nCCCDD\nCCDDE\nEEEDE"), kakuro(LAYOUT),
            killer(base, [((0, 1, 10), 8), ((30, 40, 50, 60), None), ((80,), 9)])]


@pytest.mark.parametrize("shape", _shapes(), ids=lambda s: s.name)
def test_the_core_finds_the_peers_shape_peers_lists(shape: Shape) -> None:
    groups = ([h.cells for h in shape.houses]
              + [c.cells for c in shape.cages])
    offsets, peers = core.peer_arrays(shape.ncells, groups)
    starts = [0]
    for p in shape.peers:
        starts.append(starts[-1] + len(p))
    assert offsets == array("i", starts).tobytes()
    assert peers == array("i", chain.from_iterable(shape.peers)).tobytes()


def test_packing_gives_what_array_gives() -> None:
    rng = random.Random(1)
    values = [rng.randint(-2**31, 2**31 - 1) for _ in range(500)]
    assert core.pack_int32(values) == array("i", values).tobytes()
    assert core.pack_int32(()) == b""
    groups = [tuple(rng.randrange(100) for _ in range(rng.randrange(5))) for _ in range(50)]
    offsets, cells = core.pack_groups(groups)
    assert cells == array("i", chain.from_iterable(groups)).tobytes()
    assert offsets == array("i", [0, *(sum(map(len, groups[:i + 1])) for i in
                                       range(len(groups)))]).tobytes()
    for bad in ([2**31], [1.5], ["1"]):
        with pytest.raises((OverflowError, TypeError)):
            core.pack_int32(bad)
    with pytest.raises(ValueError, match="out of range"):
        core.peer_arrays(3, [(0, 3)])


def test_the_table_of_digit_sets_is_the_combinations_in_their_order() -> None:
    # the function itself, not its cache: a cached (1, 2, 9) would answer (True, 2, 9) too
    masks = combination_masks.__wrapped__
    for n in range(1, 10):
        table = engine._digit_sets(n)
        for k in range(1, n + 1):
            for total in range(1, 50):
                assert table.get((total, k), ()) == masks(total, k, n)


def test_the_arrays_are_those_of_shape_peers_without_the_core_helpers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for shape in _shapes():
        engine._arrays.cache_clear()
        quick = engine._arrays(shape)
        monkeypatch.setattr(native, "core", None)  # the arrays packed in Python
        engine._arrays.cache_clear()
        engine._HOUSES.clear()
        assert engine._arrays(shape) == quick
        monkeypatch.undo()
    engine._arrays.cache_clear()
    engine._HOUSES.clear()


def test_cage_records_in_one_pass_are_those_of_the_cage_sums() -> None:
    for shape in [*_shapes(), killer(classic(16), [((0, 1, 2), 40), ((20, 21), None)])]:
        assert engine._cage_records(shape) == engine._sums_array(engine._cage_sums(shape))
