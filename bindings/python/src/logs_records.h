/* logs_records.h - pct.logs' C part: the log engine run in-process, its
 * records as dicts (logs_records.c), its TSV rows as columns
 * (logs_frame.c); what the two share. */
#ifndef PCT_PY_LOGS_RECORDS_H
#define PCT_PY_LOGS_RECORDS_H

#include <Python.h>
#include <pthread.h>
#include <stdatomic.h>

#include "log_session.h"

/* Adds LogReader, logs_json, log_formats and logs_frame to the module; -1
 * on error. */
int pct_logs_init(PyObject *module);
int pct_logs_frame_init(PyObject *module);
int pct_logs_write_init(PyObject *module); /* logs_write (logs_write.c) */

/* A session for opts, the dict pct.logs builds (format, log_format,
 * referer, decode_slash, query, percent_u, field, threads, byte_range;
 * for pct.logs.write also table "tsv"/"csv", header, csv_safe, raw,
 * raw_spaces, bytes, strict, json_key), checked by the
 * session as the CLI's options: --json when json; when fields is not NULL,
 * a table of those fields: table_kind 't' (--tsv --fields FIELDS) or 'b' (the
 * same rows as cells, log_cells.h), unless opts names the table. NULL with
 * an exception set. */
struct log_session *logs_session_from(PyObject *opts, int json, const char *fields, int table_kind);

/* Adds the session's input: the file at path (bytes), else fd (name: the
 * name messages give it), else standard input. (A file object the caller
 * feeds is no input of the session.) 0, or -1 with MemoryError set. */
int logs_session_add_input(struct log_session *s, PyObject *path, int fd, const char *name);

/* The exit status `pct logs` gives for a run's result (logs.c). */
int logs_exit_status(int result);

/* What the CLI would print on stderr, kept (up to 64 KiB) for the LogError
 * of a failed run: logs_on_message is the session's message callback. */
struct logs_messages {
    pthread_mutex_t lock;
    char *text;
    size_t len;
    int cut;
};
void logs_on_message(void *ctx, const char *line);
/* The messages, then the session's error (unless the messages said it),
 * stripped. */
PyObject *logs_message_text(struct logs_messages *m, const char *error, int result);

/* Feeds s from file's read() (bytes, or str as UTF-8) until it returns
 * nothing, *stop is set (stop may be NULL) or the run stops, then finishes
 * the run; returns as log_session_finish. Called without the GIL. An
 * exception of read() is kept in exc (unless one is there already) and
 * interrupts the run. */
int logs_feed_file(struct log_session *s, PyObject *file, atomic_int *stop, PyObject *exc[3]);

/* A session run on a thread of its own (logs_background_main): fed from
 * file's read() when file is not NULL (its exception kept in exc, three
 * PyObject pointers), else from the session's inputs. When it ends, result
 * (as log_session_run) and done are set under lock and changed is
 * broadcast. */
struct logs_background {
    struct log_session *s;
    PyObject *file;
    PyObject **exc;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int done, result;
};
void *logs_background_main(void *arg);

/* Waits on changed (lock held) for at most 0.1 s, so that a waiting
 * consumer looks at Ctrl-C (the signal handlers run) that often. */
void logs_wait_briefly(pthread_cond_t *changed, pthread_mutex_t *lock);

#endif
