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
import contextvars
import threading
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import TypeVar

from starlette.requests import Request

from ..limits import ceiling

T = TypeVar("T")

#: Seconds all the solver work of one request may take, however many searches it makes.
REQUEST_SECONDS = 15.0
#: Seconds a request waits for a solver slot before it is told to come back.
SLOT_WAIT = 5.0
#: The threads requests' work runs in: a few more than the solver slots, so moves always
#: find one. Few, as the work is CPU-bound under one interpreter lock: forty threads
#: taking turns on it made the slowest 1% of answers wait 1 s where eight take 0.15 s
#: (bench/load.py, 50 players). A pool of the standard library's, handed to the event
#: loop directly.
THREADS = ThreadPoolExecutor(8, thread_name_prefix="numberplace-request")


class Busy(Exception):
    """No solver slot came free in time: answered 503 with ``Retry-After``."""

    def __init__(self, message: str, retry_after: int = 2) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Slots:
    """Places for solver work: ``total`` at once, ``per_client`` for one client. Taken on
    the event loop before the work goes to a thread, so a request waiting for a place
    holds no thread (the threads are few: see :data:`THREADS`)."""

    def __init__(self, total: int, per_client: int, wait: float = SLOT_WAIT) -> None:
        self.total = total
        self.per_client = per_client
        self.wait = wait
        self._conditions: dict[asyncio.AbstractEventLoop, asyncio.Condition] = {}
        self._held: Counter[str] = Counter()

    @property
    def _turn(self) -> asyncio.Condition:
        """The condition of the running event loop (a server has one; a test client may
        start one a request)."""
        loop = asyncio.get_running_loop()
        if loop not in self._conditions:
            self._conditions = {k: v for k, v in self._conditions.items()
                                if not k.is_closed()}
            self._conditions[loop] = asyncio.Condition()
        return self._conditions[loop]

    @asynccontextmanager
    async def held(self, client: str) -> AsyncIterator[None]:
        """A slot for ``client`` while the block runs; :class:`Busy` if none comes free
        within ``wait`` seconds."""
        turn = self._turn
        async with turn:
            try:
                await asyncio.wait_for(turn.wait_for(lambda: self._free_for(client)),
                                       self.wait)
            except asyncio.TimeoutError:
                mine = self._held[client] >= self.per_client
                running = "1 search" if self.per_client == 1 else \
                    f"{self.per_client} searches"
                raise Busy(f"this client already has {running} running; try again when "
                           f"they end" if mine else
                           "the server is busy with other players' searches; try again "
                           "in a moment") from None
            self._held[client] += 1
        try:
            yield
        finally:
            async with turn:
                self._held[client] -= 1
                if not self._held[client]:
                    del self._held[client]
                turn.notify_all()

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
                   client: str = "", seconds: float = REQUEST_SECONDS,
                   watch: bool = True) -> T:
    """``work()`` in a worker thread, within ``seconds`` for all its searches (and in a
    solver slot of ``slots``, when given); with ``watch``, its searches stop at once if
    the client goes away before the answer (a move, over in a moment, need not be
    watched)."""
    # only a watched request can be told its client went away
    gone = threading.Event() if watch else None

    def bounded() -> T:
        with ceiling(seconds, gone):
            return work()

    if slots is None:
        return await _in_thread(request, bounded, gone)
    async with slots.held(client):
        return await _in_thread(request, bounded, gone)


async def _in_thread(request: Request, work: Callable[[], T], gone: threading.Event | None
                     ) -> T:
    run = asyncio.get_running_loop().run_in_executor(
        THREADS, contextvars.copy_context().run, work)
    if gone is None:
        return await run
    watcher = asyncio.ensure_future(_watch(request, gone))
    try:
        return await run
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
