"""A request for a puzzle, checked before any work: the arguments of
:func:`~numberplace.generate.generate` (or of :func:`check_request`) of the right types,
naming what exists, and refused with the reason when no puzzle can meet them (a clue
range below the fewest givens a unique puzzle has, a technique harder than the level,
a recipe on a shape it is not for)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import arguments
from ..errors import NumberplaceError
from ..logic.rating import level_by
from ..logic.techniques import REGISTRY
from ..model.shape import Shape, classic
from .recipes import parse_pattern
from .symmetric import orbits

#: The fewest givens a puzzle with one solution can have, where it is known (9x9: McGuire,
#: Tugemann and Civario's exhaustive search, 2012); elsewhere n - 1 distinct symbols
#: must show, or the two missing ones could be swapped in any solution.
_FEWEST_CLUES = {"4x4": 4, "6x6": 8, "9x9": 17}
#: The Explainer-scale difficulties ratings give (guessing rates 9.0 and up to 11.9).
_DIFFICULTIES = (1.0, 11.9)


def check_request(shape: Shape | str | None = None, *, level: int | str | None = None,
                  symmetry: str = "rotate180", difficulty: tuple[float, float] | None = None,
                  needs: str | None = None, clues: tuple[int, int] | None = None,
                  minimal: bool = False, recipe: str | None = None,
                  pattern: str | None = None) -> None:
    """Refuse, before any work, a request that :func:`generate` would refuse (a wrong
    type, an unknown name, or what no puzzle can meet), with the reason."""
    checked_request(shape, level, symmetry, difficulty, needs, clues, minimal, recipe, pattern)


def checked_request(shape: Shape | str | None, level: int | str | None, symmetry: str,
                    difficulty: tuple[float, float] | None, needs: str | None,
                    clues: tuple[int, int] | None, minimal: bool, recipe: str | None,
                    pattern: str | None) -> Request:
    """The arguments of :func:`generate`, checked; a request that no puzzle can meet is
    refused with the reason."""
    shape = arguments.optional_shape(shape) or classic(9)
    if shape.cages:
        raise NumberplaceError("Kakuro and Killer puzzles are made from their kind, not a "
                               "shape: use generate_sums (numberplace generate --shape "
                               "kakuro-15x15 or killer-9x9)")
    if level is not None and (isinstance(level, bool) or not isinstance(level, (int, str))):
        raise TypeError(f"level must be a level's number or name, not "
                        f"{arguments.type_name(level)}")
    target = level_by(level).number if level is not None else None
    if arguments.text(symmetry, "symmetry") != "random":
        orbits(shape, symmetry)  # an unknown symmetry, or one the shape lacks, is refused
    if arguments.optional_text(recipe, "recipe") not in (None, "book"):
        raise NumberplaceError(f"unknown recipe {recipe!r}; known: book")
    if recipe == "book" and (shape.size != 9 or shape.ncells != 81):
        raise NumberplaceError("Programming Sudoku's recipe is for 9x9 puzzles")
    if recipe == "book" and (target is None or target > 4):
        raise NumberplaceError("Programming Sudoku's recipe needs --level 1 to 4")
    if needs is not None:
        technique = REGISTRY.get(arguments.text(needs, "needs"))
        needs = technique.name
        if target is not None and technique.level > target:
            raise NumberplaceError(f"{needs} is a level-{technique.level} technique: a "
                                   f"level-{target} puzzle never needs it")
    pattern = arguments.optional_text(pattern, "pattern")
    counts = parse_pattern(pattern, shape) if pattern is not None else None
    return Request(shape, target, symmetry, _difficulty_range(difficulty), needs,
                   _clue_range(clues, shape), bool(minimal), recipe, counts)


def _pair(value: object, name: str) -> tuple[object, object]:
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise TypeError(f"{name} must be a pair (low, high), not {value!r}")
    return value[0], value[1]


def _clue_range(clues: object, shape: Shape) -> tuple[int, int] | None:
    """A clue range that a puzzle of ``shape`` can have, or an error saying why not."""
    if clues is None:
        return None
    low, high = (arguments.whole(v, "clues", 0) for v in _pair(clues, "clues"))
    fewest = _FEWEST_CLUES.get(shape.name, shape.size - 1)
    if low > high:
        raise NumberplaceError(f"clues {low}-{high}: the low end is above the high end")
    if low > shape.ncells:
        raise NumberplaceError(f"clues {low}-{high}: a {shape.name} puzzle has "
                               f"{shape.ncells} cells")
    if high < fewest:
        raise NumberplaceError(f"clues {low}-{high}: no {shape.name} puzzle with one "
                               f"solution has fewer than {fewest} givens")
    return low, high


def _difficulty_range(difficulty: object) -> tuple[float, float] | None:
    """A difficulty range that ratings can fall in, or an error saying why not."""
    if difficulty is None:
        return None
    pair = _pair(difficulty, "difficulty")
    for v in pair:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"difficulty must be numbers, not {arguments.type_name(v)}")
    low, high = float(pair[0]), float(pair[1])  # type: ignore[arg-type]  # checked above
    if not low <= high:
        raise NumberplaceError(f"difficulty {low:g}-{high:g}: the low end is above the "
                               f"high end")
    if high < _DIFFICULTIES[0] or low > _DIFFICULTIES[1]:
        raise NumberplaceError(f"difficulty {low:g}-{high:g}: ratings go from "
                               f"{_DIFFICULTIES[0]:g} to {_DIFFICULTIES[1]:g}")
    return low, high


@dataclass
class Request:
    """What a puzzle must be (the arguments of :func:`generate`, checked)."""

    shape: Shape
    target: int | None
    symmetry: str
    difficulty: tuple[float, float] | None
    needs: str | None
    clues: tuple[int, int] | None
    minimal: bool
    recipe: str | None
    counts: list[int] | None
