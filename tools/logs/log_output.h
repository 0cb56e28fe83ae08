/* log_output.h - writing decoded lines (in place, or as JSON objects), one
 * chunk of input at a time, and the --stats counts. */
#ifndef PCT_TOOLS_LOG_OUTPUT_H
#define PCT_TOOLS_LOG_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "log_decode.h"
#include "log_formats.h"

/* Bytes that can be read past a chunk's lines. */
#define LOG_CHUNK_PAD 16

/* A run of whole lines and what it turns into. */
struct chunk_job {
    const char *in; /* followed by LOG_CHUNK_PAD readable bytes */
    size_t len;
    enum log_format_id fmt;
    struct w3c_layout layout; /* in effect at the chunk's start (W3C) */
    struct buf out;
    struct stats st;
    uint64_t long_first; /* the first line longer than --max-line, from 1 (0: none) */
    struct buf notes;    /* messages about its lines (input_format), said as it is written */
};

/* Decodes job->in into job->out (replacing it) and counts into job->st. */
void process_chunk(struct worker *w, struct chunk_job *job);

/* After job's output is written: frees it if it grew far past a chunk's
 * (chunk: --chunk-size). */
void chunk_job_written(struct chunk_job *job, size_t chunk);

void add_stats(struct stats *a, const struct stats *b);
/* Prints the --stats report on stderr; start: when the run began. */
void print_stats(const struct stats *s, double start);

#endif
