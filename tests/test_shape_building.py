"""The quick ways shapes are built give what the step by step ways give, errors included."""

from __future__ import annotations

import pickle
import random

import pytest

from numberplace import ShapeError, classic, diagonal, jigsaw, samurai
from numberplace.model import shape as shapes
from numberplace.model.shape import Cage, KakuroSquare, Shape, killer

PENTOMINO_5X5 = "AAABB\nAABBB\nCCCDD\nCCDDE\nEEEDE"


def _layout(rng: random.Random) -> list[list[KakuroSquare]]:
    """A layout whose clues mostly fit its runs, with now and then a fault."""
    h, w = rng.randint(1, 11), rng.randint(1, 11)
    white = [[r > 0 and c > 0 and rng.random() < 0.7 for c in range(w)] for r in range(h)]

    def run(r: int, c: int, dr: int, dc: int) -> int:
        k = 0
        while r + dr * (k + 1) < h and c + dc * (k + 1) < w and white[r + dr * (k + 1)][
                c + dc * (k + 1)]:
            k += 1
        return k

    def total(k: int) -> int | None:
        if k == 0 or rng.random() < 0.01:
            return 5 if rng.random() < 0.01 else None
        low, high = k * (k + 1) // 2, k * (19 - k) // 2
        if rng.random() < 0.01:
            return rng.choice([low - 1, high + 1])
        return rng.randint(low, high) if low <= high else rng.randint(1, 60)

    rows: list[list[KakuroSquare]] = []
    for r in range(h):
        row: list[KakuroSquare] = []
        for c in range(w):
            if white[r][c]:
                row.append(None)
            else:
                square = (total(run(r, c, 1, 0)), total(run(r, c, 0, 1)))
                if rng.random() < 0.01:
                    square = (True, None) if rng.random() < 0.5 else (3,)  # type: ignore[assignment]
                row.append(square)
        if rng.random() < 0.01:
            row.append(None)
        rows.append(row)
    return rows


def _built(make: object) -> tuple[object, ...]:
    try:
        s = make()  # type: ignore[operator]
    except (ShapeError, TypeError, ValueError, IndexError) as exc:
        return (type(exc).__name__, str(exc))
    assert isinstance(s, Shape)
    return (s.name, s.size, s.canvas, s.coords, s.houses, s.cages, s.peers, s.houses_of,
            s.cages_of)


def test_a_kakuro_built_in_one_pass_equals_one_built_step_by_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    layouts = [_layout(rng) for _ in range(3000)]
    quick = [_built(lambda lay=lay: shapes.kakuro(lay)) for lay in layouts]
    monkeypatch.setattr(shapes, "_kakuro_fast", lambda rows: None)
    slow = [_built(lambda lay=lay: shapes.kakuro(lay)) for lay in layouts]
    assert quick == slow
    made = sum(isinstance(q[0], str) and q[0].startswith("kakuro-") for q in quick)
    assert 300 < made < 2900  # both shapes and faults were tried


def test_a_killer_on_a_checked_base_equals_one_checked_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    bases = [classic(4), classic(6), classic(9), diagonal(classic(9)), jigsaw(PENTOMINO_5X5),
             samurai()]
    trials = []
    for _ in range(600):
        base = rng.choice(bases)
        cages = []
        for _ in range(rng.randint(0, 6)):
            k = rng.randint(0, base.size + 1)
            cells = [rng.randrange(-1 if rng.random() < 0.02 else 0, base.ncells + 1
                                   if rng.random() < 0.02 else base.ncells) for _ in range(k)]
            total = rng.choice([None, rng.randint(0, k * base.size + 2)])
            cages.append((cells, total))
        trials.append((base, cages))
    quick = [_built(lambda b=b, c=c: killer(b, c)) for b, c in trials]
    monkeypatch.setattr(shapes, "_is_checked", lambda shape: False)
    slow = [_built(lambda b=b, c=c: killer(b, c)) for b, c in trials]
    assert quick == slow
    assert 50 < sum(q[0] != "ShapeError" for q in quick) < 550


def test_peers_are_the_cells_sharing_a_house_or_a_cage() -> None:
    base = classic(9)
    made = killer(base, [((0, 1, 10), 8), ((30, 40, 50, 60), None), ((80,), 9)])
    for shape in (base, made, samurai(), jigsaw(PENTOMINO_5X5)):
        groups = [h.cells for h in shape.houses] + [c.cells for c in shape.cages]
        for cell in range(shape.ncells):
            expected = sorted({x for g in groups if cell in g for x in g} - {cell})
            assert shape.peers[cell] == tuple(expected)


def test_cages_are_values() -> None:
    made = Cage((1, 2), 3, (0, 0), "across run of r1c1")
    same = Cage(cells=(1, 2), total=3, clue=(0, 0), label="across run of r1c1")
    assert made == same and hash(made) == hash(same) and made is not same
    assert made != Cage((1, 2), 4, (0, 0), "across run of r1c1")
    assert str(made) == "across run of r1c1"
    assert repr(made) == ("Cage(cells=(1, 2), total=3, clue=(0, 0), "
                          "label='across run of r1c1', repeats=False)")
    assert made.replace(total=4) == Cage((1, 2), 4, (0, 0), "across run of r1c1")
    with pytest.raises(TypeError, match="no field 'sum'"):
        made.replace(sum=4)
    with pytest.raises(AttributeError, match="Cage is immutable"):
        made.total = 4  # type: ignore[misc]
    with pytest.raises(AttributeError, match="Cage is immutable"):
        del made.label
    assert pickle.loads(pickle.dumps(made)) == made
