"""Files the tool writes: whole or not at all, through a link to its target, straight into
a device or a pipe, with the old file's permissions or those the umask allows; and the
commands that write files (bank export, print) do the same."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from numberplace.atomic import atomic_file, write_atomically
from numberplace.errors import NumberplaceError

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def umask() -> Iterator[None]:
    """A umask of 022 for the test, the old one back after it."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_new_file_gets_what_the_umask_allows(tmp_path: Path, umask: None) -> None:
    write_atomically(tmp_path / "new.txt", "hello\n")
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644
    os.umask(0o077)
    write_atomically(tmp_path / "private.txt", b"hello\n")
    assert stat.S_IMODE((tmp_path / "private.txt").stat().st_mode) == 0o600


def test_a_file_replaced_keeps_its_permissions(tmp_path: Path, umask: None) -> None:
    path = tmp_path / "book.pdf"
    path.write_text("old")
    path.chmod(0o640)
    write_atomically(path, "new")
    assert path.read_text() == "new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_link_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomically(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new"
    dangling = tmp_path / "to-come.txt"
    dangling.symlink_to(tmp_path / "later.txt")
    write_atomically(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "later.txt").read_text() == "made"


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "keep.txt"
    path.write_text("whole")
    with pytest.raises(RuntimeError), atomic_file(path) as handle:
        handle.write("half")
        raise RuntimeError("stopped")
    assert path.read_text() == "whole"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def test_a_pipe_is_written_to_directly(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    read: list[str] = []
    reader = threading.Thread(target=lambda: read.append(fifo.read_text()))
    reader.start()
    write_atomically(fifo, "through the pipe\n")
    reader.join(10)
    assert read == ["through the pipe\n"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.fixture
def devices(tmp_path: Path) -> tuple[Path, Path]:
    """A full device and a null device of the test's own (the system's are never put at
    risk by a test of writing to them)."""
    full, null = tmp_path / "full", tmp_path / "null"
    try:
        os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root")
    return full, null


def test_a_device_is_written_to_directly_and_stays_a_device(devices: tuple[Path, Path]) -> None:
    full, null = devices
    with pytest.raises(NumberplaceError, match=r"^cannot write .*full: No space left"):
        write_atomically(full, "x" * 100_000)
    assert stat.S_ISCHR(full.stat().st_mode)
    write_atomically(null, "gone")
    assert stat.S_ISCHR(null.stat().st_mode)


def test_a_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(NumberplaceError, match="it is a folder"):
        write_atomically(tmp_path, "x")


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "numberplace", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_bank_export_and_print_write_through_links(tmp_path: Path,
                                                   devices: tuple[Path, Path]) -> None:
    db = tmp_path / "bank.sqlite"
    added = run("bank", "add", str(ROOT / "examples" / "classic.txt"), "--db", str(db),
                cwd=tmp_path)
    assert added.returncode == 0, added.stderr
    for command, name in ((["bank", "export", "--db", str(db), "--output"], "export.txt"),
                          (["print", str(ROOT / "examples" / "classic.txt"), "--svg"],
                           "picture.svg")):
        target = tmp_path / f"real-{name}"
        target.write_text("old")
        target.chmod(0o644)
        link = tmp_path / name
        link.symlink_to(target)
        done = run(*command, str(link), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert link.is_symlink() and target.read_text() != "old"
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
    full = run("bank", "export", "--db", str(db), "--output", str(devices[0]), cwd=tmp_path)
    assert full.returncode == 2 and full.stderr.count("\n") == 1
    assert f"cannot write {devices[0]}" in full.stderr
    assert stat.S_ISCHR(devices[0].stat().st_mode)
