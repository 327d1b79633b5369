"""Kakuro and Killer puzzles at a level: the kind and size a name asks for
(:func:`sums_kind`), the levels each kind is made at (:data:`SUM_LEVELS`), and
:func:`generate_sums`, which draws puzzles from :mod:`numberplace.generate.sumgen` until one
rates at the level."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from .. import arguments, engine
from ..errors import LimitError, NumberplaceError, ShapeError
from ..formats._common import counted
from ..limits import Deadline
from ..logic.rating import LEVELS, level_by, rate
from ..model.shape import Shape, by_name, classic
from . import sumgen
from .made import Generated

#: The levels a Kakuro and a Killer can be asked for. Their techniques reach level 3;
#: harder ones need Sudoku's chains or trial and error, which random cages rarely call for.
SUM_LEVELS: dict[str, tuple[int, ...]] = {"kakuro": (1, 2, 3), "killer": (1, 2, 3)}
#: The largest Killer cage drawn for each level: bigger cages say less, so need more.
_KILLER_CAGE = {1: 3, 2: 5, 3: 6}
_SUMS_NAME = re.compile(r"(kakuro|killer)(?:-(\d+)(?:x(\d+))?)?")


@dataclass(frozen=True)
class SumsKind:
    """What :func:`generate_sums` makes: a Kakuro of ``rows`` x ``cols`` squares, or a
    Killer on the Sudoku shape ``base``."""

    kind: str
    rows: int = 0
    cols: int = 0
    base: Shape | None = None

    def __str__(self) -> str:
        if self.kind == "kakuro":
            return f"kakuro-{self.rows}x{self.cols}"
        assert self.base is not None
        return f"killer-{self.base.name}"


def sums_kind(name: str) -> SumsKind | None:
    """``kakuro`` (10x10), ``kakuro-15x15``, ``kakuro-12x20``, ``killer`` (on 9x9) or
    ``killer-6x6`` (any Sudoku shape's name after ``killer-``); None for other names."""
    key = arguments.text(name, "name").strip().lower()
    if key.startswith("killer-") and not _SUMS_NAME.fullmatch(key):
        try:
            return SumsKind("killer", base=by_name(key[len("killer-"):]))
        except ShapeError as exc:
            raise NumberplaceError(f"{name}: {exc}") from None
    m = _SUMS_NAME.fullmatch(key)
    if m is None:
        return None
    if m.group(1) == "killer":
        if m.group(3) and m.group(3) != m.group(2):
            raise NumberplaceError(f"{name}: a Killer's grid is square")
        return SumsKind("killer", base=classic(int(m.group(2)) if m.group(2) else 9))
    rows = int(m.group(2) or 10)
    cols = int(m.group(3) or rows)
    if not (6 <= rows <= 30 and 6 <= cols <= 30):
        raise NumberplaceError(f"{name}: a Kakuro is made from 6x6 to 30x30 squares")
    return SumsKind("kakuro", rows, cols)


def check_sums_level(kind: SumsKind, level: int | str | None) -> int | None:
    """The level asked for, as a number, refused where the kind has no such level."""
    if level is None:
        return None
    if isinstance(level, bool) or not isinstance(level, (int, str)):
        raise TypeError(f"level must be a level's number or name, not "
                        f"{arguments.type_name(level)}")
    wanted = level_by(level)
    offered = SUM_LEVELS[kind.kind]
    if wanted.number not in offered:
        names = ", ".join(f"{n} ({LEVELS[n - 1].name})" for n in offered)
        raise NumberplaceError(f"a {kind.kind.capitalize()} is made at level {names}, not "
                               f"{wanted.number} ({wanted.name})")
    return wanted.number


def generate_sums(kind: SumsKind | str, *, level: int | str | None = None,
                  seed: int | None = None, max_attempts: int = 1000,
                  time_limit: float | None = None,
                  one_cell_cages: int = sumgen.ONE_CELL_CAGES) -> Generated:
    """A Kakuro or Killer with exactly one solution (both engines' search says so), rated,
    at ``level`` when one is asked (see :data:`SUM_LEVELS`). ``kind`` is a
    :class:`SumsKind` or its name (:func:`sums_kind`). Puzzles are drawn until one rates
    at the level; ``max_attempts`` and ``time_limit`` bound that (LimitError or
    NumberplaceError past them). A Killer has at most ``one_cell_cages`` cages of one
    cell (see :func:`~numberplace.generate.sumgen.generate_killer`). The same arguments
    and seed give the same puzzle.
    """
    if isinstance(kind, str):
        found = sums_kind(kind)
        if found is None:
            raise NumberplaceError(f"unknown kind {kind!r}; write kakuro, kakuro-RxC, killer "
                                   f"or killer-NxN")
        kind = found
    target = check_sums_level(kind, level)
    if seed is None:
        seed = random.randrange(2**32)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be a whole number, not {arguments.type_name(seed)}")
    max_attempts = arguments.whole(max_attempts, "max_attempts", 1)
    one_cell_cages = arguments.whole(one_cell_cages, "one_cell_cages", 0, 10_000)
    time_limit = arguments.seconds(time_limit)
    deadline = Deadline(time_limit)
    rng = random.Random(seed)
    attempt = 0
    try:
        while attempt < max_attempts:
            attempt += 1
            draw = rng.randrange(2**32)
            made: sumgen.GeneratedKakuro | sumgen.GeneratedKiller
            if kind.kind == "kakuro":
                made = sumgen.generate_kakuro(kind.rows, kind.cols, seed=draw,
                                              deadline=deadline)
            else:
                assert kind.base is not None
                cage = _KILLER_CAGE.get(target or 2, sumgen.MAX_CAGE)
                # an easy Killer's cages mostly tell their digits by their sums
                made = sumgen.generate_killer(kind.base, seed=draw,
                                              max_cage=min(cage, kind.base.size),
                                              deadline=deadline,
                                              one_cell_cages=one_cell_cages,
                                              telling=target == 1)
            left = deadline.left()
            rating = rate(made.puzzle, book=False, time_limit=60.0 if left is None else left)
            if rating.status is not engine.Status.UNIQUE:
                continue
            if target is None or rating.level_number == target:
                return Generated(made.puzzle, made.solution, rating, seed, attempt)
    except LimitError as exc:
        if time_limit is None:
            raise
        asked = "" if target is None else " at the level asked"
        raise LimitError(f"no {kind}{asked} within the time limit of {time_limit:.3g} s "
                         f"({counted(attempt, 'puzzle')} drawn); allow more time") from exc
    raise NumberplaceError(f"no {kind} rated at level {target} in "
                           f"{counted(attempt, 'attempt')}; ask for another level, or allow "
                           f"more attempts")
