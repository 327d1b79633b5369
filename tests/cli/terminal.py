"""Run the command line in a pseudo-terminal, as a person at a terminal does, and press
Ctrl-C there (the terminal, not the test, sends SIGINT to every process of the command)."""

from __future__ import annotations

import os
import pty
import select
import sys
import time
from dataclasses import dataclass


@dataclass
class Session:
    """What the terminal showed, the exit status, and how long the command took to end
    after Ctrl-C (or in all, without one)."""

    screen: str
    status: int
    seconds: float


def run_in_terminal(args: list[str], *, ctrl_c_after: float | None = None,
                    stdout_path: str | None = None, stdin_text: str | None = None,
                    timeout: float = 120.0) -> Session:
    """Run ``numberplace ARGS`` with a terminal on standard input, output and error
    (standard output goes to ``stdout_path`` instead when given)."""
    pid, master = pty.fork()
    if pid == 0:  # the child: the terminal is its controlling terminal
        if stdout_path is not None:
            fd = os.open(stdout_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
        env = dict(os.environ, COLUMNS="120", LINES="40", TERM="xterm")
        os.execvpe(sys.executable, [sys.executable, "-m", "numberplace", *args], env)
    chunks: list[bytes] = []
    start = time.monotonic()
    pressed: float | None = None
    if stdin_text is not None:
        os.write(master, stdin_text.encode())
    while True:
        now = time.monotonic()
        if ctrl_c_after is not None and pressed is None and now - start >= ctrl_c_after:
            os.write(master, b"\x03")
            pressed = now
        if now - start > timeout:
            os.kill(pid, 9)
            raise TimeoutError(f"numberplace {' '.join(args)} ran past {timeout} s")
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                data = b""
            if not data:
                break
            chunks.append(data)
    _, wait_status = os.waitpid(pid, 0)
    end = time.monotonic()
    os.close(master)
    return Session(b"".join(chunks).decode("utf-8", "replace"),
                   os.waitstatus_to_exitcode(wait_status),
                   end - (pressed if pressed is not None else start))
