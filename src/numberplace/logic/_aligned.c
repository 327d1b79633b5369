/*
 * _aligned.c: Sudoku Explainer's aligned pair and triple exclusion (aligned in
 * numberplace._core) for grids of up to 128 cells and 16 values. The Python reference is
 * logic/explainer_rules.py (aligned_exclusion, _twin_area, _excluded): the same sets
 * in the same order, so the same first hint; only faster (a hard puzzle's path asks for
 * the triple tens of times, each over thousands of sets). A test compares the two.
 *
 * Cell sets are 128-bit words (bit c for cell c); candidates are 16-bit masks (bit v - 1
 * for value v).
 */
#include "../engine/_core.h"

#include <stdint.h>

#ifdef NP_HAVE_XCHAIN

typedef unsigned __int128 al_bits;

#define AL_CELLS 128
#define AL_VALUES 16

static int al_count(al_bits m)
{
    return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64));
}

static int al_lowest(al_bits m)
{
    uint64_t lo = (uint64_t)m;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

/* The values of a mask, lowest first (bit v - 1 for value v); how many. */
static int al_values(unsigned m, int *out)
{
    int n = 0;
    for (; m; m &= m - 1)
        out[n++] = __builtin_ctz(m) + 1;
    return n;
}

typedef struct {
    int ncells;
    const uint16_t *cands;
    al_bits peers[AL_CELLS];
} Aligned;

/* The candidates of the set's cells that no allowed combination uses (removed[i] for
   cell i): _excluded of logic/explainer_rules.py. */
static int al_excluded(const Aligned *a, const int *cells, int degree, al_bits shared,
                       unsigned *removed)
{
    unsigned m[3], uni = 0;
    for (int i = 0; i < degree; i++) {
        m[i] = a->cands[cells[i]];
        uni |= m[i];
    }
    int seen[3][3];
    for (int i = 0; i < degree; i++)
        for (int j = 0; j < degree; j++)
            seen[i][j] = (int)((a->peers[cells[i]] >> cells[j]) & 1);
    unsigned partner[AL_VALUES + 1] = {0};
    /* third[v][w]: values that with v and w empty a three-candidate excluder */
    unsigned third[AL_VALUES + 1][AL_VALUES + 1];
    int any_third = 0, usable = 0;
    for (al_bits s = shared; s; s &= s - 1) {
        unsigned mask = a->cands[al_lowest(s)];
        if (mask & ~uni)
            continue;
        int v[AL_VALUES];
        int n = al_values(mask, v);
        usable = 1;
        if (n == 2) {
            partner[v[0]] |= 1u << (v[1] - 1);
            partner[v[1]] |= 1u << (v[0] - 1);
        } else if (n == 3) {
            if (!any_third) {
                for (int x = 0; x <= AL_VALUES; x++)
                    for (int y = 0; y <= AL_VALUES; y++)
                        third[x][y] = 0;
                any_third = 1;
            }
            third[v[0]][v[1]] |= 1u << (v[2] - 1);
            third[v[1]][v[0]] |= 1u << (v[2] - 1);
            third[v[0]][v[2]] |= 1u << (v[1] - 1);
            third[v[2]][v[0]] |= 1u << (v[1] - 1);
            third[v[1]][v[2]] |= 1u << (v[0] - 1);
            third[v[2]][v[1]] |= 1u << (v[0] - 1);
        }
    }
    if (!usable) {
        int clash = 0;
        for (int i = 0; i < degree; i++)
            for (int j = 0; j < i; j++)
                if (seen[i][j] && (m[i] & m[j]))
                    clash = 1;
        if (!clash)
            return 0;
    }
    unsigned used[3] = {0, 0, 0};
    int vs[AL_VALUES], ws[AL_VALUES];
    int nv = al_values(m[0], vs);
    for (int i = 0; i < nv; i++) {
        int v = vs[i];
        unsigned bv = 1u << (v - 1);
        unsigned second = m[1] & ~partner[v] & ~(seen[0][1] ? bv : 0);
        if (degree == 2) {
            if (second) {
                used[0] |= bv;
                used[1] |= second;
            }
            continue;
        }
        int nw = al_values(second, ws);
        for (int j = 0; j < nw; j++) {
            int w = ws[j];
            unsigned bw = 1u << (w - 1);
            unsigned last = m[2] & ~partner[v] & ~partner[w] & ~(seen[0][2] ? bv : 0) &
                            ~(seen[1][2] ? bw : 0);
            if (any_third && v != w)
                last &= ~third[v][w];
            if (last) {
                used[0] |= bv;
                used[1] |= bw;
                used[2] |= last;
            }
        }
    }
    int found = 0;
    for (int i = 0; i < degree; i++) {
        removed[i] = m[i] & ~used[i];
        found |= removed[i] != 0;
    }
    return found;
}

/* The removals of the first set the Explainer would take: aligned_exclusion. */
static PyObject *al_search(const Aligned *a, int degree)
{
    int base[AL_CELLS], nb = 0;
    al_bits excluders[AL_CELLS] = {0}, in_base = 0;
    for (int c = 0; c < a->ncells; c++) {
        if (__builtin_popcount(a->cands[c]) < 2)
            continue;
        al_bits found = 0;
        int single = 0;
        for (al_bits p = a->peers[c]; p; p &= p - 1) {
            int q = al_lowest(p);
            int n = __builtin_popcount(a->cands[q]);
            if (n == 1)
                single = 1;
            else if (n >= 2 && n <= degree)
                found |= (al_bits)1 << q;
        }
        if (!single && found) {
            base[nb++] = c;
            excluders[c] = found;
            in_base |= (al_bits)1 << c;
        }
    }
    if (nb < degree)
        Py_RETURN_NONE;
    int cells[3];
    unsigned removed[3];
    int area[AL_CELLS];
    for (int second = 1; second < nb; second++) {
        int c1 = base[second];
        for (int first = 0; first < second; first++) {
            int c0 = base[first];
            al_bits both = excluders[c0] & excluders[c1];
            if (al_count(both) < 2)
                continue;
            cells[0] = c0;
            cells[1] = c1;
            int hit = 0;
            if (degree == 2) {
                hit = al_excluded(a, cells, 2, both, removed);
            } else {
                /* the twin area: the first's excluders among the base cells, then the
                   second's, each in reading order, without the two cells */
                int na = 0;
                al_bits one = excluders[c0] & in_base, two = excluders[c1] & in_base & ~one;
                for (al_bits s = one; s; s &= s - 1) {
                    int q = al_lowest(s);
                    if (q != c0 && q != c1)
                        area[na++] = q;
                }
                for (al_bits s = two; s; s &= s - 1) {
                    int q = al_lowest(s);
                    if (q != c0 && q != c1)
                        area[na++] = q;
                }
                for (int t = 0; t < na && !hit; t++) {
                    al_bits shared = both & excluders[area[t]];
                    if (al_count(shared) < 2)
                        continue;
                    cells[2] = area[t];
                    hit = al_excluded(a, cells, 3, shared, removed);
                }
            }
            if (hit) {
                PyObject *out = PyList_New(0);
                if (!out)
                    return NULL;
                for (int i = 0; i < degree; i++) {
                    int vs[AL_VALUES];
                    int n = al_values(removed[i], vs);
                    for (int k = 0; k < n; k++) {
                        PyObject *pair = Py_BuildValue("(ii)", cells[i], vs[k]);
                        if (!pair || PyList_Append(out, pair) < 0) {
                            Py_XDECREF(pair);
                            Py_DECREF(out);
                            return NULL;
                        }
                        Py_DECREF(pair);
                    }
                }
                PyObject *tuple = PyList_AsTuple(out);
                Py_DECREF(out);
                return tuple;
            }
        }
    }
    Py_RETURN_NONE;
}

PyObject *np_aligned(PyObject *module, PyObject *args)
{
    (void)module;
    Py_buffer peers, cands;
    int degree;
    if (!PyArg_ParseTuple(args, "y*y*i", &peers, &cands, &degree))
        return NULL;
    PyObject *result = NULL;
    int ncells = (int)(cands.len / 2);
    if (ncells > AL_CELLS || peers.len != 16 * (Py_ssize_t)ncells ||
        cands.len != 2 * (Py_ssize_t)ncells || (degree != 2 && degree != 3)) {
        PyErr_SetString(PyExc_ValueError, "aligned: sizes out of range");
        goto done;
    }
    Aligned a;
    a.ncells = ncells;
    a.cands = (const uint16_t *)cands.buf;
    for (int c = 0; c < ncells; c++) {
        const unsigned char *p = (const unsigned char *)peers.buf + 16 * c;
        al_bits m = 0;
        for (int i = 15; i >= 0; i--)
            m = (m << 8) | p[i];
        a.peers[c] = m;
    }
    result = al_search(&a, degree);
done:
    PyBuffer_Release(&peers);
    PyBuffer_Release(&cands);
    return result;
}

#endif
