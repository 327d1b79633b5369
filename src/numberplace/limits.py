"""Time limits shared by the parts of one piece of work.

A :class:`Deadline` is made once from the caller's ``time_limit`` and handed down, so that
every search, solve path and retry inside one request (rating a puzzle, generating one)
ends by the same moment instead of each taking the whole limit again.
"""

from __future__ import annotations

import time

from .errors import LimitError


class Deadline:
    """The moment by which a piece of work must end; ``Deadline(None)`` never passes."""

    __slots__ = ("at", "seconds")

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.at = None if seconds is None else time.monotonic() + seconds

    def left(self) -> float | None:
        """Seconds left (None: no limit). Raises :class:`LimitError` when none are."""
        if self.at is None:
            return None
        left = self.at - time.monotonic()
        if left <= 0:
            raise LimitError(f"the time limit of {self.seconds:g} s ran out")
        return left

    def passed(self) -> bool:
        """True once the moment has come."""
        return self.at is not None and time.monotonic() > self.at

    def check(self) -> None:
        """Raise :class:`LimitError` once the moment has come."""
        if self.at is not None and time.monotonic() > self.at:
            raise LimitError(f"the time limit of {self.seconds:g} s ran out")

    def stop_text(self) -> str:
        """How a piece of work that stopped at this deadline says so."""
        return f"stopped at the time limit of {self.seconds or 0:g} s"

    def __repr__(self) -> str:
        return f"Deadline({self.seconds!r})"


#: The deadline that never comes.
NEVER = Deadline(None)
