/*
 * _sums.c: cage sums in the compiled search, the rule that Killer cages and Kakuro runs
 * add to singles. The engine (_engine.c) runs np_sums_pass whenever singles run out.
 *
 * The Python reference is engine/_pure.py (_sums, _coarse_cage, _exact_cage,
 * _repeats_cage) over sums.py (combination_masks gives a cage's digit sets; support and
 * repeat_support are the exact rules, done here the same way); a test compares the two.
 *
 * A cage record, as Engine() checked it: its number of cells and of digit sets, its
 * cells, then its digit sets as masks (one "set", minus its sum, for a cage whose digits
 * may repeat).
 */
#include "_core.h"

#include <stdint.h>
#include <string.h>

/* Every value possible in a cage's cells; *placed gets those placed in one of them. */
static uint32_t cage_values(const uint32_t *board, const int32_t *cells, int n,
                            uint32_t *placed)
{
    uint32_t uni = 0;
    *placed = 0;
    for (int i = 0; i < n; i++) {
        uint32_t m = board[cells[i]];
        uni |= m;
        if (!(m & (m - 1)))
            *placed |= m;
    }
    return uni;
}

/* The coarse cage pass (as _coarse_cage in _pure.py), for shapes of more than
   EXACT_SUMS_MAX symbols: a digit set that makes a
   cage's sum still fits when it holds every value placed in the cage, each of its digits
   is possible in some cell, and every cell can take one of its digits. Cells keep only
   digits of the sets that fit; a digit every fitting set holds, possible in one cell
   only, goes there. Returns 1 if anything changed, 0 if not, -1 on a contradiction. */
static int coarse_cage(uint32_t *board, const int32_t *cells, int n, const int32_t *sets,
                       int nsets, int32_t *queue, int *qn)
{
    int changed = 0;
    uint32_t placed, uni = cage_values(board, cells, n, &placed);
    uint32_t allowed = 0, required = 0xffffffffu;
    for (int k = 0; k < nsets; k++) {
        uint32_t set = (uint32_t)sets[k];
        if ((placed & ~set) || (uni & set) != set)
            continue;
        int fits = 1;
        for (int i = 0; i < n && fits; i++)
            fits = (board[cells[i]] & set) != 0;
        if (fits) {
            allowed |= set;
            required &= set;
        }
    }
    if (!allowed)
        return -1;
    uint32_t once = 0, twice = 0;
    for (int i = 0; i < n; i++) {
        int c = cells[i];
        uint32_t m = board[c];
        if (m & ~allowed) {
            m &= allowed;
            board[c] = m;
            changed = 1;
            if (!(m & (m - 1)))
                queue[(*qn)++] = c;
        }
        twice |= once & m;
        once |= m;
    }
    uint32_t hidden = required & once & ~twice & ~placed;
    while (hidden) {
        uint32_t bit = hidden & (~hidden + 1);
        hidden ^= bit;
        for (int i = 0; i < n; i++) {
            int c = cells[i];
            if (board[c] & bit) {
                if (board[c] != bit) {
                    board[c] = bit;
                    queue[(*qn)++] = c;
                    changed = 1;
                }
                break;
            }
        }
    }
    return changed;
}

/* Keep in each cell of a cage only the digits keep[i] allows, queueing cells left with
   one; fixed (if given) gets the cells' masks after. Returns 1 if anything changed, 0 if
   not, -1 when a cell has no digit left. */
static int keep_only(uint32_t *board, const int32_t *cells, int n, const uint32_t *keep,
                     int32_t *queue, int *qn, uint32_t *fixed)
{
    int changed = 0;
    for (int i = 0; i < n; i++) {
        int c = cells[i];
        uint32_t m = board[c];
        if (m & ~keep[i]) {
            m &= keep[i];
            if (!m)
                return -1;
            board[c] = m;
            changed = 1;
            if (!(m & (m - 1)))
                queue[(*qn)++] = c;
        }
        if (fixed)
            fixed[i] = m;
    }
    return changed;
}

/* The exact cage pass (as _exact_cage in _pure.py): a cell keeps a digit only if the
   other cells of the cage can take different digits that complete one of its digit sets.
   Cells are taken in order; the sets of digits the first i cells can take (all different)
   are reached forwards from the empty set, then walked backwards from the complete digit
   sets, and a digit stays in cell i if it leads from a set reached forwards to one that
   completes. Returns 1 if anything changed, 0 if not, -1 on a contradiction. */
static int exact_cage(Scratch *w, uint32_t *board, const int32_t *cells, int n,
                      const int32_t *sets, int nsets, int32_t *queue, int *qn,
                      uint32_t *fixed)
{
    int same = 1;
    for (int i = 0; i < n && same; i++)
        same = board[cells[i]] == fixed[i];
    if (same)
        return 0;
    enum { FORWARD = 1, COMPLETES = 2, TARGET = 4 };
    uint8_t *mark = w->mark;
    uint32_t *reached = w->reached;
    uint32_t placed, digits = 0, uni = cage_values(board, cells, n, &placed);
    for (int k = 0; k < nsets; k++) {
        uint32_t set = (uint32_t)sets[k];
        if (!(placed & ~set) && (uni & set) == set) {
            mark[set] = TARGET;
            digits |= set;
        }
    }
    int start[EXACT_SUMS_MAX + 2];
    int count = 1;
    reached[0] = 0;
    mark[0] |= FORWARD;
    start[0] = 0;
    for (int i = 0; i < n; i++) {
        start[i + 1] = count;
        uint32_t avail = board[cells[i]] & digits;
        for (int j = start[i]; j < start[i + 1]; j++) {
            uint32_t free = avail & ~reached[j];
            while (free) {
                uint32_t bit = free & (~free + 1), next = reached[j] | bit;
                free ^= bit;
                if (!(mark[next] & FORWARD)) {
                    mark[next] |= FORWARD;
                    reached[count++] = next;
                }
            }
        }
    }
    start[n + 1] = count;
    for (int j = start[n]; j < count; j++)
        if (mark[reached[j]] & TARGET)
            mark[reached[j]] |= COMPLETES;
    uint32_t keep[EXACT_SUMS_MAX];
    for (int i = n - 1; i >= 0; i--) {
        uint32_t avail = board[cells[i]] & digits, support = 0;
        for (int j = start[i]; j < start[i + 1]; j++) {
            uint32_t free = avail & ~reached[j];
            while (free) {
                uint32_t bit = free & (~free + 1);
                free ^= bit;
                if (mark[reached[j] | bit] & COMPLETES) {
                    support |= bit;
                    mark[reached[j]] |= COMPLETES;
                }
            }
        }
        keep[i] = support;
    }
    for (int j = 0; j < count; j++)
        mark[reached[j]] = 0;
    for (int k = 0; k < nsets; k++)
        mark[(uint32_t)sets[k]] = 0;
    return keep_only(board, cells, n, keep, queue, qn, fixed);
}

static void bits_or_left(uint64_t *dst, const uint64_t *src, int shift, int words)
{
    int ws = shift >> 6, bs = shift & 63;
    for (int k = words - 1; k >= ws; k--) {
        uint64_t v = src[k - ws] << bs;
        if (bs && k - ws > 0)
            v |= src[k - ws - 1] >> (64 - bs);
        dst[k] |= v;
    }
}

static void bits_right(uint64_t *dst, const uint64_t *src, int shift, int words)
{
    int ws = shift >> 6, bs = shift & 63;
    for (int k = 0; k < words; k++) {
        uint64_t v = 0;
        if (k + ws < words) {
            v = src[k + ws] >> bs;
            if (bs && k + ws + 1 < words)
                v |= src[k + ws + 1] << (64 - bs);
        }
        dst[k] = v;
    }
}

/* A cage whose digits may repeat (as _repeats_cage in _pure.py): a cell keeps a digit
   only if the other cells can take digits, repeats allowed, that make up the rest of the
   sum. The sums the first i cells can make are bit sets reached forwards from 0; walking
   back from the total, a digit stays in cell i if it joins a sum reached forwards to one
   from which the last cells complete the total. Returns 1 if anything changed, 0 if not,
   -1 on a contradiction. */
static int repeats_cage(uint32_t *board, const int32_t *cells, int n, int total,
                        int32_t *queue, int *qn)
{
    uint64_t fwd[(REPEATS_MAX_CELLS + 1) * REPEATS_MAX_WORDS];
    uint64_t completes[REPEATS_MAX_WORDS], back[REPEATS_MAX_WORDS], before[REPEATS_MAX_WORDS];
    uint32_t keep[REPEATS_MAX_CELLS];
    const int words = total / 64 + 1;
    const uint64_t top = (total % 64 == 63) ? ~(uint64_t)0
                                            : (((uint64_t)1 << (total % 64 + 1)) - 1);
    memset(fwd, 0, sizeof(uint64_t) * (size_t)words);
    fwd[0] = 1;
    for (int i = 0; i < n; i++) {
        const uint64_t *cur = fwd + (size_t)i * words;
        uint64_t *next = fwd + (size_t)(i + 1) * words;
        memset(next, 0, sizeof(uint64_t) * (size_t)words);
        for (uint32_t m = board[cells[i]]; m; m &= m - 1)
            bits_or_left(next, cur, __builtin_ctz(m) + 1, words);
        next[words - 1] &= top;
    }
    if (!((fwd[(size_t)n * words + total / 64] >> (total % 64)) & 1))
        return -1;
    memset(completes, 0, sizeof(uint64_t) * (size_t)words);
    completes[total / 64] = (uint64_t)1 << (total % 64);
    for (int i = n - 1; i >= 0; i--) {
        const uint64_t *reached = fwd + (size_t)i * words;
        uint32_t found = 0;
        memset(before, 0, sizeof(uint64_t) * (size_t)words);
        for (uint32_t m = board[cells[i]]; m; m &= m - 1) {
            bits_right(back, completes, __builtin_ctz(m) + 1, words);
            uint64_t meet = 0;
            for (int k = 0; k < words; k++)
                meet |= reached[k] & back[k];
            if (meet) {
                found |= m & (~m + 1);
                for (int k = 0; k < words; k++)
                    before[k] |= back[k];
            }
        }
        keep[i] = found;
        for (int k = 0; k < words; k++)
            completes[k] = before[k] & reached[k];
    }
    return keep_only(board, cells, n, keep, queue, qn, NULL);
}

/* One pass over the cages with a sum. Returns 1 if anything changed, 0 if not, -1 on a
   contradiction. */
int np_sums_pass(const Engine *e, Scratch *w, uint32_t *board, int32_t *queue, int *qn)
{
    int changed = 0;
    const int32_t *p = e->sums, *end = e->sums + e->sums_len;
    while (p < end) {
        int n = p[0], nsets = p[1];
        const int32_t *cells = p + 2, *sets = cells + n;
        p = sets + nsets;
        /* a cage whose digits may repeat has one "set": minus its sum */
        int r = nsets == 1 && sets[0] < 0
                    ? repeats_cage(board, cells, n, -sets[0], queue, qn)
                : w->mark ? exact_cage(w, board, cells, n, sets, nsets, queue, qn,
                                       w->fixed + (cells - e->sums))
                          : coarse_cage(board, cells, n, sets, nsets, queue, qn);
        if (r < 0) {
            np_blame(w, cells, n);
            return -1;
        }
        changed |= r;
    }
    return changed;
}

