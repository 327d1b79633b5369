"""Pictures of a board: SVG (with a solver step highlighted) and plain text.

>>> from numberplace.render import render_svg, render_text
"""

from __future__ import annotations

from .svg import ROLE_COLOURS, render_svg
from .text import render_text

__all__ = ["ROLE_COLOURS", "render_svg", "render_text"]
