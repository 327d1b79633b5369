"""The ``json`` format: numberplace's own schema, one JSON object per line in a stream.

::

    {"shape":{"kind":"classic","size":9,"box":[3,3]},"alphabet":"123456789",
     "givens":"..9.5..6.3.219..87...","candidates":["","1234",...]}

``shape`` is ``{"kind": "classic", "size": n, "box": [rows, cols]}`` (box optional),
``{"kind": "jigsaw", "regions": "<n*n labels>"}``, ``{"kind": "diagonal", "base": <classic
or jigsaw shape>}``, ``{"kind": "samurai"}``, ``{"kind": "killer", "base": <shape>, "cages":
[{"cells": [...], "sum": n}]}``, ``{"kind": "kakuro", "rows", "cols", "clues": [[row, col,
down, across], ...]}``, or a shape name such as ``"9x9"``. It may be
left out for a classic grid whose size the givens tell. ``alphabet`` is optional (the
usual one for the size); ``givens`` lists every cell in reading order, ``.`` for empty;
``candidates``, optional, lists each cell's candidate symbols. Other keys are ignored, so
records may carry an id, a source or a rating.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from ..errors import FormatError, NumberplaceError
from ..model.alphabet import Alphabet
from ..model.puzzle import Puzzle
from ..model.shape import (
    KakuroSquare,
    Shape,
    by_name,
    classic,
    diagonal,
    is_across,
    jigsaw,
    kakuro,
    killer,
    samurai,
)
from ._common import (
    LINE_LENGTHS,
    REGION_LABELS,
    Context,
    Numbered,
    build,
    choose_alphabet,
    fail,
    has_diagonals,
    mask_symbols,
    not_a_symbol,
    only_line,
)

_DEFAULT_BASE = {"kind": "classic", "size": 9}


def read(record: Sequence[Numbered], ctx: Context) -> Puzzle:
    """Read a puzzle from a one-line JSON object."""
    number, text = only_line(record, "JSON object")
    return read_document(text, ctx, number)


def read_document(text: str, ctx: Context, first_line: int = 1) -> Puzzle:
    """Read a puzzle from a whole JSON document, which may span several lines."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"not valid JSON: {exc.msg}", first_line + exc.lineno - 1, exc.colno)
    except (ValueError, RecursionError) as exc:
        # Numbers too long to convert, or nesting too deep for the decoder.
        fail(f"not valid JSON: {exc}", first_line)
    if not isinstance(obj, dict):
        fail("a JSON puzzle is an object: {\"givens\": \"...\", ...}", first_line)
    return from_object(obj, ctx, first_line)


def from_object(obj: dict[str, Any], ctx: Context, line: int) -> Puzzle:
    """The puzzle a decoded JSON object describes."""
    givens = obj.get("givens")
    if not isinstance(givens, str):
        fail("'givens' must be a string of the cells, '.' for empty", line)
    shape = _shape(obj, ctx, len(givens), line)
    alphabet = _alphabet(obj.get("alphabet"), ctx.alphabet, shape, line)
    if len(givens) != shape.ncells:
        fail(f"'givens' has {len(givens)} cells, the {shape.name} shape has {shape.ncells}",
             line)
    values = [_symbol_value(ch, alphabet, f"'givens', character {i + 1}", line)
              for i, ch in enumerate(givens)]
    candidates = obj.get("candidates")
    masks = None if candidates is None else _masks(candidates, alphabet, shape, line)
    return build(shape, values, alphabet, masks, line)


def write(puzzle: Puzzle) -> str:
    """A compact one-line JSON object."""
    obj: dict[str, Any] = {
        "shape": shape_to_json(puzzle.shape),
        "alphabet": puzzle.alphabet.symbols,
        "givens": puzzle.to_line(),
    }
    if puzzle.candidates is not None:
        obj["candidates"] = [mask_symbols(m, puzzle.alphabet) for m in puzzle.candidates]
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


# -- shapes ---------------------------------------------------------------------------------


def shape_to_json(shape: Shape) -> dict[str, Any]:
    """The JSON description of a shape; FormatError for a shape the schema cannot name."""
    if shape.cages:
        return _caged_to_json(shape)
    if shape == samurai():
        return {"kind": "samurai"}
    if has_diagonals(shape):
        base = _base_of_diagonal(shape)
        if base is not None and diagonal(base) == shape:
            return {"kind": "diagonal", "base": shape_to_json(base)}
    elif shape.regions:
        labels = "".join(REGION_LABELS[n] for n in shape.regions)
        if _jigsaw_of(labels, shape.size) == shape:
            return {"kind": "jigsaw", "size": shape.size, "regions": labels}
    elif shape.box is not None and classic(shape.size, shape.box) == shape:
        return {"kind": "classic", "size": shape.size, "box": list(shape.box)}
    fail(f"the JSON schema has no description of the {shape.name} shape")


def shape_from_json(spec: object, line: int, depth: int = 0) -> Shape:
    """The shape a JSON shape description names."""
    try:
        if isinstance(spec, str):
            return _shape_by_name(spec, line)
        if not isinstance(spec, dict):
            fail("'shape' must be an object such as {\"kind\": \"classic\", \"size\": 9}", line)
        kind = spec.get("kind")
        if kind == "classic":
            return _classic(spec, line)
        if kind == "jigsaw":
            return _jigsaw(spec, line)
        if kind == "diagonal" and depth == 0:
            return diagonal(shape_from_json(spec.get("base", _DEFAULT_BASE), line, depth + 1))
        if kind == "samurai":
            return samurai()
        if kind == "killer" and depth == 0:
            return _killer_from_json(spec, line)
        if kind == "kakuro":
            return _kakuro_from_json(spec, line)
    except FormatError:
        raise
    except NumberplaceError as exc:
        fail(f"shape: {exc}", line)
    fail(f"shape: unknown kind {_show(kind)}; use classic, jigsaw, samurai, diagonal (on a "
         f"classic or jigsaw base), killer (on any of those) or kakuro", line)


# -- shapes with sums -------------------------------------------------------------------------


def _caged_to_json(shape: Shape) -> dict[str, Any]:
    """``{"kind": "kakuro", "rows", "cols", "clues": [[row, col, down, across], ...]}`` (every
    square that is not a white cell, 0-based, null for no clue) or ``{"kind": "killer",
    "base": <shape>, "cages": [{"cells": [...], "sum": n}, ...]}`` (a cage whose digits may
    repeat adds ``"repeats": true``)."""
    if not shape.houses:
        rows, cols = shape.canvas
        clues: dict[tuple[int, int], list[int | None]] = {
            (r, c): [None, None] for r in range(rows) for c in range(cols)
            if (r, c) not in shape.cell_at}
        for cage in shape.cages:
            if cage.clue is None:
                fail(f"the JSON schema has no description of the {shape.name} shape")
            clues[cage.clue][is_across(shape, cage)] = cage.total
        return {"kind": "kakuro", "rows": rows, "cols": cols,
                "clues": [[r, c, d, a] for (r, c), (d, a) in sorted(clues.items())]}
    base = shape.replace(name=shape.name.removeprefix("killer-"), cages=())
    return {"kind": "killer", "base": shape_to_json(base),
            "cages": [{"cells": list(cage.cells), "sum": cage.total,
                       **({"repeats": True} if cage.repeats else {})} for cage in shape.cages]}


def _killer_from_json(spec: dict[str, Any], line: int) -> Shape:
    base = shape_from_json(spec.get("base", _DEFAULT_BASE), line, 1)
    cages = spec.get("cages")
    if not isinstance(cages, list) or not cages:
        fail("shape: a killer needs 'cages', a list of {\"cells\": [...], \"sum\": n}", line)
    out: list[tuple[list[int], int | None, bool]] = []
    for k, cage in enumerate(cages):
        cells = cage.get("cells") if isinstance(cage, dict) else None
        total = cage.get("sum") if isinstance(cage, dict) else None
        repeats = cage.get("repeats", False) if isinstance(cage, dict) else False
        if not (isinstance(cells, list) and cells and all(type(c) is int for c in cells)
                and (total is None or type(total) is int) and type(repeats) is bool):
            fail(f"shape: cage {k + 1} must be {{\"cells\": [cell numbers], \"sum\": n or "
                 f"null}}, with \"repeats\": true where its digits may repeat", line)
        out.append((cells, total, repeats))
    return killer(base, out)


def _kakuro_from_json(spec: dict[str, Any], line: int) -> Shape:
    rows, cols, clues = spec.get("rows"), spec.get("cols"), spec.get("clues")
    if type(rows) is not int or type(cols) is not int or not 1 <= rows <= 100 \
            or not 1 <= cols <= 100 or not isinstance(clues, list):
        fail("shape: a kakuro needs 'rows' and 'cols' (1 to 100) and 'clues', a list of "
             "[row, col, down, across]", line)
    layout: list[list[KakuroSquare]] = [[None] * cols for _ in range(rows)]
    for item in clues:
        if not (isinstance(item, list) and len(item) == 4
                and all(type(x) is int for x in item[:2])
                and all(x is None or type(x) is int for x in item[2:])
                and 0 <= item[0] < rows and 0 <= item[1] < cols):
            fail(f"shape: {_show(item)} is not a clue [row, col, down, across] of the grid",
                 line)
        layout[item[0]][item[1]] = (item[2], item[3])
    return kakuro(layout)


def _shape_by_name(name: str, line: int) -> Shape:
    try:
        return by_name(name)
    except NumberplaceError:
        raise
    except ValueError:
        # A digit string too long to convert to a number.
        fail(f"shape: unknown shape name {_show(name)}", line)


def _classic(spec: dict[str, Any], line: int) -> Shape:
    size = spec.get("size")
    if type(size) is not int:
        fail("shape: a classic shape needs its 'size', a whole number", line)
    box = spec.get("box")
    if box is None:
        return classic(size)
    if not (isinstance(box, list) and len(box) == 2 and all(type(b) is int for b in box)):
        fail("shape: 'box' must be two whole numbers [rows, columns], such as [3, 3]", line)
    return classic(size, (box[0], box[1]))


def _jigsaw(spec: dict[str, Any], line: int) -> Shape:
    regions = spec.get("regions")
    if isinstance(regions, list) and all(isinstance(row, str) for row in regions):
        regions = "".join(regions)
    if not isinstance(regions, str):
        fail("shape: a jigsaw needs 'regions', a string of one label per cell", line)
    labels = "".join(regions.split())
    size = spec.get("size", math.isqrt(len(labels)))
    if type(size) is not int or size < 1 or size * size != len(labels):
        fail(f"shape: a region map of {len(labels)} labels; a jigsaw of size n needs n*n", line)
    return _jigsaw_of(labels, size)


def _jigsaw_of(labels: str, size: int) -> Shape:
    numbers: dict[str, int] = {}
    return jigsaw([numbers.setdefault(ch, len(numbers)) for ch in labels], size)


def _base_of_diagonal(shape: Shape) -> Shape | None:
    if shape.regions:
        return _jigsaw_of("".join(REGION_LABELS[n] for n in shape.regions), shape.size)
    if shape.box is not None:
        return classic(shape.size, shape.box)
    return None


def _shape(obj: dict[str, Any], ctx: Context, ncells: int, line: int) -> Shape:
    if "shape" in obj:
        shape = shape_from_json(obj["shape"], line)
        if ctx.shape is not None and shape != ctx.shape:
            fail(f"the JSON shape {shape.name} differs from the {ctx.shape.name} shape "
                 f"asked for", line)
        return shape
    if ctx.shape is not None:
        return ctx.shape
    if ncells not in LINE_LENGTHS:
        fail(f"no 'shape', and {ncells} givens fit no classic grid", line)
    return classic(LINE_LENGTHS[ncells])


# -- symbols --------------------------------------------------------------------------------


def _alphabet(symbols: object, asked: Alphabet | None, shape: Shape, line: int) -> Alphabet:
    if symbols is None:
        return choose_alphabet(shape.size, "", asked, line)
    if not isinstance(symbols, str):
        fail("'alphabet' must be a string of the symbols, such as \"123456789\"", line)
    try:
        alphabet = Alphabet(symbols)
    except NumberplaceError as exc:
        fail(str(exc), line)
    if asked is not None and alphabet != asked:
        fail(f"the JSON alphabet {alphabet.describe()} differs from the alphabet "
             f"{asked.describe()} asked for", line)
    return choose_alphabet(shape.size, "", alphabet, line)


def _symbol_value(ch: str, alphabet: Alphabet, where: str, line: int) -> int:
    value = alphabet.value(ch)
    if value is None:
        fail(f"{where}: {not_a_symbol(ch, alphabet)}", line)
    return value


def _masks(candidates: object, alphabet: Alphabet, shape: Shape, line: int) -> list[int]:
    if not (isinstance(candidates, list) and all(isinstance(c, str) for c in candidates)):
        fail("'candidates' must be a list of strings, one per cell", line)
    if len(candidates) != shape.ncells:
        fail(f"'candidates' has {len(candidates)} cells, the {shape.name} shape has "
             f"{shape.ncells}", line)
    masks = []
    for cell, symbols in enumerate(candidates):
        mask = 0
        for ch in symbols:
            where = f"'candidates', cell {cell + 1}"
            value = _symbol_value(ch, alphabet, where, line)
            if not value:
                fail(f"{where}: {ch!r} is not a candidate", line)
            mask |= 1 << (value - 1)
        masks.append(mask)
    return masks


def _show(value: object) -> str:
    """A short quotation of a value from the input, whatever its length."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
