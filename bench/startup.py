"""How long the command line takes to start: imports, ``--version``, one puzzle solved.

Each figure is the median wall time of ``--runs`` fresh processes; the import time is
Python's own ``-X importtime`` total for ``numberplace.cli``, and the heaviest modules
are listed. The package's bytecode is compiled first and every process may write it, as
after any install (``pip`` compiles it; an editable install writes it on first use), so
the figures are start-up, not compilation. Run it on an idle machine:

    python bench/startup.py [--runs 20]
"""

from __future__ import annotations

import argparse
import compileall
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from turns import USER_ENV

PUZZLE = "..9.5..6.3.219..87.6.3.......85.3..117.....545..8.12.......7.2.48..125.3.2..3.7.."


def wall(command: list[str], runs: int) -> float:
    """Median wall seconds of ``command`` run ``runs`` times."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=USER_ENV)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def import_times() -> list[tuple[int, str]]:
    """(cumulative microseconds, module) of ``import numberplace.cli``, heaviest first."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import numberplace.cli"],
                          check=True, capture_output=True, text=True, env=USER_ENV)
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].strip()))
    return sorted(rows, reverse=True)


def main() -> None:
    """Print the start-up table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    import numberplace

    compileall.compile_dir(Path(numberplace.__file__).parent, quiet=1)
    cli = [sys.executable, "-m", "numberplace"]
    script = shutil.which("numberplace")
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "one.txt"
        source.write_text(PUZZLE + "\n")
        rows = [
            ("python -c pass", wall([sys.executable, "-c", "pass"], args.runs)),
            ("numberplace --version", wall([*cli, "--version"], args.runs)),
            ("numberplace solve (one puzzle)", wall([*cli, "solve", str(source)], args.runs)),
        ]
        if script:
            rows.append(("numberplace solve, the installed script",
                         wall([script, "solve", str(source)], args.runs)))
    imports = import_times()
    table = Table(title=f"numberplace start-up (median of {args.runs} runs)")
    table.add_column("what")
    table.add_column("ms", justify="right")
    for name, seconds in rows:
        table.add_row(name, f"{seconds * 1e3:.0f}")
    table.add_row("import numberplace.cli (-X importtime)", f"{imports[0][0] / 1e3:.0f}")
    for micros, module in imports[1:8]:
        table.add_row(f"  {module}", f"{micros / 1e3:.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()
