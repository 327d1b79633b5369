"""Serving the web app with uvicorn, on a port chosen by the caller or by the system, in
one process or in several workers that share the port and the game store."""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
from collections.abc import Callable
from typing import Any

from ..errors import NumberplaceError

#: Connections served at once; past it a new one is answered 503 at once.
MAX_CONNECTIONS = 2000


def listening_socket(host: str, port: int, *, shared: bool = False) -> socket.socket:
    """A socket bound to ``host:port`` (port 0: any free one), or a one-line error;
    ``shared``: one of several listening on one port (each worker's own), which the
    first must be as well."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if shared:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise NumberplaceError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") \
            from None
    sock.listen(128)
    return sock


def run(app: object, sock: socket.socket, started: Callable[[], None] | None = None) -> None:
    """Serve ``app`` on ``sock`` until Ctrl-C (a normal end); ``started`` is called once it
    listens."""
    import uvicorn  # imported here: a process that serves loads it, not the parent of --workers

    # bounded: connections at once (past it a 503), a request's head in bytes, and how
    # long an idle connection is kept
    config = uvicorn.Config(app, log_level="warning", access_log=False,  # type: ignore[arg-type]  # an ASGI app
                            timeout_graceful_shutdown=2, limit_concurrency=MAX_CONNECTIONS,
                            timeout_keep_alive=5, h11_max_incomplete_event_size=32 * 1024)
    server = uvicorn.Server(config)
    if started is not None:
        original = server.startup

        async def startup(sockets: list[socket.socket] | None = None) -> None:
            await original(sockets=sockets)
            started()

        server.startup = startup  # type: ignore[method-assign]  # a hook uvicorn lacks
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        # uvicorn has already shut down gracefully and re-raises the signal it caught;
        # for a server, Ctrl-C is the normal way to stop, not a failure
        pass


def run_workers(settings: dict[str, Any], workers: int, sock: socket.socket,
                started: Callable[[], None] | None = None) -> None:
    """Serve the app made by :func:`app_from_settings` from ``settings`` in ``workers``
    processes until Ctrl-C. Each worker listens on a socket of its own bound to
    ``sock``'s address (``SO_REUSEPORT``), so the kernel spreads the connections over
    them (one shared socket lets whichever worker wakes first take a whole burst of
    connections, and keep them); each opens the game store itself, and nothing a worker
    keeps in memory is trusted over the store (see :class:`~numberplace.web.app.Games`).
    A worker that dies is started again."""
    host, port = sock.getsockname()[:2]
    sockets = [sock] + [listening_socket(host, port, shared=True) for _ in range(workers - 1)]
    spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: no state forked
    pinned = worker_cpus(workers)
    processes = [spawn.Process(target=_worker, args=(s, settings, cpu), daemon=True)
                 for s, cpu in zip(sockets, pinned, strict=True)]
    for process in processes:
        process.start()
    if started is not None:
        started()
    # stopped by Ctrl-C or by a plain kill alike: the workers are stopped with it
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        while True:
            for i, process in enumerate(processes):
                process.join(0.5 / workers)
                if process.exitcode is not None:  # died: another in its place
                    processes[i] = spawn.Process(target=_worker,
                                                 args=(sockets[i], settings, pinned[i]),
                                                 daemon=True)
                    processes[i].start()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)


def worker_cpus(workers: int) -> list[int | None]:
    """The processor each of ``workers`` workers keeps to, in turn over the ones this
    process may use (None where the system cannot pin a process). A worker's event loop
    and its request threads hand each request from one to the other; on one processor
    the two share its caches, where the system would otherwise move them between
    processors on every hand-over: 1.45 ms of CPU a request pinned against 1.70 ms not,
    and 1,022 against 791 requests a second, two workers on 2 cores (bench/load.py, 50
    players). Each worker still has a processor of its own while there are enough."""
    if not hasattr(os, "sched_getaffinity"):
        return [None] * workers
    cpus = sorted(os.sched_getaffinity(0))
    return [cpus[i % len(cpus)] for i in range(workers)]


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _worker(sock: socket.socket, settings: dict[str, Any], cpu: int | None = None) -> None:
    """One worker: the app of ``settings`` served on ``sock`` until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent says when to stop (SIGTERM)
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})  # see worker_cpus
    run(app_from_settings(settings), sock)


def app_from_settings(settings: dict[str, Any]) -> Any:
    """The web app of ``settings``: ``db`` (the game store), ``bank``, ``games_per_hour``,
    ``idle_days`` and ``hosts`` (see :func:`~numberplace.web.app.create_app`)."""
    # imported here, in each worker: the parent only listens and keeps the workers
    from ..store.bank import Bank
    from .app import GAMES_PER_HOUR, create_app
    from .store import GameStore

    bank = Bank(settings["bank"], create=False) if settings.get("bank") else None
    return create_app(GameStore(settings["db"]), bank,
                      games_per_hour=settings.get("games_per_hour", GAMES_PER_HOUR),
                      idle_days=settings.get("idle_days"), hosts=settings.get("hosts", ["*"]))
