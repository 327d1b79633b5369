"""Pictures of a board: SVG (with a solver step highlighted, or a puzzle to print), plain
text, and puzzle books as PDF (:mod:`numberplace.render.pdf`, with the ``print`` extra).

>>> from numberplace.render import render_svg, render_text
"""

from __future__ import annotations

from .svg import ROLE_COLOURS, render_puzzle_svg, render_svg
from .text import render_text

__all__ = ["ROLE_COLOURS", "render_puzzle_svg", "render_svg", "render_text"]
