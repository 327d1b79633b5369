"""Playing: a game session as data (no web code here).

``Session(puzzle)`` holds the player's entries, pencil marks, colours, the timer, the
activity log and the undo/redo history, with Programming Sudoku's rules; :mod:`.saving` writes a
game to a file losslessly (atomically) and reads it back, or opens a puzzle file.
"""

from .history import Change, History, Layer, Move
from .session import (
           COLOURS,
           LIVE_TECHNIQUES,
           Diagnosis,
           HintView,
           Mode,
           Reply,
           Session,
           Source,
           Verdict,
)
from .timer import Timer

__all__ = ["COLOURS", "LIVE_TECHNIQUES", "Change", "Diagnosis", "HintView", "History", "Layer",
           "Mode", "Move", "Reply", "Session", "Source", "Timer", "Verdict"]
