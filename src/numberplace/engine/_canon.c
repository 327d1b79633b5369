/*
 * _canon.c: canonical forms of classic puzzles in the compiled core (canon and
 * canon_many in numberplace._core). The Python reference is canon.py, which finds the
 * same forms by another search (enumerating column orders); a test compares the two.
 *
 * The canonical form of a classic n x n puzzle (n <= 25, boxes of br rows x bc columns)
 * is the least string, read row by row with 0 for an empty cell, over every change that
 * keeps the puzzle the same puzzle: rows within their band, bands, columns within their
 * stack, stacks, the transpose (square boxes only) and any relabelling of the symbols.
 *
 * The answer is built one row at a time, keeping every partial change that gives the
 * least rows so far (a breadth-first search). Rows are chosen as they are placed; columns
 * are not. The orders of columns a change may still choose freely are kept as cells:
 * stacks that may still swap, and within each stack, columns that may still swap. A new
 * row only splits cells, by sorting their contents (an empty cell first, then labels, then
 * symbols without a label). The one real choice is where a row brings symbols that have
 * no label yet: their order decides which gets the smaller label, so every order is kept.
 * In a puzzle without clashes a row holds each symbol once, which is what makes the
 * sorting exact; the caller checks that.
 */
#include "_core.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CN_MAX 25

typedef struct {
    uint32_t rows_used;              /* original rows placed (bit r) */
    unsigned char transposed;
    unsigned char nlabel;            /* labels handed out */
    unsigned char label[CN_MAX + 1]; /* each symbol's label, 0: none yet */
    unsigned char rows[CN_MAX];      /* placed rows, in order */
    unsigned char stacks[CN_MAX];    /* original stack at each slot */
    unsigned char scell_end[CN_MAX]; /* 1: a cell of stacks ends at this slot */
    unsigned char cols[CN_MAX];      /* stack s at s*bc..: its columns in order */
    unsigned char ccell_end[CN_MAX]; /* 1: a cell of columns ends here */
} CnState;

typedef struct {
    int n, br, bc, nstacks;
    unsigned char g[2][CN_MAX][CN_MAX]; /* the grid and its transpose */
    CnState *cur, *next;
    size_t ncur, nnext, capcur, capnext;
    long long work, limit;
    int best[CN_MAX];
    int have_best;
    /* scratch of the last row evaluated: each stack's sorted contents and the columns
       giving them, and the stacks by slot */
    int sub[CN_MAX][CN_MAX];
    unsigned char ord[CN_MAX][CN_MAX];
    unsigned char slot_stack[CN_MAX];
} CnCtx;

/* Row `row` in stack s: each column cell's columns sorted by content (stable, so columns
   of symbols without a label keep their order), into cx->sub[s] and cx->ord[s]. */
static void cn_stack_contents(CnCtx *cx, const CnState *st, const unsigned char *row, int s)
{
    int bc = cx->bc, base = s * bc, fresh = cx->n + 1;
    int *sub = cx->sub[s];
    unsigned char *ord = cx->ord[s];
    int a = 0;
    while (a < bc) {
        int b = a;
        while (!st->ccell_end[base + b])
            b++;
        for (int k = a; k <= b; k++) {
            unsigned char c = st->cols[base + k];
            int v = row[c];
            int key = v ? (st->label[v] ? st->label[v] : fresh) : 0;
            int j = k;
            while (j > a && sub[j - 1] > key) {
                sub[j] = sub[j - 1];
                ord[j] = ord[j - 1];
                j--;
            }
            sub[j] = key;
            ord[j] = c;
        }
        a = b + 1;
    }
}

static int cn_cmp_sub(const int *a, const int *b, int len)
{
    for (int i = 0; i < len; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* The least string row `row` can take in state st, given the best of this depth so far:
   -1 when it is greater (the row is dropped), 0 when equal, 1 when less (it becomes the
   best). Leaves the sorted contents in the scratch for cn_children. */
static int cn_evaluate(CnCtx *cx, const CnState *st, const unsigned char *row)
{
    int n = cx->n, bc = cx->bc, S = cx->nstacks;
    int str[CN_MAX];
    int state = cx->have_best ? 0 : 1; /* 0: equal so far, 1: already less */
    int nlabel = st->nlabel;
    int a = 0;
    while (a < S) {
        int b = a;
        while (!st->scell_end[b])
            b++;
        /* sort the stacks of the cell [a, b] by their contents */
        for (int k = a; k <= b; k++) {
            int s = st->stacks[k];
            cn_stack_contents(cx, st, row, s);
            int j = k;
            while (j > a && cn_cmp_sub(cx->sub[cx->slot_stack[j - 1]], cx->sub[s], bc) > 0) {
                cx->slot_stack[j] = cx->slot_stack[j - 1];
                j--;
            }
            cx->slot_stack[j] = (unsigned char)s;
        }
        for (int k = a; k <= b; k++) {
            const int *sub = cx->sub[cx->slot_stack[k]];
            for (int i = 0; i < bc; i++)
                str[k * bc + i] = sub[i] > n ? ++nlabel : sub[i];
        }
        if (state == 0) {
            int c = cn_cmp_sub(str + a * bc, cx->best + a * bc, (b - a + 1) * bc);
            if (c > 0)
                return -1;
            if (c < 0)
                state = 1;
        }
        a = b + 1;
    }
    if (state == 1) {
        memcpy(cx->best, str, sizeof(int) * (size_t)n);
        cx->have_best = 1;
    }
    return state;
}

typedef struct {
    unsigned char *seg;
    int len;
} CnChoice;

static int cn_push(CnCtx *cx, const CnState *st)
{
    if (cx->nnext == cx->capnext) {
        size_t cap = cx->capnext ? 2 * cx->capnext : 64;
        CnState *p = realloc(cx->next, cap * sizeof(CnState));
        if (!p)
            return -1;
        cx->next = p;
        cx->capnext = cap;
    }
    cx->next[cx->nnext++] = *st;
    return 0;
}

/* A finished child: the row's new symbols get labels in the order they now appear. */
static int cn_finish(CnCtx *cx, CnState *ch, const unsigned char *row)
{
    CnState out = *ch;
    for (int k = 0; k < cx->nstacks; k++) {
        const unsigned char *cols = out.cols + out.stacks[k] * cx->bc;
        for (int i = 0; i < cx->bc; i++) {
            int v = row[cols[i]];
            if (v && !out.label[v])
                out.label[v] = ++out.nlabel;
        }
    }
    if (++cx->work > cx->limit)
        return 1;
    return cn_push(cx, &out);
}

static int cn_permute(CnCtx *cx, CnState *ch, const unsigned char *row, CnChoice *cp, int ncp,
                      int i, int k)
{
    if (i == ncp)
        return cn_finish(cx, ch, row);
    if (k == cp[i].len)
        return cn_permute(cx, ch, row, cp, ncp, i + 1, 0);
    unsigned char *seg = cp[i].seg;
    for (int j = k; j < cp[i].len; j++) {
        unsigned char t = seg[k];
        seg[k] = seg[j];
        seg[j] = t;
        int rc = cn_permute(cx, ch, row, cp, ncp, i, k + 1);
        seg[j] = seg[k];
        seg[k] = t;
        if (rc)
            return rc;
    }
    return 0;
}

static int cn_has_fresh(const int *sub, int len, int n)
{
    for (int i = 0; i < len; i++)
        if (sub[i] > n)
            return 1;
    return 0;
}

/* The children of st with row r placed (after cn_evaluate found it among the least):
   the cells split by the row's contents, one child for each order of new symbols. */
static int cn_children(CnCtx *cx, const CnState *st, int r)
{
    int n = cx->n, bc = cx->bc, S = cx->nstacks;
    const unsigned char *row = cx->g[st->transposed][r];
    CnState ch = *st;
    CnChoice cp[2 * CN_MAX];
    int ncp = 0;
    int depth = __builtin_popcount(st->rows_used);
    ch.rows[depth] = (unsigned char)r;
    ch.rows_used |= 1u << r;
    memset(ch.scell_end, 0, sizeof ch.scell_end);
    memset(ch.ccell_end, 0, sizeof ch.ccell_end);
    /* stacks: the order cn_evaluate left; equal neighbours stay one cell unless they hold
       new symbols (then each order is a child) */
    int a = 0;
    while (a < S) {
        int b = a;
        while (!st->scell_end[b])
            b++;
        int k = a;
        while (k <= b) {
            int e = k;
            while (e < b && cn_cmp_sub(cx->sub[cx->slot_stack[e + 1]],
                                       cx->sub[cx->slot_stack[k]], bc) == 0)
                e++;
            for (int i = k; i <= e; i++)
                ch.stacks[i] = cx->slot_stack[i];
            if (e > k && cn_has_fresh(cx->sub[cx->slot_stack[k]], bc, n)) {
                for (int i = k; i <= e; i++)
                    ch.scell_end[i] = 1;
                cp[ncp].seg = ch.stacks + k;
                cp[ncp++].len = e - k + 1;
            } else {
                ch.scell_end[e] = 1;
            }
            k = e + 1;
        }
        a = b + 1;
    }
    /* columns within each stack: empty ones stay one cell, each label its own, new symbols
       each their own in every order */
    for (int s = 0; s < S; s++) {
        const int *sub = cx->sub[s];
        int base = s * bc;
        memcpy(ch.cols + base, cx->ord[s], (size_t)bc);
        int k = 0;
        while (k < bc) {
            int b = k;
            while (!st->ccell_end[base + b])
                b++;
            int i = k;
            while (i <= b && sub[i] == 0)
                i++;
            if (i > k)
                ch.ccell_end[base + i - 1] = 1;
            int f = i;
            while (f <= b && sub[f] <= n)
                ch.ccell_end[base + f++] = 1;
            for (int j = f; j <= b; j++)
                ch.ccell_end[base + j] = 1;
            if (b - f >= 1) {
                cp[ncp].seg = ch.cols + base + f;
                cp[ncp++].len = b - f + 1;
            }
            k = b + 1;
        }
    }
    return cn_permute(cx, &ch, row, cp, ncp, 0, 0);
}

/* Rows r and q hold the same contents. */
static int cn_same_row(const CnCtx *cx, int t, int r, int q)
{
    return memcmp(cx->g[t][r], cx->g[t][q], (size_t)cx->n) == 0;
}

/* Canonicalise the n*n values (0 empty, 1..n) in `values`. Writes the least string to
   key (n*n), and the change: *transposed, rows[i] (the original row at row i; of the
   transpose when transposed), cols[j], labels[v-1] (the new label of symbol v). Returns
   0, 1 when the work went over `limit`, 2 when givens clash (nothing is written), -1 when
   memory ran out. */
static int cn_canon(int n, int br, int bc, const unsigned char *values, long long limit,
                    unsigned char *key, int *transposed, unsigned char *rows,
                    unsigned char *cols, unsigned char *labels)
{
    if (n < 1 || n > CN_MAX || br < 1 || bc < 1 || br * bc != n)
        return -1;
    /* a symbol twice in a row, column or box */
    for (int h = 0; h < n; h++) {
        uint32_t row = 0, col = 0, box = 0;
        int r0 = h / (n / bc) * br, c0 = h % (n / bc) * bc;
        for (int k = 0; k < n; k++) {
            unsigned v = values[h * n + k], w = values[k * n + h];
            unsigned x = values[(r0 + k / bc) * n + c0 + k % bc];
            if ((v && row >> v & 1) || (w && col >> w & 1) || (x && box >> x & 1))
                return 2;
            row |= v ? 1u << v : 0;
            col |= w ? 1u << w : 0;
            box |= x ? 1u << x : 0;
        }
    }
    CnCtx *cx = calloc(1, sizeof(CnCtx));
    if (!cx)
        return -1;
    int rc = 0;
    cx->n = n;
    cx->br = br;
    cx->bc = bc;
    cx->nstacks = n / bc;
    cx->limit = limit;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            cx->g[0][r][c] = values[r * n + c];
            cx->g[1][c][r] = values[r * n + c];
        }
    CnState root;
    memset(&root, 0, sizeof root);
    for (int s = 0; s < cx->nstacks; s++)
        root.stacks[s] = (unsigned char)s;
    root.scell_end[cx->nstacks - 1] = 1;
    for (int c = 0; c < n; c++) {
        root.cols[c] = (unsigned char)c;
        root.ccell_end[c] = (c % bc == bc - 1);
    }
    if (cn_push(cx, &root) < 0)
        goto nomem;
    if (br == bc) {
        root.transposed = 1;
        if (cn_push(cx, &root) < 0)
            goto nomem;
    }
    /* The first row's least string depends only on how many givens each stack holds: the
       stacks in increasing order, each with its givens last, every symbol new. As bits
       (1: a given), the least number is the least string. */
    uint32_t first_best = UINT32_MAX, first[2][CN_MAX];
    for (int t = 0; t < 1 + (br == bc); t++)
        for (int r = 0; r < n; r++) {
            int per[CN_MAX];
            for (int s = 0; s < cx->nstacks; s++) {
                int k = 0;
                for (int c = s * bc; c < s * bc + bc; c++)
                    k += cx->g[t][r][c] != 0;
                int j = s;
                while (j > 0 && per[j - 1] > k) {
                    per[j] = per[j - 1];
                    j--;
                }
                per[j] = k;
            }
            uint32_t bits = 0;
            for (int s = 0; s < cx->nstacks; s++)
                bits = (bits << bc) | ((1u << per[s]) - 1);
            first[t][r] = bits;
            if (bits < first_best)
                first_best = bits;
        }
    for (int depth = 0; depth < n; depth++) {
        CnState *t = cx->cur;
        size_t cap = cx->capcur;
        cx->cur = cx->next;
        cx->capcur = cx->capnext;
        cx->ncur = cx->nnext;
        cx->next = t;
        cx->capnext = cap;
        cx->nnext = 0;
        cx->have_best = 0;
        for (size_t si = 0; si < cx->ncur; si++) {
            const CnState *st = &cx->cur[si];
            int band_start = depth % br == 0;
            int band = band_start ? -1 : st->rows[depth - depth % br] / br;
            for (int r = 0; r < n; r++) {
                if (st->rows_used >> r & 1 || (depth == 0 && first[st->transposed][r] > first_best))
                    continue;
                if (band_start) {
                    /* a band not started yet */
                    uint32_t bmask = ((1u << br) - 1) << (r / br * br);
                    if (st->rows_used & bmask)
                        continue;
                } else if (r / br != band) {
                    continue;
                }
                /* of rows with the same contents in the band, only the first unused one */
                int dup = 0;
                for (int q = r / br * br; q < r && !dup; q++)
                    dup = !(st->rows_used >> q & 1) && cn_same_row(cx, st->transposed, r, q);
                if (dup)
                    continue;
                if (++cx->work > cx->limit) {
                    rc = 1;
                    goto done;
                }
                int e = cn_evaluate(cx, st, cx->g[st->transposed][r]);
                if (e < 0)
                    continue;
                if (e > 0)
                    cx->nnext = 0;
                int c = cn_children(cx, st, r);
                if (c) {
                    rc = c;
                    goto done;
                }
            }
        }
        for (int i = 0; i < n; i++)
            key[depth * n + i] = (unsigned char)cx->best[i];
    }
    {
        const CnState *f = &cx->next[0];
        *transposed = f->transposed;
        memcpy(rows, f->rows, (size_t)n);
        for (int k = 0; k < cx->nstacks; k++)
            memcpy(cols + k * bc, f->cols + f->stacks[k] * bc, (size_t)bc);
        int nlabel = f->nlabel;
        for (int v = 1; v <= n; v++)
            labels[v - 1] = f->label[v] ? f->label[v] : (unsigned char)++nlabel;
    }
    goto done;
nomem:
    rc = -1;
done:
    free(cx->cur);
    free(cx->next);
    free(cx);
    return rc;
}

/* ---------------------------------------------------------------- Python glue */

/* The arguments of canon and canon_many: (n, box rows, box columns, values, limit), the
   values of `puzzles` puzzles (0: any number of them) of a classic grid. 0 and a Python
   error (the buffer released) when they do not make one. */
static int canon_args(PyObject *args, int *n, int *br, int *bc, Py_buffer *values,
                      long long *limit, Py_ssize_t puzzles)
{
    if (!PyArg_ParseTuple(args, "iiiy*L", n, br, bc, values, limit))
        return 0;
    Py_ssize_t cells = (Py_ssize_t)*n * *n;
    const char *wrong = NULL;
    if (*n < 1 || *n > CN_MAX || *br < 1 || *bc < 1 || *br * *bc != *n)
        wrong = "canon: a classic grid of at most 25x25 is needed";
    else if (puzzles ? values->len != cells * puzzles : values->len % cells)
        wrong = "canon: the values are not whole puzzles of the grid";
    for (Py_ssize_t i = 0; !wrong && i < values->len; i++)
        if (((const unsigned char *)values->buf)[i] > *n)
            wrong = "canon: a value is out of range";
    if (wrong) {
        PyBuffer_Release(values);
        PyErr_SetString(PyExc_ValueError, wrong);
        return 0;
    }
    return 1;
}

PyObject *np_canon(PyObject *module, PyObject *args)
{
    int n, br, bc;
    Py_buffer values;
    long long limit;
    if (!canon_args(args, &n, &br, &bc, &values, &limit, 1))
        return NULL;
    unsigned char key[CN_MAX * CN_MAX], rows[CN_MAX], cols[CN_MAX], labels[CN_MAX];
    int transposed = 0, rc;
    Py_BEGIN_ALLOW_THREADS
    rc = cn_canon(n, br, bc, values.buf, limit, key, &transposed, rows, cols, labels);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&values);
    if (rc < 0)
        return PyErr_NoMemory();
    if (rc == 2)
        return PyLong_FromLong(2);
    if (rc > 0)
        Py_RETURN_NONE;
    return Py_BuildValue("y#Ny#y#y#", (const char *)key, (Py_ssize_t)n * n,
                         PyBool_FromLong(transposed), (const char *)rows, (Py_ssize_t)n,
                         (const char *)cols, (Py_ssize_t)n, (const char *)labels, (Py_ssize_t)n);
}

PyObject *np_canon_many(PyObject *module, PyObject *args)
{
    int n, br, bc;
    Py_buffer values;
    long long limit;
    if (!canon_args(args, &n, &br, &bc, &values, &limit, 0))
        return NULL;
    Py_ssize_t cells = (Py_ssize_t)n * n;
    const unsigned char *in = values.buf;
    Py_ssize_t count = values.len / cells;
    PyObject *forms = PyBytes_FromStringAndSize(NULL, values.len);
    PyObject *status = PyBytes_FromStringAndSize(NULL, count);
    if (!forms || !status) {
        Py_XDECREF(forms);
        Py_XDECREF(status);
        PyBuffer_Release(&values);
        return NULL;
    }
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(forms);
    unsigned char *st = (unsigned char *)PyBytes_AS_STRING(status);
    int nomem = 0;
    Py_BEGIN_ALLOW_THREADS
    unsigned char rows[CN_MAX], cols[CN_MAX], labels[CN_MAX];
    int transposed;
    for (Py_ssize_t k = 0; k < count && !nomem; k++) {
        int rc = cn_canon(n, br, bc, in + k * cells, limit, out + k * cells, &transposed, rows,
                          cols, labels);
        if (rc < 0)
            nomem = 1;
        if (rc)
            memset(out + k * cells, 0, (size_t)cells);
        st[k] = (unsigned char)(rc > 0 ? rc : 0);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&values);
    if (nomem) {
        Py_DECREF(forms);
        Py_DECREF(status);
        return PyErr_NoMemory();
    }
    return Py_BuildValue("NN", forms, status);
}
