/* logs_frame.c - pct.logs.read_frame's C part: the rows `pct logs --tsv
 * --fields ...` writes, made by the log engine in-process (its TSV writer
 * in its cells style, log_cells.h: the same values, not escaped,
 * length-prefixed, with a hash of each text made on the engine's threads)
 * and read into columns as they come: text as str (None for null), times
 * as int64 nanoseconds UTC, integers as int64, booleans as bytes, each
 * with a null mask; frame_column hands them to pct/logs.py for pandas (the
 * strs moved into an object ndarray, the rest as bytearrays).
 *
 * The run goes on a thread of its own (the engine's workers decode and
 * write rows in parallel); its output callback queues copies of the
 * chunks of rows, and the calling thread makes them into columns (with the
 * GIL, released while it waits) as they come, so that the engine goes on
 * decoding meanwhile: that thread does only what needs the GIL. The caller
 * still sees Ctrl-C (the run is then interrupted at a line's end). Cell 0
 * of a row is always `format` (to tell unparsed lines and W3C directives
 * from records), and with unparsed="column" one is `line`. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log_cells.h"
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
    uint32_t hash, n;
    const char *text; /* str's bytes: a miss is told without touching str */
    PyObject *str;    /* compact ASCII; borrowed: the column holds it */
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
    /* The row at hand, read a cell at a time (a long line's row comes in
     * several chunks): its next cell, and whether it is a row of the frame
     * (not a directive, nor an unparsed line counted only). */
    int cell, keep, row_unparsed;
    char *piece; /* a long line's pieces so far (LOG_CELL_PIECE) */
    size_t piece_len, piece_cap;
    PyObject *exc[3]; /* the first exception of the columns or of file.read */
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
    /* a row cut short holds strs too (rows + 1) */
    if (f->cols != NULL)
        for (int i = 0; i < f->ncols + f->unparsed_column; i++)
            column_free(&f->cols[i], f->rows + (f->keep && f->cell > 0));
    free(f->cols);
    free(f->piece);
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
    uint64_t high = 0, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, p + i, 8);
        high |= w;
    }
    for (; i < n; i++)
        high |= (unsigned char)p[i];
    if ((high & 0x8080808080808080u) == 0)
        return ascii_str(p, n);
    return PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "surrogateescape");
}

/* The str of a text cell (hash: log_cell_hash of it), from the column's
 * cache when it holds it. */
static PyObject *text_value(struct column *c, const char *p, size_t n, uint32_t hash)
{
    if (c->cache == NULL || n > CACHE_TEXT)
        return new_str(p, n);
    struct cache_slot *e = &c->cache[hash & (CACHE_SLOTS - 1)];
    c->lookups++;
    if (e->hash == hash && e->n == n && e->str != NULL && memcmp(e->text, p, n) == 0) {
        c->hits++;
        return Py_NewRef(e->str);
    }
    PyObject *s = new_str(p, n);
    if (s == NULL)
        return NULL;
    if (PyUnicode_IS_COMPACT_ASCII(s)) {
        e->str = s;
        e->hash = hash;
        e->n = (uint32_t)n;
        e->text = PyUnicode_DATA(s);
    }
    if (c->lookups == CACHE_PROBE && c->hits < CACHE_PROBE / 8) {
        free(c->cache);
        c->cache = NULL;
    }
    return s;
}

/* -1 with RuntimeError: the engine's output is not what this reads. */
static int bad_cells(const char *what)
{
    PyErr_Format(PyExc_RuntimeError, "pct.logs.read_frame: the log engine's cells: %s", what);
    return -1;
}

/* Stores cell v as row f->rows of column c. GIL held. */
static int put_cell(struct frame *f, struct column *c, const struct log_cell *v)
{
    const size_t row = f->rows;
    const int null = v->tag == LOG_CELL_NULL;
    if (c->kind == FK_TEXT) {
        PyObject *s = null                      ? Py_NewRef(Py_None)
                      : v->tag == LOG_CELL_TIME ? new_str(v->p + 8, v->n - 8) /* time_iso */
                                                : text_value(c, v->p, v->n, v->hash);
        if (s == NULL)
            return -1;
        c->items[BLOCK_OF(row)][IN_BLOCK(row)] = s;
        return 0;
    }
    if (!null && v->tag != LOG_CELL_TEXT && (c->kind != FK_TIME || v->tag != LOG_CELL_TIME))
        return bad_cells("a time in a column of numbers");
    int ok = 0;
    if (c->kind == FK_BOOL) {
        int t = v->n == 4 && memcmp(v->p, "true", 4) == 0;
        ok = !null && (t || (v->n == 5 && memcmp(v->p, "false", 5) == 0));
        c->values[BLOCK_OF(row)][IN_BLOCK(row)] = (char)(ok && t);
    } else {
        int64_t x = 0;
        if (c->kind == FK_INT) {
            ok = !null && log_value_int_text(v->p, v->n, &x);
        } else if (!null && v->tag == LOG_CELL_TIME) {
            memcpy(&x, v->p, 8);
            ok = x != INT64_MIN;
        } else if (!null) { /* a field of that name that is no time: its text read as one */
            ok = log_value_iso_ns(v->p, v->n, &x);
        }
        if (!ok)
            x = c->kind == FK_TIME ? INT64_MIN : 0; /* NaT */
        memcpy(c->values[BLOCK_OF(row)] + IN_BLOCK(row) * 8, &x, 8);
    }
    c->mask[BLOCK_OF(row)][IN_BLOCK(row)] = (unsigned char)!ok;
    return 0;
}

static int same(const struct log_cell *v, const char *word)
{
    return v->tag == LOG_CELL_TEXT && v->n == strlen(word) && memcmp(v->p, word, v->n) == 0;
}

/* The row's strs made so far are dropped (the run stops), and the caches
 * that may name them. */
static void row_drop(struct frame *f)
{
    for (int k = 0; k < f->ncols + f->unparsed_column; k++) {
        struct column *c = &f->cols[k];
        if (c->kind == FK_TEXT && f->keep && f->rows < f->cap)
            Py_CLEAR(c->items[BLOCK_OF(f->rows)][IN_BLOCK(f->rows)]);
        free(c->cache);
        c->cache = NULL;
    }
    f->keep = 0;
}

/* Cell f->cell of the row at hand. GIL held. */
static int frame_cell(struct frame *f, const struct log_cell *v)
{
    const int k = f->cell++;
    if (k == 0) { /* format: is the row one of the frame? */
        const int directive = same(v, "directive");
        f->row_unparsed = same(v, "unparsed");
        f->directives += (uint64_t)directive;
        f->unparsed += (uint64_t)f->row_unparsed;
        f->keep = !directive && (!f->row_unparsed || f->unparsed_column);
        if (f->keep && frame_grow(f) != 0) {
            f->keep = 0;
            PyErr_NoMemory();
            return -1;
        }
        return 0;
    }
    if (!f->keep)
        return 0;
    if (k <= f->ncols && put_cell(f, &f->cols[k - 1], v) != 0)
        return -1;
    if (k == f->line_cell && f->row_unparsed && put_cell(f, &f->cols[f->ncols], v) != 0)
        return -1;
    return 0;
}

/* The row at hand has all its cells: it is one more of the frame. */
static void frame_row_end(struct frame *f)
{
    if (f->keep) {
        if (f->unparsed_column && !f->row_unparsed)
            f->cols[f->ncols].items[BLOCK_OF(f->rows)][IN_BLOCK(f->rows)] = Py_NewRef(Py_None);
        f->rows++;
    }
    f->cell = f->keep = 0;
}

static int piece_add(struct frame *f, const char *p, size_t n)
{
    if (f->piece_cap - f->piece_len < n) {
        size_t cap = f->piece_cap > 0 ? f->piece_cap : 1 << 16;
        while (cap - f->piece_len < n)
            cap *= 2;
        char *c = realloc(f->piece, cap);
        if (c == NULL)
            return -1;
        f->piece = c;
        f->piece_cap = cap;
    }
    memcpy(f->piece + f->piece_len, p, n);
    f->piece_len += n;
    return 0;
}

/* The whole cells (and row ends) at the start of p[0..n): how many bytes
 * they take, or -1 with an exception set. GIL held. */
static Py_ssize_t frame_cells(struct frame *f, const char *p, size_t n)
{
    size_t at = 0;
    for (;;) {
        if (f->cell == f->cells) { /* the row's end */
            if (at == n)
                return (Py_ssize_t)at;
            if (p[at] != '\n') {
                row_drop(f);
                return bad_cells("a row of more cells than fields");
            }
            at++;
            frame_row_end(f);
            continue;
        }
        struct log_cell v;
        const size_t size = log_cell_read(p + at, n - at, &v);
        if (size == 0)
            return (Py_ssize_t)at; /* cut: the rest comes with the next chunk */
        at += size;
        if ((v.tag == LOG_CELL_TIME && v.n < 8) || (v.tag == LOG_CELL_NULL && v.n != 0)) {
            row_drop(f);
            return bad_cells("a cell of a wrong length");
        }
        if (v.tag == LOG_CELL_PIECE || (v.tag == LOG_CELL_TEXT && f->piece_len > 0)) {
            /* a long line: its pieces joined, the last one a TEXT cell */
            if (piece_add(f, v.p, v.n) != 0) {
                row_drop(f);
                PyErr_NoMemory();
                return -1;
            }
            if (v.tag == LOG_CELL_PIECE)
                continue;
            v.p = f->piece;
            v.n = f->piece_len;
            v.hash = log_cell_hash(v.p, v.n);
        }
        const int rc = frame_cell(f, &v);
        f->piece_len = 0;
        if (rc != 0) {
            row_drop(f);
            return -1;
        }
    }
}

/* One chunk of cells as the engine wrote it: whole cells (log_cells.h),
 * and the row of a long line over several chunks. GIL held; -1 with an
 * exception set. */
static int frame_chunk(struct frame *f, const char *p, size_t n)
{
    const Py_ssize_t used = frame_cells(f, p, n);
    if (used < 0)
        return -1;
    if ((size_t)used != n) {
        row_drop(f);
        return bad_cells("a cell cut at the end of a chunk");
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
    size_t n, cap;
};

struct run {
    struct logs_background bg; /* bg.changed: a chunk in, a chunk out, done, stop */
    struct frame *f;
    struct chunk queue[QUEUE_CHUNKS];
    size_t head, count;
    /* Buffers the caller is done with, for the next chunks: fresh memory
     * costs a page fault per 4 KiB, each time. */
    struct chunk spare[QUEUE_CHUNKS + 1];
    size_t spares;
    int stop; /* the caller gave up (an error, a signal) */
};

/* The output callback, on an engine thread: the chunk copied (into a
 * spare buffer when there is one) and queued. */
static int on_rows(void *ctx, const char *p, size_t n, uint64_t lines)
{
    (void)lines;
    struct run *r = ctx;
    struct chunk c = {NULL, 0, 0};
    pthread_mutex_lock(&r->bg.lock);
    if (r->spares > 0)
        c = r->spare[--r->spares];
    pthread_mutex_unlock(&r->bg.lock);
    if (c.cap < n) {
        free(c.p);
        c.cap = n > (size_t)1 << 16 ? n : (size_t)1 << 16;
        if ((c.p = malloc(c.cap)) == NULL)
            return 3;
    }
    memcpy(c.p, p, n);
    c.n = n;
    pthread_mutex_lock(&r->bg.lock);
    while (r->count == QUEUE_CHUNKS && !r->stop)
        pthread_cond_wait(&r->bg.changed, &r->bg.lock);
    const int stop = r->stop;
    if (!stop) {
        r->queue[(r->head + r->count) % QUEUE_CHUNKS] = c;
        r->count++;
        pthread_cond_broadcast(&r->bg.changed);
    }
    pthread_mutex_unlock(&r->bg.lock);
    if (stop)
        free(c.p);
    return stop ? 2 : 0;
}

/* Makes the columns of the queued chunks until the run ends, then joins
 * it. On an error (kept in f->exc) or a signal whose handler raises
 * (Ctrl-C: the exception set), the run is stopped at a line's end, the
 * rest dropped, and -1 returned. */
static int run_consume(struct run *r, pthread_t thread)
{
    int failed = 0;
    struct chunk used = {NULL, 0, 0}; /* read: a spare for on_rows */
    for (;;) {
        struct chunk c = {NULL, 0, 0};
        int done;
        Py_BEGIN_ALLOW_THREADS pthread_mutex_lock(&r->bg.lock);
        if (used.p != NULL && r->spares < QUEUE_CHUNKS + 1) {
            r->spare[r->spares++] = used;
            used.p = NULL;
        }
        if (r->count == 0 && !r->bg.done) {
            logs_wait_briefly(&r->bg.changed, &r->bg.lock);
        }
        if (r->count > 0) {
            c = r->queue[r->head];
            r->head = (r->head + 1) % QUEUE_CHUNKS;
            r->count--;
            pthread_cond_broadcast(&r->bg.changed);
        }
        done = r->bg.done && r->count == 0 && c.p == NULL;
        pthread_mutex_unlock(&r->bg.lock);
        Py_END_ALLOW_THREADS free(used.p);
        used = c;
        if (done)
            break;
        if (c.p != NULL && !failed && frame_chunk(r->f, c.p, c.n) != 0) {
            struct frame *f = r->f;
            if (f->exc[0] == NULL)
                PyErr_Fetch(&f->exc[0], &f->exc[1], &f->exc[2]);
            else
                PyErr_Clear();
            failed = 1;
        }
        if (!failed && PyErr_CheckSignals() != 0)
            failed = 2;
        if (failed) {
            pthread_mutex_lock(&r->bg.lock);
            if (!r->stop) {
                r->stop = 1;
                pthread_cond_broadcast(&r->bg.changed);
            }
            pthread_mutex_unlock(&r->bg.lock);
            log_session_interrupt(r->bg.s, 2);
        }
    }
    Py_BEGIN_ALLOW_THREADS pthread_join(thread, NULL);
    Py_END_ALLOW_THREADS while (r->spares > 0) free(r->spare[--r->spares].p);
    return failed == 2 ? -1 : 0;
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
    pthread_mutex_init(&r.bg.lock, NULL);
    pthread_cond_init(&r.bg.changed, NULL);
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
    if (f->cols == NULL) {
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
    r.bg.s = logs_session_from(opts, 0, fields, 'b');
    if (r.bg.s == NULL)
        goto done;
    log_session_messages(r.bg.s, logs_on_message, &msgs);
    log_session_output_callback(r.bg.s, on_rows, &r);
    if (file != NULL && file != Py_None)
        r.bg.file = file;
    else if (logs_session_add_input(r.bg.s, path, fd, name) != 0)
        goto done;
    r.bg.exc = f->exc;
    pthread_t thread;
    int rc = pthread_create(&thread, NULL, logs_background_main, &r.bg);
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
    PyObject *m = logs_message_text(&msgs, log_session_error(r.bg.s), r.bg.result);
    PyObject *capsule = m != NULL ? PyCapsule_New(f, FRAME_CAPSULE, frame_capsule_free) : NULL;
    if (capsule != NULL) {
        size_t rows = f->rows;
        f = NULL; /* the capsule's */
        out = Py_BuildValue("(NKKKiN)", capsule, (unsigned long long)rows,
                            (unsigned long long)r.f->unparsed, (unsigned long long)r.f->directives,
                            logs_exit_status(r.bg.result), m);
    } else {
        Py_XDECREF(m);
    }
done:
    log_session_free(r.bg.s);
    if (f != NULL) {
        frame_free(f);
        free(f);
    }
    free(msgs.text);
    pthread_mutex_destroy(&r.bg.lock);
    pthread_cond_destroy(&r.bg.changed);
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
        /* numpy fills a new object array with None: those references are
         * dropped at once, and the blocks copied whole */
        size_t nones = 0;
        for (size_t k = 0; k < rows; k++)
            nones += to[k] == Py_None;
        if (nones == rows && rows > 0) {
            for (size_t b = 0; b * BLOCK_ROWS < rows; b++) {
                const size_t n =
                    rows - b * BLOCK_ROWS < BLOCK_ROWS ? rows - b * BLOCK_ROWS : BLOCK_ROWS;
                memcpy(to + b * BLOCK_ROWS, c->items[b], n * sizeof *to);
            }
            Py_SET_REFCNT(Py_None, Py_REFCNT(Py_None) - (Py_ssize_t)rows);
        } else {
            for (size_t k = 0; k < rows; k++) {
                PyObject *old = to[k];
                to[k] = c->items[BLOCK_OF(k)][IN_BLOCK(k)]; /* the reference moves */
                Py_XDECREF(old);
            }
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
