"""Immutable value classes, declared as frozen dataclasses are, without :mod:`dataclasses`.

A class derives from :class:`Frozen` and declares its fields as a frozen dataclass would:
annotated in its body, in order, with their defaults; ``__post_init__``, when the class
has one, checks or converts them after ``__init__`` (setting a field with :func:`setter`).
Equality, the hash and the ``repr`` follow from the fields (a field named in
``_uncompared`` is left out of equality and the hash, as ``compare=False`` would);
:meth:`Frozen.replace` is :func:`dataclasses.replace`. Type checkers see the subclasses as
dataclasses (:func:`typing.dataclass_transform`), so a class turns into one by its
decorator alone.

Why not ``@dataclass(frozen=True)`` itself: these are the classes every command builds
(shapes, puzzles, results, the pipeline's settings), and making a frozen dataclass
generates and compiles its methods, about 1.5 ms a class on a two-core machine: 12 ms of
a one-puzzle ``numberplace solve`` that starts in about 90 ms, and more for a command
that loads no format reader, which would also import :mod:`dataclasses` (and with it
:mod:`inspect`, :mod:`ast`, :mod:`dis` and :mod:`tokenize`, about 15 ms).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import TypeVar

    from typing_extensions import dataclass_transform  # in typing from Python 3.11

    F = TypeVar("F", bound="Frozen")
else:
    def dataclass_transform(**_: object) -> Callable[[type], type]:
        """Type checkers' mark alone: nothing to do at run time."""
        return lambda cls: cls

#: Sets a field of a :class:`Frozen` instance (in its ``__post_init__``).
setter: Callable[[object, str, object], None] = object.__setattr__


@dataclass_transform(frozen_default=True)
class Frozen:
    """Base of immutable value classes (see the module's docs).

    Subclasses keep a ``__dict__``, so :func:`functools.cached_property` works on them and
    they pickle and copy as plain objects do.
    """

    __slots__ = ()
    #: The fields, in order (those the class body annotates).
    _fields: tuple[str, ...] = ()
    #: The default of each field that has one.
    _defaults: dict[str, object] = {}
    #: Fields left out of equality and the hash (a class may name some).
    _uncompared: tuple[str, ...] = ()
    #: The fields that make equality and the hash.
    _compared: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls._fields = tuple(name for name in cls.__dict__.get("__annotations__", {})
                            if not name.startswith("_"))
        cls._defaults = {name: cls.__dict__[name] for name in cls._fields
                         if name in cls.__dict__}
        cls._compared = tuple(name for name in cls._fields if name not in cls._uncompared)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self._fields
        if len(args) > len(fields):
            raise TypeError(f"{type(self).__name__}() takes {len(fields)} arguments, "
                            f"{len(args)} were given")
        values = dict(zip(fields, args, strict=False))  # the rest come by name or default
        for name, value in kwargs.items():
            if name not in fields:
                raise TypeError(f"{type(self).__name__}() has no field {name!r}")
            if name in values:
                raise TypeError(f"{type(self).__name__}() got two values for {name!r}")
            values[name] = value
        if len(values) < len(fields):
            for name in fields:
                if name not in values:
                    if name not in self._defaults:
                        raise TypeError(f"{type(self).__name__}() needs {name!r}")
                    values[name] = self._defaults[name]
            values = {name: values[name] for name in fields}  # in the fields' order
        setter(self, "__dict__", values)
        post = getattr(self, "__post_init__", None)
        if post is not None:
            post()

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
        return type(self)(**fields)
