"""The one door to the compiled core: ``numberplace.native`` alone imports it, a core of
another revision is not used (and the command line says why), and the limits and numbering
Python relies on are the core's own."""

from __future__ import annotations

import importlib
import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import numberplace
from numberplace import native
from numberplace.cli import main
from numberplace.logic import xchain

SRC = Path(__file__).resolve().parents[1] / "src" / "numberplace"
ROOT = SRC.parents[1]


def test_native_is_the_only_module_that_imports_the_core() -> None:
    importing = re.compile(r"^\s*(from\s+\S*\s+import\s+[^#\n]*\b_core\b|import\s+\S*_core\b"
                           r"|.*import_module\([^)]*_core)", re.M)
    found = sorted(str(path.relative_to(SRC)) for path in SRC.rglob("*.py")
                   if importing.search(path.read_text()))
    assert found == ["native.py"]


@pytest.fixture
def stale_core(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    """``native`` loaded again over a core of another revision; the real one afterwards."""
    fake = types.ModuleType("numberplace._core")
    fake.REVISION = native.REVISION + 1  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "numberplace._core", fake)
    monkeypatch.setattr(numberplace, "_core", fake, raising=False)
    importlib.reload(native)
    try:
        yield native
    finally:
        monkeypatch.undo()
        importlib.reload(native)


def test_a_core_of_another_revision_is_not_used_and_the_warning_says_why(
        stale_core: types.ModuleType, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert stale_core.core is None and stale_core.available_backends() == ("python",)
    assert "built from other sources" in (stale_core.stale or "")
    monkeypatch.delenv("NUMBERPLACE_BACKEND", raising=False)
    assert main(["count", str(ROOT / "examples" / "empty-4x4.txt"), "--limit", "300"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "288 multiple\n"
    assert "built from other sources" in captured.err and "reinstall" in captured.err
    assert captured.err.count("\n") == 1


def test_the_real_core_is_back_after_a_stale_one_was_tried() -> None:
    if native.stale is None and native.core is not None:
        assert native.core.REVISION == native.REVISION
        assert native.available_backends() == ("c", "python")


@pytest.mark.skipif(native.core is None or not native.core.HAVE_XCHAIN,
                    reason="the compiled chains are not built")
def test_the_chain_searches_python_names_are_the_ones_the_core_numbers() -> None:
    assert native.core is not None
    assert native.core.XCHAIN_KINDS == len(xchain.FAMILIES)
    assert native.core.XCHAIN_NAMES[0] == "Bidirectional X-Cycle"
    assert (native.core.XCHAIN_CELLS, native.core.XCHAIN_VALUES) == (81, 9)


def test_an_unknown_backend_is_refused_in_one_line() -> None:
    with pytest.raises(Exception, match="unknown engine back-end 'fortran'"):
        native.backend_name("fortran")
