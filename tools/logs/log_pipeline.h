/* log_pipeline.h - reading inputs, worker threads, output in
 * input order, progress. */
#ifndef PCT_TOOLS_LOG_PIPELINE_H
#define PCT_TOOLS_LOG_PIPELINE_H

#include <pthread.h>
#include <stdint.h>

#include "log_decode.h"
#include "log_output.h"

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
    struct buf own; /* the chunk's input bytes */
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
    pthread_t *threads;
    struct worker inline_worker;
    struct buf carry;         /* a partial line between two chunks */
    struct buf long_out;      /* a piece of a long line, escaped */
    uint64_t file_first_line; /* lines before the current input */
};

/* Starts nworkers threads (0: decode on the calling thread). */
void pipeline_start(struct pipeline *pl, const struct log_ctx *ctx, int nworkers);
/* Decodes the inputs ("-": stdin) to stdout, in order; errors set
 * pl->run.failed. With worker threads, compressed files are decompressed
 * ahead, several at once (log_prefetch.h). */
void pipeline_inputs(struct pipeline *pl, char **names, size_t count);
/* Writes what is left and stops the threads. */
void pipeline_stop(struct pipeline *pl);
/* Redraws the progress bar (at most every 0.1 s unless final): bytes of
 * the input files read (for compressed files, compressed bytes) against
 * their total size, and with compressed input the text decoded so far. */
void show_progress(struct pipeline *pl, int final);

#endif
