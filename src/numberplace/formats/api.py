"""The functions of :mod:`numberplace.formats`: detect, parse, read and write, over the
reader and writer of every format (see :mod:`.table` for what each format is and holds).

The package loads this module, and with it every reader, the first time one of them is
asked for; the names of the formats alone load none.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain

from .. import arguments
from ..errors import FormatError, NumberplaceError, ShapeError
from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import Shape, by_name
from . import (
    grid,
    janko,
    jigsaw,
    json_format,
    kakuro,
    killer,
    line,
    pencil,
    puzzlekit,
    samurai,
    samurai_grid,
    sdk,
    sdo,
    ss,
    sukaku,
)
from ._common import Context, Numbered, is_content, is_single_grid, numbered, split_lines
from .detection import NOT_TEXT, binary_column, detect_lines
from .inputs import open_input
from .records import Chunk, number_lines, peek_head, split
from .table import CANDIDATE_FORMATS, FORMAT_NAMES, SUM_FORMATS

__all__ = ["Record", "detect", "parse", "read_file", "read_records", "values9", "write"]


Reader = Callable[[Sequence[Numbered], Context], Puzzle]
Writer = Callable[[Puzzle], str]

#: The module that reads and writes each format of :data:`.table.FORMATS`.
_MODULES = {"line": line, "sdo": sdo, "grid": grid, "sdk": sdk, "ss": ss, "pencil": pencil,
            "sukaku": sukaku, "samurai": samurai, "samurai-grid": samurai_grid,
            "jigsaw": jigsaw, "json": json_format, "kakuro": kakuro,
            "janko": janko, "puzzlekit": puzzlekit, "killer": killer}
_READERS: dict[str, Reader] = {name: module.read for name, module in _MODULES.items()}
_WRITERS: dict[str, Writer] = {name: module.write for name, module in _MODULES.items()}


def _read_canvas(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """``samurai-grid`` text of a single grid is read as ``grid`` text (it is written so)."""
    if ctx.shape is not None and is_single_grid(ctx.shape):
        return grid.read(record, ctx)
    return samurai_grid.read(record, ctx)


def _write_canvas(puzzle: Puzzle) -> str:
    """A single grid in ``samurai-grid`` is written as ``grid``: a bare canvas of one grid
    has no box lines, so a 16x16 with few givens would read back as sixteen 4x4 lines (as
    ``grid`` hands a Samurai to this format)."""
    return grid.write(puzzle) if is_single_grid(puzzle.shape) else samurai_grid.write(puzzle)


_READERS["samurai-grid"] = _read_canvas
_WRITERS["samurai-grid"] = _write_canvas


@dataclass(frozen=True)
class Record:
    """One item of a stream of puzzles: exactly one of ``puzzle`` and ``error`` is set."""

    line: int
    """Line number (from 1) where the record starts in the source."""
    text: str
    """The raw text of the record."""
    format: str
    """The format it was read in, detected or given."""
    puzzle: Puzzle | None
    error: FormatError | None
    """What made the record unreadable, with the source and line."""
    name: str | None = None
    """The puzzle's name where the format gives one (a janko record's header)."""


def detect(text: str, shape: Shape | str | None = None) -> str:
    """The name of the format of one record's text (see :mod:`.detection` for the rules).

    Raises FormatError for a text with no puzzle at all.
    """
    resolved, _ = _prepare(shape, None)
    return detect_lines(split_lines(text), resolved)


def parse(text: str, *, shape: Shape | str | None = None,
          alphabet: Alphabet | str | None = None, format: str | None = None,
          source: str = "<text>") -> Puzzle:
    """Read exactly one puzzle from ``text``; FormatError if there is none, or more.

    ``shape`` (a Shape or a name such as ``"diagonal"``, ``"samurai"``; ``"jigsaw"`` means
    "the text gives its regions", ``"kakuro"`` "a Kakuro of the size its text gives") and
    ``alphabet`` say how to read it where the text does not; ``format`` skips detection.
    """
    arguments.text(text, "text")
    arguments.text(source, "source")
    resolved, format = _prepare(shape, format)
    ctx = Context(resolved, arguments.alphabet(alphabet))
    lines = split_lines(text)
    try:
        format = format or detect_lines(lines, resolved)
        if format == "json" and _is_json_document(lines):
            return json_format.read_document(text, ctx)
        chunks = _split(format, numbered(lines), _grid_count(resolved))
        first = next(chunks, None)
        if first is None:
            raise FormatError("no puzzle here: the text is empty or only comments")
        second = next(chunks, None)
        if second is not None:
            raise FormatError(_more_than_one(format, lines, resolved), line=second.lines[0][0])
        return _read_chunk(first, _READERS[format], ctx)
    except NumberplaceError as exc:
        raise _locate(exc, source, 1) from None


def read_records(lines: Iterable[str], *, shape: Shape | str | None = None,
                 alphabet: Alphabet | str | None = None, format: str | None = None,
                 source: str = "<stdin>") -> Iterator[Record]:
    """The puzzles of a stream of lines, one :class:`Record` each, read lazily.

    The format is detected from the first record unless given. A record that cannot be
    read becomes a Record with its error set, and reading goes on.
    """
    if isinstance(lines, (str, bytes)):
        raise TypeError("lines must be an iterable of lines, not one string (use parse)")
    resolved, format = _prepare(shape, format)
    return _records(number_lines(lines), Context(resolved, arguments.alphabet(alphabet)),
                    format, arguments.text(source, "source"))


def read_file(path: str | os.PathLike[str], *, shape: Shape | str | None = None,
              alphabet: Alphabet | str | None = None, format: str | None = None,
              source: str | None = None) -> Iterator[Record]:
    """The puzzles of a file (``"-"`` for standard input), streamed like :func:`read_records`.

    The file is opened by :func:`numberplace.formats.inputs.open_input`: ``.gz``, ``.xz`` and
    ``.bz2`` files are decompressed, a byte-order mark is skipped, and undecodable bytes
    read as U+FFFD, which then shows in an error as a foreign symbol. A file that cannot be
    opened, or a line too long to be a puzzle, is a FormatError.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file's path, not {arguments.type_name(path)}")
    arguments.optional_text(source, "source")
    name = source or ("<stdin>" if os.fspath(path) == "-" else os.fspath(path))
    resolved, format = _prepare(shape, format)
    ctx = Context(resolved, arguments.alphabet(alphabet))
    return _file_records(path, ctx, format, str(name))


def write(puzzle: Puzzle, format: str = "line", *, values: Sequence[int] | None = None,
          name: str | None = None) -> str:
    """The puzzle as text in a format, without a trailing newline.

    ``name`` is the puzzle's name for a format that holds one (``janko``'s header; a
    record read from one has it in ``Record.name``), and is ignored by the others.

    ``values`` are written instead of the givens (a solution, printed in the format the
    puzzle came in). Formats without candidates write a pencil-mark puzzle's givens only
    (its placed cells); its marks are dropped, never turned into givens. FormatError if the
    format cannot hold the puzzle's shape.
    """
    puzzle = arguments.puzzle(puzzle)
    if format not in _WRITERS:
        raise FormatError(_unknown_format(arguments.text(format, "format")))
    if values is not None:
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise TypeError(f"values must be a sequence of cell values, not "
                            f"{arguments.type_name(values)}")
        puzzle = puzzle.with_values(values)
    elif puzzle.candidates is not None and format not in CANDIDATE_FORMATS:
        # Only the givens: a cell down to one candidate is a naked single the player has
        # not taken, and writing it as a given would make a different (easier) puzzle.
        puzzle = puzzle.with_values(puzzle.givens)
    if puzzle.shape.cages and format not in SUM_FORMATS:
        where = "kakuro" if kakuro.is_kakuro(puzzle.shape) else "killer"
        raise FormatError(f"the {format} format has no place for sums; a "
                          f"{puzzle.shape.name} puzzle is written in the {where} format")
    if format == "janko":
        return janko.write(puzzle, name)
    return _WRITERS[format](puzzle)


# -- internals ------------------------------------------------------------------------------


def _prepare(shape: Shape | str | None, format: str | None) -> tuple[Shape | None, str | None]:
    """Resolve a shape name; ``"jigsaw"`` names no shape but the jigsaw format."""
    if format is not None and format not in _READERS:
        raise FormatError(_unknown_format(arguments.text(format, "format")))
    if not isinstance(shape, str):
        return arguments.optional_shape(shape), format
    if shape.strip().lower() == "jigsaw":
        return None, format or "jigsaw"
    if shape.strip().lower() == "kakuro":
        # a Kakuro's clue squares make its shape, of whatever size: the text gives it
        return None, format
    try:
        return by_name(shape), format
    except NumberplaceError:
        raise
    except ValueError:
        # by_name converts digits to a number, which fails for absurdly long ones.
        raise ShapeError(f"unknown shape {shape[:40]!r}") from None


def _unknown_format(format: str) -> str:
    return f"unknown format {format!r}; known formats: {', '.join(FORMAT_NAMES)}"


def _split(format: str, lines: Iterable[Numbered], grids: int) -> Iterator[Chunk]:
    """The records of a stream in a format (see :func:`.records.split`); a ``puzzlekit``
    record is a header and the rows it announces, blank lines between records or not."""
    if format == "puzzlekit":
        return (Chunk(record, problem) for record, problem in puzzlekit.records(lines))
    return split(format, lines, grids)


def _grid_count(shape: Shape | None) -> int:
    return len(shape.grids) if shape is not None and len(shape.grids) > 1 else 5


def _records(numbered_lines: Iterator[Numbered], ctx: Context, format: str | None,
             source: str) -> Iterator[Record]:
    if format is None:
        head = peek_head(numbered_lines)
        if not head:
            return
        first = next(((n, t) for n, t in head if is_content(t)), None)
        column = binary_column(first[1]) if first is not None else None
        if first is not None and column is not None:
            # one error for a file that is not text, not one for each of its "lines"
            yield Record(first[0], first[1], "line", None,
                         FormatError(NOT_TEXT, source=source, line=first[0], column=column))
            return
        format = detect_lines((text for _, text in head), ctx.shape)
        numbered_lines = chain(head, numbered_lines)
    reader = _READERS[format]
    for chunk in _split(format, numbered_lines, _grid_count(ctx.shape)):
        yield _record(chunk, format, reader, ctx, source)


def _file_records(path: str | os.PathLike[str], ctx: Context, format: str | None,
                  source: str) -> Iterator[Record]:
    with open_input(path, source=source) as handle:
        yield from _records(enumerate(handle.lines(), start=1), ctx, format, source)


def _record(chunk: Chunk, format: str, reader: Reader, ctx: Context, source: str) -> Record:
    start = chunk.lines[0][0]
    text = "\n".join(t for _, t in chunk.lines)
    name = janko.name_of(chunk.lines) if format == "janko" else None
    try:
        puzzle = _read_chunk(chunk, reader, ctx)
    except NumberplaceError as exc:
        return Record(start, text, format, None, _locate(exc, source, start), name)
    return Record(start, text, format, puzzle, None, name)


def _read_chunk(chunk: Chunk, reader: Reader, ctx: Context) -> Puzzle:
    if chunk.problem is not None:
        raise FormatError(chunk.problem, line=chunk.lines[0][0])
    return reader(chunk.lines, ctx)


def _locate(exc: NumberplaceError, source: str, line: int) -> FormatError:
    """The error as a FormatError naming the source, and the line if it names none."""
    if not isinstance(exc, FormatError):
        return FormatError(str(exc), source=source, line=line)
    return exc.located(source=source, line=line if exc.line is None else None)


def _is_json_document(lines: Sequence[str]) -> bool:
    """True if a JSON text is one object over several lines rather than one per line."""
    content = [text for text in lines if is_content(text)]
    if len(content) < 2:
        return False
    try:
        json.loads(content[0])
    except (ValueError, RecursionError):
        return True
    return False


def _more_than_one(format: str, lines: Sequence[str], shape: Shape | None) -> str:
    message = ("a second puzzle starts here; parse reads exactly one "
               "(read_records reads many)")
    content = [text.strip() for text in lines if is_content(text)]
    if format in ("line", "sdo") and shape is None and len(content) == 5 \
            and all(len(text) == 81 for text in content):
        message += "; five lines of 81 are a Samurai only with shape='samurai'"
    return message


#: Byte table from the characters of a plain 9x9 line to cell values; 255 marks any other.
_VALUES9 = bytes(0 if ch in b".0" else (ch - 48 if 49 <= ch <= 57 else 255)
                 for ch in range(256))


def values9(text: str) -> bytes | None:
    """Cell values of a plain 81-character 9x9 line (digits, ``.`` or ``0`` empty), or None.

    The fast path for files of millions of classic puzzles: one table look-up per line,
    no :class:`Puzzle` built. Anything else (other lengths, letters, separators) gives
    None, and the caller reads the line with :func:`parse` for a precise answer.
    """
    values = text.strip().encode("latin-1", "replace").translate(_VALUES9)
    return values if len(values) == 81 and 255 not in values else None
