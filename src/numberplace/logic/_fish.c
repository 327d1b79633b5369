/*
 * _fish.c: Franken and Mutant fish search for shapes of up to 128 cells and 64 houses
 * (fish_search in numberplace._core). The Python reference is logic/complex_fish.py
 * (_bases, _covers, _category, _eliminations): this is the same search, step for step, so
 * that its results and its use of the step budget are the same; only faster. The Python
 * search serves every other shape, and a test compares the two.
 *
 * Cell sets are 128-bit words (bit c for cell c); house sets of a cover are 64-bit words,
 * which also order and name a cover set as the sorted tuple the Python search keys it by.
 * The limits, house kinds and categories are in engine/_core.h, which the module
 * publishes (FISH_*).
 */
#include "../engine/_core.h"

#include <stdint.h>
#include <stdlib.h>

#ifdef NP_HAVE_FISH

typedef unsigned __int128 fish_bits;

static int fish_count(fish_bits m)
{
    return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64));
}

static int fish_lowest(fish_bits m)
{
    uint64_t lo = (uint64_t)m;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

static fish_bits fish_read(const unsigned char *p)
{
    fish_bits out = 0;
    for (int i = 15; i >= 0; i--)
        out = (out << 8) | p[i];
    return out;
}

static PyObject *fish_bytes(fish_bits m)
{
    unsigned char buf[16];
    for (int i = 0; i < 16; i++) {
        buf[i] = (unsigned char)(m & 0xff);
        m >>= 8;
    }
    return PyBytes_FromStringAndSize((const char *)buf, 16);
}

typedef struct {
    int nh, size, category, max_fins, max_endo;
    long long budget;
    fish_bits masks[FISH_HOUSES];
    fish_bits pm[FISH_CELLS];
    fish_bits vcells;
    unsigned char kinds[FISH_HOUSES], cover_ok[FISH_HOUSES];
    /* the houses holding each cell, in increasing order */
    unsigned char hoc[FISH_CELLS][FISH_HOUSES];
    unsigned char nhoc[FISH_CELLS];
    /* the base being covered */
    int base[FISH_SIZE];
    uint64_t in_base, in_cover;
    int ncovers;
    fish_bits body;
    /* cover sets already found for this base (open addressing; 0 is empty) */
    uint64_t *seen;
    size_t seen_cap, seen_used;
    PyObject *out;
    int failed;
} FishSearch;

/* basic 0, Franken 1 or Mutant 2, from the kinds on each side (as _category) */
static int fish_category(int kb, int kc)
{
    if (((kb | kc) & ~(FISH_ROW | FISH_COL)) == 0 && __builtin_popcount(kb) == 1 &&
        __builtin_popcount(kc) == 1 && kb != kc)
        return 0;
    if ((kb & ~(FISH_ROW | FISH_BOX)) == 0 && (kc & ~(FISH_COL | FISH_BOX)) == 0)
        return 1;
    if ((kb & ~(FISH_COL | FISH_BOX)) == 0 && (kc & ~(FISH_ROW | FISH_BOX)) == 0)
        return 1;
    return 2;
}

/* 1 if the cover set is new for this base (and now remembered), 0 if seen, -1 on error */
static int fish_remember(FishSearch *x, uint64_t key)
{
    if (2 * (x->seen_used + 1) > x->seen_cap) {
        size_t cap = x->seen_cap ? 2 * x->seen_cap : 256;
        uint64_t *grown = calloc(cap, sizeof(uint64_t));
        if (!grown)
            return -1;
        for (size_t i = 0; i < x->seen_cap; i++) {
            uint64_t k = x->seen[i];
            if (!k)
                continue;
            size_t j = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
            while (grown[j])
                j = (j + 1) & (cap - 1);
            grown[j] = k;
        }
        free(x->seen);
        x->seen = grown;
        x->seen_cap = cap;
    }
    size_t j = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (x->seen_cap - 1);
    while (x->seen[j]) {
        if (x->seen[j] == key)
            return 0;
        j = (j + 1) & (x->seen_cap - 1);
    }
    x->seen[j] = key;
    x->seen_used++;
    return 1;
}

static void fish_fail(FishSearch *x)
{
    x->failed = 1;
    x->budget = -1; /* unwinds the search */
}

/* a cover set found: kept when of the category asked and removing something */
static void fish_found(FishSearch *x, uint64_t key, fish_bits fins)
{
    int kb = 0, kc = 0;
    for (int i = 0; i < x->size; i++)
        kb |= x->kinds[x->base[i]];
    fish_bits covered = 0, twice = 0;
    for (uint64_t k = key; k; k &= k - 1) {
        int h = __builtin_ctzll(k);
        kc |= x->kinds[h];
        twice |= covered & x->masks[h];
        covered |= x->masks[h];
    }
    if (fish_category(kb, kc) != x->category)
        return;
    fish_bits targets = (covered & ~x->body) | (twice & x->body);
    targets &= x->vcells & ~fins;
    for (fish_bits f = fins; f; f &= f - 1)
        targets &= x->pm[fish_lowest(f)];
    if (!targets)
        return;
    PyObject *base = PyTuple_New(x->size);
    PyObject *covers = PyTuple_New(x->size);
    if (!base || !covers) {
        Py_XDECREF(base);
        Py_XDECREF(covers);
        fish_fail(x);
        return;
    }
    int n = 0;
    for (int i = 0; i < x->size; i++)
        PyTuple_SET_ITEM(base, i, PyLong_FromLong(x->base[i]));
    for (uint64_t k = key; k; k &= k - 1)
        PyTuple_SET_ITEM(covers, n++, PyLong_FromLong(__builtin_ctzll(k)));
    PyObject *item = Py_BuildValue("NNNN", base, covers, fish_bytes(fins), fish_bytes(targets));
    if (!item || PyList_Append(x->out, item) < 0)
        fish_fail(x);
    Py_XDECREF(item);
}

static void fish_walk(FishSearch *x, fish_bits covered, fish_bits fins, fish_bits fin_peers)
{
    if (--x->budget < 0)
        return;
    fish_bits open = x->body & ~covered & ~fins;
    if (x->ncovers == x->size) {
        fins |= open;
        if (fish_count(fins) > x->max_fins)
            return;
        int fresh = fish_remember(x, x->in_cover);
        if (fresh < 0)
            fish_fail(x);
        else if (fresh)
            fish_found(x, x->in_cover, fins);
        return;
    }
    if (!open)
        return; /* fewer covers than bases hold every base candidate: a broken board */
    int c = fish_lowest(open);
    for (int k = 0; k < x->nhoc[c]; k++) {
        int h = x->hoc[c][k];
        uint64_t hb = 1ull << h;
        if (!x->cover_ok[h] || (x->in_base & hb) || (x->in_cover & hb))
            continue;
        x->in_cover |= hb;
        x->ncovers++;
        fish_walk(x, covered | x->masks[h], fins, fin_peers);
        x->ncovers--;
        x->in_cover &= ~hb;
        if (x->budget < 0)
            return; /* every later call would return at once */
    }
    if (fish_count(fins) < x->max_fins && (fin_peers & x->pm[c]))
        fish_walk(x, covered, fins | ((fish_bits)1 << c), fin_peers & x->pm[c]);
}

static void fish_cover(FishSearch *x, fish_bits endo)
{
    x->body = 0;
    x->in_base = 0;
    for (int i = 0; i < x->size; i++) {
        x->body |= x->masks[x->base[i]];
        x->in_base |= 1ull << x->base[i];
    }
    if (x->seen_used) {
        memset(x->seen, 0, x->seen_cap * sizeof(uint64_t));
        x->seen_used = 0;
    }
    fish_bits fin_peers = ~(fish_bits)0;
    for (fish_bits e = endo; e; e &= e - 1)
        fin_peers &= x->pm[fish_lowest(e)];
    x->in_cover = 0;
    x->ncovers = 0;
    if (fin_peers)
        fish_walk(x, 0, endo, fin_peers);
}

static void fish_pick(FishSearch *x, const int *houses, int n, int start, int depth,
                      fish_bits used, fish_bits endo)
{
    if (depth == x->size) {
        fish_cover(x, endo);
        return;
    }
    for (int i = start; i < n; i++) {
        if (--x->budget < 0)
            return;
        int h = houses[i];
        fish_bits shared = endo | (x->masks[h] & used);
        if (fish_count(shared) > x->max_endo)
            continue;
        x->base[depth] = h;
        fish_pick(x, houses, n, i + 1, depth + 1, used | x->masks[h], shared);
        if (x->budget < 0)
            return;
    }
}

PyObject *np_fish_search(PyObject *module, PyObject *args)
{
    (void)module;
    Py_buffer masks, kinds, cover_ok, pm, bases, vcells;
    int size, category, max_fins, max_endo;
    long long budget;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*iLiii", &masks, &kinds, &cover_ok, &pm, &bases,
                          &vcells, &size, &budget, &category, &max_fins, &max_endo))
        return NULL;
    PyObject *result = NULL;
    FishSearch *x = calloc(1, sizeof(FishSearch));
    int nh = (int)kinds.len, ncells = (int)(pm.len / 16), nb = (int)(bases.len / 4);
    if (!x) {
        PyErr_NoMemory();
        goto done;
    }
    if (nh > FISH_HOUSES || ncells > FISH_CELLS || masks.len != 16 * (Py_ssize_t)nh ||
        cover_ok.len != nh || vcells.len != 16 || size < 1 || size > FISH_SIZE) {
        PyErr_SetString(PyExc_ValueError, "fish_search: sizes out of range");
        goto done;
    }
    x->nh = nh;
    x->size = size;
    x->budget = budget;
    x->category = category;
    x->max_fins = max_fins;
    x->max_endo = max_endo;
    x->vcells = fish_read(vcells.buf);
    for (int h = 0; h < nh; h++) {
        x->masks[h] = fish_read((const unsigned char *)masks.buf + 16 * h);
        x->kinds[h] = ((const unsigned char *)kinds.buf)[h];
        x->cover_ok[h] = ((const unsigned char *)cover_ok.buf)[h];
        for (fish_bits m = x->masks[h]; m; m &= m - 1) {
            int c = fish_lowest(m);
            if (c < ncells)
                x->hoc[c][x->nhoc[c]++] = (unsigned char)h;
        }
    }
    for (int c = 0; c < ncells; c++)
        x->pm[c] = fish_read((const unsigned char *)pm.buf + 16 * c);
    const int32_t *base_list = (const int32_t *)bases.buf;
    for (int i = 0; i < nb; i++) {
        if (base_list[i] < 0 || base_list[i] >= nh) {
            PyErr_SetString(PyExc_ValueError, "fish_search: a base house out of range");
            goto done;
        }
    }
    x->out = PyList_New(0);
    if (!x->out)
        goto done;
    fish_pick(x, base_list, nb, 0, 0, 0, 0);
    if (x->failed) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    result = Py_BuildValue("OL", x->out, x->budget);
done:
    if (x) {
        Py_XDECREF(x->out);
        free(x->seen);
        free(x);
    }
    PyBuffer_Release(&masks);
    PyBuffer_Release(&kinds);
    PyBuffer_Release(&cover_ok);
    PyBuffer_Release(&pm);
    PyBuffer_Release(&bases);
    PyBuffer_Release(&vcells);
    return result;
}
#endif /* NP_HAVE_FISH */
