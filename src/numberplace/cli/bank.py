"""``bank add|query|export|stats``: a puzzle bank in one SQLite file."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, NamedTuple, TextIO, cast

from .. import formats
from ..arguments import MAX_NODES
from ..atomic import atomic_file
from ..errors import FormatError, NumberplaceError
from ..formats.table import ONE_LINE_FORMATS, REGION_FORMATS
from ..model.shape import by_name
from . import options
from .pipeline import UNREADABLE, Meter, Outcome, Settings, run
from .search import Chunk, line_chunks, plain_values, read_one

if TYPE_CHECKING:
    from ..store.bank import Bank, Entry, Stored

#: The statuses of bank add's summary.
_SHOWN = ("added", "duplicate", "rejected")


class _AddOptions(NamedTuple):
    rate: bool
    node_limit: int
    time_limit: float | None
    source: str
    skip: int  # lines already committed by an earlier run of this import


class Piece(NamedTuple):
    """What a worker made of a chunk: entries to add, each with its line; lines that are
    no puzzle for the bank, with why; and the last line of the chunk."""

    entries: list[tuple[int, Entry]]
    rejected: list[tuple[int, str]]
    last_line: int


def _add_chunk(chunk: Chunk, opts: _AddOptions) -> list[Piece]:
    """Bank entries of a chunk (runs in a worker): a block of one-line classic puzzles in
    one engine call and one canonical-form call; anything else, or with ``--rate``, one by
    one. Lines an earlier run committed are skipped."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..store.bank import entries_of_values, entry

    records: list[formats.Record] = []
    last = 0
    entries: list[tuple[int, Entry]] = []
    rejected: list[tuple[int, str]] = []
    if chunk.text is not None:
        shape = chunk.shape
        assert shape is not None
        count = chunk.text.count("\n") + (not chunk.text.endswith("\n"))
        last = chunk.first_line + count - 1
        numbered, blob = plain_values(chunk, after=opts.skip, take=not opts.rate)
        records = [read_one(n.line, n.text, opts.source, shape)
                   for n in numbered if not n.plain]
        made = entries_of_values(shape, blob, node_limit=opts.node_limit,
                                 time_limit=opts.time_limit) if blob else []
        for n, found in zip([n for n in numbered if n.plain], made, strict=True):
            if isinstance(found, str):
                rejected.append((n.line, found))
            else:
                entries.append((n.line, found))
    else:
        records = [rec for rec in chunk.records or [] if rec.line > opts.skip]
        last = max((rec.line for rec in chunk.records or []), default=0)
    for rec in records:
        if rec.puzzle is None:
            rejected.append((rec.line, f"{UNREADABLE}: {_not_added(rec.error)}"))
            continue
        found = entry(rec.puzzle, rate=opts.rate, node_limit=opts.node_limit,
                      time_limit=opts.time_limit)
        if isinstance(found, str):
            rejected.append((rec.line, found))
        else:
            entries.append((rec.line, found))
    entries.sort()
    rejected.sort()
    return [Piece(entries, rejected, last)]


def _not_added(error: object) -> str:
    """A reading error's place (file, line, column), said once, then why it was not added."""
    if not isinstance(error, FormatError):
        return f"not added: {error}"
    return f"{error.place}: not added: {error.reason}" if error.place else \
        f"not added: {error.reason}"


def bank_add(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Add a file's puzzles; exit status 1 if some were rejected, 2 if some could not be
    read."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..store.bank import fingerprint

    chosen, alphabet = options.reading(args)
    with _open_bank(args, create=True) as bank, options.open_puzzles(args) as source:
        name = args.source or source.name
        imp = bank.begin_import(name, None if args.file == "-" else fingerprint(args.file))
        if imp.resumed:
            print(f"numberplace: going on with the import of {source.name} after line "
                  f"{imp.lines:,} ({imp.added:,} added before)", file=sys.stderr)
        opts = _AddOptions(args.rate, args.node_limit, args.time_limit, source.name, imp.lines)
        pieces, settings = line_chunks(source, args, chosen, alphabet, settings)
        unreadable = 0

        def emit(piece: Piece) -> Outcome:
            nonlocal unreadable
            added, duplicates = bank.commit(imp, [e for _, e in piece.entries],
                                            lines=max(piece.last_line, imp.lines),
                                            rejected=len(piece.rejected), tags=args.tag)
            for line, why in piece.rejected:
                if why.startswith(UNREADABLE):  # the reading error says its own place
                    unreadable += 1
                    print(f"numberplace: {why.removeprefix(UNREADABLE + ': ')}",
                          file=sys.stderr)
                else:
                    print(f"numberplace: {source.name}, line {line}: not added: {why}",
                          file=sys.stderr)
            return Outcome(piece.last_line, "", "", counts={
                "added": added, "duplicate": duplicates, "rejected": len(piece.rejected)})

        statuses = run(out.write, settings.replace(command="bank add", shown=_SHOWN), pieces,
                       functools.partial(_add_chunk, opts=opts), emit,
                       Meter.of(source, after=imp.lines))
        bank.finish_import(imp)
        if not (imp.added + imp.duplicates + imp.rejected):
            options.require_some(0, source)
        if args.json:
            out.write(json.dumps({"source": name, "lines": imp.lines, "added": imp.added,
                                  "duplicates": imp.duplicates, "rejected": imp.rejected,
                                  "resumed": imp.resumed}) + "\n")
    if unreadable:
        return 2
    return 1 if statuses["rejected"] else 0


def _open_bank(args: argparse.Namespace, create: bool = False) -> Bank:
    """The bank of ``--db``: made when missing only to add to it (``create``); a command
    that reads a bank that is not there says so and makes nothing."""
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..store.bank import Bank

    return Bank(args.db, create=create)


def nothing_matches(bank: Bank) -> str:
    """Why a query found nothing: the shapes the bank holds, or that it is empty."""
    shapes = bank.stats()["shapes"]
    if not shapes:
        return f"the bank {bank.shown} is empty"
    held = ", ".join(f"{name} ({entry['puzzles']:,})" for name, entry in shapes.items())
    return f"no puzzle of the bank {bank.shown} matches; it holds {held}"


def _query(bank: Bank, args: argparse.Namespace, limit: int | None) -> Iterator[Stored]:

    shape = args.shape
    if shape is not None:
        with contextlib.suppress(NumberplaceError):  # jigsaw-9x9, killer-9x9: as written
            shape = by_name(shape).name
    level = None
    if args.level is not None:
        # imported here: --help loads every command's module; each loads its work when it runs
        from ..logic.rating import level_by

        level = level_by(args.level).number
    return bank.query(shape=shape, level=level,
                      difficulty=args.difficulty, technique=args.technique, clues=args.clues,
                      tag=args.tag, source=args.source, limit=limit, random=args.random)


def bank_query(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Print the matching puzzles (one line each, or JSON); exit status 1 if none."""
    found = 0
    with _open_bank(args) as bank:
        for stored in _query(bank, args, args.limit or None):
            found += 1
            if args.json:
                out.write(json.dumps(stored.as_dict()) + "\n")
            else:
                level = f"{stored.level} {stored.level_name}" if stored.level else "unrated"
                difficulty = "" if stored.difficulty is None else f" {stored.difficulty:.1f}"
                givens = stored.givens if "\n" not in stored.givens else \
                    stored.givens.replace("\n", " / ")
                out.write(f"{stored.id}\t{stored.shape}\t{stored.clues} clues\t{level}"
                          f"{difficulty}\t{givens}\n")
        if not found:
            print(f"numberplace: {nothing_matches(bank)}", file=sys.stderr)
    return 0 if found else 1


def bank_export(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Write the matching puzzles in a format, to standard output or atomically to a
    file; exit status 1 if none."""
    fmt = args.to_format
    blank_between = fmt not in ONE_LINE_FORMATS
    with _open_bank(args) as bank, _target(args.output, out) as target:
        found = 0
        for stored in _query(bank, args, args.limit or None):
            puzzle = stored.puzzle
            if fmt == "json":
                record = json.loads(formats.write(puzzle, "json"))
                record["solution"] = stored.solution
                record["key"] = stored.key
                for name in ("level", "level_name", "difficulty", "hardest"):
                    record[name] = getattr(stored, name)
                text = json.dumps(record)
            else:
                if puzzle.shape.regions and fmt not in REGION_FORMATS:
                    raise NumberplaceError(f"the {fmt} format cannot hold a jigsaw's regions "
                                           f"(puzzle {stored.id}); use --to jigsaw or json")
                text = formats.write(puzzle, fmt)
            target.write(("\n" if blank_between and found else "") + text + "\n")
            found += 1
        if not found:
            print(f"numberplace: {nothing_matches(bank)}", file=sys.stderr)
    return 0 if found else 1


@contextlib.contextmanager
def _target(path: str | None, out: TextIO) -> Iterator[IO[str]]:
    """Standard output, or a file written whole or not at all (an interrupted export
    leaves the old file as it was)."""
    if path is None:
        yield out
        return

    with atomic_file(path) as handle:
        yield handle


def bank_stats(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    """Totals by shape and level, the imports, and the size of the file."""
    with _open_bank(args) as bank:
        stats = bank.stats()
        shown = bank.shown
    if args.json:
        out.write(json.dumps(stats) + "\n")
        return 0
    size = stats["bytes"]
    out.write(f"{stats['puzzles']:,} puzzles in {shown}"
              + (f" ({_bytes(size)})" if size else "") + "\n")
    for name, shape in stats["shapes"].items():
        clues = shape["clues"]
        difficulty = shape["difficulty"]
        out.write(f"  {name}: {shape['puzzles']:,} puzzles, {shape['rated']:,} rated, "
                  f"{clues[0]}-{clues[1]} clues"
                  + (f", difficulty {difficulty[0]:.1f}-{difficulty[1]:.1f}" if difficulty
                     else "") + "\n")
    for level, count in stats["levels"].items():
        out.write(f"  level {level}: {count:,}\n")
    for imp in stats["imports"]:
        state = "" if imp["finished"] else ", unfinished"
        out.write(f"  import of {imp['source'] or 'generated puzzles'}: {imp['lines']:,} lines, "
                  f"{imp['added']:,} added, {imp['duplicates']:,} duplicates, "
                  f"{imp['rejected']:,} rejected{state}\n")
    return 0


def _bytes(size: int) -> str:
    if size < 1 << 20:
        return f"{size / 1024:,.0f} KiB"
    return f"{size / (1 << 20):,.1f} MiB"


def _add_db(p: argparse.ArgumentParser) -> None:
    # imported here: --help loads every command's module; each loads its work when it runs
    from ..store.bank import default_path

    p.add_argument("--db", metavar="FILE", default=str(default_path()),
                   help="the bank's SQLite file, or a postgresql:// URL for a shared bank "
                        "(default: numberplace/bank.sqlite in the user's data folder)")


def _add_filters(p: argparse.ArgumentParser, default_limit: int | None,
                 shape: bool = True) -> None:
    if shape:
        p.add_argument("--shape", metavar="NAME", help="only this shape (9x9, 16x16, samurai, "
                       "jigsaw-9x9, killer-9x9, ...)")
    p.add_argument("--level", metavar="L", help="only this level (name or number)")
    p.add_argument("--difficulty", type=options.value_range(float), metavar="LO-HI",
                   help="only difficulties in this range (Explainer scale)")
    p.add_argument("--technique", metavar="NAME",
                   help="only puzzles whose rated solve uses this technique")
    p.add_argument("--clues", type=options.value_range(int), metavar="LO-HI",
                   help="only clue counts in this range")
    p.add_argument("--tag", metavar="TAG", help="only puzzles with this tag")
    p.add_argument("--source", metavar="NAME", help="only puzzles from this source")
    p.add_argument("--random", action="store_true", help="in random order (default: as added)")
    p.add_argument("--limit", type=options.non_negative, default=default_limit, metavar="N",
                   help=f"at most N puzzles (default {default_limit or 'all'}; 0: all)")


def add_parsers(sub: options.Commands) -> None:
    """The ``bank`` command and its actions."""

    p = options.command(sub, "bank", _no_action, "keep puzzles in a bank (SQLite)",
                        "A puzzle bank in one SQLite file: puzzles with one solution each, "
                        "stored once however they are written (by canonical key).")
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=options.Parser)
    actions.required = True
    actions = cast("options.Commands", actions)

    a = options.command(actions, "add", bank_add, "add a file's puzzles",
                        "Add a file's puzzles with exactly one solution, each once (a puzzle "
                        "equivalent to one in the bank is a duplicate). Each piece is "
                        "committed with how far the file was read: an import that was "
                        "stopped goes on where it stopped when the file is added again.")
    options.add_input(a)
    _add_db(a)
    a.add_argument("--rate", action="store_true",
                   help="rate each puzzle (level, difficulty, techniques): slower")
    a.add_argument("--tag", action="append", default=[], metavar="TAG",
                   help="a tag for every puzzle added (again for more tags)")
    a.add_argument("--source", metavar="NAME", help="the source to record (default: the "
                                                    "file's name)")
    a.add_argument("--node-limit", type=options.whole_number(1, "must be at least 1",
                                                              MAX_NODES),
                   default=2_000_000, metavar="N",
                   help="reject a puzzle whose search takes more than N nodes (default "
                        "2,000,000)")
    options.add_time_limit(a, 60.0, "reject a puzzle whose search (and rating) takes more "
                                    "than S seconds (default 60, 0 for none)")
    options.add_json(a, "at the end, one JSON object: lines, added, duplicates, rejected")

    q = options.command(actions, "query", bank_query, "list the puzzles that match",
                        "List the puzzles that match every filter: id, shape, clues, level "
                        "and difficulty, givens; exit status 1 if none match.")
    _add_db(q)
    _add_filters(q, 20)
    options.add_json(q, "one JSON object per puzzle with every stored field")

    e = options.command(actions, "export", bank_export, "write the puzzles that match",
                        "Write the puzzles that match every filter in a format, to standard "
                        "output or to a file (written whole or not at all).")
    _add_db(e)
    _add_filters(e, None)
    e.add_argument("--to", "--format", dest="to_format", choices=formats.FORMAT_NAMES,
                   default="line", help="output format (default line; json adds the "
                                        "solution, key and rating)")
    e.add_argument("--output", metavar="FILE", help="write to FILE instead of standard output")

    s = options.command(actions, "stats", bank_stats, "count the puzzles by shape and level",
                        "Count the puzzles by shape and level, with the imports and the size "
                        "of the file.")
    _add_db(s)
    options.add_json(s, "one JSON object")


def _no_action(args: argparse.Namespace, out: TextIO, settings: Settings) -> int:
    raise NumberplaceError("bank needs an action: add, query, export or stats")
