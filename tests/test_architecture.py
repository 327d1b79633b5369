"""The layers of docs/architecture.md hold: no module imports, at its top, a module of a
layer below its own. The table of layers is read from the document, so the document and
this check cannot drift apart."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "numberplace"
DOC = SRC.parents[1] / "docs" / "architecture.md"


def layers() -> dict[str, int]:
    """Each top-level module or folder of the package, by its layer in the document."""
    found: dict[str, int] = {}
    for number, modules in re.findall(r"^\| (\d+) \| ((?:`[\w.]+` ?)+) \|", DOC.read_text(),
                                      re.M):
        for name in re.findall(r"`([\w.]+)`", modules):
            found[name] = int(number)
    return found


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def top_imports(text: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """What the source ``text`` of the package's ``module`` imports of the package outside
    any function (and outside ``if TYPE_CHECKING``), with the lines: dotted names within
    the package."""
    here = module.split(".") if module else []
    package = here if is_package else here[:-1]
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package[:len(package) - (child.level - 1)]
                    base += child.module.split(".") if child.module else []
                elif child.module and child.module.split(".")[0] == "numberplace":
                    base = child.module.split(".")[1:]
                else:
                    continue
                for alias in child.names:
                    found.append((child.lineno, ".".join([*base, alias.name])))
            elif isinstance(child, ast.Import):
                found.extend((child.lineno, ".".join(a.name.split(".")[1:]))
                             for a in child.names if a.name.split(".")[0] == "numberplace")
            visit(child)

    visit(ast.parse(text))
    return found


def layer_of(name: str, table: dict[str, int]) -> int | None:
    """The layer of a dotted module name (or of a name imported from a module)."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in table:
            return table[".".join(parts)]
        parts.pop()
    return table.get("__init__") if not name else None


def test_the_document_names_every_module_of_the_package() -> None:
    table = layers()
    named = {path.relative_to(SRC).parts[0].removesuffix(".py")
             for path in SRC.glob("*") if path.suffix == ".py" or (path / "__init__.py").exists()}
    assert named - set(table) == set(), "modules with no layer in docs/architecture.md"
    assert {name.split(".")[0] for name in table} - named == set(), \
        "layers name modules that are not there"
    inner = {name for name in table if "." in name}
    assert {name for name in inner
            if not (SRC.joinpath(*name.split(".")).with_suffix(".py").exists()
                    or (SRC.joinpath(*name.split(".")) / "__init__.py").exists())} == set(), \
        "layers name modules that are not there"


def test_no_module_imports_a_lower_layer_at_its_top() -> None:
    table = layers()
    upward = []
    for path in sorted(SRC.rglob("*.py")):
        own = layer_of(module_name(path), table)
        assert own is not None, path
        for line, name in top_imports(path.read_text(), module_name(path),
                                      path.name == "__init__.py"):
            if name == "_core":
                continue  # the compiled core, below everything (native.py's alone)
            other = layer_of(name, table)
            if other is not None and other > own:
                upward.append(f"{path.relative_to(SRC)}:{line} imports {name} "
                              f"(layer {other} from layer {own})")
    assert upward == []


def test_the_check_sees_an_upward_import_and_not_a_deferred_one() -> None:
    text = ("from typing import TYPE_CHECKING\n\nfrom .cli import main\nfrom . import errors\n"
            "if TYPE_CHECKING:\n    from .web import app\n\n\ndef later():\n"
            "    from .render import svg\n")
    assert top_imports(text, "shape") == [(3, "cli.main"), (4, "errors")]
    assert top_imports("from ..puzzle import Puzzle\n", "logic.board") == [(1, "puzzle.Puzzle")]
    assert top_imports("from . import board\n", "logic", is_package=True) == [(1, "logic.board")]
    table = layers()
    assert layer_of("cli.main", table) == 9 and layer_of("model.shape.Shape", table) == 1
    assert layer_of("model.puzzle", table) == 2


def test_the_root_holds_the_lowest_layer_alone() -> None:
    # every other layer is a package of its own, so a file's place says its layer
    table = layers()
    flat = {path.stem for path in SRC.glob("*.py")} - {"__init__", "__main__"}
    assert {name for name in flat if table.get(name) != 0} == set()
