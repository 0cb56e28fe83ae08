/* log_tsv.h - a record as a TSV or CSV row of the fields --fields names:
 * decoded, one row per line, a line that does not parse as a row that
 * says so. */
#ifndef PCT_TOOLS_LOG_TSV_H
#define PCT_TOOLS_LOG_TSV_H

#include <stddef.h>

#include "log_decode.h"
#include "log_record.h"

/* What makes a TSV row differ from a CSV row. */
struct table_style {
    char sep;         /* between cells */
    const char *null; /* a missing field, or '-' */
    size_t null_len;
    int quoting;       /* CSV: a cell holding the separator, '"' or an edge space is quoted */
    int formula_guard; /* --csv-safe applies: "'" before a cell starting = + - @ tab CR */
};

/* --fields: a comma-separated list checked and kept (NULL: the default).
 * Returns NULL or what is wrong. Called once, before the threads start. */
const char *table_fields_set(const char *list);
/* The header row (with its newline) into out; returns its length. */
size_t table_header(const struct table_style *st, int csv_safe, char *out, size_t cap);

/* The row of r (no newline). */
void table_record(struct worker *w, const struct table_style *st, const char *s, size_t n,
                  const struct log_record *r);
/* The row of a line that does not parse, or of a W3C directive:
 * "unparsed" or "directive", the line; the other fields missing. */
void table_unparsed(struct worker *w, const struct table_style *st, const char *s, size_t n,
                    int directive);
/* A line longer than --max-line, as table_unparsed writes a line, in
 * pieces (log_writer.h); in CSV its line cell is always quoted. */
void table_long_start(struct worker *w, const struct table_style *st);
void table_long_piece(struct worker *w, const struct table_style *st, const char *p, size_t n);
void table_long_end(struct worker *w, const struct table_style *st);

#endif
