"""Immutable value classes without :mod:`dataclasses`.

The types every command builds (shapes, puzzles, results, the pipeline's settings) are
defined on :class:`Frozen` rather than as dataclasses: importing ``dataclasses`` (which
imports ``inspect``) and generating each class's methods took about a quarter of a
one-puzzle command's start-up. Each class annotates its fields in its body, as a
dataclass would, and writes its own ``__init__`` (with :func:`setter`); equality,
hashing, ``repr`` and :meth:`Frozen.replace` follow from the annotated fields as they
would for a frozen dataclass.
"""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    F = TypeVar("F", bound="Frozen")

#: Sets an attribute of a :class:`Frozen` instance (in its ``__init__``).
setter: Callable[[object, str, object], None] = object.__setattr__


class Frozen:
    """Base of immutable value classes: shown by their ``_fields``, compared and hashed
    by those not named in ``_uncompared``.

    Subclasses keep a ``__dict__``, so :func:`functools.cached_property` works on them and
    they pickle and copy as plain objects do.
    """

    __slots__ = ()
    #: The fields, in order (those the class body annotates): they make the repr and
    #: replace().
    _fields: tuple[str, ...] = ()
    #: Fields left out of equality and the hash (a class may name some).
    _uncompared: tuple[str, ...] = ()
    #: The fields that make equality and the hash.
    _compared: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls._fields = tuple(cls.__dict__.get("__annotations__", {}))
        cls._compared = tuple(name for name in cls._fields if name not in cls._uncompared)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: "
                             f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: "
                             f"{type(self).__name__} is immutable")

    def _compared_values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self._compared])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or self._compared_values() == other._compared_values()

    def __hash__(self) -> int:
        return hash(self._compared_values())

    def __repr__(self) -> str:
        inside = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({inside})"

    def replace(self: F, **changes: object) -> F:
        """A copy with the named fields changed (as :func:`dataclasses.replace`)."""
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        fields = {name: getattr(self, name) for name in self._fields}
        fields.update(changes)
        return type(self)(**fields)  # each subclass's __init__ takes its fields
