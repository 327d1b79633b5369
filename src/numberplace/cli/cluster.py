"""Work on a Dask cluster: ``--scheduler ADDRESS`` joins a running one, ``--cluster local``
starts one on this machine. The pipeline's executor then hands each piece of work to the
cluster's workers; the results come back in input order as from local workers. A worker
that dies loses nothing: the scheduler runs its pieces again on another worker.

Needs the ``cluster`` extra (``pip install 'numberplace[cluster]'``, which installs
``distributed``), and numberplace installed on every worker of a remote cluster.
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from typing import Any

from ..errors import NumberplaceError
from ..extras import missing

__all__ = ["cluster_executor"]

#: How long to wait for a scheduler to answer, in seconds.
CONNECT_SECONDS = 20


class _DaskExecutor(Executor):
    """A Dask client's executor, with the standard ``shutdown(cancel_futures=...)`` the
    pipeline calls after an interruption."""

    def __init__(self, client: Any) -> None:
        # pure=False: two equal pieces (a file with repeated blocks) are two tasks, each
        # with its own result
        self._inner = client.get_executor(pure=False)
        self._pending: list[Future[Any]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = self._inner.submit(fn, *args, **kwargs)
        self._pending = [f for f in self._pending if not f.done()] + [future]
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            for future in self._pending:
                future.cancel()
        self._inner.shutdown(wait=wait and not cancel_futures)


@contextlib.contextmanager
def cluster_executor(scheduler: str | None, local: bool, workers: int
                     ) -> Iterator[tuple[Callable[[], Executor], int] | None]:
    """While the block runs: a maker of executors on the cluster and how many pieces it
    can work at once; None when neither a scheduler nor a local cluster is asked for.
    ``workers``: the local cluster's worker processes."""
    if not scheduler and not local:
        yield None
        return
    try:  # imported here: Dask's distributed is an optional extra, for a cluster alone
        from distributed import Client, LocalCluster
    except ImportError:
        raise missing("--scheduler and --cluster need Dask's distributed",
                      "cluster") from None
    cluster = None
    with contextlib.ExitStack() as stack:
        if local:
            with warnings.catch_warnings():
                # "port 8787 is in use, serving on another": its web server is not used
                warnings.simplefilter("ignore")
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                       processes=True, dashboard_address=None,
                                       silence_logs=logging.ERROR)
            stack.callback(cluster.close)
        try:
            client = Client(cluster if cluster is not None else scheduler,
                            timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError, ValueError) as exc:
            raise NumberplaceError(f"cannot reach the Dask scheduler at {scheduler}: "
                                   f"{exc}") from None
        stack.callback(client.close)
        if not local:
            # quieter: a worker lost and replaced is the scheduler's business
            logging.getLogger("distributed").setLevel(logging.ERROR)
        threads = sum(w.get("nthreads", 1)
                      for w in client.scheduler_info().get("workers", {}).values())
        if not threads:
            raise NumberplaceError(f"the Dask scheduler at {scheduler} has no workers")
        # at least two: one piece in flight is local work (see pipeline.ordered_map)
        yield (lambda: _DaskExecutor(client)), max(2, threads)
