"""How a request's work runs: off the event loop, within the request's deadline, in one of
a bounded number of solver slots, and stopped when its client goes away.

Every handler hands its work to :func:`off_loop`: the event loop only reads requests and
writes answers, so no lock, search, serialisation or database write of one request ever
holds up another's. Work that may search (hints, steps, checks, new games, the live
solver) also takes a :class:`Slots` place: at most ``total`` such pieces run at once, at
most ``per_client`` for one client, and a request that finds none free within a moment is
answered 503 with ``Retry-After`` rather than queued behind the others.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from ..limits import ceiling

T = TypeVar("T")

#: Seconds all the solver work of one request may take, however many searches it makes.
REQUEST_SECONDS = 15.0
#: Seconds a request waits for a solver slot before it is told to come back.
SLOT_WAIT = 5.0


class Busy(Exception):
    """No solver slot came free in time: answered 503 with ``Retry-After``."""

    def __init__(self, message: str, retry_after: int = 2) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Slots:
    """Places for solver work: ``total`` at once, ``per_client`` for one client."""

    def __init__(self, total: int, per_client: int, wait: float = SLOT_WAIT) -> None:
        self.total = total
        self.per_client = per_client
        self.wait = wait
        self._turn = threading.Condition()
        self._held: Counter[str] = Counter()

    @contextmanager
    def held(self, client: str) -> Iterator[None]:
        """A slot for ``client`` while the block runs; :class:`Busy` if none comes free
        within ``wait`` seconds."""
        with self._turn:
            if not self._turn.wait_for(lambda: self._free_for(client), timeout=self.wait):
                mine = self._held[client] >= self.per_client
                running = "1 search" if self.per_client == 1 else \
                    f"{self.per_client} searches"
                raise Busy(f"this client already has {running} running; try again when "
                           f"they end" if mine else
                           "the server is busy with other players' searches; try again "
                           "in a moment")
            self._held[client] += 1
        try:
            yield
        finally:
            with self._turn:
                self._held[client] -= 1
                if not self._held[client]:
                    del self._held[client]
                self._turn.notify_all()

    def _free_for(self, client: str) -> bool:
        return sum(self._held.values()) < self.total and self._held[client] < self.per_client


class Quota:
    """At most ``count`` things (new games) for one client in any ``seconds``."""

    def __init__(self, count: int, seconds: float = 3600.0) -> None:
        self.count = count
        self.seconds = seconds
        self._lock = threading.Lock()
        self._times: dict[str, deque[float]] = {}

    def take(self, client: str) -> None:
        """Count one for ``client``; :class:`TooMany` past the quota."""
        now = time.monotonic()
        with self._lock:
            if len(self._times) > 100_000:  # forget clients whose window has passed
                self._times = {k: v for k, v in self._times.items()
                               if v and v[-1] > now - self.seconds}
            times = self._times.setdefault(client, deque())
            while times and times[0] <= now - self.seconds:
                times.popleft()
            if len(times) >= self.count:
                wait = int(times[0] + self.seconds - now) + 1
                raise TooMany(f"{self.count} new games in {self.seconds / 60:g} minutes is "
                              f"the most one client may start; try again in {wait} s", wait)
            times.append(now)


class TooMany(Busy):
    """A client's quota is used up: answered 429 with ``Retry-After``."""


async def off_loop(request: Request, work: Callable[[], T], *, slots: Slots | None = None,
                   client: str = "", seconds: float = REQUEST_SECONDS) -> T:
    """``work()`` in a worker thread, within ``seconds`` for all its searches (and in a
    solver slot of ``slots``, when given); its searches stop at once if the client goes
    away before the answer."""
    gone = threading.Event()

    def bounded() -> T:
        with ceiling(seconds, gone):
            if slots is None:
                return work()
            with slots.held(client):
                return work()

    watcher = asyncio.ensure_future(_watch(request, gone))
    try:
        return await run_in_threadpool(bounded)
    finally:
        watcher.cancel()


async def _watch(request: Request, gone: threading.Event) -> None:
    """Set ``gone`` when the client disconnects (the body has been read by then, so the
    next message the server can receive is the disconnect)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            gone.set()
            return


def client_of(request: Request, body: dict[str, object] | None = None) -> str:
    """Whom a request's work is counted against: its client's id or player, else its
    address."""
    for key in ("client", "player"):
        value = (body or {}).get(key)
        if isinstance(value, str) and value:
            return f"{key}:{value}"
    return f"address:{request.client.host if request.client else '?'}"
