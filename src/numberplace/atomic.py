"""Files written whole or not at all: what a user keeps is never left half written."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .errors import NumberplaceError

__all__ = ["atomic_file", "write_atomically"]


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike[str], binary: bool = False) -> Iterator[IO[Any]]:
    """A file to write ``path``'s new contents into: a temporary file beside it, synced
    and renamed over ``path`` when the block ends, removed if the block fails. A reader
    (or a crash) sees the old file whole or the new one whole, never a mix."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise NumberplaceError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        handle: IO[Any]
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")) \
                as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        _remove_quietly(temporary)
        raise NumberplaceError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        _remove_quietly(temporary)
        raise


def write_atomically(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Replace ``path`` by ``data`` (text or bytes), whole or not at all."""
    with atomic_file(path, binary=isinstance(data, bytes)) as handle:
        handle.write(data)


def _remove_quietly(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
