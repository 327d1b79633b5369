/*
 * _vec9.h: the 9x9 solver of _fast9.h with its propagation in 512-bit vectors, for
 * x86-64 processors with AVX-512. It is compiled for those instructions alone (a target
 * attribute on each function) and chosen at run time: elsewhere _fast9.h's scalar code runs.
 *
 * Representation. The band words of _fast9.h (bit 9*r + c: digit d+1 may go in row r of the
 * band, column c) of one band's nine digits sit in lanes 0-8 of a vector of sixteen 32-bit
 * lanes; lanes 9-15 stay zero. One instruction thus treats a band's nine digits, and a
 * state is three vectors plus the band's cells not yet placed (256 bytes).
 *
 * Band step (v9_band). In every lane at once: the triad rule of _fast9.h, with shifts in
 * place of its tables (a triad is kept while the other two rows and boxes of the band can
 * still take the digit, one triad each: a 2x2 matching); a row left with one cell not yet
 * placed is a placement; a butterfly of four lane shuffles gives, for every cell, whether
 * one digit or two may still go there (none: a contradiction; one: a naked single).
 * Placements leave the cell's other digits and, for their digit, the rest of their row
 * (the next triad pass does the box) and their column in the other two bands. The step
 * repeats until the band places nothing new. A cell that two digits take in one pass as
 * their row's only cell keeps both; a solution is checked for that (one digit a cell).
 *
 * Stack step (v9_stacks), all digits and stacks at once: the same rule on the columns of
 * each stack (one column per band, one band per column) and hidden singles in columns.
 *
 * Minirows (v9_locked), when nothing else changes: a digit is forced into a minirow (the
 * three cells of a row in a box) when that triad is its only one in its row or its box
 * within the band. Three digits forced into one minirow fill it, so no other digit goes
 * there. The same holds for minicolumns.
 *
 * Branching (v9_choose), after tdoku's: on the band or stack with the fewest
 * configurations left (the ways each digit can take one triad per row and box, at most six
 * a digit), a digit with exactly two: each branch takes one. Only if no such unit has one,
 * on a cell as _fast9.h does. With the minirow rule this makes the tree about a fifth
 * smaller than _fast9.h's (127 against 163 nodes a puzzle on the hardest set).
 */
#ifndef NUMBERPLACE_VEC9_H
#define NUMBERPLACE_VEC9_H

#include <stdint.h>
#include <string.h>

#include "_fast9.h"

/* gcc 8 and clang 7 know every name used here (target attributes, AVX-512 intrinsics,
   __builtin_cpu_supports for each extension); an older compiler builds the scalar form
   alone. */
#if defined(__x86_64__) && !defined(NP_NO_VEC9) &&                                         \
    ((defined(__clang__) && __clang_major__ >= 7) ||                                       \
     (!defined(__clang__) && defined(__GNUC__) && __GNUC__ >= 8))
#define NP_HAVE_VEC9 1

#include <immintrin.h>

#define V9_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
#define V9_FN static inline V9_TARGET

typedef uint32_t v9_v __attribute__((vector_size(64)));
typedef int32_t v9_i __attribute__((vector_size(64)));

typedef struct {
    v9_v B[3];       /* band b: lane d holds digit d+1's word */
    uint32_t U[3];   /* cells of each band not yet placed */
} v9_state;

/* Triads of a band word: bit 9r + 3k for row r, box k (k = 0, 1, 2 in octal digits). */
#define V9_TRI 0111111111u
#define V9_K01 0011011011u /* boxes 0 and 1 */
#define V9_K2 0100100100u
#define V9_K0 0001001001u
#define V9_K12 0110110110u
#define V9_ALL 0777777777u
/* A stack pattern: bit 9b + 3k + c for band b, column c of stack k. */
#define V9_C01 0333333333u /* columns 0 and 1 of each stack */
#define V9_C2 0444444444u
#define V9_C0 0111111111u
#define V9_C12 0666666666u
#define V9_ONES 0x40201u /* bit 0 of each row */
#define V9_ROW0 0x1ffu
#define V9_ROW1 0x3fe00u
#define V9_ROW2 0x7fc0000u

/* Lane shuffles for the butterflies: exchange lanes i and i ^ k. */
V9_FN v9_v v9_x8(v9_v x) { return (v9_v)_mm512_shuffle_i32x4((__m512i)x, (__m512i)x, 0x4e); }
V9_FN v9_v v9_x4(v9_v x) { return (v9_v)_mm512_shuffle_i32x4((__m512i)x, (__m512i)x, 0xb1); }
V9_FN v9_v v9_x2(v9_v x) { return (v9_v)_mm512_shuffle_epi32((__m512i)x, (_MM_PERM_ENUM)0x4e); }
V9_FN v9_v v9_x1(v9_v x) { return (v9_v)_mm512_shuffle_epi32((__m512i)x, (_MM_PERM_ENUM)0xb1); }

V9_FN int v9_any(v9_v x)
{
    return _mm512_test_epi32_mask((__m512i)x, (__m512i)x) != 0;
}

/* every digit lane nonzero */
V9_FN int v9_all9(v9_v x)
{
    return (_mm512_test_epi32_mask((__m512i)x, (__m512i)x) & 0x1ff) == 0x1ff;
}

/* `value` in the lanes where cond holds, 0 elsewhere */
V9_FN v9_v v9_where(v9_i cond, uint32_t value)
{
    return (v9_v)cond & value;
}

/* OR of all lanes, in every lane */
V9_FN v9_v v9_or_all(v9_v a)
{
    a |= v9_x8(a);
    a |= v9_x4(a);
    a |= v9_x2(a);
    return a | v9_x1(a);
}

/* Over all lanes: the bits set in at least one lane (o1) and in at least two (o2). */
V9_FN void v9_count2(v9_v a, v9_v *o1, v9_v *o2)
{
    v9_v b = a & 0, p;
    p = v9_x8(a); b |= v9_x8(b) | (a & p); a |= p;
    p = v9_x4(a); b |= v9_x4(b) | (a & p); a |= p;
    p = v9_x2(a); b |= v9_x2(b) | (a & p); a |= p;
    p = v9_x1(a); b |= v9_x1(b) | (a & p); a |= p;
    *o1 = a;
    *o2 = b;
}

/* Over all lanes: the bits set in exactly two (for cells with two candidates). */
V9_FN v9_v v9_exactly2(v9_v a)
{
    v9_v b = a & 0, c = a & 0, p;
#define V9_STEP(sh)                                                                          \
    p = sh(a);                                                                               \
    c |= sh(c) | (b & p) | (a & sh(b));                                                      \
    b |= sh(b) | (a & p);                                                                    \
    a |= p;
    V9_STEP(v9_x8) V9_STEP(v9_x4) V9_STEP(v9_x2) V9_STEP(v9_x1)
#undef V9_STEP
    return b & ~c;
}

/* Over all lanes: the bits set in at least three (o3) and at least four (o4). */
V9_FN void v9_count4(v9_v a, v9_v *o3, v9_v *o4)
{
    v9_v b = a & 0, c = a & 0, e = a & 0, p;
#define V9_STEP(sh)                                                                          \
    p = sh(a);                                                                               \
    e |= sh(e) | (c & p) | (b & sh(b)) | (a & sh(c));                                        \
    c |= sh(c) | (b & p) | (a & sh(b));                                                      \
    b |= sh(b) | (a & p);                                                                    \
    a |= p;
    V9_STEP(v9_x8) V9_STEP(v9_x4) V9_STEP(v9_x2) V9_STEP(v9_x1)
#undef V9_STEP
    *o3 = c;
    *o4 = e;
}

/* Rotations of a 3x3 pattern held at bits 9r + 3k (triads): the entry at (r, k) takes
   the one at (r, k+1) (c1), (r, k+2) (c2), (r+1, k) (r1), (r+2, k) (r2), mod 3. */
V9_FN v9_v v9_c1(v9_v x) { return ((x >> 3) & V9_K01) | ((x << 6) & V9_K2); }
V9_FN v9_v v9_c2(v9_v x) { return ((x >> 6) & V9_K0) | ((x << 3) & V9_K12); }
V9_FN v9_v v9_r1(v9_v x) { return ((x >> 9) | (x << 18)) & V9_ALL; }
V9_FN v9_v v9_r2(v9_v x) { return ((x >> 18) | (x << 9)) & V9_ALL; }
/* The same for stack patterns (bit 9b + 3k + c): columns within each stack. */
V9_FN v9_v v9_g1(v9_v x) { return ((x >> 1) & V9_C01) | ((x << 2) & V9_C2); }
V9_FN v9_v v9_g2(v9_v x) { return ((x >> 2) & V9_C0) | ((x << 1) & V9_C12); }

/* Entries of 3x3 patterns lying on a permutation: those whose other two rows and
   columns can be matched, one way or the other. */
V9_FN v9_v v9_on_perm(v9_v A, v9_v c1, v9_v c2)
{
    return A & ((v9_r1(c1) & v9_r2(c2)) | (v9_r1(c2) & v9_r2(c1)));
}

/* Entries of 3x3 patterns alone in their row or their column. */
V9_FN v9_v v9_alone(v9_v A, v9_v c1, v9_v c2)
{
    return A & (~(c1 | c2) | ~(v9_r1(A) | v9_r2(A)));
}

/* The triads of band words that hold a cell (bit 9r + 3k). */
V9_FN v9_v v9_triads(v9_v S)
{
    return (S | S >> 1 | S >> 2) & V9_TRI;
}

/* The triad rule on every lane of a band. */
V9_FN v9_v v9_keep(v9_v S)
{
    v9_v A = v9_triads(S);
    v9_v K = v9_on_perm(A, v9_c1(A), v9_c2(A));
    return S & (K | K << 1 | K << 2);
}

/* The whole rows of band words in which x has a cell. */
V9_FN v9_v v9_rows_of(v9_v x)
{
    return v9_where((x & V9_ROW0) != 0, V9_ROW0) | v9_where((x & V9_ROW1) != 0, V9_ROW1) |
           v9_where((x & V9_ROW2) != 0, V9_ROW2);
}

/* Propagate inside band b until it places nothing new. Bands whose words lose cells are
   added to *dirty. Returns 0 on a contradiction. */
V9_FN int v9_band(v9_state *s, int b, uint32_t *dirty)
{
    v9_v S = s->B[b];
    v9_v U = (S & 0) + s->U[b]; /* in every lane: no trips between vector and scalar */
    int b1 = b == 2 ? 0 : b + 1, b2 = b == 0 ? 2 : b - 1;
    for (;;) {
        S = v9_keep(S);
        if (!v9_all9(S))
            return 0; /* a digit with no place in a row or box of the band */
        /* rows with one cell (every row has one since the triad pass): their cells that
           are not yet placed */
        v9_v R = S & U & ~v9_rows_of(S & (S - V9_ONES));
        v9_v o1, o2;
        v9_count2(S, &o1, &o2);
        if (v9_any(U & ~o1))
            return 0; /* a cell without a digit */
        v9_v naked = U & ~o2;
        v9_v placed = v9_any(R) ? v9_or_all(R) | naked : naked;
        if (!v9_any(placed))
            break;
        v9_v P = R | (S & naked);
        v9_v y0 = P & V9_ROW0, y1 = (P >> 9) & V9_ROW0, y2 = P >> 18; /* its rows */
        if (v9_any((y0 & (y0 - 1)) | (y1 & (y1 - 1)) | (y2 & (y2 - 1))))
            return 0; /* two naked singles of one digit in a row */
        S &= ~((v9_rows_of(P) | placed) & ~P);
        U &= ~placed;
        v9_v cols = y0 | y1 | y2;
        cols = cols | cols << 9 | cols << 18;
        v9_v o = s->B[b1], n = s->B[b2];
        *dirty |= (uint32_t)v9_any(o & cols) << b1 | (uint32_t)v9_any(n & cols) << b2;
        s->B[b1] = o & ~cols;
        s->B[b2] = n & ~cols;
    }
    s->B[b] = S;
    s->U[b] = U[0];
    return 1;
}

/* The stack pattern of each digit: the columns its cells take in each band. */
V9_FN v9_v v9_stack_pattern(const v9_state *s)
{
    v9_v x = s->B[0], y = s->B[1], z = s->B[2];
    return ((x | x >> 9 | x >> 18) & V9_ROW0) | ((y << 9 | y | y >> 9) & V9_ROW1) |
           ((z << 18 | z << 9 | z) & V9_ROW2);
}

/* Band b's three rows of the columns in stack pattern G. */
V9_FN v9_v v9_band_columns(v9_v G, int b)
{
    v9_v c = (G >> (9 * b)) & V9_ROW0;
    return c | c << 9 | c << 18;
}

/* Columns across the bands, all digits at once: the permutation rule in each stack, and
   hidden singles in columns. Returns 0 on a contradiction; changed bands go in *dirty. */
V9_FN int v9_stacks(v9_state *s, uint32_t *dirty)
{
    v9_v G = v9_stack_pattern(s);
    v9_v A = v9_on_perm(G, v9_g1(G), v9_g2(G));
    v9_v N[3];
    for (int b = 0; b < 3; b++)
        N[b] = s->B[b] & v9_band_columns(A, b);
    /* how many of each column's cells hold the digit: at least one, at least two */
    v9_v a1 = N[0] | N[1] | N[2], a2 = (N[0] & N[1]) | (N[2] & (N[0] | N[1]));
    v9_v p = a1 & V9_ROW0, q = (a1 >> 9) & V9_ROW0, r = a1 >> 18;
    v9_v one = p | q | r;
    v9_v many = (a2 | a2 >> 9 | a2 >> 18 | (p & q) | (r & (p | q))) & V9_ROW0;
    if ((_mm512_cmpeq_epi32_mask((__m512i)one, _mm512_set1_epi32(511)) & 0x1ff) != 0x1ff)
        return 0; /* a column without the digit */
    v9_v h = one & ~many;
    h = h | h << 9 | h << 18;
    uint32_t changed = 0;
    for (int b = 0; b < 3; b++) {
        v9_v placed = N[b] & h & s->U[b]; /* its row's other cells go */
        v9_v n = N[b] & ~(v9_rows_of(placed) & ~placed);
        changed |= (uint32_t)v9_any(n ^ s->B[b]) << b;
        s->B[b] = n;
    }
    *dirty |= changed;
    return 1;
}

/* Minirows and minicolumns into which three digits are forced hold no other digit.
   Returns 0 on a contradiction (four digits forced into one); changed bands go in
   *dirty. */
V9_FN int v9_locked(v9_state *s, uint32_t *dirty)
{
    /* minirows: the three bands' forced triads side by side (bit 9r + 3k + b), one count */
    v9_v T[3], F[3], o3, o4;
    for (int b = 0; b < 3; b++) {
        v9_v A = v9_triads(s->B[b]);
        T[b] = A;
        F[b] = v9_alone(A, v9_c1(A), v9_c2(A));
    }
    v9_count4(F[0] | F[1] << 1 | F[2] << 2, &o3, &o4);
    if (o4[0])
        return 0;
    for (int b = 0; b < 3 && o3[0]; b++) {
        uint32_t full = (o3[0] >> b) & V9_TRI;
        v9_v drop = T[b] & full & ~F[b];
        drop = drop | drop << 1 | drop << 2;
        v9_v S = s->B[b];
        *dirty |= (uint32_t)v9_any(S & drop) << b;
        s->B[b] = S & ~drop;
    }
    /* minicolumns */
    v9_v G = v9_stack_pattern(s);
    v9_v Fg = v9_alone(G, v9_g1(G), v9_g2(G));
    v9_count4(Fg, &o3, &o4);
    if (o4[0])
        return 0;
    if (o3[0]) {
        v9_v drop = G & o3[0] & ~Fg;
        for (int b = 0; b < 3; b++) {
            v9_v cols = v9_band_columns(drop, b), S = s->B[b];
            *dirty |= (uint32_t)v9_any(S & cols) << b;
            s->B[b] = S & ~cols;
        }
    }
    return 1;
}

/* Propagate to a fixpoint from the dirty bands. Returns 0 on contradiction, 2 if solved,
   1 if stuck. */
V9_FN int v9_propagate(v9_state *s, uint32_t dirty)
{
    for (;;) {
        while (dirty) {
            int b = __builtin_ctz(dirty);
            dirty &= dirty - 1;
            if (!v9_band(s, b, &dirty))
                return 0;
        }
        if (!(s->U[0] | s->U[1] | s->U[2])) {
            for (int b = 0; b < 3; b++) {
                v9_v o1, o2;
                v9_count2(s->B[b], &o1, &o2);
                if (o2[0])
                    return 0; /* a cell kept two digits */
            }
            return 2;
        }
        if (!v9_stacks(s, &dirty))
            return 0;
        if (!dirty && !v9_locked(s, &dirty))
            return 0;
        if (!dirty)
            return 1;
    }
}

/* The six configurations of a unit (a permutation p: row r takes box perm[p][r]), as
   triads of a band (bit 9r + 3k) and as columns of stack k (bit 9b + 3k + c). */
#define V9_PT(a, b, c) ((1u << (3 * (a))) | (1u << (9 + 3 * (b))) | (1u << (18 + 3 * (c))))
static const uint32_t v9_conf_band[6] = {V9_PT(0, 1, 2), V9_PT(0, 2, 1), V9_PT(1, 0, 2),
                                         V9_PT(1, 2, 0), V9_PT(2, 0, 1), V9_PT(2, 1, 0)};
#undef V9_PT
#define V9_PS(k, a, b, c) ((1u << (3 * (k) + (a))) | (1u << (9 + 3 * (k) + (b))) |          \
                           (1u << (18 + 3 * (k) + (c))))
#define V9_PS6(k)                                                                            \
    {V9_PS(k, 0, 1, 2), V9_PS(k, 0, 2, 1), V9_PS(k, 1, 0, 2),                                \
     V9_PS(k, 1, 2, 0), V9_PS(k, 2, 0, 1), V9_PS(k, 2, 1, 0)}
static const uint32_t v9_conf_stack[3][6] = {V9_PS6(0), V9_PS6(1), V9_PS6(2)};
#undef V9_PS6
#undef V9_PS

V9_FN v9_v v9_sum_all(v9_v x)
{
    x += v9_x8(x);
    x += v9_x4(x);
    x += v9_x2(x);
    return x + v9_x1(x);
}

/* A branch: in the copy searched first, the words of digit digit1 are masked with
   first[b]; in the saved state later, those of digit2 with second[b] (~0: unchanged). */
typedef struct {
    int digit1, digit2;
    uint32_t first[3], second[3];
} v9_pick_t;

/* Configurations of 3x3 patterns in each lane: at each entry of row 0, whether the
   three entries on the diagonal (d1) and on the anti-diagonal (d2) through it are all in
   the pattern. These are its six permutations, each once. */
V9_FN void v9_diagonals(v9_v A, v9_v c1, v9_v c2, v9_v *d1, v9_v *d2)
{
    *d1 = A & v9_r1(c1) & v9_r2(c2);
    *d2 = A & v9_r1(c2) & v9_r2(c1);
}

/* Choose the unit (band or stack) with the fewest configurations left among those not
   yet fixed, and in it a digit with two. Returns 0 if there is none. */
V9_FN int v9_choose(const v9_state *s, v9_pick_t *out)
{
    v9_v T[3], G = v9_stack_pattern(s), d1, d2, count[6];
    for (int b = 0; b < 3; b++) {
        v9_v A = v9_triads(s->B[b]);
        T[b] = A;
        v9_diagonals(A, v9_c1(A), v9_c2(A), &d1, &d2);
        v9_v n = (d1 & 0111) + (d2 & 0111); /* 0-2 at bits 0, 3, 6 */
        count[b] = (n + (n >> 3) + (n >> 6)) & 7;
    }
    /* the three stacks at once: row 0 of stack k is bits 3k-3k+2 */
    v9_diagonals(G, v9_g1(G), v9_g2(G), &d1, &d2);
    v9_v n = (d1 & 0111) + ((d1 >> 1) & 0111) + ((d1 >> 2) & 0111) + (d2 & 0111) +
             ((d2 >> 1) & 0111) + ((d2 >> 2) & 0111);
    for (int k = 0; k < 3; k++)
        count[3 + k] = (n >> (3 * k)) & 7;
    /* the totals of three units side by side (at most 54 each), two sums for all six */
    uint32_t bands = v9_sum_all(count[0] | count[1] << 8 | count[2] << 16)[0];
    uint32_t stacks = v9_sum_all(count[3] | count[4] << 8 | count[5] << 16)[0];
    int best = -1;
    uint32_t best_total = 1u << 30;
    for (int u = 0; u < 6; u++) {
        uint32_t total = ((u < 3 ? bands : stacks) >> (8 * (u % 3))) & 255;
        if (total > 9 && total < best_total) { /* 9: every digit fixed */
            best_total = total;
            best = u;
        }
    }
    if (best < 0)
        return 0;
    __mmask16 two = _mm512_cmpeq_epi32_mask((__m512i)count[best], _mm512_set1_epi32(2)) & 0x1ff;
    if (!two)
        return 0;
    int d = __builtin_ctz(two);
    uint32_t X = best < 3 ? T[best][d] : G[d];
    const uint32_t *conf = best < 3 ? v9_conf_band : v9_conf_stack[best - 3];
    uint32_t m[2] = {0, 0};
    for (int p = 0, k = 0; p < 6; p++)
        if ((X & conf[p]) == conf[p])
            m[k++] = conf[p];
    out->digit1 = out->digit2 = d;
    for (int b = 0; b < 3; b++) {
        out->first[b] = out->second[b] = ~0u;
        if (best < 3 && b == best) {
            out->first[b] = m[0] | m[0] << 1 | m[0] << 2;
            out->second[b] = m[1] | m[1] << 1 | m[1] << 2;
        } else if (best >= 3) {
            /* the stack's columns leave the band but the configuration's one */
            uint32_t stack = (0x1c0e07u << (3 * (best - 3)));
            uint32_t c0 = (m[0] >> (9 * b)) & 511, c1 = (m[1] >> (9 * b)) & 511;
            out->first[b] = ~stack | c0 * F9_COLS;
            out->second[b] = ~stack | c1 * F9_COLS;
        }
    }
    return 1;
}

/* The cells of each band with exactly two candidates (for a branch on a cell). */
V9_FN void v9_twos(const v9_state *s, uint32_t *two)
{
    for (int b = 0; b < 3; b++)
        two[b] = s->U[b] & v9_exactly2(s->B[b])[0];
}

/* As f9_solve (same arguments and result); for processors with AVX-512 only. */
F9_UNUSED
V9_TARGET static int v9_solve(const uint8_t *givens, int limit, uint64_t node_limit,
                              int (*check_abort)(void *), void *abort_arg, uint8_t *out,
                              int keep, f9_stats *st, int *aborted)
{
    v9_state stack[82];
    int alt_digit[82];
    uint32_t alt_mask[82][3];
    int sp = 0, count = 0;
    uint64_t nodes = 0, guesses = 0;
    int stop = 0;

    f9_init();
    if (limit < 1)
        limit = 1;
    v9_state *s = &stack[0];
    memset(s, 0, sizeof *s);
    if (!f9_root(givens, (uint32_t *)s->B, 16, s->U)) {
        nodes = 1; /* the root fails: a value out of range or a clash */
        goto done;
    }
    uint32_t dirty = 7;

    for (;;) {
        if (f9_spent(&nodes, node_limit, check_abort, abort_arg)) {
            stop = 1;
            break;
        }
        int r = v9_propagate(s, dirty);
        if (r == 2) {
            if (count < keep && out)
                f9_solution((const uint32_t *)s->B, 16, out + 81 * count);
            if (++count >= limit)
                break;
        } else if (r == 1) {
            v9_pick_t p;
            guesses++;
            if (!v9_choose(s, &p)) {
                uint32_t two[3];
                v9_twos(s, two);
                f9_pick_t c = f9_pick((const uint32_t *)s->B, 16, s->U, two);
                p.digit1 = c.d1;
                p.digit2 = c.alt_d;
                for (int b = 0; b < 3; b++)
                    p.first[b] = p.second[b] = ~0u;
                p.first[c.band] = ~f9_rowpeers(c.bit);
                p.second[c.band] = c.alt_mask;
            }
            alt_digit[sp] = p.digit2;
            memcpy(alt_mask[sp], p.second, sizeof p.second);
            stack[sp + 1] = *s;
            sp++;
            s = &stack[sp];
            dirty = 0;
            for (int b = 0; b < 3; b++)
                if (p.first[b] != ~0u) {
                    ((uint32_t *)s->B)[16 * b + p.digit1] &= p.first[b];
                    dirty |= 1u << b;
                }
            continue;
        }
        /* backtrack: take the other branch of the latest decision */
        if (sp == 0)
            break;
        sp--;
        s = &stack[sp];
        dirty = 0;
        for (int b = 0; b < 3; b++)
            if (alt_mask[sp][b] != ~0u) {
                ((uint32_t *)s->B)[16 * b + alt_digit[sp]] &= alt_mask[sp][b];
                dirty |= 1u << b;
            }
    }
done:
    f9_report(st, aborted, nodes, guesses, stop);
    return count;
}

/* Whether this processor (and its operating system) runs AVX-512. */
F9_UNUSED static int v9_usable(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
}

#endif /* x86-64, gcc 8 or clang 7 and later */
#endif /* NUMBERPLACE_VEC9_H */
