/* logs_frame.c - pct.logs.read_frame's C part: the rows `pct logs --tsv
 * --fields ...` writes, made by the log engine in-process (its TSV writer,
 * so each value is the command's by construction) and read back into
 * columns as they come: text as str (None for null), times as int64
 * nanoseconds UTC, integers as int64, booleans as bytes, each with a null
 * mask; frame_column hands them to pct/logs.py for pandas (the strs moved
 * into an object ndarray, the rest as bytearrays).
 *
 * The run goes on a thread of its own (the engine's workers decode and
 * write rows in parallel); its output callback queues copies of the
 * chunks of rows, and the calling thread makes them into columns (with the
 * GIL, released while it waits) as they come, so that the engine goes on
 * decoding meanwhile. The caller still sees Ctrl-C (the run is then
 * interrupted at a line's end). Column 0 of the rows is always `format`
 * (to tell unparsed lines and W3C directives from records), and with
 * unparsed="column" the last is `line`. */
#define PY_SSIZE_T_CLEAN
#include <Python.h> /* defines _GNU_SOURCE: memrchr */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "log_session.h"
#include "logs_records.h"

/* The kinds of column (pct/logs.py: _TEXT, _TIME, _INT, _BOOL). */
enum frame_kind {
    FK_TEXT,
    FK_TIME,
    FK_INT,
    FK_BOOL
};

/* Values repeat (a format, a method, a client, an agent): one str each,
 * per column, from a small direct-mapped cache of ASCII strs (compared
 * with the str's own bytes); a column whose values rarely repeat (paths)
 * stops using it. */
#define CACHE_SLOTS 4096
#define CACHE_TEXT 512    /* longer values are not looked up */
#define CACHE_PROBE 16384 /* lookups before a column's hit rate is judged */

struct cache_slot {
    uint64_t hash;
    PyObject *str; /* compact ASCII; borrowed: the column holds it (a miss
                      then overwrites a slot without touching the cold str) */
};

/* A column's rows are kept in blocks of BLOCK_ROWS: growing never moves
 * (nor copies) what is there. */
#define BLOCK_SHIFT 16
#define BLOCK_ROWS ((size_t)1 << BLOCK_SHIFT)
#define BLOCK_OF(row) ((row) >> BLOCK_SHIFT)
#define IN_BLOCK(row) ((row) & (BLOCK_ROWS - 1))

struct column {
    int kind;
    PyObject ***items;        /* FK_TEXT: blocks of strs (or None) */
    char **values;            /* blocks of int64 (FK_TIME, FK_INT) or uint8 (FK_BOOL) */
    unsigned char **mask;     /* blocks of 1: null */
    size_t nblocks;           /* in the arrays above (allocated or NULL) */
    struct cache_slot *cache; /* FK_TEXT, NULL once it does not pay */
    uint64_t lookups, hits;
};

struct frame {
    int ncols;           /* the caller's columns */
    int cells;           /* cells in a row: format, the columns, (line) */
    int unparsed_column; /* unparsed lines are rows, their line in `unparsed` */
    int line_cell;       /* the cell of a row that holds the line (`line`) */
    struct column *cols; /* ncols, then (unparsed_column) the unparsed one */
    size_t rows, cap;    /* cap: rows in the blocks (BLOCK_ROWS each) */
    uint64_t unparsed, directives;
    char *carry; /* a row not ended yet in the last chunk (a long line) */
    size_t carry_len, carry_cap;
    char *scratch; /* a cell unescaped */
    size_t scratch_cap;
    const char **cell; /* the cells of the row at hand */
    size_t *cell_len;
    unsigned char *cell_special; /* 1: holds a '\\' or a byte >= 0x80 */
    PyObject *exc[3];            /* the first exception of the columns or of file.read */
};

static void column_free(struct column *c, size_t rows)
{
    for (size_t b = 0; b < c->nblocks; b++) {
        if (c->items != NULL && c->items[b] != NULL) {
            for (size_t i = b * BLOCK_ROWS; i < rows && i < (b + 1) * BLOCK_ROWS; i++)
                Py_XDECREF(c->items[b][IN_BLOCK(i)]);
            free(c->items[b]);
        }
        if (c->values != NULL)
            free(c->values[b]);
        if (c->mask != NULL)
            free(c->mask[b]);
    }
    free(c->items);
    free(c->values);
    free(c->mask);
    free(c->cache);
}

/* Frees what f holds (not f). */
static void frame_free(struct frame *f)
{
    if (f->cols != NULL)
        for (int i = 0; i < f->ncols + f->unparsed_column; i++)
            column_free(&f->cols[i], f->rows);
    free(f->cols);
    free(f->carry);
    free(f->scratch);
    free(f->cell);
    free(f->cell_len);
    free(f->cell_special);
    for (int i = 0; i < 3; i++)
        Py_CLEAR(f->exc[i]);
}

static size_t value_size(int kind)
{
    return kind == FK_BOOL ? 1 : 8;
}

/* Room for one more row in every column (a block more when full); -1 out
 * of memory. */
static int frame_grow(struct frame *f)
{
    if (f->rows < f->cap)
        return 0;
    const size_t b = BLOCK_OF(f->cap), blocks = b + 1;
    for (int i = 0; i < f->ncols + f->unparsed_column; i++) {
        struct column *c = &f->cols[i];
        if (c->kind == FK_TEXT) {
            PyObject ***p = realloc(c->items, blocks * sizeof *p);
            if (p == NULL)
                return -1;
            c->items = p;
            p[b] = NULL;
            c->nblocks = blocks;
            if ((p[b] = calloc(BLOCK_ROWS, sizeof **p)) == NULL)
                return -1;
        } else {
            char **v = realloc(c->values, blocks * sizeof *v);
            if (v == NULL)
                return -1;
            c->values = v;
            v[b] = NULL;
            unsigned char **m = realloc(c->mask, blocks * sizeof *m);
            if (m == NULL)
                return -1;
            c->mask = m;
            m[b] = NULL;
            c->nblocks = blocks;
            if ((v[b] = malloc(BLOCK_ROWS * value_size(c->kind))) == NULL ||
                (m[b] = malloc(BLOCK_ROWS)) == NULL)
                return -1;
        }
    }
    f->cap += BLOCK_ROWS;
    return 0;
}

static int is_null(const char *p, size_t n)
{
    return n == 2 && p[0] == '\\' && p[1] == 'N';
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A TSV cell's value: \\ \t \n \r \xHH undone (the writer's escapes,
 * log_tsv.c). -1 out of memory. */
static int unescape(struct frame *f, const char **p, size_t *n)
{
    if (f->scratch_cap < *n) {
        size_t cap = *n < 4096 ? 4096 : *n;
        char *s = realloc(f->scratch, cap);
        if (s == NULL)
            return -1;
        f->scratch = s;
        f->scratch_cap = cap;
    }
    const char *s = *p;
    size_t len = *n, o = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '\\' && i + 1 < len) {
            char e = s[i + 1];
            int hi, lo;
            if (e == '\\' || e == 't' || e == 'n' || e == 'r') {
                c = e == '\\' ? '\\' : e == 't' ? '\t' : e == 'n' ? '\n' : '\r';
                i++;
            } else if (e == 'x' && i + 3 < len && (hi = hex_digit(s[i + 2])) >= 0 &&
                       (lo = hex_digit(s[i + 3])) >= 0) {
                c = (char)(hi << 4 | lo);
                i += 3;
            }
        }
        f->scratch[o++] = c;
    }
    *p = f->scratch;
    *n = o;
    return 0;
}

/* A new str of ASCII p[0..n). */
static PyObject *ascii_str(const char *p, size_t n)
{
    PyObject *s = PyUnicode_New((Py_ssize_t)n, 127);
    if (s != NULL)
        memcpy(PyUnicode_DATA(s), p, n);
    return s;
}

/* A new str of UTF-8 p[0..n) (the writer repairs UTF-8, except in an
 * absolute URL's origin: surrogateescape keeps such bytes). */
static PyObject *new_str(const char *p, size_t n)
{
    unsigned char high = 0;
    for (size_t i = 0; i < n; i++)
        high |= (unsigned char)p[i];
    if (high < 0x80)
        return ascii_str(p, n);
    return PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "surrogateescape");
}

/* A hash of p[0..n), 8 bytes at a time (the last 8 overlapping), mixed
 * at the end as MurmurHash3's fmix64. */
static uint64_t text_hash(const char *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u ^ n, w = 0;
    size_t i = 0;
    for (; i + 8 < n; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15u;
        h = h << 27 | h >> 37;
    }
    if (n >= 8) {
        memcpy(&w, p + n - 8, 8);
    } else {
        w = 0;
        for (size_t k = 0; k < n; k++)
            w |= (uint64_t)(unsigned char)p[k] << (8 * k);
    }
    h = (h ^ w) * 0x9E3779B97F4A7C15u;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDu;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53u;
    return h ^ (h >> 33);
}

/* The str of a text cell, from the column's cache when it holds it. */
static PyObject *text_value(struct frame *f, struct column *c, const char *p, size_t n, int special)
{
    if (special && memchr(p, '\\', n) != NULL && unescape(f, &p, &n) != 0)
        return PyErr_NoMemory();
    if (c->cache == NULL || n > CACHE_TEXT)
        return special ? new_str(p, n) : ascii_str(p, n);
    const uint64_t h = text_hash(p, n);
    struct cache_slot *e = &c->cache[h & (CACHE_SLOTS - 1)];
    c->lookups++;
    if (e->str != NULL && e->hash == h && (size_t)PyUnicode_GET_LENGTH(e->str) == n &&
        memcmp(PyUnicode_DATA(e->str), p, n) == 0) {
        c->hits++;
        return Py_NewRef(e->str);
    }
    PyObject *s = special ? new_str(p, n) : ascii_str(p, n);
    if (s == NULL)
        return NULL;
    if (PyUnicode_IS_COMPACT_ASCII(s)) {
        e->str = s;
        e->hash = h;
    }
    if (c->lookups == CACHE_PROBE && c->hits < CACHE_PROBE / 8) {
        free(c->cache);
        c->cache = NULL;
    }
    return s;
}

/* A decimal integer that fits int64, as log_value_int reads one. */
static int parse_int(const char *p, size_t n, int64_t *out)
{
    size_t i = n > 0 && p[0] == '-';
    if (i == n)
        return 0;
    uint64_t x = 0, limit = i ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return 0;
        unsigned d = (unsigned)(p[i] - '0');
        if (x > (limit - d) / 10)
            return 0;
        x = x * 10 + d;
    }
    *out = p[0] == '-' ? (x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x) : (int64_t)x;
    return 1;
}

/* Stores cell p[0..n) as row f->rows of column c. GIL held. */
static int put_cell(struct frame *f, struct column *c, int k)
{
    const char *p = f->cell[k];
    const size_t n = f->cell_len[k];
    const size_t row = f->rows;
    const int null = is_null(p, n);
    if (c->kind == FK_TEXT) {
        PyObject *v = null ? Py_NewRef(Py_None) : text_value(f, c, p, n, f->cell_special[k]);
        if (v == NULL)
            return -1;
        c->items[BLOCK_OF(row)][IN_BLOCK(row)] = v;
        return 0;
    }
    int ok = 0;
    if (c->kind == FK_BOOL) {
        int t = n == 4 && memcmp(p, "true", 4) == 0;
        ok = !null && (t || (n == 5 && memcmp(p, "false", 5) == 0));
        c->values[BLOCK_OF(row)][IN_BLOCK(row)] = (char)(ok && t);
    } else {
        int64_t v = 0;
        ok = !null && (c->kind == FK_INT ? parse_int(p, n, &v) : log_value_iso_ns(p, n, &v));
        if (!ok)
            v = c->kind == FK_TIME ? INT64_MIN : 0; /* NaT */
        memcpy(c->values[BLOCK_OF(row)] + IN_BLOCK(row) * 8, &v, 8);
    }
    c->mask[BLOCK_OF(row)][IN_BLOCK(row)] = (unsigned char)!ok;
    return 0;
}

static int same(const char *p, size_t n, const char *word)
{
    return n == strlen(word) && memcmp(p, word, n) == 0;
}

/* The row whose cells (count of them) are in f->cell. GIL held. */
static int frame_row(struct frame *f, int count)
{
    if (count != f->cells) {
        PyErr_Format(PyExc_RuntimeError,
                     "pct.logs.read_frame: a row of the log engine of %d cells, not %d", count,
                     f->cells);
        return -1;
    }
    const int directive = same(f->cell[0], f->cell_len[0], "directive");
    const int unparsed = same(f->cell[0], f->cell_len[0], "unparsed");
    if (directive) {
        f->directives++;
        return 0;
    }
    if (unparsed)
        f->unparsed++;
    if (unparsed && !f->unparsed_column)
        return 0;
    if (frame_grow(f) != 0) {
        PyErr_NoMemory();
        return -1;
    }
    int i = 0;
    for (; i < f->ncols; i++)
        if (put_cell(f, &f->cols[i], i + 1) != 0)
            break;
    if (i == f->ncols && f->unparsed_column) {
        struct column *c = &f->cols[f->ncols];
        if (!unparsed)
            c->items[BLOCK_OF(f->rows)][IN_BLOCK(f->rows)] = Py_NewRef(Py_None);
        else if (put_cell(f, c, f->line_cell) != 0)
            i = -1;
    }
    if (i != f->ncols) {
        /* the row's cells made so far are dropped (every column has rows
         * items), and the caches that may name them (the run stops) */
        for (int k = 0; k < f->ncols + f->unparsed_column; k++) {
            if (f->cols[k].kind == FK_TEXT && k < (i < 0 ? f->ncols : i))
                Py_CLEAR(f->cols[k].items[BLOCK_OF(f->rows)][IN_BLOCK(f->rows)]);
            free(f->cols[k].cache);
            f->cols[k].cache = NULL;
        }
        return -1;
    }
    f->rows++;
    return 0;
}

static int carry_add(struct frame *f, const char *p, size_t n)
{
    if (f->carry_cap - f->carry_len < n) {
        size_t cap = f->carry_cap > 0 ? f->carry_cap : 1 << 16;
        while (cap - f->carry_len < n)
            cap *= 2;
        char *c = realloc(f->carry, cap);
        if (c == NULL)
            return -1;
        f->carry = c;
        f->carry_cap = cap;
    }
    memcpy(f->carry + f->carry_len, p, n);
    f->carry_len += n;
    return 0;
}

/* Bit i of *sep: byte i of p[0..n) (n <= 64) is a tab or a newline; of
 * *special: a backslash or a byte >= 0x80. */
static void byte_masks(const char *p, size_t n, uint64_t *sep, uint64_t *special)
{
    uint64_t s = 0, x = 0;
#if defined(__SSE2__)
    if (n == 64) {
        const __m128i tab = _mm_set1_epi8('\t'), nl = _mm_set1_epi8('\n');
        const __m128i bs = _mm_set1_epi8('\\');
        for (int k = 0; k < 4; k++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
            uint64_t a = (uint32_t)_mm_movemask_epi8(
                _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, nl)));
            uint64_t b = (uint32_t)_mm_movemask_epi8(_mm_or_si128(v, _mm_cmpeq_epi8(v, bs)));
            s |= a << (16 * k);
            x |= b << (16 * k);
        }
        *sep = s;
        *special = x;
        return;
    }
#endif
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        s |= (uint64_t)(c == '\t' || c == '\n') << i;
        x |= (uint64_t)(c == '\\' || c >= 0x80) << i;
    }
    *sep = s;
    *special = x;
}

/* The rows of p[0..n), which ends with a newline: split in one pass, 64
 * bytes at a time (a cell is known to be plain ASCII without escapes on
 * the way). GIL held. */
static int frame_rows(struct frame *f, const char *p, size_t n)
{
    size_t start = 0; /* of the cell at hand */
    int k = 0, special = 0;
    for (size_t base = 0; base < n; base += 64) {
        uint64_t sep, spec, seen = 0;
        byte_masks(p + base, n - base < 64 ? n - base : 64, &sep, &spec);
        for (; sep != 0; sep &= sep - 1) {
            const int b = __builtin_ctzll(sep);
            const uint64_t upto = b == 63 ? ~(uint64_t)0 : ((uint64_t)1 << (b + 1)) - 1;
            const size_t at = base + (size_t)b;
            special |= (spec & upto & ~seen) != 0;
            seen = upto;
            if (k < f->cells) {
                f->cell[k] = p + start;
                f->cell_len[k] = at - start;
                f->cell_special[k] = (unsigned char)special;
            }
            k++;
            special = 0;
            start = at + 1;
            if (p[at] == '\n') {
                if (frame_row(f, k) != 0)
                    return -1;
                k = 0;
            }
        }
        special |= (spec & ~seen) != 0;
    }
    return 0;
}

/* One chunk of rows as the engine wrote it (a row longer than a chunk may
 * come in pieces, kept in carry until its newline). GIL held; -1 with an
 * exception set. */
static int frame_chunk(struct frame *f, const char *p, size_t n)
{
    const char *end = p + n;
    if (f->carry_len > 0) {
        const char *nl = memchr(p, '\n', n);
        const size_t k = nl != NULL ? (size_t)(nl + 1 - p) : n;
        if (carry_add(f, p, k) != 0) {
            PyErr_NoMemory();
            return -1;
        }
        if (nl != NULL) {
            int rc = frame_rows(f, f->carry, f->carry_len);
            f->carry_len = 0;
            if (rc != 0)
                return -1;
        }
        p += k;
    }
    const char *last = p < end ? memrchr(p, '\n', (size_t)(end - p)) : NULL;
    if (last != NULL) {
        if (frame_rows(f, p, (size_t)(last + 1 - p)) != 0)
            return -1;
        p = last + 1;
    }
    if (p < end && carry_add(f, p, (size_t)(end - p)) != 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------- the run */

/* The engine's output goes through a queue of QUEUE_CHUNKS copies to the
 * calling thread, which makes the columns (with the GIL) while the
 * engine's threads go on decoding: with threads=1 that is two threads at
 * work. When the caller falls behind, the engine waits (memory stays
 * bounded). */
#define QUEUE_CHUNKS 8

struct chunk {
    char *p;
    size_t n;
};

struct run {
    struct log_session *s;
    PyObject *file; /* fed from, when not NULL */
    struct frame *f;
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a chunk in, a chunk out, done, stop */
    struct chunk queue[QUEUE_CHUNKS];
    size_t head, count;
    int stop; /* the caller gave up (an error, a signal) */
    int done, result;
};

/* The output callback, on an engine thread: the chunk copied and queued. */
static int on_rows(void *ctx, const char *p, size_t n, uint64_t lines)
{
    (void)lines;
    struct run *r = ctx;
    char *copy = malloc(n > 0 ? n : 1);
    if (copy == NULL)
        return 3;
    memcpy(copy, p, n);
    pthread_mutex_lock(&r->lock);
    while (r->count == QUEUE_CHUNKS && !r->stop)
        pthread_cond_wait(&r->changed, &r->lock);
    const int stop = r->stop;
    if (!stop) {
        r->queue[(r->head + r->count) % QUEUE_CHUNKS] = (struct chunk){copy, n};
        r->count++;
        pthread_cond_broadcast(&r->changed);
    }
    pthread_mutex_unlock(&r->lock);
    if (stop)
        free(copy);
    return stop ? 2 : 0;
}

static void *run_main(void *arg)
{
    struct run *r = arg;
    int result =
        r->file != NULL ? logs_feed_file(r->s, r->file, NULL, r->f->exc) : log_session_run(r->s);
    pthread_mutex_lock(&r->lock);
    r->result = result;
    r->done = 1;
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

/* Makes the columns of the queued chunks until the run ends, then joins
 * it. On an error (kept in f->exc) or a signal whose handler raises
 * (Ctrl-C: the exception set), the run is stopped at a line's end, the
 * rest dropped, and -1 returned. */
static int run_consume(struct run *r, pthread_t thread)
{
    int failed = 0;
    for (;;) {
        struct chunk c = {NULL, 0};
        int done;
        Py_BEGIN_ALLOW_THREADS pthread_mutex_lock(&r->lock);
        if (r->count == 0 && !r->done) {
            logs_wait_briefly(&r->changed, &r->lock);
        }
        if (r->count > 0) {
            c = r->queue[r->head];
            r->head = (r->head + 1) % QUEUE_CHUNKS;
            r->count--;
            pthread_cond_broadcast(&r->changed);
        }
        done = r->done && r->count == 0 && c.p == NULL;
        pthread_mutex_unlock(&r->lock);
        Py_END_ALLOW_THREADS if (done) break;
        if (c.p != NULL && !failed && frame_chunk(r->f, c.p, c.n) != 0) {
            struct frame *f = r->f;
            if (f->exc[0] == NULL)
                PyErr_Fetch(&f->exc[0], &f->exc[1], &f->exc[2]);
            else
                PyErr_Clear();
            failed = 1;
        }
        free(c.p);
        if (!failed && PyErr_CheckSignals() != 0)
            failed = 2;
        if (failed) {
            pthread_mutex_lock(&r->lock);
            if (!r->stop) {
                r->stop = 1;
                pthread_cond_broadcast(&r->changed);
            }
            pthread_mutex_unlock(&r->lock);
            log_session_interrupt(r->s, 2);
        }
    }
    Py_BEGIN_ALLOW_THREADS pthread_join(thread, NULL);
    Py_END_ALLOW_THREADS return failed == 2 ? -1 : 0;
}

#define FRAME_CAPSULE "pct._pct.frame"

static void frame_capsule_free(PyObject *capsule)
{
    struct frame *f = PyCapsule_GetPointer(capsule, FRAME_CAPSULE);
    if (f != NULL) {
        frame_free(f);
        free(f);
    }
}

/* logs_frame(options, fields, kinds, line_cell, path=None, fd=-1,
 * name=b"-", file=None) -> (frame, rows, unparsed, directives, returncode,
 * message): the rows of `pct logs --tsv --fields FIELDS` read into
 * columns, held by frame (a capsule) for frame_column. fields: format
 * first, then one per kind (and line when one is wanted and none of them
 * is). line_cell: -1, or the cell holding the line (then unparsed lines
 * are rows, their line in a last column). */
static PyObject *logs_frame(PyObject *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    static char *kwlist[] = {"options", "fields", "kinds", "line_cell", "path",
                             "fd",      "name",   "file",  NULL};
    PyObject *opts, *kinds, *path = NULL, *file = NULL;
    const char *fields, *name = "-";
    int line_cell = -1, fd = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OsO!i|O&iyO", kwlist, &opts, &fields,
                                     &PyTuple_Type, &kinds, &line_cell, PyUnicode_FSConverter,
                                     &path, &fd, &name, &file))
        return NULL;
    PyObject *out = NULL;
    struct logs_messages msgs = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};
    struct run r = {0};
    struct frame *f = calloc(1, sizeof *f);
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.changed, NULL);
    if (f == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    r.f = f;
    f->ncols = (int)PyTuple_GET_SIZE(kinds);
    const int unparsed_column = line_cell >= 0;
    f->unparsed_column = unparsed_column;
    f->line_cell = line_cell;
    f->cells = 1;
    for (const char *c = fields; *c != '\0'; c++)
        f->cells += *c == ',';
    if (f->cells < 1 + f->ncols || line_cell == 0 || line_cell >= f->cells) {
        PyErr_SetString(PyExc_ValueError, "fields, kinds and line_cell do not agree");
        goto done;
    }
    f->cols = calloc((size_t)(f->ncols + 1), sizeof *f->cols);
    f->cell = calloc((size_t)f->cells, sizeof *f->cell);
    f->cell_len = calloc((size_t)f->cells, sizeof *f->cell_len);
    f->cell_special = calloc((size_t)f->cells, 1);
    if (f->cols == NULL || f->cell == NULL || f->cell_len == NULL || f->cell_special == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < f->ncols + unparsed_column; i++) {
        long kind = FK_TEXT;
        if (i < f->ncols) {
            kind = PyLong_AsLong(PyTuple_GET_ITEM(kinds, i));
            if (kind == -1 && PyErr_Occurred())
                goto done;
            if (kind < FK_TEXT || kind > FK_BOOL) {
                PyErr_Format(PyExc_ValueError, "unknown column kind %ld", kind);
                goto done;
            }
        }
        f->cols[i].kind = (int)kind;
        if (kind == FK_TEXT && i < f->ncols &&
            (f->cols[i].cache = calloc(CACHE_SLOTS, sizeof *f->cols[i].cache)) == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    r.s = logs_session_from(opts, 0, fields);
    if (r.s == NULL)
        goto done;
    log_session_messages(r.s, logs_on_message, &msgs);
    log_session_output_callback(r.s, on_rows, &r);
    if (file != NULL && file != Py_None)
        r.file = file;
    else if (logs_session_add_input(r.s, path, fd, name) != 0)
        goto done;
    pthread_t thread;
    int rc = pthread_create(&thread, NULL, run_main, &r);
    if (rc != 0) {
        errno = rc;
        PyErr_SetFromErrno(PyExc_OSError);
        goto done;
    }
    if (run_consume(&r, thread) != 0)
        goto done; /* KeyboardInterrupt, or what the handler raised */
    if (f->exc[0] != NULL) {
        PyErr_Restore(f->exc[0], f->exc[1], f->exc[2]);
        f->exc[0] = f->exc[1] = f->exc[2] = NULL;
        goto done;
    }
    for (int i = 0; i < f->ncols; i++) { /* not needed any more */
        free(f->cols[i].cache);
        f->cols[i].cache = NULL;
    }
    PyObject *m = logs_message_text(&msgs, log_session_error(r.s), r.result);
    PyObject *capsule = m != NULL ? PyCapsule_New(f, FRAME_CAPSULE, frame_capsule_free) : NULL;
    if (capsule != NULL) {
        size_t rows = f->rows;
        f = NULL; /* the capsule's */
        out = Py_BuildValue("(NKKKiN)", capsule, (unsigned long long)rows,
                            (unsigned long long)r.f->unparsed, (unsigned long long)r.f->directives,
                            logs_exit_status(r.result), m);
    } else {
        Py_XDECREF(m);
    }
done:
    log_session_free(r.s);
    if (f != NULL) {
        frame_free(f);
        free(f);
    }
    free(msgs.text);
    pthread_mutex_destroy(&r.lock);
    pthread_cond_destroy(&r.changed);
    Py_XDECREF(path);
    return out;
}

/* frame_column(frame, i, address=0): column i of a frame. Text: its strs
 * moved into the object array at address (an ndarray of dtype object and
 * as many items as rows, C-contiguous, made by the caller, whose items are
 * replaced), once; returns None. Other kinds: (values, mask) as
 * bytearrays (int64 or uint8 values; mask 1: null). */
static PyObject *frame_column(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *capsule;
    int i;
    unsigned long long address = 0;
    if (!PyArg_ParseTuple(args, "Oi|K", &capsule, &i, &address))
        return NULL;
    struct frame *f = PyCapsule_GetPointer(capsule, FRAME_CAPSULE);
    if (f == NULL)
        return NULL;
    if (i < 0 || i >= f->ncols + f->unparsed_column) {
        PyErr_SetString(PyExc_IndexError, "no such column");
        return NULL;
    }
    struct column *c = &f->cols[i];
    const size_t rows = f->rows;
    if (c->kind == FK_TEXT) {
        if (address == 0 || (c->items == NULL && rows > 0)) {
            PyErr_SetString(PyExc_ValueError, "a text column is moved once, to an array");
            return NULL;
        }
        PyObject **to = (PyObject **)(uintptr_t)address;
        for (size_t k = 0; k < rows; k++) {
            PyObject *old = to[k];
            to[k] = c->items[BLOCK_OF(k)][IN_BLOCK(k)]; /* the reference moves */
            Py_XDECREF(old);
        }
        for (size_t b = 0; b < c->nblocks; b++)
            free(c->items[b]);
        free(c->items);
        c->items = NULL;
        c->nblocks = 0;
        Py_RETURN_NONE;
    }
    const size_t size = value_size(c->kind);
    PyObject *values = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(rows * size));
    PyObject *mask = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)rows);
    if (values == NULL || mask == NULL) {
        Py_XDECREF(values);
        Py_XDECREF(mask);
        return NULL;
    }
    for (size_t b = 0; b * BLOCK_ROWS < rows; b++) {
        const size_t n = rows - b * BLOCK_ROWS < BLOCK_ROWS ? rows - b * BLOCK_ROWS : BLOCK_ROWS;
        memcpy(PyByteArray_AS_STRING(values) + b * BLOCK_ROWS * size, c->values[b], n * size);
        memcpy(PyByteArray_AS_STRING(mask) + b * BLOCK_ROWS, c->mask[b], n);
    }
    return Py_BuildValue("(NN)", values, mask);
}

static PyMethodDef frame_methods[] = {
    {"logs_frame", (PyCFunction)(void (*)(void))logs_frame, METH_VARARGS | METH_KEYWORDS,
     "logs_frame(options, fields, kinds, line_cell, path=None, fd=-1, name=b'-',\n"
     "file=None) -> (frame, rows, unparsed, directives, returncode, message): the rows\n"
     "of `pct logs --tsv --fields format,FIELDS[,line]` as columns, run in-process."},
    {"frame_column", frame_column, METH_VARARGS,
     "frame_column(frame, i, address=0): column i of logs_frame's frame: text moved\n"
     "into the object ndarray at address, others as (values, mask) bytearrays."},
    {NULL, NULL, 0, NULL},
};

int pct_logs_frame_init(PyObject *m)
{
    return PyModule_AddFunctions(m, frame_methods);
}
