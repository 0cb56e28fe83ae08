/* log_pipeline.h - reading inputs, worker threads, output in
 * input order, progress. */
#ifndef PCT_TOOLS_LOG_PIPELINE_H
#define PCT_TOOLS_LOG_PIPELINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "log_decode.h"
#include "log_output.h"
#include "log_records.h"

/* What the whole run has done so far. */
struct run_state {
    struct stats total;
    uint64_t size_known;             /* total size of the input files, 0 if unknown */
    uint64_t done_before;            /* bytes of the files before the current one */
    const struct log_input *current; /* the input being read (main thread) */
    int compressed;                  /* some input was compressed */
    int reading_file;                /* current is read by process_file's threads */
    uint64_t read_to;                /* then: its offset when the chunk last written was read */
    double start, last_progress;
    int show_progress;
    int failed;
};

enum slot_state {
    SLOT_FREE,
    SLOT_READY,
    SLOT_BUSY,
    SLOT_DONE
};

struct slot {
    enum slot_state state;
    struct chunk_job job;
    struct buf own;               /* the chunk's input bytes */
    struct log_record_batch recs; /* its records (a record sink) */
};

/* One input of a run: a name ("-": stdin), or an fd (not closed). */
struct pipeline_input {
    const char *name;
    int fd; /* -1: open name */
};

struct pipeline {
    const struct log_ctx *ctx;
    struct run_state run;
    pthread_mutex_t lock;
    pthread_cond_t ready, done;
    struct slot *slots;
    size_t nslots;
    uint64_t next_fill, next_work, next_write;
    int quit;
    int nworkers;
    /* --threads is a budget of CPUs (log_pipeline.c, worker_main): */
    int running;         /* workers decoding a chunk */
    int reader_inflates; /* the input read in order is compressed */
    int reader_cpu;      /* 1 while the reader decompresses (not waiting) */
    pthread_t *threads;
    struct worker inline_worker;
    struct buf carry;                 /* a partial line between two chunks */
    struct buf long_out;              /* a piece of a long line, escaped */
    struct log_record_batch long_rec; /* a long line's record */
    uint64_t file_first_line;         /* lines before the current input */
    /* Set by the caller before pipeline_start: */
    struct log_sink *sink;                 /* the text output, or NULL: */
    const struct log_record_sink *records; /* records instead */
    _Atomic int *interrupted; /* a signal number: stop at a line's end (log_session_interrupt) */
    void (*say)(void *ctx, const char *line); /* messages about inputs, one line each */
    void *say_ctx;
    int ranged; /* one input, its lines of [range_start, range_end) (log_input_set_range) */
    uint64_t range_start, range_end;
    /* The pipeline's own: */
    _Atomic int stop;     /* an error or an interrupt: nothing more is written */
    uint64_t input_index; /* the current input's number, from 0 */
    struct buf notes;     /* messages about inputs, until said */
    char error[192];      /* the first error that is no input's fault, "" if none */
    _Atomic int fault;    /* LOG_FAULT_OOM or _INTERNAL (log_oom.h): the run stopped */
};

/* Starts nworkers threads (0: decode on the calling thread). Returns 0,
 * or -1 (out of memory or threads: pl->error) and nothing to stop. */
int pipeline_start(struct pipeline *pl, const struct log_ctx *ctx, int nworkers);
/* Decodes the inputs in order, into pl->sink or pl->records; faults of
 * inputs set pl->run.failed (and are said), a failed output or record
 * callback, or an interrupt, stop the run (pl->stop). With worker threads,
 * compressed files are decompressed ahead, several at once
 * (log_prefetch.h). */
void pipeline_inputs(struct pipeline *pl, const struct pipeline_input *inputs, size_t count);
/* Writes what is left and stops the threads. */
void pipeline_stop(struct pipeline *pl);
/* 1 once the run stops (pl->stop; set here when interrupted). */
int pipeline_stopped(struct pipeline *pl);
/* Writes text through pl->sink (nothing once it has failed: pl->stop). */
void pipeline_emit(struct pipeline *pl, const char *p, size_t n, uint64_t lines);
/* Redraws the progress bar (at most every 0.1 s unless final): bytes of
 * the input files read (for compressed files, compressed bytes) against
 * their total size, and with compressed input the text decoded so far. */
void show_progress(struct pipeline *pl, int final);

#endif
