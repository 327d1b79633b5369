/*
 * _als.c: the search of ALS-XY-Chains (als_chain in numberplace._core), for any shape.
 *
 * The Python reference is the search loop of logic/als.py's find_als_xy_chain: almost
 * locked sets linked one to the next by restricted commons, each link's value other than
 * the one before, no two sets sharing a cell; one set longer a round, from each start in
 * turn, within a budget of steps. This is the same search, step for step, with the same
 * use of the budget: it hands back, in the order Python meets them, the chains of a
 * round's full length whose ends share a value that may leave a cell (Python then works
 * out what each removes, and keeps each set of eliminations once).
 *
 * A set's cells are little-endian 64-bit words, as many as the shape needs; its links
 * are offsets into (next set, value) pairs, native 32-bit ints.
 */
#include "../engine/_core.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int nsets, words;
    const uint64_t *bits;
    const uint32_t *mask, *removable;
    const int32_t *off, *pairs;
    long long budget;
    double deadline;
    PyObject *out;
} AlsChains;

static int als_overlaps(const uint64_t *a, const uint64_t *b, int words)
{
    for (int k = 0; k < words; k++)
        if (a[k] & b[k])
            return 1;
    return 0;
}

static void als_toggle(uint64_t *used, const uint64_t *b, int words)
{
    for (int k = 0; k < words; k++)
        used[k] ^= b[k];
}

/* (most, sets of the chain, values of its links, values its ends may remove) */
static int als_emit(AlsChains *x, int most, const int32_t *path, const int32_t *rccs,
                    int32_t j, int32_t value, uint32_t common)
{
    PyObject *chain = PyTuple_New(most), *links = PyTuple_New(most - 1);
    if (!chain || !links) {
        Py_XDECREF(chain);
        Py_XDECREF(links);
        return -1;
    }
    for (int i = 0; i < most - 1; i++)
        PyTuple_SET_ITEM(chain, i, PyLong_FromLong(path[i]));
    PyTuple_SET_ITEM(chain, most - 1, PyLong_FromLong(j));
    for (int i = 1; i < most - 1; i++)
        PyTuple_SET_ITEM(links, i - 1, PyLong_FromLong(rccs[i]));
    PyTuple_SET_ITEM(links, most - 2, PyLong_FromLong(value));
    PyObject *item = Py_BuildValue("(iNNk)", most, chain, links, (unsigned long)common);
    int bad = !item || PyList_Append(x->out, item) < 0;
    Py_XDECREF(item);
    return bad ? -1 : 0;
}

/* One round: chains of ``most`` sets from every start. 1 if one reached that length, 0
   if none, -1 on an error, -2 past the deadline. */
static int als_round(AlsChains *x, int most, int32_t *path, int32_t *rccs, int32_t *at,
                     uint64_t *used)
{
    int grown = 0, W = x->words;
    for (int start = 0; start < x->nsets; start++) {
        if (x->deadline > 0 && np_now_seconds() > x->deadline)
            return -2;
        if (!x->removable[start])
            continue;
        int depth = 1; /* sets on the path */
        path[0] = start;
        rccs[0] = 0;
        at[0] = x->off[start];
        memcpy(used, x->bits + (size_t)start * W, sizeof(uint64_t) * W);
        while (depth) {
            int32_t here = path[depth - 1];
            if (at[depth - 1] >= x->off[here + 1] || x->budget <= 0) {
                depth--;
                als_toggle(used, x->bits + (size_t)path[depth] * W, W);
                continue;
            }
            int32_t j = x->pairs[2 * at[depth - 1]], v = x->pairs[2 * at[depth - 1] + 1];
            at[depth - 1]++;
            x->budget--;
            if (als_overlaps(x->bits + (size_t)j * W, used, W) || rccs[depth - 1] == v)
                continue;
            if (depth + 1 == most) {
                grown = 1;
                if (start < j) {
                    uint32_t first_link = depth > 1 ? (uint32_t)rccs[1] : (uint32_t)v;
                    uint32_t common = x->removable[start] & x->mask[j] &
                                      ~((1u << (first_link - 1)) | (1u << (v - 1)));
                    if (common && als_emit(x, most, path, rccs, j, v, common))
                        return -1;
                }
            } else {
                path[depth] = j;
                rccs[depth] = v;
                at[depth] = x->off[j];
                als_toggle(used, x->bits + (size_t)j * W, W);
                depth++;
            }
        }
        if (x->budget <= 0)
            break;
    }
    return grown;
}

PyObject *np_als_chain(PyObject *module, PyObject *args)
{
    (void)module;
    Py_buffer bits, mask, removable, off, pairs;
    int most_sets;
    long long budget;
    double deadline;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*iLd", &bits, &mask, &removable, &off, &pairs,
                          &most_sets, &budget, &deadline))
        return NULL;
    PyObject *result = NULL;
    AlsChains x = {0};
    int32_t *path = NULL, *rccs = NULL, *at = NULL;
    uint64_t *used = NULL;
    x.nsets = (int)(mask.len / 4);
    x.words = x.nsets ? (int)(bits.len / 8 / x.nsets) : 1;
    x.bits = bits.buf;
    x.mask = mask.buf;
    x.removable = removable.buf;
    x.off = off.buf;
    x.pairs = pairs.buf;
    x.budget = budget;
    x.deadline = deadline;
    Py_ssize_t npairs = pairs.len / 8;
    if (bits.len != 8 * (Py_ssize_t)x.words * x.nsets || removable.len != mask.len ||
        off.len != 4 * (Py_ssize_t)(x.nsets + 1) || x.off[0] != 0 || x.off[x.nsets] != npairs ||
        most_sets < 0) {
        PyErr_SetString(PyExc_ValueError, "als_chain: sizes out of range");
        goto done;
    }
    for (int i = 0; i < x.nsets; i++)
        if (x.off[i] > x.off[i + 1]) {
            PyErr_SetString(PyExc_ValueError, "als_chain: links out of order");
            goto done;
        }
    for (Py_ssize_t k = 0; k < npairs; k++) {
        int32_t j = x.pairs[2 * k], v = x.pairs[2 * k + 1];
        if (j < 0 || j >= x.nsets || v < 1 || v > 32) {
            PyErr_SetString(PyExc_ValueError, "als_chain: a link out of range");
            goto done;
        }
    }
    path = malloc(sizeof(int32_t) * (size_t)(most_sets + 1));
    rccs = malloc(sizeof(int32_t) * (size_t)(most_sets + 1));
    at = malloc(sizeof(int32_t) * (size_t)(most_sets + 1));
    used = malloc(sizeof(uint64_t) * (size_t)x.words);
    x.out = PyList_New(0);
    if (!path || !rccs || !at || !used || !x.out) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    for (int most = 3; most <= most_sets; most++) {
        int r = als_round(&x, most, path, rccs, at, used);
        if (r == -2) {
            result = Py_NewRef(Py_False);
            goto done;
        }
        if (r < 0)
            goto done;
        if (x.budget <= 0 || !r)
            break;
    }
    result = Py_BuildValue("OL", x.out, x.budget);
done:
    Py_XDECREF(x.out);
    free(path);
    free(rccs);
    free(at);
    free(used);
    PyBuffer_Release(&bits);
    PyBuffer_Release(&mask);
    PyBuffer_Release(&removable);
    PyBuffer_Release(&off);
    PyBuffer_Release(&pairs);
    return result;
}
