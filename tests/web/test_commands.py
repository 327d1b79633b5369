"""``numberplace play`` and ``serve`` as a person runs them: each option, the address they
print, the browser opened on the game, Ctrl-C ending them, and one-line errors."""

from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2 as httpx

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def started(*args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """``numberplace ARGS`` running until the block ends with Ctrl-C; its address."""
    process = subprocess.Popen([sys.executable, "-m", "numberplace", *args], cwd=ROOT,
                               stderr=subprocess.PIPE, text=True, start_new_session=True,
                               env={**os.environ, **(env or {})})
    assert process.stderr is not None
    line = process.stderr.readline()
    if " holds " in line and "playing puzzle" in line:  # a file of several puzzles, said
        line = process.stderr.readline()
    try:
        assert " at " in line, line
        yield line.split(" at ")[1].split(" ")[0]
    finally:
        process.send_signal(signal.SIGINT)
        try:
            status = process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
        rest = process.stderr.read()
    assert status == 0, rest
    assert "Traceback" not in rest


def test_play_opens_the_browser_on_the_puzzle_of_a_file(tmp_path: Path) -> None:
    opened = tmp_path / "opened"
    browser = (f"{shlex.quote(sys.executable)} -c "
               f"\"import sys; open({str(opened)!r}, 'w').write(sys.argv[1])\" %s")
    with started("play", "examples/classic.txt", "--db", str(tmp_path / "g.db"),
                 env={"BROWSER": browser}) as url:
        deadline = time.monotonic() + 10
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert opened.read_text() == url
        assert url.startswith("http://127.0.0.1:") and "#game=" in url
        game = url.split("#game=")[1]
        base = url.split("#")[0].rstrip("/")
        shown = httpx.get(f"{base}/api/games/{game}").json()
        first = (ROOT / "examples/classic.txt").read_text().splitlines()[1]
        assert "".join(str(v or ".") for v in shown["givens"]) == first
        assert shown["verdict"] == {"status": "unique", "message": ""}
        assert shown["meta"] == {"label": "9x9", "level": None, "daily": None}
        assert shown["notation"] == "rc"
        claimed = httpx.post(f"{base}/api/games/{game}/actions",
                             json={"action": "pause", "player": "me"})
        assert claimed.status_code == 200
        mine = httpx.get(f"{base}/api/players/me/games").json()["games"]
        assert [g["id"] for g in mine] == [game]  # the file's game joins the browser's list
        assert "<html" in httpx.get(base + "/").text.lower()
    assert (tmp_path / "g.db").exists()


def test_play_without_a_file_and_without_a_browser_on_a_chosen_port(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with started("play", "--no-browser", "--port", str(port),
                 env={"XDG_DATA_HOME": str(tmp_path), "BROWSER": "false"}) as url:
        assert url == f"http://127.0.0.1:{port}/"
        made = httpx.post(url + "api/games", json={"shape": "4x4", "level": "Easy",
                                                   "seed": 1})
        assert made.status_code == 201
    assert (tmp_path / "numberplace" / "numberplace.db").exists()


def test_serve_on_a_host_and_port_with_a_bank(tmp_path: Path) -> None:
    from numberplace.model.puzzle import Puzzle
    from numberplace.store.bank import Bank, entry

    first = (ROOT / "examples/classic.txt").read_text().splitlines()[1]
    found = entry(Puzzle.from_string(first), rate=True)
    assert not isinstance(found, str)
    with Bank(tmp_path / "bank.sqlite") as bank:
        bank.add([found])
    with started("serve", "--host", "127.0.0.1", "--port", "0", "--db",
                 str(tmp_path / "s.db"), "--bank", str(tmp_path / "bank.sqlite")) as url:
        assert "9x9" in httpx.get(url + "api/shapes").json()["shapes"]
        made = httpx.post(url + "api/games", json={"shape": "9x9", "level": found.level})
        assert "".join(str(v or ".") for v in made.json()["givens"]) == first


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "numberplace", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_a_port_in_use_a_bad_file_and_a_bad_database_are_one_line_errors(
        tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        done = run("serve", "--port", port, "--db", str(tmp_path / "s.db"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("12x\n")
    done = run("play", str(bad), "--no-browser", "--db", str(tmp_path / "s.db"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "bad.txt" in done.stderr
    (tmp_path / "folder.db").mkdir()
    done = run("serve", "--port", "0", "--db", str(tmp_path / "folder.db"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    done = run("play", "--port", "70000")
    assert done.returncode == 2 and "--port" in done.stderr
