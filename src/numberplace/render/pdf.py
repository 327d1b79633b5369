"""Puzzle books as PDF: puzzles laid out 1, 2, 4 or 6 to a page, each with its caption
(number, level, difficulty), the book's title, page numbers, and the solutions at the back.

Each puzzle is drawn by the SVG renderer (:func:`~numberplace.render.svg.render_puzzle_svg`,
so every shape is drawn alike on screen and on paper) and placed on the page as vector
graphics through ``svglib`` and ``reportlab``, which the ``print`` extra installs
(``pip install 'numberplace[print]'``).
"""

from __future__ import annotations

import copy
import io
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import NumberplaceError
from ..extras import missing
from ..model.puzzle import Puzzle
from .svg import render_puzzle_svg

__all__ = ["BookPuzzle", "LAYOUTS", "PAPERS", "book_pdf", "check_libraries", "with_pictures"]

#: Puzzles per page, and how they are arranged: (columns, rows).
LAYOUTS = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}
#: Paper sizes in points (1/72 inch).
PAPERS = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}

_MARGIN = 42.0  # about 15 mm
_TITLE_SIZE = 16.0
_CAPTION_SIZE = 10.0
_FOOTER_SIZE = 9.0
_GAP = 14.0  # between slots


@dataclass(frozen=True)
class BookPuzzle:
    """One puzzle of a book: the puzzle, its solution (cell values; None when it has no
    single one) and the caption printed with it (level, difficulty...). ``picture`` and
    ``solved_picture`` are its drawings once :func:`with_pictures` has made them."""

    puzzle: Puzzle
    solution: tuple[int, ...] | None = None
    caption: str = ""
    picture: Any = field(default=None, compare=False, repr=False)
    solved_picture: Any = field(default=None, compare=False, repr=False)


def with_pictures(item: BookPuzzle, solutions: bool = True) -> BookPuzzle:
    """The item with its drawings made: the slow part of a book, which workers can share
    (a drawing pickles)."""
    svg2rlg = _libraries()[2]
    solved = None
    if solutions and item.solution is not None:
        solved = _drawing(svg2rlg, render_puzzle_svg(item.puzzle, item.solution))
    return replace(item, picture=item.picture or _drawing(svg2rlg, render_puzzle_svg(
        item.puzzle)), solved_picture=item.solved_picture or solved)


def _drawing(svg2rlg: Any, svg: str) -> Any:
    return svg2rlg(io.BytesIO(svg.encode("utf-8")))


def check_libraries() -> None:
    """Raise the one-line error of a missing ``print`` extra now, before any work."""
    _libraries()


def _libraries() -> tuple[Any, Any, Any]:
    try:  # imported here: reportlab and svglib are the print extra, which may be missing
        from reportlab.graphics import renderPDF
        from reportlab.pdfgen import canvas
        from svglib.svglib import svg2rlg
    except ImportError:
        raise missing("printing needs reportlab and svglib", "print") from None
    return canvas, renderPDF, svg2rlg


def book_pdf(puzzles: Sequence[BookPuzzle], *, title: str = "Puzzles", per_page: int = 4,
             paper: str = "a4", solutions: bool = True) -> bytes:
    """The book as the bytes of a PDF file: ``per_page`` puzzles to a page (1, 2, 4 or 6)
    on ``paper`` ("a4" or "letter"), the title on the first page and at the top of every
    page, page numbers below, and with ``solutions`` the solutions after the puzzles, as
    many to a page."""
    if per_page not in LAYOUTS:
        raise NumberplaceError(f"puzzles per page must be one of "
                               f"{', '.join(map(str, LAYOUTS))}, not {per_page}")
    if paper not in PAPERS:
        raise NumberplaceError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    if not puzzles:
        raise NumberplaceError("a book needs at least one puzzle")
    canvas_module, render_pdf, _ = _libraries()
    out = io.BytesIO()
    width, height = PAPERS[paper]
    pdf = canvas_module.Canvas(out, pagesize=(width, height), pageCompression=1)
    pdf.setTitle(title)
    pdf.setCreator("numberplace")
    book = _Book(pdf, render_pdf, title, per_page, width, height)
    puzzles = [item if item.picture is not None and (item.solved_picture is not None or
                                                     not solutions or item.solution is None)
               else with_pictures(item, solutions) for item in puzzles]
    for number, item in enumerate(puzzles, start=1):
        book.place(f"{number}. {item.caption}".rstrip(". ").rstrip(), item.picture)
    if solutions:
        book.new_section("Solutions")
        for number, item in enumerate(puzzles, start=1):
            if item.solution is None:
                book.place(f"{number}. no single solution", None)
            else:
                book.place(f"{number}.", item.solved_picture)
    book.finish()
    pdf.save()
    return out.getvalue()


class _Book:
    """Pages being filled, slot by slot."""

    def __init__(self, pdf: Any, render_pdf: Any, title: str, per_page: int,
                 width: float, height: float) -> None:
        self.pdf, self.render_pdf = pdf, render_pdf
        self.title = title
        self.columns, self.rows = LAYOUTS[per_page]
        self.width, self.height = width, height
        self.page = 0
        self.slot = per_page  # full: the first place() starts a page
        self.section = ""
        self.heading = ""

    def new_section(self, heading: str) -> None:
        """Start a new page for ``heading`` (the solutions)."""
        self.section = heading
        self.heading = heading
        self.slot = self.columns * self.rows

    def _start_page(self) -> None:
        if self.page:
            self._footer()
            self.pdf.showPage()
        self.page += 1
        self.slot = 0
        pdf = self.pdf
        top = self.height - _MARGIN
        pdf.setFillColorRGB(0, 0, 0)
        if self.page == 1:
            pdf.setFont("Helvetica-Bold", _TITLE_SIZE + 4)
            pdf.drawCentredString(self.width / 2, top - _TITLE_SIZE, self.title)
        elif self.heading:
            pdf.setFont("Helvetica-Bold", _TITLE_SIZE)
            pdf.drawCentredString(self.width / 2, top - _TITLE_SIZE, self.heading)
        else:
            pdf.setFont("Helvetica", _FOOTER_SIZE)
            pdf.drawCentredString(self.width / 2, top - _FOOTER_SIZE,
                                  self.title + (f": {self.section}" if self.section else ""))
        self.heading = ""

    def _footer(self) -> None:
        self.pdf.setFont("Helvetica", _FOOTER_SIZE)
        self.pdf.setFillColorRGB(0.3, 0.3, 0.3)
        self.pdf.drawCentredString(self.width / 2, _MARGIN / 2, str(self.page))

    def place(self, caption: str, drawing: Any) -> None:
        """The next slot: the caption, and the drawing scaled to fit under it."""
        if self.slot >= self.columns * self.rows:
            self._start_page()
        col, row = self.slot % self.columns, self.slot // self.columns
        self.slot += 1
        top_band = _TITLE_SIZE + 16 + 8
        area_w = self.width - 2 * _MARGIN
        area_h = self.height - 2 * _MARGIN - top_band
        slot_w = (area_w - _GAP * (self.columns - 1)) / self.columns
        slot_h = (area_h - _GAP * (self.rows - 1)) / self.rows
        left = _MARGIN + col * (slot_w + _GAP)
        top = self.height - _MARGIN - top_band - row * (slot_h + _GAP)
        pdf = self.pdf
        pdf.setFillColorRGB(0, 0, 0)
        pdf.setFont("Helvetica", _CAPTION_SIZE)
        pdf.drawString(left, top - _CAPTION_SIZE, caption)
        if drawing is None:
            return
        drawing = copy.copy(drawing)  # scaled here, not in the caller's
        room_h = slot_h - _CAPTION_SIZE - 6
        scale = min(slot_w / drawing.width, room_h / drawing.height)
        drawing.scale(scale, scale)
        w, h = drawing.width * scale, drawing.height * scale
        x = left + (slot_w - w) / 2
        y = top - _CAPTION_SIZE - 6 - h
        self.render_pdf.draw(drawing, pdf, x, y)

    def finish(self) -> None:
        self._footer()
        self.pdf.showPage()
