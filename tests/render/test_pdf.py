"""Printed books: 12 puzzles of every shape make a PDF whose pages poppler renders, with
captions, page numbers and the solutions at the back; ``numberplace print`` writes them."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from numberplace import engine, formats
from numberplace.cli import main
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import Shape, by_name, jigsaw, samurai

pytest.importorskip("reportlab", reason="printing needs the print extra")
pytest.importorskip("svglib", reason="printing needs the print extra")

from numberplace.render.pdf import BookPuzzle, book_pdf  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
POPPLER = shutil.which("pdftoppm") and shutil.which("pdftotext")
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils is not installed")

JIGSAW = ("111123333111222223112223333444455666455555566445776666744788888777799888"
          "799999998")


def cut(shape: Shape, seed: int, share: float = 0.4) -> BookPuzzle:
    """A puzzle of ``shape`` cut from a complete grid (relabelled by ``seed``), with that
    grid as its solution: printing needs no search."""
    grid = engine.first_solution(Puzzle.empty(shape))
    assert grid is not None
    rng = random.Random(seed)
    symbols = [0] + rng.sample(range(1, shape.size + 1), shape.size)
    solution = tuple(symbols[v] for v in grid)
    givens = tuple(v if rng.random() < share else 0 for v in solution)
    return BookPuzzle(Puzzle(shape, givens), solution, f"Level {seed % 5 + 1}, {seed}.5")


def twelve(name: str) -> list[BookPuzzle]:
    if name in ("killer", "kakuro"):  # the examples' sums, with their solutions
        puzzle = next(iter(formats.read_file(ROOT / "examples" / f"{name}.txt"))).puzzle
        assert puzzle is not None
        return [BookPuzzle(puzzle, engine.first_solution(puzzle), f"Level 2, {k}")
                for k in range(12)]
    shape = jigsaw(JIGSAW) if name == "jigsaw" else samurai() if name == "samurai" else \
        by_name(name)
    return [cut(shape, k) for k in range(12)]


def pages(pdf: Path, folder: Path) -> list[Path]:
    subprocess.run(["pdftoppm", "-r", "30", "-png", str(pdf), str(folder / "page")],
                   check=True)
    return sorted(folder.glob("page-*.png"))


def ink(png: Path) -> float:
    """The share of the page that is not white."""
    from PIL import Image

    with Image.open(png) as image:
        grey = image.convert("L")
        return sum(grey.histogram()[:200]) / (grey.width * grey.height)


@pytest.mark.slow
@needs_poppler
@pytest.mark.parametrize("name", ["4x4", "6x6", "8x8", "9x9", "12x12", "16x16", "25x25",
                                  "jigsaw", "diagonal", "samurai", "killer", "kakuro"])
def test_twelve_puzzles_of_each_shape_make_a_book_poppler_renders(name: str,
                                                                   tmp_path: Path) -> None:
    per_page = 6 if name in ("4x4", "9x9", "samurai") else 4
    pdf = tmp_path / "book.pdf"
    pdf.write_bytes(book_pdf(twelve(name), title=f"{name} puzzles", per_page=per_page))
    shown = pages(pdf, tmp_path)
    assert len(shown) == 2 * -(-12 // per_page)  # puzzles, then as many pages of solutions
    for png in shown:
        assert 0.01 < ink(png) < 0.6, png.name  # drawn, and not a black page
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert text.count(f"{name} puzzles") >= 1
    assert "Solutions" in text
    assert "Level 1, 0.5" in text or "Level 2, 0" in text
    for number in range(1, len(shown) + 1):  # the lowest word of each page: its number
        assert lowest_word(pdf, number) == str(number)


def lowest_word(pdf: Path, page: int) -> str:
    """The word nearest the bottom of a page, as poppler places it."""
    boxes = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf),
                            "-"], check=True, capture_output=True, text=True).stdout
    words = re.findall(r'<word xMin="[\d.]+" yMin="([\d.]+)"[^>]*>([^<]*)</word>', boxes)
    return max(words, key=lambda w: float(w[0]))[1]


def test_book_options_are_checked() -> None:
    from numberplace.errors import NumberplaceError

    items = twelve("4x4")[:1]
    with pytest.raises(NumberplaceError, match="puzzles per page must be one of 1, 2, 4, 6"):
        book_pdf(items, per_page=3)
    with pytest.raises(NumberplaceError, match="paper must be one of a4, letter"):
        book_pdf(items, paper="a3")
    with pytest.raises(NumberplaceError, match="at least one puzzle"):
        book_pdf([])


@needs_poppler
def test_the_print_command_from_a_file_and_from_the_bank(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf, svg = tmp_path / "book.pdf", tmp_path / "first.svg"
    status = main(["print", str(ROOT / "examples" / "classic.txt"), "--pdf", str(pdf),
                   "--svg", str(svg), "--per-page", "2", "--title", "Three", "--paper",
                   "letter", "--jobs", "1"])
    assert status == 0
    assert "book.pdf: 3 puzzles, 4 pages" in capsys.readouterr().err
    text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout
    assert "Three" in text and "Level 1 Easy, 1.5" in text and "Solutions" in text
    assert svg.read_text().startswith("<svg")
    # from a bank, without solutions
    db = tmp_path / "bank.sqlite"
    assert main(["bank", "add", str(ROOT / "examples" / "classic.txt"), "--db", str(db),
                 "--rate", "--jobs", "1"]) == 0
    status = main(["print", "--from-bank", str(db), "--level", "4", "--pdf", str(pdf),
                   "--no-solutions", "--jobs", "1"])
    assert status == 0
    assert "1 puzzles, 1 pages" in capsys.readouterr().err
    text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout
    assert "Extremely Difficult" in text and "Solutions" not in text


def test_print_needs_somewhere_to_write(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print", str(ROOT / "examples" / "classic.txt")]) == 2
    assert "print needs --pdf FILE" in capsys.readouterr().err
