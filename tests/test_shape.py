"""Shapes: the geometry every other layer relies on."""

from __future__ import annotations

import pytest

from numberplace import ShapeError, by_name, classic, diagonal, jigsaw, samurai
from numberplace.model.shape import default_box

PENTOMINO_5X5 = """\
AAABB
AABBB
CCCDD
CCDDE
EEEDE
"""


@pytest.mark.parametrize("size,box", [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)),
                                      (12, (3, 4)), (16, (4, 4)), (25, (5, 5))])
def test_classic_sizes_have_the_usual_boxes(size: int, box: tuple[int, int]) -> None:
    shape = classic(size)
    assert shape.box == box
    assert shape.ncells == size * size
    assert len(shape.houses) == 3 * size
    # every cell sees its row, column and box mates: 3(n-1) minus the overlaps
    br, bc = box
    assert {len(p) for p in shape.peers} == {3 * (size - 1) - (br - 1) - (bc - 1)}


def test_classic_9x9_peers_are_twenty() -> None:
    shape = classic(9)
    assert all(len(p) == 20 for p in shape.peers)
    assert shape.cell_name(0) == "r1c1"
    assert shape.cell_name(4 * 9 + 5) == "r5c6"
    assert shape.cell_name(4 * 9 + 5, "book") == "(6,5)"
    assert shape.parse_cell("r5c6") == 41


def test_shapes_are_cached_and_comparable() -> None:
    assert classic(9) is classic(9)
    assert by_name("9x9") == classic(9)
    assert by_name("6x6:3x2") != classic(6)
    assert hash(by_name("16x16")) == hash(classic(16))


def test_primes_need_jigsaw_regions() -> None:
    assert default_box(7) is None
    with pytest.raises(ShapeError, match="jigsaw"):
        classic(7)


def test_jigsaw_from_a_region_map() -> None:
    shape = jigsaw(PENTOMINO_5X5)
    assert shape.size == 5
    assert len(shape.houses) == 15
    assert {h.kind for h in shape.houses} == {"row", "column", "region"}


def test_jigsaw_rejects_uneven_regions() -> None:
    with pytest.raises(ShapeError, match="region"):
        jigsaw("AAAA\nABBB\nCCCD\nCDDD\n")


def test_diagonal_adds_two_houses() -> None:
    shape = diagonal(classic(9))
    diags = [h for h in shape.houses if h.kind == "diagonal"]
    assert [h.cells for h in diags] == [tuple(range(0, 81, 10)), tuple(range(8, 73, 8))]
    assert by_name("diagonal") is shape
    assert len(shape.peers[40]) == 20 + 12  # the centre lies on both diagonals


def test_samurai_geometry() -> None:
    shape = samurai()
    assert shape.ncells == 369
    assert shape.canvas == (21, 21)
    assert len(shape.grids) == 5
    assert len(shape.houses) == 5 * 27 - 4  # each shared box is one house
    centre = shape.cell_at[(6, 6)]  # top-left cell of the centre grid, in a shared box
    assert centre in shape.grids[0] and centre in shape.grids[2]
    assert len(shape.peers[centre]) == 20 + 12  # box mates shared, rows and columns twice
    assert (0, 9) not in shape.cell_at  # the gap between the two top grids


def test_unknown_shape_names_are_errors() -> None:
    for name in ("10x9", "huge", "jigsaw"):
        with pytest.raises(ShapeError):
            by_name(name)
