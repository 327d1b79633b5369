/*
 * _lines.c: files of one puzzle per line, from text to text in one call (Engine.lines in
 * numberplace._core), for the command line's solve, count and check.
 *
 * `Engine.lines` takes a block of whole lines and does for each what those commands do
 * (cli/search.py, through engine.solve_lines): strip it, skip it when blank or a '#'
 * comment, read its cells through a table (character -> value), search, and write the
 * result as the command writes it (plain text or a JSON record). Python's share per
 * puzzle is gone, which on easy puzzles was most of the time.
 *
 * Only the common outcomes are written here: one solution, several, or one found with
 * limit 1. Everything else (a line that is not a plain puzzle of this shape, no
 * solution, a search cut by its budget, a complete grid given to check) comes back as a
 * "hole": where in the output it goes and what the search found, for Python to write
 * with its own words. So the text of an unusual record has one author, and a test
 * checks that the common ones here read byte for byte as Python writes them.
 *
 * The searches are the engine's (engine/_engine.c), run through the np_* functions of
 * engine/_core.h.
 */
#include "../engine/_core.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The low bits of the mode: which command's text to write. */
enum { LINES_COUNT = 0, LINES_SOLVE = 1, LINES_CHECK = 2 };
#define LINES_JSON 4   /* JSON records instead of text */
#define LINES_QUIET 8  /* write nothing: every puzzle is a hole (Python writes them) */
#define LINES_HOLE_VALUE 255 /* a table entry for a character this path does not read */

/* A growing byte buffer; ok turns 0 when memory ran out. */
typedef struct {
    char *data;
    size_t len, cap;
    int ok;
} Buffer;

static int buffer_room(Buffer *b, size_t more)
{
    if (!b->ok)
        return 0;
    if (b->len + more <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap < b->len + more)
        cap *= 2;
    char *data = realloc(b->data, cap);
    if (!data) {
        b->ok = 0;
        return 0;
    }
    b->data = data;
    b->cap = cap;
    return 1;
}

static void put_bytes(Buffer *b, const char *s, size_t n)
{
    if (buffer_room(b, n)) {
        memcpy(b->data + b->len, s, n);
        b->len += n;
    }
}

/* Writers into room already made: each returns the end of what it wrote. */
static char *write_bytes(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

#define WRITE_TEXT(p, literal) write_bytes(p, literal, sizeof(literal) - 1)

static char *write_uint(char *p, uint64_t v)
{
    char tmp[24];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k)
        *p++ = tmp[--k];
    return p;
}

/* What Python's json.dumps(round(ns / 1e9, 6)) writes, into dst (at least 32 bytes);
   returns the length. round() rounds the double's exact value to whole microseconds,
   ties to even; json writes the shortest text that reads back as that double, which for
   a whole number of microseconds below 10**15 is its own digits. repr switches to an
   exponent below 1e-4. */
static int seconds_text(char *dst, uint64_t ns)
{
    uint64_t micro = ns / 1000, rest = ns % 1000;
    if (rest > 500) {
        micro++;
    } else if (rest == 500) {
        /* a tie in decimal; the double ns / 1e9 lies above or below it, or on it */
        double d = (double)ns / 1e9;
        double above = fma(d, 1e9, -(double)ns);
        if (above > 0 || (above == 0 && (micro & 1)))
            micro++;
    }
    if (!micro) {
        memcpy(dst, "0.0", 4);
        return 3;
    }
    char digits[24];
    int k = 0;
    for (uint64_t m = micro; m; m /= 10)
        digits[k++] = (char)('0' + m % 10);
    for (int i = 0; i < k / 2; i++) {
        char t = digits[i];
        digits[i] = digits[k - 1 - i];
        digits[k - 1 - i] = t;
    }
    int point = k - 6; /* the value is 0.DIGITS times 10**point */
    int nd = k;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    int n = 0;
    if (point <= -4) {
        dst[n++] = digits[0];
        if (nd > 1) {
            dst[n++] = '.';
            memcpy(dst + n, digits + 1, (size_t)nd - 1);
            n += nd - 1;
        }
        int e = point - 1; /* at most -4 here: two digits always do */
        dst[n++] = 'e';
        dst[n++] = '-';
        dst[n++] = (char)('0' + (-e) / 10);
        dst[n++] = (char)('0' + (-e) % 10);
    } else if (point <= 0) {
        dst[n++] = '0';
        dst[n++] = '.';
        for (int i = 0; i < -point; i++)
            dst[n++] = '0';
        memcpy(dst + n, digits, (size_t)nd);
        n += nd;
    } else if (point < nd) {
        memcpy(dst + n, digits, (size_t)point);
        n += point;
        dst[n++] = '.';
        memcpy(dst + n, digits + point, (size_t)(nd - point));
        n += nd - point;
    } else {
        memcpy(dst + n, digits, (size_t)nd);
        n += nd;
        for (int i = nd; i < point; i++)
            dst[n++] = '0';
        dst[n++] = '.';
        dst[n++] = '0';
    }
    dst[n] = 0;
    return n;
}

/* One record Python writes: where it goes in the output and what the search found. */
typedef struct {
    size_t offset;     /* in the output */
    long line;         /* line number in the file */
    size_t text, len;  /* the stripped line, in the input */
    int searched;      /* 0: not read here (Python reads the line itself) */
    int count, aborted;
    uint64_t nodes, guesses, ns;
    size_t values;     /* searched: 2 * ncells bytes in the side buffer (givens, first) */
} Hole;

/* Python's str.strip() whitespace among ASCII characters. */
static int is_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* Whether the symbols are "." then the digits from 1 (sizes up to 9): then a value's
   symbol is arithmetic, which the compiler does many bytes at a time. */
static int plain_digits(const uint8_t *symbols, int nsym)
{
    if (nsym > 9 || symbols[0] != '.')
        return 0;
    for (int v = 1; v <= nsym; v++)
        if (symbols[v] != '0' + v)
            return 0;
    return 1;
}

static char *write_symbols(char *p, const uint8_t *values, int n, const uint8_t *symbols,
                           int plain)
{
    if (plain) {
        for (int i = 0; i < n; i++)
            p[i] = (char)(values[i] ? '0' + values[i] : '.');
    } else {
        for (int i = 0; i < n; i++)
            p[i] = (char)symbols[values[i]];
    }
    return p + n;
}

/* Read a line of plain digits ("." or "0" for an empty cell) into values, without the
   table: returns 0 if some character is not one of them (or above nsym), and the line
   goes through the table instead. No early exit, so the loop runs many bytes at once. */
static int read_digits(const uint8_t *text, int n, int nsym, uint8_t *values, int *ngiven)
{
    int bad = 0, count = 0;
    for (int i = 0; i < n; i++) {
        uint8_t c = text[i], v = (uint8_t)(c - '0');
        int dot = c == '.';
        bad |= !dot & (v > nsym);
        v = dot ? 0 : v;
        values[i] = v;
        count += v != 0;
    }
    *ngiven = count;
    return !bad;
}

static char *write_at_least(char *p, int count)
{
    p = WRITE_TEXT(p, "at least ");
    p = write_uint(p, (uint64_t)count);
    return WRITE_TEXT(p, " solutions");
}

/* Write one common outcome (count >= 1, not cut short) as the command writes it. */
static void put_record(Buffer *b, int mode, long line, const uint8_t *givens, int ngiven,
                       const uint8_t *first, int n, const uint8_t *symbols, int plain,
                       int count, int limit, uint64_t nodes, uint64_t guesses, uint64_t ns)
{
    if (!buffer_room(b, 2 * (size_t)n + 256)) /* the longest record, with room to spare */
        return;
    char *p = b->data + b->len;
    const int multiple = count >= 2, solved = !multiple && limit == 1;
    if (mode & LINES_JSON) {
        p = WRITE_TEXT(p, "{\"line\": ");
        p = write_uint(p, (uint64_t)line);
        p = WRITE_TEXT(p, ", \"puzzle\": \"");
        p = write_symbols(p, givens, n, symbols, plain);
        p = multiple ? WRITE_TEXT(p, "\", \"status\": \"multiple\", \"solution\": \"")
            : solved ? WRITE_TEXT(p, "\", \"status\": \"solved\", \"solution\": \"")
                     : WRITE_TEXT(p, "\", \"status\": \"unique\", \"solution\": \"");
        p = write_symbols(p, first, n, symbols, plain);
        p = WRITE_TEXT(p, "\", \"count\": ");
        p = write_uint(p, (uint64_t)count);
        p = WRITE_TEXT(p, ", \"nodes\": ");
        p = write_uint(p, nodes);
        p = WRITE_TEXT(p, ", \"guesses\": ");
        p = write_uint(p, guesses);
        p = WRITE_TEXT(p, ", \"seconds\": ");
        p += seconds_text(p, ns);
        p = WRITE_TEXT(p, "}");
    } else if ((mode & 3) == LINES_COUNT) {
        p = write_uint(p, (uint64_t)count);
        p = multiple ? (count >= limit ? WRITE_TEXT(p, "+ multiple") : WRITE_TEXT(p, " multiple"))
            : solved ? WRITE_TEXT(p, " solved")
                     : WRITE_TEXT(p, " unique");
    } else if ((mode & 3) == LINES_SOLVE) {
        if (multiple) {
            p = WRITE_TEXT(p, "# line ");
            p = write_uint(p, (uint64_t)line);
            p = write_at_least(WRITE_TEXT(p, ": multiple: "), count);
        } else {
            p = write_symbols(p, first, n, symbols, plain);
        }
    } else {
        p = WRITE_TEXT(p, "line ");
        p = write_uint(p, (uint64_t)line);
        if (multiple) {
            p = WRITE_TEXT(p, ": not unique: ");
            p = write_uint(p, (uint64_t)ngiven);
            p = write_at_least(WRITE_TEXT(p, " givens, "), count);
        } else {
            p = solved ? WRITE_TEXT(p, ": solvable: ") : WRITE_TEXT(p, ": ok: ");
            p = write_uint(p, (uint64_t)ngiven);
            p = solved ? WRITE_TEXT(p, " givens, uniqueness not checked (--limit 1)")
                       : WRITE_TEXT(p, " givens, one solution");
        }
    }
    *p++ = '\n';
    b->len = (size_t)(p - b->data);
}

/* lines(text, first_line, table, symbols, mode, limit, node_limit, time_limit)
   -> (output str, unique, multiple, solved, holes).

   text: whole lines (an ASCII str, or bytes), the first numbered first_line. table: 256 bytes, the value
   of each character (LINES_HOLE_VALUE: not read here). symbols: the character of each
   value, symbols[0] for an empty cell. Each hole is (offset, line, text, values, count,
   aborted, nodes, guesses, nanoseconds, first solution); values is None for a line not
   read here, the first solution None when the mode writes none (a count or check in
   plain text, which also takes no time: nanoseconds are then 0). The GIL is released
   while the block is worked through. */
PyObject *np_engine_lines(Engine *self, PyObject *args)
{
    Py_buffer in = {0}, tb, sb;
    PyObject *text_obj;
    long first_line;
    int mode, limit;
    unsigned long long node_limit;
    double time_limit;
    if (!PyArg_ParseTuple(args, "Oly*y*iiKd", &text_obj, &first_line, &tb, &sb, &mode, &limit,
                          &node_limit, &time_limit))
        return NULL;
    PyObject *result = NULL;
    const int n = self->ncells;
    Buffer out = {NULL, 0, 0, 1}, side = {NULL, 0, 0, 1};
    Hole *holes = NULL;
    size_t nholes = 0, holes_cap = 0;
    long counted[3] = {0, 0, 0}; /* unique, multiple, solved */
    Scratch w = {0};
    /* text: an ASCII str, read in place (no copy), or bytes */
    const uint8_t *text;
    size_t len;
    if (PyUnicode_Check(text_obj)) {
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(text_obj) < 0)
            goto done;
#endif
        if (!PyUnicode_IS_ASCII(text_obj)) {
            PyErr_SetString(PyExc_ValueError, "lines reads ASCII text only");
            goto done;
        }
        text = PyUnicode_DATA(text_obj);
        len = (size_t)PyUnicode_GET_LENGTH(text_obj);
    } else {
        if (PyObject_GetBuffer(text_obj, &in, PyBUF_SIMPLE) < 0)
            goto done;
        text = in.buf;
        len = (size_t)in.len;
    }
    if (tb.len != 256 || sb.len != self->nsym + 1) {
        PyErr_SetString(PyExc_ValueError, "lines needs a 256-byte table and nsym + 1 symbols");
        goto done;
    }
    if (!np_batch_begin(&w, self, &limit))
        goto done;
    /* a count or check in plain text writes neither the solution nor the time */
    const int keep_first = (mode & (LINES_JSON | LINES_QUIET)) || (mode & 3) == LINES_SOLVE;
    const int timed = (mode & (LINES_JSON | LINES_QUIET)) != 0;
    {
        const uint8_t *table = tb.buf, *symbols = sb.buf;
        const int plain = plain_digits(symbols, self->nsym);
        int plain_in = plain && table['.'] == 0 && table['0'] == 0;
        for (int v = 1; v <= self->nsym && plain_in; v++)
            plain_in = table['0' + v] == v;
        uint8_t *givens = malloc((size_t)n * 2);
        if (!givens) {
            PyErr_NoMemory();
            goto done;
        }
        uint8_t *first = givens + n;
        Search s = {0};
        np_search_begin(&s);
        long line = first_line - 1;
        size_t pos = 0, done_since_check = 0;
        while (pos < len && out.ok && side.ok) {
            const uint8_t *end = memchr(text + pos, '\n', len - pos);
            size_t a = pos, b = end ? (size_t)(end - text) : len;
            pos = b + 1;
            line++;
            while (a < b && is_space(text[a]))
                a++;
            while (b > a && is_space(text[b - 1]))
                b--;
            if (a == b || text[a] == '#')
                continue;
            /* easy puzzles end before their search looks at the clock: look between them */
            if (s.interrupted || (!(++done_since_check & 63) && np_signalled(&s, np_now_seconds())))
                break;
            int readable = b - a == (size_t)n, ngiven = 0;
            if (readable &&
                !(plain_in && read_digits(text + a, n, self->nsym, givens, &ngiven))) {
                ngiven = 0;
                for (int i = 0; readable && i < n; i++) {
                    uint8_t v = table[text[a + i]];
                    if (v == LINES_HOLE_VALUE)
                        readable = 0;
                    givens[i] = v;
                    ngiven += v != 0;
                }
            }
            int count = 0;
            uint64_t ns = 0;
            if (readable) {
                uint64_t t0 = timed ? np_now_ns() : 0;
                s.e = self;
                s.w = &w;
                s.limit = limit;
                s.keep = 1;
                s.node_limit = node_limit;
                s.deadline = time_limit > 0 ? np_now_seconds() + time_limit : 0;
                /* the first solution, where it is written (a record Python writes, a
                   JSON record, a solve) */
                s.out = keep_first ? first : NULL;
                s.keep = keep_first;
                if (keep_first)
                    memset(first, 0, (size_t)n);
                np_run_search(&s, givens, NULL);
                ns = timed ? np_now_ns() - t0 : 0;
                count = s.count;
                if (s.interrupted)
                    break;
                int common = count >= 1 && !s.aborted && !(mode & LINES_QUIET) &&
                             !((mode & 3) == LINES_CHECK && ngiven == n);
                if (common) {
                    put_record(&out, mode, line, givens, ngiven, first, n, symbols, plain,
                               count, limit, s.nodes, s.guesses, ns);
                    counted[count >= 2 ? 1 : (limit == 1 ? 2 : 0)]++;
                    continue;
                }
            }
            if (nholes == holes_cap) {
                size_t cap = holes_cap ? 2 * holes_cap : 64;
                Hole *grown = realloc(holes, cap * sizeof(Hole));
                if (!grown) {
                    out.ok = 0;
                    break;
                }
                holes = grown;
                holes_cap = cap;
            }
            Hole *h = holes + nholes++;
            h->offset = out.len;
            h->line = line;
            h->text = a;
            h->len = b - a;
            h->searched = readable;
            h->count = count;
            h->aborted = readable ? s.aborted : 0;
            h->nodes = readable ? s.nodes : 0;
            h->guesses = readable ? s.guesses : 0;
            h->ns = ns;
            h->values = side.len;
            if (readable) {
                put_bytes(&side, (const char *)givens, (size_t)n);
                put_bytes(&side, (const char *)first, (size_t)n);
            }
        }
        free(givens);
        if (!np_search_end(&s))
            goto done;
    }
    if (!out.ok || !side.ok) {
        PyErr_NoMemory();
        goto done;
    }
    {
        PyObject *list = PyList_New((Py_ssize_t)nholes);
        if (!list)
            goto done;
        for (size_t i = 0; i < nholes; i++) {
            Hole *h = holes + i;
            const char *base = side.data + h->values;
            PyObject *values = h->searched ? PyBytes_FromStringAndSize(base, n)
                                           : Py_NewRef(Py_None);
            PyObject *first = h->searched && keep_first
                                  ? PyBytes_FromStringAndSize(base + n, n)
                                  : Py_NewRef(Py_None);
            PyObject *item = NULL;
            if (values && first)
                item = Py_BuildValue("nlNNiiKKKN", (Py_ssize_t)h->offset, h->line,
                                     PyUnicode_DecodeASCII((const char *)text + h->text,
                                                           (Py_ssize_t)h->len, "replace"),
                                     values, h->count, h->aborted,
                                     (unsigned long long)h->nodes,
                                     (unsigned long long)h->guesses,
                                     (unsigned long long)h->ns, first);
            else {
                Py_XDECREF(values);
                Py_XDECREF(first);
            }
            if (!item) {
                Py_DECREF(list);
                goto done;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, item);
        }
        PyObject *written = PyUnicode_New((Py_ssize_t)out.len, 127);
        if (!written) {
            Py_DECREF(list);
            goto done;
        }
        if (out.len)
            memcpy(PyUnicode_DATA(written), out.data, out.len);
        result = Py_BuildValue("NlllN", written, counted[0], counted[1], counted[2], list);
    }
done:
    free(out.data);
    free(side.data);
    free(holes);
    np_scratch_free(&w);
    if (in.obj)
        PyBuffer_Release(&in);
    PyBuffer_Release(&tb);
    PyBuffer_Release(&sb);
    return result;
}

/* seconds_text(ns) -> str: the "seconds" of a JSON record, as Python writes it. */
PyObject *np_seconds_text(PyObject *module, PyObject *arg)
{
    (void)module;
    unsigned long long ns = PyLong_AsUnsignedLongLong(arg);
    if (ns == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    char text[32];
    int n = seconds_text(text, (uint64_t)ns);
    return PyUnicode_FromStringAndSize(text, n);
}

