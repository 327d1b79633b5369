"""Files written whole or not at all, and without harm to what they replace.

A regular file (or none yet) is written to a temporary file beside it, synced and renamed
over it: a reader, or a crash, sees the old file whole or the new one whole, never a mix.
The new file keeps the old one's permissions, or, for a new file, those the umask allows
(as any program's new file). A symbolic link is written through to the file it points
to, and stays a link. A device or a pipe (``/dev/stdout``, a FIFO) is written to
directly, as a shell's ``>`` does: it holds no file to keep whole.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .errors import NumberplaceError

__all__ = ["atomic_file", "write_atomically"]


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike[str], binary: bool = False) -> Iterator[IO[Any]]:
    """A file to write ``path``'s new contents into (see the module docs): the file
    itself for a device or a pipe, else a temporary file that replaces it when the block
    ends and is removed if the block fails."""
    shown = Path(path)
    # a link is written through: the rename below replaces its target, not the link
    target = Path(os.path.realpath(shown))
    try:
        found = os.stat(target)
    except FileNotFoundError:
        found = None
    except OSError as exc:
        raise _error(shown, exc) from None
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise NumberplaceError(f"cannot write {shown}: it is a folder")
    if found is not None and not stat.S_ISREG(found.st_mode):
        with _direct(shown, target, binary) as stream:
            yield stream
        return
    mode = stat.S_IMODE(found.st_mode) if found is not None else 0o666 & ~_umask()
    folder = target.parent
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise _error(shown, exc) from None
    try:
        handle: IO[Any]
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")) \
                as handle:
            yield handle
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except OSError as exc:
        _remove_quietly(temporary)
        raise _error(shown, exc) from None
    except BaseException:
        _remove_quietly(temporary)
        raise


@contextlib.contextmanager
def _direct(shown: Path, target: Path, binary: bool) -> Iterator[IO[Any]]:
    """A device or a pipe, opened for writing as it is."""
    try:
        with (open(target, "wb") if binary else open(target, "w", encoding="utf-8")) \
                as handle:
            yield handle
    except OSError as exc:
        raise _error(shown, exc) from None


def write_atomically(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Replace ``path`` by ``data`` (text or bytes), whole or not at all."""
    with atomic_file(path, binary=isinstance(data, bytes)) as handle:
        handle.write(data)


def _umask() -> int:
    """This process's umask. Linux tells it without changing it; elsewhere it is set and
    set back at once."""
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def make_folder_for(path: str | os.PathLike[str]) -> None:
    """Make the folder a file is to go in (and those above it). OSError with the reason
    in plain words: a part of the path that is a file or a device is named, where the
    system would only say "File exists" or "Not a directory"."""
    folder = Path(path).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocking = next((part for part in (folder, *folder.parents)
                         if part.exists() and not part.is_dir()), folder)
        raise OSError(f"{blocking} is not a folder") from None


def _error(path: Path, exc: OSError) -> NumberplaceError:
    return NumberplaceError(f"cannot write {path}: {exc.strerror or exc}")


def _remove_quietly(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
