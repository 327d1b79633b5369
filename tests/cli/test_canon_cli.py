"""``numberplace canon``: canonical forms of a file of puzzles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from numberplace.cli import main
from numberplace.engine.canon import canonical
from numberplace.model.puzzle import Puzzle

from conftest import BOOK_PUZZLES, data_lines


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_one_form_per_line_in_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = data_lines("top95.txt", 30)
    f = tmp_path / "p.txt"
    f.write_text("\n".join(lines) + "\n")
    code, out, _ = run(["canon", str(f), "--jobs", "1"], capsys)
    assert code == 0
    assert out.splitlines() == [canonical(Puzzle.from_string(line)).puzzle.to_line()
                                for line in lines]
    # the same on two workers
    code, again, _ = run(["canon", str(f), "--jobs", "2"], capsys)
    assert code == 0 and again == out


def test_equivalent_puzzles_print_the_same_key(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    first = BOOK_PUZZLES[0]
    # the transpose, written with 0 for empty cells
    transposed = "".join(first[c * 9 + r] for r in range(9) for c in range(9))
    f = tmp_path / "p.txt"
    f.write_text(f"{first}\n{transposed.replace('.', '0')}\n{BOOK_PUZZLES[1]}\n")
    code, out, _ = run(["canon", str(f), "--key"], capsys)
    keys = out.splitlines()
    assert code == 0
    assert keys[0] == keys[1] != keys[2]
    assert keys[0].startswith("9x9:")


def test_json_holds_key_form_and_transform(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(BOOK_PUZZLES[0] + "\n")
    code, out, _ = run(["canon", str(f), "--json"], capsys)
    record = json.loads(out)
    assert code == 0
    assert record["line"] == 1
    assert record["key"] == "9x9:" + record["puzzle"]
    transform = record["transform"]
    assert sorted(transform["rows"]) == list(range(1, 10))
    assert set(transform) == {"transpose", "rows", "columns", "relabel"}


def test_clashing_givens_get_a_comment_and_status_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(BOOK_PUZZLES[0] + "\n" + "11" + "." * 79 + "\n")
    code, out, err = run(["canon", str(f)], capsys)
    assert code == 1
    assert out.splitlines()[1] == ("# line 2: invalid: givens that clash have no canonical "
                                   "form: 1 appears twice in row 1: at r1c1 and r1c2")
    assert err == ""


def test_an_unreadable_line_is_named_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(BOOK_PUZZLES[0] + "\n" + "1" * 30 + "\n")
    code, out, err = run(["canon", str(f)], capsys)
    assert code == 2
    assert len(out.splitlines()) == 1
    assert "line 2" in err and len(err.strip().splitlines()) == 1


def test_the_work_limit_is_the_callers(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(BOOK_PUZZLES[0] + "\n")
    code, out, _ = run(["canon", str(f), "--work-limit", "3", "--json"], capsys)
    assert code == 1
    record = json.loads(out)
    assert record["status"] == "limit"
    assert "more than 3 steps" in record["message"]


def test_a_jigsaw_keeps_its_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    regions = ("111123333111222223112223333444455666455555566445776666744788888777799888"
               "799999998")
    givens = ("94....76....15.42..2....894.5.34..18.39...25.78..14.3.591....7..68.93....14...."
              "89")
    record = {"shape": {"kind": "jigsaw", "size": 9, "regions": regions},
              "alphabet": "123456789", "givens": givens}
    f = tmp_path / "j.json"
    f.write_text(json.dumps(record) + "\n")
    code, out, _ = run(["canon", str(f)], capsys)
    assert code == 0
    written = json.loads(out)
    assert written["shape"]["kind"] == "jigsaw"
    code, key, _ = run(["canon", str(f), "--key"], capsys)
    assert key.startswith("jigsaw:")


def test_a_mixed_file_reads_as_the_library_does(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    # blocks of lines go to the compiled core in one call; every other line is written
    # one by one: both must say what the library says, in the file's order
    lines = data_lines("17_clue.txt", 5)
    text = ["# a comment", lines[0], "", "  " + lines[1].replace(".", "0") + "  ",
            "11" + "." * 79, lines[2], "1" * 30, lines[3].lower(), lines[4]]
    f = tmp_path / "p.txt"
    f.write_text("\r\n".join(text) + "\r\n")
    code, out, err = run(["canon", str(f), "--jobs", "1"], capsys)
    assert code == 2  # the unreadable line
    expected = [canonical(Puzzle.from_string(line)).puzzle.to_line() for line in lines]
    expected.insert(2, "# line 5: invalid: givens that clash have no canonical form: 1 "
                       "appears twice in row 1: at r1c1 and r1c2")
    assert out.splitlines() == expected
    assert "line 7" in err
    code, keys, _ = run(["canon", str(f), "--jobs", "1", "--key"], capsys)
    assert [k for k in keys.splitlines() if not k.startswith("#")] == [
        "9x9:" + form for form in expected if not form.startswith("#")]


def test_sixteen_by_sixteen_letters_lines(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from numberplace.model.shape import classic

    shape = classic(16)
    values = [((r % 4) * 4 + r // 4 + c) % 16 + 1 for r in range(16) for c in range(16)]
    givens = tuple(v if (i * 7) % 5 == 0 else 0 for i, v in enumerate(values))
    puzzle = Puzzle(shape, givens)
    f = tmp_path / "p.txt"
    f.write_text(puzzle.to_line().lower() + "\n" + puzzle.to_line() + "\n")
    code, out, _ = run(["canon", str(f)], capsys)
    form = canonical(puzzle).puzzle.to_line()
    assert code == 0
    assert out.splitlines() == [form, form]
