"""What an action changed in a session, as a small piece of data that a saved record takes.

A game on a server is saved after every action. Writing its whole record each time costs
time in proportion to its history; instead :func:`delta` compares the session with a
:class:`Mark` of it taken at the last save and tells only what differs, and :func:`apply`
brings a record (:func:`~numberplace.game.saving.to_record`'s data) up to date with it:
``apply(to_record(before), delta(mark(before), after))`` equals ``to_record(after)``.

A delta is a JSON object with any of:

- ``cells``: ``[layer, cell, value]`` for each cell of each layer that now holds another
  value;
- ``undo``, ``redo``, ``log``: how the list changed, as ``[drop, keep, tail]``: the first
  ``drop`` items go, the next ``keep`` stay, then ``tail`` comes (a move pushes one, an
  undo pops one, the oldest are let go);
- ``receipts``: ``{client: seq}`` set in this order (each moved to the end, as
  :meth:`~numberplace.game.Session.receipt` does) and ``receipts_kept``, how many remain
  (the oldest go);
- ``set``: the settings and states that changed (``mode``, ``notation``, ``auto_fill``,
  ``timer``, ``solved``, ``revealed``, ``verdict``).

A running clock alone is no change: its time is saved with the next change, or a pause.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .history import Layer, Move
from .session import Session

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Mark:
    """A session as it was saved: copies of its layers and lists (the moves and lines
    themselves are shared: they never change), and its settings."""

    layers: list[list[int]]
    done: list[Move]
    undone: list[Move]
    log: list[str]
    receipts: list[tuple[str, int]]
    settings: dict[str, Any]


def settings(session: Session) -> dict[str, Any]:
    """The settings and states a record keeps beside the board, as the record writes them."""
    return {"mode": str(session.mode), "notation": session.notation,
            "auto_fill": session.auto_fill,
            "timer": {"elapsed": round(session.timer.elapsed(), 3),
                      "running": session.timer.running},
            "solved": session.solved, "revealed": session.revealed,
            "verdict": session.puzzle_status}


def mark(session: Session) -> Mark:
    """The session as it stands, to compare with later."""
    return Mark([list(session.layers[layer]) for layer in Layer],
                list(session.history.done), list(session.history.undone),
                list(session.log), list(session.receipts.items()), settings(session))


def delta(before: Mark, session: Session) -> dict[str, Any] | None:
    """What changed in ``session`` since ``before``; None for nothing."""
    out: dict[str, Any] = {}
    cells = []
    for layer, old in zip(Layer, before.layers, strict=True):
        new = session.layers[layer]
        if new != old:  # compared in C first: most actions change one layer
            cells += [[str(layer), c, v] for c, (a, v) in enumerate(zip(old, new, strict=True))
                      if a != v]
    if cells:
        out["cells"] = cells
    for key, old_moves, new_moves in (("undo", before.done, session.history.done),
                                      ("redo", before.undone, session.history.undone)):
        moved = list_change(old_moves, new_moves)
        if moved is not None:
            out[key] = [moved[0], moved[1], [m.to_record() for m in moved[2]]]
    logged = list_change(before.log, session.log)
    if logged is not None:
        out["log"] = list(logged)
    receipts = list(session.receipts.items())
    if receipts != before.receipts:
        old_receipts = dict(before.receipts)
        # the receipts set since, in order: the tail of the new order that differs
        changed = [(k, v) for k, v in receipts if old_receipts.get(k) != v]
        out["receipts"] = dict(changed)
        out["receipts_kept"] = len(receipts)
    now = settings(session)
    was = before.settings
    changed_settings = {k: v for k, v in now.items() if v != was[k] and k != "timer"}
    timer, old_timer = now["timer"], was["timer"]
    if timer["running"] != old_timer["running"] or (
            timer != old_timer and (out or changed_settings)):
        changed_settings["timer"] = timer
    if changed_settings:
        out["set"] = changed_settings
    return out or None


def list_change(old: list[T], new: list[T]) -> tuple[int, int, list[T]] | None:
    """How ``new`` is made from ``old``: ``(drop, keep, tail)``, or None when they hold the
    same items. Items are compared by value; the lists' own comparison, in C, sees the
    same object as equal at once, so the usual changes (one item added, one taken off
    the end, the oldest let go) cost little however long the lists are."""
    size = len(old)
    if len(new) == size and new == old:
        return None
    for drop in (0, 1):  # nothing let go, or the oldest one (a list at its bound)
        keep = size - drop
        if len(new) >= keep and new[:keep] == old[drop:]:
            return drop, keep, list(new[keep:])
    if len(new) < size and new == old[:len(new)]:  # taken off the end
        return 0, len(new), []
    # anything else: the first new item's place in the old list, then what follows it
    drop = next((i for i, item in enumerate(old) if new and item == new[0]), size)
    keep = 0
    while drop + keep < size and keep < len(new) and old[drop + keep] == new[keep]:
        keep += 1
    return drop, keep, list(new[keep:])


def apply_list(items: list[T], change: Sequence[Any]) -> list[T]:
    """A list changed as :func:`list_change` tells."""
    drop, keep, tail = change
    return items[drop:drop + keep] + list(tail)


def apply(record: dict[str, Any], change: dict[str, Any]) -> None:
    """Bring a session record (:func:`~numberplace.game.saving.to_record`'s data) up to
    date with a :func:`delta`, in place; ValueError if it does not fit the record."""
    try:
        layers = record["layers"]
        for layer, cell, value in change.get("cells", ()):
            if not 0 <= cell < len(layers[layer]):
                raise ValueError(f"cell {cell} is outside the grid")
            layers[layer][cell] = value
        for key in ("undo", "redo", "log"):
            if key in change:
                record[key] = apply_list(record[key], change[key])
        if "receipts" in change:
            receipts = record.setdefault("receipts", {})
            for client, seq in change["receipts"].items():
                receipts.pop(client, None)
                receipts[client] = seq
            while len(receipts) > change["receipts_kept"]:
                del receipts[next(iter(receipts))]
        for key, value in change.get("set", {}).items():
            if key not in SETTINGS:
                raise ValueError(f"unknown setting {key!r}")
            record[key] = value
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"a change that does not fit the game: {exc!r}") from None


#: The settings a delta may set.
SETTINGS = frozenset({"mode", "notation", "auto_fill", "timer", "solved", "revealed",
                      "verdict"})
