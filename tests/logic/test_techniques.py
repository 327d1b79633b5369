"""The technique table: one entry makes a technique known to the driver, rating,
explanations and the command line."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from numberplace import formats
from numberplace.cli import main
from numberplace.logic import REGISTRY, Board, Family, Step, Technique, solve_path
from numberplace.logic.rating import LEVELS, level_of, rate
from numberplace.logic.step import Role, cell_ref, make_step, value_ref
from numberplace.model.shape import Shape

from conftest import BOOK_PUZZLES

LAST_COPY = "Last Copy"


def find_last_copy(board: Board, shape: Shape) -> Iterator[Step]:
    """A made-up technique: a value placed n-1 times goes in the one cell left for it."""
    for value in range(1, shape.size + 1):
        if board.values.count(value) != shape.size - 1:
            continue
        cells = [c for c, m in enumerate(board.candidates) if m >> (value - 1) & 1]
        if len(cells) == 1:
            yield make_step(shape, LAST_COPY, f"the last {value_ref(value)} goes at "
                            f"{cell_ref(cells[0])}", placements=((cells[0], value),),
                            cells=(cells[0],), highlights=((Role.PLACED, cells[0], value),))


@pytest.fixture
def last_copy() -> Iterator[Technique]:
    technique = Technique(LAST_COPY, find_last_copy, Family.SINGLES, 1, 0.9)
    REGISTRY.add(technique, before="Full House")
    try:
        yield technique
    finally:
        REGISTRY.remove(LAST_COPY)
    assert LAST_COPY not in REGISTRY


def _techniques(steps: Sequence[Step]) -> set[str]:
    return {s.technique for s in steps}


def test_a_registered_technique_takes_part_in_paths_levels_and_ratings(
        last_copy: Technique) -> None:
    puzzle = formats.parse(BOOK_PUZZLES[1])
    path = solve_path(puzzle)
    assert path.status == "solved" and LAST_COPY in _techniques(path.steps)
    assert level_of(LAST_COPY).number == 1 and LAST_COPY in LEVELS[0].techniques
    # the easiest value of all: the rating's solve tries it first
    assert REGISTRY.rating_order()[0] == LAST_COPY
    rating = rate(puzzle)
    assert rating.steps[LAST_COPY] >= 1 and rating.level_number == 1


def test_a_registered_technique_is_asked_for_by_name_on_the_command_line(
        last_copy: Technique, tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    source = Path(str(tmp_path)) / "book.txt"
    source.write_text(BOOK_PUZZLES[1] + "\n")
    assert main(["explain", str(source), "--techniques", f"{LAST_COPY},Naked Single",
                 "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert f"{LAST_COPY}: the last" in out


def test_without_its_entry_the_technique_is_unknown() -> None:
    assert LAST_COPY not in REGISTRY
    with pytest.raises(Exception, match="unknown technique"):
        solve_path(formats.parse(BOOK_PUZZLES[1]), [LAST_COPY])


def test_the_table_is_one_order_with_book_names_and_the_rating_order_by_level() -> None:
    names = REGISTRY.names()
    assert names[:3] == ["Full House", "Naked Single", "Hidden Single"]
    assert len(names) == len(set(names))
    assert REGISTRY.get("CRME").name == "Naked Single"
    assert REGISTRY.get("twins").name == "Naked Pair"
    assert REGISTRY.book() == ["Naked Single", "Hidden Single", "Naked Pair", "Naked Triple"]
    levels = [REGISTRY.get(n).level for n in REGISTRY.rating_order()]
    assert levels == sorted(levels)
    with pytest.raises(Exception, match="already registered"):
        REGISTRY.add(REGISTRY.get("X-Wing"))
