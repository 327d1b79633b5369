"""Moves as data, and the undo/redo history they make.

A :class:`Move` is what one action of the player changed: a list of :class:`Change`, each
the before and after of one cell of one layer (its value, corner marks, centre marks or
colour). Undo applies the befores, redo the afters, so every action, pencil marks and
colours included, goes through one mechanism; a new move clears what could be redone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum


class Layer(str, Enum):
    """What a change writes in a cell."""

    VALUE = "value"      #: the player's value (0: none)
    CORNER = "corner"    #: corner pencil marks, a bit mask of values
    CENTRE = "centre"    #: centre pencil marks, a bit mask of values
    COLOUR = "colour"    #: a colour of the palette (0: none)
    SOURCE = "source"    #: who wrote the value: 0 the player, 1 the step button, 2 solve all

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Change:
    """One cell of one layer: what it held before the move and after."""

    layer: Layer
    cell: int
    before: int
    after: int


@dataclass(frozen=True)
class Move:
    """One action: its kind (``enter``, ``erase``, ``corner``, ``centre``, ``colour``,
    ``step``, ``solve``...), what it changed, and how the activity log tells it."""

    kind: str
    changes: tuple[Change, ...]
    text: str = ""

    def to_record(self) -> dict[str, object]:
        """The move as JSON-ready data."""
        return {"kind": self.kind, "text": self.text,
                "changes": [[str(c.layer), c.cell, c.before, c.after] for c in self.changes]}

    @classmethod
    def from_record(cls, record: object) -> Move:
        """A move from :meth:`to_record`'s data; ValueError if it is not one."""
        if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
            raise ValueError("a move is an object with a kind")
        changes = []
        for item in record.get("changes", []):
            if not (isinstance(item, list) and len(item) == 4
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in item[1:])):
                raise ValueError("a change is [layer, cell, before, after]")
            changes.append(Change(Layer(item[0]), item[1], item[2], item[3]))
        return cls(record["kind"], tuple(changes), str(record.get("text", "")))


#: How far back a game can be undone: at most this many moves, and moves of at most this
#: many cell changes in all. A game's record holds them, and is written after every move,
#: so they bound its size (a 25x25 repainted whole is 625 changes a move).
UNDO_MOVES = 1000
UNDO_CHANGES = 20_000


@dataclass
class History:
    """The moves that can be undone (latest last) and those that can be redone."""

    done: list[Move] = field(default_factory=list)
    undone: list[Move] = field(default_factory=list)
    #: the cell changes among the moves of ``done``, kept as they come and go (counting
    #: them at every move would cost in proportion to the history)
    _changes: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._changes = sum(len(m.changes) for m in self.done)

    def record(self, move: Move) -> None:
        """A new move: it can be undone, and nothing can be redone any more. The oldest
        moves are let go past :data:`UNDO_MOVES` or :data:`UNDO_CHANGES`."""
        self.done.append(move)
        self.undone.clear()
        self._changes += len(move.changes)
        drop = 0
        while len(self.done) - drop > UNDO_MOVES or (
                self._changes > UNDO_CHANGES and drop < len(self.done) - 1):
            self._changes -= len(self.done[drop].changes)
            drop += 1
        if drop:
            del self.done[:drop]

    def back(self) -> Move | None:
        """The move to undo (moved to the redo side), or None."""
        move = _shift(self.done, self.undone)
        if move is not None:
            self._changes -= len(move.changes)
        return move

    def forward(self) -> Move | None:
        """The move to redo (moved back to the undo side), or None."""
        move = _shift(self.undone, self.done)
        if move is not None:
            self._changes += len(move.changes)
        return move


def _shift(source: list[Move], target: list[Move]) -> Move | None:
    """The last move of ``source``, moved onto ``target``; None when there is none."""
    if not source:
        return None
    move = source.pop()
    target.append(move)
    return move


def changes_of(layer: Layer, cells: Sequence[int], before: Sequence[int],
               after: Sequence[int]) -> tuple[Change, ...]:
    """The changes of the cells of one layer whose content differs."""
    return tuple(Change(layer, c, b, a) for c, b, a in zip(cells, before, after, strict=True)
                 if b != a)
