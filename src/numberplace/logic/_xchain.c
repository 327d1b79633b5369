/*
 * _xchain.c: Sudoku Explainer's chains (xchain in numberplace._core) for shapes of up to
 * 81 cells and 9 values, with the nesting the Python search leaves out: a dynamic chain
 * that, where its links stop, asks a whole chain search on the board it has made (levels
 * 2 to 4, with a nested level of its own inside level 4).
 *
 * The Python reference is logic/xchain.py: its class Chaining (with the rules of
 * logic/xchain_plus.py inside level 1) stays the reference for levels 0 and 1, and this
 * search follows it step for step (the same states in the same
 * order, the same hints in the same order), which a test checks, so that the path it
 * rates is the same.
 *
 * A state is (cell * 16 + value) * 2 + on: a value in a cell (on), or its absence (off).
 * A propagation (an Outcome) holds its states in the order it reached them, each with the
 * states it follows from (its parents), how it came (its cause) and, where a nested chain
 * removed it, that chain's record.
 *
 * The limits and the kinds of search are in engine/_core.h, which the module publishes
 * (XCHAIN_*).
 */
#include "../engine/_core.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef NP_HAVE_XCHAIN

typedef unsigned __int128 xc_bits;

#define XC_STATES (XC_CELLS * 32)
#define XC_CROSS 1024
/* houses a cell may be in, and the links a value taken makes: its cell's, one a house */
#define XC_HOF 8
#define XC_MADE (XC_HOF + 1)

/* how a state came: its own cell (a naked single or a cell's other values), a house, the
 * start, or a rule inside the chain */
#define XC_CELL (-1)
#define XC_NONE (-2)
#define XC_RULE (-3)

/* hint orders among kinds of equal value and size, as xchain.py */
#define XC_X_CYCLE 2
#define XC_Y_CYCLE 3
#define XC_XY 4

/* what each hint says it is: the names xchain.py gives */
enum { XN_X_CYCLE, XN_Y_CYCLE, XN_XY_CYCLE, XN_X_FORCING, XN_XY_FORCING, XN_CONTRADICTION,
       XN_BOTH, XN_CELL, XN_HOUSE };
/* what a hint of each number is called, as Python shows it (the module's XCHAIN_NAMES) */
static const char *const xc_names[] = {
    "Bidirectional X-Cycle", "Bidirectional Y-Cycle", "Bidirectional Cycle",
    "Forcing X-Chain", "Forcing Chain", "contradiction", "both ways", "cell", "house"};

static int xc_count(xc_bits m)
{
    return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64));
}

static int xc_low(xc_bits m)
{
    uint64_t lo = (uint64_t)m;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

/* masks of a cell's values: exactly two of them, more than two (no popcount: the
 * portable build has no instruction for it) */
static int xc_two(unsigned m)
{
    unsigned rest = m & (m - 1);
    return rest && !(rest & (rest - 1));
}

static int xc_over_two(unsigned m)
{
    unsigned rest = m & (m - 1);
    return rest && (rest & (rest - 1));
}

#define XC_ONE ((xc_bits)1)
#define XC_ST(c, v, on) ((((c) * 16 + (v)) << 1) | (on))
#define XC_CELLOF(k) ((k) >> 5)
#define XC_VALOF(k) (((k) >> 1) & 15)

typedef struct {
    int n, size, nh;
    int hc[XC_HOUSES][XC_VALUES];
    xc_bits hm[XC_HOUSES];
    int hof[XC_CELLS][XC_HOF], nhof[XC_CELLS];
    /* the same houses in the order the Explainer looks at them: boxes (and jigsaw
     * regions), rows, columns, then any other kind */
    int hcause[XC_CELLS][XC_HOF];
    xc_bits peer[XC_CELLS];
    int ncross;
    short cr1[XC_CROSS], cr2[XC_CROSS];
    xc_bits crin[XC_CROSS];
    /* X-Wings: rows as bases with columns as covers, then the other way round */
    int nb[2], bases[2][XC_VALUES], covers[2][XC_VALUES], pos[2][XC_CELLS];
    /* time, and Python's signal handlers (run from the main thread only, as the
     * engine's search does): ``expired`` stops the search for either */
    double deadline, next_signal;
    unsigned ticks;
    int expired, failed, interrupted, signals;
    PyThreadState *tstate;
    /* nested chains met so far: their complexity and a key for the Explainer's
     * "same chain" (the same states reached) */
    int *nest_size;
    uint64_t *nest_key;
    int nnest, nest_cap;
    /* search scratch by depth (a nested search runs inside a chain); cycles and forcing
     * chains never nest, so one set of marks serves them at every depth */
    struct XcArena *arena[6];
    unsigned seen_on[XC_STATES], anc[XC_STATES], fseen[XC_STATES];
    unsigned stamp_on, stamp_anc, fstamp;
} XcShape;

typedef struct {
    int n, cap;
    short at[XC_STATES]; /* index + 1 of a state, 0 where absent */
    /* by index: the state, its parents in the pool, its cause and nested chain */
    short *st;
    int *pofs;
    unsigned short *pcnt;
    signed char *cause;
    int *nest;
    int *pool;
    int np, pcap;
    /* a contradiction: a state and its opposite, each with its parents in the pool */
    int absurd, a, z, aofs, acnt, zofs, zcnt, acause;
} XcOutcome;

typedef struct XcArena {
    XcOutcome **out;
    int nout, cap;
    int used;
} XcArena;

static double xc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int xc_late(XcShape *s)
{
    if (s->expired || s->failed)
        return 1;
    if ((++s->ticks & 15) == 0) {
        double now = xc_now();
        if (s->deadline > 0 && now > s->deadline) {
            s->expired = 1;
        } else if (s->signals && now >= s->next_signal) {
            s->next_signal = now + SIGNAL_CHECK_SECONDS;
            PyEval_RestoreThread(s->tstate);
            int raised = PyErr_CheckSignals() < 0;
            s->tstate = PyEval_SaveThread();
            if (raised)
                s->interrupted = s->expired = 1;
        }
    }
    return s->expired;
}

/* Room for ``need`` items of ``size`` bytes in the array whose pointer is at ``where``
 * (its capacity ``*cap``, doubled from ``first``): 0, or -1 with nothing changed when
 * memory is short. The pointer is read and written through memcpy, which any pointer
 * type allows. */
static int xc_room(void *where, int *cap, int need, size_t size, int first)
{
    if (need <= *cap)
        return 0;
    int c = *cap ? *cap : first;
    while (c < need)
        c *= 2;
    void *items;
    memcpy(&items, where, sizeof items);
    items = realloc(items, size * (size_t)c);
    if (!items)
        return -1;
    memcpy(where, &items, sizeof items);
    *cap = c;
    return 0;
}

static int xc_pool_add(XcOutcome *o, const int *items, int n)
{
    if (xc_room(&o->pool, &o->pcap, o->np + n, sizeof(int), 1024) < 0)
        return -1;
    int at = o->np;
    if (n)
        memcpy(o->pool + at, items, sizeof(int) * (size_t)n);
    o->np += n;
    return at;
}

static void xc_reset(XcOutcome *o)
{
    for (int i = 0; i < o->n; i++)
        o->at[o->st[i]] = 0;
    o->n = 0;
    o->np = 0;
    o->absurd = 0;
}

static int xc_grow(XcOutcome *o)
{
    int cap = o->cap ? o->cap * 2 : 128;
    short *st = realloc(o->st, sizeof(short) * (size_t)cap);
    if (st)
        o->st = st;
    int *pofs = realloc(o->pofs, sizeof(int) * (size_t)cap);
    if (pofs)
        o->pofs = pofs;
    unsigned short *pcnt = realloc(o->pcnt, sizeof(unsigned short) * (size_t)cap);
    if (pcnt)
        o->pcnt = pcnt;
    signed char *cause = realloc(o->cause, (size_t)cap);
    if (cause)
        o->cause = cause;
    int *nest = realloc(o->nest, sizeof(int) * (size_t)cap);
    if (nest)
        o->nest = nest;
    if (!st || !pofs || !pcnt || !cause || !nest)
        return -1;
    o->cap = cap;
    return 0;
}

/* add state k with its parents; -1 on memory failure */
static int xc_put(XcShape *s, XcOutcome *o, int k, const int *par, int npar, int cause,
                  int nest)
{
    int at = xc_pool_add(o, par, npar);
    if (at < 0 || (o->n == o->cap && xc_grow(o) < 0)) {
        s->failed = 1;
        return -1;
    }
    int i = o->n++;
    o->st[i] = (short)k;
    o->at[k] = (short)(i + 1);
    o->pofs[i] = at;
    o->pcnt[i] = (unsigned short)npar;
    o->cause[i] = (signed char)cause;
    o->nest[i] = nest;
    return i;
}

static XcOutcome *xc_take(XcShape *s, int depth)
{
    XcArena *a = s->arena[depth];
    if (!a) {
        a = calloc(1, sizeof(XcArena));
        if (!a) {
            s->failed = 1;
            return NULL;
        }
        s->arena[depth] = a;
    }
    if (a->used == a->nout) {
        if (xc_room(&a->out, &a->cap, a->nout + 1, sizeof(XcOutcome *), 64) < 0) {
            s->failed = 1;
            return NULL;
        }
        /* only the index by state needs zeros: the rest is written before it is read */
        XcOutcome *o = malloc(sizeof(XcOutcome));
        if (!o) {
            s->failed = 1;
            return NULL;
        }
        memset(o, 0, sizeof *o);
        a->out[a->nout++] = o;
    }
    XcOutcome *o = a->out[a->used++];
    xc_reset(o);
    return o;
}

static void xc_free(XcShape *s)
{
    for (int d = 0; d < 6; d++) {
        XcArena *a = s->arena[d];
        if (!a)
            continue;
        for (int i = 0; i < a->nout; i++) {
            XcOutcome *o = a->out[i];
            free(o->pool);
            free(o->st);
            free(o->pofs);
            free(o->pcnt);
            free(o->cause);
            free(o->nest);
            free(o);
        }
        free(a->out);
        free(a);
    }
    free(s->nest_size);
    free(s->nest_key);
}

/* -- a board under a chain search -------------------------------------------------- */

typedef struct {
    XcShape *s;
    int depth;
    uint16_t start[XC_CELLS];
    xc_bits vstart[XC_VALUES + 1];
} XcBoard;

static void xc_board(XcBoard *b, XcShape *s, const uint16_t *cands, int depth)
{
    b->s = s;
    b->depth = depth;
    memset(b->vstart, 0, sizeof b->vstart);
    for (int c = 0; c < s->n; c++) {
        b->start[c] = cands[c];
        for (int v = 1; v <= s->size; v++)
            if (cands[c] >> (v - 1) & 1)
                b->vstart[v] |= XC_ONE << c;
    }
}

/* the links from a value placed: its cell's other values (y), then its peers' places,
 * house by house in the Explainer's order (which decides the parents a state keeps when
 * two links reach it) */
static int xc_on_to_off(const XcBoard *b, const uint16_t *grid, const xc_bits *vm, int k,
                        int y, int *out, signed char *cause)
{
    const XcShape *s = b->s;
    int c = XC_CELLOF(k), v = XC_VALOF(k), n = 0;
    if (y) {
        unsigned m = grid[c] & ~(1u << (v - 1));
        while (m) {
            int w = __builtin_ctz(m) + 1;
            m &= m - 1;
            cause[n] = XC_CELL;
            out[n++] = XC_ST(c, w, 0);
        }
    }
    xc_bits done = XC_ONE << c;
    for (int i = 0; i < s->nhof[c]; i++) {
        int h = s->hcause[c][i];
        xc_bits m = s->hm[h] & vm[v] & ~done;
        if (!m)
            continue;
        done |= m;
        for (; m; m &= m - 1) { /* a house's cells are in increasing order */
            cause[n] = (signed char)h;
            out[n++] = XC_ST(xc_low(m), v, 0);
        }
    }
    return n;
}

/* the links from a value taken: the cell's last value (y), the value's last place in a
 * house; each with its parents (the state, then what the board lost since the start) */
typedef struct {
    int q, cause, npar;
    int par[XC_VALUES + 2];
} XcMade;

static int xc_off_to_on(const XcBoard *b, const uint16_t *grid, const xc_bits *vm, int k,
                        int y, XcMade *out)
{
    const XcShape *s = b->s;
    int c = XC_CELLOF(k), v = XC_VALOF(k), n = 0;
    unsigned bv = 1u << (v - 1), m = grid[c];
    if (y && xc_two(m) && (m & bv)) {
        int w = __builtin_ctz(m & ~bv) + 1;
        XcMade *r = &out[n++];
        r->q = XC_ST(c, w, 1);
        r->cause = XC_CELL;
        r->npar = 0;
        r->par[r->npar++] = k;
        unsigned hid = b->start[c] & ~m;
        while (hid) {
            int u = __builtin_ctz(hid) + 1;
            hid &= hid - 1;
            r->par[r->npar++] = XC_ST(c, u, 0);
        }
    }
    xc_bits here = vm[v] & ~(XC_ONE << c);
    xc_bits gone = b->vstart[v] & ~vm[v];
    xc_bits made = 0;
    for (int i = 0; i < s->nhof[c]; i++) {
        int h = s->hcause[c][i];
        xc_bits rest = here & s->hm[h];
        if (rest && !(rest & (rest - 1)) && !(rest & made)) {
            made |= rest;
            XcMade *r = &out[n++];
            r->q = XC_ST(xc_low(rest), v, 1);
            r->cause = h;
            r->npar = 0;
            r->par[r->npar++] = k;
            for (xc_bits g = gone & s->hm[h]; g; g &= g - 1)
                r->par[r->npar++] = XC_ST(xc_low(g), v, 0);
        }
    }
    return n;
}

/* -- hints ------------------------------------------------------------------------- */

typedef struct {
    double value;
    int size, order, name, nrem;
    short rem[XC_CELLS * XC_VALUES]; /* cell * 16 + value */
    /* nested use: the states outside the nested search it rests on, and its key */
    int npar, par_at;
    uint64_t key;
} XcHint;

/* what a search does with its hints: keep the cheapest (the first of equal rank), or
 * keep them all with what they rest on in the board around them */
typedef struct {
    int all;
    int have;
    XcHint best;
    /* all: the hints, and the grid the nesting chain started from (what the nested
     * hint's links lean on is what that chain removed from it) */
    XcHint *hints;
    int nh, cap;
    int *par;
    int npar, parcap;
    const uint16_t *outer;
    const uint16_t *cur;
} XcSink;

static double xc_bonus(int size)
{
    int length = size - 2, ceiling = 4, odd = 0, added = 0;
    while (length > ceiling) {
        added++;
        ceiling = odd ? ceiling * 4 / 3 : ceiling * 3 / 2;
        odd = !odd;
    }
    return added / 10.0;
}

static double xc_round(double x)
{
    return floor(x * 10.0 + 0.5) / 10.0;
}

/* a walk over the states a hint rests on: it counts them, sums the nested chains it
 * meets once each, keys the chain, and (nested use) collects what the chain's values
 * lean on that the board around it removed */
typedef struct {
    unsigned stamp;
    unsigned *seen; /* XC_STATES, by stamp */
    int nestsum;
    int nn, ncap;
    uint64_t *nkeys;
    uint64_t key;
    XcSink *sink; /* all: rule parents go to sink->par (deduplicated by pmark) */
    unsigned *pmark;
    unsigned pstamp;
    int parstart;
} XcTrace;

static uint64_t xc_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static void xc_rule_parent(XcShape *s, XcTrace *t, int k)
{
    XcSink *sk = t->sink;
    if (t->pmark[k] == t->pstamp)
        return;
    t->pmark[k] = t->pstamp;
    if (xc_room(&sk->par, &sk->parcap, sk->npar + 1, sizeof(int), 1024) < 0) {
        s->failed = 1;
        return;
    }
    sk->par[sk->npar++] = k;
}

/* what a value reached by ``cause`` leans on that the outer chain removed */
static void xc_lean(XcShape *s, XcTrace *t, int k, int cause)
{
    XcSink *sk = t->sink;
    int c = XC_CELLOF(k), v = XC_VALOF(k);
    if (cause == XC_CELL) {
        unsigned m = sk->outer[c] & ~sk->cur[c];
        while (m) {
            int u = __builtin_ctz(m) + 1;
            m &= m - 1;
            xc_rule_parent(s, t, XC_ST(c, u, 0));
        }
    } else if (cause >= 0) {
        unsigned bv = 1u << (v - 1);
        for (int i = 0; i < s->size; i++) {
            int q = s->hc[cause][i];
            if ((sk->outer[q] & bv) && !(sk->cur[q] & bv))
                xc_rule_parent(s, t, XC_ST(q, v, 0));
        }
    }
}

static void xc_trace_nest(XcShape *s, XcTrace *t, int id)
{
    uint64_t key = s->nest_key[id];
    for (int i = 0; i < t->nn; i++)
        if (t->nkeys[i] == key)
            return;
    if (xc_room(&t->nkeys, &t->ncap, t->nn + 1, sizeof(uint64_t), 64) < 0) {
        s->failed = 1;
        return;
    }
    t->nkeys[t->nn++] = key;
    t->nestsum += s->nest_size[id];
}

/* the states ``end`` rests on in ``o`` (itself included): how many. ``cause0`` is how the
 * hint reads the state its propagation started from (a cell's or a house's last place,
 * or nothing) */
static int xc_walk(XcShape *s, XcTrace *t, const XcOutcome *o, int end, const int *par,
                   int npar, int end_cause, int cause0)
{
    int stack[XC_STATES];
    int sp = 0, count = 1;
    uint64_t key = xc_mix((uint64_t)end);
    unsigned stamp = ++t->stamp;
    t->seen[end] = stamp;
    if (t->sink && (end & 1))
        xc_lean(s, t, end, end_cause);
    for (int i = 0; i < npar; i++)
        if (t->seen[par[i]] != stamp) {
            t->seen[par[i]] = stamp;
            stack[sp++] = par[i];
        }
    while (sp) {
        int k = stack[--sp];
        count++;
        key += xc_mix((uint64_t)k);
        int i = o->at[k] - 1;
        if (i < 0)
            continue;
        if (t->sink && (k & 1))
            xc_lean(s, t, k, i == 0 ? cause0 : o->cause[i]);
        if (o->nest[i] >= 0)
            xc_trace_nest(s, t, o->nest[i]);
        const int *p = o->pool + o->pofs[i];
        for (int j = 0; j < o->pcnt[i]; j++)
            if (t->seen[p[j]] != stamp) {
                t->seen[p[j]] = stamp;
                stack[sp++] = p[j];
            }
    }
    t->key = t->key * 31 + key;
    return count;
}

static int xc_rank_less(const XcHint *a, const XcHint *b)
{
    if (a->value != b->value)
        return a->value < b->value;
    if (a->size != b->size)
        return a->size < b->size;
    return a->order < b->order;
}

/* removals of a concluding state: its candidate, or a placed value's cell's others */
static int xc_removals(const XcBoard *b, int k, short *rem)
{
    int c = XC_CELLOF(k), v = XC_VALOF(k), n = 0;
    if (k & 1) {
        unsigned m = b->start[c] & ~(1u << (v - 1));
        while (m) {
            rem[n++] = (short)(c * 16 + __builtin_ctz(m) + 1);
            m &= m - 1;
        }
    } else {
        rem[n++] = (short)(c * 16 + v);
    }
    return n;
}

static void xc_trace_begin(XcTrace *t, XcSink *sk)
{
    t->nestsum = 0;
    t->nn = 0;
    t->key = 0;
    t->sink = sk && sk->all ? sk : NULL;
    if (t->sink) {
        t->pstamp++;
        t->parstart = t->sink->npar;
    }
}

/* a hint found: kept as the sink keeps hints */
static void xc_emit(XcShape *s, XcSink *sk, XcTrace *t, double base, int flat, int order,
                    int name, const short *rem, int nrem)
{
    if (!nrem)
        return;
    int size = flat + t->nestsum;
    double value = xc_round(base + xc_bonus(size));
    if (!sk->all) {
        XcHint h;
        h.value = value;
        h.size = size;
        h.order = order;
        if (!sk->have || xc_rank_less(&h, &sk->best)) {
            sk->have = 1;
            sk->best.value = value;
            sk->best.size = size;
            sk->best.order = order;
            sk->best.name = name;
            sk->best.nrem = nrem;
            memcpy(sk->best.rem, rem, sizeof(short) * (size_t)nrem);
        }
        return;
    }
    if (xc_room(&sk->hints, &sk->cap, sk->nh + 1, sizeof(XcHint), 64) < 0) {
        s->failed = 1;
        return;
    }
    XcHint *h = &sk->hints[sk->nh++];
    h->value = value;
    h->size = size;
    h->order = order;
    h->name = name;
    h->nrem = nrem;
    memcpy(h->rem, rem, sizeof(short) * (size_t)nrem);
    h->par_at = t->parstart;
    h->npar = sk->npar - t->parstart;
    h->key = t->key;
}

/* -- one propagation (xchain.py Chaining._chain) ------------------------------------- */

static int xc_search(XcShape *s, const uint16_t *cands, int kind, int depth, XcSink *sk,
                     XcTrace *t);

typedef struct {
    int nrem;
    short rem[XC_CELLS * XC_VALUES];
    int npar;
    int par[XC_CELLS * XC_VALUES];
} XcRule;

/* off states of ``v`` in ``cells`` that the chain removed */
static int xc_gone(const XcBoard *b, xc_bits cells, int v, const uint16_t *grid, int *out)
{
    int n = 0;
    unsigned bv = 1u << (v - 1);
    for (; cells; cells &= cells - 1) {
        int q = xc_low(cells);
        if ((b->start[q] & bv) && !(grid[q] & bv))
            out[n++] = XC_ST(q, v, 0);
    }
    return n;
}

typedef struct {
    int n;
    XcRule *r;
    int cap;
} XcRules;

static XcRule *xc_rule_new(XcShape *s, XcRules *rs)
{
    if (xc_room(&rs->r, &rs->cap, rs->n + 1, sizeof(XcRule), 16) < 0) {
        s->failed = 1;
        return NULL;
    }
    XcRule *r = &rs->r[rs->n++];
    r->nrem = r->npar = 0;
    return r;
}

/* a rule found: its removals (cell * 16 + value) and the chain's removals it rests on;
 * -1 when memory is short */
static int xc_rule_add(XcShape *s, XcRules *rs, const short *rem, int nrem, const int *par,
                       int npar)
{
    XcRule *r = xc_rule_new(s, rs);
    if (!r)
        return -1;
    memcpy(r->rem, rem, sizeof(short) * (size_t)nrem);
    r->nrem = nrem;
    memcpy(r->par, par, sizeof(int) * (size_t)npar);
    r->npar = npar;
    return 0;
}

/* removals of ``v`` from the cells of ``mask`` */
static int xc_mask_rem(xc_bits mask, int v, short *rem)
{
    int n = 0;
    for (; mask; mask &= mask - 1)
        rem[n++] = (short)(xc_low(mask) * 16 + v);
    return n;
}

static void xc_locking(const XcBoard *b, const uint16_t *grid, xc_bits where[][XC_VALUES + 1],
                       XcRules *rs)
{
    XcShape *s = b->s;
    for (int i = 0; i < s->ncross; i++) {
        int h1 = s->cr1[i], h2 = s->cr2[i];
        xc_bits inside = s->crin[i];
        for (int v = 1; v <= s->size; v++) {
            xc_bits p = where[h1][v];
            if (!(p & (p - 1)) || (p & ~inside))
                continue;
            xc_bits rem = where[h2][v] & ~inside;
            if (!rem)
                continue;
            int par[XC_CELLS];
            int np = xc_gone(b, s->hm[h1] & ~inside, v, grid, par);
            if (!np)
                continue;
            short out[XC_CELLS];
            if (xc_rule_add(s, rs, out, xc_mask_rem(rem, v, out), par, np) < 0)
                return;
        }
    }
}

static void xc_hidden_pairs(const XcBoard *b, const uint16_t *grid,
                            xc_bits where[][XC_VALUES + 1], XcRules *rs)
{
    XcShape *s = b->s;
    for (int h = 0; h < s->nh; h++) {
        int vals[XC_VALUES], nv = 0;
        for (int v = 1; v <= s->size; v++)
            if (where[h][v])
                vals[nv++] = v;
        for (int i = 0; i < nv; i++)
            for (int j = i + 1; j < nv; j++) {
                int a = vals[i], bv = vals[j];
                xc_bits both = where[h][a] | where[h][bv];
                if (xc_count(both) != 2)
                    continue;
                unsigned keep = (1u << (a - 1)) | (1u << (bv - 1));
                short rem[2 * XC_VALUES];
                int nr = 0;
                for (xc_bits m = both; m; m &= m - 1) {
                    int q = xc_low(m);
                    unsigned o = grid[q] & ~keep;
                    while (o) {
                        rem[nr++] = (short)(q * 16 + __builtin_ctz(o) + 1);
                        o &= o - 1;
                    }
                }
                if (!nr)
                    continue;
                xc_bits rest = s->hm[h] & ~both;
                int par[2 * XC_CELLS];
                int np = xc_gone(b, rest, a, grid, par);
                np += xc_gone(b, rest, bv, grid, par + np);
                if (!np)
                    continue;
                if (xc_rule_add(s, rs, rem, nr, par, np) < 0)
                    return;
            }
    }
}

static void xc_naked_pairs(const XcBoard *b, const uint16_t *grid, XcRules *rs)
{
    XcShape *s = b->s;
    for (int h = 0; h < s->nh; h++) {
        const int *cells = s->hc[h];
        int two[XC_VALUES], nt = 0;
        for (int i = 0; i < s->size; i++)
            if (xc_two(grid[cells[i]]))
                two[nt++] = cells[i];
        for (int i = 0; i < nt; i++)
            for (int j = i + 1; j < nt; j++) {
                int a = two[i], q2 = two[j];
                if (grid[a] != grid[q2])
                    continue;
                unsigned pair = grid[a];
                short rem[XC_VALUES * 2];
                int nr = 0;
                for (int x = 0; x < s->size; x++) {
                    int q = cells[x];
                    if (q == a || q == q2)
                        continue;
                    unsigned o = grid[q] & pair;
                    while (o) {
                        rem[nr++] = (short)(q * 16 + __builtin_ctz(o) + 1);
                        o &= o - 1;
                    }
                }
                if (!nr)
                    continue;
                int par[2 * XC_VALUES], np = 0;
                int two_cells[2] = {a, q2};
                for (int x = 0; x < 2; x++) {
                    unsigned o = b->start[two_cells[x]] & ~pair;
                    while (o) {
                        par[np++] = XC_ST(two_cells[x], __builtin_ctz(o) + 1, 0);
                        o &= o - 1;
                    }
                }
                if (!np)
                    continue;
                if (xc_rule_add(s, rs, rem, nr, par, np) < 0)
                    return;
            }
    }
}

static void xc_x_wings(const XcBoard *b, const uint16_t *grid, xc_bits where[][XC_VALUES + 1],
                       XcRules *rs)
{
    XcShape *s = b->s;
    for (int side = 0; side < 2; side++) {
        const int *bases = s->bases[side], *covers = s->covers[side];
        for (int v = 1; v <= s->size; v++) {
            int sh[XC_VALUES];
            unsigned scols[XC_VALUES];
            int ns = 0;
            for (int i = 0; i < s->nb[side]; i++) {
                int h = bases[i];
                xc_bits p = where[h][v];
                if (!(p & (p - 1)))
                    continue;
                unsigned cols = 0;
                for (xc_bits m = p; m; m &= m - 1)
                    cols |= 1u << s->pos[side][xc_low(m)];
                if (xc_two(cols)) {
                    sh[ns] = h;
                    scols[ns++] = cols;
                }
            }
            for (int i = 0; i < ns; i++)
                for (int j = i + 1; j < ns; j++) {
                    if (scols[i] != scols[j])
                        continue;
                    xc_bits base = s->hm[sh[i]] | s->hm[sh[j]];
                    xc_bits rem = 0, cover = 0;
                    for (unsigned m = scols[i]; m; m &= m - 1)
                        rem |= where[covers[__builtin_ctz(m)]][v] & ~base;
                    if (!rem)
                        continue;
                    for (unsigned m = scols[i]; m; m &= m - 1)
                        cover |= s->hm[covers[__builtin_ctz(m)]];
                    int par[XC_CELLS];
                    int np = xc_gone(b, base & ~cover, v, grid, par);
                    if (!np)
                        continue;
                    short out[XC_CELLS];
                    if (xc_rule_add(s, rs, out, xc_mask_rem(rem, v, out), par, np) < 0)
                        return;
                }
        }
    }
}

/* nested searches inside a chain at each level: cycles and forcing chains (2), multiple
 * chains (3), dynamic chains with ``level - 4`` levels of their own (4 and up) */
static int xc_nested_kind(int level, int inner)
{
    if (level >= 4)
        return inner == 0 ? (level == 4 ? XK_DYNAMIC : level == 5 ? XK_PLUS : XK_NEST2) : -1;
    if (inner == 0 && level >= 2)
        return XK_CYCLES;
    if (inner == 1 && level >= 3)
        return XK_MULTIPLE;
    return -1;
}

typedef struct {
    double value;
    int size, order, index;
    uint64_t remkey;
} XcOrder;

static int xc_order_cmp(const void *pa, const void *pb)
{
    const XcOrder *a = pa, *b = pb;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    if (a->order != b->order)
        return a->order < b->order ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* the rules inside a chain (level 1 and up; xchain_plus.py PairRules.advance): the first
 * that removes anything the chain's states made removable; its removals join the chain.
 * Returns how many states joined, appended to ``pend`` */
static int xc_advanced(const XcBoard *b, XcOutcome *o, const uint16_t *grid,
                       const xc_bits *vm, int level, int *pend, int *npend)
{
    XcShape *s = b->s;
    xc_bits where[XC_HOUSES][XC_VALUES + 1];
    for (int h = 0; h < s->nh; h++)
        for (int v = 1; v <= s->size; v++)
            where[h][v] = vm[v] & s->hm[h];
    XcRules rs = {0, NULL, 0};
    for (int rule = 0; rule < 4 && !rs.n && !s->failed; rule++) {
        if (rule == 0)
            xc_locking(b, grid, where, &rs);
        else if (rule == 1)
            xc_hidden_pairs(b, grid, where, &rs);
        else if (rule == 2)
            xc_naked_pairs(b, grid, &rs);
        else
            xc_x_wings(b, grid, where, &rs);
    }
    int added = 0;
    if (rs.n) {
        for (int i = 0; i < rs.n && !s->failed; i++) {
            XcRule *r = &rs.r[i];
            for (int j = 0; j < r->nrem; j++) {
                int k = XC_ST(r->rem[j] >> 4, r->rem[j] & 15, 0);
                if (!o->at[k]) {
                    if (xc_put(s, o, k, r->par, r->npar, XC_RULE, -1) < 0)
                        break;
                    pend[(*npend)++] = k;
                    added++;
                }
            }
        }
        free(rs.r);
        return added;
    }
    free(rs.r);
    /* nested chain searches on the board the chain has made */
    for (int inner = 0; inner < 2 && !s->failed && !s->expired; inner++) {
        int kind = xc_nested_kind(level, inner);
        if (kind < 0)
            continue;
        XcSink sk;
        memset(&sk, 0, sizeof sk);
        sk.all = 1;
        sk.outer = b->start;
        sk.cur = grid;
        XcTrace t;
        memset(&t, 0, sizeof t);
        t.seen = calloc(XC_STATES, sizeof(unsigned));
        t.pmark = calloc(XC_STATES, sizeof(unsigned));
        if (!t.seen || !t.pmark)
            s->failed = 1;
        else
            xc_search(s, grid, kind, b->depth + 1, &sk, &t);
        free(t.seen);
        free(t.pmark);
        free(t.nkeys);
        /* the Explainer's order: cheapest first, one hint for each set of removals */
        int any = 0;
        XcOrder *ord = sk.nh ? malloc(sizeof(XcOrder) * (size_t)sk.nh) : NULL;
        if (sk.nh && !ord)
            s->failed = 1;
        for (int i = 0; i < sk.nh && ord; i++) {
            XcHint *h = &sk.hints[i];
            uint64_t rk = 0;
            for (int j = 0; j < h->nrem; j++)
                rk = rk * 1000003 + (uint64_t)h->rem[j];
            ord[i].value = h->value;
            ord[i].size = h->size;
            ord[i].order = h->order;
            ord[i].index = i;
            ord[i].remkey = rk;
        }
        if (ord)
            qsort(ord, (size_t)sk.nh, sizeof(XcOrder), xc_order_cmp);
        for (int oi = 0; oi < sk.nh && ord && !s->failed; oi++) {
            XcHint *h = &sk.hints[ord[oi].index];
            int dup = 0;
            for (int j = 0; j < oi && !dup; j++) {
                if (ord[j].remkey != ord[oi].remkey)
                    continue;
                XcHint *g = &sk.hints[ord[j].index];
                if (g->nrem == h->nrem &&
                    !memcmp(g->rem, h->rem, sizeof(short) * (size_t)h->nrem))
                    dup = 1;
            }
            if (dup || !h->npar)
                continue;
            any = 1;
            /* the nested chain's record */
            if (s->nnest == s->nest_cap) {
                int cap = s->nest_cap ? s->nest_cap * 2 : 256;
                int *ns = realloc(s->nest_size, sizeof(int) * (size_t)cap);
                if (ns)
                    s->nest_size = ns;
                uint64_t *nk = realloc(s->nest_key, sizeof(uint64_t) * (size_t)cap);
                if (nk)
                    s->nest_key = nk;
                if (!ns || !nk) {
                    s->failed = 1;
                    break;
                }
                s->nest_cap = cap;
            }
            int id = s->nnest++;
            s->nest_size[id] = h->size;
            s->nest_key[id] = h->key;
            const int *par = sk.par + h->par_at;
            for (int j = 0; j < h->nrem; j++) {
                int k = XC_ST(h->rem[j] >> 4, h->rem[j] & 15, 0);
                if (!o->at[k]) {
                    if (xc_put(s, o, k, par, h->npar, XC_RULE, id) < 0)
                        break;
                    pend[(*npend)++] = k;
                    added++;
                }
            }
        }
        free(ord);
        free(sk.hints);
        free(sk.par);
        if (any)
            return added;
    }
    return added;
}

/* follow the states already in ``o`` (on states before off states, each in the order
 * reached); returns 1 at a contradiction (kept in o), 0 when nothing more follows */
static int xc_chain(const XcBoard *b, XcOutcome *o, int dynamic, int y, int level)
{
    XcShape *s = b->s;
    uint16_t grid[XC_CELLS];
    xc_bits vm[XC_VALUES + 1];
    memcpy(grid, b->start, sizeof(uint16_t) * (size_t)s->n);
    memcpy(vm, b->vstart, sizeof vm);
    int pend_on[XC_STATES], pend_off[XC_STATES];
    int hon = 0, ton = 0, hoff = 0, toff = 0;
    for (int i = 0; i < o->n; i++) {
        if (o->st[i] & 1)
            pend_on[ton++] = o->st[i];
        else
            pend_off[toff++] = o->st[i];
    }
    int out[XC_CELLS + XC_VALUES];
    signed char cause[XC_CELLS + XC_VALUES];
    XcMade made[XC_MADE];
    for (;;) {
        if (s->failed)
            return 0;
        if (hon < ton) {
            int k = pend_on[hon++];
            int n = xc_on_to_off(b, grid, vm, k, y, out, cause);
            for (int i = 0; i < n; i++) {
                int q = out[i];
                int j = o->at[q | 1];
                if (j) {
                    j--;
                    o->absurd = 1;
                    o->a = q | 1;
                    o->acause = o->cause[j];
                    o->aofs = o->pofs[j];
                    o->acnt = o->pcnt[j];
                    o->z = q;
                    o->zofs = xc_pool_add(o, &k, 1);
                    o->zcnt = 1;
                    if (o->zofs < 0)
                        s->failed = 1;
                    return 1;
                }
                if (!o->at[q]) {
                    if (xc_put(s, o, q, &k, 1, cause[i], -1) < 0)
                        return 0;
                    pend_off[toff++] = q;
                }
            }
            continue;
        }
        if (hoff < toff) {
            int k = pend_off[hoff++];
            int n = xc_off_to_on(b, grid, vm, k, y, made);
            if (dynamic) {
                int c = XC_CELLOF(k), v = XC_VALOF(k);
                grid[c] &= (uint16_t) ~(1u << (v - 1));
                vm[v] &= ~(XC_ONE << c);
            }
            for (int i = 0; i < n; i++) {
                int q = made[i].q;
                int j = o->at[q ^ 1];
                if (j) {
                    j--;
                    o->absurd = 1;
                    o->a = q;
                    o->acause = made[i].cause;
                    o->aofs = xc_pool_add(o, made[i].par, made[i].npar);
                    o->acnt = made[i].npar;
                    o->z = q ^ 1;
                    o->zofs = o->pofs[j];
                    o->zcnt = o->pcnt[j];
                    if (o->aofs < 0)
                        s->failed = 1;
                    return 1;
                }
                if (!o->at[q]) {
                    if (xc_put(s, o, q, made[i].par, made[i].npar, made[i].cause, -1) < 0)
                        return 0;
                    pend_on[ton++] = q;
                }
            }
            continue;
        }
        if (level && !s->expired) {
            /* a state is pending at most once, so the queues never pass XC_STATES */
            int before = toff;
            if (xc_advanced(b, o, grid, vm, level, pend_off, &toff) && toff > before)
                continue;
        }
        return 0;
    }
}

/* -- cycles and forcing chains (xchain.py Chaining.cycles) ---------------------------- */

typedef struct {
    int *key, *up;
    signed char *cause;
    int n, cap;
} XcNodes;

static int xc_node(XcShape *s, XcNodes *ns, int key, int up, int cause)
{
    if (ns->n == ns->cap) {
        int cap = ns->cap ? ns->cap * 2 : 4096;
        int *k = realloc(ns->key, sizeof(int) * (size_t)cap);
        if (k)
            ns->key = k;
        int *u = realloc(ns->up, sizeof(int) * (size_t)cap);
        if (u)
            ns->up = u;
        signed char *c = realloc(ns->cause, (size_t)cap);
        if (c)
            ns->cause = c;
        if (!k || !u || !c) {
            s->failed = 1;
            return -1;
        }
        ns->cap = cap;
    }
    ns->key[ns->n] = key;
    ns->up[ns->n] = up;
    ns->cause[ns->n] = (signed char)cause;
    return ns->n++;
}

/* a path's states: count the distinct ones (and, nested, what its values lean on) */
static int xc_path(XcShape *s, XcTrace *t, const XcNodes *ns, int node, int skip_root,
                   int reversed)
{
    int count = 0;
    uint64_t key = 0;
    t->stamp++;
    for (int x = node; x >= 0; x = ns->up[x]) {
        if (skip_root && ns->up[x] < 0)
            break;
        int k = ns->key[x];
        if (t->seen[k] != t->stamp) {
            t->seen[k] = t->stamp;
            count++;
            key += xc_mix((uint64_t)k);
        }
        if (t->sink) {
            if (k & 1)
                xc_lean(s, t, k, ns->cause[x]);
            else if (reversed)
                xc_lean(s, t, k | 1, ns->cause[x]);
        }
    }
    t->key = t->key * 31 + key;
    return count;
}

static void xc_cycle_hint(const XcBoard *b, XcSink *sk, XcTrace *t, const XcNodes *ns,
                          int end, int y, int x)
{
    XcShape *s = b->s;
    xc_bits cells = 0;
    for (int n = end; ns->up[n] >= 0; n = ns->up[n])
        cells |= XC_ONE << XC_CELLOF(ns->key[n]);
    /* values each side of the cycle sees, outside its cells */
    xc_bits fw[XC_VALUES + 1], bk[XC_VALUES + 1];
    memset(fw, 0, sizeof fw);
    memset(bk, 0, sizeof bk);
    for (int n = end; ns->up[n] >= 0; n = ns->up[n]) {
        int k = ns->key[n], v = XC_VALOF(k);
        xc_bits see = s->peer[XC_CELLOF(k)] & ~cells & b->vstart[v];
        if (k & 1)
            fw[v] |= see;
        else
            bk[v] |= see;
    }
    short rem[XC_CELLS * XC_VALUES];
    int nrem = 0;
    for (int c = 0; c < s->n; c++)
        for (int v = 1; v <= s->size; v++)
            if ((fw[v] & bk[v]) >> c & 1)
                rem[nrem++] = (short)(c * 16 + v);
    if (!nrem)
        return;
    xc_trace_begin(t, sk);
    int size = xc_path(s, t, ns, end, 1, 1);
    int order = x && y ? XC_XY : y ? XC_Y_CYCLE : XC_X_CYCLE;
    int name = x && y ? XN_XY_CYCLE : y ? XN_Y_CYCLE : XN_X_CYCLE;
    xc_emit(s, sk, t, x && y ? 7.0 : 6.5, size, order, name, rem, nrem);
}

static void xc_cycles_from(const XcBoard *b, XcSink *sk, XcTrace *t, XcNodes *ns, int source,
                           int y, int x)
{
    XcShape *s = b->s;
    const uint16_t *grid = b->start;
    const xc_bits *vm = b->vstart;
    unsigned *seen_on = s->seen_on, *anc = s->anc;
    unsigned stamp_on = ++s->stamp_on;
    seen_on[source] = stamp_on;
    ns->n = 0;
    int *pon = NULL, *poff = NULL, non = 0, noff = 0, capon = 0, capoff = 0;
    int root = xc_node(s, ns, source, -1, XC_NONE);
    if (root < 0)
        return;
    pon = malloc(sizeof(int) * 64);
    capon = 64;
    if (!pon) {
        s->failed = 1;
        return;
    }
    pon[non++] = root;
    int length = 0, out[XC_CELLS + XC_VALUES];
    signed char cause[XC_CELLS + XC_VALUES];
    XcMade made[XC_MADE];
    while ((non || noff) && !s->failed) {
        length++;
        for (int i = 0; i < non && !s->failed; i++) {
            int node = pon[i];
            unsigned stamp_anc = ++s->stamp_anc;
            for (int a = node; a >= 0; a = ns->up[a])
                anc[ns->key[a]] = stamp_anc;
            int n = xc_on_to_off(b, grid, vm, ns->key[node], y, out, cause);
            for (int j = 0; j < n; j++) {
                if (anc[out[j]] == stamp_anc)
                    continue;
                int nn = xc_node(s, ns, out[j], node, cause[j]);
                if (nn < 0)
                    break;
                if (xc_room(&poff, &capoff, noff + 1, sizeof(int), 256) < 0) {
                    s->failed = 1;
                    break;
                }
                poff[noff++] = nn;
            }
        }
        non = 0;
        length++;
        for (int i = 0; i < noff && !s->failed; i++) {
            int node = poff[i], k = ns->key[node];
            int n;
            if (x) {
                n = xc_off_to_on(b, grid, vm, k, y, made);
            } else {
                int c = XC_CELLOF(k);
                unsigned m = b->start[c], bv = 1u << (XC_VALOF(k) - 1);
                n = 0;
                if (xc_two(m) && (m & bv)) {
                    made[0].q = XC_ST(c, __builtin_ctz(m & ~bv) + 1, 1);
                    made[0].cause = XC_CELL;
                    n = 1;
                }
            }
            for (int j = 0; j < n; j++) {
                int q = made[j].q;
                int nxt = xc_node(s, ns, q, node, made[j].cause);
                if (nxt < 0)
                    break;
                if (length >= 4 && q == source)
                    xc_cycle_hint(b, sk, t, ns, nxt, y, x);
                if (seen_on[q] != stamp_on) {
                    seen_on[q] = stamp_on;
                    if (xc_room(&pon, &capon, non + 1, sizeof(int), 64) < 0) {
                        s->failed = 1;
                        break;
                    }
                    pon[non++] = nxt;
                }
            }
        }
        noff = 0;
    }
    free(pon);
    free(poff);
}

/* a forcing chain: the path to ``end``, whose state is the source's opposite */
static void xc_forcing_hint(const XcBoard *b, XcSink *sk, XcTrace *t, const XcNodes *ns,
                            int end, int y)
{
    xc_trace_begin(t, sk);
    int size = xc_path(b->s, t, ns, end, 0, 0);
    short rem[XC_CELLS];
    int nr = xc_removals(b, ns->key[end], rem);
    xc_emit(b->s, sk, t, y ? 7.0 : 6.6, size, y ? XC_XY : XC_X_CYCLE,
            y ? XN_XY_FORCING : XN_X_FORCING, rem, nr);
}

/* one link of a forcing chain, from ``node`` to state ``q``: the hint where ``q`` is the
 * source's opposite (the first time only), and ``q`` pending (in ``list``) unless seen
 * before; -1 when memory is short */
static int xc_further(const XcBoard *b, XcSink *sk, XcTrace *t, XcNodes *ns, int q, int cause,
                      int node, int source, int y, int *found, unsigned *seen, unsigned stamp,
                      int *list, int *n)
{
    int nn = xc_node(b->s, ns, q, node, cause);
    if (nn < 0)
        return -1;
    if ((q ^ 1) == source && !*found) {
        *found = 1;
        xc_forcing_hint(b, sk, t, ns, nn, y);
    }
    if (seen[q] != stamp) {
        seen[q] = stamp;
        list[(*n)++] = nn;
    }
    return 0;
}

static void xc_forcing_from(const XcBoard *b, XcSink *sk, XcTrace *t, XcNodes *ns, int source,
                            int y)
{
    XcShape *s = b->s;
    const uint16_t *grid = b->start;
    const xc_bits *vm = b->vstart;
    unsigned *seen = s->fseen;
    unsigned stamp = ++s->fstamp;
    seen[source] = stamp;
    int found = 0;
    ns->n = 0;
    int root = xc_node(s, ns, source, -1, XC_NONE);
    if (root < 0)
        return;
    int *cur = malloc(sizeof(int) * XC_STATES), *nxt = malloc(sizeof(int) * XC_STATES);
    if (!cur || !nxt) {
        s->failed = 1;
        free(cur);
        free(nxt);
        return;
    }
    /* every state is pending at most once (seen), so XC_STATES bounds each list */
    int ncur = 0, nnxt = 0;
    int on_side = source & 1;
    cur[ncur++] = root;
    int out[XC_CELLS + XC_VALUES];
    signed char cause[XC_CELLS + XC_VALUES];
    XcMade made[XC_MADE];
    while (ncur && !s->failed) {
        /* from on states to off states (the pending off states come first) */
        int offs[XC_STATES], noffs = 0;
        if (!on_side) {
            memcpy(offs, cur, sizeof(int) * (size_t)ncur);
            noffs = ncur;
        } else {
            for (int i = 0; i < ncur; i++) {
                int node = cur[i];
                int n = xc_on_to_off(b, grid, vm, ns->key[node], y, out, cause);
                for (int j = 0; j < n; j++)
                    if (xc_further(b, sk, t, ns, out[j], cause[j], node, source, y, &found,
                                   seen, stamp, offs, &noffs) < 0)
                        break;
            }
        }
        on_side = 1;
        nnxt = 0;
        for (int i = 0; i < noffs && !s->failed; i++) {
            int node = offs[i];
            int n = xc_off_to_on(b, grid, vm, ns->key[node], y, made);
            for (int j = 0; j < n; j++)
                if (xc_further(b, sk, t, ns, made[j].q, made[j].cause, node, source, y, &found,
                               seen, stamp, nxt, &nnxt) < 0)
                    break;
        }
        int *tmp = cur;
        cur = nxt;
        nxt = tmp;
        ncur = nnxt;
    }
    free(cur);
    free(nxt);
}

static void xc_cycles(const XcBoard *b, XcSink *sk, XcTrace *t)
{
    XcShape *s = b->s;
    XcNodes ns = {NULL, NULL, NULL, 0, 0};
    static const int modes[3][2] = {{0, 1}, {1, 0}, {1, 1}};
    for (int md = 0; md < 3 && !s->failed; md++) {
        int y = modes[md][0], x = modes[md][1];
        for (int c = 0; c < s->n && !s->failed; c++) {
            unsigned m = b->start[c];
            if (!(m & (m - 1)) || (!x && xc_over_two(m)))
                continue;
            for (unsigned r = m; r; r &= r - 1) {
                int v = __builtin_ctz(r) + 1;
                if (xc_late(s))
                    goto done;
                xc_cycles_from(b, sk, t, &ns, XC_ST(c, v, 1), y, x);
                if (x) {
                    xc_forcing_from(b, sk, t, &ns, XC_ST(c, v, 1), y);
                    xc_forcing_from(b, sk, t, &ns, XC_ST(c, v, 0), y);
                }
            }
        }
    }
done:
    free(ns.key);
    free(ns.up);
    free(ns.cause);
}

/* -- multiple, dynamic and nested chains (xchain.py Chaining._multiple) -------------- */

typedef struct {
    const XcBoard *b;
    XcSink *sk;
    XcTrace *t;
    double base;
    int dynamic, y, level, nishio, multiple;
    XcOutcome *follow[XC_STATES];
} XcMulti;

static XcOutcome *xc_follow(XcMulti *mu, int k)
{
    XcShape *s = mu->b->s;
    if (!mu->follow[k]) {
        if (xc_late(s))
            return NULL;
        XcOutcome *o = xc_take(s, mu->b->depth);
        if (!o)
            return NULL;
        if (xc_put(s, o, k, NULL, 0, XC_NONE, -1) < 0)
            return NULL;
        xc_chain(mu->b, o, mu->dynamic, mu->y, mu->level);
        mu->follow[k] = o;
    }
    return mu->follow[k];
}

/* the number of states state ``q`` rests on in ``o`` */
static int xc_in(XcShape *s, XcTrace *t, const XcOutcome *o, int q, int cause0)
{
    int i = o->at[q] - 1;
    return xc_walk(s, t, o, q, o->pool + o->pofs[i], o->pcnt[i], i == 0 ? cause0 : o->cause[i],
                   cause0);
}

static int xc_absurd_size(XcShape *s, XcTrace *t, const XcOutcome *o)
{
    return xc_walk(s, t, o, o->a, o->pool + o->aofs, o->acnt, o->acause, XC_NONE) +
           xc_walk(s, t, o, o->z, o->pool + o->zofs, o->zcnt, XC_NONE, XC_NONE);
}

/* states every branch reaches: each a hint whose size sums the branches' proofs */
static void xc_common(XcMulti *mu, XcOutcome **br, int nbr, int order, int name, int cause0)
{
    XcShape *s = mu->b->s;
    for (int side = 1; side >= 0; side--) {
        const XcOutcome *first = br[0];
        for (int i = 0; i < first->n; i++) {
            int q = first->st[i];
            if ((q & 1) != side)
                continue;
            int all = 1;
            for (int j = 1; j < nbr && all; j++)
                all = br[j]->at[q] != 0;
            if (!all)
                continue;
            short rem[XC_VALUES];
            int nr = xc_removals(mu->b, q, rem);
            if (!nr)
                continue;
            xc_trace_begin(mu->t, mu->sk);
            int size = 0;
            for (int j = 0; j < nbr; j++)
                size += xc_in(s, mu->t, br[j], q, cause0);
            xc_emit(s, mu->sk, mu->t, mu->base, size, order, name, rem, nr);
        }
    }
}

static void xc_multiple(const XcBoard *b, XcSink *sk, XcTrace *t, double base, int dynamic,
                        int nishio, int multiple, int level)
{
    XcShape *s = b->s;
    XcMulti *mu = calloc(1, sizeof(XcMulti));
    if (!mu) {
        s->failed = 1;
        return;
    }
    XcArena *arena = s->arena[b->depth];
    int mark = arena ? arena->used : 0;
    mu->b = b;
    mu->sk = sk;
    mu->t = t;
    mu->base = base;
    mu->dynamic = dynamic;
    mu->y = !nishio;
    mu->level = level;
    mu->nishio = nishio;
    mu->multiple = multiple;
    for (int c = 0; c < s->n && !s->failed && !s->expired; c++) {
        unsigned m = b->start[c];
        int card = __builtin_popcount(m);
        if (!(card > 2 || (card > 1 && dynamic)))
            continue;
        XcOutcome *branches[XC_VALUES];
        int nbr = 0;
        for (unsigned r = m; r; r &= r - 1) {
            int v = __builtin_ctz(r) + 1;
            int k_on = XC_ST(c, v, 1);
            XcOutcome *o1 = xc_follow(mu, k_on);
            if (!o1)
                goto done;
            if ((dynamic || nishio) && o1->absurd) {
                short rem[XC_VALUES];
                int nr = xc_removals(b, k_on ^ 1, rem);
                if (nr) {
                    xc_trace_begin(t, sk);
                    xc_emit(s, sk, t, base, xc_absurd_size(s, t, o1), 7, XN_CONTRADICTION,
                            rem, nr);
                }
            }
            XcOutcome *o2 = xc_take(s, b->depth);
            if (!o2 || xc_put(s, o2, k_on ^ 1, NULL, 0, XC_NONE, -1) < 0)
                goto done;
            if (xc_late(s))
                goto done;
            xc_chain(b, o2, dynamic, mu->y, level);
            if ((dynamic || nishio) && o2->absurd) {
                short rem[XC_VALUES];
                int nr = xc_removals(b, k_on, rem);
                if (nr) {
                    xc_trace_begin(t, sk);
                    xc_emit(s, sk, t, base, xc_absurd_size(s, t, o2), 7, XN_CONTRADICTION,
                            rem, nr);
                }
            }
            if (card >= 3 && dynamic && !nishio) {
                for (int side = 1; side >= 0; side--)
                    for (int i = 0; i < o1->n; i++) {
                        int q = o1->st[i];
                        if ((q & 1) != side || !o2->at[q])
                            continue;
                        short rem[XC_VALUES];
                        int nr = xc_removals(b, q, rem);
                        if (!nr)
                            continue;
                        xc_trace_begin(t, sk);
                        int size = xc_in(s, t, o1, q, XC_NONE) + xc_in(s, t, o2, q, XC_NONE);
                        xc_emit(s, sk, t, base, size, 1, XN_BOTH, rem, nr);
                    }
            }
            /* nothing keeps the off branch: its place serves the next one */
            s->arena[b->depth]->used--;
            if (!nishio) {
                /* house forcing chains for v where c is its first place */
                unsigned bv = 1u << (v - 1);
                for (int i = 0; i < s->nhof[c]; i++) {
                    int h = s->hcause[c][i];
                    int places[XC_VALUES], np = 0;
                    for (int x = 0; x < s->size; x++)
                        if (b->start[s->hc[h][x]] & bv)
                            places[np++] = s->hc[h][x];
                    if (!(np == 2 || (multiple && np > 2)) || places[0] != c)
                        continue;
                    XcOutcome *hb[XC_VALUES];
                    int ok = 1;
                    for (int x = 0; x < np && ok; x++) {
                        hb[x] = places[x] == c ? o1 : xc_follow(mu, XC_ST(places[x], v, 1));
                        ok = hb[x] != NULL;
                    }
                    if (!ok)
                        goto done;
                    xc_common(mu, hb, np, 6, XN_HOUSE, h);
                }
            }
            branches[nbr++] = o1;
        }
        if (!nishio && (card == 2 || (multiple && card > 2)))
            xc_common(mu, branches, nbr, 5, XN_CELL, XC_CELL);
    }
done:
    if (arena || s->arena[b->depth])
        s->arena[b->depth]->used = mark;
    free(mu);
}

/* one kind of search on a board; 0, or -1 past the deadline or out of memory */
static int xc_search(XcShape *s, const uint16_t *cands, int kind, int depth, XcSink *sk,
                     XcTrace *t)
{
    if (depth >= 6) {
        return 0;
    }
    XcBoard *b = malloc(sizeof(XcBoard));
    if (!b) {
        s->failed = 1;
        return -1;
    }
    xc_board(b, s, cands, depth);
    /* each kind after the cycles: its base value, whether dynamic, Nishio, multiple,
     * and its level (what runs inside its chains) */
    static const struct {
        double base;
        int dynamic, nishio, multiple, level;
    } kinds[XK_KINDS] = {
        {0, 0, 0, 0, 0},     {7.5, 1, 1, 0, 0},  {8.0, 0, 0, 1, 0},  {8.5, 1, 0, 1, 0},
        {9.0, 1, 0, 1, 1},   {9.5, 1, 0, 1, 2},  {10.0, 1, 0, 1, 3}, {10.5, 1, 0, 1, 4},
        {10.5, 1, 0, 1, 5},  {10.5, 1, 0, 1, 6},
    };
    if (kind == XK_CYCLES)
        xc_cycles(b, sk, t);
    else
        xc_multiple(b, sk, t, kinds[kind].base, kinds[kind].dynamic, kinds[kind].nishio,
                    kinds[kind].multiple, kinds[kind].level);
    free(b);
    return s->failed || s->expired ? -1 : 0;
}


/* -- the entry point ---------------------------------------------------------------- */

static int xc_shape(XcShape *s, int ncells, int size, const int32_t *houses, int nh,
                    const unsigned char *kinds)
{
    if (ncells < 1 || ncells > XC_CELLS || size < 1 || size > XC_VALUES || nh < 1 ||
        nh > XC_HOUSES)
        return 0;
    s->n = ncells;
    s->size = size;
    s->nh = nh;
    for (int h = 0; h < nh; h++) {
        if (kinds[h] > 3)
            return 0;
        s->hm[h] = 0;
        for (int i = 0; i < size; i++) {
            int c = houses[h * size + i];
            if (c < 0 || c >= ncells || s->nhof[c] >= XC_HOF ||
                (i && c <= houses[h * size + i - 1]))
                return 0;
            s->hc[h][i] = c;
            s->hm[h] |= XC_ONE << c;
            s->hof[c][s->nhof[c]++] = h;
        }
    }
    for (int c = 0; c < ncells; c++) {
        int n = 0;
        for (int kind = 0; kind < 4; kind++)
            for (int i = 0; i < s->nhof[c]; i++)
                if (kinds[s->hof[c][i]] == kind)
                    s->hcause[c][n++] = s->hof[c][i];
        s->peer[c] = 0;
        for (int i = 0; i < s->nhof[c]; i++)
            s->peer[c] |= s->hm[s->hof[c][i]];
        s->peer[c] &= ~(XC_ONE << c);
    }
    /* houses sharing two cells or more, in the order xchain_plus.py's crossings has */
    for (int i = 0; i < nh; i++)
        for (int j = 0; j < nh; j++)
            if (i != j && xc_count(s->hm[i] & s->hm[j]) >= 2) {
                if (s->ncross == XC_CROSS)
                    return 0;
                s->cr1[s->ncross] = (short)i;
                s->cr2[s->ncross] = (short)j;
                s->crin[s->ncross++] = s->hm[i] & s->hm[j];
            }
    /* rows (kind 1) and columns (kind 2), as _lines */
    int rows[XC_HOUSES], cols[XC_HOUSES], nr = 0, nc = 0;
    for (int h = 0; h < nh; h++) {
        if (kinds[h] == 1)
            rows[nr++] = h;
        else if (kinds[h] == 2)
            cols[nc++] = h;
    }
    if (nr > XC_VALUES || nc > XC_VALUES)
        return 0;
    for (int side = 0; side < 2; side++) {
        const int *bs = side ? cols : rows, *cv = side ? rows : cols;
        int nb = side ? nc : nr, ncv = side ? nr : nc;
        s->nb[side] = nb;
        for (int i = 0; i < nb; i++)
            s->bases[side][i] = bs[i];
        for (int c = 0; c < ncells; c++)
            s->pos[side][c] = 0;
        for (int j = 0; j < ncv; j++) {
            s->covers[side][j] = cv[j];
            for (int i = 0; i < size; i++)
                s->pos[side][s->hc[cv[j]][i]] = j;
        }
    }
    return 1;
}

PyObject *np_xchain(PyObject *module, PyObject *args)
{
    (void)module;
    Py_buffer houses, kinds, cands;
    int ncells, size, kind;
    double deadline;
    if (!PyArg_ParseTuple(args, "iiy*y*y*id", &ncells, &size, &houses, &kinds, &cands, &kind,
                          &deadline))
        return NULL;
    PyObject *result = NULL;
    XcSink sk;
    memset(&sk, 0, sizeof sk);
    XcTrace t;
    memset(&t, 0, sizeof t);
    XcShape *s = calloc(1, sizeof(XcShape));
    unsigned *seen = calloc(XC_STATES, sizeof(unsigned));
    int nh = (int)kinds.len;
    if (!s || !seen) {
        PyErr_NoMemory();
        goto done;
    }
    if (kind < 0 || kind >= XK_KINDS || houses.len != (Py_ssize_t)4 * nh * size ||
        cands.len != (Py_ssize_t)2 * ncells ||
        !xc_shape(s, ncells, size, (const int32_t *)houses.buf, nh,
                  (const unsigned char *)kinds.buf)) {
        PyErr_SetString(PyExc_ValueError, "xchain: a shape of at most 81 cells and 9 values "
                                          "is needed");
        goto done;
    }
    const uint16_t *cm = (const uint16_t *)cands.buf;
    for (int c = 0; c < ncells; c++)
        if (cm[c] >> size) {
            PyErr_SetString(PyExc_ValueError, "xchain: a candidate out of range");
            goto done;
        }
    s->deadline = deadline;
    t.seen = seen;
    /* the search reads and writes only its own memory: other threads may run */
    s->signals = np_in_main_thread();
    s->tstate = PyEval_SaveThread();
    xc_search(s, (const uint16_t *)cands.buf, kind, 0, &sk, &t);
    PyEval_RestoreThread(s->tstate);
    if (s->interrupted)
        goto done; /* a signal handler raised: its exception is set */
    if (s->failed) {
        PyErr_NoMemory();
        goto done;
    }
    if (s->expired) {
        result = Py_False;
        Py_INCREF(result);
        goto done;
    }
    if (!sk.have) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    PyObject *rem = PyTuple_New(sk.best.nrem);
    if (!rem)
        goto done;
    for (int i = 0; i < sk.best.nrem; i++) {
        PyObject *pair = Py_BuildValue("(ii)", sk.best.rem[i] >> 4, sk.best.rem[i] & 15);
        if (!pair) {
            Py_DECREF(rem);
            goto done;
        }
        PyTuple_SET_ITEM(rem, i, pair);
    }
    result = Py_BuildValue("(diiiN)", sk.best.value, sk.best.size, sk.best.order,
                           sk.best.name, rem);
done:
    if (s)
        xc_free(s);
    free(s);
    free(seen);
    free(t.nkeys);
    PyBuffer_Release(&houses);
    PyBuffer_Release(&kinds);
    PyBuffer_Release(&cands);
    return result;
}

PyObject *np_xchain_names(void)
{
    Py_ssize_t count = (Py_ssize_t)(sizeof xc_names / sizeof xc_names[0]);
    PyObject *names = PyTuple_New(count);
    if (!names)
        return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyUnicode_FromString(xc_names[i]);
        if (!name) {
            Py_DECREF(names);
            return NULL;
        }
        PyTuple_SET_ITEM(names, i, name);
    }
    return names;
}

#endif /* NP_HAVE_XCHAIN */
