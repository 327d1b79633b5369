"""What a newcomer meets on the command line: a rejected puzzle's place said once, an
unreadable record marked in place by every command, the puzzle ``play`` opens said when a
file holds several, a database path through a file named as such, symmetry names that
say which way they mirror, the install command for a missing extra as this copy was
installed, the README's demo bank ignored by the checkout, and a janko record's name
kept."""

from __future__ import annotations

import importlib.metadata
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from numberplace import formats
from numberplace.cli import main
from numberplace.extras import install_command
from numberplace.game.saving import open_game, puzzles_in
from numberplace.generate import has_symmetry
from numberplace.model.puzzle import Puzzle

from conftest import BOOK_PUZZLES

ROOT = Path(__file__).resolve().parents[2]
BAD = "\n".join([BOOK_PUZZLES[0], "xyz", BOOK_PUZZLES[1][:80] + "y"]) + "\n"


@pytest.fixture
def bad_file(tmp_path: Path) -> Path:
    path = tmp_path / "mixed.txt"
    path.write_text(BAD)
    return path


def test_bank_add_names_the_place_of_a_rejection_once(
        bad_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bank", "add", str(bad_file), "--db", str(tmp_path / "b.sqlite"),
                 "--no-progress"])
    err = capsys.readouterr().err.splitlines()
    assert code == 2
    assert err[0] == f"numberplace: {bad_file}, line 2: not added: 3 characters, a 9x9 " \
                     f"puzzle needs 81"
    assert err[1] == f"numberplace: {bad_file}, line 3, column 81: not added: 'y' is not a " \
                     f"symbol of the alphabet 1-9"
    assert all(line.count(str(bad_file)) == 1 for line in err)


@pytest.mark.parametrize("command", ["hint", "explain", "rate"])
def test_an_unreadable_record_is_marked_in_place(
        bad_file: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    assert main([command, str(bad_file), "--no-progress", "--jobs", "1"]) == 2
    out = [line for line in capsys.readouterr().out.splitlines()
           if line.startswith("line ")]
    assert [line.split(":")[0] for line in out] == ["line 1", "line 2", "line 3"]
    assert out[1].startswith("line 2: invalid: 3 characters")
    assert main([command, str(bad_file), "--no-progress", "--jobs", "1", "--json"]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in records] == [1, 2, 3]
    assert records[2]["status"] == "invalid" and "'y'" in records[2]["error"]


def test_play_says_which_of_several_puzzles_it_opens(tmp_path: Path) -> None:
    path = tmp_path / "three.txt"
    path.write_text("\n".join([*BOOK_PUZZLES, BOOK_PUZZLES[0][::-1]]) + "\n")
    assert puzzles_in(path) == 3
    second = open_game(path, number=2)
    assert second.puzzle == formats.parse(BOOK_PUZZLES[1])
    with pytest.raises(formats.FormatError, match="puzzle 4 asked for; the file holds 3"):
        open_game(path, number=4)
    process = subprocess.Popen(
        [sys.executable, "-m", "numberplace", "play", str(path), "--puzzle", "2",
         "--no-browser", "--port", "0", "--db", str(tmp_path / "games.db")],
        stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        first = process.stderr.readline()
        second_line = process.stderr.readline()
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert first == f"numberplace: {path} holds 3 puzzles; playing puzzle 2 (--puzzle N " \
                    f"plays another)\n"
    assert "playing at http://127.0.0.1:" in second_line


def test_a_database_under_a_file_is_named_as_such(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "notes.txt"
    plain.write_text("mine\n")
    for argv in (["play", "--no-browser", "--port", "0", "--db", str(plain / "x.db")],
                 ["bank", "add", str(ROOT / "examples" / "puzzle.sdo"), "--db",
                  str(plain / "sub" / "b.sqlite"), "--no-progress"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert f"{plain} is not a folder" in err and "File exists" not in err, err
    assert plain.read_text() == "mine\n"


def test_symmetry_names_say_which_way_they_mirror(capsys: pytest.CaptureFixture[str]) -> None:
    made = {}
    for name in ("top-bottom", "left-right", "horizontal", "vertical"):
        assert main(["generate", "--symmetry", name, "--seed", "5", "--no-progress"]) == 0
        made[name] = formats.parse(capsys.readouterr().out)
    assert has_symmetry(made["top-bottom"], "top-bottom")
    assert has_symmetry(made["left-right"], "left-right")
    # the older names are the same symmetries
    assert made["horizontal"] == made["top-bottom"]
    assert made["vertical"] == made["left-right"]
    givens = made["top-bottom"].givens
    assert all(bool(givens[r * 9 + c]) == bool(givens[(8 - r) * 9 + c])
               for r in range(9) for c in range(9))
    with pytest.raises(SystemExit):
        main(["generate", "--help"])
    assert "top-bottom: the same mirrored top to bottom" in " ".join(
        capsys.readouterr().out.split())


def test_a_missing_extra_is_installed_the_way_numberplace_was(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Installed:
        def __init__(self, said: str | None) -> None:
            self.said = said

        def read_text(self, name: str) -> str | None:
            return self.said

    checkout = {"url": "file:///home/me/src/num%20place", "dir_info": {"editable": True}}
    cases = [(json.dumps(checkout), "pip install -e '/home/me/src/num place[print]'"),
             (json.dumps({"url": "file:///tmp/np", "dir_info": {}}),
              "pip install '/tmp/np[print]'"),
             (None, "pip install 'numberplace[print]'"),
             (json.dumps({"url": "https://files.example/numberplace-1.0.whl",
                          "archive_info": {}}), "pip install 'numberplace[print]'")]
    for said, command in cases:
        monkeypatch.setattr(importlib.metadata, "distribution",
                            lambda _name, said=said: Installed(said))
        assert install_command("print") == command


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="not a git checkout")
def test_the_readme_demo_bank_is_not_left_untracked() -> None:
    for name in ("demo.sqlite", "demo.sqlite-wal", "demo.sqlite-shm"):
        found = subprocess.run(["git", "check-ignore", "-q", name], cwd=ROOT)
        assert found.returncode == 0, name


def test_a_janko_record_keeps_its_name(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    kakuro = formats.parse((ROOT / "examples" / "kakuro.txt").read_text().split("\n\n")[0])
    path = tmp_path / "janko.txt"
    path.write_text(formats.write(kakuro, "janko", name="017") + "\n\n"
                    + formats.write(kakuro, "janko", name="a b") + "\n")
    records = list(formats.read_file(path))
    assert [r.name for r in records] == ["017", "ab"]
    assert main(["convert", str(path), "--to", "janko"]) == 0
    out = capsys.readouterr().out
    # the grid is two columns wide: a line of three words is a record's header
    assert [line.split()[0] for line in out.splitlines() if len(line.split()) == 3] \
        == ["017", "ab"]
    assert [r.puzzle for r in formats.read_records(out.splitlines())] \
        == [Puzzle(kakuro.shape, kakuro.givens)] * 2


@pytest.mark.parametrize("example", ["killer.txt", "kakuro.txt"])
def test_a_family_name_is_a_shape_the_text_gives(
        example: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(ROOT / "examples" / example)
    family = example.removesuffix(".txt")
    assert main(["solve", path, "--no-progress"]) == 0
    plain = capsys.readouterr().out
    assert main(["solve", path, "--shape", family, "--no-progress"]) == 0
    assert capsys.readouterr().out == plain
