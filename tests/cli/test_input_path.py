"""Every command reads files the one way: a byte-order mark, CRLF, UTF-16 and compressed
files give the same output as a plain file; pencil-mark grids keep their singles."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
from collections.abc import Callable
from pathlib import Path

import pytest

from numberplace import formats
from numberplace.cli import main
from numberplace.formats import read_file
from numberplace.formats._common import candidate_masks
from numberplace.model.puzzle import Puzzle

from conftest import BOOK_PUZZLES

#: Two puzzles, clashing givens (line 3) and a line too short to be a puzzle (line 4).
TEXT = "\n".join([*BOOK_PUZZLES, "11" + "." * 79, "5" + "." * 78]) + "\n"

#: (name, file suffix, bytes of the file from the text)
VARIANTS: list[tuple[str, str, Callable[[str], bytes]]] = [
    ("bom-crlf", ".txt", lambda t: b"\xef\xbb\xbf" + t.replace("\n", "\r\n").encode()),
    ("cr", ".txt", lambda t: t.replace("\n", "\r").encode()),
    ("utf16", ".txt", lambda t: t.encode("utf-16")),
    ("gzip", ".txt.gz", lambda t: gzip.compress(t.encode())),
    ("xz", ".txt.xz", lambda t: lzma.compress(t.encode())),
    ("bzip2", ".txt.bz2", lambda t: bz2.compress(t.encode())),
]

COMMANDS = [
    ["solve"], ["solve", "--json"], ["count"], ["check"], ["explain"], ["explain", "--json"],
    ["hint"], ["hint", "--placement"], ["rate"], ["convert", "--to", "sdk"],
]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main([*args, *(["--jobs", "1"] if args[0] not in ("convert", "bench") else [])])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def untimed(out: str) -> str:
    """Output with the JSON timings dropped."""
    lines = []
    for line in out.splitlines():
        if line.startswith("{"):
            obj = json.loads(line)
            obj.pop("seconds", None)
            line = json.dumps(obj)
        lines.append(line)
    return "\n".join(lines)


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize(("name", "suffix", "encode"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_every_command_reads_every_variant_as_the_plain_file(
        command: list[str], name: str, suffix: str, encode: Callable[[str], bytes],
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text(TEXT)
    other = tmp_path / f"other{suffix}"
    other.write_bytes(encode(TEXT))
    code, out, err = run([*command, str(plain)], capsys)
    assert out
    if command[0] in ("solve", "count", "check", "convert"):
        # the unreadable 4th line is named, never a traceback
        assert code == 2 and f"{plain}, line 4" in err and "Traceback" not in err
    code_other, out_other, err_other = run([*command, str(other)], capsys)
    named = str(other), str(plain)
    assert (code_other, untimed(out_other.replace(*named)), err_other.replace(*named)) == \
        (code, untimed(out), err)


@pytest.mark.parametrize(("name", "suffix", "encode"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_bench_and_the_library_read_every_variant(
        name: str, suffix: str, encode: Callable[[str], bytes], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"p{suffix}"
    path.write_bytes(encode("\n".join(BOOK_PUZZLES) + "\n"))
    records = list(read_file(path))
    assert [r.puzzle.to_line() for r in records if r.puzzle] == list(BOOK_PUZZLES)
    code, out, _ = run(["bench", str(path)], capsys)
    assert code == 0 and "│       2 │" in out


def test_standard_input_may_be_compressed(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    data = gzip.compress(("\ufeff" + BOOK_PUZZLES[0] + "\r\n").encode())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, _ = run(["solve"], capsys)
    assert code == 0 and len(out.strip()) == 81 and "." not in out


def pencil_with_a_single(tmp_path: Path) -> Path:
    """The first book puzzle as a pencil grid in which the player has crossed 7 out of
    r1c1 (8 is left) but not crossed 8 out of its peers."""
    book = formats.parse(BOOK_PUZZLES[0])
    masks = candidate_masks(book)
    assert masks[0] == 0b011000000
    masks[0] = 1 << 7
    path = tmp_path / "pencil.txt"
    path.write_text(formats.write(Puzzle(book.shape, book.givens, candidates=tuple(masks)),
                                  "pencil") + "\n")
    return path


def test_a_pencil_grid_keeps_the_player_s_single_for_hint_and_explain(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = pencil_with_a_single(tmp_path)
    code, out, _ = run(["hint", str(path)], capsys)
    assert code == 0 and out.startswith("line 1: ") and "place 8 at r1c1" in out
    code, out, _ = run(["explain", "--json", str(path)], capsys)
    steps = json.loads(out)["steps"]
    # the givens are placed already: 81 - 34 givens are left, r1c1 first
    assert len(steps) == 81 - 34 and steps[0]["placements"] == [["r1c1", 8]]
    code, out, _ = run(["check", str(path)], capsys)
    assert out.strip() == "line 1: ok: 34 givens, one solution"
    code, out, _ = run(["solve", str(path)], capsys)
    solved = formats.parse(out)
    assert code == 0 and all(solved.givens) and solved.givens[0] == 8
