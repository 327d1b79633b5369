/*
 * _fast9.h: a fast exact solver for classic 9x9 Sudoku (bit-board search).
 *
 * Representation. Each digit's candidates are three 27-bit words, one per band (three
 * rows of nine cells): bit 9*r + c of F[9*b + d] is set while digit d+1 may still go in
 * row 3*b + r, column c. That bit is cell 27*b + 9*r + c in reading order. A state is
 * these 27 words plus one word per band of cells not yet placed: 120 bytes.
 *
 * Propagation. Inside a band a digit takes one cell in each of the three rows and in each
 * of the three boxes, so the "triads" (three cells of a row inside a box) that hold it
 * form a 3x3 permutation pattern. When a word changes, a table over its nine triad bits
 * keeps only triads lying on some permutation: box/line eliminations (pointing,
 * claiming) and hidden singles in boxes fall out of this. A row left with one cell is a
 * placement: the cell leaves the other eight digits and its column leaves the digit's
 * other two bands, which marks those words changed in turn. When no word changes, a
 * bit-sliced count over the nine digits finds empty cells (contradiction) and naked
 * singles; then, for each digit that changed, the same permutation rule is applied to
 * the columns of each stack (box/column eliminations across bands) and column counts
 * give hidden singles in columns and columns with no place left (contradiction).
 *
 * Search. When propagation is stuck we branch on a cell with two candidates (else, which
 * is rare, one with fewest), choosing among them the cell with the most unsolved peers.
 * A branch copies the state: the copy places the first digit, the saved state later gets
 * the other digit (or, for a cell with more candidates, loses the first one). The search
 * is depth-first with an explicit stack of at most 81 states and stops after `limit`
 * solutions, so with limit 2 it proves uniqueness. On the hardest known puzzles this
 * takes about 80 branch points per puzzle.
 */
#ifndef NUMBERPLACE_FAST9_H
#define NUMBERPLACE_FAST9_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define F9_UNUSED __attribute__((unused))
#else
#define F9_UNUSED
#endif

typedef struct {
    uint64_t nodes;   /* search-tree states propagated (root counts as 1) */
    uint64_t guesses; /* decision points: times the search branched on a cell or digit */
} f9_stats;

/* ------------------------------------------------------------------ tables */

#define F9_BAND 0x7ffffffu /* all 27 cells of a band */
#define F9_COLS 0x40201u   /* times a 9-bit column set: the same columns in all 3 rows */

/* Triad occupancy of a band word: 9 bits, bit 3*r + k for row r and box k of the band.
   f9_tri[r][x] for the 9 bits x of row r gives that row's occupied triads (at bits 3*r..)
   and, in its high word, the row's cell (at its place in the band) when the row has
   exactly one: the placements then come out of the same look-ups, where a further table
   indexed by the single rows made a chain of dependent loads one longer (3-5% slower). */
static uint64_t f9_tri[3][512];
static uint32_t f9_keep[512]; /* occupancy -> cells of triads that lie on a permutation */
/* The same on the 9 bits of a stack's column pattern (bit 3*b + c: band b, column c of
   the stack), its result laid out as in G below (three 3-bit groups 9 bits apart). */
static uint32_t f9_keep9[512];
static uint8_t f9_pc9[512];   /* number of bits */
static uint32_t f9_peers[27]; /* band cell -> cells of its row, box and column in the band */
static uint8_t f9_colof[27];  /* band cell -> column */
static int f9_ready;

static void f9_init(void)
{
    static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    if (__atomic_load_n(&f9_ready, __ATOMIC_ACQUIRE))
        return;
    for (int x = 0; x < 512; x++) {
        int t = ((x & 7) ? 1 : 0) | ((x & 070) ? 2 : 0) | ((x & 0700) ? 4 : 0);
        int one = x && !(x & (x - 1));
        f9_pc9[x] = (uint8_t)(x ? f9_pc9[x & (x - 1)] + 1 : 0);
        for (int r = 0; r < 3; r++)
            f9_tri[r][x] = (uint64_t)(t << (3 * r)) | (one ? (uint64_t)x << (9 * r + 32) : 0);
    }
    for (int pos = 0; pos < 27; pos++) {
        int r = pos / 9, c = pos % 9;
        f9_colof[pos] = (uint8_t)c;
        f9_peers[pos] = (0x1ffu << (9 * r)) | (0x1c0e07u << (c / 3 * 3)) | (F9_COLS << c);
    }
    for (int o = 0; o < 512; o++) {
        uint32_t m = 0, m9 = 0;
        for (int p = 0; p < 6; p++) {
            uint32_t tri = 0;
            for (int r = 0; r < 3; r++)
                tri |= 1u << (3 * r + perm[p][r]);
            if ((tri & (uint32_t)o) != tri)
                continue;
            for (int r = 0; r < 3; r++)
                m |= 7u << (9 * r + 3 * perm[p][r]);
            m9 |= tri;
        }
        f9_keep[o] = m;
        f9_keep9[o] = (m9 & 7) | (m9 & 070) << 6 | (m9 & 0700) << 12;
    }
    __atomic_store_n(&f9_ready, 1, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------ state */

#if defined(__GNUC__)
typedef uint32_t f9_v4 __attribute__((vector_size(16))); /* four words of a band */
#endif

typedef struct {
    uint32_t F[27];       /* F[9*b + d]: candidates of digit d+1 in band b */
    uint32_t unsolved[3]; /* cells of each band not yet placed */
} f9_state;

/* The other cells of the row of band cell `bit`. Clearing them from a digit's word places
   the digit at `bit`: the next update of that word sees a row with one cell and does the
   rest (box, column, other digits). */
static inline uint32_t f9_rowpeers(uint32_t bit)
{
    uint32_t row = bit < 0x200u ? 0x1ffu : bit < 0x40000u ? 0x3fe00u : 0x7fc0000u;
    return row ^ bit;
}

/* The band of word i (i / 9 for i < 27, without a division or a branch). */
static inline int f9_band(int i)
{
    return (i * 57) >> 9;
}

/* Re-examine board i (digit d in band b) after it changed. Returns 0 on contradiction. */
static inline int f9_update(f9_state *s, int i, uint32_t *dirty)
{
    uint32_t S = s->F[i];
    uint64_t v = f9_tri[0][S & 511] | f9_tri[1][(S >> 9) & 511] | f9_tri[2][S >> 18];
    uint32_t S2 = S & f9_keep[v & 511];
    if (!S2)
        return 0; /* a row or box of the band without the digit */
    if (S2 != S) {
        S = S2;
        v = f9_tri[0][S & 511] | f9_tri[1][(S >> 9) & 511] | f9_tri[2][S >> 18];
    }
    int b = f9_band(i);
    /* rows with one cell that is not yet placed: new placements */
    uint32_t placed = (uint32_t)(v >> 32) & s->unsolved[b];
    if (!placed) {
        s->F[i] = S;
        return 1;
    }
    s->unsolved[b] &= ~placed;
    uint32_t *Fb = s->F + 9 * b;
    uint32_t dm = 0;
#if defined(__GNUC__)
    {
        /* Four words at a time: written as a plain loop, gcc builds the mask of changed
           words one word at a time and the whole search ran about 5% slower. */
        f9_v4 lo, hi;
        memcpy(&lo, Fb, sizeof lo);
        memcpy(&hi, Fb + 4, sizeof hi);
        f9_v4 p = (f9_v4){0, 0, 0, 0} + placed;
        f9_v4 hit = (((lo & p) != 0) & (f9_v4){1, 2, 4, 8}) |
                    (((hi & p) != 0) & (f9_v4){16, 32, 64, 128});
        lo &= ~p;
        hi &= ~p;
        memcpy(Fb, &lo, sizeof lo);
        memcpy(Fb + 4, &hi, sizeof hi);
        dm = hit[0] | hit[1] | hit[2] | hit[3] | (uint32_t)((Fb[8] & placed) != 0) << 8;
        Fb[8] &= ~placed;
    }
#else
    for (int k = 0; k < 9; k++) {
        uint32_t old = Fb[k], nw = old & ~placed;
        Fb[k] = nw;
        dm |= (uint32_t)(old != nw) << k;
    }
#endif
    int d = i - 9 * b;
    Fb[d] = S;
    *dirty |= (dm & ~(1u << d)) << (9 * b);
    uint32_t cols = ((placed | placed >> 9 | placed >> 18) & 511) * F9_COLS;
    int i1 = d + 9 * (b == 0), i2 = d + 9 * (2 - (b == 2)); /* the other two bands */
    uint32_t o1 = s->F[i1], o2 = s->F[i2];
    s->F[i1] = o1 & ~cols;
    s->F[i2] = o2 & ~cols;
    *dirty |= (uint32_t)((o1 & cols) != 0) << i1 | (uint32_t)((o2 & cols) != 0) << i2;
    return 1;
}

/* Propagate to a fixpoint. Returns 0 on contradiction, 2 if solved, 1 if stuck; then
   two[b] holds the unsolved cells of band b with exactly two candidates. */
static inline int f9_propagate(f9_state *s, uint32_t dirty, uint32_t digits, uint32_t *two)
{
    for (;;) {
        /* 1. boards that changed: box/line eliminations, hidden singles in rows/boxes */
        while (dirty) {
            int i = __builtin_ctz(dirty);
            dirty &= dirty - 1;
            if (!f9_update(s, i, &dirty))
                return 0;
            digits |= 1u << (i - 9 * f9_band(i));
        }
        if (!(s->unsolved[0] | s->unsolved[1] | s->unsolved[2]))
            return 2;
        /* 2. empty cells and naked singles, by bit-sliced counting over the digits */
        for (int b = 0; b < 3; b++) {
            uint32_t u = s->unsolved[b];
            two[b] = 0;
            if (!u)
                continue;
            uint32_t *Fb = s->F + 9 * b;
            uint32_t r1 = 0, r2 = 0, r3 = 0;
            for (int d = 0; d < 9; d++) {
                r3 |= r2 & Fb[d];
                r2 |= r1 & Fb[d];
                r1 |= Fb[d];
            }
            if (u & ~r1)
                return 0;
            two[b] = u & r2 & ~r3;
            uint32_t one = u & ~r2;
            if (!one)
                continue;
            for (int d = 0; d < 9; d++) {
                uint32_t m = one & Fb[d];
                if (!m)
                    continue;
                dirty |= 1u << (9 * b + d);
                do {
                    Fb[d] &= ~f9_rowpeers(m & -m);
                    m &= m - 1;
                } while (m);
            }
        }
        if (dirty)
            continue;
        /* 3. for each digit whose boards changed, look down the columns */
        while (digits) {
            int d = __builtin_ctz(digits);
            digits &= digits - 1;
            uint32_t x = s->F[d], y = s->F[9 + d], z = s->F[18 + d];
            /* (a) box/column interaction. G: which columns of each band hold the digit,
               laid out like a band word (row = band). In each stack the digit takes one
               column per band and one band per column, so each 3x3 "box" of G must again
               contain a permutation; keep only columns on one. */
            uint32_t G = ((x | x >> 9 | x >> 18) & 511) | ((y | y >> 9 | y >> 18) & 511) << 9 |
                         ((z | z >> 9 | z >> 18) & 511) << 18;
            uint32_t A = 0;
            for (int k = 0; k < 3; k++) {
                uint32_t t = (G >> (3 * k)) & 0x1c0e07u;
                A |= f9_keep9[(t & 7) | (t >> 6 & 070) | (t >> 12 & 0700)] << (3 * k);
            }
            if (A != G) {
                uint32_t nx = x & (A & 511) * F9_COLS, ny = y & ((A >> 9) & 511) * F9_COLS,
                         nz = z & (A >> 18) * F9_COLS;
                if (!nx || !ny || !nz)
                    return 0;
                dirty |= ((uint32_t)(nx != x) | (uint32_t)(ny != y) << 9 |
                          (uint32_t)(nz != z) << 18) << d;
                s->F[d] = x = nx;
                s->F[9 + d] = y = ny;
                s->F[18 + d] = z = nz;
            }
            /* (b) hidden singles in columns: count each column's cells (>= 1, >= 2) */
            uint32_t a1 = x | y | z, a2 = (x & y) | (z & (x | y)); /* per row-of-band slot */
            uint32_t p = a1 & 511, q = (a1 >> 9) & 511, r = a1 >> 18;
            uint32_t one = p | q | r;
            uint32_t mul = a2 | a2 >> 9 | a2 >> 18 | (p & q) | (r & (p | q));
            if (one != 511)
                return 0; /* a column without the digit */
            uint32_t h = (one & ~mul & 511) * F9_COLS;
            uint32_t c0 = x & h & s->unsolved[0], c1 = y & h & s->unsolved[1],
                     c2 = z & h & s->unsolved[2];
            if (c0 | c1 | c2) {
                for (; c0; c0 &= c0 - 1)
                    s->F[d] &= ~f9_rowpeers(c0 & -c0);
                for (; c1; c1 &= c1 - 1)
                    s->F[9 + d] &= ~f9_rowpeers(c1 & -c1);
                for (; c2; c2 &= c2 - 1)
                    s->F[18 + d] &= ~f9_rowpeers(c2 & -c2);
                dirty |= 0x40201u << d; /* all three bands of digit d */
            }
        }
        if (!dirty)
            return 1;
    }
}

/* ------------------------------------------------------------------ search */

/* The search's own pieces, shared with the vector form (_vec9.h): there the word of digit
   d in band b is F[stride*b + d] with stride 16, here stride 9. */

/* Fill the root from the givens: a given is a placed cell, the only cell of its row, box
   and column for its digit and absent from the other digits. Returns 0 when the givens
   clash or hold a value out of range. */
static inline int f9_root(const uint8_t *givens, uint32_t *F, int stride, uint32_t *unsolved)
{
    uint32_t given[3] = {0, 0, 0};                        /* given cells of each band */
    uint32_t rowd[9] = {0}, boxd[9] = {0}, cold[9] = {0}; /* digits seen per house */
    uint32_t dcol[9] = {0};                               /* columns holding each digit */
    uint32_t G[27] = {0};
    /* The given cells first, without a branch per cell: whether a cell is given is as
       good as random on puzzles with many givens, where a mispredicted branch on each
       cell cost a sixth of the time; then only the given cells are visited. */
    uint64_t low = 0, high = 0;
    for (int c = 0; c < 64; c++)
        low |= (uint64_t)(givens[c] != 0) << c;
    for (int c = 64; c < 81; c++)
        high |= (uint64_t)(givens[c] != 0) << (c - 64);
    for (int part = 0; part < 2; part++) {
        for (uint64_t left = part ? high : low; left; left &= left - 1) {
            int c = __builtin_ctzll(left) + 64 * part;
            int v = givens[c];
            int r = c / 9, col = c - 9 * r, bx = r / 3 * 3 + col / 3;
            uint32_t m = 1u << (v & 15);
            if (v > 9 || ((rowd[r] | cold[col] | boxd[bx]) & m))
                return 0;
            rowd[r] |= m;
            cold[col] |= m;
            boxd[bx] |= m;
            dcol[v - 1] |= 1u << col;
            int b = r / 3;
            uint32_t bit = 1u << (c - 27 * b);
            G[9 * b + v - 1] |= bit;
            given[b] |= bit;
        }
    }
    for (int i = 0; i < 27; i++) {
        int b = i / 9, d = i - 9 * b;
        uint32_t g = G[i], clear = given[b] | dcol[d] * F9_COLS;
        for (int k = 0; k < 3; k++) {
            uint32_t row = 0x1ffu << (9 * k), box = 0x1c0e07u << (3 * k);
            clear |= row & -(uint32_t)((g & row) != 0); /* the row of a given */
            clear |= box & -(uint32_t)((g & box) != 0); /* its box */
        }
        F[stride * b + d] = (F9_BAND & ~clear) | g;
    }
    for (int b = 0; b < 3; b++)
        unsolved[b] = F9_BAND & ~given[b];
    return 1;
}

/* Write a solved state as 81 values. */
static inline void f9_solution(const uint32_t *F, int stride, uint8_t *o)
{
    for (int b = 0; b < 3; b++)
        for (int d = 0; d < 9; d++)
            for (uint32_t m = F[stride * b + d]; m; m &= m - 1)
                o[27 * b + __builtin_ctz(m)] = (uint8_t)(d + 1);
}

/* A branch on a cell: `d1` goes in cell `bit` of band `band` in the copy searched first;
   the saved state later gets word (band, alt_d) masked with alt_mask. */
typedef struct {
    int band, d1, alt_d;
    uint32_t bit, alt_mask;
} f9_pick_t;

/* Branch on a cell with two candidates if there is one, else (rarely) on a cell with
   fewest candidates. Among those prefer the cell with the most unsolved peers: placing or
   removing a digit there reaches furthest, and this keeps the tree much smaller than
   taking the first such cell. two[b]: the unsolved cells of band b with two candidates. */
static inline f9_pick_t f9_pick(const uint32_t *F, int stride, const uint32_t *unsolved,
                                const uint32_t *two)
{
    int best = -(1 << 30);
    int bivalue = (two[0] | two[1] | two[2]) != 0;
    for (int b = 0; b < 3; b++) {
        uint32_t u = unsolved[b];
        uint32_t u1 = unsolved[b == 2 ? 0 : b + 1];
        uint32_t u2 = unsolved[b == 0 ? 2 : b - 1];
        for (uint32_t m = bivalue ? two[b] : u; m; m &= m - 1) {
            int pos = __builtin_ctz(m), c = f9_colof[pos];
            uint32_t a = u & f9_peers[pos]; /* unsolved peers in the band... */
            uint32_t t = ((u1 >> c) & F9_COLS) + ((u2 >> c) & F9_COLS); /* ...and out */
            int n = f9_pc9[a & 511] + f9_pc9[(a >> 9) & 511] + f9_pc9[a >> 18] +
                    (int)(((t * F9_COLS) >> 18) & 7);
            if (!bivalue) {
                int k = 0;
                for (int d = 0; d < 9; d++)
                    k += (F[stride * b + d] & m & -m) != 0;
                n -= 64 * k;
            }
            /* score and place in one key, the first cell of the highest score its
               largest: a running maximum without a branch that goes at random (about 2%
               on the hardest puzzles) */
            int key = n * 128 + (127 - (27 * b + pos));
            best = key > best ? key : best;
        }
    }
    f9_pick_t p;
    int chosen = 127 - (best & 127);
    p.band = chosen / 27;
    p.bit = 1u << (chosen - 27 * p.band);
    const uint32_t *Fb = F + stride * p.band;
    uint32_t has = 0; /* the cell's digits, as a mask: no loop that ends at random */
    for (int d = 0; d < 9; d++)
        has |= (uint32_t)((Fb[d] & p.bit) != 0) << d;
    int d1 = __builtin_ctz(has), d2 = __builtin_ctz(has & (has - 1));
    p.d1 = d1;
    /* the saved copy is tried later: with d1 removed from the cell (with two
       candidates, that is d2 placed there) */
    if (two[p.band] & p.bit) {
        p.alt_d = d2;
        p.alt_mask = ~f9_rowpeers(p.bit);
    } else {
        p.alt_d = d1;
        p.alt_mask = ~p.bit;
    }
    return p;
}

/* The search's budget: counts a node, or returns 1 when the node limit is reached or,
   every 4096 nodes, check_abort says stop (a time limit, a signal). */
static inline int f9_spent(uint64_t *nodes, uint64_t node_limit, int (*check_abort)(void *),
                           void *abort_arg)
{
    if (node_limit && *nodes >= node_limit)
        return 1;
    ++*nodes;
    return check_abort && (*nodes & 4095) == 0 && check_abort(abort_arg);
}

/* Report a search's statistics and whether it stopped short. */
static inline void f9_report(f9_stats *st, int *aborted, uint64_t nodes, uint64_t guesses,
                             int stop)
{
    if (st) {
        st->nodes = nodes;
        st->guesses = guesses;
    }
    if (aborted)
        *aborted = stop;
}

F9_UNUSED static int f9_solve(const uint8_t *givens, int limit, uint64_t node_limit,
                              int (*check_abort)(void *), void *abort_arg, uint8_t *out,
                              int keep, f9_stats *st, int *aborted)
{
    f9_state stack[82];
    uint32_t alt_idx[82], alt_mask[82];
    int sp = 0, count = 0;
    uint64_t nodes = 0, guesses = 0;
    int stop = 0;

    f9_init();
    if (limit < 1)
        limit = 1;
    f9_state *s = &stack[0];
    if (!f9_root(givens, s->F, 9, s->unsolved)) {
        nodes = 1; /* the root fails: a value out of range or a clash */
        goto done;
    }
    uint32_t dirty = F9_BAND, digits = 511;

    for (;;) {
        if (f9_spent(&nodes, node_limit, check_abort, abort_arg)) {
            stop = 1;
            break;
        }
        uint32_t two[3];
        int r = f9_propagate(s, dirty, digits, two);
        digits = 0;
        if (r == 2) {
            if (count < keep && out)
                f9_solution(s->F, 9, out + 81 * count);
            if (++count >= limit)
                break;
        } else if (r == 1) {
            f9_pick_t p = f9_pick(s->F, 9, s->unsolved, two);
            guesses++;
            alt_idx[sp] = (uint32_t)(9 * p.band + p.alt_d);
            alt_mask[sp] = p.alt_mask;
            stack[sp + 1] = *s;
            sp++;
            s = &stack[sp];
            s->F[9 * p.band + p.d1] &= ~f9_rowpeers(p.bit);
            dirty = 1u << (9 * p.band + p.d1);
            continue;
        }
        /* backtrack: take the other branch of the latest decision */
        if (sp == 0)
            break;
        sp--;
        s = &stack[sp];
        s->F[alt_idx[sp]] &= alt_mask[sp];
        dirty = 1u << alt_idx[sp];
    }
done:
    f9_report(st, aborted, nodes, guesses, stop);
    return count;
}

#endif /* NUMBERPLACE_FAST9_H */
