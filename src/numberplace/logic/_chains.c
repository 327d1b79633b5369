/*
 * _chains.c: the breadth-first search of the chain graph (chain_layers and chain_depths
 * in numberplace._core), for the AICs and Nice Loops of logic/chains.py on any shape.
 *
 * The Python reference is logic/chain_search.py's _layers: every state reachable from
 * each start, one link further a round, a state being 2 * node + on. Python runs all
 * starts together, round by round; here each start runs alone to its end, as no start's
 * search depends on another's, and what it reaches goes into the list of its round, so
 * each round lists the same pairs in the same order as Python's. The rounds are then
 * thinned by the test their reader makes first (mode): an AIC's end must be a node then
 * true, three links or more from a start of another node, whose ends remove something
 * (both of one value, or as aic_ends allows); a nice loop's must come back to the
 * start's cell. The reader makes its own test again, so the test here may let through
 * more than it needs, never less. A start's distances (which the reader follows back to
 * read a chain) are found again on demand by chain_depths: one start's search is cheap.
 *
 * The graph comes as offsets and indices (native 32-bit ints) of each node's strong
 * links, its weak links to nodes with a strong link (those the search follows), and all
 * its weak links; cell sets as little-endian 64-bit words.
 */
#include "../engine/_core.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int n;
    const int32_t *so, *si, *lo, *li, *wo, *wi;
} ChGraph;

/* one start's search: per state, the start that last saw it and at what distance; the
   states reached, in order, with their distance, and the frontier states that closed a
   loop back to the start */
typedef struct {
    int32_t *stamp, *depth, *cur, *nxt;
    int32_t *seen, *seen_depth, *closed, *closed_depth;
    Py_ssize_t nseen, nclosed, cap_seen, cap_closed;
} ChWalk;

static int ch_push(int32_t **a, int32_t **b, Py_ssize_t *n, Py_ssize_t *cap, int32_t x,
                   int32_t y)
{
    if (*n == *cap) {
        Py_ssize_t cap2 = *cap ? 2 * *cap : 256;
        int32_t *a2 = realloc(*a, (size_t)cap2 * sizeof(int32_t));
        if (!a2)
            return -1;
        *a = a2;
        int32_t *b2 = realloc(*b, (size_t)cap2 * sizeof(int32_t));
        if (!b2)
            return -1;
        *b = b2;
        *cap = cap2;
    }
    (*a)[*n] = x;
    (*b)[*n] = y;
    (*n)++;
    return 0;
}

static int ch_has_weak(const ChGraph *g, int node, int other)
{
    for (int32_t k = g->wo[node]; k < g->wo[node + 1]; k++)
        if (g->wi[k] == other)
            return 1;
    return 0;
}

/* The search from state s (stamped id): _layers for one start, ``extra`` the nodes it
   may also end on, false, where a state then true has a weak link to them. */
static int ch_walk(const ChGraph *g, ChWalk *w, int32_t id, int32_t s, const int32_t *extra,
                   Py_ssize_t nextra, long max_links)
{
    int32_t *stamp = w->stamp, *depth = w->depth;
    w->nseen = w->nclosed = 0;
    stamp[s] = id;
    depth[s] = 0;
    w->cur[0] = s;
    Py_ssize_t ncur = 1;
    long d = 0;
    while (ncur && (max_links < 0 || d < max_links)) {
        d++;
        Py_ssize_t nn = 0;
        for (Py_ssize_t i = 0; i < ncur; i++) {
            int32_t st = w->cur[i], node = st >> 1;
            if ((st & 1) && nextra) {
                for (Py_ssize_t k = 0; k < nextra; k++) {
                    int32_t u2 = 2 * extra[k];
                    if (stamp[u2] != id && ch_has_weak(g, node, extra[k])) {
                        stamp[u2] = id;
                        depth[u2] = (int32_t)d;
                        if (ch_push(&w->seen, &w->seen_depth, &w->nseen, &w->cap_seen, u2,
                                    (int32_t)d))
                            return -1;
                    }
                }
            }
            int on = (st & 1) ? 0 : 1;
            const int32_t *off = (st & 1) ? g->lo : g->so, *idx = (st & 1) ? g->li : g->si;
            for (int32_t k = off[node]; k < off[node + 1]; k++) {
                int32_t m = idx[k], ns = 2 * m + on;
                if (stamp[ns] == id) {
                    if (ns == s && d > 3 &&
                        ch_push(&w->closed, &w->closed_depth, &w->nclosed, &w->cap_closed,
                                st, (int32_t)d))
                        return -1;
                    continue;
                }
                stamp[ns] = id;
                depth[ns] = (int32_t)d;
                if (ch_push(&w->seen, &w->seen_depth, &w->nseen, &w->cap_seen, ns, (int32_t)d))
                    return -1;
                if (on || g->so[m + 1] > g->so[m])
                    w->nxt[nn++] = ns;
            }
        }
        int32_t *t = w->cur;
        w->cur = w->nxt;
        w->nxt = t;
        ncur = nn;
    }
    return 0;
}

static void ch_walk_free(ChWalk *w)
{
    free(w->stamp);
    free(w->depth);
    free(w->cur);
    free(w->nxt);
    free(w->seen);
    free(w->seen_depth);
    free(w->closed);
    free(w->closed_depth);
}

static int ch_walk_init(ChWalk *w, int n)
{
    memset(w, 0, sizeof(*w));
    size_t states = 2 * (size_t)n + 2;
    w->stamp = malloc(states * sizeof(int32_t));
    w->depth = malloc(states * sizeof(int32_t));
    w->cur = malloc(states * sizeof(int32_t));
    w->nxt = malloc(states * sizeof(int32_t));
    if (!w->stamp || !w->depth || !w->cur || !w->nxt)
        return -1;
    for (size_t i = 0; i < states; i++)
        w->stamp[i] = -1;
    return 0;
}

/* The graph's arrays, checked: offsets rising within their indices, indices nodes. */
static int ch_graph(ChGraph *g, Py_buffer *b)
{
    Py_ssize_t n = b[0].len / 4 - 1;
    g->n = (int)n;
    if (n < 0 || b[2].len != b[0].len || b[4].len != b[0].len) {
        PyErr_SetString(PyExc_ValueError, "chain graph: offsets of different lengths");
        return -1;
    }
    const int32_t *arr[6];
    for (int i = 0; i < 6; i++)
        arr[i] = (const int32_t *)b[i].buf;
    for (int i = 0; i < 6; i += 2) {
        Py_ssize_t len = b[i + 1].len / 4;
        if (arr[i][0] != 0 || arr[i][n] != len) {
            PyErr_SetString(PyExc_ValueError, "chain graph: offsets out of range");
            return -1;
        }
        for (Py_ssize_t k = 0; k < n; k++)
            if (arr[i][k] > arr[i][k + 1]) {
                PyErr_SetString(PyExc_ValueError, "chain graph: offsets out of order");
                return -1;
            }
        for (Py_ssize_t k = 0; k < len; k++)
            if (arr[i + 1][k] < 0 || arr[i + 1][k] >= n) {
                PyErr_SetString(PyExc_ValueError, "chain graph: a link to no node");
                return -1;
            }
    }
    g->so = arr[0];
    g->si = arr[1];
    g->lo = arr[2];
    g->li = arr[3];
    g->wo = arr[4];
    g->wi = arr[5];
    return 0;
}

/* the cell sets and candidates the tests of the AIC ends read */
typedef struct {
    Py_ssize_t words, ncells, nvalues;
    const int32_t *cell, *value;
    const uint64_t *mask, *cp, *vm, *cands;
} ChEnds;

static int ch_any3(const ChEnds *e, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                   const uint64_t *not1, const uint64_t *not2)
{
    for (Py_ssize_t k = 0; k < e->words; k++)
        if (a[k] & b[k] & c[k] & ~(not1[k] | not2[k]))
            return 1;
    return 0;
}

static int ch_has_cell(const ChEnds *e, const uint64_t *set, int32_t cell)
{
    return (int)((set[cell >> 6] >> (cell & 63)) & 1);
}

/* Whether an AIC between nodes s and t may remove something: chain_search.py's
   same_value_ends, and with ``mixed`` its aic_ends. */
static int ch_ends_remove(const ChEnds *e, int32_t s, int32_t t, int mixed)
{
    Py_ssize_t W = e->words;
    int32_t vs = e->value[s], vt = e->value[t];
    if (vs == vt)
        return ch_any3(e, e->cp + s * W, e->cp + t * W, e->vm + vs * W, e->mask + s * W,
                       e->mask + t * W);
    if (!mixed)
        return 0;
    int32_t cs = e->cell[s], ct = e->cell[t];
    if (cs >= 0 && cs == ct)
        return (e->cands[cs] & ~((1ull << (vs - 1)) | (1ull << (vt - 1)))) != 0;
    if (cs >= 0 && ch_has_cell(e, e->cp + t * W, cs) && ch_has_cell(e, e->vm + vt * W, cs))
        return 1;
    if (ct >= 0 && ch_has_cell(e, e->cp + s * W, ct) && ch_has_cell(e, e->vm + vs * W, ct))
        return 1;
    return 0;
}

static void ch_release(Py_buffer *b, int n)
{
    for (int i = 0; i < n; i++)
        PyBuffer_Release(&b[i]);
}

/* append (s, st) to the list of round d (1-based), making the lists as needed */
static int ch_emit(PyObject *rounds, long d, int which, int32_t s, int32_t st)
{
    while (PyList_GET_SIZE(rounds) < d) {
        PyObject *pair = Py_BuildValue("(NN)", PyList_New(0), PyList_New(0));
        if (!pair)
            return -1;
        int bad = PyList_Append(rounds, pair);
        Py_DECREF(pair);
        if (bad)
            return -1;
    }
    PyObject *list = PyTuple_GET_ITEM(PyList_GET_ITEM(rounds, d - 1), which);
    PyObject *item = Py_BuildValue("(ii)", (int)s, (int)st);
    if (!item)
        return -1;
    int bad = PyList_Append(list, item);
    Py_DECREF(item);
    return bad;
}

PyObject *np_chain_layers(PyObject *module, PyObject *args)
{
    (void)module;
    /* the graph's six arrays, then the starts, their ends, and the ends' tests' data */
    Py_buffer b[15];
    Py_buffer *starts = &b[6], *ends_off = &b[7], *ends_idx = &b[8], *cell = &b[9],
              *value = &b[10], *mask = &b[11], *cp = &b[12], *vm = &b[13], *cands = &b[14];
    long max_links;
    int mode;
    double deadline;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*liy*y*y*y*y*y*d", &b[0], &b[1], &b[2],
                          &b[3], &b[4], &b[5], starts, ends_off, ends_idx, &max_links,
                          &mode, cell, value, mask, cp, vm, cands, &deadline))
        return NULL;
    PyObject *result = NULL, *rounds = NULL;
    ChWalk w;
    int walk_ready = 0;
    ChGraph g;
    if (ch_graph(&g, b))
        goto done;
    Py_ssize_t nstarts = starts->len / 4;
    const int32_t *st0 = (const int32_t *)starts->buf;
    const int32_t *eo = (const int32_t *)ends_off->buf, *ei = (const int32_t *)ends_idx->buf;
    int has_ends = ends_off->len > 0;
    if (has_ends && ends_off->len != 4 * (nstarts + 1)) {
        PyErr_SetString(PyExc_ValueError, "chain_layers: one list of ends a start");
        goto done;
    }
    for (Py_ssize_t k = 0; k < nstarts; k++)
        if (st0[k] < 0 || st0[k] >= 2 * g.n) {
            PyErr_SetString(PyExc_ValueError, "chain_layers: a start out of range");
            goto done;
        }
    if (has_ends) {
        if (eo[0] != 0 || eo[nstarts] != ends_idx->len / 4) {
            PyErr_SetString(PyExc_ValueError, "chain_layers: ends out of range");
            goto done;
        }
        for (Py_ssize_t k = 0; k < nstarts; k++)
            if (eo[k] > eo[k + 1]) {
                PyErr_SetString(PyExc_ValueError, "chain_layers: ends out of order");
                goto done;
            }
        for (Py_ssize_t k = 0; k < ends_idx->len / 4; k++)
            if (ei[k] < 0 || ei[k] >= g.n) {
                PyErr_SetString(PyExc_ValueError, "chain_layers: an end out of range");
                goto done;
            }
    }
    ChEnds e = {0};
    if (mode == CH_SAME_ENDS || mode == CH_MIXED_ENDS || mode == CH_LOOPS) {
        if (cell->len != 4 * (Py_ssize_t)g.n) {
            PyErr_SetString(PyExc_ValueError, "chain_layers: one cell a node");
            goto done;
        }
        e.cell = (const int32_t *)cell->buf;
    }
    if (mode == CH_SAME_ENDS || mode == CH_MIXED_ENDS) {
        e.words = g.n ? mask->len / 8 / g.n : 0;
        e.nvalues = e.words ? vm->len / 8 / e.words : 0;
        e.ncells = cands->len / 8;
        e.value = (const int32_t *)value->buf;
        e.mask = (const uint64_t *)mask->buf;
        e.cp = (const uint64_t *)cp->buf;
        e.vm = (const uint64_t *)vm->buf;
        e.cands = (const uint64_t *)cands->buf;
        if (value->len != 4 * (Py_ssize_t)g.n || mask->len != 8 * e.words * g.n ||
            cp->len != mask->len || vm->len != 8 * e.words * e.nvalues ||
            e.ncells > 64 * e.words) {
            PyErr_SetString(PyExc_ValueError, "chain_layers: cell sets of different sizes");
            goto done;
        }
        for (int k = 0; k < g.n; k++)
            if (e.value[k] < 1 || e.value[k] >= e.nvalues || e.value[k] > 64 ||
                e.cell[k] >= e.ncells) {
                PyErr_SetString(PyExc_ValueError, "chain_layers: a node's value or cell "
                                                  "out of range");
                goto done;
            }
    } else if (mode != CH_ALL && mode != CH_LOOPS) {
        PyErr_SetString(PyExc_ValueError, "chain_layers: no such mode");
        goto done;
    }
    rounds = PyList_New(0);
    if (!rounds)
        goto done;
    if (ch_walk_init(&w, g.n)) {
        PyErr_NoMemory();
        goto done;
    }
    walk_ready = 1;
    for (Py_ssize_t k = 0; k < nstarts; k++) {
        if (deadline > 0 && !(k & 63) && np_now_seconds() > deadline) {
            result = Py_False;
            Py_INCREF(result);
            goto done;
        }
        int32_t s = st0[k];
        if (ch_walk(&g, &w, (int32_t)k, s, has_ends ? ei + eo[k] : NULL,
                    has_ends ? eo[k + 1] - eo[k] : 0, max_links)) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = 0; i < w.nseen; i++) {
            int32_t st = w.seen[i], d = w.seen_depth[i];
            int keep;
            switch (mode) {
            case CH_SAME_ENDS:
            case CH_MIXED_ENDS:
                /* a proof (the start false leads to itself true) is kept for the reader */
                if (!(st & 1) || st >> 1 == s >> 1)
                    keep = st == s + 1;
                else
                    keep = d >= 3 && ch_ends_remove(&e, s >> 1, st >> 1, mode == CH_MIXED_ENDS);
                break;
            case CH_LOOPS:
                keep = d >= 3 && e.cell[st >> 1] >= 0 && e.cell[st >> 1] == e.cell[s >> 1];
                break;
            default:
                keep = 1;
            }
            if (keep && ch_emit(rounds, d, 0, s, st))
                goto done;
        }
        for (Py_ssize_t i = 0; i < w.nclosed; i++)
            if (mode != CH_SAME_ENDS && mode != CH_MIXED_ENDS &&
                ch_emit(rounds, w.closed_depth[i], 1, s, w.closed[i]))
                goto done;
    }
    result = rounds;
    rounds = NULL;
done:
    Py_XDECREF(rounds);
    if (walk_ready)
        ch_walk_free(&w);
    ch_release(b, 15);
    return result;
}

PyObject *np_chain_depths(PyObject *module, PyObject *args)
{
    (void)module;
    Py_buffer b[7]; /* the graph's six arrays, then the start's ends */
    int start;
    long max_links;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*iy*l", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
                          &start, &b[6], &max_links))
        return NULL;
    PyObject *result = NULL, *out = NULL;
    ChWalk w;
    int walk_ready = 0;
    ChGraph g;
    if (ch_graph(&g, b))
        goto done;
    const int32_t *ex = (const int32_t *)b[6].buf;
    Py_ssize_t nex = b[6].len / 4;
    if (start < 0 || start >= 2 * g.n) {
        PyErr_SetString(PyExc_ValueError, "chain_depths: the start out of range");
        goto done;
    }
    for (Py_ssize_t k = 0; k < nex; k++)
        if (ex[k] < 0 || ex[k] >= g.n) {
            PyErr_SetString(PyExc_ValueError, "chain_depths: an end out of range");
            goto done;
        }
    if (ch_walk_init(&w, g.n)) {
        PyErr_NoMemory();
        goto done;
    }
    walk_ready = 1;
    if (ch_walk(&g, &w, 0, start, ex, nex, max_links)) {
        PyErr_NoMemory();
        goto done;
    }
    out = PyDict_New();
    if (!out)
        goto done;
    for (Py_ssize_t i = -1; i < w.nseen; i++) {
        PyObject *key = PyLong_FromLong(i < 0 ? start : w.seen[i]);
        PyObject *val = PyLong_FromLong(i < 0 ? 0 : w.seen_depth[i]);
        int bad = !key || !val || PyDict_SetItem(out, key, val);
        Py_XDECREF(key);
        Py_XDECREF(val);
        if (bad)
            goto done;
    }
    result = out;
    out = NULL;
done:
    Py_XDECREF(out);
    if (walk_ready)
        ch_walk_free(&w);
    ch_release(b, 7);
    return result;
}
