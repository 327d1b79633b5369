# The compiled core's interface (the module engine/_core.c, over one C file per
# accelerator), as numberplace.native and the modules it serves call it. Buffers are read
# as native 32-bit ints where a name says "int32s", and as one byte a cell for givens and
# values.
from collections.abc import Callable, Sequence
from typing import Literal

from typing_extensions import Buffer

REVISION: int
HAVE_FAST9: int
HAVE_FISH: int
HAVE_XCHAIN: int
# the chain search (logic/_xchain.c): the largest grid it takes, its kinds and its hints' names
XCHAIN_KINDS: int
XCHAIN_CELLS: int
XCHAIN_VALUES: int
XCHAIN_HOUSES: int
XCHAIN_NAMES: tuple[str, ...]
# what a round of chain_layers keeps (logic/_chains.c)
CHAIN_ALL: int
CHAIN_SAME_ENDS: int
CHAIN_MIXED_ENDS: int
CHAIN_LOOPS: int
# the fish search (logic/_fish.c): the largest grid and fish, house kind bits, categories
FISH_CELLS: int
FISH_HOUSES: int
FISH_SIZE: int
FISH_ROW: int
FISH_COLUMN: int
FISH_BOX: int
FISH_BASIC: int
FISH_FRANKEN: int
FISH_MUTANT: int

class Engine:
    """The search of one shape, from its flat arrays."""

    fast9: bool

    def __init__(self, ncells: int, nsym: int, houses: Buffer, peer_start: Buffer,
                 peers: Buffer, fast9: bool = ..., pairs: Buffer = ...,
                 sums: Buffer = ...) -> None: ...
    def solve(self, givens: Buffer, cands: Buffer | None, limit: int, keep: int,
              node_limit: int, time_limit: float,
              on_batch: Callable[[bytes], object] | None = ...
              ) -> tuple[int, bool, bytes, int, int]: ...
    def solve_batch(self, givens_blob: Buffer, limit: int, keep_first: int, node_limit: int,
                    time_limit: float) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes]: ...
    # each hole: offset, line number, its text, givens (None: unreadable), solutions found,
    # aborted, nodes, guesses, nanoseconds, first solution
    def lines(self, text: str | bytes, first_line: int, table: Buffer, symbols: Buffer,
              mode: int, limit: int, node_limit: int, time_limit: float
              ) -> tuple[str, int, int, int, list[tuple[int, int, str, bytes | None, int, int,
                                                        int, int, int, bytes | None]]]: ...
    def propagate(self, givens: Buffer, cands: Buffer | None,
                  locked: bool = ...) -> bytes | None: ...

def vector9(on: bool = ...) -> bool: ...
def canon_many(n: int, box_rows: int, box_cols: int, values: Buffer,
               limit: int) -> tuple[bytes, bytes]: ...
def canon(n: int, box_rows: int, box_cols: int, values: Buffer, limit: int
          ) -> tuple[bytes, bool, bytes, bytes, bytes] | None | Literal[2]: ...
def peer_arrays(ncells: int, groups: Sequence[Sequence[int]]) -> tuple[bytes, bytes]: ...
def seconds_text(ns: int) -> str: ...
def pack_int32(ints: Sequence[int]) -> bytes: ...
def pack_groups(groups: Sequence[Sequence[int]]) -> tuple[bytes, bytes]: ...
# a round of chain_layers: the (start, state) pairs it reached and those closing a loop
ChainRound = tuple[list[tuple[int, int]], list[tuple[int, int]]]
def chain_layers(strong_off: Buffer, strong: Buffer, live_off: Buffer, live: Buffer,
                 weak_off: Buffer, weak: Buffer, starts: Buffer, ends_off: Buffer,
                 ends: Buffer, max_links: int, mode: int, cells: Buffer, values: Buffer,
                 masks: Buffer, peers: Buffer, value_cells: Buffer, candidates: Buffer,
                 deadline: float) -> list[ChainRound] | Literal[False]: ...
def chain_depths(strong_off: Buffer, strong: Buffer, live_off: Buffer, live: Buffer,
                 weak_off: Buffer, weak: Buffer, start: int, ends: Buffer,
                 max_links: int) -> dict[int, int]: ...
# a chain of als_chain: its number of sets, the sets, its links' values, the values its ends
# may remove; they come in the order met, with the budget left
AlsChain = tuple[int, tuple[int, ...], tuple[int, ...], int]
def als_chain(cells: Buffer, masks: Buffer, removable: Buffer, link_off: Buffer, links: Buffer,
              most_sets: int, budget: int, deadline: float
              ) -> tuple[list[AlsChain], int] | Literal[False]: ...
# present where HAVE_FISH / HAVE_XCHAIN say so (compilers with 128-bit integers)
def fish_search(masks: Buffer, kinds: Buffer, cover_ok: Buffer, peers: Buffer, bases: Buffer,
                vcells: Buffer, size: int, budget: int, category: int, max_fins: int,
                max_endo: int) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...], bytes,
                                                   bytes]], int]: ...
def xchain(ncells: int, size: int, houses: Buffer, kinds: Buffer, candidates: Buffer, kind: int,
           deadline: float) -> tuple[int, int, int, int, list[int]] | None | Literal[False]: ...
def aligned(peers: Buffer, candidates: Buffer, degree: int
            ) -> tuple[tuple[int, int], ...] | None: ...
