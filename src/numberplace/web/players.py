"""A player's statistics, from their games: per kind and level, the games started and
solved and the best and average times; the streak of days with a solve; the daily
puzzles played and solved.

A game counts as solved only when it was solved without "solve all". Days are the
player's own: a solve's time is shifted by their offset from UTC before its date is
taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta, timezone
from typing import Any

from .store import Played

#: The offsets from UTC, in minutes, that local times have (UTC-14:00 to UTC+14:00).
TZ_RANGE = (-840, 840)


def player_stats(played: Sequence[Played], now: float, tz_minutes: int = 0) -> dict[str, Any]:
    """The statistics of a player's games (see the module docs), ``now`` an epoch time
    and ``tz_minutes`` the player's offset east of UTC."""
    groups: dict[tuple[str | None, int | None], list[Played]] = {}
    for game in played:
        groups.setdefault((game.label, game.level), []).append(game)
    stats = []
    for (label, level), games in sorted(groups.items(), key=lambda item: (
            item[0][0] or "", -1 if item[0][1] is None else item[0][1])):
        solved = [g for g in games if _solved(g)]
        times = [g.elapsed for g in solved if g.elapsed is not None]
        stats.append({"label": label, "level": level, "games": len(games),
                      "solved": len(solved), "best": min(times) if times else None,
                      "average": round(sum(times) / len(times), 1) if times else None})
    days = {_day(g.solved_at, tz_minutes) for g in played
            if _solved(g) and g.solved_at is not None}
    dailies = {g.daily for g in played if g.daily}
    return {"stats": stats, "streak": _streak(days, _day(now, tz_minutes)),
            "daily": {"played": len(dailies),
                      "solved": len({g.daily for g in played if g.daily and _solved(g)})}}


def _solved(game: Played) -> bool:
    return game.solved and not game.revealed


def _day(epoch: float, tz_minutes: int) -> date:
    return datetime.fromtimestamp(epoch + tz_minutes * 60, tz=timezone.utc).date()


def _streak(days: set[date], today: date) -> dict[str, int]:
    """The current run of consecutive days with a solve (from today, or from yesterday
    while today has none yet) and the longest ever."""
    one = timedelta(days=1)
    day = today if today in days else today - one
    current = 0
    while day in days:
        current += 1
        day -= one
    best = 0
    for day in days:
        if day - one in days:
            continue  # not the first day of its run
        length = 1
        while day + one * length in days:
            length += 1
        best = max(best, length)
    return {"current": current, "best": best}
