/* logs_write.c - pct.logs.write's C part: `pct logs` run in-process with
 * its output written by the engine's own writers straight to a file
 * descriptor (nothing passes through Python objects), and the run's
 * counts returned. The run goes on a thread of its own while the calling
 * thread waits without the GIL, looking at signals every 0.1 s: Ctrl-C
 * stops the run at a line's end. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "log_format_registry.h"
#include "log_session.h"
#include "logs_records.h"

struct write_run {
    struct logs_background bg;
    PyObject *exc[3]; /* bg.exc: the file object's read() raised */
};

/* Waits for the run; -1 when a signal handler raised (the run is then
 * stopped, and joined). */
static int write_wait(struct write_run *r, pthread_t thread)
{
    int raised = 0;
    for (;;) {
        int done;
        Py_BEGIN_ALLOW_THREADS pthread_mutex_lock(&r->bg.lock);
        if (!r->bg.done)
            logs_wait_briefly(&r->bg.changed, &r->bg.lock);
        done = r->bg.done;
        pthread_mutex_unlock(&r->bg.lock);
        Py_END_ALLOW_THREADS if (done) break;
        if (!raised && PyErr_CheckSignals() != 0) {
            raised = 1;
            log_session_interrupt(r->bg.s, 2);
        }
    }
    Py_BEGIN_ALLOW_THREADS pthread_join(thread, NULL);
    Py_END_ALLOW_THREADS return raised ? -1 : 0;
}

static int set_count(PyObject *d, const char *key, uint64_t n)
{
    PyObject *v = PyLong_FromUnsignedLongLong(n);
    int rc = v != NULL ? PyDict_SetItemString(d, key, v) : -1;
    Py_XDECREF(v);
    return rc;
}

/* The counts `pct logs --stats` prints, as a dict; formats: {name: lines
 * parsed} for the formats seen. */
static PyObject *counts_dict(const struct log_session *s)
{
    struct log_session_counts c;
    log_session_counts(s, &c);
    PyObject *d = PyDict_New(), *formats = PyDict_New();
    if (d == NULL || formats == NULL)
        goto fail;
    if (set_count(d, "lines", c.lines) || set_count(d, "bytes", c.bytes) ||
        set_count(d, "escaped_lines", c.escaped_lines) || set_count(d, "malformed", c.malformed) ||
        set_count(d, "invalid_utf8", c.invalid_utf8) || set_count(d, "unparsed", c.unparsed) ||
        set_count(d, "long_lines", c.long_lines) || set_count(d, "truncated", c.truncated))
        goto fail;
    for (int i = 0; i < LF_COUNT; i++)
        if (c.formats[i] > 0 && set_count(formats, log_format_name(i), c.formats[i]) != 0)
            goto fail;
    if (PyDict_SetItemString(d, "formats", formats) != 0)
        goto fail;
    Py_DECREF(formats);
    return d;
fail:
    Py_XDECREF(d);
    Py_XDECREF(formats);
    return NULL;
}

/* logs_write(options, out_fd, json=False, fields=None, path=None, fd=-1,
 * name=b"-", file=None) -> (counts, returncode, message). */
static PyObject *logs_write(PyObject *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    static char *kwlist[] = {"options", "out_fd", "json", "fields", "path",
                             "fd",      "name",   "file", NULL};
    PyObject *opts, *path = NULL, *file = NULL;
    const char *fields = NULL, *name = "-";
    int out_fd, json = 0, fd = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Oi|pzO&iyO", kwlist, &opts, &out_fd, &json,
                                     &fields, PyUnicode_FSConverter, &path, &fd, &name, &file))
        return NULL;
    PyObject *out = NULL;
    struct logs_messages msgs = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};
    struct write_run r = {0};
    pthread_mutex_init(&r.bg.lock, NULL);
    pthread_cond_init(&r.bg.changed, NULL);
    r.bg.s = logs_session_from(opts, json, fields, 't');
    if (r.bg.s == NULL)
        goto done;
    log_session_messages(r.bg.s, logs_on_message, &msgs);
    if (log_session_output_fd(r.bg.s, out_fd) != 0) {
        errno = EBADF;
        PyErr_SetFromErrno(PyExc_OSError);
        goto done;
    }
    if (file != NULL && file != Py_None)
        r.bg.file = file;
    else if (logs_session_add_input(r.bg.s, path, fd, name) != 0)
        goto done;
    r.bg.exc = r.exc;
    pthread_t thread;
    int rc = pthread_create(&thread, NULL, logs_background_main, &r.bg);
    if (rc != 0) {
        errno = rc;
        PyErr_SetFromErrno(PyExc_OSError);
        goto done;
    }
    if (write_wait(&r, thread) != 0)
        goto done;          /* KeyboardInterrupt, or what the handler raised */
    if (r.exc[0] != NULL) { /* the file object's read() raised */
        PyErr_Restore(r.exc[0], r.exc[1], r.exc[2]);
        r.exc[0] = r.exc[1] = r.exc[2] = NULL;
        goto done;
    }
    PyObject *counts = counts_dict(r.bg.s);
    PyObject *m =
        counts != NULL ? logs_message_text(&msgs, log_session_error(r.bg.s), r.bg.result) : NULL;
    if (m != NULL)
        out = Py_BuildValue("(NiN)", counts, logs_exit_status(r.bg.result), m);
    else
        Py_XDECREF(counts);
done:
    log_session_free(r.bg.s);
    for (int i = 0; i < 3; i++)
        Py_XDECREF(r.exc[i]);
    free(msgs.text);
    pthread_mutex_destroy(&r.bg.lock);
    pthread_cond_destroy(&r.bg.changed);
    Py_XDECREF(path);
    return out;
}

static PyMethodDef write_methods[] = {
    {"logs_write", (PyCFunction)(void (*)(void))logs_write, METH_VARARGS | METH_KEYWORDS,
     "logs_write(options, out_fd, json=False, fields=None, path=None, fd=-1, name=b'-',\n"
     "file=None) -> (counts, returncode, message): `pct logs` run in-process, its output\n"
     "written to out_fd by the engine."},
    {NULL, NULL, 0, NULL},
};

int pct_logs_write_init(PyObject *m)
{
    return PyModule_AddFunctions(m, write_methods);
}
