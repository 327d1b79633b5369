"""Puzzle files and standard input, opened the one way the library and the command line share::

    with open_input("puzzles.txt.gz") as source:
        for text in source.lines():
            show_progress(source.position(), source.size)

``"-"`` is standard input. Files ending in ``.gz``, ``.xz`` or ``.bz2`` are decompressed,
and so is standard input that starts with the magic bytes of one of them. The text is
UTF-8 (a byte-order mark is skipped) unless it starts with a UTF-16 byte-order mark;
undecodable bytes read as U+FFFD. Lines come without their line ends, whichever of
``\\n``, ``\\r\\n`` and ``\\r`` they have. Whatever goes wrong is a
:class:`~numberplace.errors.FormatError` of one line.
"""

from __future__ import annotations

import io
import os
import stat
import sys
import zlib
from collections.abc import Callable, Generator, Iterator
from types import TracebackType
from typing import IO, TYPE_CHECKING

from ..errors import FormatError

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

__all__ = ["MAX_LINE", "Input", "open_input"]

#: Most characters of one line; reading a longer one stops with an error.
MAX_LINE = 1_000_000

#: Suffixes of compressed files, with the name of their compression.
_BY_SUFFIX: dict[str, str] = {".gz": "gzip", ".xz": "xz", ".bz2": "bzip2"}

_CHUNK = 1 << 16
_HEAD = 10  # enough bytes to tell every magic number below

# Errors of a damaged compressed stream: gzip raises OSError, EOFError (cut short) or
# zlib.error, xz raises LZMAError (added when xz is first read: the decompressors are
# imported only for compressed input), bzip2 raises OSError or EOFError.
_READ_ERRORS: tuple[type[BaseException], ...] = (OSError, EOFError, zlib.error)


class _Bytes(io.RawIOBase):
    """A readable stream over a read function, counting the bytes that function returned.

    :meth:`take` looks at the start without using it up, which a source that cannot seek
    (a pipe, a decompressor) does not allow. Closing it never closes the source: whoever
    opened the source closes it.
    """

    def __init__(self, read: Callable[[int], bytes | None]) -> None:
        super().__init__()
        self._read = read
        self._front = b""
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        if not self._front:
            data = self._read(len(view)) or b""
            self.count += len(data)
            if len(data) <= len(view):
                view[:len(data)] = data
                return len(data)
            # a source that may return more than asked for (text encoded to bytes)
            self._front = data
        taken = self._front[:len(view)]
        self._front = self._front[len(taken):]
        view[:len(taken)] = taken
        return len(taken)

    def take(self, size: int, undecided: Callable[[bytes], bool]) -> bytes:
        """Up to ``size`` bytes from the start, put back to be read again.

        Reading stops early once ``undecided`` is false for the bytes so far, so a person
        typing at a terminal is not kept waiting for bytes that would change nothing.
        """
        head = self.read(size) or b""
        while len(head) < size and undecided(head):
            more = self.read(size - len(head))
            if not more:
                break
            head += more
        self._front = head + self._front
        return head


class Input:
    """An open puzzle source: its lines, its size and how far reading has got.

    Made by :func:`open_input`; use it as a context manager or call :meth:`close`.
    """

    name: str
    """The path as given, ``"<stdin>"``, or the ``source`` passed to :func:`open_input`."""
    size: int | None
    """The size in bytes of the file on disk (compressed, when it is); None for a stream."""
    path: str | None
    """The path opened, to read the file a second time (a progress display counts a small
    file's puzzles first); None for standard input, which can be read only once."""

    def __init__(self, name: str, size: int | None, disk: _Bytes, text: IO[str],
                 kind: str | None, closers: list[Callable[[], object]],
                 path: str | None = None) -> None:
        self.name = name
        self.size = size
        self.path = path
        self._disk = disk
        self._text = text
        self._kind = kind
        self._closers = closers
        self._line = 0

    def lines(self) -> Generator[str, None, None]:
        """The decoded lines, without their line ends, read as they are asked for.

        A line longer than :data:`MAX_LINE` characters is a FormatError, raised before
        more than about that much of it is held in memory.
        """
        readline = self._text.readline
        number = self._line
        try:
            while True:
                # One more than the limit holds a whole line and its "\n" (the decoder
                # turns "\r\n" and "\r" into "\n"), so a longer line shows as a piece
                # without one.
                text = readline(MAX_LINE + 1)
                if not text:
                    return
                number += 1
                if text[-1] == "\n":
                    text = text[:-1]
                elif len(text) > MAX_LINE:
                    raise FormatError(f"the line is longer than {MAX_LINE:,} characters; "
                                      f"no puzzle is that long", source=self.name, line=number)
                yield text
        except _READ_ERRORS as exc:
            raise _cannot_read(self.name, exc, self._kind) from None
        finally:
            self._line = number

    @property
    def line(self) -> int:
        """How many lines :meth:`lines` and :meth:`blocks` have handed out."""
        return self._line

    def blocks(self, size: int = 1 << 17) -> Iterator[str]:
        """The rest of the text in blocks of whole lines, about ``size`` characters each,
        every line ended by ``\\n`` but perhaps the last: for readers that split lines
        themselves. The same text and errors as :meth:`lines`."""
        read, readline = self._text.read, self._text.readline
        try:
            while True:
                block = read(size)
                if not block:
                    return
                if block[-1] != "\n":
                    block += readline(MAX_LINE + 1)
                    start = block.rfind("\n", 0, len(block) - 1) + 1
                    if len(block) - start - (block[-1] == "\n") > MAX_LINE:
                        raise FormatError(
                            f"the line is longer than {MAX_LINE:,} characters; no puzzle is "
                            f"that long", source=self.name,
                            line=self._line + block.count("\n", 0, start) + 1)
                self._line += block.count("\n") + (block[-1] != "\n")
                yield block
        except _READ_ERRORS as exc:
            raise _cannot_read(self.name, exc, self._kind) from None

    def puzzle_lines(self) -> Iterator[str]:
        """The lines that hold something, stripped: no blank lines, no ``#`` comments
        (a file of one puzzle per line, read without the format readers)."""
        for line in self.lines():
            text = line.strip()
            if text and not text.startswith("#"):
                yield text

    def position(self) -> int:
        """How many bytes of the file on disk have been read so far (for a progress bar).

        For a compressed file this counts compressed bytes, so it ends at :attr:`size`.
        Reading runs a little ahead of the lines handed out.
        """
        return self._disk.count

    def close(self) -> None:
        """Close the file; standard input stays open."""
        closers, self._closers = self._closers, []
        for close in closers:
            close()

    def __enter__(self) -> Input:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def open_input(path: str | os.PathLike[str], *, source: str | None = None) -> Input:
    """Open a puzzle file, or standard input for ``"-"``, to read its lines.

    ``source`` names it in errors instead of the path. A file that cannot be opened or a
    damaged compressed file raises FormatError: ``cannot read FILE: reason``.
    """
    given = os.fspath(path)
    if given == "-":
        return _open_stdin(source or "<stdin>")
    name = source or given
    try:
        handle = open(given, "rb", buffering=0)
    except OSError as exc:
        raise _cannot_read(name, exc) from None
    try:
        info = os.fstat(handle.fileno())
        size = info.st_size if stat.S_ISREG(info.st_mode) else None
        kind = _BY_SUFFIX.get(os.path.splitext(given)[1].lower())
        return _build(name, size, _Bytes(handle.read), kind, handle.close, given)
    except BaseException:
        handle.close()
        raise


def _open_stdin(name: str) -> Input:
    stdin = sys.stdin
    if stdin is None:
        raise FormatError(f"cannot read {name}: there is no standard input")
    buffer = getattr(stdin, "buffer", None)
    if buffer is not None:
        # read1 hands over what a pipe has now instead of waiting for a full chunk.
        disk = _Bytes(getattr(buffer, "read1", buffer.read))
    else:
        # A text stream without bytes below it (as tests and some consoles set): its text
        # goes through the same decoding, so every source reads alike.
        disk = _Bytes(lambda size: stdin.read(size).encode("utf-8", "surrogatepass"))
    try:
        head = disk.take(_HEAD, _may_be_packed)
    except _READ_ERRORS as exc:
        raise _cannot_read(name, exc) from None
    # Nothing here closes stdin: the wrappers are ours, and closing them stops at _Bytes.
    return _build(name, None, disk, _sniff(head), lambda: None)


#: The magic number each compression's stream starts with.
_MAGIC = {"gzip": b"\x1f\x8b", "xz": b"\xfd7zXZ\x00", "bzip2": b"BZh"}


def _may_be_packed(head: bytes) -> bool:
    """True while the start of a stream may still grow into a magic number of _sniff."""
    return _sniff(head) is None and any(
        magic.startswith(head) or head.startswith(magic) for magic in _MAGIC.values())


def _sniff(head: bytes) -> str | None:
    """The compression whose magic number a stream starts with, if any."""
    for kind in ("gzip", "xz"):
        if head.startswith(_MAGIC[kind]):
            return kind
    # "BZh", the block size, then the magic of a first block or of the end of the stream
    if head[:3] == _MAGIC["bzip2"] and head[3:4] in b"123456789" and len(head) >= 10 \
            and head[4:10] in (b"1AY&SY", b"\x17rE8P\x90"):
        return "bzip2"
    return None


def _build(name: str, size: int | None, disk: _Bytes, kind: str | None,
           close_source: Callable[[], object], path: str | None = None) -> Input:
    closers: list[Callable[[], object]] = []
    top = disk
    try:
        if kind is not None:
            unpacked = _decompressor(kind, disk)
            closers.append(unpacked.close)
            top = _Bytes(getattr(unpacked, "read1", unpacked.read))
        try:
            head = top.take(2, lambda start: start in (b"\xff", b"\xfe"))
        except _READ_ERRORS as exc:
            raise _cannot_read(name, exc, kind) from None
        # utf-8-sig drops a UTF-8 byte-order mark; "utf-16" reads its own and the byte order.
        encoding = "utf-16" if head in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
        text = io.TextIOWrapper(io.BufferedReader(top, _CHUNK), encoding=encoding,
                                errors="replace", newline=None)
    except BaseException:
        for close in reversed(closers):
            close()
        close_source()
        raise
    closers.insert(0, text.close)
    closers.append(close_source)
    return Input(name, size, disk, text, kind, closers, path)


def _decompressor(kind: str, disk: _Bytes) -> io.BufferedIOBase:
    global _READ_ERRORS
    packed = io.BufferedReader(disk, _CHUNK)
    # imported here: each decompressor loads for a file packed its way alone (start-up)
    if kind == "gzip":
        import gzip

        return gzip.GzipFile(fileobj=packed, mode="rb")
    if kind == "xz":
        import lzma  # as gzip above

        if lzma.LZMAError not in _READ_ERRORS:
            _READ_ERRORS = (*_READ_ERRORS, lzma.LZMAError)
        return lzma.LZMAFile(packed, "rb")
    import bz2  # as gzip above

    return bz2.BZ2File(packed, "rb")


def _cannot_read(name: str, exc: BaseException, kind: str | None = None) -> FormatError:
    """The one-line error for a source that cannot be opened or read."""
    # A failing disk or pipe sets an error number; damaged data (an OSError from gzip and
    # bzip2, other errors from zlib and xz) does not.
    if kind is not None and not (isinstance(exc, OSError) and exc.errno):
        reason = f"not valid {kind} data ({_first_line(exc)})"
    elif isinstance(exc, OSError) and exc.strerror:
        reason = exc.strerror
    else:
        reason = _first_line(exc)
    return FormatError(f"cannot read {name}: {reason}")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else exc.__class__.__name__
