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

#define TABLE_MAX_FIELDS 64

/* The --fields columns, read-only once the threads start (a session's:
 * log_ctx.table). */
struct log_table {
    char list[1024];
    const char *names[TABLE_MAX_FIELDS];
    struct span spans[TABLE_MAX_FIELDS]; /* the same, with their lengths */
    int count;
    unsigned char columns[TABLE_MAX_FIELDS]; /* enum column of log_tsv.c */
    /* Column i's field in a combined (common) line's record from the fast
     * path (record_access_names): its index, or -1. */
    signed char access_index[TABLE_MAX_FIELDS];
    /* The bytes a TSV (CSV) value may need escaped: controls, '\\', DEL, a
     * C1 lead (and '"', ','). */
    struct log_scan scan[2];
    /* The same and every byte >= 0x80 (which UTF-8 repair may change): a
     * value with none of them is written as it is. */
    struct log_scan scan_ascii[2];
};

/* --fields: a comma-separated list checked and kept in tab (NULL: the
 * default). Returns NULL or what is wrong. */
const char *table_fields_set(struct log_table *tab, const char *list);
/* The header row (with its newline) into out; returns its length. */
size_t table_header(const struct log_table *tab, const struct table_style *st, int csv_safe,
                    char *out, size_t cap);

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
