"""A game as data: the puzzle, the player's entries, pencil marks, colours, the timer, the
activity log and the undo/redo history, with Programming Sudoku's rules.

Every action returns a :class:`Reply`. In Programming Sudoku's mode a digit that repeats one in a
house of its cell (or a cage: a Killer cage, a Kakuro run) is refused with a message
naming the clash; in free mode it is taken and shown among the
:meth:`Session.conflicts`. Givens never change. When the grid is full and keeps every
rule the game says so and stops the timer. Mistakes (entries that differ
from the solution) are only told on request. With ``auto_fill`` on, the values forced by
the live solver's techniques are filled in after every edit; they are derived, not
entered, so deleting an entry rebuilds them from the player's values alone.

Candidates respect the sums of a Killer's cages and a Kakuro's runs (see
:mod:`.candidates`). The session also knows whether the puzzle itself has one solution
(:meth:`Session.verdict`), which requests it has already carried out for each client
that numbers its requests (:attr:`Session.receipts`), and whether "solve all" was ever
used (:attr:`Session.revealed`).

Cells are indices of the puzzle's shape; the log and messages name them in Programming Sudoku's
(column,row) notation unless another is asked.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from .. import arguments, engine
from ..errors import NumberplaceError
from ..limits import Deadline
from ..logic.board import bit, values_of
from ..logic.driver import solve_path
from ..logic.explain import book_log_line, hint_text, next_hint
from ..logic.step import LogicStatus, Step
from ..model.puzzle import Puzzle
from ..model.shape import Shape, is_across
from .candidates import board_candidates
from .history import Change, History, Layer, Move, changes_of
from .timer import Timer

#: The live solver's techniques (the system that fills forced values as you type); the
#: first steps with sums find nothing, at once, on puzzles without them.
LIVE_TECHNIQUES = ("Full House", "Naked Single", "Hidden Single", "Unique Combination",
                   "Cage Combinations", "Locked Candidates Type 1 (Pointing)",
                   "Locked Candidates Type 2 (Claiming)", "Pattern Match Elimination")
#: Colours of the palette (0 is none).
COLOURS = 9
#: Lines of the activity log a game keeps (its record is written after every move).
LOG_LINES = 1000
#: Notations cells are named in: ``book`` (column,row), ``rc`` r1c1.
NOTATIONS = ("book", "rc")
#: What a verdict on the puzzle itself may say.
VERDICTS = ("unique", "multiple", "none", "invalid", "unknown")
#: The bounds of the search behind a verdict: an answer in time for a player waiting.
VERDICT_SECONDS = 3.0
#: How long a search for the puzzle's solution may take (mistakes, solve all, checks).
SOLUTION_SECONDS = 30.0
#: How long a hint or a step may take in all: the checks before it and its search.
HELP_SECONDS = 10.0
VERDICT_NODES = 2_000_000
#: Clients whose last request number a session keeps (the least recent goes first).
RECEIPTS = 16


class Mode(str, Enum):
    """How the game treats a digit that repeats one in a house of its cell."""

    BOOK = "book"   #: refused, with a message naming the clash
    FREE = "free"   #: taken, and shown as a conflict

    def __str__(self) -> str:
        return self.value


class Source(int, Enum):
    """Who wrote a value, for drawing each in its own colour."""

    PLAYER = 0
    STEP = 1     #: the "step" button
    SOLVE = 2    #: "solve all"


@dataclass(frozen=True)
class Reply:
    """What an action did: ``ok`` False when it was refused, ``message`` why it was refused
    or, when taken, the move in the log's words; the move it made, and whether the puzzle
    is now solved."""

    ok: bool
    message: str = ""
    move: Move | None = None
    solved: bool = False


@dataclass(frozen=True)
class HintView:
    """A hint told at a tier: its words, and what to draw. Tier 1 shows the houses to
    look at, tier 2 also the cells, tier 3 every candidate of the step by its role."""

    status: LogicStatus
    tier: int
    text: str
    step: Step | None = None
    houses: tuple[int, ...] = ()
    cells: tuple[int, ...] = ()
    highlights: tuple[tuple[str, int, int], ...] = ()
    #: the cages (Killer cages, Kakuro runs) to look at, drawn like the houses
    cages: tuple[int, ...] = ()


@dataclass(frozen=True)
class Diagnosis:
    """What is wrong, if anything: ``ok``, ``invalid`` or ``unsolvable`` (the puzzle
    itself), ``clash`` or ``stuck`` (the player's entries), with a message."""

    status: str
    message: str


@dataclass(frozen=True)
class Verdict:
    """Whether the puzzle itself (its givens alone) has one solution: ``status`` one of
    :data:`VERDICTS` (``unknown`` when the search ran out of time), and what to tell the
    player ("" for a puzzle with one solution)."""

    status: str
    message: str


@dataclass
class _Derived:
    """What the current entries imply, computed once per state."""

    values: list[int]
    candidates: list[int]
    forced: dict[int, int] = field(default_factory=dict)


class Session:
    """One game (see the module docs)."""

    def __init__(self, puzzle: Puzzle | str, *, mode: Mode | str = Mode.BOOK,
                 notation: str = "book", clock: Callable[[], float] = time.monotonic,
                 verdict: str | None = None) -> None:
        """``verdict`` is the puzzle's status when already known (a generated puzzle is
        ``unique``); otherwise it is looked for when first asked."""
        self.puzzle = arguments.puzzle(puzzle)
        self.mode = Mode(mode)
        self.notation = "book"
        self.set_notation(notation)
        if verdict is not None and verdict not in VERDICTS:
            raise NumberplaceError(f"a verdict is one of {', '.join(VERDICTS)}, "
                                   f"not {verdict!r}")
        #: the puzzle's status (see :meth:`verdict`); None until looked for
        self.puzzle_status = verdict
        #: client -> the number of the latest request of that client carried out
        self.receipts: dict[str, int] = {}
        #: True once "solve all" has filled the grid, even if undone later
        self.revealed = False
        n = self.puzzle.shape.ncells
        self.layers: dict[Layer, list[int]] = {layer: [0] * n for layer in Layer}
        if self.puzzle.candidates is not None:  # a pencil-mark grid keeps its marks
            self.layers[Layer.CENTRE] = [0 if v else m for v, m in
                                         zip(self.puzzle.givens, self.puzzle.candidates,
                                             strict=True)]
        self.history = History()
        self.log: list[str] = []
        self.timer = Timer(clock=clock)
        self.auto_fill = False
        self.solved = False
        self._derived: _Derived | None = None
        #: the live solver's last start (givens and entries) and what it forced from it
        self._last_live: tuple[list[int], dict[int, int]] | None = None
        self._solution: tuple[int, ...] | None | bool = False  # False: not looked for yet
        #: the longest search for the solution that ran out of time (seconds)
        self._searched_for = 0.0

    # -- what the board shows -------------------------------------------------------------

    @property
    def shape(self) -> Shape:
        """The puzzle's shape."""
        return self.puzzle.shape

    def name(self, cell: int) -> str:
        """A cell's name in the session's notation."""
        return self.shape.cell_name(cell, self.notation)

    def values(self) -> list[int]:
        """Every cell's value: givens, entries and, with ``auto_fill``, forced values."""
        return list(self._derive().values)

    def entries(self) -> list[int]:
        """The player's values (0 where there is none)."""
        return list(self.layers[Layer.VALUE])

    def candidates(self) -> list[int]:
        """Each empty cell's possible values as a bit mask (bit v-1 for value v), from the
        values its peers hold and the sums of its cages (see :mod:`.candidates`); 0 for a
        cell with a value."""
        return list(self._derive().candidates)

    def candidates_of(self, cell: int) -> list[int]:
        """The values a cell may still take (Programming Sudoku shows them on hover)."""
        cell = self._cell(cell)
        return values_of(self._derive().candidates[cell])

    def forced(self) -> dict[int, int]:
        """Cell -> value for every value the live solver's techniques force from the
        givens and entries (filled in when ``auto_fill`` is on)."""
        return dict(self._live().forced)

    def conflicts(self) -> list[int]:
        """Cells whose value repeats one in a house or cage they share (free mode allows
        them)."""
        values = self._derive().values
        out: set[int] = set()
        groups = [h.cells for h in self.shape.houses] + [
            g.cells for g in self.shape.cages if not g.repeats]
        for cells in groups:
            seen: dict[int, int] = {}
            for c in cells:
                v = values[c]
                if v and v in seen:
                    out.update((c, seen[v]))
                elif v:
                    seen[v] = c
        return sorted(out)

    def mistakes(self) -> list[int]:
        """Cells whose entry differs from the solution (asked for; never shown unasked).
        Empty when the puzzle has no single solution to compare with."""
        solution = self.solution()
        if solution is None:
            return []
        return [c for c, v in enumerate(self.layers[Layer.VALUE]) if v and v != solution[c]]

    def solution(self) -> tuple[int, ...] | None:
        """The puzzle's solution when it has exactly one (None otherwise)."""
        return self._solution_within(SOLUTION_SECONDS)

    def _solution_within(self, seconds: float) -> tuple[int, ...] | None:
        """:meth:`solution`, searched for within ``seconds`` if it is not known yet. A
        search that runs out of time is repeated only with twice the time or more."""
        if self._solution is False and (not self._searched_for
                                        or seconds >= 2 * self._searched_for):
            if self.puzzle_status in ("multiple", "none", "invalid"):
                self._solution = None
            else:
                found = engine.solve(self.puzzle, limit=2, node_limit=5_000_000,
                                     time_limit=seconds)
                if found.status is engine.Status.LIMIT:
                    self._searched_for = seconds
                else:
                    self._solution = found.solution \
                        if found.status is engine.Status.UNIQUE else None
        return self._solution if isinstance(self._solution, tuple) else None

    def verdict(self) -> Verdict:
        """Whether the puzzle itself has one solution, told in the player's words and the
        session's notation. The search behind it is bounded (:data:`VERDICT_SECONDS`) and
        made once; its status is kept in :attr:`puzzle_status`."""
        if self.puzzle_status is None:
            found = engine.solve(self.puzzle, limit=2, node_limit=VERDICT_NODES,
                                 time_limit=VERDICT_SECONDS)
            self.puzzle_status = {engine.Status.UNIQUE: "unique",
                                  engine.Status.MULTIPLE: "multiple",
                                  engine.Status.NONE: "none",
                                  engine.Status.INVALID: "invalid"}.get(found.status,
                                                                        "unknown")
            if found.status is engine.Status.UNIQUE:
                self._solution = found.solution
        return Verdict(self.puzzle_status, self._verdict_message(self.puzzle_status))

    def _verdict_message(self, status: str) -> str:
        if status == "invalid":
            return f"This puzzle cannot be solved: {self._first_clash()}."
        return {
            "none": "This puzzle has no solution.",
            "multiple": "This puzzle has more than one solution: hints and checks may not "
                        "match the one you find.",
            "unknown": "This puzzle could not be checked in time; it may have no solution "
                       "or several.",
        }.get(status, "")

    def _first_clash(self) -> str:
        """Two givens that repeat a value in a house or cage, the first found (houses
        first, as the solver looks for them)."""
        shape, givens = self.shape, self.puzzle.givens
        groups = [(self._house_name(h), house.cells) for h, house in enumerate(shape.houses)]
        groups += [(self._cage_name(g), cage.cells) for g, cage in enumerate(shape.cages)
                   if not cage.repeats]
        for name, cells in groups:
            seen: dict[int, int] = {}
            for c in cells:
                v = givens[c]
                if v and v in seen:
                    first, second = self.name(seen[v]), self.name(c)
                    where = f"at {first} and {second}" if self.notation == "book" \
                        else f"({first} and {second})"
                    sep = ", " if self.notation == "book" else " "
                    return f"two {self.puzzle.alphabet.symbol(v)}s in {name}{sep}{where}"
                if v:
                    seen[v] = c
        return "two of its givens break a rule"

    def already_done(self, client: str, seq: int) -> bool:
        """True when request ``seq`` of ``client`` (or a later one) was carried out."""
        return seq <= self.receipts.get(client, 0)

    def receipt(self, client: str, seq: int) -> None:
        """Note that request ``seq`` of ``client`` was carried out; only the most recent
        :data:`RECEIPTS` clients are kept."""
        self.receipts.pop(client, None)
        self.receipts[client] = seq
        while len(self.receipts) > RECEIPTS:
            del self.receipts[next(iter(self.receipts))]

    # -- actions ----------------------------------------------------------------------------

    def enter(self, cells: int | Iterable[int], value: int) -> Reply:
        """Write ``value`` in the cells (0 erases). Givens are skipped; in Programming
        Sudoku's mode a value that repeats one in a house or cage of a cell is refused."""
        chosen = [c for c in self._cells(cells) if not self.puzzle.givens[c]]
        value = arguments.whole(value, "value", 0, self.shape.size)
        if not chosen:
            return Reply(False, "a given cannot change")
        if value and self.mode is Mode.BOOK:
            clash = self._clash(chosen, value)
            if clash:
                return Reply(False, clash)
        changes = self._value_changes(chosen, [value] * len(chosen), Source.PLAYER)
        if not changes:
            return Reply(True)
        symbol = self.puzzle.alphabet.symbol(value)
        where = ", ".join(self.name(c) for c in chosen)
        text = f"Value {symbol} in {where}" if value else f"Erased {where}"
        return self._play(Move("enter" if value else "erase", changes, text))

    def erase(self, cells: int | Iterable[int]) -> Reply:
        """Clear the cells: their entries, or, where there is none, their pencil marks."""
        chosen = [c for c in self._cells(cells) if not self.puzzle.givens[c]]
        changes: list[Change] = []
        for c in chosen:
            layers = [Layer.VALUE, Layer.SOURCE] if self.layers[Layer.VALUE][c] \
                else [Layer.CORNER, Layer.CENTRE]
            changes += [Change(lay, c, self.layers[lay][c], 0) for lay in layers
                        if self.layers[lay][c]]
        if not changes:
            return Reply(True)
        return self._play(Move("erase", tuple(changes),
                               "Erased " + ", ".join(self.name(c) for c in chosen)))

    def mark(self, cells: int | Iterable[int], value: int, kind: str = "corner") -> Reply:
        """Toggle a pencil mark (``corner`` or ``centre``) in the empty cells: added to all
        of them unless all have it already, then removed from all."""
        layer = {"corner": Layer.CORNER, "centre": Layer.CENTRE}.get(kind)
        if layer is None:
            raise NumberplaceError(f"a pencil mark is corner or centre, not {kind!r}")
        value = arguments.whole(value, "value", 1, self.shape.size)
        values = self._derive().values
        chosen = [c for c in self._cells(cells) if not values[c]]
        marks = self.layers[layer]
        b = bit(value)
        adding = not all(marks[c] & b for c in chosen)
        after = [(marks[c] | b) if adding else (marks[c] & ~b) for c in chosen]
        changes = changes_of(layer, chosen, [marks[c] for c in chosen], after)
        if not changes:
            return Reply(True)
        symbol = self.puzzle.alphabet.symbol(value)
        verb = "Marked" if adding else "Unmarked"
        return self._play(Move(kind, changes, f"{verb} {symbol} ({kind}) in "
                               + ", ".join(self.name(c) for c in chosen)))

    def paint(self, cells: int | Iterable[int], colour: int) -> Reply:
        """Colour the cells (0 clears); colouring cells that all have it clears them."""
        colour = arguments.whole(colour, "colour", 0, COLOURS)
        chosen = self._cells(cells)
        layer = self.layers[Layer.COLOUR]
        if colour and all(layer[c] == colour for c in chosen):
            colour = 0
        changes = changes_of(Layer.COLOUR, chosen, [layer[c] for c in chosen],
                             [colour] * len(chosen))
        if not changes:
            return Reply(True)
        return self._play(Move("colour", changes, f"Colour {colour} on "
                               + ", ".join(self.name(c) for c in chosen)))

    def undo(self) -> Reply:
        """Take back the latest move."""
        move = self.history.back()
        if move is None:
            return Reply(False, "nothing to undo")
        for change in reversed(move.changes):
            self._write(change.layer, change.cell, change.before)
        return self._settle(move, f"Undo: {move.text}")

    def redo(self) -> Reply:
        """Make the latest undone move again."""
        move = self.history.forward()
        if move is None:
            return Reply(False, "nothing to redo")
        for change in move.changes:
            self._write(change.layer, change.cell, change.after)
        return self._settle(move, f"Redo: {move.text}")

    def pause(self) -> None:
        """Pause the timer."""
        self.timer.pause()

    def resume(self) -> None:
        """Resume the timer (a solved game's stays stopped)."""
        if not self.solved:
            self.timer.resume()

    def set_notation(self, notation: str) -> None:
        """Name cells from now on in ``notation``: ``book`` (column,row) or ``rc``."""
        if notation not in NOTATIONS:
            raise NumberplaceError(f"notation must be book or rc, not {notation!r}")
        self.notation = notation

    def set_auto_fill(self, on: bool) -> None:
        """Fill in (or no longer) every value the live solver forces."""
        self.auto_fill = bool(on)
        self._derived = None
        self._check_solved()

    # -- help from the solver ---------------------------------------------------------------

    def hint(self, tier: int = 1, techniques: Sequence[str] | None = None) -> HintView:
        """The next step of the simplest technique, told at ``tier`` (1: technique and
        where, 2: also the cells, 3: the whole step), with what to draw. When the entries
        made the puzzle unsolvable, or the puzzle is wrong itself, that is said instead."""
        tier = arguments.whole(tier, "tier", 1, 3)
        budget = Deadline(HELP_SECONDS)
        verdict = self._help_verdict(budget)
        wrong = self._wrong(budget) if verdict is None else None
        if wrong is not None:
            return HintView(LogicStatus.INVALID, tier, wrong.message)
        found = next_hint(self._position(), techniques, time_limit=_left(budget),
                          verdict=verdict)
        step = found.step
        if step is None:
            return HintView(found.status, tier, found.message)
        text = hint_text(step, self.shape, tier, self.notation, self.puzzle.alphabet)
        self._note(f"Hint: {text}")
        return HintView(found.status, tier, text, step, step.houses,
                        step.cells if tier >= 2 else (),
                        tuple((str(r), c, v) for r, c, v in step.highlights) if tier >= 3
                        else (), tuple(getattr(step, "cages", ())))

    def step(self) -> Reply:
        """Place exactly one value, found by the simplest technique that leads to one, as
        the one-number-per-press solver does; the log names the technique."""
        budget = Deadline(HELP_SECONDS)
        verdict = self._help_verdict(budget)
        wrong = self._wrong(budget) if verdict is None else None
        if wrong is not None:
            return Reply(False, wrong.message)
        found = next_hint(self._position(), placement=True, time_limit=_left(budget),
                          verdict=verdict)
        if found.step is None or not found.step.placements:
            return Reply(False, found.message or "no technique finds a value here")
        cell, value = found.step.placements[0]
        changes = self._value_changes([cell], [value], Source.STEP)
        text = book_log_line(found.step, self.shape, self.puzzle.alphabet) \
            if self.notation == "book" else \
            found.step.headline(self.shape, "rc", self.puzzle.alphabet)
        return self._play(Move("step", changes, text))

    def solve_all(self) -> Reply:
        """Fill every empty cell with the solution (one move, so it can be undone)."""
        wrong = self._wrong()
        if wrong is not None:
            return Reply(False, wrong.message)
        values = self._derive().values
        found = engine.solve(Puzzle(self.shape, tuple(values), self.puzzle.alphabet),
                             limit=1, node_limit=5_000_000, time_limit=SOLUTION_SECONDS)
        if found.solution is None:
            return Reply(False, "no solution was found in time")
        cells = [c for c, v in enumerate(values) if not v]
        changes = self._value_changes(cells, [found.solution[c] for c in cells], Source.SOLVE)
        self.revealed = True
        return self._play(Move("solve", changes, "Solved the rest"))

    def diagnose(self) -> Diagnosis:
        """What is wrong, told as Programming Sudoku tells it: the puzzle itself (solved without the
        player's entries) or the entries that made it unsolvable."""
        return self._wrong() or Diagnosis("ok", "no mistake shows yet; the puzzle can "
                                                "still be solved from here")

    # -- inside ---------------------------------------------------------------------------

    def _cell(self, cell: object) -> int:
        return arguments.whole(cell, "cell", 0, self.shape.ncells - 1)

    def _cells(self, cells: int | Iterable[int]) -> list[int]:
        if isinstance(cells, int):
            return [self._cell(cells)]
        if isinstance(cells, (str, bytes)) or not isinstance(cells, Iterable):
            raise TypeError("cells must be a cell or a list of cells")
        return list(dict.fromkeys(self._cell(c) for c in cells))

    def _clash(self, cells: Sequence[int], value: int) -> str:
        """The first house or cage where ``value`` already stands in a peer of one of the
        cells."""
        values = self._derive().values
        shape = self.shape
        for c in cells:
            groups = [(self._house_name(h), shape.houses[h].cells) for h in shape.houses_of[c]]
            groups += [(self._cage_name(g), shape.cages[g].cells) for g in shape.cages_of[c]
                       if not shape.cages[g].repeats]
            for name, members in groups:
                for p in members:
                    if p != c and p not in cells and values[p] == value:
                        return (f"{self.puzzle.alphabet.symbol(value)} is already in {name}, "
                                f"at {self.name(p)}")
        return ""

    def _house_name(self, house: int) -> str:
        """A house as the player reads it (Programming Sudoku calls a box a minigrid)."""
        name = str(self.shape.houses[house])
        return name.replace("box", "minigrid") if self.notation == "book" else name

    def _cage_name(self, cage: int) -> str:
        """A cage as a player finds it: a Kakuro run by its clue square and direction, a
        Killer cage by its sum and first cell."""
        found = self.shape.cages[cage]
        total = "" if found.total is None else f" {found.total}"
        if found.clue is not None:
            r, c = found.clue
            square = f"({c + 1},{r + 1})" if self.notation == "book" else f"r{r + 1}c{c + 1}"
            word = "across" if is_across(self.shape, found) else "down"
            return f"the {word} run{total} of {square}"
        return f"the{total} cage at {self.name(found.cells[0])}"

    def _write(self, layer: Layer, cell: int, value: int) -> None:
        self.layers[layer][cell] = value
        if layer is Layer.VALUE:  # what is derived follows the values alone
            self._derived = None

    def _value_changes(self, cells: Sequence[int], values: Sequence[int],
                       source: Source) -> tuple[Change, ...]:
        """The changes writing ``values`` in ``cells``, with who wrote them."""
        layer, sources = self.layers[Layer.VALUE], self.layers[Layer.SOURCE]
        wanted = [int(source) if v else 0 for v in values]
        return (changes_of(Layer.VALUE, cells, [layer[c] for c in cells], values)
                + changes_of(Layer.SOURCE, cells, [sources[c] for c in cells], wanted))

    def _play(self, move: Move) -> Reply:
        for change in move.changes:
            self._write(change.layer, change.cell, change.after)
        self.history.record(move)
        return self._settle(move, move.text)

    def _note(self, text: str) -> None:
        """A line of the activity log, which keeps its last :data:`LOG_LINES`."""
        self.log.append(text)
        if len(self.log) > LOG_LINES:
            del self.log[:-LOG_LINES]

    def _settle(self, move: Move, text: str) -> Reply:
        self._note(text)
        solved = self._check_solved()
        return Reply(True, text, move=move, solved=solved)

    def _check_solved(self) -> bool:
        values = self._derive().values
        now = all(values) and not self.conflicts() and self.puzzle.fits(values)
        if now and not self.solved:
            self.timer.pause()
            self._note(f"Solved in {self.timer.text()}")
        elif self.solved and not now:
            self.timer.resume()
        self.solved = now
        return now

    def _position(self) -> Puzzle:
        """The puzzle as it stands: givens and entries (forced values too when filled)."""
        return Puzzle(self.shape, tuple(self._derive().values), self.puzzle.alphabet)

    def _agreed_solution(self, seconds: float) -> tuple[int, ...] | None:
        """The puzzle's one solution when every value on the board agrees with it (the
        position then has that one solution too), else None. The solution is searched
        for once a session, here within ``seconds``."""
        solution = self._solution_within(seconds)
        if solution is None:
            return None
        values = self._derive().values
        if any(v and v != solution[c] for c, v in enumerate(values)):
            return None
        return solution

    def _help_verdict(self, budget: Deadline) -> engine.Result | None:
        """The engine's verdict on the position as a hint or step takes it, with no
        search of the position of its own (None: it must check): ``limit`` when the
        puzzle's verdict could not be found in time and nothing was entered (the position
        is the puzzle itself, which a hint's budget would not settle either: the hardest
        25x25 take longer; its givens do not clash, or the verdict would say so), else
        ``unique`` with the solution while every value agrees with the puzzle's (looked
        for within half the budget, once a game)."""
        if self.puzzle_status == "unknown" and not any(self.layers[Layer.VALUE]):
            return engine.Result(engine.Status.LIMIT, 0)
        known = self._agreed_solution(_left(budget) / 2)
        if known is not None:
            return engine.Result(engine.Status.UNIQUE, 1, (known,))
        return None

    def _wrong(self, budget: Deadline | None = None) -> Diagnosis | None:
        """What is wrong with the puzzle or the entries, as far as searches within
        ``budget`` (else :data:`SOLUTION_SECONDS` each) can tell; None: nothing shows."""
        # a puzzle known to have one solution, with every value on the board agreeing
        # with it, has nothing wrong: on the hardest 25x25 each search below takes seconds
        if budget is None and self._agreed_solution(SOLUTION_SECONDS) is not None:
            return None
        seconds = SOLUTION_SECONDS if budget is None else _left(budget) / 2
        own = engine.solve(self.puzzle, limit=1, keep=0, node_limit=5_000_000,
                           time_limit=seconds)
        if own.status is engine.Status.INVALID:
            return Diagnosis("invalid", f"the puzzle itself is invalid: {own.message}")
        if own.status is engine.Status.NONE:
            return Diagnosis("unsolvable", "the puzzle itself has no solution")
        clashes = self.conflicts()
        if clashes:
            where = "a house or cage" if self.shape.cages else "a house"
            return Diagnosis("clash", f"your entries repeat a value in {where}: "
                             + ", ".join(self.name(c) for c in clashes))
        seconds = SOLUTION_SECONDS if budget is None else _left(budget) / 2
        now = engine.solve(self._position(), limit=1, keep=0, node_limit=5_000_000,
                           time_limit=seconds)
        if now.status is engine.Status.NONE:
            return Diagnosis("stuck", "your entries made the puzzle unsolvable (it can be "
                                      "solved without them)")
        return None

    def _derive(self) -> _Derived:
        if self._derived is None:
            givens, entries = self.puzzle.givens, self.layers[Layer.VALUE]
            values = [g or e for g, e in zip(givens, entries, strict=True)]
            forced: dict[int, int] = {}
            if self.auto_fill:
                forced = self._forced(values)
                for c, v in forced.items():
                    values[c] = v
            self._derived = _Derived(values, board_candidates(self.shape, values), forced)
        return self._derived

    def _live(self) -> _Derived:
        derived = self._derive()
        if self.auto_fill:
            return derived
        return _Derived(derived.values, derived.candidates, self._forced(derived.values))

    def _forced(self, values: list[int]) -> dict[int, int]:
        """The values the live solver forces from ``values`` (givens and entries). When
        values were only added since the last time, what was forced then still is, and
        the solver goes on from there; otherwise (a value deleted or changed) it starts
        again from the values alone."""
        last = self._last_live
        forced: dict[int, int] | None = None
        if last is not None and all(not old or old == new
                                    for old, new in zip(last[0], values, strict=True)):
            start = list(values)
            kept = {c: v for c, v in last[1].items() if not values[c]}
            for c, v in kept.items():
                start[c] = v
            more = self._live_placements(start)
            forced = None if more is None else kept | more
        if forced is None:
            forced = self._live_placements(values) or {}
        self._last_live = (list(values), forced)
        return forced

    def _live_placements(self, values: list[int]) -> dict[int, int] | None:
        """What the live solver's techniques place from ``values``; None when the values
        break a rule or lead to a contradiction."""
        puzzle = Puzzle(self.shape, tuple(values), self.puzzle.alphabet)
        if puzzle.clashes():
            return None
        path = solve_path(puzzle, LIVE_TECHNIQUES, time_limit=5)
        if path.status is LogicStatus.INVALID:
            return None
        return {c: v for step in path.steps for c, v in step.placements}


def _left(budget: Deadline) -> float:
    """The seconds a budget has left, at least a millisecond (a search given none would
    have no limit at all)."""
    return max(1e-3, (budget.at or 0.0) - time.monotonic())
