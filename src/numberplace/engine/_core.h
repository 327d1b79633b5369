/*
 * _core.h: what the translation units of numberplace._core share.
 *
 * The compiled core is one extension module built from one C file per accelerator, each
 * beside its Python reference (the module that does the same in Python, which a test
 * compares it with):
 *
 *   engine/_core.c     the module: its function table, its constants, PyInit__core
 *   engine/_engine.c   the search and the Engine type (engine/_pure.py), with its own
 *                      headers _fast9.h and _vec9.h (classic 9x9) and _cdcl.h (clause
 *                      learning), and the array packing helpers
 *   engine/_sums.c     cage sums (engine/_pure.py, sums.py)
 *   cli/_lines.c       Engine.lines, the command line's writer of one-line puzzle files
 *                      (cli/search.py, engine.solve_lines)
 *   _canon.c           canonical forms (canon.py)
 *   logic/_fish.c      complex fish (logic/complex_fish.py)
 *   logic/_xchain.c    Sudoku Explainer's chains (logic/xchain.py, logic/xchain_plus.py)
 *   logic/_aligned.c   Sudoku Explainer's aligned exclusions (logic/explainer_rules.py)
 *   logic/_chains.c    the search of the chain graph (logic/chain_search.py)
 *   logic/_als.c       the search of ALS-XY-Chains (logic/als.py)
 *
 * This header holds what more than one of them needs: the Engine, a search's memory and
 * state, the limits and numbering the module publishes, and the functions one unit calls
 * in another, named np_*. Everything else stays static in its own unit.
 */
#ifndef NUMBERPLACE_CORE_H
#define NUMBERPLACE_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* The np_* functions are not exported from the module, so they cannot clash with another
   extension's symbols; and as no other object can replace them, the compiler may inline
   them within their own unit as it does static functions. */
#if defined(__GNUC__)
#define NP_INTERNAL __attribute__((visibility("hidden")))
#else
#define NP_INTERNAL
#endif

/* The entry of a header made of static functions: a unit may include it without calling
   it (a header compiles wherever it is included, without a warning). */
#if defined(__GNUC__)
#define NP_UNUSED __attribute__((unused))
#else
#define NP_UNUSED
#endif

/* The 9x9 bit-board solver (_fast9.h) is built in where it is present (NP_NO_FAST9 leaves
   it out), and fish and chains where the compiler has 128-bit integers, which hold their
   sets of cells: the module says which it has (HAVE_FAST9, HAVE_FISH, HAVE_XCHAIN). */
#if defined(__has_include) && !defined(NP_NO_FAST9)
#if __has_include("_fast9.h")
#define NP_HAVE_FAST9 1
#endif
#endif
#ifdef __SIZEOF_INT128__
#define NP_HAVE_FISH 1
#define NP_HAVE_XCHAIN 1
#endif

/* ---------------------------------------------------------------- the search */

typedef struct {
    PyObject_HEAD
    int ncells, nsym, nhouses;
    uint32_t full;
    int32_t *houses;     /* nhouses * nsym cell indices */
    int32_t *peer_start; /* ncells + 1 offsets into peers */
    int32_t *peers;
    /* house pairs sharing >= 2 cells: per pair (n_shared, n_rest_a, n_rest_b, cells...) */
    int32_t *pairs;
    Py_ssize_t pairs_len;
    /* cages with a sum: per cage (n_cells, n_sets, cells..., digit-set masks...) */
    int32_t *sums;
    Py_ssize_t sums_len;
    int fast9;
} Engine;

/* The memory one search works in. */
typedef struct {
    uint32_t *boards; /* (ncells + 2) boards of ncells masks: one per search depth */
    int32_t *branch_cell;
    uint32_t *untried;
    int32_t *queue; /* a cell is queued at most once per propagation, plus the branch cell */
    /* for the exact cage pass (shapes of up to EXACT_SUMS_MAX symbols with sums): a flag
       byte per digit set, all zero between passes, and a list of the sets a pass reached */
    uint8_t *mark;
    uint32_t *reached;
    /* per cage, the masks of its cells when the exact pass last left them: the pass is
       idempotent, so a cage whose cells still hold them is passed over */
    uint32_t *fixed;
    /* on shapes with sums: per cell, how many dead ends it took part in (the branching
       rule prefers cells with few candidates and many failures), and when to restart */
    uint32_t *weight;
    uint64_t restart_at, restart_budget;
} Scratch;

/* Shapes of up to this many symbols take the exact cage pass (its marks are a byte per
   digit set); larger ones the coarse pass. */
#define EXACT_SUMS_MAX 16
/* Cages whose digits may repeat: at most this many cells, and their sums are bit sets of
   this many 64-bit words (64 cells of 32 values). Engine() refuses larger ones. */
#define REPEATS_MAX_CELLS 64
#define REPEATS_MAX_WORDS 33

/* How often a search in the main thread lets Python run its signal handlers. */
#define SIGNAL_CHECK_SECONDS 0.02

typedef struct {
    const Engine *e;
    Scratch *w;
    int limit, keep, count, aborted;
    uint64_t node_limit, nodes, guesses;
    double deadline; /* monotonic seconds; 0 = none */
    uint8_t *out;    /* keep * ncells values */
    /* the thread state saved while the GIL is released (NULL: signals are not checked) */
    PyThreadState *tstate;
    int signals; /* this thread runs Python's signal handlers (the main thread) */
    double next_signal_check;
    int interrupted; /* a signal handler raised: its exception is set */
    /* streaming: each time `keep` solutions are stored they are passed to this callable
       (NULL: the first `keep` are kept); `stored` counts those not yet passed */
    PyObject *on_batch;
    int stored;
    /* nodes of depth-first search before clause learning takes over, on any shape without
       sums; 0: the default (_engine.c's LEARN_AFTER_NODES on shapes of LEARN_MIN_SYMBOLS
       or more, never on smaller ones); negative: never */
    long long learn_after;
} Search;

/* ---------------------------------------------------------------- the module's numbering */

#ifdef NP_HAVE_FISH
/* logic/_fish.c: the largest grid and fish it takes, house kinds (bits), categories (as
   its fish_category tells them) */
#define FISH_WORDS 10
#define FISH_CELLS (64 * FISH_WORDS)
#define FISH_HOUSES 128
#define FISH_SIZE 8
#define FISH_ROW 1
#define FISH_COL 2
#define FISH_BOX 4
#define FISH_BASIC 0
#define FISH_FRANKEN 1
#define FISH_MUTANT 2
#endif

#ifdef NP_HAVE_XCHAIN
/* logic/_xchain.c: the largest grid it takes, and the kinds of search, in the Explainer's
   order */
#define XC_CELLS 81
#define XC_VALUES 9
#define XC_HOUSES 64
enum { XK_CYCLES, XK_NISHIO, XK_MULTIPLE, XK_DYNAMIC, XK_PLUS, XK_NEST2, XK_NEST3,
       XK_NEST4, XK_NEST41, XK_NEST42, XK_KINDS };
#endif

/* ---------------------------------------------------------------- functions across units */

/* engine/_core.c: whether this is Python's main thread, which alone runs signal handlers */
NP_INTERNAL int np_in_main_thread(void);

/* engine/_engine.c: the Engine type and the module functions that belong to it */
extern NP_INTERNAL PyTypeObject np_engine_type;
NP_INTERNAL PyObject *np_pack_int32(PyObject *module, PyObject *arg);
NP_INTERNAL PyObject *np_pack_groups(PyObject *module, PyObject *arg);
NP_INTERNAL PyObject *np_peer_arrays(PyObject *module, PyObject *args);
NP_INTERNAL PyObject *np_vector9(PyObject *module, PyObject *args);
#ifdef NP_HAVE_FAST9
NP_INTERNAL void np_fast9_init(void);
#endif

/* engine/_engine.c: running searches, for cli/_lines.c (a batch of them) and _cdcl.h;
   np_blame for engine/_sums.c too, as a cage that cannot be completed is a dead end */
NP_INTERNAL double np_now_seconds(void);
NP_INTERNAL uint64_t np_now_ns(void);
NP_INTERNAL int np_batch_begin(Scratch *w, const Engine *e, int *limit);
NP_INTERNAL void np_scratch_free(Scratch *w);
NP_INTERNAL void np_search_begin(Search *s);
NP_INTERNAL int np_search_end(Search *s);
NP_INTERNAL int np_signalled(Search *s, double now);
NP_INTERNAL int np_out_of_time(Search *s);
NP_INTERNAL int np_over_budget(Search *s);
NP_INTERNAL void np_record_solution(Search *s, const uint32_t *board);
NP_INTERNAL void np_run_search(Search *s, const uint8_t *givens, const uint32_t *cands);
NP_INTERNAL void np_blame(Scratch *w, const int32_t *cells, int n);

/* engine/_sums.c */
NP_INTERNAL int np_sums_pass(const Engine *e, Scratch *w, uint32_t *board, int32_t *queue,
                             int *qn);

/* cli/_lines.c */
NP_INTERNAL PyObject *np_engine_lines(Engine *self, PyObject *args);
NP_INTERNAL PyObject *np_seconds_text(PyObject *module, PyObject *arg);

/* _canon.c */
NP_INTERNAL PyObject *np_canon(PyObject *module, PyObject *args);
NP_INTERNAL PyObject *np_canon_many(PyObject *module, PyObject *args);

/* logic/_chains.c; what a round of chain_layers keeps of the pairs it reaches (the
   module publishes them as CHAIN_*): all; an AIC's ends of one value that remove
   something; an AIC's ends of any values that remove something; a loop's ends */
enum { CH_ALL, CH_SAME_ENDS, CH_MIXED_ENDS, CH_LOOPS };
NP_INTERNAL PyObject *np_chain_layers(PyObject *module, PyObject *args);
NP_INTERNAL PyObject *np_chain_depths(PyObject *module, PyObject *args);

/* logic/_als.c */
NP_INTERNAL PyObject *np_als_chain(PyObject *module, PyObject *args);

/* logic/_fish.c */
#ifdef NP_HAVE_FISH
NP_INTERNAL PyObject *np_fish_search(PyObject *module, PyObject *args);
#endif

/* logic/_xchain.c; np_xchain_names: the name of each hint number, a new tuple of str */
#ifdef NP_HAVE_XCHAIN
NP_INTERNAL PyObject *np_xchain(PyObject *module, PyObject *args);
NP_INTERNAL PyObject *np_xchain_names(void);
/* logic/_aligned.c, on the same 128-bit cell sets */
NP_INTERNAL PyObject *np_aligned(PyObject *module, PyObject *args);
#endif

#endif /* NUMBERPLACE_CORE_H */
