"""Every technique of the human-style solver, in one table.

A technique is known by one :class:`Technique` entry: its standard name, the finder that
looks for it, its family (the module it lives in), our level, its value on the Sudoku
Explainer scale, the programming book's name and points, whether it needs the puzzle to
have one solution, and (by its place in the table) the order in which the driver tries
it. The driver, rating, explanations and the command line read this table and nothing
else, so adding a technique means adding its finder to its family module and an entry
here. (Sudoku Explainer's own path, which takes some of these techniques in its own
order, is listed in :mod:`.explainer`.)

Two orders are read from it: the table's own (simplest first, as a person and Programming Sudoku
go: a naked single before a hidden single) for explanations and hints, and
:meth:`Registry.rating_order` (by level, then Explainer value) for rating, so that the
hardest step of a rated path shows the lowest level that suffices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from ..errors import NumberplaceError
from ..model.shape import Shape
from . import (
    als,
    cages,
    chains,
    coloring,
    complex_fish,
    fish,
    forcing,
    intersections,
    patterns,
    single_digit,
    singles,
    subsets,
    templates,
    uniqueness,
    wings,
)
from .board import Board
from .step import Step

Finder = Callable[[Board, Shape], Iterator[Step]]

#: Programming Sudoku's brute force: a guess, and the undoing of a guess that broke the board.
BRUTE_FORCE = "Brute Force"
BACKTRACK = "Backtrack"

#: Our level names, easiest first (level 1 is ``LEVEL_NAMES[0]``).
LEVEL_NAMES = ("Easy", "Medium", "Difficult", "Extremely Difficult", "Fiendish",
               "Trial and Error")


class Family(str, Enum):
    """Families of techniques, as HoDoKu groups them; each is one module."""

    SINGLES = "singles"
    CAGES = "cages"
    INTERSECTIONS = "intersections"
    PATTERNS = "patterns"
    SUBSETS = "subsets"
    FISH = "fish"
    SINGLE_DIGIT = "single digit patterns"
    WINGS = "wings"
    COLORING = "coloring"
    UNIQUENESS = "uniqueness"
    CHAINS = "chains"
    ALS = "almost locked sets"
    FORCING = "forcing chains"
    TEMPLATES = "templates"
    GUESSING = "guessing"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Technique:
    """One technique: see the module docs. ``finder`` is None for Programming Sudoku's guess and
    backtrack, which the driver makes itself when logic stalls."""

    name: str
    finder: Finder | None
    family: Family
    level: int
    value: float
    book_name: str = ""
    book_points: int = 0
    needs_uniqueness: bool = False


class Registry:
    """The techniques in the driver's order, looked up by name or by Programming Sudoku's name."""

    def __init__(self, techniques: Iterable[Technique]) -> None:
        self._items: list[Technique] = []
        self._by_name: dict[str, Technique] = {}
        for technique in techniques:
            self.add(technique)

    def __iter__(self) -> Iterator[Technique]:
        return iter(list(self._items))

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._find(name) is not None

    def add(self, technique: Technique, *, before: str | None = None) -> None:
        """Add a technique, last or just before the technique named ``before``."""
        if technique.name in self._by_name:
            raise NumberplaceError(f"technique {technique.name!r} is already registered")
        if not 1 <= technique.level <= len(LEVEL_NAMES):
            raise NumberplaceError(f"technique {technique.name!r}: level {technique.level} "
                                   f"is not in 1..{len(LEVEL_NAMES)}")
        at = len(self._items) if before is None else self._items.index(self.get(before))
        self._items.insert(at, technique)
        self._by_name[technique.name] = technique

    def remove(self, name: str) -> None:
        """Take a technique out of the table."""
        technique = self.get(name)
        self._items.remove(technique)
        del self._by_name[technique.name]

    def get(self, name: str) -> Technique:
        """The technique of a standard name or a book name (``CRME``, ``Twins``, ...)."""
        found = self._find(name)
        if found is None:
            raise NumberplaceError(f"unknown technique {name!r}; known: "
                                   f"{', '.join(self.names())}")
        return found

    def _find(self, name: str) -> Technique | None:
        found = self._by_name.get(name)
        if found is None:
            found = next((t for t in self._items if t.finder is not None
                          and t.book_name and t.book_name.lower() == name.lower()), None)
        return found

    def names(self) -> list[str]:
        """Every technique's name, in the driver's order (guessing last)."""
        return [t.name for t in self._items]

    def logical(self) -> list[Technique]:
        """The techniques with a finder, in the driver's order."""
        return [t for t in self._items if t.finder is not None]

    def finders(self, names: Sequence[str] | None = None, unique: bool = False
                ) -> list[Finder]:
        """The finders of ``names`` (all logical techniques when None), in that order.
        Techniques that need a unique puzzle take part only with ``unique``."""
        chosen = self.logical() if names is None else [self.get(n) for n in names]
        return [t.finder for t in chosen
                if t.finder is not None and (unique or not t.needs_uniqueness)]

    def of_family(self, family: Family) -> list[Technique]:
        """A family's techniques, in the driver's order."""
        return [t for t in self._items if t.family is family]

    def of_level(self, level: int) -> list[Technique]:
        """A level's techniques, in the driver's order."""
        return [t for t in self._items if t.level == level]

    def rating_order(self) -> list[str]:
        """Logical techniques by level, then by Explainer value (ties: driver order)."""
        return [t.name for t in sorted(self.logical(), key=lambda t: (t.level, t.value))]

    def book(self) -> list[str]:
        """The programming book's logical techniques, in its order (by its points)."""
        return [t.name for t in sorted((t for t in self.logical() if t.book_points),
                                       key=lambda t: t.book_points)]


def _table() -> list[Technique]:
    s, i, p, sub = Family.SINGLES, Family.INTERSECTIONS, Family.PATTERNS, Family.SUBSETS
    f, d, w, col = Family.FISH, Family.SINGLE_DIGIT, Family.WINGS, Family.COLORING
    u, ch, a, fc = Family.UNIQUENESS, Family.CHAINS, Family.ALS, Family.FORCING
    g, tp = Family.CAGES, Family.TEMPLATES
    T = Technique
    return [
        T("Full House", singles.find_full_house, s, 1, 1.0),
        T("Naked Single", singles.find_naked_single, s, 1, 2.3, "CRME", 1),
        T("Hidden Single", singles.find_hidden_single, s, 1, 1.5, "Lone Ranger", 2),
        # sums (Kakuro, Killer): nothing to find, at once, on shapes without them
        T(cages.UNIQUE_COMBINATION, cages.find_unique_combination, g, 1, 2.4),
        T(cages.CAGE_COMBINATIONS, cages.find_cage_combinations, g, 1, 2.5),
        T(cages.REQUIRED_DIGIT, cages.find_required_digit, g, 2, 2.7),
        T(cages.INNIE_OUTIE, cages.find_innie_outie, g, 2, 2.9),
        T(intersections.POINTING, intersections.find_pointing, i, 2, 2.6),
        T(intersections.CLAIMING, intersections.find_claiming, i, 2, 2.8),
        T(patterns.PATTERN_MATCH, patterns.find_pattern_match, p, 2, 2.8),
        T("Locked Pair", subsets.find_locked_pair, sub, 2, 3.0),
        T("Naked Pair", subsets.find_naked_pair, sub, 2, 3.0, "Twins", 3),
        T("Hidden Pair", subsets.find_hidden_pair, sub, 2, 3.4),
        T(cages.CAGE_PERMUTATIONS, cages.find_cage_permutations, g, 3, 3.5),
        T(cages.INNIES_OUTIES, cages.find_innies_outies, g, 3, 3.7),
        T(cages.CAGE_SPLITTING, cages.find_cage_splitting, g, 3, 3.9),
        T("Locked Triple", subsets.find_locked_triple, sub, 3, 3.6),
        T("Naked Triple", subsets.find_naked_triple, sub, 3, 3.6, "Triplets", 4),
        T("Hidden Triple", subsets.find_hidden_triple, sub, 3, 4.0),
        T("Naked Quadruple", subsets.find_naked_quadruple, sub, 3, 5.0),
        T("Hidden Quadruple", subsets.find_hidden_quadruple, sub, 3, 5.4),
        T("X-Wing", fish.find_x_wing, f, 3, 3.2),
        # the single-digit patterns are short X-Chains, which the Explainer rates 6.6:
        # with the Extremely Difficult techniques, so that each level rates higher on its
        # scale than the one before
        T("Swordfish", fish.find_swordfish, f, 4, 3.8),
        T("Skyscraper", single_digit.find_skyscraper, d, 4, 6.6),
        T("2-String Kite", single_digit.find_two_string_kite, d, 4, 6.6),
        T("Empty Rectangle", single_digit.find_empty_rectangle, d, 4, 6.6),
        T(single_digit.DUAL_KITE, single_digit.find_dual_two_string_kite, d, 4, 6.6),
        T(single_digit.DUAL_ER, single_digit.find_dual_empty_rectangle, d, 4, 6.6),
        T(wings.XY_WING, wings.find_xy_wing, w, 4, 4.2),
        T(wings.XYZ_WING, wings.find_xyz_wing, w, 4, 4.4),
        T(wings.W_WING, wings.find_w_wing, w, 4, 7.0),
        T(coloring.SIMPLE_COLORS_TRAP, coloring.find_simple_colors_trap, col, 4, 6.6),
        T(coloring.SIMPLE_COLORS_WRAP, coloring.find_simple_colors_wrap, col, 4, 6.5),
        T(coloring.MULTI_COLORS_1, coloring.find_multi_colors_1, col, 4, 6.7),
        T(coloring.MULTI_COLORS_2, coloring.find_multi_colors_2, col, 4, 6.7),
        T(uniqueness.UR_TYPE_1, uniqueness.find_unique_rectangle_type1, u, 4, 4.5,
          needs_uniqueness=True),
        T(uniqueness.UR_TYPE_2, uniqueness.find_unique_rectangle_type2, u, 4, 4.6,
          needs_uniqueness=True),
        T(uniqueness.UR_TYPE_3, uniqueness.find_unique_rectangle_type3, u, 4, 4.7,
          needs_uniqueness=True),
        T(uniqueness.UR_TYPE_4, uniqueness.find_unique_rectangle_type4, u, 4, 4.6,
          needs_uniqueness=True),
        T(uniqueness.UR_TYPE_5, uniqueness.find_unique_rectangle_type5, u, 4, 4.6,
          needs_uniqueness=True),
        T(uniqueness.UR_TYPE_6, uniqueness.find_unique_rectangle_type6, u, 4, 4.6,
          needs_uniqueness=True),
        T(uniqueness.HIDDEN_RECTANGLE, uniqueness.find_hidden_rectangle, u, 4, 4.8,
          needs_uniqueness=True),
        T(uniqueness.AR_TYPE_1, uniqueness.find_avoidable_rectangle_type1, u, 4, 4.5,
          needs_uniqueness=True),
        T(uniqueness.AR_TYPE_2, uniqueness.find_avoidable_rectangle_type2, u, 4, 4.5,
          needs_uniqueness=True),
        T(uniqueness.BUG_PLUS_1, uniqueness.find_bug_plus_one, u, 4, 5.6,
          needs_uniqueness=True),
        T("Jellyfish", fish.find_jellyfish, f, 4, 5.2),
        T("Finned X-Wing", fish.find_finned_x_wing, f, 4, 6.6),
        T("Sashimi X-Wing", fish.find_sashimi_x_wing, f, 4, 6.6),
        T("Finned Swordfish", fish.find_finned_swordfish, f, 4, 6.8),
        T("Sashimi Swordfish", fish.find_sashimi_swordfish, f, 4, 6.8),
        T("Finned Jellyfish", fish.find_finned_jellyfish, f, 4, 7.0),
        T("Sashimi Jellyfish", fish.find_sashimi_jellyfish, f, 4, 7.0),
        T(complex_fish.SIAMESE_FISH, complex_fish.find_siamese_fish, f, 4, 7.0),
        T(chains.REMOTE_PAIR, chains.find_remote_pair, ch, 5, 7.0),
        T(chains.X_CHAIN, chains.find_x_chain, ch, 5, 6.6),
        T(chains.XY_CHAIN, chains.find_xy_chain, ch, 5, 7.0),
        T(als.SUE_DE_COQ, als.find_sue_de_coq, a, 5, 7.0),
        T(chains.AIC, chains.find_aic, ch, 5, 7.0),
        T(chains.NICE_LOOP, chains.find_nice_loop, ch, 5, 7.0),
        T(chains.GROUPED_AIC, chains.find_grouped_aic, ch, 5, 7.2),
        T(chains.GROUPED_NICE_LOOP, chains.find_grouped_nice_loop, ch, 5, 7.2),
        T(als.ALS_XZ, als.find_als_xz, a, 5, 7.2),
        T(als.ALS_XY_WING, als.find_als_xy_wing, a, 5, 7.4),
        T(als.DEATH_BLOSSOM, als.find_death_blossom, a, 5, 7.6),
        T(als.ALS_XY_CHAIN, als.find_als_xy_chain, a, 5, 7.6),
        T(chains.ALS_AIC, chains.find_als_aic, ch, 5, 7.6),
        T(chains.ALS_NICE_LOOP, chains.find_als_nice_loop, ch, 5, 7.6),
        # forcing chains and nets: the last logical resort before guessing
        T(forcing.FORCING_CONTRADICTION, forcing.find_forcing_contradiction, fc, 6, 7.8),
        T(forcing.CELL_FORCING, forcing.find_cell_forcing_chain, fc, 6, 8.2),
        T(forcing.HOUSE_FORCING, forcing.find_house_forcing_chain, fc, 6, 8.4),
        # the assumption followed by locked candidates too: the Explainer's 9.0 chains
        T(forcing.FORCING_CONTRADICTION_PLUS, forcing.find_forcing_contradiction_plus, fc, 6,
          9.0),
        T(templates.TEMPLATE_SET, templates.find_template_set, tp, 6, 8.5),
        T(templates.TEMPLATE_DELETE, templates.find_template_delete, tp, 6, 8.5),
        T(complex_fish.FRANKEN_FISH, complex_fish.find_franken_fish, f, 6, 8.6),
        T(complex_fish.MUTANT_FISH, complex_fish.find_mutant_fish, f, 6, 8.8),
        T(BRUTE_FORCE, None, Family.GUESSING, 6, 9.0, "Brute-force elimination", 5),
        T(BACKTRACK, None, Family.GUESSING, 6, 9.0, "Brute-force elimination", 5),
    ]


#: The table of every technique the solver knows.
REGISTRY = Registry(_table())


def technique_names(techniques: Sequence[str] | str | None) -> list[str] | None:
    """A caller's choice of techniques, checked: None (all of them), one name, or a list
    of names, each known to the table; an empty choice is refused."""
    if techniques is None:
        return None
    if isinstance(techniques, str):
        techniques = [techniques]
    if not isinstance(techniques, Iterable):
        raise TypeError(f"techniques must be a list of technique names, not "
                        f"{type(techniques).__name__}")
    names = []
    for name in techniques:
        if not isinstance(name, str):
            raise TypeError(f"a technique's name must be a string, not {type(name).__name__}")
        names.append(REGISTRY.get(name.strip()).name)
    if not names:
        raise NumberplaceError("no technique named: give at least one")
    return names


def book_name(technique: str) -> str:
    """The programming book's name of a technique, or ``""``."""
    found = REGISTRY._find(technique)
    return found.book_name if found is not None else ""
