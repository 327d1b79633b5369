"""The exceptions numberplace raises on bad input.

Every error a user can cause is a :class:`NumberplaceError`; the command line turns it into
one line on standard error and exit status 2, never a traceback.
"""

from __future__ import annotations


class NumberplaceError(ValueError):
    """Base class of every error caused by bad input or a bad request."""


class ShapeError(NumberplaceError):
    """A grid shape cannot be built (bad size, regions that do not tile the grid, ...)."""


class PuzzleError(NumberplaceError):
    """A puzzle is inconsistent with its shape or alphabet."""


class FormatError(NumberplaceError):
    """Text that cannot be read as a puzzle, with the place where reading failed.

    ``source`` is a file name (or ``"<stdin>"``, ``"<text>"``), ``line`` and ``column``
    count from 1. The message reads ``source, line L, column C: what is wrong``.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.reason = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self._render())

    @property
    def place(self) -> str:
        """Where reading failed, ``source, line L, column C`` ("" if nowhere is known)."""
        where = []
        if self.source:
            where.append(self.source)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        return ", ".join(where)

    def _render(self) -> str:
        return f"{self.place}: {self.reason}" if self.place else self.reason

    def located(
        self, *, source: str | None = None, line: int | None = None
    ) -> FormatError:
        """Return a copy with the file name and/or a line offset filled in.

        ``line`` is the number of the first line of the text this error was raised on,
        so a reader of one record can report the line in the whole file.
        """
        new_line = self.line
        if line is not None:
            new_line = line + (self.line - 1 if self.line is not None else 0)
        return FormatError(
            self.reason,
            source=source if source is not None else self.source,
            line=new_line,
            column=self.column,
        )


class LimitError(NumberplaceError):
    """A search ran out of its node or time budget before it could answer."""
