"""The daily puzzle: one 9x9 a date, the same for everyone, harder towards the weekend.

It is generated from the date (the seed is the date's digits, ``YYYYMMDD``) at the level
of its weekday, so every server makes the same one, and kept in the game database, so
each makes it once.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from ..errors import NumberplaceError
from ..model.puzzle import Puzzle
from ..model.shape import by_name
from .store import GameStore

#: The first date there is a daily puzzle for.
FIRST_DAY = date(2000, 1, 1)
#: The level of each weekday's puzzle, Monday first.
WEEKDAY_LEVELS = (1, 1, 2, 2, 3, 3, 4)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def daily_date(value: object, today: date) -> date:
    """The date a request names (``YYYY-MM-DD``), from :data:`FIRST_DAY` to the day after
    ``today`` (a player east of the server may be a day ahead); NumberplaceError
    otherwise."""
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        raise NumberplaceError("date must be a day written YYYY-MM-DD")
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise NumberplaceError(f"{value} is not a day of the calendar") from None
    last = today + timedelta(days=1)
    if not FIRST_DAY <= day <= last:
        raise NumberplaceError(f"there is no daily puzzle for {value}: they run from "
                               f"{FIRST_DAY.isoformat()} to {last.isoformat()}")
    return day


def daily_level(day: date) -> int:
    """The level of a date's puzzle, by its weekday."""
    return WEEKDAY_LEVELS[day.weekday()]


def daily_puzzle(store: GameStore, day: date, time_limit: float) -> tuple[Puzzle, int]:
    """The puzzle of ``day`` and its level: the one kept in ``store``, or made now (in at
    most ``time_limit`` seconds) and kept."""
    key = day.isoformat()
    kept = store.daily_puzzle(key)
    if kept is None:
        from ..generate import generate  # heavy: only the first request of a date needs it

        level = daily_level(day)
        made = generate(by_name("9x9"), level=level, seed=int(day.strftime("%Y%m%d")),
                        time_limit=time_limit)
        kept = store.keep_daily(key, made.puzzle.to_line(), level)
    text, level = kept
    return Puzzle.from_string(text), level
