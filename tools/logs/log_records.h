/* log_records.h - parsed lines kept as records for a session's record
 * callback (log_session.h) instead of being written: a worker collects a
 * chunk's records, the thread whose turn it is to write delivers them in
 * input order, in batches. */
#ifndef PCT_TOOLS_LOG_RECORDS_H
#define PCT_TOOLS_LOG_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "log_decode.h"
#include "log_record.h"
#include "log_session.h"

/* A record as collected: its fields are fields[first .. first + count). */
struct collected {
    int format;    /* enum log_format_id, or COLLECTED_UNPARSED / _DIRECTIVE */
    int long_line; /* text is the start of a line longer than --max-line */
    int truncated; /* the server cut it (log_record's truncated) */
    const char *s; /* the line, in the chunk's input */
    size_t n;
    size_t first, count;
};
#define COLLECTED_UNPARSED (-1)
#define COLLECTED_DIRECTIVE (-2)

/* A field's name is copied to names, its offset kept: the record and the
 * W3C layout it may point into are gone or changed by delivery time. */
struct collected_field {
    struct log_field f;
    size_t name_at;  /* offset in names, or SIZE_MAX: no name */
    size_t value_at; /* the value's, when it was made in the record; else SIZE_MAX */
};

struct log_record_batch {
    struct collected *recs;
    size_t count, cap;
    struct collected_field *fields;
    size_t nfields, fields_cap;
    struct buf names;
    /* For delivery: the public records and fields. */
    struct log_session_record *pub;
    struct log_session_field *pub_fields;
    size_t pub_cap, pub_fields_cap;
};

void log_records_clear(struct log_record_batch *b);
void log_records_free(struct log_record_batch *b);

/* Adds line s (n bytes, no terminator): r parsed, or NULL (unparsed; a W3C
 * directive when directive). */
void log_records_collect(struct log_record_batch *b, const char *s, size_t n,
                         const struct log_record *r, int directive);

/* What a delivery needs: the callback, the values' decoding state. */
struct log_record_sink {
    log_record_fn fn;
    void *ctx;
    struct log_values *values;
};

/* Calls the callback with b's records, 256 at a time; they are lines
 * first_line.. of input number input. Returns 0, or the callback's non-zero
 * status (nothing more is delivered). */
int log_records_deliver(struct log_record_batch *b, const struct log_record_sink *k, uint64_t input,
                        uint64_t first_line);

#endif
