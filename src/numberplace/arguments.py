"""Checks of the arguments of public calls.

A public function accepts the obvious inputs (a puzzle string where a :class:`Puzzle` is
expected) and rejects the rest before any work: a value of the wrong type with a
:class:`TypeError`, a value out of range with a :class:`~numberplace.errors.NumberplaceError`
(a :class:`ValueError`), each naming the argument.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .errors import NumberplaceError

if TYPE_CHECKING:
    from .model.alphabet import Alphabet
    from .model.puzzle import Puzzle
    from .model.shape import Shape

#: The largest solution count a search can be asked for (the engine counts in 32 bits).
MAX_LIMIT = 2**31 - 1
#: The largest node budget a search can be given.
MAX_NODES = 2**63 - 1
#: The Explainer's scales a difficulty can follow: which of its techniques it rates
#: with. ``explainer`` is Sudoku Explainer 1.2.1's set, the one most published ratings
#: use; ``sukaku`` is SukakuExplainer's default set, which adds strong-linked fish
#: (Skyscraper, 2-String Kite, Turbot Fish and longer) and ALS wings (WXYZ to TUVWXYZ)
#: between them, and rates the largest public puzzle banks.
SCALES = ("explainer", "sukaku")


def type_name(value: object) -> str:
    """``str``, ``NoneType``... for messages."""
    return type(value).__name__


def whole(value: object, name: str, minimum: int = 0, maximum: int = MAX_NODES) -> int:
    """``value`` as a whole number within ``minimum..maximum`` (``True`` is not one)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {type_name(value)}")
    if not minimum <= value <= maximum:
        raise NumberplaceError(f"{name} must be {_range_text(minimum, maximum)}, not {value}")
    return value


def _range_text(minimum: int, maximum: int) -> str:
    if maximum >= MAX_NODES:
        return f"at least {minimum}"
    return f"from {minimum} to {maximum:,}"


def seconds(value: object, name: str = "time_limit") -> float | None:
    """``value`` as a number of seconds (None: no limit); finite and not negative."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds or None, not {type_name(value)}")
    if math.isnan(value) or value < 0:
        raise NumberplaceError(f"{name} must be a number of seconds of at least 0, not {value}")
    return float(value) if math.isfinite(value) else None


def text(value: object, name: str) -> str:
    """``value`` as a string."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, not {type_name(value)}")
    return value


def optional_text(value: object, name: str) -> str | None:
    """``value`` as a string or None."""
    return None if value is None else text(value, name)


def puzzle(value: object, name: str = "puzzle") -> Puzzle:
    """A :class:`Puzzle`, or a puzzle's text in any format (read as :func:`formats.parse`
    reads it)."""
    # imported here: the model and the formats check their arguments with this module
    from .model.puzzle import Puzzle

    if isinstance(value, Puzzle):
        return value
    if isinstance(value, str):
        # imported here: as above, and the readers load only for a puzzle given as text
        from .formats import parse

        return parse(value)
    raise TypeError(f"{name} must be a Puzzle or a puzzle's text, not {type_name(value)}")


def shape(value: object, name: str = "shape") -> Shape:
    """A :class:`Shape`, or a shape's name (``"16x16"``, ``"samurai"``...)."""
    # imported here: shape checks its own arguments with this module
    from .model.shape import Shape, by_name

    if isinstance(value, Shape):
        return value
    if isinstance(value, str):
        return by_name(value)
    raise TypeError(f"{name} must be a Shape or a shape's name, not {type_name(value)}")


def optional_shape(value: object, name: str = "shape") -> Shape | None:
    """:func:`shape`, or None."""
    return None if value is None else shape(value, name)


def alphabet(value: object, name: str = "alphabet") -> Alphabet | None:
    """An :class:`Alphabet`, its symbols as a string (``"WORDPLAYS"``), ``"hex"``, or None."""
    # imported here: the model, a layer above this module, checks its arguments with it
    from .model.alphabet import Alphabet

    if value is None or isinstance(value, Alphabet):
        return value
    if not isinstance(value, str):
        raise TypeError(f"{name} must be an Alphabet or its symbols, not {type_name(value)}")
    if value.lower() == "hex":
        return Alphabet.hexadecimal()
    if value.lower() in ("digits", "letters"):
        raise NumberplaceError(f"{name} {value!r} depends on the size: give the symbols "
                               f"themselves or Alphabet.for_size(size, {value!r})")
    return Alphabet(value.upper())


def scale(value: object, name: str = "scale") -> str:
    """One of :data:`SCALES`, in any case."""
    got = text(value, name).strip().lower()
    if got not in SCALES:
        raise NumberplaceError(f"unknown {name} {value!r}; scales: {', '.join(SCALES)}")
    return got
