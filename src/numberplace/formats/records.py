"""Cutting a stream of lines into records, lazily and in constant memory.

One-line formats make a record of every line that is not blank or a comment. The
``samurai`` format makes one of each run of as many lines as the shape has grids (a blank
line ends a short run). The other formats make one of each block of lines between blank
lines; a block of comments only is no record.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ._common import Numbered, is_blank, is_comment, is_content, split_lines
from .detection import HEAD_LIMIT
from .janko import header as janko_header
from .janko import records as janko_records
from .table import ONE_LINE_FORMATS

#: Most lines of a block record; a longer block is reported, not held in memory.
BLOCK_LIMIT = HEAD_LIMIT


@dataclass(frozen=True)
class Chunk:
    """The lines of one record, or why they are not one."""

    lines: list[Numbered]
    problem: str | None = None


def number_lines(lines: Iterable[str]) -> Iterator[Numbered]:
    """Number lines from 1, dropping their line ends.

    An item holding several lines (as a caller's own strings may) counts as several.
    """
    number = 0
    for item in lines:
        if item.endswith("\r\n"):
            item = item[:-2]
        elif item.endswith(("\n", "\r")):
            item = item[:-1]
        for text in split_lines(item) if _has_line_end(item) else (item,):
            number += 1
            yield number, text


def _has_line_end(text: str) -> bool:
    return "\n" in text or "\r" in text


def peek_head(numbered: Iterator[Numbered]) -> list[Numbered]:
    """Take from ``numbered`` the lines that detection needs: the first block with content
    (at most :data:`HEAD_LIMIT` lines) and the comments just before it.

    Blank lines and blocks of comments only before it make no record, so they are dropped.
    """
    before: deque[Numbered] = deque(maxlen=HEAD_LIMIT)
    for item in numbered:
        if is_blank(item[1]):
            before.clear()
        elif is_comment(item[1]):
            before.append(item)
        else:
            head = list(before) + [item]
            break
    else:
        return []
    # a janko record's header stands alone: detection needs the row below it too
    lone_header = janko_header(head[-1][1]) is not None
    for item in numbered:
        head.append(item)
        if len(head) >= HEAD_LIMIT or (is_blank(item[1]) and not lone_header):
            break
        lone_header = lone_header and is_blank(item[1])
    return head


def split(format_name: str, numbered: Iterable[Numbered], grids: int) -> Iterator[Chunk]:
    """The records of a stream in a format; ``grids`` lines make a ``samurai`` record."""
    if format_name in ONE_LINE_FORMATS:
        return (Chunk([item]) for item in numbered if is_content(item[1]))
    if format_name == "samurai":
        return runs(numbered, grids)
    if format_name == "janko":
        return (Chunk(lines, problem) for lines, problem in janko_records(numbered))
    return blocks(numbered)


def runs(numbered: Iterable[Numbered], count: int) -> Iterator[Chunk]:
    """Records of ``count`` content lines each; comments between them ride along."""
    run: list[Numbered] = []
    found = 0
    for item in numbered:
        if is_blank(item[1]):
            if found:
                yield Chunk(run, f"{found} lines before a blank line; a record needs {count}")
            run, found = [], 0
            continue
        if not found and is_comment(item[1]):
            continue
        run.append(item)
        found += not is_comment(item[1])
        if found == count:
            yield Chunk(run)
            run, found = [], 0
    if found:
        yield Chunk(run, f"{found} lines at the end; a record needs {count}")


def blocks(numbered: Iterable[Numbered]) -> Iterator[Chunk]:
    """Records made of the blocks between blank lines."""
    block: list[Numbered] = []
    overflow = False
    for item in numbered:
        if is_blank(item[1]):
            if block and not overflow and not all(is_comment(text) for _, text in block):
                yield Chunk(block)
            block, overflow = [], False
        elif not overflow:
            block.append(item)
            if len(block) > BLOCK_LIMIT:
                overflow = True
                yield Chunk(block[:1], f"more than {BLOCK_LIMIT} lines without a blank line; "
                                       f"records of this format are apart by blank lines")
    if block and not overflow and not all(is_comment(text) for _, text in block):
        yield Chunk(block)
