/*
 * _engine.c: the compiled search engine, numberplace._core's Engine type.
 *
 * One engine serves every shape. Python describes a shape once as flat arrays (the cells
 * of each house, the peers of each cell) and gets an Engine object back. Each call has its
 * own scratch memory (one allocation per call, so a batch costs none per puzzle), and the
 * GIL is released while it searches: threads may share one Engine.
 *
 * A search stops cleanly at its node or time budget, and at a signal: in the main thread,
 * about every 20 ms it takes the GIL back for a moment to let Python run its signal
 * handlers (Ctrl-C raises KeyboardInterrupt there), and gives up when one raised. Other
 * threads run no handlers, so their searches never wait for the GIL.
 *
 * The board is one candidate mask per cell (bit v-1 for value v). The search is the same
 * as the pure-Python reference (engine/_pure.py): assign single-candidate cells and remove
 * their value from peers, place hidden singles house by house, apply cage sums (_sums.c)
 * and locked candidates over every pair of houses sharing two or more cells when singles
 * run out, then branch on the cell with the fewest candidates (ties: most unfilled
 * peers), each branch on its own copy of the board. A cell is queued once per branch,
 * when its mask drops to a single bit.
 *
 * Classic 9x9 puzzles without pencil marks go to a specialised bit-board solver
 * (_fast9.h) when it is present, in its vector form (_vec9.h) on processors with
 * AVX-512. On shapes of 16 or more symbols without sums, a search that has taken
 * LEARN_AFTER_NODES nodes without an answer goes on by clause learning (_cdcl.h), which
 * the pure-Python reference does not do. These three headers are this unit's own.
 *
 * Engine.lines, which reads and writes a block of one-line puzzles for the command line,
 * is in cli/_lines.c; the module's other functions that pack a shape's arrays
 * (pack_int32, pack_groups, peer_arrays) are here, with vector9.
 */
#include "_core.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef NP_HAVE_FAST9
#include "_fast9.h"
#if __has_include("_vec9.h")
#include "_vec9.h"
#endif
#endif

#ifdef NP_HAVE_VEC9
/* 1 when 9x9 searches take the vector form (_vec9.h): set at import where the processor
   runs AVX-512 (unless NUMBERPLACE_VECTOR9=0); vector9() switches it (tests compare the
   two forms). */
static int use_vec9;
#endif

double np_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t np_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define FIRST_RESTART 100

/* Scratch memory for a search (``boards`` boards: one a level of the depth-first
   search, and two more), or for a propagation alone (one board). */
static int scratch_alloc_boards(Scratch *w, const Engine *e, int boards)
{
    const int ncells = e->ncells;
    if (e->sums_len) {
        w->weight = calloc((size_t)ncells, sizeof(uint32_t));
        w->restart_budget = w->restart_at = FIRST_RESTART;
        if (!w->weight)
            return 0;
    }
    if (e->sums_len && e->nsym <= EXACT_SUMS_MAX) {
        w->mark = calloc((size_t)1 << e->nsym, 1);
        w->reached = malloc(sizeof(uint32_t) << e->nsym);
        w->fixed = calloc((size_t)e->sums_len, sizeof(uint32_t));
        if (!w->mark || !w->reached || !w->fixed)
            return 0;
    }
    w->boards = malloc(sizeof(uint32_t) * (size_t)boards * ncells);
    w->branch_cell = malloc(sizeof(int32_t) * (ncells + 2));
    w->untried = malloc(sizeof(uint32_t) * (ncells + 2));
    w->queue = malloc(sizeof(int32_t) * (ncells + 2));
    return w->boards && w->branch_cell && w->untried && w->queue;
}

static int scratch_alloc(Scratch *w, const Engine *e)
{
    return scratch_alloc_boards(w, e, e->ncells + 2);
}

void np_scratch_free(Scratch *w)
{
    free(w->boards);
    free(w->branch_cell);
    free(w->untried);
    free(w->queue);
    free(w->mark);
    free(w->reached);
    free(w->fixed);
    free(w->weight);
}

/* A dead end: the cells that took part weigh more when the next branch cell is chosen. */
void np_blame(Scratch *w, const int32_t *cells, int n)
{
    if (w->weight)
        for (int i = 0; i < n; i++)
            w->weight[cells[i]]++;
}

/* Pass the stored solutions to the callable (the GIL held); 0 if it raised. */
static int pass_solutions(Search *s)
{
    if (!s->stored)
        return 1;
    PyObject *blob = PyBytes_FromStringAndSize((const char *)s->out,
                                               (Py_ssize_t)s->stored * s->e->ncells);
    s->stored = 0;
    if (!blob)
        return 0;
    PyObject *r = PyObject_CallOneArg(s->on_batch, blob);
    Py_DECREF(blob);
    if (!r)
        return 0;
    Py_DECREF(r);
    return 1;
}

/* Let Python run its signal handlers; 1 if one raised (the search must stop). */
int np_signalled(Search *s, double now)
{
    if (s->interrupted)
        return 1;
    if (!s->tstate || !s->signals || now < s->next_signal_check)
        return 0;
    s->next_signal_check = now + SIGNAL_CHECK_SECONDS;
    PyEval_RestoreThread(s->tstate);
    int raised = PyErr_CheckSignals() < 0;
    s->tstate = PyEval_SaveThread();
    if (raised)
        s->interrupted = 1;
    return raised;
}

/* Release the GIL for a search: signals are checked from now on, in the main thread. In
   another thread no handler could run, and taking the GIL back to let them would only
   make the search wait while other threads hold it. */
void np_search_begin(Search *s)
{
    s->next_signal_check = 0;
    s->signals = np_in_main_thread();
    s->tstate = PyEval_SaveThread();
}

/* Take the GIL back; 0 if a signal handler raised (its exception is set). */
int np_search_end(Search *s)
{
    PyEval_RestoreThread(s->tstate);
    s->tstate = NULL;
    return !s->interrupted;
}

/* Remove the values elim from cells; 0 if a cell is left with none. */
static int remove_values(uint32_t *board, const int32_t *cells, int n, uint32_t elim,
                         int32_t *queue, int *qn)
{
    for (int i = 0; i < n; i++) {
        int c = cells[i];
        uint32_t m = board[c];
        if (m & elim) {
            m &= ~elim;
            if (!m)
                return 0;
            board[c] = m;
            if (!(m & (m - 1)))
                queue[(*qn)++] = c;
        }
    }
    return 1;
}

/* One pass of locked candidates over house pairs: a value that one house can only hold
   inside the cells it shares with another is removed from the rest of the other.
   Returns 1 if anything was removed, 0 if not, -1 on a contradiction. */
static int locked_candidates(const Engine *e, uint32_t *board, int32_t *queue, int *qn)
{
    int changed = 0;
    const int32_t *p = e->pairs, *end = e->pairs + e->pairs_len;
    while (p < end) {
        int ns = p[0], na = p[1], nb = p[2];
        const int32_t *shared = p + 3, *rest_a = shared + ns, *rest_b = rest_a + na;
        p = rest_b + nb;
        uint32_t inside = 0, out_a = 0, out_b = 0;
        for (int i = 0; i < ns; i++)
            inside |= board[shared[i]];
        for (int i = 0; i < na; i++)
            out_a |= board[rest_a[i]];
        for (int i = 0; i < nb; i++)
            out_b |= board[rest_b[i]];
        uint32_t elim = inside & ~out_a & out_b;
        if (elim) {
            changed = 1;
            if (!remove_values(board, rest_b, nb, elim, queue, qn))
                return -1;
            out_b &= ~elim;
        }
        elim = inside & ~out_b & out_a;
        if (elim) {
            changed = 1;
            if (!remove_values(board, rest_a, na, elim, queue, qn))
                return -1;
        }
    }
    return changed;
}

/* Assign queued cells and hidden singles until nothing changes, then sums and (with
   locked) locked candidates, and again. 0 on a contradiction. */
static inline int propagate_rules(const Engine *e, Scratch *w, uint32_t *board, int qn,
                                  int locked)
{
    int32_t *queue = w->queue;
    const int32_t *peers = e->peers, *ps = e->peer_start;
    const int nsym = e->nsym, nh = e->nhouses;
    const uint32_t full = e->full;
    for (;;) {
        while (qn) {
            int cell = queue[--qn];
            uint32_t bit = board[cell];
            for (int k = ps[cell]; k < ps[cell + 1]; k++) {
                int p = peers[k];
                uint32_t m = board[p];
                if (m & bit) {
                    m ^= bit;
                    if (!m) {
                        int32_t pair[2] = {cell, p};
                        np_blame(w, pair, 2);
                        return 0;
                    }
                    board[p] = m;
                    if (!(m & (m - 1)))
                        queue[qn++] = p;
                }
            }
        }
        for (int h = 0; h < nh; h++) {
            const int32_t *cells = e->houses + (size_t)h * nsym;
            uint32_t once = 0, twice = 0, placed = 0;
            for (int i = 0; i < nsym; i++) {
                uint32_t m = board[cells[i]];
                twice |= once & m;
                once |= m;
                if (!(m & (m - 1)))
                    placed |= m;
            }
            if (once != full) {
                np_blame(w, cells, nsym);
                return 0;
            }
            uint32_t hidden = once & ~twice & ~placed;
            while (hidden) {
                uint32_t bit = hidden & (~hidden + 1);
                hidden ^= bit;
                for (int i = 0; i < nsym; i++) {
                    int c = cells[i];
                    if (board[c] & bit) {
                        board[c] = bit;
                        queue[qn++] = c;
                        break;
                    }
                }
            }
        }
        if (qn)
            continue;
        if (e->sums_len) {
            /* the pass counts the cells it queues in a copy: given the address of qn, a
               function of another unit would keep qn in memory through the loops above */
            int queued = qn;
            int narrowed = np_sums_pass(e, w, board, queue, &queued);
            qn = queued;
            if (narrowed < 0)
                return 0;
            if (narrowed)
                continue;
        }
        if (!locked)
            return 1;
        int changed = locked_candidates(e, board, queue, &qn);
        if (changed < 0)
            return 0;
        if (!changed)
            return 1;
    }
}

static int propagate(const Engine *e, Scratch *w, uint32_t *board, int qn)
{
    return propagate_rules(e, w, board, qn, 1);
}

static int unfilled_peers(const Engine *e, const uint32_t *board, int cell)
{
    int k = 0;
    for (int i = e->peer_start[cell]; i < e->peer_start[cell + 1]; i++) {
        uint32_t m = board[e->peers[i]];
        k += (m & (m - 1)) != 0;
    }
    return k;
}

/* The unfilled cell with the fewest candidates (on shapes with sums: the fewest for its
   weight, k / (1 + weight)); among equals, the one with the most unfilled peers (its
   choice constrains the most). -1 if every cell is filled. */
static int branch_cell(const Engine *e, const Scratch *w, const uint32_t *board)
{
    int best = -1, best_degree = -1;
    uint64_t best_k = 99, best_w = 1;
    for (int c = 0; c < e->ncells; c++) {
        uint32_t m = board[c];
        if (m & (m - 1)) {
            uint64_t k = (uint64_t)__builtin_popcount(m);
            uint64_t wt = w->weight ? 1 + (uint64_t)w->weight[c] : 1;
            if (k * best_w < best_k * wt) {
                best = c;
                best_k = k;
                best_w = wt;
                best_degree = -1;
            } else if (k * best_w == best_k * wt) {
                if (best_degree < 0)
                    best_degree = unfilled_peers(e, board, best);
                int d = unfilled_peers(e, board, c);
                if (d > best_degree) {
                    best = c;
                    best_k = k;
                    best_w = wt;
                    best_degree = d;
                }
            }
        }
    }
    return best;
}

/* The time limit passed, or a signal handler raised: the search must stop. */
int np_out_of_time(Search *s)
{
    double now = np_now_seconds();
    return (s->deadline > 0 && now > s->deadline) || np_signalled(s, now);
}

int np_over_budget(Search *s)
{
    if (s->node_limit && s->nodes >= s->node_limit)
        return 1;
    if (s->nodes & 255)
        return 0;
    return np_out_of_time(s);
}

void np_record_solution(Search *s, const uint32_t *board)
{
    const int n = s->e->ncells;
    int slot = s->on_batch ? s->stored : s->count;
    if (slot < s->keep) {
        uint8_t *dst = s->out + (size_t)slot * n;
        for (int c = 0; c < n; c++)
            dst[c] = (uint8_t)(__builtin_ctz(board[c]) + 1);
    }
    s->count++;
    if (s->on_batch && ++s->stored == s->keep) {
        PyEval_RestoreThread(s->tstate);
        int ok = pass_solutions(s);
        s->tstate = PyEval_SaveThread();
        if (!ok) {
            s->interrupted = 1; /* the callable's exception is set: stop */
            s->aborted = 1;
        }
    }
}

/* Depth-first search from boards[0], whose single cells have not been propagated yet. */
static void general_search(Search *s)
{
    const Engine *e = s->e;
    const int n = e->ncells;
    Scratch *w = s->w;
    uint32_t *boards = w->boards;
    int32_t *queue = w->queue;
    int qn = 0;
    for (int c = 0; c < n; c++) {
        uint32_t m = boards[c];
        if (!m)
            return;
        if (!(m & (m - 1)))
            queue[qn++] = c;
    }
    s->nodes = 1;
    if (!propagate(e, w, boards, qn))
        return;
    int depth = 0;
    for (;;) {
        /* boards[depth] is consistent and fully propagated */
        uint32_t *board = boards + (size_t)depth * n;
        int cell = branch_cell(e, w, board);
        if (cell < 0) {
            np_record_solution(s, board);
            if (s->count >= s->limit || s->interrupted)
                return;
            depth--;
        } else {
            w->branch_cell[depth] = cell;
            w->untried[depth] = board[cell];
            s->guesses++;
        }
        /* find the next untried branch, backtracking as needed */
        for (;;) {
            if (depth < 0)
                return;
            uint32_t untried = w->untried[depth];
            if (!untried) {
                depth--;
                continue;
            }
            uint32_t bit = untried & (~untried + 1);
            w->untried[depth] = untried ^ bit;
            int c = w->branch_cell[depth];
            uint32_t *child = boards + (size_t)(depth + 1) * n;
            memcpy(child, boards + (size_t)depth * n, sizeof(uint32_t) * n);
            child[c] = bit;
            s->nodes++;
            if (np_over_budget(s)) {
                s->aborted = 1;
                return;
            }
            if (w->weight && s->count == 0 && s->nodes >= w->restart_at) {
                /* no solution yet: start again from the top, where the weights the dead
                   ends left now choose the branch cells (each run gets half as long
                   again, so the last one always finishes) */
                w->restart_budget += w->restart_budget / 2;
                w->restart_at = s->nodes + w->restart_budget;
                depth = 0;
                w->branch_cell[0] = branch_cell(e, w, boards);
                w->untried[0] = boards[w->branch_cell[0]];
                s->guesses++;
                continue;
            }
            queue[0] = c;
            if (propagate(e, w, child, 1)) {
                depth++;
                break;
            }
        }
    }
}

#ifdef NP_HAVE_FAST9
static int fast9_should_stop(void *arg)
{
    return np_out_of_time(arg);
}

/* One plain 9x9 search by the bit-board solver. The vector form (where the processor has
   AVX-512) branches in another order than the scalar form and the general engine, so
   where solutions are kept and it is not their order that is asked for, it is used only
   while its answer is the same: a count of solutions (none kept), or a unique solution.
   A search it finds several solutions for, with solutions kept, runs again in the scalar
   form, so that every engine gives them in the same order (the first solution of an
   empty grid, from which random grids are made, is the same on every processor). */
static void fast9_search(Search *s, const uint8_t *givens)
{
    f9_stats st = {0, 0};
    int aborted = 0;
    int (*stop)(void *) = s->deadline > 0 || s->tstate ? fast9_should_stop : NULL;
    int kept = s->out && s->keep > 0;
    int (*solve)(const uint8_t *, int, uint64_t, int (*)(void *), void *, uint8_t *, int,
                 f9_stats *, int *) = f9_solve;
#ifdef NP_HAVE_VEC9
    if (__atomic_load_n(&use_vec9, __ATOMIC_RELAXED) && (s->limit >= 2 || !kept))
        solve = v9_solve;
#endif
    s->count = solve(givens, s->limit, s->node_limit, stop, s, s->out, s->keep, &st, &aborted);
    s->aborted = aborted;
    s->nodes = st.nodes;
    s->guesses = st.guesses;
    if (solve == f9_solve || aborted || s->count <= 1 || !kept || s->interrupted)
        return;
    /* several solutions, kept: the scalar form's, if it finishes within what is left of
       the node limit (both searches together stay within it) and the time limit */
    uint64_t left = s->node_limit ? s->node_limit - s->nodes : 0;
    int keep = s->keep < s->count ? s->keep : s->count;
    uint8_t *again = s->node_limit && !left ? NULL : malloc((size_t)keep * 81);
    if (!again)
        return;
    int count = f9_solve(givens, s->limit, left, stop, s, again, keep, &st, &aborted);
    s->nodes += st.nodes;
    s->guesses += st.guesses;
    if (!aborted && count == s->count)
        memcpy(s->out, again, (size_t)keep * 81);
    free(again);
}
#endif

/* Candidate masks before propagation: givens as single bits, else the pencil marks
   (cands, or NULL for every value). */
static void initial_board(const Engine *e, uint32_t *board, const uint8_t *givens,
                          const uint32_t *cands)
{
    for (int c = 0; c < e->ncells; c++) {
        uint8_t v = givens[c];
        if (v)
            board[c] = (v <= e->nsym) ? (1u << (v - 1)) : 0;
        else
            board[c] = cands ? (cands[c] & e->full) : e->full;
    }
}

#include "_cdcl.h"

/* Shapes of this many symbols or more, without sums, go on by clause learning when the
   depth-first search has taken this many nodes without an answer. */
#define LEARN_MIN_SYMBOLS 16
#define LEARN_AFTER_NODES 20000
/* On shapes of this many symbols or more, sooner: 20,000 nodes of a 25x25 take 0.35 s,
   most of the time of the easier minimal 25x25 puzzles, and 2,000 took a third off it. */
#define LEARN_BIG_SYMBOLS 25
#define LEARN_AFTER_NODES_BIG 2000

/* Run one search. givens: ncells values; cands: ncells masks or NULL. */
void np_run_search(Search *s, const uint8_t *givens, const uint32_t *cands)
{
    const Engine *e = s->e;
    s->count = 0;
    s->aborted = 0;
    s->nodes = 0;
    s->guesses = 0;
    long long learn_after = s->learn_after;
    if (learn_after == 0)
        learn_after = e->nsym >= LEARN_BIG_SYMBOLS  ? LEARN_AFTER_NODES_BIG
                      : e->nsym >= LEARN_MIN_SYMBOLS ? LEARN_AFTER_NODES
                                                     : -1;
    if (e->sums_len || s->on_batch)
        learn_after = -1;
#ifdef NP_HAVE_FAST9
    if (e->fast9 && !cands && !s->on_batch && learn_after < 0) {
        fast9_search(s, givens);
        return;
    }
#endif
    initial_board(e, s->w->boards, givens, cands);
    if (learn_after < 0) {
        general_search(s);
    } else {
        uint64_t asked = s->node_limit, after = (uint64_t)learn_after;
        if (!asked || asked > after)
            s->node_limit = after;
        general_search(s);
        s->node_limit = asked;
        if (s->aborted && !s->interrupted && s->nodes >= after && (!asked || s->nodes < asked)) {
            /* boards[0] holds the root, propagated; the solutions are found again */
            s->aborted = 0;
            s->count = 0;
            cdcl_search(s);
        }
    }
    if (s->nodes == 0)
        s->nodes = 1;
}

/* ---------------------------------------------------------------- Python glue */

/* A batch's scratch memory, and its limit made at least 1; 0 with MemoryError set. */
int np_batch_begin(Scratch *w, const Engine *e, int *limit)
{
    if (*limit < 1)
        *limit = 1;
    if (!scratch_alloc(w, e)) {
        PyErr_NoMemory();
        return 0;
    }
    return 1;
}

/* 1 if every cell index is below ncells; else 0 with a ValueError naming what. */
static int cells_in_range(const int32_t *cells, Py_ssize_t n, int ncells, const char *what)
{
    for (Py_ssize_t i = 0; i < n; i++)
        if (cells[i] < 0 || cells[i] >= ncells) {
            PyErr_Format(PyExc_ValueError, "%s cell out of range", what);
            return 0;
        }
    return 1;
}

static void Engine_dealloc(Engine *self)
{
    free(self->houses);
    free(self->peer_start);
    free(self->peers);
    free(self->pairs);
    free(self->sums);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Engine_init(Engine *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"ncells", "nsym",  "houses", "peer_start",
                             "peers",  "fast9", "pairs",  "sums", NULL};
    int ncells, nsym, fast9 = 0;
    Py_buffer houses, pstart, peers, pairs = {0}, sums = {0};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiy*y*y*|py*y*", kwlist, &ncells, &nsym,
                                     &houses, &pstart, &peers, &fast9, &pairs, &sums))
        return -1;
    int ok = 0;
    if (ncells < 1 || nsym < 1 || nsym > 31 || houses.len % (sizeof(int32_t) * nsym) ||
        pstart.len != (Py_ssize_t)sizeof(int32_t) * (ncells + 1)) {
        PyErr_SetString(PyExc_ValueError, "inconsistent shape arrays");
        goto done;
    }
    self->ncells = ncells;
    self->nsym = nsym;
    self->nhouses = (int)(houses.len / (sizeof(int32_t) * nsym));
    self->full = (nsym == 32) ? 0xffffffffu : ((1u << nsym) - 1);
    self->houses = malloc(houses.len);
    self->peer_start = malloc(pstart.len);
    self->peers = malloc(peers.len ? peers.len : 1);
    self->pairs_len = pairs.obj ? pairs.len / 4 : 0;
    self->pairs = malloc(pairs.obj && pairs.len ? pairs.len : 1);
    self->sums_len = sums.obj ? sums.len / 4 : 0;
    self->sums = malloc(sums.obj && sums.len ? sums.len : 1);
    if (!self->houses || !self->peer_start || !self->peers || !self->pairs || !self->sums) {
        PyErr_NoMemory();
        goto done;
    }
    if (self->sums_len)
        memcpy(self->sums, sums.buf, sums.len);
    /* walk the cage records once so the search never reads past their end */
    for (Py_ssize_t i = 0; i < self->sums_len;) {
        if (i + 2 > self->sums_len) {
            PyErr_SetString(PyExc_ValueError, "truncated cage record");
            goto done;
        }
        int32_t n = self->sums[i], nsets = self->sums[i + 1];
        int repeats = nsets == 1 && i + 2 + n < self->sums_len && n >= 1
                      && self->sums[i + 2 + n] < 0;
        if (n < 1 || n > (repeats ? REPEATS_MAX_CELLS : nsym) || nsets < 0
            || i + 2 + n + nsets > self->sums_len
            || (repeats && (-self->sums[i + 2 + n] > n * nsym
                            || nsym > 32 || n * nsym >= 64 * REPEATS_MAX_WORDS))) {
            PyErr_SetString(PyExc_ValueError, "bad cage record");
            goto done;
        }
        if (!cells_in_range(self->sums + i + 2, n, ncells, "cage"))
            goto done;
        i += 2 + n + nsets;
    }
    memcpy(self->houses, houses.buf, houses.len);
    memcpy(self->peer_start, pstart.buf, pstart.len);
    memcpy(self->peers, peers.buf, peers.len);
    if (self->pairs_len)
        memcpy(self->pairs, pairs.buf, pairs.len);
    /* walk the pair records once so the search never reads past their end */
    for (Py_ssize_t i = 0; i < self->pairs_len;) {
        if (i + 3 > self->pairs_len) {
            PyErr_SetString(PyExc_ValueError, "truncated house pair record");
            goto done;
        }
        int32_t ns = self->pairs[i], na = self->pairs[i + 1], nb = self->pairs[i + 2];
        if (ns < 0 || na < 0 || nb < 0 || i + 3 + ns + na + nb > self->pairs_len) {
            PyErr_SetString(PyExc_ValueError, "bad house pair record");
            goto done;
        }
        if (!cells_in_range(self->pairs + i + 3, ns + na + nb, ncells, "house pair"))
            goto done;
        i += 3 + ns + na + nb;
    }
    if (!cells_in_range(self->houses, houses.len / 4, ncells, "house"))
        goto done;
    for (int i = 0; i < ncells; i++)
        if (self->peer_start[i] > self->peer_start[i + 1]) {
            PyErr_SetString(PyExc_ValueError, "peer offsets out of order");
            goto done;
        }
    if (self->peer_start[0] != 0 || self->peer_start[ncells] * 4 != peers.len) {
        PyErr_SetString(PyExc_ValueError, "peer offsets do not match the peers array");
        goto done;
    }
    if (!cells_in_range(self->peers, peers.len / 4, ncells, "peer"))
        goto done;
#ifdef NP_HAVE_FAST9
    self->fast9 = fast9 && ncells == 81 && nsym == 9;
#else
    (void)fast9;
    self->fast9 = 0;
#endif
    ok = 1;
done:
    PyBuffer_Release(&houses);
    PyBuffer_Release(&pstart);
    PyBuffer_Release(&peers);
    if (pairs.obj)
        PyBuffer_Release(&pairs);
    if (sums.obj)
        PyBuffer_Release(&sums);
    return ok ? 0 : -1;
}

static int check_givens(const Engine *self, const Py_buffer *g, Py_ssize_t count)
{
    if (g->len != (Py_ssize_t)self->ncells * count) {
        PyErr_SetString(PyExc_ValueError, "givens have the wrong length");
        return 0;
    }
    const uint8_t *p = g->buf;
    for (Py_ssize_t i = 0; i < g->len; i++)
        if (p[i] > self->nsym) {
            PyErr_SetString(PyExc_ValueError, "a given is out of range");
            return 0;
        }
    return 1;
}

/* The pencil marks argument: None, or ncells uint32 masks (held in cb). 0 on an error. */
static int get_candidates(const Engine *self, PyObject *obj, Py_buffer *cb)
{
    if (obj == Py_None)
        return 1;
    if (PyObject_GetBuffer(obj, cb, PyBUF_SIMPLE) < 0)
        return 0;
    if (cb->len != (Py_ssize_t)sizeof(uint32_t) * self->ncells) {
        PyErr_SetString(PyExc_ValueError, "candidates have the wrong length");
        return 0;
    }
    return 1;
}

/* solve(givens, cands, limit, keep, node_limit, time_limit[, on_batch])
   -> (count, aborted, solutions: bytes, nodes, guesses). With on_batch, solutions are
   passed to it as bytes of up to `keep` solutions each, as they are found. */
static PyObject *Engine_solve(Engine *self, PyObject *args)
{
    Py_buffer g, cb = {0};
    PyObject *cands_obj, *on_batch = Py_None;
    int limit, keep;
    unsigned long long node_limit;
    double time_limit;
    long long learn_after = 0;
    if (!PyArg_ParseTuple(args, "y*OiiKd|OL", &g, &cands_obj, &limit, &keep, &node_limit,
                          &time_limit, &on_batch, &learn_after))
        return NULL;
    PyObject *result = NULL;
    uint8_t *out = NULL;
    const uint32_t *cands = NULL;
    Scratch w = {0};
    if (!check_givens(self, &g, 1))
        goto done;
    if (!get_candidates(self, cands_obj, &cb))
        goto done;
    if (cb.obj)
        cands = cb.buf;
    if (limit < 1)
        limit = 1;
    if (keep < 0)
        keep = 0;
    if (keep > limit)
        keep = limit;
    if (on_batch != Py_None && keep < 1)
        keep = 1;
    out = malloc((size_t)self->ncells * (keep ? keep : 1));
    if (!out || !scratch_alloc(&w, self)) {
        PyErr_NoMemory();
        goto done;
    }
    Search s = {0};
    s.e = self;
    s.w = &w;
    s.limit = limit;
    s.keep = keep;
    s.node_limit = node_limit;
    s.deadline = time_limit > 0 ? np_now_seconds() + time_limit : 0;
    s.out = out;
    s.on_batch = on_batch != Py_None ? on_batch : NULL;
    s.learn_after = learn_after;
    np_search_begin(&s);
    np_run_search(&s, g.buf, cands);
    if (!np_search_end(&s) || (s.on_batch && !pass_solutions(&s)))
        goto done;
    if (s.on_batch)
        keep = 0;
    int kept = s.count < keep ? s.count : keep;
    result = Py_BuildValue("(iiy#KK)", s.count, s.aborted, (const char *)out,
                           (Py_ssize_t)kept * self->ncells, (unsigned long long)s.nodes,
                           (unsigned long long)s.guesses);
done:
    free(out);
    np_scratch_free(&w);
    PyBuffer_Release(&g);
    if (cb.obj)
        PyBuffer_Release(&cb);
    return result;
}

/* solve_batch(givens_blob, limit, keep_first, node_limit, time_limit)
   -> (counts int32[], aborted uint8[], first solutions bytes, nodes u64[], guesses u64[],
       nanoseconds u64[]). The GIL is released for the whole batch. */
static PyObject *Engine_solve_batch(Engine *self, PyObject *args)
{
    Py_buffer g;
    int limit, keep_first;
    unsigned long long node_limit;
    double time_limit;
    if (!PyArg_ParseTuple(args, "y*iiKd", &g, &limit, &keep_first, &node_limit, &time_limit))
        return NULL;
    PyObject *result = NULL;
    const Py_ssize_t n = self->ncells;
    const Py_ssize_t count = g.len / n;
    PyObject *counts = NULL, *aborted = NULL, *sols = NULL, *nodes = NULL, *guesses = NULL,
             *ns = NULL;
    Scratch w = {0};
    if (g.len % n || !check_givens(self, &g, count) || !np_batch_begin(&w, self, &limit))
        goto done;
    counts = PyBytes_FromStringAndSize(NULL, count * 4);
    aborted = PyBytes_FromStringAndSize(NULL, count);
    sols = PyBytes_FromStringAndSize(NULL, keep_first ? count * n : 0);
    nodes = PyBytes_FromStringAndSize(NULL, count * 8);
    guesses = PyBytes_FromStringAndSize(NULL, count * 8);
    ns = PyBytes_FromStringAndSize(NULL, count * 8);
    if (!counts || !aborted || !sols || !nodes || !guesses || !ns)
        goto done;
    {
        int32_t *cnt = (int32_t *)PyBytes_AS_STRING(counts);
        uint8_t *ab = (uint8_t *)PyBytes_AS_STRING(aborted);
        uint8_t *so = (uint8_t *)PyBytes_AS_STRING(sols);
        uint64_t *nd = (uint64_t *)PyBytes_AS_STRING(nodes);
        uint64_t *gs = (uint64_t *)PyBytes_AS_STRING(guesses);
        uint64_t *tm = (uint64_t *)PyBytes_AS_STRING(ns);
        const uint8_t *src = g.buf;
        Search s = {0};
        np_search_begin(&s);
        for (Py_ssize_t i = 0; i < count; i++) {
            /* easy puzzles end before their search looks at the clock: look between them */
            if (s.interrupted || (!(i & 63) && np_signalled(&s, np_now_seconds())))
                break;
            uint64_t t0 = np_now_ns();
            s.e = self;
            s.w = &w;
            s.limit = limit;
            s.keep = keep_first ? 1 : 0;
            s.node_limit = node_limit;
            s.deadline = time_limit > 0 ? np_now_seconds() + time_limit : 0;
            s.out = keep_first ? so + i * n : NULL;
            if (keep_first)
                memset(so + i * n, 0, n);
            np_run_search(&s, src + i * n, NULL);
            cnt[i] = s.count;
            ab[i] = (uint8_t)s.aborted;
            nd[i] = s.nodes;
            gs[i] = s.guesses;
            tm[i] = np_now_ns() - t0;
        }
        if (!np_search_end(&s))
            goto done;
    }
    result = PyTuple_Pack(6, counts, aborted, sols, nodes, guesses, ns);
done:
    Py_XDECREF(counts);
    Py_XDECREF(aborted);
    Py_XDECREF(sols);
    Py_XDECREF(nodes);
    Py_XDECREF(guesses);
    Py_XDECREF(ns);
    np_scratch_free(&w);
    PyBuffer_Release(&g);
    return result;
}

static PyObject *Engine_get_fast9(Engine *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->fast9);
}

/* propagate(givens, cands[, locked]) -> bytes of ncells uint32 candidate masks after
   propagation without branching, or None on a contradiction. locked=False leaves out
   locked candidates: singles (and sums) alone. */
static PyObject *Engine_propagate(Engine *self, PyObject *args)
{
    Py_buffer g, cb = {0};
    PyObject *cands_obj, *result = NULL;
    int locked = 1;
    if (!PyArg_ParseTuple(args, "y*O|p", &g, &cands_obj, &locked))
        return NULL;
    Scratch w = {0};
    if (!check_givens(self, &g, 1))
        goto done;
    if (!get_candidates(self, cands_obj, &cb))
        goto done;
    /* one board: a propagation of a 25x25 is a few microseconds, less than getting
       the memory of a whole search */
    if (!scratch_alloc_boards(&w, self, 1)) {
        PyErr_NoMemory();
        goto done;
    }
    uint32_t *board = w.boards;
    initial_board(self, board, g.buf, cb.obj ? cb.buf : NULL);
    int qn = 0, ok = 1;
    for (int c = 0; c < self->ncells; c++) {
        if (!board[c])
            ok = 0;
        else if (!(board[c] & (board[c] - 1)))
            w.queue[qn++] = c;
    }
    if (ok)
        ok = propagate_rules(self, &w, board, qn, locked);
    if (ok)
        result = PyBytes_FromStringAndSize((const char *)board,
                                           (Py_ssize_t)sizeof(uint32_t) * self->ncells);
    else
        result = Py_NewRef(Py_None);
done:
    np_scratch_free(&w);
    PyBuffer_Release(&g);
    if (cb.obj)
        PyBuffer_Release(&cb);
    return result;
}

static PyMethodDef Engine_methods[] = {
    {"solve", (PyCFunction)Engine_solve, METH_VARARGS,
     "solve(givens, cands, limit, keep, node_limit, time_limit[, on_batch]) -> "
     "(count, aborted, solutions, nodes, guesses)"},
    {"solve_batch", (PyCFunction)Engine_solve_batch, METH_VARARGS,
     "solve_batch(givens_blob, limit, keep_first, node_limit, time_limit) -> "
     "(counts, aborted, solutions, nodes, guesses, nanoseconds)"},
    {"lines", (PyCFunction)np_engine_lines, METH_VARARGS,
     "lines(text, first_line, table, symbols, mode, limit, node_limit, time_limit) -> "
     "(output, unique, multiple, solved, holes)"},
    {"propagate", (PyCFunction)Engine_propagate, METH_VARARGS,
     "propagate(givens, cands[, locked]) -> candidate masks after propagation (bytes), "
     "or None"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Engine_getset[] = {
    {"fast9", (getter)Engine_get_fast9, NULL, "True if the 9x9 bit-board solver is used", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject np_engine_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "numberplace._core.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search engine for one shape, built from flat house and peer arrays.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_getset = Engine_getset,
};

/* Store one whole number as an int32; 0 with an exception set if it is none or too big. */
static int put_int32(PyObject *item, int32_t *dst)
{
    long v = PyLong_AsLong(item);
    if (v == -1 && PyErr_Occurred())
        return 0;
    if (v < INT32_MIN || v > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "a number does not fit in 32 bits");
        return 0;
    }
    *dst = (int32_t)v;
    return 1;
}

/* pack_int32(ints) -> bytes: what array("i", ints).tobytes() gives, the layout of every
   array the Engine reads, without array's cost per item (a shape's arrays are rebuilt
   for every Kakuro or Killer read, and that cost was most of their building). */
PyObject *np_pack_int32(PyObject *module, PyObject *arg)
{
    (void)module;
    PyObject *seq = PySequence_Fast(arg, "pack_int32 needs a list or tuple of whole numbers");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int32_t));
    if (out) {
        int32_t *dst = (int32_t *)PyBytes_AS_STRING(out);
        for (Py_ssize_t i = 0; i < n; i++)
            if (!put_int32(items[i], dst + i)) {
                Py_CLEAR(out);
                break;
            }
    }
    Py_DECREF(seq);
    return out;
}

/* pack_groups(groups) -> (offsets, cells): groups of whole numbers (a shape's peers) as
   int32 arrays, every group's cells one after the other and the offset where each group
   starts, with one more offset for the end. */
PyObject *np_pack_groups(PyObject *module, PyObject *arg)
{
    (void)module;
    PyObject *seq = PySequence_Fast(arg, "pack_groups needs a list or tuple of groups");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **groups = PySequence_Fast_ITEMS(seq);
    PyObject *offsets = NULL, *cells = NULL, *result = NULL;
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t k = PyObject_Length(groups[i]);
        if (k < 0)
            goto done;
        total += k;
    }
    if (total > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "too many cells for 32-bit offsets");
        goto done;
    }
    offsets = PyBytes_FromStringAndSize(NULL, (n + 1) * (Py_ssize_t)sizeof(int32_t));
    cells = PyBytes_FromStringAndSize(NULL, total * (Py_ssize_t)sizeof(int32_t));
    if (!offsets || !cells)
        goto done;
    int32_t *off = (int32_t *)PyBytes_AS_STRING(offsets);
    int32_t *dst = (int32_t *)PyBytes_AS_STRING(cells);
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        off[i] = (int32_t)at;
        PyObject *group = PySequence_Fast(groups[i], "a group must be a list or tuple");
        if (!group)
            goto done;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(group);
        PyObject **items = PySequence_Fast_ITEMS(group);
        int ok = at + k <= total;  /* a group that grew since it was measured */
        if (!ok)
            PyErr_SetString(PyExc_RuntimeError, "a group changed while it was packed");
        for (Py_ssize_t j = 0; ok && j < k; j++)
            ok = put_int32(items[j], dst + at + j);
        Py_DECREF(group);
        if (!ok)
            goto done;
        at += k;
    }
    off[n] = (int32_t)at;
    if (at != total) {
        PyErr_SetString(PyExc_RuntimeError, "a group changed while it was packed");
        goto done;
    }
    result = PyTuple_Pack(2, offsets, cells);
done:
    Py_XDECREF(offsets);
    Py_XDECREF(cells);
    Py_DECREF(seq);
    return result;
}

static int compare_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Sort a few ints in place: a cell's peers come as runs already in order, one run a
   group, which insertion sort merges in a few steps (qsort's calls cost more there). */
static void sort_int32(int32_t *a, int32_t n)
{
    if (n > 64) {
        qsort(a, (size_t)n, sizeof(int32_t), compare_int32);
        return;
    }
    for (int32_t i = 1; i < n; i++) {
        int32_t x = a[i], j = i;
        while (j > 0 && a[j - 1] > x) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

/* peer_arrays(ncells, groups) -> (offsets, peers): for each cell, the other cells that
   share a group (a house or a cage) with it, in increasing order, as pack_groups lays
   them out: the peers Shape.peers gives, without building them in Python first. */
PyObject *np_peer_arrays(PyObject *module, PyObject *args)
{
    (void)module;
    int ncells;
    PyObject *groups_obj;
    if (!PyArg_ParseTuple(args, "iO", &ncells, &groups_obj))
        return NULL;
    if (ncells < 0) {
        PyErr_SetString(PyExc_ValueError, "ncells must not be negative");
        return NULL;
    }
    PyObject *packed = np_pack_groups(NULL, groups_obj);
    if (!packed)
        return NULL;
    const int32_t *gstart = (const int32_t *)PyBytes_AS_STRING(PyTuple_GET_ITEM(packed, 0));
    const int32_t *gcells = (const int32_t *)PyBytes_AS_STRING(PyTuple_GET_ITEM(packed, 1));
    Py_ssize_t ngroups = PyBytes_GET_SIZE(PyTuple_GET_ITEM(packed, 0)) / 4 - 1;
    Py_ssize_t ntotal = gstart[ngroups];
    PyObject *result = NULL, *offsets = NULL, *peers = NULL;
    /* the groups of each cell, and a bound on the peers of all cells: sum of k*k */
    int32_t *mstart = calloc((size_t)ncells + 1, sizeof(int32_t));
    int32_t *mgroups = malloc(sizeof(int32_t) * (ntotal ? (size_t)ntotal : 1));
    int32_t *stamp = malloc(sizeof(int32_t) * (ncells ? (size_t)ncells : 1));
    int32_t *out = NULL;
    long long bound = 0;
    if (!mstart || !mgroups || !stamp) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < ntotal; i++)
        if (gcells[i] < 0 || gcells[i] >= ncells) {
            PyErr_SetString(PyExc_ValueError, "group cell out of range");
            goto done;
        }
    for (Py_ssize_t g = 0; g < ngroups; g++) {
        long long k = gstart[g + 1] - gstart[g];
        bound += k * k;
        for (int32_t i = gstart[g]; i < gstart[g + 1]; i++)
            mstart[gcells[i] + 1]++;
    }
    if (bound > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "too many peers for 32-bit offsets");
        goto done;
    }
    for (int c = 0; c < ncells; c++)
        mstart[c + 1] += mstart[c];
    for (int c = 0; c < ncells; c++)
        stamp[c] = mstart[c]; /* where the next group of cell c goes */
    for (Py_ssize_t g = 0; g < ngroups; g++)
        for (int32_t i = gstart[g]; i < gstart[g + 1]; i++)
            mgroups[stamp[gcells[i]]++] = (int32_t)g;
    out = malloc(sizeof(int32_t) * (bound ? (size_t)bound : 1));
    offsets = PyBytes_FromStringAndSize(NULL, ((Py_ssize_t)ncells + 1) * 4);
    if (!out || !offsets) {
        if (!out)
            PyErr_NoMemory();
        goto done;
    }
    int32_t *off = (int32_t *)PyBytes_AS_STRING(offsets);
    for (int c = 0; c < ncells; c++)
        stamp[c] = -1;
    int32_t n = 0;
    for (int c = 0; c < ncells; c++) {
        off[c] = n;
        stamp[c] = c; /* a cell is not its own peer */
        for (int32_t m = mstart[c]; m < mstart[c + 1]; m++) {
            int32_t g = mgroups[m];
            for (int32_t i = gstart[g]; i < gstart[g + 1]; i++) {
                int32_t x = gcells[i];
                if (stamp[x] != c) {
                    stamp[x] = c;
                    out[n++] = x;
                }
            }
        }
        sort_int32(out + off[c], n - off[c]);
    }
    off[ncells] = n;
    peers = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)n * 4);
    if (peers)
        result = PyTuple_Pack(2, offsets, peers);
done:
    free(mstart);
    free(mgroups);
    free(stamp);
    free(out);
    Py_XDECREF(offsets);
    Py_XDECREF(peers);
    Py_DECREF(packed);
    return result;
}

/* vector9([on]) -> bool: whether 9x9 searches take the vector form; on switches it (on
   only where the processor runs AVX-512). */
PyObject *np_vector9(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *on = NULL;
    if (!PyArg_ParseTuple(args, "|O", &on))
        return NULL;
#ifdef NP_HAVE_VEC9
    if (on) {
        int want = PyObject_IsTrue(on);
        if (want < 0)
            return NULL;
        __atomic_store_n(&use_vec9, want && v9_usable(), __ATOMIC_RELAXED);
    }
    return PyBool_FromLong(__atomic_load_n(&use_vec9, __ATOMIC_RELAXED));
#else
    if (on && PyObject_IsTrue(on) < 0)
        return NULL;
    Py_RETURN_FALSE;
#endif
}

#ifdef NP_HAVE_FAST9
/* The 9x9 solver's tables and its form, set once when the module is imported (no thread
   searches yet, so none reads them half filled). */
void np_fast9_init(void)
{
    f9_init();
#ifdef NP_HAVE_VEC9
    /* NUMBERPLACE_VECTOR9=0 keeps the scalar form (node counts as on any processor) */
    const char *env = getenv("NUMBERPLACE_VECTOR9");
    use_vec9 = v9_usable() && !(env && strcmp(env, "0") == 0);
#endif
}
#endif
