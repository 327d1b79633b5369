"""The README's examples are real: every console block and the Python block are run."""

from __future__ import annotations

import argparse
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


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the examples run, one after the other (a bank one makes, the next reads): a
    folder of their own, with the project's examples in it."""
    folder = tmp_path_factory.mktemp("readme")
    (folder / "examples").symlink_to(ROOT / "examples")
    return folder


@pytest.mark.parametrize("command,expected", _console_examples())
def test_console_example(command: str, expected: str, workdir: Path,
                         monkeypatch: pytest.MonkeyPatch,
                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(workdir)
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
    "--tag": ["t"], "--source": ["examples/classic.txt"], "--technique": ["Hidden Single"],
    "--per-page": ["2"], "--title": ["T"], "--paper": ["letter"], "--cluster": ["local"],
    "--scale": ["explainer"], "--one-cell-cages": ["2", "--shape", "killer", "--level", "1"],
}
#: Options that are flags.
FLAGS = {"--no-progress", "--summary", "--json", "--stats", "--all", "--guess", "--placement",
         "--minimal", "--key", "--rate", "--random", "--solution", "--no-solutions",
         "--no-rating"}


def _options_table() -> dict[str, list[str]]:
    rows = re.findall(r"^\| `(\w+(?: \w+)?)` \| (`--.*?) \|$", README, re.M)
    return {command: re.findall(r"`(--[\w-]+)`", cells) for command, cells in rows}


def test_the_options_table_lists_every_option_of_every_command() -> None:
    from numberplace.cli import build_parser

    table = _options_table()
    real: dict[str, list[str]] = {}

    def collect(name: str, parser: argparse.ArgumentParser) -> None:
        actions = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
        if name and not actions:
            real[name] = [o for a in parser._actions for o in a.option_strings
                          if o.startswith("--") and o != "--help"]
        for group in actions:
            for sub_name, sub in group.choices.items():  # type: ignore[attr-defined]
                collect(f"{name} {sub_name}".strip(), sub)

    collect("", build_parser())
    assert set(table) == set(real)
    for name, options in real.items():
        assert sorted(table[name]) == sorted(options), name


#: What each command takes first (a puzzle file unless said here).
FIRST = {"generate": [], "kakuro": ["combos", "7", "2"], "bank query": [],
         "bank export": [], "bank stats": []}
#: What each command needs besides the option under test.
BASE = {"convert": ["--to", "grid"], "generate": []}


_SCHEDULER: list[str] = []


def scheduler_address(tmp_path: Path) -> str:
    """The address of a local Dask cluster of two workers, started once for these tests."""
    if not _SCHEDULER:
        import atexit
        import logging

        from distributed import LocalCluster

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        atexit.register(cluster.close)
        _SCHEDULER.append(cluster.scheduler_address)
    return _SCHEDULER[0]


#: Options of print that choose puzzles of a bank.
BANK_FILTERS = {"--from-bank", "--level", "--difficulty", "--technique", "--clues", "--tag",
                "--source", "--random", "--limit"}

#: Commands that start a server; tests/web/test_commands.py runs each of their options.
SERVERS = {"play", "serve"}


@pytest.mark.slow
@pytest.mark.parametrize(("command", "option"), [
    (command, option) for command, options in _options_table().items() for option in options
    if command not in SERVERS])
def test_each_listed_option_works(command: str, option: str, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    base = BASE.get(command, [])
    db = str(tmp_path / "bank.sqlite")
    book = tmp_path / "book.pdf"
    from_bank = command == "print" and option in BANK_FILTERS
    if command.startswith("bank") or from_bank:  # a bank to read, and the option on it
        assert main(["bank", "add", "examples/classic.txt", "--db", db, "--rate",
                     "--tag", "t", "--jobs", "1"]) == 0
        capsys.readouterr()
        base = base + ([] if option == "--db" else ["--db", db])
    if command == "print":
        base = (["--from-bank", db] if from_bank and option != "--from-bank" else []) + (
            [] if option in ("--pdf", "--svg") else ["--pdf", str(book)])
    first = [] if from_bank else FIRST.get(command, ["examples/classic.txt"])
    args = command.split() + first
    if option in FLAGS:
        args.append(option)
    elif option == "--svg":
        args += [option, str(tmp_path / "pictures")]
    elif option in ("--output", "--pdf"):
        args += [option, str(tmp_path / "made.txt")]
    elif option in ("--db", "--bank", "--from-bank"):
        args += [option, db]
    elif option == "--scheduler":
        args += [option, scheduler_address(tmp_path)]
    else:
        args += [option, *VALUES[option]]
    if not (command == "convert" and option == "--to"):  # convert's base is its --to
        args += base
    if "--jobs" in _options_table()[command] and option not in ("--jobs", "--scheduler"):
        args += ["--jobs", "1" if option != "--cluster" else "2"]
    status = main(args)
    captured = capsys.readouterr()
    assert status == 0, (args, captured.err)
    assert "error" not in captured.err, (args, captured.err)
    if command == "print":  # its output is a file
        made = tmp_path / ("pictures" if option == "--svg" else
                           "made.txt" if option == "--pdf" else "book.pdf")
        assert made.read_bytes()[:5] in (b"%PDF-", b"<svg "), args
    elif option == "--output":
        assert (tmp_path / "made.txt").read_text().count("\n") == (
            3 if command == "bank export" else 1)
    elif option == "--svg":
        assert any((tmp_path / "pictures").iterdir())
    elif command != "bank add" or option == "--json":  # bank add writes only its errors
        assert captured.out, args
