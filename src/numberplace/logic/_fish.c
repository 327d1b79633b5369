/*
 * _fish.c: Franken and Mutant fish search for shapes of up to 640 cells and 128 houses
 * (fish_search in numberplace._core), every classic shape up to 25x25. The Python reference is logic/complex_fish.py
 * (_bases, _covers, _category, _eliminations): this is the same search, step for step, so
 * that its results and its use of the step budget are the same; only faster. The Python
 * search serves every other shape, and a test compares the two.
 *
 * Cell sets are arrays of 64-bit words (bit c for cell c), as many as the shape needs:
 * _fish_search.h holds the search for one number of words, and this file builds it for
 * two words (up to 128 cells) and for the most. House sets of a cover are 128-bit
 * integers, which also order and name a cover set as the sorted tuple the Python search
 * keys it by.
 * The limits, house kinds and categories are in engine/_core.h, which the module
 * publishes (FISH_*).
 */
#include "../engine/_core.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef NP_HAVE_FISH

/* a set of houses (bit h for house h) */
typedef unsigned __int128 fish_houses;

/* what the search keeps whatever the width of its cell sets */
typedef struct {
    int nh, size, category, max_fins, max_endo;
    long long budget;
    unsigned char kinds[FISH_HOUSES], cover_ok[FISH_HOUSES];
    /* each house's bit in a set of houses (a 128-bit shift by a variable is slow) */
    fish_houses bit[FISH_HOUSES];
    /* the base being covered */
    int base[FISH_SIZE];
    fish_houses in_base, in_cover;
    int ncovers;
    /* cover sets already found for this base (open addressing; 0 is empty), and the
       slots they fill, which a new base empties (the table, grown for one base with
       many cover sets, would take longer to clear whole than most bases take) */
    fish_houses *seen;
    size_t *filled;
    size_t seen_cap, seen_used;
    PyObject *out;
    int failed;
} FishCommon;

static int fish_lowest_house(fish_houses m)
{
    uint64_t lo = (uint64_t)m;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

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

static size_t fish_slot(fish_houses key, size_t cap)
{
    uint64_t mixed = (uint64_t)key ^ ((uint64_t)(key >> 64) * 0xC2B2AE3D27D4EB4Full);
    return (size_t)((mixed * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* 1 if the cover set is new for this base (and now remembered), 0 if seen, -1 on error */
static int fish_remember(FishCommon *x, fish_houses key)
{
    if (2 * (x->seen_used + 1) > x->seen_cap) {
        size_t cap = x->seen_cap ? 2 * x->seen_cap : 256;
        fish_houses *grown = calloc(cap, sizeof(fish_houses));
        size_t *filled = malloc(cap / 2 * sizeof(size_t));
        if (!grown || !filled) {
            free(grown);
            free(filled);
            return -1;
        }
        for (size_t i = 0; i < x->seen_used; i++) {
            fish_houses k = x->seen[x->filled[i]];
            size_t j = fish_slot(k, cap);
            while (grown[j])
                j = (j + 1) & (cap - 1);
            grown[j] = k;
            filled[i] = j;
        }
        free(x->seen);
        free(x->filled);
        x->seen = grown;
        x->filled = filled;
        x->seen_cap = cap;
    }
    size_t j = fish_slot(key, x->seen_cap);
    while (x->seen[j]) {
        if (x->seen[j] == key)
            return 0;
        j = (j + 1) & (x->seen_cap - 1);
    }
    x->seen[j] = key;
    x->filled[x->seen_used++] = j;
    return 1;
}

/* a new base: no cover set found yet */
static void fish_forget(FishCommon *x)
{
    for (size_t i = 0; i < x->seen_used; i++)
        x->seen[x->filled[i]] = 0;
    x->seen_used = 0;
}

static void fish_fail(FishCommon *x)
{
    x->failed = 1;
    x->budget = -1; /* unwinds the search */
}

/* the search on two words (grids of up to 128 cells) and on FISH_CELLS / 64 */
#define FW 2
#include "_fish_search.h"
#undef FW
#define FW FISH_WORDS
#include "_fish_search.h"
#undef FW
#define FISH_RUN_WIDE_(w) fish_run_##w
#define FISH_RUN_WIDE__(w) FISH_RUN_WIDE_(w)
#define FISH_RUN_WIDE FISH_RUN_WIDE__(FISH_WORDS)

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
    FishCommon f = {0};
    /* every cell set is as many bytes as the value's cells */
    Py_ssize_t width = vcells.len;
    int nh = (int)kinds.len, nb = (int)(bases.len / 4);
    int ncells = width ? (int)(pm.len / width) : 0;
    if (width < 1 || width > 8 * FISH_WORDS || nh > FISH_HOUSES || ncells > 8 * width ||
        pm.len != width * (Py_ssize_t)ncells || masks.len != width * (Py_ssize_t)nh ||
        cover_ok.len != nh || size < 1 || size > FISH_SIZE) {
        PyErr_SetString(PyExc_ValueError, "fish_search: sizes out of range");
        goto done;
    }
    f.nh = nh;
    f.size = size;
    f.budget = budget;
    f.category = category;
    f.max_fins = max_fins;
    f.max_endo = max_endo;
    memcpy(f.kinds, kinds.buf, (size_t)nh);
    for (int h = 0; h < FISH_HOUSES; h++)
        f.bit[h] = (fish_houses)1 << h;
    memcpy(f.cover_ok, cover_ok.buf, (size_t)nh);
    const int32_t *base_list = (const int32_t *)bases.buf;
    for (int i = 0; i < nb; i++) {
        if (base_list[i] < 0 || base_list[i] >= nh) {
            PyErr_SetString(PyExc_ValueError, "fish_search: a base house out of range");
            goto done;
        }
    }
    f.out = PyList_New(0);
    if (!f.out)
        goto done;
    if (width <= 16)
        fish_run_2(&f, masks.buf, pm.buf, vcells.buf, width, ncells, base_list, nb);
    else
        FISH_RUN_WIDE(&f, masks.buf, pm.buf, vcells.buf, width, ncells, base_list, nb);
    if (f.failed) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    result = Py_BuildValue("OL", f.out, f.budget);
done:
    Py_XDECREF(f.out);
    free(f.seen);
    free(f.filled);
    PyBuffer_Release(&masks);
    PyBuffer_Release(&kinds);
    PyBuffer_Release(&cover_ok);
    PyBuffer_Release(&pm);
    PyBuffer_Release(&bases);
    PyBuffer_Release(&vcells);
    return result;
}
#endif /* NP_HAVE_FISH */
