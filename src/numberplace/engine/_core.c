/*
 * numberplace._core: the compiled core, an optional accelerator of the pure-Python
 * package. This file is the module alone: its function table, its constants and
 * PyInit__core. Each accelerator is a translation unit of its own, beside its Python
 * reference, and engine/_core.h lists them and what they share:
 *
 *   engine/_engine.c   the search engine and the Engine type (engine/_pure.py)
 *   engine/_sums.c     cage sums (engine/_pure.py, sums.py)
 *   cli/_lines.c       Engine.lines and seconds_text (cli/search.py)
 *   _canon.c           canon and canon_many (canon.py)
 *   logic/_fish.c      fish_search (logic/complex_fish.py)
 *   logic/_xchain.c    xchain (logic/xchain.py, logic/xchain_plus.py)
 *   logic/_aligned.c   aligned (logic/explainer_rules.py)
 *   logic/_chains.c    chain_layers and chain_depths (logic/chain_search.py)
 *   logic/_als.c       als_chain (logic/als.py)
 *
 * Python reaches it through native.py alone and _core.pyi declares it; REVISION changes
 * with what it offers (native.py uses no core of another revision).
 */
#include "_core.h"

/* Python's main thread, which alone runs signal handlers. */
static unsigned long main_thread;

/* Find the main thread's identity (threading.main_thread().ident); 0 if that failed. */
static int find_main_thread(void)
{
    PyObject *threading = PyImport_ImportModule("threading");
    PyObject *main = threading ? PyObject_CallMethod(threading, "main_thread", NULL) : NULL;
    PyObject *ident = main ? PyObject_GetAttrString(main, "ident") : NULL;
    if (ident)
        main_thread = PyLong_AsUnsignedLong(ident);
    Py_XDECREF(ident);
    Py_XDECREF(main);
    Py_XDECREF(threading);
    return ident && !PyErr_Occurred();
}

/* A search checks for signals only where their handlers can run: in the main thread. */
int np_in_main_thread(void)
{
    return PyThread_get_thread_ident() == main_thread;
}

static PyMethodDef core_functions[] = {
    {"vector9", np_vector9, METH_VARARGS,
     "vector9([on]) -> bool: whether 9x9 searches take the AVX-512 vector form (_vec9.h); "
     "on=True/False switches it (True only where the processor runs AVX-512)"},
    {"canon_many", np_canon_many, METH_VARARGS,
     "canon_many(n, box_rows, box_cols, values, limit) -> (forms, status): the canonical "
     "givens of many puzzles (n*n bytes each; zeros where status is 1, past the work "
     "limit, or 2, clashing givens)"},
    {"canon", np_canon, METH_VARARGS,
     "canon(n, box_rows, box_cols, values, limit) -> (key, transposed, rows, cols, labels), "
     "None past the work limit, or 2 when givens clash: see _canon.c"},
    {"peer_arrays", np_peer_arrays, METH_VARARGS,
     "peer_arrays(ncells, groups) -> (offsets, peers): each cell's peers, in increasing order"},
    {"seconds_text", np_seconds_text, METH_O,
     "seconds_text(ns) -> str: round(ns / 1e9, 6) as JSON writes it"},
    {"pack_int32", np_pack_int32, METH_O,
     "pack_int32(ints) -> bytes: whole numbers as native 32-bit ints"},
    {"pack_groups", np_pack_groups, METH_O,
     "pack_groups(groups) -> (offsets, cells): groups of whole numbers as 32-bit int arrays"},
    {"chain_layers", np_chain_layers, METH_VARARGS,
     "chain_layers(strong_off, strong, live_off, live, weak_off, weak, starts, ends_off, "
     "ends, max_links, mode, cells, values, masks, peers, value_cells, candidates, "
     "deadline) -> [(reached, closed)] a round, or False past the deadline: "
     "logic/chain_search.py's _layers, thinned by mode (see logic/_chains.c)"},
    {"chain_depths", np_chain_depths, METH_VARARGS,
     "chain_depths(strong_off, strong, live_off, live, weak_off, weak, start, ends, "
     "max_links) -> {state: links from the start}: one start's search of chain_layers"},
    {"als_chain", np_als_chain, METH_VARARGS,
     "als_chain(cells, masks, removable, link_off, links, most_sets, budget, deadline) -> "
     "(chains, budget) or False past the deadline: logic/als.py's search of ALS-XY-Chains "
     "(see logic/_als.c)"},
#ifdef NP_HAVE_FISH
    {"fish_search", np_fish_search, METH_VARARGS,
     "fish_search(masks, kinds, cover_ok, peers, bases, vcells, size, budget, category, "
     "max_fins, max_endo) -> (found, budget): logic/complex_fish.py's search of one size"},
#endif
#ifdef NP_HAVE_XCHAIN
    {"xchain", np_xchain, METH_VARARGS,
     "xchain(ncells, size, houses, kinds, candidates, kind, deadline) -> (value, size, "
     "order, name, removals), None, or False past the deadline: logic/xchain.py's "
     "chains of one kind, nested ones included (see logic/_xchain.c)"},
    {"aligned", np_aligned, METH_VARARGS,
     "aligned(peers, candidates, degree) -> removals or None: logic/explainer_rules.py's "
     "aligned pair (degree 2) or triple (3) exclusion (see logic/_aligned.c)"},
#endif
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "numberplace._core",
    "Compiled accelerators of numberplace: the search engine, cage sums, canonical forms, "
    "complex fish, Sudoku Explainer's chains and the command line's line writer.",
    -1, core_functions};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&np_engine_type) < 0)
        return NULL;
    if (!find_main_thread())
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    Py_INCREF(&np_engine_type);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&np_engine_type) < 0) {
        Py_DECREF(&np_engine_type);
        Py_DECREF(m);
        return NULL;
    }
    /* the revision of this interface (native.py uses no core of another), and the limits
       and numbering of the searches, which Python reads rather than copies */
    PyModule_AddIntConstant(m, "REVISION", 3);
    PyModule_AddIntConstant(m, "CHAIN_ALL", CH_ALL);
    PyModule_AddIntConstant(m, "CHAIN_SAME_ENDS", CH_SAME_ENDS);
    PyModule_AddIntConstant(m, "CHAIN_MIXED_ENDS", CH_MIXED_ENDS);
    PyModule_AddIntConstant(m, "CHAIN_LOOPS", CH_LOOPS);
#ifdef NP_HAVE_XCHAIN
    PyModule_AddIntConstant(m, "HAVE_XCHAIN", 1);
    PyModule_AddIntConstant(m, "XCHAIN_KINDS", XK_KINDS);
    PyModule_AddIntConstant(m, "XCHAIN_CELLS", XC_CELLS);
    PyModule_AddIntConstant(m, "XCHAIN_VALUES", XC_VALUES);
    PyModule_AddIntConstant(m, "XCHAIN_HOUSES", XC_HOUSES);
    {
        PyObject *names = np_xchain_names();
        if (!names) {
            Py_DECREF(m);
            return NULL;
        }
        if (PyModule_AddObject(m, "XCHAIN_NAMES", names) < 0) {
            Py_DECREF(names);
            Py_DECREF(m);
            return NULL;
        }
    }
#else
    PyModule_AddIntConstant(m, "HAVE_XCHAIN", 0);
#endif
#ifdef NP_HAVE_FISH
    PyModule_AddIntConstant(m, "HAVE_FISH", 1);
    PyModule_AddIntConstant(m, "FISH_CELLS", FISH_CELLS);
    PyModule_AddIntConstant(m, "FISH_HOUSES", FISH_HOUSES);
    PyModule_AddIntConstant(m, "FISH_SIZE", FISH_SIZE);
    PyModule_AddIntConstant(m, "FISH_ROW", FISH_ROW);
    PyModule_AddIntConstant(m, "FISH_COLUMN", FISH_COL);
    PyModule_AddIntConstant(m, "FISH_BOX", FISH_BOX);
    PyModule_AddIntConstant(m, "FISH_BASIC", FISH_BASIC);
    PyModule_AddIntConstant(m, "FISH_FRANKEN", FISH_FRANKEN);
    PyModule_AddIntConstant(m, "FISH_MUTANT", FISH_MUTANT);
#else
    PyModule_AddIntConstant(m, "HAVE_FISH", 0);
#endif
#ifdef NP_HAVE_FAST9
    np_fast9_init(); /* its tables are filled once, before any thread can search */
    PyModule_AddIntConstant(m, "HAVE_FAST9", 1);
#else
    PyModule_AddIntConstant(m, "HAVE_FAST9", 0);
#endif
    return m;
}
