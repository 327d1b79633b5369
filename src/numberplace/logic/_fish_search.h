/*
 * _fish_search.h: the fish search of _fish.c for cell sets of FW 64-bit words (bit c for
 * cell c), up to 64 * FW cells. _fish.c includes it once for each width it builds, FW
 * defined; every name here ends in that width, so that the forms live side by side (a
 * 9x9 search runs on two words, held as one 128-bit integer; a 25x25 on ten).
 */
#define FS_CAT_(name, w) name##_##w
#define FS_CAT(name, w) FS_CAT_(name, w)
#define FS(name) FS_CAT(name, FW)
#define BITS FS(fish_bits)
#define FCELLS (64 * FW)

#if FW == 2
/* two words are one 128-bit integer, whose operations the compiler knows best */
typedef unsigned __int128 BITS;

static inline BITS FS(b_or)(BITS a, BITS b) { return a | b; }
static inline BITS FS(b_and)(BITS a, BITS b) { return a & b; }
static inline BITS FS(b_minus)(BITS a, BITS b) { return a & ~b; }
static inline int FS(b_any)(BITS a) { return a != 0; }
static inline BITS FS(b_without_lowest)(BITS a) { return a & (a - 1); }
static inline BITS FS(b_with)(BITS a, int c) { return a | ((BITS)1 << c); }
static inline BITS FS(b_fill)(uint64_t word) { return ((BITS)word << 64) | word; }

static inline int FS(b_count)(BITS a)
{
    return __builtin_popcountll((uint64_t)a) + __builtin_popcountll((uint64_t)(a >> 64));
}

static inline int FS(b_lowest)(BITS a)
{
    uint64_t lo = (uint64_t)a;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(a >> 64));
}

static inline uint64_t FS(b_word)(BITS a, int k) { return (uint64_t)(a >> (64 * k)); }
static inline BITS FS(b_put)(BITS a, int k, uint64_t word)
{
    return a | ((BITS)word << (64 * k));
}
#else
typedef struct {
    uint64_t w[FW];
} BITS;

static inline BITS FS(b_or)(BITS a, BITS b)
{
    for (int k = 0; k < FW; k++)
        a.w[k] |= b.w[k];
    return a;
}

static inline BITS FS(b_and)(BITS a, BITS b)
{
    for (int k = 0; k < FW; k++)
        a.w[k] &= b.w[k];
    return a;
}

/* a without b */
static inline BITS FS(b_minus)(BITS a, BITS b)
{
    for (int k = 0; k < FW; k++)
        a.w[k] &= ~b.w[k];
    return a;
}

static inline int FS(b_any)(BITS a)
{
    uint64_t any = 0;
    for (int k = 0; k < FW; k++)
        any |= a.w[k];
    return any != 0;
}

static inline int FS(b_count)(BITS a)
{
    int n = 0;
    for (int k = 0; k < FW; k++)
        n += __builtin_popcountll(a.w[k]);
    return n;
}

/* the lowest cell of a non-empty set */
static inline int FS(b_lowest)(BITS a)
{
    for (int k = 0; k < FW; k++)
        if (a.w[k])
            return 64 * k + __builtin_ctzll(a.w[k]);
    return -1;
}

static inline BITS FS(b_without_lowest)(BITS a)
{
    for (int k = 0; k < FW; k++)
        if (a.w[k]) {
            a.w[k] &= a.w[k] - 1;
            break;
        }
    return a;
}

static inline BITS FS(b_with)(BITS a, int c)
{
    a.w[c >> 6] |= 1ull << (c & 63);
    return a;
}

static inline BITS FS(b_fill)(uint64_t word)
{
    BITS a;
    for (int k = 0; k < FW; k++)
        a.w[k] = word;
    return a;
}

static inline uint64_t FS(b_word)(BITS a, int k) { return a.w[k]; }
static inline BITS FS(b_put)(BITS a, int k, uint64_t word)
{
    a.w[k] |= word;
    return a;
}
#endif

/* ``width`` little-endian bytes, at most 8 * FW */
static BITS FS(b_read)(const unsigned char *p, Py_ssize_t width)
{
    BITS a = FS(b_fill)(0);
    for (Py_ssize_t i = 0; i < width; i++)
        a = FS(b_put)(a, (int)(i >> 3), (uint64_t)p[i] << (8 * (i & 7)));
    return a;
}

static PyObject *FS(b_bytes)(BITS a)
{
    unsigned char buf[8 * FW];
    for (int i = 0; i < 8 * FW; i++)
        buf[i] = (unsigned char)(FS(b_word)(a, i >> 3) >> (8 * (i & 7)));
    return PyBytes_FromStringAndSize((const char *)buf, 8 * FW);
}

typedef struct {
    FishCommon c;
    BITS masks[FISH_HOUSES];
    BITS pm[FCELLS];
    BITS vcells, body;
    /* the houses holding each cell, in increasing order */
    unsigned char hoc[FCELLS][FISH_HOUSES];
    unsigned char nhoc[FCELLS];
} FS(FishSearch);

/* a cover set found: kept when of the category asked and removing something */
static void FS(fish_found)(FS(FishSearch) *x, fish_houses key, BITS fins)
{
    FishCommon *f = &x->c;
    int kb = 0, kc = 0;
    for (int i = 0; i < f->size; i++)
        kb |= f->kinds[f->base[i]];
    BITS covered = FS(b_fill)(0), twice = FS(b_fill)(0);
    for (fish_houses k = key; k; k &= k - 1) {
        int h = fish_lowest_house(k);
        kc |= f->kinds[h];
        twice = FS(b_or)(twice, FS(b_and)(covered, x->masks[h]));
        covered = FS(b_or)(covered, x->masks[h]);
    }
    if (fish_category(kb, kc) != f->category)
        return;
    BITS targets = FS(b_or)(FS(b_minus)(covered, x->body), FS(b_and)(twice, x->body));
    targets = FS(b_minus)(FS(b_and)(targets, x->vcells), fins);
    for (BITS rest = fins; FS(b_any)(rest); rest = FS(b_without_lowest)(rest))
        targets = FS(b_and)(targets, x->pm[FS(b_lowest)(rest)]);
    if (!FS(b_any)(targets))
        return;
    PyObject *base = PyTuple_New(f->size);
    PyObject *covers = PyTuple_New(f->size);
    if (!base || !covers) {
        Py_XDECREF(base);
        Py_XDECREF(covers);
        fish_fail(f);
        return;
    }
    int n = 0;
    for (int i = 0; i < f->size; i++)
        PyTuple_SET_ITEM(base, i, PyLong_FromLong(f->base[i]));
    for (fish_houses k = key; k; k &= k - 1)
        PyTuple_SET_ITEM(covers, n++, PyLong_FromLong(fish_lowest_house(k)));
    PyObject *item = Py_BuildValue("NNNN", base, covers, FS(b_bytes)(fins),
                                   FS(b_bytes)(targets));
    if (!item || PyList_Append(f->out, item) < 0)
        fish_fail(f);
    Py_XDECREF(item);
}

static void FS(fish_walk)(FS(FishSearch) *x, BITS covered, BITS fins, BITS fin_peers)
{
    FishCommon *f = &x->c;
    if (--f->budget < 0)
        return;
    BITS open = FS(b_minus)(FS(b_minus)(x->body, covered), fins);
    if (f->ncovers == f->size) {
        fins = FS(b_or)(fins, open);
        if (FS(b_count)(fins) > f->max_fins)
            return;
        int fresh = fish_remember(f, f->in_cover);
        if (fresh < 0)
            fish_fail(f);
        else if (fresh)
            FS(fish_found)(x, f->in_cover, fins);
        return;
    }
    if (!FS(b_any)(open))
        return; /* fewer covers than bases hold every base candidate: a broken board */
    int c = FS(b_lowest)(open);
    for (int k = 0; k < x->nhoc[c]; k++) {
        int h = x->hoc[c][k];
        fish_houses hb = f->bit[h];
        if (!f->cover_ok[h] || (f->in_base & hb) || (f->in_cover & hb))
            continue;
        f->in_cover |= hb;
        f->ncovers++;
        FS(fish_walk)(x, FS(b_or)(covered, x->masks[h]), fins, fin_peers);
        f->ncovers--;
        f->in_cover &= ~hb;
        if (f->budget < 0)
            return; /* every later call would return at once */
    }
    BITS peers = FS(b_and)(fin_peers, x->pm[c]);
    if (FS(b_count)(fins) < f->max_fins && FS(b_any)(peers))
        FS(fish_walk)(x, covered, FS(b_with)(fins, c), peers);
}

static void FS(fish_cover)(FS(FishSearch) *x, BITS endo)
{
    FishCommon *f = &x->c;
    x->body = FS(b_fill)(0);
    f->in_base = 0;
    for (int i = 0; i < f->size; i++) {
        x->body = FS(b_or)(x->body, x->masks[f->base[i]]);
        f->in_base |= f->bit[f->base[i]];
    }
    fish_forget(f);
    BITS fin_peers = FS(b_fill)(~0ull);
    for (BITS e = endo; FS(b_any)(e); e = FS(b_without_lowest)(e))
        fin_peers = FS(b_and)(fin_peers, x->pm[FS(b_lowest)(e)]);
    f->in_cover = 0;
    f->ncovers = 0;
    if (FS(b_any)(fin_peers))
        FS(fish_walk)(x, FS(b_fill)(0), endo, fin_peers);
}

static void FS(fish_pick)(FS(FishSearch) *x, const int *houses, int n, int start, int depth,
                          BITS used, BITS endo)
{
    FishCommon *f = &x->c;
    if (depth == f->size) {
        FS(fish_cover)(x, endo);
        return;
    }
    for (int i = start; i < n; i++) {
        if (--f->budget < 0)
            return;
        int h = houses[i];
        BITS shared = FS(b_or)(endo, FS(b_and)(x->masks[h], used));
        if (FS(b_count)(shared) > f->max_endo)
            continue;
        f->base[depth] = h;
        FS(fish_pick)(x, houses, n, i + 1, depth + 1, FS(b_or)(used, x->masks[h]), shared);
        if (f->budget < 0)
            return;
    }
}

/* The search of fish_search on cell sets of ``width`` bytes (at most 8 * FW): fills
   f->out, or sets f->failed. */
static void FS(fish_run)(FishCommon *common, const unsigned char *masks,
                         const unsigned char *pm, const unsigned char *vcells,
                         Py_ssize_t width, int ncells, const int32_t *bases, int nb)
{
    FS(FishSearch) *x = ncells <= FCELLS ? calloc(1, sizeof(FS(FishSearch))) : NULL;
    if (!x) {
        fish_fail(common);
        return;
    }
    x->c = *common;
    FishCommon *f = &x->c;
    x->vcells = FS(b_read)(vcells, width);
    for (int h = 0; h < f->nh; h++) {
        x->masks[h] = FS(b_read)(masks + width * h, width);
        for (BITS m = x->masks[h]; FS(b_any)(m); m = FS(b_without_lowest)(m)) {
            int c = FS(b_lowest)(m);
            if (c < ncells && c < FCELLS && x->nhoc[c] < FISH_HOUSES)
                x->hoc[c][x->nhoc[c]++] = (unsigned char)h;
        }
    }
    for (int c = 0; c < ncells; c++)
        x->pm[c] = FS(b_read)(pm + width * c, width);
    FS(fish_pick)(x, bases, nb, 0, 0, FS(b_fill)(0), FS(b_fill)(0));
    *common = x->c;
    free(x);
}

#undef FS_CAT_
#undef FS_CAT
#undef FS
#undef BITS
#undef FCELLS
