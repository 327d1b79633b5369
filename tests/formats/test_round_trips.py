"""Every format numberplace writes, on every shape it writes it for, reads back as the same
puzzle: givens, candidates, regions, cages and sums; through the library and through the
command line, over random puzzles of each shape. A conversion to a format without
candidates keeps the givens and never turns a pencil mark into one."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kakuros import random_kakuro
from numberplace import formats, solve
from numberplace.cli import main
from numberplace.errors import FormatError, NumberplaceError
from numberplace.formats import FORMAT_NAMES
from numberplace.formats._common import candidate_masks, placed_values
from numberplace.model.alphabet import Alphabet
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, by_name, classic, diagonal, jigsaw, killer, samurai

#: How many round trips each route ran, printed when the module ends (``pytest -s``).
RUN: Counter[str] = Counter()

SINGLE = ("line", "sdo", "grid", "sdk", "ss", "pencil", "sukaku", "samurai-grid", "jigsaw",
          "json")
#: The formats that write each kind of shape; every other format refuses it.
HOLDS: dict[str, tuple[str, ...]] = {
    "classic": SINGLE,
    "hex": tuple(f for f in SINGLE if f != "sdo"),  # sdo writes '0' for an empty cell
    "wordoku": SINGLE,
    "diagonal": SINGLE,
    "jigsaw": SINGLE,
    "samurai": ("line", "sdo", "grid", "sukaku", "samurai", "samurai-grid", "json"),
    "killer": ("json", "killer"),
    "kakuro": ("json", "kakuro", "janko", "puzzlekit"),
}
#: Formats whose text says the shape (regions, cages, grids): read back with no hint.
SAYS_SHAPE = {"jigsaw", "json", "killer", "kakuro", "janko"}
CANDIDATES = {"pencil", "sukaku", "json"}


def solved_grid(shape: Shape, rng: random.Random) -> list[int]:
    """A random filled grid of a Sudoku shape: the engine's first solution, its symbols
    renamed at random; random symbols where the shape has no solution (a random jigsaw
    may have none, and a format does not mind)."""
    grid = solve(Puzzle(shape, (0,) * shape.ncells), limit=1, node_limit=20_000).solution
    if grid is None:
        return [rng.randint(1, shape.size) for _ in range(shape.ncells)]
    names = rng.sample(range(1, shape.size + 1), shape.size)
    return [names[v - 1] for v in grid]


def random_jigsaw(size: int, rng: random.Random) -> Shape:
    """Regions of ``size`` cells each, scattered at random (a format needs no more)."""
    labels = [r for r in range(size) for _ in range(size)]
    rng.shuffle(labels)
    return jigsaw(labels, size)


def random_killer(size: int, rng: random.Random) -> Shape:
    """Cages of one to five joined cells grown over a random filled grid, with its sums;
    some cages have no sum."""
    base = classic(size)
    values = solved_grid(base, rng)
    free = set(range(base.ncells))
    cages: list[tuple[list[int], int | None]] = []
    while free:
        group = [min(free)]
        free.discard(group[0])
        for _ in range(rng.randint(0, 4)):
            nxt = [n for c in group for n in (c + 1, c + size)
                   if n in free and (n != c + 1 or n % size)
                   and values[n] not in {values[g] for g in group}]
            if not nxt:
                break
            group.append(rng.choice(nxt))
            free.discard(group[-1])
        total = sum(values[c] for c in group)
        cages.append((group, None if rng.random() < 0.1 else total))
    return killer(base, cages)


def some_kakuro(rng: random.Random) -> Shape:
    while True:
        try:
            return random_kakuro(rng, rng.randint(3, 9), rng.randint(3, 9))
        except ValueError:  # a layout without runs
            continue


#: kind -> (case name, a maker of (shape, alphabet) from a random source)
Maker = Callable[[random.Random], tuple[Shape, Alphabet | None]]
SHAPES: dict[str, list[tuple[str, Maker]]] = {
    "classic": [(f"{n}x{n}", lambda _r, n=n: (classic(n), None))
                for n in (4, 6, 8, 9, 12, 16, 25)],
    "hex": [("16x16-hex", lambda _r: (classic(16), Alphabet.hexadecimal()))],
    "wordoku": [("wordoku", lambda _r: (classic(9), Alphabet.letters("WORDPLAYS")))],
    "diagonal": [("diagonal", lambda _r: (diagonal(), None)),
                 ("diagonal-6x6", lambda _r: (by_name("diagonal-6x6"), None))],
    "jigsaw": [(f"jigsaw-{n}", lambda r, n=n: (random_jigsaw(n, r), None)) for n in (5, 7, 9)],
    "samurai": [("samurai", lambda _r: (samurai(), None))],
    "killer": [(f"killer-{n}", lambda r, n=n: (random_killer(n, r), None)) for n in (4, 6, 9)],
    "kakuro": [("kakuro", lambda r: (some_kakuro(r), None))],
}


def random_puzzle(shape: Shape, alphabet: Alphabet | None, rng: random.Random,
                  marks: bool) -> Puzzle:
    """Givens from a random filled grid (a Kakuro's cells given now and then); with
    ``marks``, random pencil marks on every other cell, as a pencil-mark grid reads them: a
    lone candidate that no peer holds is a placed cell."""
    alphabet = alphabet or Alphabet.default(shape.size)
    if shape.cages and not shape.houses:
        givens = [rng.randint(1, 9) if rng.random() < 0.1 else 0 for _ in range(shape.ncells)]
        return Puzzle(shape, tuple(givens), alphabet)
    truth = solved_grid(shape, rng)
    share = rng.random()
    givens = [v if rng.random() < share * 0.6 else 0 for v in truth]
    if not marks:
        return Puzzle(shape, tuple(givens), alphabet)
    full = (1 << shape.size) - 1
    masks = []
    for cell, value in enumerate(givens):
        if value:
            masks.append(1 << (value - 1))
        else:
            # the true value and a random handful of others; now and then none at all
            masks.append(0 if rng.random() < 0.02 else
                         (rng.getrandbits(shape.size) & rng.getrandbits(shape.size)
                          | 1 << (truth[cell] - 1)) & full)
    return Puzzle(shape, tuple(placed_values(shape, masks)), alphabet, tuple(masks))


def expected(puzzle: Puzzle, fmt: str) -> Puzzle:
    """What a puzzle written in a format reads back as: the same puzzle, except that a
    format without candidates keeps the givens alone (no mark becomes a given), and a
    pencil-mark format pencils in a puzzle that has no marks."""
    if fmt in ("pencil", "sukaku") and puzzle.candidates is None:
        masks = candidate_masks(puzzle)
        puzzle = Puzzle(puzzle.shape, tuple(placed_values(puzzle.shape, masks)),
                        puzzle.alphabet, tuple(masks))
    if fmt not in CANDIDATES or all(puzzle.givens):
        # a filled pencil-mark grid is a filled grid, and is read as one
        return Puzzle(puzzle.shape, puzzle.givens, puzzle.alphabet)
    if fmt == "pencil" and puzzle.candidates is not None and all(
            m & (m - 1) == 0 for m in puzzle.candidates):
        # one candidate or none in every cell: the text is a grid of values and dots, and
        # is read as one (a dot, no candidate in a pencil grid, is an empty cell in a grid)
        return Puzzle(puzzle.shape, tuple(m.bit_length() for m in puzzle.candidates),
                      puzzle.alphabet)
    return puzzle


def plain(puzzle: Puzzle) -> Puzzle:
    """The puzzle without the marks of a filled grid (which say nothing more)."""
    return Puzzle(puzzle.shape, puzzle.givens, puzzle.alphabet) if all(puzzle.givens) \
        else puzzle


def pairs() -> Iterator[object]:
    for kind, cases in SHAPES.items():
        for name, make in cases:
            for fmt in HOLDS[kind]:
                yield pytest.param(kind, make, fmt, id=f"{name}-{fmt}")


def is_classic(shape: Shape) -> bool:
    try:
        return shape == classic(shape.size)
    except NumberplaceError:  # a size without rectangular boxes
        return False


def says_shape(fmt: str, shape: Shape) -> bool:
    """True if the format's text of a puzzle of the shape says the shape. (Five lines of 81
    are five 9x9 puzzles as well as a Samurai, so the ``samurai`` format needs the shape.)"""
    return fmt in SAYS_SHAPE or (fmt == "samurai-grid" and len(shape.grids) > 1)


def read_back(text: str, fmt: str, puzzle: Puzzle) -> Puzzle:
    """The text read as the commands would: the format found by detection, the shape
    named only where the text cannot say it, the alphabet only where it is not the
    default."""
    hint = None if says_shape(fmt, puzzle.shape) or is_classic(puzzle.shape) else puzzle.shape
    alphabet = None if puzzle.alphabet == Alphabet.default(puzzle.size) else puzzle.alphabet
    return formats.parse(text, shape=hint, alphabet=alphabet)


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "make", "fmt"), list(pairs()))
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), marks=st.booleans())
def test_the_library_reads_back_what_it_writes(kind: str, make: Maker, fmt: str, seed: int,
                                               marks: bool) -> None:
    rng = random.Random(seed)
    shape, alphabet = make(rng)
    puzzle = random_puzzle(shape, alphabet, rng, marks)
    text = formats.write(puzzle, fmt)
    back = read_back(text, fmt, puzzle)
    assert plain(back) == expected(puzzle, fmt), text
    RUN["library"] += 1


@pytest.mark.parametrize("kind", list(HOLDS))
def test_every_other_format_refuses_the_shape_in_one_line(kind: str) -> None:
    for _name, make in SHAPES[kind]:
        shape, alphabet = make(random.Random(7))
        puzzle = random_puzzle(shape, alphabet, random.Random(7), False)
        for fmt in set(FORMAT_NAMES) - set(HOLDS[kind]):
            with pytest.raises(FormatError) as caught:
                formats.write(puzzle, fmt)
            assert "\n" not in str(caught.value)


#: Shape options the commands take for a shape whose text does not say it.
def shape_option(shape: Shape) -> list[str] | None:
    if is_classic(shape):
        return []
    if shape == diagonal():
        return ["--shape", "diagonal"]
    if shape == by_name("diagonal-6x6"):
        return ["--shape", "diagonal-6x6"]
    if shape == samurai():
        return ["--shape", "samurai"]
    return None  # a random jigsaw has no name


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "make", "fmt"), list(pairs()))
@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), marks=st.booleans())
def test_the_commands_read_back_what_convert_writes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, make: Maker, fmt: str,
        seed: int, marks: bool) -> None:
    rng = random.Random(seed)
    shape, alphabet = make(rng)
    puzzle = random_puzzle(shape, alphabet, rng, marks)
    options = [] if says_shape(fmt, shape) else shape_option(shape)
    if options is None:
        return  # no command line can name this shape; the library test covers it
    if alphabet is not None:
        options += ["--alphabet", "hex" if alphabet == Alphabet.hexadecimal() else "WORDPLAYS"]
    source = tmp_path / "puzzle.json"
    source.write_text(formats.write(puzzle, "json") + "\n")
    capsys.readouterr()
    assert main(["convert", str(source), "--to", fmt]) == 0
    written = capsys.readouterr().out
    assert written.rstrip("\n") == formats.write(puzzle, fmt)
    target = tmp_path / "written.txt"
    target.write_text(written)
    assert main(["convert", str(target), "--to", "json", *options]) == 0
    out, err = capsys.readouterr()
    assert plain(formats.parse(out)) == expected(puzzle, fmt), (written, err)
    assert json.loads(out)  # one JSON record a line
    RUN["command line"] += 1


@pytest.fixture(scope="module", autouse=True)
def _count() -> Iterator[None]:
    yield
    print(f"\nround trips run: {RUN['library']} through the library, "
          f"{RUN['command line']} through the command line")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([12, 16, 25]),
       empty=st.sampled_from([".", "-", "_", "0"]), bars=st.booleans())
def test_a_grid_of_numbers_reads_without_being_named(seed: int, size: int, empty: str,
                                                     bars: bool) -> None:
    rng = random.Random(seed)
    puzzle = random_puzzle(classic(size), None, rng, False)
    if not any(v > 9 for v in puzzle.givens):
        return  # nothing over 9: it is a grid of digits, read as such
    rows = []
    for r in range(size):
        cells = [str(v) if v else empty for v in puzzle.givens[r * size:(r + 1) * size]]
        if bars:  # a bar every fourth cell: the reader takes bars anywhere between cells
            cells = [c + (" |" if (i + 1) % 4 == 0 and i + 1 < size else "")
                     for i, c in enumerate(cells)]
        rows.append(" ".join(f"{c:>2}" for c in cells))
    text = "\n".join(rows)
    assert formats.detect(text) == "grid", text
    assert formats.parse(text) == Puzzle(classic(size), puzzle.givens), text
    RUN["library"] += 1
