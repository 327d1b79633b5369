"""Opening inputs: encodings, line ends, compression, standard input and the errors."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numberplace.errors import FormatError
from numberplace.formats import parse, read_file
from numberplace.formats.inputs import MAX_LINE, open_input

BOOK_1 = "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7.."
BOOK_2 = ".34....9.6....8214..1.27...4.9.83.5.56.....87.2.56.4.1...21.8..8579....6.9....34."

COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    "": lambda data: data,
    ".gz": gzip.compress,
    ".xz": lzma.compress,
    ".bz2": bz2.compress,
}


class FakeStdin:
    """Standard input as the tests set it: text on top of a byte buffer."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def read_lines(path: Path | str, source: str | None = None) -> list[str]:
    with open_input(path, source=source) as handle:
        return list(handle.lines())


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(COMPRESS[path.suffix if path.suffix in COMPRESS else ""](data))
    return path


# -- decoding --------------------------------------------------------------------------------


def test_a_utf8_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = write(tmp_path / "bom.txt", b"\xef\xbb\xbf" + BOOK_1.encode() + b"\r\n")
    assert read_lines(path) == [BOOK_1]


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_every_line_end_ends_a_line(tmp_path: Path, end: str) -> None:
    path = write(tmp_path / "ends.txt", end.join(["a", "", "b c", ""]).encode())
    assert read_lines(path) == ["a", "", "b c"]


def test_mixed_line_ends(tmp_path: Path) -> None:
    path = write(tmp_path / "mixed.txt", b"a\r\nb\rc\nd\r\r\ne")
    assert read_lines(path) == ["a", "b", "c", "d", "", "e"]


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_with_its_byte_order_mark(tmp_path: Path, codec: str) -> None:
    text = f"# Notepad's Unicode \u00e9\r\n{BOOK_1}\r\n"
    path = write(tmp_path / "wide.txt", ("\ufeff" + text).encode(codec))
    assert read_lines(path) == ["# Notepad's Unicode \u00e9", BOOK_1]


def test_undecodable_bytes_read_as_replacement_characters(tmp_path: Path) -> None:
    path = write(tmp_path / "latin.txt", b"caf\xe9\n\xff\xfe")
    assert read_lines(path) == ["caf\ufffd", "\ufffd\ufffd"]


# -- compression and progress ----------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".gz", ".xz", ".bz2", ".GZ"])
def test_compressed_files_by_suffix(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"puzzles.txt{suffix}"
    path.write_bytes(COMPRESS[suffix.lower()](f"{BOOK_1}\n{BOOK_2}\n".encode()))
    assert read_lines(path) == [BOOK_1, BOOK_2]


def test_only_the_suffix_asks_for_decompression(tmp_path: Path) -> None:
    path = tmp_path / "packed.txt"
    path.write_bytes(gzip.compress(b"x\n"))
    assert read_lines(path) != ["x"]


@pytest.mark.parametrize("suffix", ["", ".gz", ".xz", ".bz2"])
def test_position_reaches_the_size_on_disk(tmp_path: Path, suffix: str) -> None:
    rng = random.Random(suffix)
    # random digits, so that even compressed the file takes many reads
    body = "".join(f"{rng.getrandbits(256):081d}\r\n" for _ in range(20_000))
    path = write(tmp_path / f"many.txt{suffix}", body.encode())
    with open_input(path) as handle:
        assert handle.size == path.stat().st_size
        seen = [handle.position() for _ in handle.lines()]
        assert handle.position() == handle.size
    assert len(seen) == 20_000
    assert seen == sorted(seen) and seen[0] < seen[-1] <= path.stat().st_size


def test_the_name_is_the_path_or_the_source(tmp_path: Path) -> None:
    path = write(tmp_path / "a.txt", b"x\n")
    with open_input(path) as handle:
        assert handle.name == str(path)
    with open_input(str(path), source="upload") as handle:
        assert handle.name == "upload"


def test_closing_closes_the_file_once(tmp_path: Path) -> None:
    path = write(tmp_path / "a.txt", b"x\ny\n")
    handle = open_input(path)
    lines = handle.lines()
    assert next(lines) == "x"
    handle.close()
    handle.close()
    with pytest.raises(ValueError):
        next(lines)


# -- errors ----------------------------------------------------------------------------------


def test_a_line_too_long_is_an_error_before_it_is_read_whole(tmp_path: Path) -> None:
    path = write(tmp_path / "long.txt", b"ok\n" + b"1" * (MAX_LINE * 5) + b"\nnever\n")
    with open_input(path) as handle:
        lines = handle.lines()
        assert next(lines) == "ok"
        with pytest.raises(FormatError) as caught:
            next(lines)
    error = caught.value
    assert (error.source, error.line) == (str(path), 2)
    assert str(error) == (f"{path}, line 2: the line is longer than 1,000,000 characters; "
                          f"no puzzle is that long")


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
@pytest.mark.parametrize("last", ["", "end"])
def test_a_line_of_the_longest_length_is_read(tmp_path: Path, end: str, last: str) -> None:
    longest = "1" * MAX_LINE
    last_end = end if last else ""
    path = write(tmp_path / "longest.txt", f"{longest}{end}{longest}{last_end}".encode())
    assert read_lines(path) == [longest, longest]
    write(path, f"{longest}{end}{longest}1{last_end}".encode())
    with pytest.raises(FormatError, match="line 2: the line is longer"):
        read_lines(path)


def test_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    with pytest.raises(FormatError) as caught:
        open_input(missing)
    assert str(caught.value) == f"cannot read {missing}: No such file or directory"


def test_a_directory(tmp_path: Path) -> None:
    with pytest.raises(FormatError) as caught:
        open_input(tmp_path, source="folder")
    assert str(caught.value).startswith("cannot read folder: ")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("suffix", "kind"), [(".gz", "gzip"), (".xz", "xz"), (".bz2", "bzip2")])
def test_data_that_is_not_compressed_as_named(tmp_path: Path, suffix: str, kind: str) -> None:
    path = tmp_path / f"plain{suffix}"
    path.write_bytes(f"{BOOK_1}\n".encode())
    with pytest.raises(FormatError, match=f"^cannot read .*plain{suffix}: not valid {kind} data"):
        read_lines(path)


@pytest.mark.parametrize("suffix", [".gz", ".xz", ".bz2"])
def test_a_compressed_file_cut_short(tmp_path: Path, suffix: str) -> None:
    body = "".join(f"{i:081d}\n" for i in range(20_000)).encode()
    path = tmp_path / f"cut{suffix}"
    packed = COMPRESS[suffix](body)
    path.write_bytes(packed[:len(packed) // 2])
    with pytest.raises(FormatError) as caught:
        read_lines(path)
    assert str(caught.value).startswith(f"cannot read {path}: not valid ")
    assert "\n" not in str(caught.value)


# -- standard input --------------------------------------------------------------------------


def test_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = FakeStdin(b"\xef\xbb\xbf" + f"{BOOK_1}\r\n{BOOK_2}\r\n".encode())
    monkeypatch.setattr(sys, "stdin", stdin)
    with open_input("-") as handle:
        assert (handle.name, handle.size) == ("<stdin>", None)
        assert list(handle.lines()) == [BOOK_1, BOOK_2]
        assert handle.position() == len(stdin.buffer.getvalue())
    assert not stdin.buffer.closed


@pytest.mark.parametrize("suffix", [".gz", ".xz", ".bz2"])
def test_compressed_standard_input_is_recognised(monkeypatch: pytest.MonkeyPatch,
                                                 suffix: str) -> None:
    monkeypatch.setattr(sys, "stdin", FakeStdin(COMPRESS[suffix](f"{BOOK_1}\n".encode())))
    assert read_lines("-", source="piped") == [BOOK_1]


def test_standard_input_that_only_starts_like_a_compressed_file(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", FakeStdin(b"BZh\n"))
    assert read_lines("-") == ["BZh"]


def test_standard_input_without_a_byte_buffer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{BOOK_1}\r{BOOK_2}"))
    assert read_lines("-") == [BOOK_1, BOOK_2]


def test_standard_input_as_python_sets_it_stays_open(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(f"{BOOK_1}\n".encode()))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert read_lines("-") == [BOOK_1]
    assert not stdin.closed and not stdin.buffer.closed


def test_no_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(FormatError, match="cannot read <stdin>: there is no standard input"):
        open_input("-")


# -- the format readers on top ---------------------------------------------------------------


def test_read_file_reads_a_file_with_a_byte_order_mark(tmp_path: Path) -> None:
    path = write(tmp_path / "notepad.txt", b"\xef\xbb\xbf" + f"{BOOK_1}\r\n".encode())
    records = list(read_file(path))
    assert [r.puzzle for r in records] == [parse(BOOK_1)]


def test_read_file_reads_a_gzip_file(tmp_path: Path) -> None:
    path = write(tmp_path / "puzzles.txt.gz", f"# two\n{BOOK_1}\n{BOOK_2}\n".encode())
    records = list(read_file(path))
    assert [r.puzzle for r in records] == [parse(BOOK_1), parse(BOOK_2)]
    assert [r.line for r in records] == [2, 3]


def test_read_file_reports_a_long_line_as_a_format_error(tmp_path: Path) -> None:
    path = write(tmp_path / "long.txt", f"{BOOK_1}\n".encode() + b"." * (MAX_LINE + 1))
    records = read_file(path, format="line")
    assert next(records).puzzle == parse(BOOK_1)
    with pytest.raises(FormatError, match=r"long\.txt, line 2: the line is longer"):
        next(records)
    # detecting the format reads ahead, so there the error comes first
    with pytest.raises(FormatError, match=r"long\.txt, line 2: the line is longer"):
        next(read_file(path))


# -- any text reads back ---------------------------------------------------------------------

LINES = st.lists(st.text(st.characters(exclude_characters="\r\n", codec="utf-8"),
                         max_size=30), max_size=8)


@settings(max_examples=150, deadline=None)
@given(lines=LINES, end=st.sampled_from(["\n", "\r\n", "\r"]), terminated=st.booleans(),
       encoding=st.sampled_from(["utf-8", "utf-8-bom", "utf-16-le", "utf-16-be"]),
       suffix=st.sampled_from(list(COMPRESS)))
def test_any_text_reads_back_to_its_lines(lines: list[str], end: str, terminated: bool,
                                          encoding: str, suffix: str) -> None:
    text = "".join(line + end for line in lines) if terminated else end.join(lines)
    if encoding == "utf-8":
        data = text.encode()
    elif encoding == "utf-8-bom":
        data = b"\xef\xbb\xbf" + text.encode()
    else:
        data = ("\ufeff" + text).encode(encoding)
    expected = list(lines)
    if not terminated and expected and expected[-1] == "":
        expected.pop()  # an empty last line without an end is no line at all
    if encoding == "utf-8" and expected and expected[0].startswith("\ufeff"):
        expected[0] = expected[0][1:]  # a file's first U+FEFF is its byte-order mark
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"lines.txt{suffix}"
        path.write_bytes(COMPRESS[suffix](data))
        with open_input(path) as handle:
            assert list(handle.lines()) == expected
            assert handle.position() == handle.size == path.stat().st_size
