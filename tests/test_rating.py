"""Rating: our levels, the Explainer-scale difficulty and the book's score."""

from __future__ import annotations

import statistics

import pytest

from numberplace import formats
from numberplace.errors import NumberplaceError
from numberplace.logic import REGISTRY
from numberplace.logic.driver import BACKTRACK, BRUTE_FORCE
from numberplace.logic.rating import (
    BOOK_LEVELS,
    LEVELS,
    add_explainer_difficulty,
    book_level,
    book_score,
    level_by,
    level_of,
    rate,
    step_difficulty,
)
from numberplace.logic.step import Step
from numberplace.store.serialize import rating_fields

from conftest import BOOK_PUZZLES, data_lines


def test_every_technique_has_a_level_and_a_value() -> None:
    assert len(LEVELS) >= 6
    assert [lv.name for lv in LEVELS[:4]] == [name for name, *_ in BOOK_LEVELS]
    assert [lv.number for lv in LEVELS] == list(range(1, len(LEVELS) + 1))
    for technique in REGISTRY:
        assert level_of(technique.name).number == technique.level >= 1
        assert 1.0 <= technique.value < 10
    assert sorted(REGISTRY.rating_order()) == sorted(t.name for t in REGISTRY.logical())
    # harder levels hold harder techniques on the Explainer scale, on the whole
    means = [statistics.fmean(REGISTRY.get(t).value for t in lv.techniques) for lv in LEVELS]
    assert means == sorted(means)


def test_level_by_name_or_number() -> None:
    assert level_by("1").name == "Easy"
    assert level_by("extremely difficult").number == 4
    assert level_by(6).name == LEVELS[5].name == "Trial and Error"
    with pytest.raises(NumberplaceError, match="unknown level"):
        level_by("impossible")


def test_book_score_counts_cells_and_steps() -> None:
    steps = [Step("Naked Single", placements=((0, 1),)),
             Step("Hidden Single", placements=((1, 2),)),
             Step("Naked Pair", eliminations=((2, 3), (3, 3))),
             Step("Naked Triple", eliminations=((4, 3),)),
             Step(BRUTE_FORCE, placements=((5, 1),)), Step(BACKTRACK, eliminations=((5, 1),))]
    assert book_score(steps) == 1 + 2 + 3 + 4 + 5 + 5
    assert [book_level(s) for s in (40, 44, 47, 48, 51, 55, 58, 85, 87, 114, 300)] == [
        "Easy", "Easy", "Easy", "Medium", "Medium", "Difficult", "Difficult", "Difficult",
        "Extremely Difficult", "Extremely Difficult", "Extremely Difficult"]


def test_the_book_figure_1_7_scores_one_point_per_empty_cell() -> None:
    puzzle = formats.parse(BOOK_PUZZLES[1])
    r = rate(puzzle)
    empty = puzzle.givens.count(0)
    assert r.status == "unique" and r.level == "Easy" and r.level_number == 1
    assert r.book_score == empty  # CRME alone: one point per confirmed cell
    assert r.book_level == "Easy" and r.guesses == 0
    assert r.difficulty is not None and r.difficulty <= 2.3


@pytest.mark.parametrize("text, status", [
    ("." * 81, "multiple"),
    ("55" + "." * 79, "invalid"),
    ("123456789" * 0 + "12345678." + "........9" + "." * 63, "none"),
])
def test_unsound_puzzles_are_not_rated(text: str, status: str) -> None:
    r = rate(formats.parse(text))
    assert r.status == status
    assert r.level is None and r.level_number == 0 and r.difficulty is None
    assert r.book_score is None and rating_fields(r)["level"] is None


def test_hidden_singles_in_a_box_rate_lower_than_in_a_line() -> None:
    single = Step("Hidden Single", placements=((0, 1),), houses=(0,))
    assert step_difficulty(single, "box") == 1.2
    assert step_difficulty(single, "row") == 1.5
    chain = Step("X-Chain", chain_length=10)
    assert step_difficulty(chain, None) > REGISTRY.get("X-Chain").value


@pytest.mark.slow
def test_harder_sets_rate_harder() -> None:
    easy = [rate(formats.parse(x)) for x in data_lines("kaggle_like_10k.txt", 20)]
    hard = [rate(formats.parse(x)) for x in data_lines("magictour_top1465.txt", 8)]
    assert all(r.status == "unique" and r.level == "Easy" for r in easy)
    assert statistics.fmean(r.level_number for r in hard) >= 3
    assert max(r.difficulty or 0 for r in easy) < min(r.difficulty or 0 for r in hard)
    assert max(r.book_score or 0 for r in easy) < min(r.book_score or 0 for r in hard)
    # the hardest of them need forcing chains, valued above 9 as the Explainer values
    # them, and none needs a guess
    assert any(r.level == "Trial and Error" for r in hard)
    assert max(r.difficulty or 0 for r in hard) >= 9.0
    assert not any(r.guesses for r in hard)


def test_the_explainer_path_can_be_left_out_and_added_later() -> None:
    # the W-Wing puzzle of the README: our path values its W-Wing 7.0, while the
    # Explainer (which has no W-Wing) gets there by a 6.8 chain, as its serate rates it
    puzzle = formats.parse("15..9...64......38......17...62..7...3.........78.3....1....2......2."
                           "8.1..47...6.")
    ours = rate(puzzle, book=False, explainer=False)
    assert (ours.hardest, ours.difficulty) == ("W-Wing", 7.0)
    add_explainer_difficulty(ours, puzzle)
    assert ours.difficulty == rate(puzzle, book=False).difficulty == 6.8


def test_grids_larger_than_9x9_keep_our_own_paths_value(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    from numberplace.engine.grids import random_grid
    from numberplace.logic import rating
    from numberplace.model.puzzle import Puzzle
    from numberplace.model.shape import by_name

    def refuse(*_: object) -> None:
        raise AssertionError("the Explainer's path was followed")

    shape = by_name("16x16")
    solution = random_grid(shape, seed=3)
    puzzle = Puzzle(shape, tuple(0 if c % 7 == 0 else v for c, v in enumerate(solution)))
    monkeypatch.setattr(rating, "explainer_difficulty", refuse)
    got = rate(puzzle, book=False)
    assert got.status == "unique" and got.difficulty == rate(
        puzzle, book=False, explainer=False).difficulty
    # a 9x9 one does follow it
    with pytest.raises(AssertionError, match="followed"):
        rate(formats.parse(data_lines("kaggle_like_10k.txt", 1)[0]), book=False)


def test_the_scale_is_checked_and_labels_agree() -> None:
    line = data_lines("magictour_top1465.txt")[4]
    with pytest.raises(NumberplaceError, match="unknown scale 'classic'; scales: explainer"):
        rate(line, scale="classic")
    with pytest.raises(TypeError, match="scale must be"):
        rate(line, scale=2)  # type: ignore[arg-type]
    r = rate(line, book=False, scale="Explainer")
    # the hardest technique is the one that decided the level; the Explainer's hardest
    # step is named apart
    assert r.hardest is not None and level_of(r.hardest).number == r.level_number
    assert r.explainer_hardest == "Hidden Pair" and r.difficulty == 3.4
