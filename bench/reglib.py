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

A placement counts as the removal of every other candidate of its cell (HoDoKu writes
BUG+1 and a loop proving its start true that way). Cells placed while solving (a ``+`` in
the library) are placed on the board, not given, as Avoidable Rectangles need. The
searches get the budgets HoDoKu's own run has: almost locked sets of up to
``--als-cells`` cells (8), ALS-XY-Chains of up to 51 sets (``ALS_CHAIN_SETS``) in
searches of ``ALS_CHAIN_STEPS`` steps, and Franken and Mutant fish up to size 7 (``FISH_SIZE``) in
searches of ``FISH_STEPS`` steps (100,000,000: one case needs more than 30 million).
HoDoKu itself fails 6 of the 1,112 cases: 5 ALS-XY-Chains and one grouped AIC.

    python bench/reglib.py PATH/reglib-1.3.txt [--only 0702,0901] [--mismatches FILE]
                           [--steps N] [--als-cells N] [--jobs J]

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
from numberplace.logic.board import Board, values_of
from numberplace.logic.step import Step
from numberplace.model.puzzle import Puzzle
from numberplace.model.shape import classic

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
    "03111": ("Siamese Fish",),
    "03121": ("Siamese Fish",),
    "03211": ("Siamese Fish",),
    "03221": ("Siamese Fish",),
    "03411": ("Franken Fish",),
    "03421": ("Franken Fish",),
    "03621": ("Mutant Fish",),
    "0330": ("Franken Fish",),
    "0331": ("Franken Fish",),
    "0332": ("Franken Fish",),
    "0340": ("Franken Fish",),
    "0341": ("Franken Fish",),
    "0342": ("Franken Fish",),
    "0350": ("Mutant Fish",),
    "0351": ("Mutant Fish",),
    "0352": ("Mutant Fish",),
    "0360": ("Mutant Fish",),
    "0361": ("Mutant Fish",),
    "0362": ("Mutant Fish",),
    "0363": ("Mutant Fish",),
    "0364": ("Mutant Fish",),
    "0371": ("Mutant Fish",),
    "0372": ("Mutant Fish",),
    "0400": ("Skyscraper",),
    "0401": ("2-String Kite",),
    "0402": ("Empty Rectangle",),
    "0403": ("Skyscraper", "2-String Kite", "Empty Rectangle", "X-Chain"),
    "0404": ("Dual 2-String Kite", "2-String Kite"),
    "0405": ("Dual Empty Rectangle", "Empty Rectangle"),
    "0500": ("Simple Colors Trap",),
    "0501": ("Simple Colors Wrap",),
    "0502": ("Multi-Colors 1",),
    "0503": ("Multi-Colors 2",),
    "0600": ("Unique Rectangle Type 1",),
    "0601": ("Unique Rectangle Type 2", "Unique Rectangle Type 5"),
    "0602": ("Unique Rectangle Type 3",),
    "0603": ("Unique Rectangle Type 4",),
    "0604": ("Unique Rectangle Type 5",),
    "0605": ("Unique Rectangle Type 6",),
    "0606": ("Hidden Rectangle",),
    "0607": ("Avoidable Rectangle Type 1",),
    "0608": ("Avoidable Rectangle Type 2",),
    "0610": ("BUG+1",),
    "0701": ("X-Chain",),
    "0702": ("XY-Chain",),
    "0703": ("Remote Pair",),
    "0706": ("Nice Loop",),
    "0707": ("Nice Loop",),
    "0708": ("AIC", "X-Chain", "XY-Chain"),
    "0709": ("Grouped Nice Loop", "Nice Loop", "Nice Loop with ALS"),
    "0710": ("Grouped Nice Loop", "Nice Loop", "Nice Loop with ALS"),
    "0711": ("Grouped AIC", "AIC", "AIC with ALS"),
    "0800": ("XY-Wing",),
    "0801": ("XYZ-Wing",),
    "0802": (),
    "0803": ("W-Wing",),
    "0901": ("ALS-XZ",),
    "0902": ("ALS-XY-Wing",),
    "0903": ("ALS-XY-Chain", "ALS-XY-Wing"),
    "0904": ("Death Blossom",),
    "1000": (),
    "1101": ("Sue de Coq",),
    "1201": ("Template Set",),
    "1202": ("Template Delete",),
}

#: Search steps a Franken or Mutant fish search may take here (the solver's own default
#: is smaller: a step-by-step solve tries them often)
FISH_STEPS = 100_000_000  # case 0364 needs more than 30 million
#: The largest Franken or Mutant fish searched here: the library has them up to a
#: Leviathan (7), where the solver's own default stops at 4
FISH_SIZE = 7
#: Most sets of an ALS-XY-Chain here, as HoDoKu's own search (50 restricted commons), and
#: the steps its search may take on one position (the solver's own defaults: 6 and 50,000)
ALS_CHAIN_SETS = 51
ALS_CHAIN_STEPS = 5_000_000

OUTCOMES = ("matched", "different", "not found", "missing", "error")


@dataclass(frozen=True)
class Case:
    """One line of the library."""

    line: int
    code: str
    fail_case: bool
    values: tuple[int, ...]
    #: cells whose value was placed while solving, not given (a ``+`` in the library)
    placed: frozenset[int]
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
            placed = frozenset(i for i, m in enumerate(re.finditer(r"\+?[0-9.]", givens))
                               if m.group().startswith("+"))
            cases.append(Case(number, base, variant == "x", values, placed, _candidates(deleted),
                              frozenset(_candidates(elims)), frozenset(_candidates(places)),
                              text))
    return cases, names


def board_of(case: Case) -> Board:
    givens = tuple(0 if i in case.placed else v for i, v in enumerate(case.values))
    board = Board.from_puzzle(Puzzle(classic(9), givens))
    for cell in sorted(case.placed):
        board.place(cell, case.values[cell])
    for cell, digit in case.deleted:
        board.candidates[cell] &= ~(1 << (digit - 1))
    return board


def run(item: tuple[Case, int, int | None]) -> Outcome:
    """Set one case up and look for its step."""
    case, most, als_cells = item
    ours = TECHNIQUES.get(case.code, ())
    if not ours:
        return Outcome(case, "missing", detail="numberplace has no such technique")
    try:
        board = board_of(case)
        board.memo.als_cells = als_cells
        board.memo.fish_steps = FISH_STEPS
        board.memo.fish_size = FISH_SIZE
        board.memo.als_chain_sets = ALS_CHAIN_SETS
        board.memo.als_chain_steps = ALS_CHAIN_STEPS
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
    def same(step: Step) -> bool:
        if (frozenset(step.eliminations) == case.eliminations
                and frozenset(step.placements) == case.placements):
            return True
        # HoDoKu writes some placements (BUG+1, a loop proving its start) as the removal
        # of every other candidate of the cell: the same result
        if case.placements or not step.placements:
            return False
        cleared = {(c, v) for c, value in step.placements for v in values_of(
            board.candidates[c]) if v != value}
        return frozenset(step.eliminations) | cleared == case.eliminations

    if case.fail_case:
        # nothing may be found; where the case names a step, that step in particular
        named = case.eliminations or case.placements
        result = "different" if any(not named or same(s) for s in steps) else "matched"
    elif not steps:
        result = "not found"
    elif any(same(s) for s in steps):
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
    parser.add_argument("--als-cells", type=int, default=8,
                        help="most cells of an almost locked set (default 8, as HoDoKu)")
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
        outcomes = list(pool.map(run, [(c, args.steps, args.als_cells) for c in cases],
                                 chunksize=4))
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
