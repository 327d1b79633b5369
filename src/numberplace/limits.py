"""Time limits shared by the parts of one piece of work.

A :class:`Deadline` is made once from the caller's ``time_limit`` and handed down, so that
every search, solve path and retry inside one request (rating a puzzle, generating one)
ends by the same moment instead of each taking the whole limit again.

A :func:`ceiling` bounds all of that at once from outside: within it, every deadline and
every engine search ends by the ceiling's moment, or at once when its ``cancelled`` event
is set (a web request whose client went away).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .errors import LimitError

#: The moment the current piece of work must end by, and the event that cancels it.
_CEILING: ContextVar[tuple[float, threading.Event | None] | None] = ContextVar(
    "ceiling", default=None)
#: What a search is given once its ceiling has come: it stops at once, with a limit.
_AT_ONCE = 1e-3


@contextmanager
def ceiling(seconds: float, cancelled: threading.Event | None = None) -> Iterator[None]:
    """Within the block (in this thread), every time limit ends by ``seconds`` from now,
    and at once when ``cancelled`` is set."""
    token = _CEILING.set((time.monotonic() + seconds, cancelled))
    try:
        yield
    finally:
        _CEILING.reset(token)


def bounded(seconds: float | None) -> float | None:
    """``seconds`` (None: no limit) cut to what the current ceiling leaves, if any."""
    found = _CEILING.get()
    if found is None:
        return seconds
    at, cancelled = found
    left = _AT_ONCE if cancelled is not None and cancelled.is_set() else \
        max(at - time.monotonic(), _AT_ONCE)
    return left if seconds is None else min(seconds, left)


def _cancelled() -> threading.Event | None:
    found = _CEILING.get()
    return None if found is None else found[1]


class Deadline:
    """The moment by which a piece of work must end; ``Deadline(None)`` never passes."""

    __slots__ = ("at", "seconds", "cancelled")

    def __init__(self, seconds: float | None) -> None:
        self.seconds = bounded(seconds)
        self.at = None if self.seconds is None else time.monotonic() + self.seconds
        self.cancelled = _cancelled()

    def left(self) -> float | None:
        """Seconds left (None: no limit). Raises :class:`LimitError` when none are."""
        self.check()
        return None if self.at is None else self.at - time.monotonic()

    def passed(self) -> bool:
        """True once the moment has come (or the work was cancelled)."""
        return (self.at is not None and time.monotonic() >= self.at) or (
            self.cancelled is not None and self.cancelled.is_set())

    def check(self) -> None:
        """Raise :class:`LimitError` once the moment has come (or the work was cancelled)."""
        if self.passed():
            raise LimitError(f"the time limit of {self.seconds or 0:g} s ran out")

    def stop_text(self) -> str:
        """How a piece of work that stopped at this deadline says so."""
        return f"stopped at the time limit of {self.seconds or 0:g} s"

    def __repr__(self) -> str:
        return f"Deadline({self.seconds!r})"


#: The deadline that never comes.
NEVER = Deadline(None)
