"""The README's examples are real: every console block and the Python block are run."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
from pathlib import Path

import pytest

from numberplace.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _console_examples() -> list[tuple[str, str]]:
    examples = []
    for block in re.findall(r"```console\n(.*?)```", README, re.S):
        command, expected = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    examples.append((command, "\n".join(expected)))
                command, expected = line[2:], []
            else:
                expected.append(line)
        if command is not None:
            examples.append((command, "\n".join(expected)))
    return examples


@pytest.mark.parametrize("command,expected", _console_examples())
def test_console_example(command: str, expected: str, monkeypatch: pytest.MonkeyPatch,
                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[0] == "numberplace"
    main(argv[1:] + (["--jobs", "1"] if argv[1] in ("solve", "count", "check") else []))
    assert capsys.readouterr().out.rstrip("\n") == expected.rstrip("\n")


def test_python_example() -> None:
    block = re.search(r"```python\n(.*?)```", README, re.S)
    assert block is not None
    out = io.StringIO()
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)
        with contextlib.redirect_stdout(out):
            exec(compile(block.group(1), "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert out.getvalue().strip() == "unique True True"


# -- the options table: every option a command lists is real, and every real one listed --

#: A value for each option that takes one (some need a companion to make sense).
VALUES: dict[str, list[str]] = {
    "--shape": ["9x9"], "--alphabet": ["digits"], "--format": ["line"], "--jobs": ["1"],
    "--limit": ["2"], "--node-limit": ["100000"], "--time-limit": ["20"], "--to": ["grid"],
    "--techniques": ["Naked Single,Hidden Single"], "--notation": ["book"],
    "--tier": ["2"], "--level": ["1"], "--symmetry": ["none"], "--difficulty": ["1-3"],
    "--needs": ["Hidden Single"], "--clues": ["20-60"], "--recipe": ["book", "--level", "1"],
    "--pattern": ["0122211000"], "--count": ["2"], "--seed": ["1"], "--max": ["2"],
    "--repeat": ["1"], "--backend": ["python"], "--digits": ["8"], "--work-limit": ["100000"],
}
#: Options that are flags.
FLAGS = {"--no-progress", "--summary", "--json", "--stats", "--all", "--guess", "--placement",
         "--minimal", "--key"}


def _options_table() -> dict[str, list[str]]:
    rows = re.findall(r"^\| `(\w+)` \| (`--.*?) \|$", README, re.M)
    return {command: re.findall(r"`(--[\w-]+)`", cells) for command, cells in rows}


def test_the_options_table_lists_every_option_of_every_command() -> None:
    from numberplace.cli import build_parser

    table = _options_table()
    parser = build_parser()
    commands = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    assert set(table) == set(commands.choices)
    for name, sub in commands.choices.items():
        real = [o for a in sub._actions for o in a.option_strings
                if o.startswith("--") and o != "--help"]
        assert sorted(table[name]) == sorted(real), name


#: What each command takes first (a puzzle file unless said here).
FIRST = {"generate": [], "kakuro": ["combos", "7", "2"]}
#: What each command needs besides the option under test.
BASE = {"convert": ["--to", "grid"], "generate": []}


#: Commands that start a server; tests/web/test_commands.py runs each of their options.
SERVERS = {"play", "serve"}


@pytest.mark.parametrize(("command", "option"), [
    (command, option) for command, options in _options_table().items() for option in options
    if command not in SERVERS])
def test_each_listed_option_works(command: str, option: str, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    args = [command] + FIRST.get(command, ["examples/classic.txt"])
    if option in FLAGS:
        args.append(option)
    elif option == "--svg":
        args += [option, str(tmp_path / "pictures")]
    elif option == "--output":
        args += [option, str(tmp_path / "made.txt")]
    else:
        args += [option, *VALUES[option]]
    if option != "--to":
        args += BASE.get(command, [])
    if "--jobs" in _options_table()[command] and option != "--jobs":
        args += ["--jobs", "1"]
    status = main(args)
    captured = capsys.readouterr()
    assert status == 0, (args, captured.err)
    assert "error" not in captured.err, (args, captured.err)
    if option == "--output":
        assert (tmp_path / "made.txt").read_text().count("\n") == 1
    elif option == "--svg":
        assert any((tmp_path / "pictures").iterdir())
    else:
        assert captured.out, args
