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
