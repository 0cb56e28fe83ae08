/* log_writer.h - the output modes of `pct logs`: one writer per mode (one
 * file each: log_write_line.c, log_write_json.c, log_write_tsv.c,
 * log_write_csv.c), chosen once per run (log_writer_for) and kept in the
 * read-only context. Every line ends in exactly one writer call: the fast
 * paths (combined/common, W3C, --field) and the record path alike, and a
 * line that does not parse or is longer than --max-line too. The safety
 * rules the writers share are in log_safe.h.
 *
 * Adding an output mode: a log_write_NAME.c defining a struct log_writer,
 * and its row in log_writers.c. */
#ifndef PCT_TOOLS_LOG_WRITER_H
#define PCT_TOOLS_LOG_WRITER_H

#include <stddef.h>

#include "log_decode.h"
#include "log_formats.h"
#include "log_record.h"

struct table_style;

struct log_writer {
    const char *name;                /* as --NAME selects it */
    const struct table_style *table; /* a table writer's (log_tsv.h), else NULL */
    /* Output room reserved before each line of n bytes: room_per_byte * n
     * + 512 (the writer's worst case, or what it writes before it
     * reserves more itself). */
    size_t room_per_byte;
    /* 1: a line keeps the ending it was read with (CRLF); 0: every row
     * ends in "\n". Either way a CR before the LF is part of the ending,
     * never of the text. */
    int keeps_line_ending;
    /* 1: --raw applies (text that is not decoded written as it is). */
    int honours_raw;
    /* 1: combined/common lines are parsed to the agent's exact end. */
    int exact_fields;
    /* 1: process_chunk notes plain lines in w->json_plain (ASCII, no
     * control byte, DEL or '\\': nothing in them to unescape, repair or
     * escape), 0: control-free ones in w->line_clean (line output). */
    int wants_plain;

    /* A combined or common line as the fast path parsed it (fmt: LF_AUTO,
     * LF_COMBINED or LF_COMMON). Counts its format. */
    void (*access)(struct worker *w, const char *s, size_t n, const struct access *a,
                   enum log_format_id fmt);
    /* A W3C line split into the columns of layout l. */
    void (*w3c)(struct worker *w, const char *s, size_t n, const struct span *f, int count,
                const struct w3c_layout *l);
    /* --field N: u is the URL field of line s. */
    void (*field)(struct worker *w, const char *s, size_t n, struct span u);
    /* A line parsed as a record (any format). */
    void (*record)(struct worker *w, const char *s, size_t n, const struct log_record *r);
    /* A line that does not parse (directive 0; the caller counts it as
     * unparsed), or a W3C directive (1). */
    void (*unparsed)(struct worker *w, const char *s, size_t n, int directive);
    /* A line longer than --max-line: not decoded, written as its pieces
     * come (each piece ends on a whole UTF-8 sequence), between long_start
     * and long_end. The same whether the line was held whole or streamed. */
    void (*long_start)(struct worker *w);
    void (*long_piece)(struct worker *w, const char *p, size_t n);
    void (*long_end)(struct worker *w);
    /* The --header row with its newline into out; its length. NULL: none. */
    size_t (*header)(const struct log_ctx *ctx, char *out, size_t cap);
};

extern const struct log_writer log_write_line, log_write_json, log_write_tsv, log_write_csv,
    log_write_cells;

/* The writer that cfg's options select (log_writers.c). */
const struct log_writer *log_writer_for(const struct log_config *cfg);

/* Room for a piece of a long line of n bytes: the most a writer's
 * long_piece writes. */
#define LOG_LONG_PIECE_ROOM(n) (6 * (n) + 64)

#endif
