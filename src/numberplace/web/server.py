"""Serving the web app with uvicorn, on a port chosen by the caller or by the system."""

from __future__ import annotations

import socket
from collections.abc import Callable

from ..errors import NumberplaceError

#: Connections served at once; past it a new one is answered 503 at once.
MAX_CONNECTIONS = 2000


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (port 0: any free one), or a one-line error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
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
    import uvicorn

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
