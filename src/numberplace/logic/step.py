"""One deduction of the human-style solver, and how to show it in words.

A step's text is kept as a template in which cells and houses are markers (``{c17}``,
``{h3}``, ``{k3}`` for a house's kind), so the same step can be written with cells as
``r5c6`` or as Programming Sudoku's ``(6,5)``, and boxes as boxes or Programming Sudoku's minigrids.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property

from ..model.alphabet import Alphabet
from ..model.shape import HouseKind, Shape
from .board import Board, house_name, values_of


class LogicStatus(str, Enum):
    """How a human-style solve or hint ended; the text is its value."""

    SOLVED = "solved"        #: every cell holds a value
    STALLED = "stalled"      #: no technique applies (or a step or time bound was reached)
    INVALID = "invalid"      #: the givens or the marks break a rule
    NONE = "none"            #: the puzzle has no solution
    MULTIPLE = "multiple"    #: the puzzle has more than one solution
    HINTED = "hinted"        #: a hint found the next step

    def __str__(self) -> str:
        return self.value


class Role(str, Enum):
    """What a highlighted candidate does in a step, for a display."""

    PLACED = "placed"          #: the value the step writes
    REMOVED = "removed"        #: a candidate the step removes
    DEFINING = "defining"      #: a candidate the pattern is made of
    BASE = "base"              #: a fish's base lines
    COVER = "cover"            #: a fish's cover lines
    FIN = "fin"                #: a fish's fin
    PIVOT = "pivot"            #: a wing's pivot cell
    PINCER = "pincer"          #: a wing's pincer cells
    CHAIN = "chain"            #: a node of a chain
    PREMISE = "premise"        #: a forcing chain's starting assumptions
    LINK = "link"              #: a link drawn between candidates
    COLOR1 = "color1"          #: a candidate of the first colour of a colouring
    COLOR2 = "color2"          #: a candidate of the second colour

    def __str__(self) -> str:
        return self.value


_MARKER = re.compile(r"\{([chkvg])(\d+)\}")


def cell_ref(cell: int) -> str:
    """Template marker for a cell."""
    return f"{{c{cell}}}"


def house_ref(house: int) -> str:
    """Template marker for a house's name (``row 5``, ``box 2`` / ``minigrid 2``)."""
    return f"{{h{house}}}"


def kind_ref(house: int) -> str:
    """Template marker for a house's kind (``row``, ``column``, ``box`` / ``minigrid``)."""
    return f"{{k{house}}}"


def cage_ref(cage: int) -> str:
    """Template marker for a cage's name (``the 15 cage at r1c1``, ``the down run 16 of
    r1c2``)."""
    return f"{{g{cage}}}"


def cage_name(shape: Shape, cage: int, notation: str = "rc") -> str:
    """Name a cage by its sum and where it is: a Kakuro run by its clue square, a Killer
    cage by its first cell."""
    found = shape.cages[cage]
    total = "" if found.total is None else f" {found.total}"
    if found.clue is not None:
        r, c = found.clue
        square = f"({c + 1},{r + 1})" if notation == "book" else f"r{r + 1}c{c + 1}"
        word = "across" if found.clue[0] == shape.coords[found.cells[0]][0] else "down"
        return f"the {word} run{total} of {square}"
    return f"the{total} cage at {shape.cell_name(found.cells[0], notation)}"


def value_ref(value: int) -> str:
    """Template marker for a value, written with the puzzle's symbol (``5``, ``E``)."""
    return f"{{v{value}}}"


def values_ref(values: Iterable[int], last: str = ", ") -> str:
    """Template for values listed with commas; ``last`` joins the final two."""
    refs = [value_ref(v) for v in values]
    if len(refs) < 2:
        return "".join(refs)
    return ", ".join(refs[:-1]) + last + refs[-1]


def candidates_ref(mask: int) -> str:
    """Template for a candidate set written ``{1,2}``."""
    return "{" + ",".join(value_ref(v) for v in values_of(mask)) + "}"


def cells_ref(cells: Iterable[int]) -> str:
    """Template for a list of cells, comma separated."""
    return ", ".join(cell_ref(c) for c in cells)


def eliminations_ref(eliminations: Iterable[tuple[int, int]]) -> str:
    """Template for removals grouped by value: ``5 from r1c1, r1c2; 7 from r3c3``."""
    by_value: dict[int, list[int]] = {}
    for cell, value in eliminations:
        by_value.setdefault(value, []).append(cell)
    return "; ".join(f"{value_ref(v)} from {cells_ref(cs)}"
                     for v, cs in sorted(by_value.items()))


def render(template: str, shape: Shape, notation: str = "rc",
           alphabet: Alphabet | None = None) -> str:
    """Replace the markers of a template by names in the given notation, and values by
    the symbols of ``alphabet`` (numbers when it is None)."""

    def name(m: re.Match[str]) -> str:
        kind, index = m.group(1), int(m.group(2))
        if kind == "v":
            return alphabet.symbol(index) if alphabet is not None else str(index)
        if kind == "c":
            return shape.cell_name(index, notation)
        if kind == "h":
            return house_name(shape, index, notation)
        if kind == "g":
            return cage_name(shape, index, notation)
        k = shape.houses[index].kind
        return "minigrid" if notation == "book" and k == HouseKind.BOX else str(k)

    return _MARKER.sub(name, template)


@dataclass(frozen=True)
class Step:
    """A deduction: what it places and removes, what it rests on, and its explanation.

    ``houses`` are indices into ``shape.houses``, ``cages`` into ``shape.cages``;
    ``highlights`` are (role, cell, value)
    triples for a display (roles: :class:`Role`). ``text`` is the explanation in the
    default ``r5c6`` notation; :meth:`describe` renders ``template`` in either notation.
    """

    technique: str
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    cells: tuple[int, ...] = ()
    houses: tuple[int, ...] = ()
    highlights: tuple[tuple[Role, int, int], ...] = ()
    #: the explanation of a step made without a template
    note: str = ""
    template: str = ""
    #: open guesses when the step was taken: 0 for pure logic; a guess opens a level
    depth: int = 0
    #: cells along a chain (each cell of a grouped node counts): longer chains are harder
    chain_length: int = 0
    #: the shape the template's markers refer to (for :attr:`text`)
    shape: Shape | None = field(default=None, compare=False, repr=False)
    cages: tuple[int, ...] = ()

    @property
    def book_name(self) -> str:
        """The programming book's name of the technique (``CRME``, ``Twins``...), or ``""``."""
        from .techniques import book_name  # the table imports every finder, which build steps

        return book_name(self.technique)

    @cached_property
    def text(self) -> str:
        """The explanation in the default ``r5c6`` notation (rendered when first asked:
        most steps a search makes are never read)."""
        if self.template and self.shape is not None:
            return render(self.template, self.shape)
        return self.note

    def describe(self, shape: Shape, notation: str = "rc",
                 alphabet: Alphabet | None = None) -> str:
        """The explanation with cells as ``r5c6`` (``"rc"``) or ``(6,5)`` (``"book"``),
        and values written with ``alphabet``'s symbols (numbers by default)."""
        if not self.template:
            return self.note
        return render(self.template, shape, notation, alphabet)

    def headline(self, shape: Shape, notation: str = "rc",
                 alphabet: Alphabet | None = None) -> str:
        """``Technique: explanation``, the name said once: an explanation that already
        opens with it (``W-Wing: ...``, ``Skyscraper on 9: ...``) is not prefixed again."""
        text = self.describe(shape, notation, alphabet)
        name = self.technique
        if text.startswith(name) and text[len(name):len(name) + 1] in (":", " ", ""):
            return text
        return f"{name}: {text}"

    def apply(self, board: Board) -> None:
        """Carry out the step: placements (which also clear peers) then eliminations."""
        for cell, value in self.placements:
            board.place(cell, value)
        for cell, value in self.eliminations:
            board.eliminate(cell, value)


def make_step(shape: Shape, technique: str, template: str, *,
              placements: tuple[tuple[int, int], ...] = (),
              eliminations: tuple[tuple[int, int], ...] = (), cells: tuple[int, ...] = (),
              houses: tuple[int, ...] = (), highlights: tuple[tuple[Role, int, int], ...] = (),
              depth: int = 0, chain_length: int = 0, cages: tuple[int, ...] = ()) -> Step:
    """Build a step whose ``text`` is its template rendered in ``r5c6`` notation."""
    return Step(technique=technique, placements=placements, eliminations=eliminations,
                cells=cells, houses=houses, highlights=highlights, template=template,
                depth=depth, chain_length=chain_length, shape=shape, cages=cages)


def placement_step(shape: Shape, technique: str, template: str, cell: int, value: int, *,
                   houses: tuple[int, ...] = (), depth: int = 0,
                   cages: tuple[int, ...] = ()) -> Step:
    """A step that places one value in one cell, which it highlights."""
    return make_step(shape, technique, template, placements=((cell, value),), cells=(cell,),
                     houses=houses, highlights=((Role.PLACED, cell, value),), depth=depth,
                     cages=cages)


def pattern_value(step: Step) -> int:
    """The value of a single-value pattern's step (fish, kite, rectangle): the value of
    its first highlight, as every such finder marks only that value."""
    return step.highlights[0][2]


def joined(steps: Sequence[Step], key: Callable[[Step], object], technique: str,
           describe: Callable[[Step, Step], str]) -> Iterator[Step]:
    """Two steps of one pattern (the same ``key``) removing different candidates, as one
    step removing what both do (each set of removals once): HoDoKu's dual and Siamese
    steps. ``describe(first, second)`` writes the text before ``: remove ...``."""
    groups: dict[object, list[Step]] = {}
    for step in steps:
        groups.setdefault(key(step), []).append(step)
    seen: set[frozenset[tuple[int, int]]] = set()
    for group in groups.values():
        for i, first in enumerate(group):
            for second in group[i + 1:]:
                both = set(first.eliminations) | set(second.eliminations)
                if set(first.eliminations) == set(second.eliminations) or \
                        frozenset(both) in seen:
                    continue
                seen.add(frozenset(both))
                elims = tuple(sorted(both, key=lambda cv: (cv[1], cv[0])))
                shape = first.shape
                assert shape is not None  # every finder's step knows its shape
                yield make_step(
                    shape, technique,
                    f"{describe(first, second)}: remove {eliminations_ref(elims)}",
                    eliminations=elims,
                    cells=tuple(dict.fromkeys(first.cells + second.cells)),
                    houses=tuple(dict.fromkeys(first.houses + second.houses)),
                    highlights=tuple(dict.fromkeys(
                        h for h in first.highlights + second.highlights
                        if h[0] != Role.REMOVED))
                    + tuple((Role.REMOVED, c, v) for c, v in elims))
