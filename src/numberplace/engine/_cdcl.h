/*
 * _cdcl.h: clause learning search for the hard puzzles of big shapes, a header of the
 * engine (_engine.c), which runs cdcl_search.
 *
 * On 16x16 and 25x25 grids a depth-first search can spend millions of nodes below a wrong
 * early choice: the minimal 25x25 puzzles that circulate are out of its reach. Learning
 * from each dead end is what reaches them, so after a fixed number of nodes without an
 * answer the engine runs this search instead.
 *
 * The puzzle is read as a satisfiability problem on one variable per (cell, value):
 * - every cell takes a value, and every house takes every value. These clauses are not
 *   watched: a mask per cell of its values not yet false, and one per (house, value) of
 *   the house's places not yet false, find when one is down to a single literal (a
 *   naked or hidden single) or to none;
 * - a cell takes one value only, a value goes in one cell of a house. These are the many
 *   two-literal clauses of the problem, and they are never stored: a variable made true
 *   makes the other values of its cell and its value in every peer false, each with the
 *   true variable as its reason.
 * A dead end yields a learnt clause (watched by two of its literals): the first unique
 * implication point, minimised by removing the literals its other literals imply, then
 * shrunk: the literals of one decision level are replaced by the one literal of that
 * level they all follow from, when what else that brings in is already implied (which
 * took a quarter off the time: learnt clauses went from 44 to 28 literals on average).
 * Variables are chosen by activity (the variables of recent dead ends first) with their
 * last value, restarts and the clauses kept follow the constants below. Unit
 * propagation is naked and hidden singles; locked candidates and the rest are learnt
 * as needed (propagating locked candidates too, with their long reasons, made the
 * learnt clauses longer and the search slower).
 *
 * The search is complete: after each solution a clause forbidding it is added and the
 * search goes on, so counts and statuses are as exact as the depth-first search's.
 */

#ifndef NUMBERPLACE_CDCL_H
#define NUMBERPLACE_CDCL_H

#include "_core.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Measured on the minimal 25x25 puzzles (bench/big.py). The search alternates two
   modes: focused, which restarts whenever the clauses learnt lately tie together
   CDCL_MARGIN times more levels than the average (an exponential moving average over
   about 1/CDCL_EMA_FAST conflicts against one over 1/CDCL_EMA_SLOW), and stable, which
   restarts on the Luby sequence in runs of CDCL_LUBY_UNIT conflicts; the first mode
   lasts CDCL_MODE_FIRST conflicts and each pair of them twice as long as the one before.
   Together they took a fifth off the time of Luby restarts alone. The learnt clauses
   are reduced after CDCL_FIRST_REDUCE conflicts, then CDCL_REDUCE_STEP more each time:
   those of two levels are kept, and those of up to CDCL_TIER2 levels that took part in
   a dead end since the last reduction; of the rest, CDCL_DROP percent go, those tying
   the most levels together first. Reducing this often, with those tiers, took a quarter
   off keeping more clauses longer (first after 10,000, then 1,000 more each time, half
   of them by levels alone). The activity decay and the first value tried (true: the
   value is placed) mattered less. */
#define CDCL_LUBY_UNIT 512
#define CDCL_EMA_FAST (1.0 / 33)
#define CDCL_EMA_SLOW 1e-5
#define CDCL_MARGIN 1.1
#define CDCL_MODE_FIRST 1000
#define CDCL_FIRST_REDUCE 2000
#define CDCL_REDUCE_STEP 300
#define CDCL_TIER2 6
#define CDCL_DROP 75
#define CDCL_DECAY 0.95

typedef struct {
    int32_t off;  /* clause offset in the arena */
    int32_t lit;  /* a literal of the clause: when it is true, the clause is not visited */
} Watch;

typedef struct {
    Watch *w;
    int n, cap;
} WatchList;

typedef struct {
    const Engine *e;
    int nv, nsym;
    int8_t *val;      /* per literal: 1 true, -1 false, 0 unknown */
    int32_t *level;   /* per variable */
    int32_t *reason;  /* per variable: clause offset, -1 none, or -2 - u: implied by true u */
    int32_t *trail;
    int32_t *tpos;   /* per variable: its place on the trail */
    uint8_t *shr;    /* per variable: in the level being shrunk */
    uint64_t *keys;
    int32_t *slist;
    int tn, qhead;
    int32_t *lim; /* trail length at the start of each decision level */
    int nlevels;
    /* clause arena: at offset o, size, then the levels it ties together (learnt, or 0:
       kept for good) or PROBLEM_CLAUSE, then a deleted flag, a used flag (took part in a
       dead end since the last reduction), where the last search for a watch ended, and
       the literals */
    int32_t *arena;
    size_t alen, acap, wasted;
    WatchList *watches; /* per literal: the clauses watching it */
    int32_t *learnts;
    int nlearnts, clearnts;
    double *act;
    double inc;
    int32_t *heap, *hpos;
    int hn;
    int8_t *phase;
    uint8_t *seen;
    int32_t *buf;    /* the clause being learnt */
    int32_t *marked; /* its literals before they were minimised, then the variables
                        found to follow from them */
    int32_t *stack;
    int32_t *stamp;  /* per level, for counting the levels of a clause */
    int32_t stamp_now;
    /* the problem's clauses are not watched: per cell the values not yet made false,
       per (house, value) the house's places not yet made false, with the clause each
       stands for; per cell its houses and its place in each */
    uint32_t *cmask, *hmask;
    int32_t *cclause, *hclause;
    int32_t *ch_start, *ch_house, *ch_pos;
    uint64_t conflicts;
} Cdcl;

#define C_HDR 5
/* In a clause's level slot: one of the problem's clauses, found unit by the masks and
   never watched nor deleted. */
#define PROBLEM_CLAUSE (-2)
#define LIT(v, neg) (2 * (v) + (neg))
#define VAR(l) ((l) >> 1)
#define NOT(l) ((l) ^ 1)

static void cdcl_free(Cdcl *c)
{
    if (c->watches)
        for (int i = 0; i < 2 * c->nv; i++)
            free(c->watches[i].w);
    free(c->watches);
    free(c->val);
    free(c->level);
    free(c->tpos);
    free(c->shr);
    free(c->keys);
    free(c->slist);
    free(c->reason);
    free(c->trail);
    free(c->lim);
    free(c->arena);
    free(c->learnts);
    free(c->act);
    free(c->heap);
    free(c->hpos);
    free(c->phase);
    free(c->seen);
    free(c->buf);
    free(c->marked);
    free(c->stack);
    free(c->stamp);
    free(c->cmask);
    free(c->hmask);
    free(c->cclause);
    free(c->hclause);
    free(c->ch_start);
    free(c->ch_house);
    free(c->ch_pos);
}

/* The tables of the problem's clauses; 0 if out of memory. */
static int masks_alloc(Cdcl *c)
{
    const Engine *e = c->e;
    const int nh = e->nhouses, nsym = e->nsym, ncells = e->ncells;
    c->cmask = malloc(sizeof(uint32_t) * (size_t)ncells);
    c->hmask = malloc(sizeof(uint32_t) * (size_t)nh * nsym);
    c->cclause = malloc(sizeof(int32_t) * (size_t)ncells);
    c->hclause = malloc(sizeof(int32_t) * (size_t)nh * nsym);
    c->ch_start = calloc((size_t)ncells + 1, sizeof(int32_t));
    c->ch_house = malloc(sizeof(int32_t) * (size_t)nh * nsym);
    c->ch_pos = malloc(sizeof(int32_t) * (size_t)nh * nsym);
    int32_t *fill = calloc((size_t)ncells, sizeof(int32_t));
    if (!c->cmask || !c->hmask || !c->cclause || !c->hclause || !c->ch_start ||
        !c->ch_house || !c->ch_pos || !fill) {
        free(fill);
        return 0;
    }
    for (int x = 0; x < ncells; x++)
        c->cmask[x] = e->full;
    for (int i = 0; i < nh * nsym; i++)
        c->hmask[i] = e->full;
    for (int h = 0; h < nh; h++)
        for (int k = 0; k < nsym; k++)
            c->ch_start[e->houses[h * nsym + k] + 1]++;
    for (int x = 0; x < ncells; x++)
        c->ch_start[x + 1] += c->ch_start[x];
    for (int h = 0; h < nh; h++)
        for (int k = 0; k < nsym; k++) {
            int x = e->houses[h * nsym + k];
            int at = c->ch_start[x] + fill[x]++;
            c->ch_house[at] = h;
            c->ch_pos[at] = k;
        }
    free(fill);
    return 1;
}

static int cdcl_alloc(Cdcl *c, const Engine *e)
{
    memset(c, 0, sizeof *c);
    c->e = e;
    c->nsym = e->nsym;
    c->nv = e->ncells * e->nsym;
    const size_t nv = (size_t)c->nv;
    c->val = calloc(2 * nv, 1);
    c->level = calloc(nv, sizeof(int32_t));
    c->tpos = calloc(nv, sizeof(int32_t));
    c->shr = calloc(nv, 1);
    c->keys = malloc((nv + 1) * sizeof(uint64_t));
    c->slist = malloc((nv + 1) * sizeof(int32_t));
    c->reason = malloc(nv * sizeof(int32_t));
    c->trail = malloc(nv * sizeof(int32_t));
    c->lim = malloc((nv + 1) * sizeof(int32_t));
    c->acap = 1 << 16;
    c->arena = malloc(c->acap * sizeof(int32_t));
    c->clearnts = 1024;
    c->learnts = malloc((size_t)c->clearnts * sizeof(int32_t));
    c->watches = calloc(2 * nv, sizeof(WatchList));
    c->act = calloc(nv, sizeof(double));
    c->heap = malloc(nv * sizeof(int32_t));
    c->hpos = malloc(nv * sizeof(int32_t));
    c->phase = malloc(nv);
    c->seen = calloc(nv, 1);
    c->buf = malloc((nv + 1) * sizeof(int32_t));
    c->marked = malloc((nv + 1) * sizeof(int32_t));
    c->stack = malloc((nv + 1) * sizeof(int32_t));
    c->stamp = calloc(nv + 2, sizeof(int32_t));
    c->inc = 1.0;
    if (!c->val || !c->level || !c->tpos || !c->shr || !c->keys || !c->slist ||
        !c->reason || !c->trail || !c->lim || !c->arena || !c->learnts || !c->watches ||
        !c->act || !c->heap || !c->hpos || !c->phase || !c->seen || !c->buf || !c->marked ||
        !c->stack || !c->stamp)
        return 0;
    for (int v = 0; v < c->nv; v++) {
        c->reason[v] = -1;
        c->phase[v] = 0; /* a literal's sign bit: first try the value placed */
        c->heap[v] = v;
        c->hpos[v] = v;
    }
    c->hn = c->nv;
    return 1;
}

/* ---- the activity heap (a max-heap of variables) */

static void heap_up(Cdcl *c, int i)
{
    int32_t v = c->heap[i];
    double a = c->act[v];
    while (i > 0) {
        int p = (i - 1) >> 1;
        if (c->act[c->heap[p]] >= a)
            break;
        c->heap[i] = c->heap[p];
        c->hpos[c->heap[i]] = i;
        i = p;
    }
    c->heap[i] = v;
    c->hpos[v] = i;
}

static void heap_down(Cdcl *c, int i)
{
    int32_t v = c->heap[i];
    double a = c->act[v];
    for (;;) {
        int l = 2 * i + 1;
        if (l >= c->hn)
            break;
        int r = l + 1;
        int m = (r < c->hn && c->act[c->heap[r]] > c->act[c->heap[l]]) ? r : l;
        if (c->act[c->heap[m]] <= a)
            break;
        c->heap[i] = c->heap[m];
        c->hpos[c->heap[i]] = i;
        i = m;
    }
    c->heap[i] = v;
    c->hpos[v] = i;
}

static void heap_insert(Cdcl *c, int32_t v)
{
    if (c->hpos[v] >= 0)
        return;
    c->heap[c->hn] = v;
    c->hpos[v] = c->hn;
    heap_up(c, c->hn++);
}

static int32_t heap_pop(Cdcl *c)
{
    int32_t v = c->heap[0];
    c->hpos[v] = -1;
    if (--c->hn > 0) {
        c->heap[0] = c->heap[c->hn];
        c->hpos[c->heap[0]] = 0;
        heap_down(c, 0);
    }
    return v;
}

static void bump(Cdcl *c, int32_t v)
{
    if ((c->act[v] += c->inc) > 1e100) {
        for (int i = 0; i < c->nv; i++)
            c->act[i] *= 1e-100;
        c->inc *= 1e-100;
    }
    if (c->hpos[v] >= 0)
        heap_up(c, c->hpos[v]);
}

/* ---- clauses */

static int watch(Cdcl *c, int32_t lit, int32_t off, int32_t blocker)
{
    WatchList *wl = &c->watches[lit];
    if (wl->n == wl->cap) {
        int cap = wl->cap ? 2 * wl->cap : 8;
        Watch *w = realloc(wl->w, (size_t)cap * sizeof(Watch));
        if (!w)
            return 0;
        wl->w = w;
        wl->cap = cap;
    }
    wl->w[wl->n].off = off;
    wl->w[wl->n].lit = blocker;
    wl->n++;
    return 1;
}

/* Store a clause of n >= 2 literals, watched by its first two; its offset, -1 if out of
   memory. */
static int32_t add_clause(Cdcl *c, const int32_t *lits, int n, int lbd)
{
    size_t need = c->alen + C_HDR + (size_t)n;
    if (need > INT32_MAX)
        return -1;
    if (need > c->acap) {
        size_t cap = c->acap;
        while (cap < need)
            cap *= 2;
        int32_t *a = realloc(c->arena, cap * sizeof(int32_t));
        if (!a)
            return -1;
        c->arena = a;
        c->acap = cap;
    }
    int32_t off = (int32_t)c->alen;
    int32_t *cl = c->arena + off;
    cl[0] = n;
    cl[1] = lbd;
    cl[2] = 0;
    cl[3] = 0;
    cl[4] = 2;
    memcpy(cl + C_HDR, lits, (size_t)n * sizeof(int32_t));
    c->alen = need;
    if (lbd != PROBLEM_CLAUSE &&
        (!watch(c, lits[0], off, lits[1]) || !watch(c, lits[1], off, lits[0])))
        return -1;
    return off;
}

static void assign(Cdcl *c, int32_t lit, int32_t reason)
{
    int32_t v = VAR(lit);
    c->val[lit] = 1;
    c->val[NOT(lit)] = -1;
    c->level[v] = c->nlevels;
    c->reason[v] = reason;
    c->tpos[v] = c->tn;
    c->trail[c->tn++] = lit;
}

/* A dead end: a clause whose literals are all false (off >= 0), or two true variables
   that exclude each other (a, b). */
typedef struct {
    int32_t off, a, b;
} Conflict;

/* A problem clause (at offset off) down to one literal not yet false, variable w's
   (w >= 0), or to none (w < 0): the literal is made true with the clause as its reason
   (first in the clause, as reasons are read), or the clause is the dead end (0). A
   literal made false but not yet propagated leaves the dead end to its own turn. */
static inline int unit(Cdcl *c, int32_t off, int32_t w, Conflict *k)
{
    if (w < 0) {
        k->off = off;
        return 0;
    }
    int32_t lit = LIT(w, 0);
    if (c->val[lit])
        return 1;
    int32_t *ls = c->arena + off + C_HDR;
    int i = 0;
    while (ls[i] != lit)
        i++;
    ls[i] = ls[0];
    ls[0] = lit;
    assign(c, lit, off);
    return 1;
}

/* Unit propagation from the trail's queue; 1 if no dead end was reached. */
static int propagate_units(Cdcl *c, Conflict *k)
{
    const Engine *e = c->e;
    const int nsym = c->nsym;
    int8_t *val = c->val;
    while (c->qhead < c->tn) {
        int32_t lit = c->trail[c->qhead++];
        if (!(lit & 1)) {
            /* a value placed: it leaves its cell's other values and its peers */
            int32_t u = VAR(lit);
            int cell = u / nsym, d = u % nsym;
            int32_t base = cell * nsym;
            for (int x = 0; x < nsym; x++) {
                int32_t v = base + x;
                if (x == d)
                    continue;
                int8_t s = val[LIT(v, 0)];
                if (s > 0) {
                    k->off = -1, k->a = u, k->b = v;
                    return 0;
                }
                if (!s)
                    assign(c, LIT(v, 1), -2 - u);
            }
            for (int i = e->peer_start[cell]; i < e->peer_start[cell + 1]; i++) {
                int32_t v = e->peers[i] * nsym + d;
                int8_t s = val[LIT(v, 0)];
                if (s > 0) {
                    k->off = -1, k->a = u, k->b = v;
                    return 0;
                }
                if (!s)
                    assign(c, LIT(v, 1), -2 - u);
            }
        } else {
            /* a value made false: the problem's clauses on it, by their masks */
            int32_t u = VAR(lit);
            int cell = u / nsym, d = u % nsym;
            uint32_t m = c->cmask[cell] &= ~(1u << d);
            if (!(m & (m - 1)) &&
                !unit(c, c->cclause[cell], m ? cell * nsym + __builtin_ctz(m) : -1, k))
                return 0;
            for (int q = c->ch_start[cell]; q < c->ch_start[cell + 1]; q++) {
                int h = c->ch_house[q], hd = h * nsym + d;
                m = c->hmask[hd] &= ~(1u << c->ch_pos[q]);
                if (!(m & (m - 1)) &&
                    !unit(c, c->hclause[hd],
                          m ? e->houses[h * nsym + __builtin_ctz(m)] * nsym + d : -1, k))
                    return 0;
            }
        }
        /* the clauses watching the literal just made false */
        int32_t f = NOT(lit);
        WatchList *wl = &c->watches[f];
        Watch *w = wl->w;
        int i = 0, j = 0, n = wl->n;
        while (i < n) {
            Watch wt = w[i++];
            if (val[wt.lit] > 0) {
                w[j++] = wt;
                continue;
            }
            int32_t *cl = c->arena + wt.off;
            if (cl[2])
                continue; /* deleted: the watch goes */
            int32_t *ls = cl + C_HDR;
            if (ls[0] == f) {
                ls[0] = ls[1];
                ls[1] = f;
            }
            int32_t first = ls[0];
            if (first != wt.lit && val[first] > 0) {
                wt.lit = first;
                w[j++] = wt;
                continue;
            }
            /* a literal not false, looked for from where the last search of this
               clause ended: a true one becomes the watch's blocker, another the clause's
               second watch */
            int size = cl[0], pos = cl[4], m = pos;
            int8_t mv = -1;
            while (m < size && (mv = val[ls[m]]) < 0)
                m++;
            if (m == size) {
                m = 2;
                while (m < pos && (mv = val[ls[m]]) < 0)
                    m++;
                if (m == pos)
                    mv = -1;
            }
            if (mv >= 0) {
                cl[4] = m;
                if (mv > 0) {
                    wt.lit = ls[m];
                    w[j++] = wt;
                } else {
                    ls[1] = ls[m];
                    ls[m] = f;
                    if (!watch(c, ls[1], wt.off, first))
                        return -1;
                }
                continue;
            }
            wt.lit = first;
            w[j++] = wt;
            if (val[first] < 0) {
                k->off = wt.off;
                while (i < n)
                    w[j++] = w[i++];
                wl->n = j;
                return 0;
            }
            assign(c, first, wt.off);
        }
        wl->n = j;
    }
    return 1;
}

static void cancel_until(Cdcl *c, int level)
{
    if (c->nlevels <= level)
        return;
    for (int i = c->tn - 1; i >= c->lim[level]; i--) {
        int32_t lit = c->trail[i];
        int32_t v = VAR(lit);
        if ((lit & 1) && i < c->qhead) {
            int cell = v / c->nsym, d = v % c->nsym;
            c->cmask[cell] |= 1u << d;
            for (int q = c->ch_start[cell]; q < c->ch_start[cell + 1]; q++)
                c->hmask[c->ch_house[q] * c->nsym + d] |= 1u << c->ch_pos[q];
        }
        c->val[lit] = c->val[NOT(lit)] = 0;
        c->phase[v] = (int8_t)(lit & 1);
        c->reason[v] = -1;
        heap_insert(c, v);
    }
    c->tn = c->qhead = c->lim[level];
    c->nlevels = level;
}

/* The false literals of the reason of variable v's value (v's own literal left out). */
static int reason_lits(const Cdcl *c, int32_t v, const int32_t **lits, int32_t *one)
{
    int32_t r = c->reason[v];
    if (r <= -2) {
        *one = LIT(-2 - r, 1);
        *lits = one;
        return 1;
    }
    const int32_t *cl = c->arena + r;
    *lits = cl + C_HDR + 1; /* the implied literal is first */
    return cl[0] - 1;
}

/* Whether variable v's value follows from the literals marked seen (the clause being
   learnt), following reasons back; the variables found to follow are marked too, and
   added to c->marked so their marks are cleared. levels_in: a bit per level (mod 32) of
   the clause's literals, to stop early at a variable of a level the clause lacks. */
static int implied(Cdcl *c, int32_t v, uint32_t levels_in, int *marked)
{
    int top = *marked, sp = 0;
    int32_t *stack = c->stack;
    stack[sp++] = v;
    while (sp) {
        int32_t x = stack[--sp];
        const int32_t *lits;
        int32_t one;
        int m = reason_lits(c, x, &lits, &one);
        for (int i = 0; i < m; i++) {
            int32_t u = VAR(lits[i]);
            if (c->seen[u] || c->level[u] == 0)
                continue;
            if (c->reason[u] == -1 || !(levels_in >> (c->level[u] & 31) & 1)) {
                for (int k = top; k < *marked; k++)
                    c->seen[VAR(c->marked[k])] = 0;
                *marked = top;
                return 0;
            }
            c->seen[u] = 1;
            c->marked[(*marked)++] = lits[i];
            stack[sp++] = u;
        }
    }
    return 1;
}

/* A learnt clause took part in a dead end: it is marked used, and its count of levels
   lowered if it now ties fewer together. */
static void touch(Cdcl *c, int32_t off)
{
    int32_t *cl = c->arena + off;
    if (cl[1] == PROBLEM_CLAUSE)
        return;
    cl[3] = 1;
    if (cl[1] <= 2)
        return;
    c->stamp_now++;
    int levels = 0;
    for (int i = 0; i < cl[0]; i++) {
        int l = c->level[VAR(cl[C_HDR + i])];
        if (c->stamp[l] != c->stamp_now) {
            c->stamp[l] = c->stamp_now;
            if (++levels >= cl[1])
                return;
        }
    }
    cl[1] = levels;
}

static int cmp_desc(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a > b ? -1 : a < b;
}

/* Shrink the block of the clause's literals of one level (buf[from..to), at least two)
   to the one literal of that level that all of them follow from, when the other
   literals their reasons bring in are in the clause or follow from it; 1 if it did,
   with that literal in buf[from]. */
static int shrink_block(Cdcl *c, int from, int to, uint32_t levels_in, int *marked)
{
    int level = c->level[VAR(c->buf[from])];
    int32_t *list = c->slist;
    int nl = 0, open = 0, idx = -1, ok = 1;
    int32_t uip = -1;
    for (int i = from; i < to; i++) {
        int32_t v = VAR(c->buf[i]);
        c->shr[v] = 1;
        list[nl++] = v;
        open++;
        if (c->tpos[v] > idx)
            idx = c->tpos[v];
    }
    for (; idx >= 0 && ok; idx--) {
        int32_t t = c->trail[idx];
        int32_t v = VAR(t);
        if (!c->shr[v])
            continue;
        if (open == 1) {
            uip = t;
            break;
        }
        open--;
        const int32_t *lits;
        int32_t one;
        int m = reason_lits(c, v, &lits, &one);
        for (int i = 0; i < m; i++) {
            int32_t u = VAR(lits[i]);
            int lu = c->level[u];
            if (lu == 0 || c->shr[u])
                continue;
            if (lu == level) {
                c->shr[u] = 1;
                list[nl++] = u;
                open++;
            } else if (!c->seen[u]) {
                /* a lower level's literal outside the clause: it must follow from it */
                if (c->reason[u] == -1 || !implied(c, u, levels_in, marked)) {
                    ok = 0;
                    break;
                }
                c->seen[u] = 1;
                c->marked[(*marked)++] = lits[i];
            }
        }
    }
    for (int i = 0; i < nl; i++)
        c->shr[list[i]] = 0;
    if (!ok || uip < 0)
        return 0;
    if (!c->seen[VAR(uip)]) {
        c->seen[VAR(uip)] = 1;
        c->marked[(*marked)++] = NOT(uip);
    }
    c->buf[from] = NOT(uip);
    return 1;
}

/* Shrink each level's block of the clause buf[0..n) (its first literal stays first); the
   clause's new size. */
static int shrink(Cdcl *c, int n, uint32_t levels_in, int *marked)
{
    if (n <= 2)
        return n;
    /* the other literals by level, deepest first */
    for (int i = 1; i < n; i++) {
        int32_t v = VAR(c->buf[i]);
        c->keys[i - 1] = ((uint64_t)c->level[v] << 32) | (uint32_t)c->buf[i];
    }
    qsort(c->keys, (size_t)(n - 1), sizeof(uint64_t), cmp_desc);
    for (int i = 1; i < n; i++)
        c->buf[i] = (int32_t)(uint32_t)c->keys[i - 1];
    int out = 1;
    for (int i = 1; i < n;) {
        int l = c->level[VAR(c->buf[i])], j = i + 1;
        while (j < n && c->level[VAR(c->buf[j])] == l)
            j++;
        if (j - i >= 2 && shrink_block(c, i, j, levels_in, marked)) {
            c->buf[out++] = c->buf[i];
        } else {
            for (int k = i; k < j; k++)
                c->buf[out++] = c->buf[k];
        }
        i = j;
    }
    return out;
}

/* Learn from a dead end: the clause in c->buf (its first literal the one to assert), its
   size, and the level to go back to. */
static int analyze(Cdcl *c, const Conflict *k, int *back, int *lbd)
{
    int n = 1, path = 0, idx = c->tn - 1;
    int32_t p = -1;
    int32_t pair[2], one;
    const int32_t *lits;
    int m;
    if (k->off >= 0) {
        lits = c->arena + k->off + C_HDR;
        m = c->arena[k->off];
        touch(c, k->off);
    } else {
        pair[0] = LIT(k->a, 1);
        pair[1] = LIT(k->b, 1);
        lits = pair;
        m = 2;
    }
    for (;;) {
        for (int i = 0; i < m; i++) {
            int32_t q = lits[i];
            int32_t v = VAR(q);
            if (c->seen[v] || c->level[v] == 0)
                continue;
            c->seen[v] = 1;
            bump(c, v);
            if (c->level[v] >= c->nlevels)
                path++;
            else
                c->buf[n++] = q;
        }
        while (!c->seen[VAR(c->trail[idx])])
            idx--;
        p = c->trail[idx--];
        c->seen[VAR(p)] = 0;
        if (--path == 0)
            break;
        m = reason_lits(c, VAR(p), &lits, &one);
        if (c->reason[VAR(p)] >= 0)
            touch(c, c->reason[VAR(p)]);
    }
    c->buf[0] = NOT(p);
    /* drop the literals implied by the others: a literal goes when every path back from
       it through the reasons ends in the clause or at level 0 */
    memcpy(c->marked, c->buf, (size_t)n * sizeof(int32_t));
    int marked = n;
    uint32_t levels_in = 0;
    for (int i = 1; i < n; i++)
        levels_in |= 1u << (c->level[VAR(c->buf[i])] & 31);
    int j = 1;
    for (int i = 1; i < n; i++) {
        int32_t v = VAR(c->buf[i]);
        if (c->reason[v] == -1 || !implied(c, v, levels_in, &marked))
            c->buf[j++] = c->buf[i];
    }
    n = shrink(c, j, levels_in, &marked);
    for (int i = 1; i < marked; i++)
        c->seen[VAR(c->marked[i])] = 0;
    /* the deepest other literal goes second: it is watched, and its level is the one to
       go back to */
    *back = 0;
    if (n > 1) {
        int best = 1;
        for (int i = 2; i < n; i++)
            if (c->level[VAR(c->buf[i])] > c->level[VAR(c->buf[best])])
                best = i;
        int32_t t = c->buf[1];
        c->buf[1] = c->buf[best];
        c->buf[best] = t;
        *back = c->level[VAR(c->buf[1])];
    }
    c->stamp_now++;
    int levels = 0;
    for (int i = 0; i < n; i++) {
        int l = c->level[VAR(c->buf[i])];
        if (c->stamp[l] != c->stamp_now) {
            c->stamp[l] = c->stamp_now;
            levels++;
        }
    }
    *lbd = levels;
    c->inc *= 1.0 / CDCL_DECAY;
    return n;
}

/* Move the live clauses to the front of the arena and rebuild the watches. */
static int collect(Cdcl *c)
{
    size_t to = 0;
    for (int i = 0; i < 2 * c->nv; i++)
        c->watches[i].n = 0;
    /* a reason's new offset: remembered in the old clause's deleted slot as -(new + 1) */
    size_t from = 0;
    while (from < c->alen) {
        int32_t *cl = c->arena + from;
        size_t len = C_HDR + (size_t)cl[0];
        if (!cl[2]) {
            cl[2] = -(int32_t)to - 1;
            to += len;
        }
        from += len;
    }
    for (int i = 0; i < c->tn; i++) {
        int32_t v = VAR(c->trail[i]);
        if (c->reason[v] >= 0)
            c->reason[v] = -c->arena[c->reason[v] + 2] - 1;
    }
    for (int i = 0; i < c->nlearnts; i++)
        c->learnts[i] = -c->arena[c->learnts[i] + 2] - 1;
    from = 0;
    while (from < c->alen) {
        int32_t *cl = c->arena + from;
        size_t len = C_HDR + (size_t)cl[0];
        if (cl[2] < 0) {
            size_t dst = (size_t)(-cl[2] - 1);
            memmove(c->arena + dst, cl, len * sizeof(int32_t));
            c->arena[dst + 2] = 0;
        }
        from += len;
    }
    c->alen = to;
    c->wasted = 0;
    from = 0;
    while (from < c->alen) {
        int32_t *cl = c->arena + from;
        if (cl[1] != PROBLEM_CLAUSE &&
            (!watch(c, cl[C_HDR], (int32_t)from, cl[C_HDR + 1]) ||
             !watch(c, cl[C_HDR + 1], (int32_t)from, cl[C_HDR])))
            return 0;
        from += C_HDR + (size_t)cl[0];
    }
    return 1;
}

/* Delete part of the learnt clauses: never those of two levels or fewer, nor those of
   up to CDCL_TIER2 levels used since the last reduction, nor a current reason; of the
   others CDCL_DROP percent go, those tying the most levels together (then the longest)
   first. */
static int reduce(Cdcl *c)
{
    uint64_t *keys = malloc(sizeof(uint64_t) * (size_t)(c->nlearnts + 1));
    if (!keys)
        return 0;
    int nk = 0, j = 0;
    for (int i = 0; i < c->nlearnts; i++) {
        int32_t off = c->learnts[i];
        int32_t *cl = c->arena + off;
        int32_t first = cl[C_HDR];
        int locked = c->val[first] > 0 && c->reason[VAR(first)] == off;
        int used = cl[3];
        cl[3] = 0;
        if (cl[1] <= 2 || locked || (used && cl[1] <= CDCL_TIER2)) {
            c->learnts[j++] = off;
            continue;
        }
        uint64_t rank = ((uint64_t)cl[1] << 16) | (uint64_t)(cl[0] > 0xffff ? 0xffff : cl[0]);
        keys[nk++] = (rank << 32) | (uint32_t)off;
    }
    qsort(keys, (size_t)nk, sizeof(uint64_t), cmp_desc);
    int drop = (int)((int64_t)nk * CDCL_DROP / 100);
    for (int i = 0; i < nk; i++) {
        int32_t off = (int32_t)(uint32_t)keys[i];
        int32_t *cl = c->arena + off;
        if (i < drop) {
            cl[2] = 1;
            c->wasted += C_HDR + (size_t)cl[0];
        } else {
            c->learnts[j++] = off;
        }
    }
    free(keys);
    c->nlearnts = j;
    if (c->wasted * 2 > c->alen)
        return collect(c);
    return 1;
}

static int remember_learnt(Cdcl *c, int32_t off)
{
    if (c->nlearnts == c->clearnts) {
        int cap = 2 * c->clearnts;
        int32_t *l = realloc(c->learnts, (size_t)cap * sizeof(int32_t));
        if (!l)
            return 0;
        c->learnts = l;
        c->clearnts = cap;
    }
    c->learnts[c->nlearnts++] = off;
    return 1;
}

/* The Luby sequence 1 1 2 1 1 2 4 1 1 2 ...: the i-th run's length in units. */
static uint64_t luby(int x)
{
    int size = 1, seq = 0;
    while (size < x + 1) {
        seq++;
        size = 2 * size + 1;
    }
    while (size - 1 != x) {
        size = (size - 1) >> 1;
        seq--;
        x = x % size;
    }
    return (uint64_t)1 << seq;
}

/* Add a clause forbidding a solution, at level 0 and kept for good (never among the
   learnt clauses that may be deleted); 0 if it makes the problem unsatisfiable, -1 if
   out of memory. */
static int add_root_clause(Cdcl *c, int32_t *lits, int n)
{
    int j = 0;
    for (int i = 0; i < n; i++) {
        int8_t s = c->val[lits[i]];
        if (s > 0)
            return 1;
        if (s == 0)
            lits[j++] = lits[i];
    }
    if (j == 0)
        return 0;
    if (j == 1) {
        assign(c, lits[0], -1);
        return 1;
    }
    int32_t off = add_clause(c, lits, j, 0);
    if (off < 0)
        return -1;
    return 1;
}

/* Search the puzzle in boards[0] (candidate masks, not yet propagated) by clause
   learning, adding to s's solutions, nodes and guesses. */
NP_UNUSED static void cdcl_search(Search *s)
{
    const Engine *e = s->e;
    const int ncells = e->ncells, nsym = e->nsym;
    const uint32_t *board = s->w->boards;
    Cdcl c;
    int ok = cdcl_alloc(&c, e) && masks_alloc(&c);
    int32_t *lits = ok ? malloc(sizeof(int32_t) * (size_t)(ncells > nsym ? ncells : nsym)) : NULL;
    if (!lits) {
        cdcl_free(&c);
        free(lits);
        s->aborted = 1;
        return;
    }
    /* the values a cell may not take, then the clauses */
    for (int cell = 0; cell < ncells && ok > 0; cell++)
        for (int d = 0; d < nsym; d++)
            if (!(board[cell] >> d & 1) && c.val[LIT(cell * nsym + d, 1)] == 0)
                assign(&c, LIT(cell * nsym + d, 1), -1);
    /* the problem's clauses, whole (their literals false at the root included), before
       any other so that collecting the arena never moves them */
    for (int cell = 0; cell < ncells && ok > 0; cell++) {
        for (int d = 0; d < nsym; d++)
            lits[d] = LIT(cell * nsym + d, 0);
        c.cclause[cell] = add_clause(&c, lits, nsym, PROBLEM_CLAUSE);
        ok = c.cclause[cell] >= 0 ? 1 : -1;
    }
    for (int h = 0; h < e->nhouses && ok > 0; h++)
        for (int d = 0; d < nsym && ok > 0; d++) {
            const int32_t *cells = e->houses + (size_t)h * nsym;
            for (int i = 0; i < nsym; i++)
                lits[i] = LIT(cells[i] * nsym + d, 0);
            int32_t *at = &c.hclause[h * nsym + d];
            *at = add_clause(&c, lits, nsym, PROBLEM_CLAUSE);
            ok = *at >= 0 ? 1 : -1;
        }
    Conflict k;
    if (ok > 0) {
        int r = propagate_units(&c, &k);
        ok = r < 0 ? -1 : r;
    }
    uint64_t since_restart = 0, reductions = 0, next_reduce = CDCL_FIRST_REDUCE;
    uint64_t restart_n = 0, next_restart = 0;
    double lbd_fast = 0, lbd_slow = 0;
    uint64_t mode_len = CDCL_MODE_FIRST, mode_end = mode_len;
    int focused = 1;
    while (ok > 0) {
        int r = propagate_units(&c, &k);
        if (r < 0) {
            ok = -1;
            break;
        }
        if (r == 0) {
            c.conflicts++;
            since_restart++;
            if (c.nlevels == 0) {
                ok = 0;
                break;
            }
            int back, lbd;
            int n = analyze(&c, &k, &back, &lbd);
            /* moving averages of the levels of the clauses learnt: the recent ones
               and all; early on each is the plain average so far */
            double t = (double)c.conflicts;
            lbd_fast += (1.0 / t > CDCL_EMA_FAST ? 1.0 / t : CDCL_EMA_FAST) * (lbd - lbd_fast);
            lbd_slow += (1.0 / t > CDCL_EMA_SLOW ? 1.0 / t : CDCL_EMA_SLOW) * (lbd - lbd_slow);
            cancel_until(&c, back);
            if (n == 1) {
                assign(&c, c.buf[0], -1);
            } else {
                int32_t off = add_clause(&c, c.buf, n, lbd);
                if (off < 0 || !remember_learnt(&c, off)) {
                    ok = -1;
                    break;
                }
                assign(&c, c.buf[0], off);
            }
            if ((c.conflicts & 255) == 0 && np_out_of_time(s)) {
                ok = -1;
                break;
            }
            continue;
        }
        if (c.conflicts >= mode_end) {
            focused = !focused;
            if (focused)
                mode_len *= 2;
            mode_end = c.conflicts + mode_len;
            since_restart = 0;
            restart_n = 0;
            next_restart = luby(0) * CDCL_LUBY_UNIT;
        }
        if (focused ? since_restart >= 2 && lbd_fast > CDCL_MARGIN * lbd_slow
                    : since_restart >= next_restart) {
            since_restart = 0;
            restart_n++;
            next_restart = luby((int)restart_n) * CDCL_LUBY_UNIT;
            cancel_until(&c, 0);
        }
        if (c.conflicts >= next_reduce) {
            reductions++;
            next_reduce = c.conflicts + CDCL_FIRST_REDUCE + CDCL_REDUCE_STEP * reductions;
            if (!reduce(&c)) {
                ok = -1;
                break;
            }
        }
        /* the most active unassigned variable, with its last value */
        int32_t v = -1;
        while (c.hn) {
            int32_t t = heap_pop(&c);
            if (!c.val[LIT(t, 0)]) {
                v = t;
                break;
            }
        }
        if (v < 0) {
            /* every variable has a value: a solution */
            uint32_t *sol = s->w->boards + ncells; /* a spare board */
            int m = 0;
            for (int cell = 0; cell < ncells; cell++) {
                for (int d = 0; d < nsym; d++) {
                    int32_t x = cell * nsym + d;
                    if (c.val[LIT(x, 0)] > 0) {
                        sol[cell] = 1u << d;
                        if (c.level[x] > 0)
                            lits[m++] = LIT(x, 1);
                        break;
                    }
                }
            }
            np_record_solution(s, sol);
            if (s->count >= s->limit || s->interrupted)
                break;
            cancel_until(&c, 0);
            ok = add_root_clause(&c, lits, m);
            continue;
        }
        s->nodes++;
        s->guesses++;
        if (np_over_budget(s)) {
            ok = -1;
            break;
        }
        c.lim[c.nlevels++] = c.tn;
        assign(&c, LIT(v, c.phase[v]), -1);
    }
    if (ok < 0)
        s->aborted = 1;
    free(lits);
    cdcl_free(&c);
}

#endif /* NUMBERPLACE_CDCL_H */
