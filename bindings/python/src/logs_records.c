/* logs_records.c - pct.logs in-process: the log engine of `pct logs`
 * (tools/logs, log_session.h) run on a thread of its own, its records made
 * into the dicts `pct logs --json` writes (log_record_json: the same walk,
 * no JSON text in between), handed to the Python side in batches.
 *
 * The run's thread holds no GIL while it reads and decodes. The record
 * callback (on that thread or one of the engine's workers, one call at a
 * time, in input order) takes the GIL once per batch of up to 256 records,
 * builds a list of dicts, and puts it in a queue of QUEUE_BATCHES lists:
 * when the reader falls behind, the callback waits, so memory stays bounded
 * whatever the file's size. Closing the reader (a `break` out of the loop)
 * makes the callback return non-zero, which stops the run, and joins the
 * thread. A file object without a descriptor is read on the run's thread
 * (taking the GIL for each read) and fed to the session. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log_format_registry.h"
#include "log_options.h"
#include "log_session.h"
#include "logs_records.h"

#define QUEUE_BATCHES 4
#define MESSAGES_MAX (64 << 10)
#define FEED_BLOCK ((Py_ssize_t)1 << 20)

/* ------------------------------------------------------------- options */

static int flag(PyObject *opts, const char *name, int *out)
{
    PyObject *v = PyDict_GetItemString(opts, name); /* borrowed */
    if (v == NULL)
        return 0;
    int t = PyObject_IsTrue(v);
    if (t < 0)
        return -1;
    *out = t;
    return 0;
}

struct log_session *logs_session_from(PyObject *opts, int json, const char *fields, int table_kind)
{
    if (!PyDict_Check(opts)) {
        PyErr_SetString(PyExc_TypeError, "options must be a dict");
        return NULL;
    }
    struct log_options o;
    log_options_init(&o);
    o.cfg.progress = 0;
    o.cfg.json = json;
    if (fields != NULL) {
        o.cfg.table = table_kind;
        o.fields = fields;
    }
    PyObject *log_format = PyDict_GetItemString(opts, "log_format");
    if (log_format != NULL && log_format != Py_None) {
        if (!PyUnicode_Check(log_format)) {
            PyErr_Format(PyExc_TypeError, "log_format must be a str, not %.100s",
                         Py_TYPE(log_format)->tp_name);
            return NULL;
        }
        o.log_format = PyUnicode_AsUTF8(log_format); /* copied by configure */
        if (o.log_format == NULL)
            return NULL;
    }
    PyObject *format = PyDict_GetItemString(opts, "format");
    if (format != NULL && format != Py_None) {
        const char *name = PyUnicode_AsUTF8(format);
        if (name == NULL)
            return NULL;
        if (log_options_format(&o, name) != 0) {
            PyErr_Format(PyExc_ValueError, "unknown format %R", format);
            return NULL;
        }
    }
    if (flag(opts, "referer", &o.cfg.referer) != 0 ||
        flag(opts, "decode_slash", &o.cfg.decode_slash) != 0 ||
        flag(opts, "percent_u", &o.cfg.percent_u) != 0)
        return NULL;
    PyObject *query = PyDict_GetItemString(opts, "query");
    if (query != NULL && query != Py_None) {
        const char *q = PyUnicode_AsUTF8(query);
        if (q == NULL)
            return NULL;
        if (strcmp(q, "form") == 0)
            o.cfg.query = Q_FORM;
        else if (strcmp(q, "plain") == 0)
            o.cfg.query = Q_PLAIN;
        else if (strcmp(q, "keep") == 0)
            o.cfg.query = Q_KEEP;
        else {
            PyErr_Format(PyExc_ValueError, "query must be 'form', 'plain' or 'keep', not %R",
                         query);
            return NULL;
        }
    }
    PyObject *field = PyDict_GetItemString(opts, "field");
    if (field != NULL && field != Py_None) {
        Py_ssize_t n = PyNumber_AsSsize_t(field, PyExc_OverflowError);
        if (n == -1 && PyErr_Occurred())
            return NULL;
        if (n < 1 || log_options_field(&o, (size_t)n) != 0) {
            PyErr_Format(PyExc_ValueError, "field must be 1..%d, not %zd", LOG_MAX_FIELDS, n);
            return NULL;
        }
    }
    /* What pct.logs.write takes besides (the output's options). */
    if (flag(opts, "header", &o.cfg.header) != 0 || flag(opts, "csv_safe", &o.cfg.csv_safe) != 0 ||
        flag(opts, "raw", &o.cfg.raw) != 0 || flag(opts, "raw_spaces", &o.cfg.raw_spaces) != 0 ||
        flag(opts, "bytes", &o.cfg.bytes) != 0 || flag(opts, "strict", &o.cfg.strict) != 0)
        return NULL;
    PyObject *table = PyDict_GetItemString(opts, "table");
    if (table != NULL && table != Py_None) {
        const char *t = PyUnicode_AsUTF8(table);
        if (t == NULL)
            return NULL;
        if (strcmp(t, "tsv") != 0 && strcmp(t, "csv") != 0) {
            PyErr_Format(PyExc_ValueError, "table must be 'tsv' or 'csv', not %R", table);
            return NULL;
        }
        o.cfg.table = t[0];
    }
    PyObject *json_key = PyDict_GetItemString(opts, "json_key");
    if (json_key != NULL && json_key != Py_None) {
        o.cfg.json_key = PyUnicode_AsUTF8(json_key); /* copied by configure */
        if (o.cfg.json_key == NULL)
            return NULL;
    }
    PyObject *range = PyDict_GetItemString(opts, "byte_range");
    if (range != NULL && range != Py_None) {
        unsigned long long start, end;
        if (!PyArg_ParseTuple(range, "KK;byte_range must be (start, end)", &start, &end))
            return NULL;
        o.has_byte_range = 1;
        o.byte_range_start = start;
        o.byte_range_end = end;
    }
    PyObject *threads = PyDict_GetItemString(opts, "threads");
    if (threads != NULL && threads != Py_None) {
        long t = PyLong_AsLong(threads);
        if (t == -1 && PyErr_Occurred())
            return NULL;
        if (t < 1 || t > LOG_MAX_THREADS) {
            PyErr_Format(PyExc_ValueError, "threads must be 1..%d, not %ld", LOG_MAX_THREADS, t);
            return NULL;
        }
        o.cfg.threads = t;
    }
    struct log_session *s = log_session_new();
    if (s == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    if (log_session_configure(s, &o) != 0) {
        PyErr_SetString(PyExc_ValueError, log_session_error(s));
        log_session_free(s);
        return NULL;
    }
    return s;
}

int logs_exit_status(int result)
{
    if (result == 0 || result == 1)
        return result;
    return result > 128 ? result : 2;
}

/* ------------------------------------------------------------ messages */

int logs_session_add_input(struct log_session *s, PyObject *path, int fd, const char *name)
{
    const int rc = path != NULL ? log_session_add_file(s, PyBytes_AS_STRING(path))
                   : fd >= 0    ? log_session_add_fd(s, fd, name)
                                : log_session_add_file(s, "-");
    if (rc != 0)
        PyErr_NoMemory();
    return rc != 0 ? -1 : 0;
}

void logs_on_message(void *ctx, const char *line)
{
    struct logs_messages *m = ctx;
    size_t n = strlen(line);
    pthread_mutex_lock(&m->lock);
    if (m->len + n + 1 > MESSAGES_MAX) {
        m->cut = 1;
    } else {
        char *t = realloc(m->text, m->len + n + 2);
        if (t != NULL) {
            m->text = t;
            memcpy(t + m->len, line, n);
            t[m->len + n] = '\n';
            m->len += n + 1;
            t[m->len] = '\0';
        }
    }
    pthread_mutex_unlock(&m->lock);
}

PyObject *logs_message_text(struct logs_messages *m, const char *error, int result)
{
    PyObject *msgs = PyUnicode_DecodeUTF8(m->text != NULL ? m->text : "", (Py_ssize_t)m->len,
                                          "backslashreplace");
    if (msgs == NULL)
        return NULL;
    PyObject *out;
    if (result != LOG_SESSION_FAULT && error[0] != '\0')
        out = PyUnicode_FromFormat("%U%s%s", msgs, error, m->cut ? "\n(more messages cut)" : "");
    else
        out = PyUnicode_FromFormat("%U%s", msgs, m->cut ? "(more messages cut)" : "");
    Py_DECREF(msgs);
    if (out == NULL)
        return NULL;
    PyObject *stripped = PyObject_CallMethod(out, "strip", NULL);
    Py_DECREF(out);
    return stripped;
}

/* ------------------------------------------------------ records as dicts */

/* Keys repeat on every record: each made once (a small cache). */
#define KEY_CACHE 256
#define KEY_CACHE_LEN 48
struct key_entry {
    size_t n;
    char text[KEY_CACHE_LEN];
    PyObject *str;
};

struct builder {
    struct key_entry *keys;
    PyObject *stack[4]; /* [0]: the dict; lists below it */
    int depth;
    PyObject *key; /* borrowed from the cache, or owned (own_key) */
    int own_key;
};

static PyObject *make_key(struct key_entry *keys, const char *p, size_t n, int *owned)
{
    *owned = 0;
    if (n > KEY_CACHE_LEN) {
        *owned = 1;
        return PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "surrogateescape");
    }
    size_t h = 5381;
    for (size_t i = 0; i < n; i++)
        h = h * 33 + (unsigned char)p[i];
    struct key_entry *e = &keys[h % KEY_CACHE];
    if (e->str != NULL && e->n == n && memcmp(e->text, p, n) == 0)
        return e->str;
    PyObject *s = PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "surrogateescape");
    if (s == NULL)
        return NULL;
    PyUnicode_InternInPlace(&s);
    Py_XSETREF(e->str, s);
    e->n = n;
    memcpy(e->text, p, n);
    return s;
}

static void keys_clear(struct key_entry *keys)
{
    for (size_t i = 0; i < KEY_CACHE; i++)
        Py_CLEAR(keys[i].str);
}

/* A JSON number as json.loads reads it: int, or float with '.', 'e'. */
static PyObject *literal(const char *p, size_t n)
{
    if (n == 4 && memcmp(p, "true", 4) == 0)
        Py_RETURN_TRUE;
    if (n == 5 && memcmp(p, "false", 5) == 0)
        Py_RETURN_FALSE;
    if (n == 4 && memcmp(p, "null", 4) == 0)
        Py_RETURN_NONE;
    char local[64];
    char *t = n < sizeof local ? local : PyMem_Malloc(n + 1);
    if (t == NULL)
        return PyErr_NoMemory();
    memcpy(t, p, n);
    t[n] = '\0';
    PyObject *v;
    if (strpbrk(t, ".eE") != NULL) {
        double d = PyOS_string_to_double(t, NULL, NULL);
        v = d == -1.0 && PyErr_Occurred() ? NULL : PyFloat_FromDouble(d);
    } else {
        v = PyLong_FromString(t, NULL, 10);
    }
    if (t != local)
        PyMem_Free(t);
    return v;
}

static int add_value(struct builder *b, PyObject *v)
{
    if (v == NULL)
        return -1;
    int rc;
    if (b->depth == 0) {
        rc = b->key != NULL ? PyDict_SetItem(b->stack[0], b->key, v) : -1;
        if (b->own_key)
            Py_XDECREF(b->key);
        b->key = NULL;
        b->own_key = 0;
    } else {
        rc = PyList_Append(b->stack[b->depth], v);
    }
    Py_DECREF(v);
    return rc;
}

static int on_json(void *ctx, int event, const char *p, size_t n)
{
    struct builder *b = ctx;
    switch (event) {
    case LOG_JSON_KEY:
        if (b->own_key)
            Py_XDECREF(b->key);
        b->key = make_key(b->keys, p, n, &b->own_key);
        return b->key == NULL ? -1 : 0;
    case LOG_JSON_STRING:
        return add_value(b, PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "surrogateescape")) ? -1 : 0;
    case LOG_JSON_NULL:
        return add_value(b, Py_NewRef(Py_None)) ? -1 : 0;
    case LOG_JSON_LITERAL:
        return add_value(b, literal(p, n)) ? -1 : 0;
    case LOG_JSON_LIST: {
        if (b->depth + 1 >= (int)(sizeof b->stack / sizeof b->stack[0]))
            return -1;
        PyObject *list = PyList_New(0);
        if (list == NULL)
            return -1;
        Py_INCREF(list);
        if (add_value(b, list) != 0) {
            Py_DECREF(list);
            return -1;
        }
        b->stack[++b->depth] = list; /* the reference kept above */
        return 0;
    }
    case LOG_JSON_END:
        if (b->depth == 0)
            return -1;
        Py_DECREF(b->stack[b->depth--]);
        return 0;
    }
    return -1;
}

/* The records as a list of dicts; NULL with an exception set. */
static PyObject *records_list(struct key_entry *keys, struct log_values *v,
                              const struct log_session_record *r, size_t count)
{
    PyObject *list = PyList_New((Py_ssize_t)count);
    if (list == NULL)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        PyObject *d = PyDict_New();
        if (d == NULL)
            goto fail;
        PyList_SET_ITEM(list, (Py_ssize_t)i, d);
        struct builder b = {keys, {d}, 0, NULL, 0};
        int rc = log_record_json(v, &r[i], on_json, &b);
        if (b.own_key)
            Py_XDECREF(b.key);
        while (b.depth > 0)
            Py_DECREF(b.stack[b.depth--]);
        if (rc != 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_RuntimeError, "pct.logs: a record could not be built");
            goto fail;
        }
    }
    return list;
fail:
    Py_DECREF(list);
    return NULL;
}

/* ------------------------------------------------------------- the reader */

typedef struct {
    PyObject_HEAD struct log_session *s;
    pthread_t thread;
    int started, joined, finished;
    int own_fd;     /* closed when the reader is */
    PyObject *file; /* fed from, when it has no descriptor */
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a batch in, a batch out, done, closing */
    PyObject *queue[QUEUE_BATCHES];
    size_t head, count;
    int done;           /* the run has returned */
    atomic_int closing; /* the reader is closed: stop */
    int result;         /* the run's */
    char error[1024];   /* the session's error */
    PyObject *exc[3];   /* an exception of the record callback or of file.read */
    struct logs_messages msgs;
    struct key_entry keys[KEY_CACHE];
    PyObject *weakrefs;
    int forked; /* in a child process: the run's thread is not here */
} Reader;

/* Keeps the first exception (the callback's or file.read's). GIL held. */
static void keep_exception(Reader *rd)
{
    if (rd->exc[0] == NULL)
        PyErr_Fetch(&rd->exc[0], &rd->exc[1], &rd->exc[2]);
    else
        PyErr_Clear();
}

static int on_records(void *ctx, struct log_values *v, const struct log_session_record *r,
                      size_t count)
{
    Reader *rd = ctx;
    if (atomic_load(&rd->closing))
        return 1;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *list = records_list(rd->keys, v, r, count);
    if (list == NULL)
        keep_exception(rd);
    PyGILState_Release(g);
    if (list == NULL)
        return 2;
    pthread_mutex_lock(&rd->lock);
    while (rd->count == QUEUE_BATCHES && !atomic_load(&rd->closing))
        pthread_cond_wait(&rd->changed, &rd->lock);
    int closing = atomic_load(&rd->closing);
    if (!closing) {
        rd->queue[(rd->head + rd->count) % QUEUE_BATCHES] = list;
        rd->count++;
        pthread_cond_broadcast(&rd->changed);
    }
    pthread_mutex_unlock(&rd->lock);
    if (closing) {
        g = PyGILState_Ensure();
        Py_DECREF(list);
        PyGILState_Release(g);
        return 1;
    }
    return 0;
}

void logs_wait_briefly(pthread_cond_t *changed, pthread_mutex_t *lock)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += 100 * 1000 * 1000;
    if (t.tv_nsec >= 1000000000) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(changed, lock, &t);
}

int logs_feed_file(struct log_session *s, PyObject *file, atomic_int *stop, PyObject *exc[3])
{
    for (;;) {
        if (stop != NULL && atomic_load(stop))
            break;
        PyGILState_STATE g = PyGILState_Ensure();
        PyObject *chunk = PyObject_CallMethod(file, "read", "n", FEED_BLOCK);
        if (chunk != NULL && PyUnicode_Check(chunk)) { /* a text file: its UTF-8 */
            PyObject *b = PyUnicode_AsEncodedString(chunk, "utf-8", "surrogateescape");
            Py_SETREF(chunk, b);
        }
        Py_buffer view;
        if (chunk != NULL && PyObject_GetBuffer(chunk, &view, PyBUF_SIMPLE) != 0)
            Py_CLEAR(chunk);
        if (chunk == NULL) {
            if (exc[0] == NULL)
                PyErr_Fetch(&exc[0], &exc[1], &exc[2]);
            else
                PyErr_Clear();
            PyGILState_Release(g);
            log_session_interrupt(s, 2);
            break;
        }
        PyGILState_Release(g);
        int rc = view.len == 0 ? 1 : log_session_feed(s, view.buf, (size_t)view.len);
        g = PyGILState_Ensure();
        PyBuffer_Release(&view);
        Py_DECREF(chunk);
        PyGILState_Release(g);
        if (rc != 0)
            break;
    }
    return log_session_finish(s);
}

void *logs_background_main(void *arg)
{
    struct logs_background *b = arg;
    int result =
        b->file != NULL ? logs_feed_file(b->s, b->file, NULL, b->exc) : log_session_run(b->s);
    pthread_mutex_lock(&b->lock);
    b->result = result;
    b->done = 1;
    pthread_cond_broadcast(&b->changed);
    pthread_mutex_unlock(&b->lock);
    return NULL;
}

static void *reader_main(void *arg)
{
    Reader *rd = arg;
    int result = rd->file != NULL ? logs_feed_file(rd->s, rd->file, &rd->closing, rd->exc)
                                  : log_session_run(rd->s);
    pthread_mutex_lock(&rd->lock);
    rd->result = result;
    snprintf(rd->error, sizeof rd->error, "%s", log_session_error(rd->s));
    rd->done = 1;
    pthread_cond_broadcast(&rd->changed);
    pthread_mutex_unlock(&rd->lock);
    return NULL;
}

static void reader_join(Reader *rd)
{
    if (rd->started && !rd->joined) {
        Py_BEGIN_ALLOW_THREADS pthread_join(rd->thread, NULL);
        Py_END_ALLOW_THREADS rd->joined = 1;
    }
}

/* Stops the run (if it still runs), joins its thread, drops what is
 * queued. */
static void reader_stop(Reader *rd)
{
    if (rd->forked)
        return;
    if (rd->started && !rd->joined) {
        pthread_mutex_lock(&rd->lock);
        atomic_store(&rd->closing, 1);
        pthread_cond_broadcast(&rd->changed);
        pthread_mutex_unlock(&rd->lock);
        log_session_interrupt(rd->s, 2);
        reader_join(rd);
    }
    rd->finished = 1;
    for (; rd->count > 0; rd->count--) {
        Py_CLEAR(rd->queue[rd->head]);
        rd->head = (rd->head + 1) % QUEUE_BATCHES;
    }
    if (rd->own_fd >= 0) {
        close(rd->own_fd);
        rd->own_fd = -1;
    }
}

static PyObject *reader_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"options", "path", "fd", "name", "file", "own_fd", NULL};
    PyObject *opts, *path = NULL, *file = NULL;
    int fd = -1, own = 0;
    const char *name = "-";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O&iyOp", kwlist, &opts, PyUnicode_FSConverter,
                                     &path, &fd, &name, &file, &own))
        return NULL;
    Reader *rd = (Reader *)type->tp_alloc(type, 0);
    if (rd == NULL) {
        Py_XDECREF(path);
        return NULL;
    }
    rd->own_fd = -1; /* taken below, once the reader exists */
    pthread_mutex_init(&rd->lock, NULL);
    pthread_cond_init(&rd->changed, NULL);
    pthread_mutex_init(&rd->msgs.lock, NULL);
    rd->s = logs_session_from(opts, 0, NULL, 0);
    int rc = 0;
    if (rd->s == NULL) {
        rc = -1;
    } else {
        log_session_messages(rd->s, logs_on_message, &rd->msgs);
        log_session_records(rd->s, on_records, rd);
        if (file != NULL && file != Py_None)
            rd->file = Py_NewRef(file);
        else
            rc = logs_session_add_input(rd->s, path, fd, name);
    }
    Py_XDECREF(path);
    if (rc == 0) {
        rc = pthread_create(&rd->thread, NULL, reader_main, rd);
        if (rc != 0) {
            errno = rc;
            PyErr_SetFromErrno(PyExc_OSError);
            rc = -1;
        } else {
            rd->started = 1;
        }
    }
    if (rc != 0) {
        Py_DECREF(rd);
        return NULL;
    }
    rd->own_fd = own ? fd : -1;
    return (PyObject *)rd;
}

static void reader_dealloc(Reader *rd)
{
    if (rd->weakrefs != NULL)
        PyObject_ClearWeakRefs((PyObject *)rd);
    reader_stop(rd);
    for (int i = 0; i < 3; i++)
        Py_CLEAR(rd->exc[i]);
    Py_CLEAR(rd->file);
    keys_clear(rd->keys);
    if (!rd->forked) /* else mid-run, its threads gone: left as it is */
        log_session_free(rd->s);
    free(rd->msgs.text);
    if (!rd->forked) { /* else possibly held by the parent's threads when it forked */
        pthread_mutex_destroy(&rd->lock);
        pthread_cond_destroy(&rd->changed);
        pthread_mutex_destroy(&rd->msgs.lock);
    }
    Py_TYPE(rd)->tp_free((PyObject *)rd);
}

/* The next batch (a list of dicts); StopIteration at the end, after which
 * .result() says how the run ended. A waiting reader still sees Ctrl-C. */
static PyObject *reader_next(Reader *rd)
{
    while (!rd->finished) {
        PyObject *batch = NULL;
        int done = 0;
        Py_BEGIN_ALLOW_THREADS pthread_mutex_lock(&rd->lock);
        if (rd->count == 0 && !rd->done) {
            logs_wait_briefly(&rd->changed, &rd->lock);
        }
        if (rd->count > 0) {
            batch = rd->queue[rd->head];
            rd->queue[rd->head] = NULL;
            rd->head = (rd->head + 1) % QUEUE_BATCHES;
            rd->count--;
            pthread_cond_broadcast(&rd->changed);
        } else {
            done = rd->done;
        }
        pthread_mutex_unlock(&rd->lock);
        Py_END_ALLOW_THREADS if (batch != NULL) return batch;
        if (done) {
            reader_join(rd);
            rd->finished = 1;
            if (rd->own_fd >= 0) {
                close(rd->own_fd);
                rd->own_fd = -1;
            }
            break;
        }
        if (PyErr_CheckSignals() != 0)
            return NULL;
    }
    if (rd->exc[0] != NULL) {
        PyErr_Restore(rd->exc[0], rd->exc[1], rd->exc[2]);
        rd->exc[0] = rd->exc[1] = rd->exc[2] = NULL;
    }
    return NULL;
}

static PyObject *reader_close(Reader *rd, PyObject *unused)
{
    (void)unused;
    reader_stop(rd);
    Py_RETURN_NONE;
}

/* (returncode, message) of a finished run: the exit status and stderr text
 * `pct logs` would give. */
static PyObject *reader_result(Reader *rd, PyObject *unused)
{
    (void)unused;
    if (rd->forked) {
        PyErr_SetString(PyExc_RuntimeError,
                        "pct.logs: a reader started before fork() cannot go on in the child");
        return NULL;
    }
    if (!rd->joined) {
        PyErr_SetString(PyExc_RuntimeError, "the run has not finished");
        return NULL;
    }
    PyObject *m = logs_message_text(&rd->msgs, rd->error, rd->result);
    if (m == NULL)
        return NULL;
    return Py_BuildValue("(iN)", logs_exit_status(rd->result), m);
}

/* In a child after fork(): the run's thread stayed in the parent. The
 * reader ends (StopIteration) and frees nothing of the run. */
static PyObject *reader_forget(Reader *rd, PyObject *unused)
{
    (void)unused;
    rd->forked = 1;
    rd->finished = 1;
    rd->joined = 1;
    rd->own_fd = -1;
    rd->count = 0; /* the batches' references are the parent's too: leaked */
    Py_RETURN_NONE;
}

static PyObject *reader_running(Reader *rd, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(rd->started && !rd->joined);
}

static PyMethodDef reader_methods[] = {
    {"close", (PyCFunction)reader_close, METH_NOARGS,
     "Stops the run (at a line's end) and joins its thread; what is queued is dropped."},
    {"result", (PyCFunction)reader_result, METH_NOARGS,
     "(returncode, message) of the finished run: pct logs' exit status and messages."},
    {"_after_fork", (PyCFunction)reader_forget, METH_NOARGS,
     "In a child process after fork(): the reader ends, its run left alone."},
    {"running", (PyCFunction)reader_running, METH_NOARGS,
     "True while the run's thread has not been joined."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pct._pct.LogReader",
    .tp_basicsize = sizeof(Reader),
    .tp_weaklistoffset = offsetof(Reader, weakrefs),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "LogReader(options, path=None, fd=-1, name='-', file=None, own_fd=False):\n"
              "the records of one log input, as lists of dicts (batches), read by the log\n"
              "engine on a thread of its own. Used by pct.logs.read.",
    .tp_new = reader_new,
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)reader_next,
    .tp_methods = reader_methods,
};

/* ------------------------------------------------------ the JSON text */

struct text_out {
    char *p;
    size_t len, cap;
    int oom;
};

static int on_text(void *ctx, const char *p, size_t n, uint64_t lines)
{
    (void)lines;
    struct text_out *t = ctx;
    if (t->cap - t->len < n) {
        size_t cap = t->cap > 0 ? t->cap : 1 << 16;
        while (cap - t->len < n)
            cap *= 2;
        char *q = realloc(t->p, cap);
        if (q == NULL) {
            t->oom = 1;
            return 1;
        }
        t->p = q;
        t->cap = cap;
    }
    memcpy(t->p + t->len, p, n);
    t->len += n;
    return 0;
}

/* logs_json(options, path=None, data=None) -> (bytes, returncode, message):
 * the whole `pct logs --json` output of a file, or of the bytes of one. */
static PyObject *logs_json(PyObject *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    static char *kwlist[] = {"options", "path", "data", NULL};
    PyObject *opts, *path = NULL;
    Py_buffer data = {0};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O&y*", kwlist, &opts, PyUnicode_FSConverter,
                                     &path, &data))
        return NULL;
    PyObject *out = NULL;
    struct logs_messages msgs = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};
    struct text_out text = {NULL, 0, 0, 0};
    struct log_session *s = logs_session_from(opts, 1, NULL, 0);
    if (s == NULL)
        goto done;
    log_session_messages(s, logs_on_message, &msgs);
    log_session_output_callback(s, on_text, &text);
    if (path != NULL && log_session_add_file(s, PyBytes_AS_STRING(path)) != 0) {
        PyErr_NoMemory();
        goto done;
    }
    int result;
    Py_BEGIN_ALLOW_THREADS if (path != NULL) result = log_session_run(s);
    else
    {
        const char *p = data.buf;
        size_t n = data.buf != NULL ? (size_t)data.len : 0;
        /* fed in pieces: feed blocks while the run (on its own thread) is
         * behind, and a piece at a time lets it start early */
        for (size_t at = 0; at < n;) {
            size_t k = n - at < (size_t)FEED_BLOCK ? n - at : (size_t)FEED_BLOCK;
            if (log_session_feed(s, p + at, k) != 0)
                break;
            at += k;
        }
        result = log_session_finish(s);
    }
    Py_END_ALLOW_THREADS if (text.oom)
    {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *m = logs_message_text(&msgs, log_session_error(s), result);
    if (m != NULL)
        out = Py_BuildValue("(y#iN)", text.p != NULL ? text.p : "", (Py_ssize_t)text.len,
                            logs_exit_status(result), m);
done:
    log_session_free(s);
    free(text.p);
    free(msgs.text);
    Py_XDECREF(path);
    if (data.obj != NULL)
        PyBuffer_Release(&data);
    return out;
}

/* "a,b" as ("a", "b"); NULL: (). */
static PyObject *aliases_tuple(const char *text)
{
    PyObject *list = PyList_New(0);
    for (const char *p = text; list != NULL && p != NULL && *p != '\0';) {
        const char *comma = strchr(p, ',');
        size_t n = comma != NULL ? (size_t)(comma - p) : strlen(p);
        PyObject *name = n > 0 ? PyUnicode_FromStringAndSize(p, (Py_ssize_t)n) : NULL;
        if (n > 0 && (name == NULL || PyList_Append(list, name) != 0))
            Py_CLEAR(list);
        Py_XDECREF(name);
        p = comma != NULL ? comma + 1 : NULL;
    }
    if (list == NULL)
        return NULL;
    PyObject *t = PyList_AsTuple(list);
    Py_DECREF(list);
    return t;
}

/* log_formats() -> ((name, (alias, ...), description), ...): the log
 * engine's format registry, the formats --format takes, in its order (what
 * `pct logs --list-formats` writes). */
static PyObject *log_formats(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *rows = PyList_New(0);
    if (rows == NULL)
        return NULL;
    for (int id = 0; id < LF_COUNT; id++) {
        const struct log_format_def *d = log_format_def(id);
        if (d == NULL || log_format_by_name(d->name) != id)
            continue; /* not a name --format takes (--log-format's "custom") */
        PyObject *names = aliases_tuple(d->aliases);
        PyObject *row =
            names != NULL ? Py_BuildValue("(sNs)", d->name, names, d->description) : NULL;
        if (row == NULL || PyList_Append(rows, row) != 0) {
            Py_XDECREF(row);
            Py_DECREF(rows);
            return NULL;
        }
        Py_DECREF(row);
    }
    PyObject *t = PyList_AsTuple(rows);
    Py_DECREF(rows);
    return t;
}

static PyMethodDef logs_methods[] = {
    {"log_formats", log_formats, METH_NOARGS,
     "log_formats() -> ((name, aliases, description), ...): the log engine's formats,\n"
     "as `pct logs --list-formats` lists them."},
    {"logs_json", (PyCFunction)(void (*)(void))logs_json, METH_VARARGS | METH_KEYWORDS,
     "logs_json(options, path=None, data=None) -> (bytes, returncode, message): the\n"
     "output of `pct logs --json` for a file (or the bytes of one), run in-process."},
    {NULL, NULL, 0, NULL},
};

int pct_logs_init(PyObject *m)
{
    if (PyType_Ready(&ReaderType) < 0 ||
        PyModule_AddObjectRef(m, "LogReader", (PyObject *)&ReaderType) < 0)
        return -1;
    if (PyModule_AddFunctions(m, logs_methods) < 0)
        return -1;
    if (pct_logs_write_init(m) != 0)
        return -1;
    return pct_logs_frame_init(m);
}
