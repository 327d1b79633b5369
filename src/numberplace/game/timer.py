"""The game's clock: elapsed play time that can be paused, resumed and stopped."""

from __future__ import annotations

import time
from collections.abc import Callable


class Timer:
    """Seconds of play. ``clock`` (monotonic seconds) can be given, for tests."""

    def __init__(self, elapsed: float = 0.0, running: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._before = elapsed
        self._since: float | None = clock() if running else None

    @property
    def running(self) -> bool:
        """True while the clock counts."""
        return self._since is not None

    def elapsed(self) -> float:
        """Seconds counted so far."""
        if self._since is None:
            return self._before
        return self._before + self._clock() - self._since

    def pause(self) -> None:
        """Stop counting (for a pause, or when the puzzle is solved)."""
        if self._since is not None:
            self._before = self.elapsed()
            self._since = None

    def resume(self) -> None:
        """Count again."""
        if self._since is None:
            self._since = self._clock()

    def text(self) -> str:
        """``12:34``, or ``1:02:03`` past an hour."""
        seconds = int(self.elapsed())
        hours, rest = divmod(seconds, 3600)
        minutes, seconds = divmod(rest, 60)
        return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
