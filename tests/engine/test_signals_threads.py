"""The engine stops at Ctrl-C, and threads may share one shape's engine."""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from numberplace import Puzzle, by_name, classic, engine
from numberplace.engine.grids import minimal_puzzle, random_grid
from pace import within

BACKENDS = engine.available_backends()


def _interrupt_after(seconds: float) -> threading.Thread:
    """Send this process SIGINT (what Ctrl-C sends) after ``seconds``, from a thread."""

    def fire() -> None:
        time.sleep(seconds)
        os.kill(os.getpid(), signal.SIGINT)

    thread = threading.Thread(target=fire)
    thread.start()
    return thread


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", ["9x9", "16x16"])  # the 9x9 solver and the general one
def test_ctrl_c_stops_a_long_search_at_once(backend: str, shape: str) -> None:
    # counting every grid of an empty board would take longer than the universe
    empty = Puzzle.empty(by_name(shape))
    thread = _interrupt_after(0.5)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        engine.solve(empty, limit=2**31 - 1, keep=0, backend=backend)
    thread.join()
    assert within(time.monotonic() - start, 1.5)


@pytest.mark.parametrize("backend", BACKENDS)
def test_ctrl_c_stops_a_batch_of_easy_puzzles(backend: str) -> None:
    shape = classic(9)
    puzzle = minimal_puzzle(shape, random_grid(shape, 1), seed=1)
    blob = bytes(puzzle.givens) * 2_000_000  # about a minute of work
    thread = _interrupt_after(0.5)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        engine.solve_blob(shape, blob, backend=backend)
    thread.join()
    assert within(time.monotonic() - start, 1.5)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", ["9x9", "16x16"])
def test_ctrl_c_stops_a_batch_of_long_searches(backend: str, shape: str) -> None:
    grid = by_name(shape)
    thread = _interrupt_after(0.5)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):  # every puzzle of the batch after the first too
        engine.solve_blob(grid, bytes(grid.ncells) * 4, limit=2**31 - 1, backend=backend)
    thread.join()
    assert within(time.monotonic() - start, 1.5)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_search_after_an_interrupt_is_whole(backend: str) -> None:
    thread = _interrupt_after(0.2)
    with pytest.raises(KeyboardInterrupt):
        engine.solve(Puzzle.empty(classic(16)), limit=2**31 - 1, keep=0, backend=backend)
    thread.join()
    result = engine.solve(Puzzle.empty(classic(4)), limit=1000, backend=backend)
    assert result.count == 288


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", ["9x9", "16x16", "samurai"])
def test_threads_sharing_an_engine_get_the_answers_of_one_thread(backend: str,
                                                                 shape: str) -> None:
    grid_shape = by_name(shape)
    puzzles = [minimal_puzzle(grid_shape, random_grid(grid_shape, seed), seed=seed,
                              node_limit=20_000)
               for seed in range(6)]
    # counting to 50 on thinned boards gives searches of many nodes, which overlap
    thinned = [Puzzle(grid_shape, tuple(v if i % 3 else 0 for i, v in enumerate(p.givens)))
               for p in puzzles]

    def run(p: Puzzle) -> engine.Result:
        return engine.solve(p, limit=50, keep=3, node_limit=200_000, backend=backend)

    alone = [run(p) for p in thinned] * 4
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(run, thinned * 4))
    assert [(r.status, r.count, r.solutions, r.nodes) for r in together] == \
        [(r.status, r.count, r.solutions, r.nodes) for r in alone]
