"""HoDoKu's regression library, run against the step-by-step solver.

HoDoKu's library (``reglib-1.3.txt``, 1,112 cases; it ships with HoDoKu's sources and is
read from where it lies, never copied into this project) holds one position per line and
the exact result one technique must give there: its eliminations or placements, or, for a
fail case, that the technique finds nothing. Each case is set up (givens, placed cells,
deleted candidates) and the matching numberplace techniques list every step they find on
it. A case is

- *matched* when one of those steps has exactly the expected eliminations and placements
  (a fail case: when they find nothing),
- *different* when they find steps, none of them exactly that,
- *not found* when they find nothing where the library expects a step,
- *missing* when numberplace has no technique for the library's,

and every step found is checked against the position's solution: a step that removes a
true candidate or places a wrong digit is *unsound*.

    python bench/reglib.py PATH/reglib-1.3.txt [--only 0702,0901] [--mismatches FILE]
                           [--steps N] [--jobs J]

Prints a table by technique code and a total; ``--mismatches`` writes every case that did
not match, with its reason. Exits 1 if any step was unsound or any case raised an error.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import islice

from rich.console import Console
from rich.table import Table

from numberplace import engine
from numberplace.logic import REGISTRY
from numberplace.logic.board import Board
from numberplace.puzzle import Puzzle
from numberplace.shape import classic

#: HoDoKu's technique codes (the names come from the library's own headings), and the
#: numberplace techniques that answer each (none: numberplace has no such technique yet).
TECHNIQUES: dict[str, tuple[str, ...]] = {
    "0000": ("Full House",),
    "0002": ("Hidden Single",),
    "0003": ("Naked Single",),
    "0100": ("Locked Candidates Type 1 (Pointing)",),
    "0101": ("Locked Candidates Type 2 (Claiming)",),
    "0110": ("Locked Pair",),
    "0111": ("Locked Triple",),
    "0200": ("Naked Pair",),
    "0201": ("Naked Triple",),
    "0202": ("Naked Quadruple",),
    "0210": ("Hidden Pair",),
    "0211": ("Hidden Triple",),
    "0212": ("Hidden Quadruple",),
    "0300": ("X-Wing",),
    "0301": ("Swordfish",),
    "0302": ("Jellyfish",),
    "0310": ("Finned X-Wing", "Sashimi X-Wing"),
    "0311": ("Finned Swordfish", "Sashimi Swordfish"),
    "0312": ("Finned Jellyfish", "Sashimi Jellyfish"),
    "0320": ("Sashimi X-Wing", "Finned X-Wing"),
    "0321": ("Sashimi Swordfish", "Finned Swordfish"),
    "0322": ("Sashimi Jellyfish", "Finned Jellyfish"),
    "0330": (),
    "0331": (),
    "0332": (),
    "0340": (),
    "0341": (),
    "0342": (),
    "0350": (),
    "0351": (),
    "0352": (),
    "0360": (),
    "0361": (),
    "0362": (),
    "0363": (),
    "0364": (),
    "0371": (),
    "0372": (),
    "0400": ("Skyscraper",),
    "0401": ("2-String Kite",),
    "0402": ("Empty Rectangle",),
    "0403": ("Skyscraper", "2-String Kite", "Empty Rectangle", "X-Chain"),
    "0404": ("2-String Kite",),
    "0405": ("Empty Rectangle",),
    "0500": ("Simple Colors Trap",),
    "0501": ("Simple Colors Wrap",),
    "0502": (),
    "0503": (),
    "0600": ("Unique Rectangle Type 1",),
    "0601": ("Unique Rectangle Type 2",),
    "0602": ("Unique Rectangle Type 3",),
    "0603": ("Unique Rectangle Type 4",),
    "0604": (),
    "0605": (),
    "0606": (),
    "0607": (),
    "0608": (),
    "0610": ("BUG+1",),
    "0701": ("X-Chain",),
    "0702": ("XY-Chain",),
    "0703": ("Remote Pair",),
    "0706": ("X-Chain", "XY-Chain", "AIC"),
    "0707": ("X-Chain", "XY-Chain", "AIC"),
    "0708": ("X-Chain", "XY-Chain", "AIC"),
    "0709": ("Grouped AIC",),
    "0710": ("Grouped AIC",),
    "0711": ("Grouped AIC",),
    "0800": ("XY-Wing",),
    "0801": ("XYZ-Wing",),
    "0802": (),
    "0803": ("W-Wing",),
    "0901": ("ALS-XZ",),
    "0902": (),
    "0903": (),
    "0904": (),
    "1000": (),
    "1101": ("Sue de Coq",),
    "1201": (),
    "1202": (),
}

OUTCOMES = ("matched", "different", "not found", "missing", "error")


@dataclass(frozen=True)
class Case:
    """One line of the library."""

    line: int
    code: str
    fail_case: bool
    values: tuple[int, ...]
    deleted: tuple[tuple[int, int], ...]
    eliminations: frozenset[tuple[int, int]]
    placements: frozenset[tuple[int, int]]
    text: str


@dataclass
class Outcome:
    """What one case gave."""

    case: Case
    result: str
    unsound: list[str] = field(default_factory=list)
    detail: str = ""


def _candidates(text: str) -> tuple[tuple[int, int], ...]:
    """``<digit><row><col>`` words as (cell, digit)."""
    out = []
    for word in text.split():
        d, r, c = int(word[0]), int(word[1]), int(word[2])
        out.append(((r - 1) * 9 + c - 1, d))
    return tuple(out)


def read(path: str) -> tuple[list[Case], dict[str, str]]:
    """Every case of the library, and the name of each technique code (its headings)."""
    cases = []
    names: dict[str, str] = {}
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, raw in enumerate(handle, 1):
            text = raw.strip()
            heading = re.fullmatch(r"#(\d{4,5}): (.+)", text)
            if heading:
                names[heading.group(1)] = heading.group(2).strip()
            if not text.startswith(":"):
                continue
            parts = text.split(":")
            code, givens, deleted, elims, places = (parts[1], parts[3], parts[4], parts[5],
                                                     parts[6])
            base, _, variant = code.partition("-")
            values = tuple(int(ch) for ch in givens.replace("+", "").replace(".", "0"))
            cases.append(Case(number, base, variant == "x", values, _candidates(deleted),
                              frozenset(_candidates(elims)), frozenset(_candidates(places)),
                              text))
    return cases, names


def board_of(case: Case) -> Board:
    board = Board.from_puzzle(Puzzle(classic(9), case.values))
    for cell, digit in case.deleted:
        board.candidates[cell] &= ~(1 << (digit - 1))
    return board


def run(item: tuple[Case, int]) -> Outcome:
    """Set one case up and look for its step."""
    case, most = item
    ours = TECHNIQUES.get(case.code, ())
    if not ours:
        return Outcome(case, "missing", detail="numberplace has no such technique")
    try:
        board = board_of(case)
        position = Puzzle(classic(9), tuple(board.values), candidates=tuple(
            m if not v else 1 << (v - 1) for m, v in zip(board.candidates, board.values,
                                                          strict=True)))
        solved = engine.solve(position, node_limit=2_000_000)
        truth = solved.solution
        steps = []
        for technique in ours:
            finder = REGISTRY.get(technique).finder
            assert finder is not None
            steps += list(islice(finder(board.copy(), board.shape), most))
    except Exception as exc:  # a crash is an outcome to report, not the end of the run
        return Outcome(case, "error", detail=f"{type(exc).__name__}: {exc}")
    unsound = []
    if truth is not None:
        for step in steps:
            bad = [f"r{c // 9 + 1}c{c % 9 + 1}<>{v}" for c, v in step.eliminations
                   if truth[c] == v]
            bad += [f"r{c // 9 + 1}c{c % 9 + 1}={v}" for c, v in step.placements
                    if truth[c] != v]
            if bad:
                unsound.append(f"{step.technique}: {', '.join(bad)} ({step.text})")
    if case.fail_case:
        # nothing may be found; where the case names a step, that step in particular
        named = case.eliminations or case.placements
        result = "different" if any(
            not named or (frozenset(s.eliminations) == case.eliminations
                          and frozenset(s.placements) == case.placements)
            for s in steps) else "matched"
    elif not steps:
        result = "not found"
    elif any(frozenset(s.eliminations) == case.eliminations
             and frozenset(s.placements) == case.placements for s in steps):
        result = "matched"
    else:
        result = "different"
    detail = ""
    if result != "matched" and steps:
        detail = f"{len(steps)} steps, e.g. {steps[0].technique}: {steps[0].text}"
    return Outcome(case, result, unsound, detail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", nargs="?", default=os.environ.get("NUMBERPLACE_REGLIB"),
                        help="reglib-1.3.txt (default: $NUMBERPLACE_REGLIB)")
    parser.add_argument("--only", default="", help="technique codes to run, e.g. 0702,0901")
    parser.add_argument("--steps", type=int, default=5000,
                        help="most steps listed per technique and case (default 5000)")
    parser.add_argument("--mismatches", help="write every case not matched to this file")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if not args.path or not os.path.exists(args.path):
        print("reglib: give the path of HoDoKu's reglib-1.3.txt (it ships with HoDoKu's "
              "sources)", file=sys.stderr)
        sys.exit(2)
    cases, names = read(args.path)
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in cases if c.code in wanted]
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        outcomes = list(pool.map(run, [(c, args.steps) for c in cases], chunksize=4))
    seconds = time.perf_counter() - start
    by_code: dict[str, Counter[str]] = {}
    for o in outcomes:
        by_code.setdefault(o.case.code, Counter())[o.result] += 1
    table = Table(title=f"HoDoKu reglib-1.3: {len(cases):,} cases, {seconds:.0f} s")
    table.add_column("code")
    table.add_column("technique")
    for col in ("cases", *OUTCOMES, "unsound"):
        table.add_column(col, justify="right")
    unsound_by_code = Counter(o.case.code for o in outcomes for _ in o.unsound)
    total: Counter[str] = Counter()
    for code in sorted(by_code):
        counts = by_code[code]
        total.update(counts)
        table.add_row(code, names.get(code, "?"), str(sum(counts.values())),
                      *(str(counts[k]) for k in OUTCOMES), str(unsound_by_code[code]))
    table.add_row("all", "", f"{sum(total.values()):,}", *(f"{total[k]:,}" for k in OUTCOMES),
                  str(sum(unsound_by_code.values())))
    Console(width=140).print(table)
    unsound = [u for o in outcomes for u in o.unsound]
    for o in outcomes:
        for u in o.unsound[:1]:
            print(f"UNSOUND line {o.case.line} ({o.case.code}): {u}")
    if args.mismatches:
        with open(args.mismatches, "w", encoding="utf-8") as out:
            for o in outcomes:
                if o.result != "matched":
                    out.write(f"line {o.case.line} {o.case.code} "
                              f"{names.get(o.case.code, '?')}: {o.result}; {o.detail}\n")
    sys.exit(1 if unsound or total["error"] else 0)


if __name__ == "__main__":
    main()
