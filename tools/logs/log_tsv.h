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
    int cells;         /* the values as cells (log_cells.h), not text: no escaping */
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

struct access;
struct w3c_layout;

/* A table writer's entries (struct log_writer): the above with the
 * writer's style. */
void table_writer_access(struct worker *w, const char *s, size_t n, const struct access *a,
                         enum log_format_id fmt);
void table_writer_w3c(struct worker *w, const char *s, size_t n, const struct span *f, int count,
                      const struct w3c_layout *l);
void table_writer_field(struct worker *w, const char *s, size_t n, struct span u);
void table_writer_record(struct worker *w, const char *s, size_t n, const struct log_record *r);
void table_writer_unparsed(struct worker *w, const char *s, size_t n, int directive);
void table_writer_long_start(struct worker *w);
void table_writer_long_piece(struct worker *w, const char *p, size_t n);
void table_writer_long_end(struct worker *w);
size_t table_writer_header(const struct log_ctx *ctx, char *out, size_t cap);

/* A table writer's fields but its name, style and header: each cell
 * reserves its own room (memory follows the row, not the line); plain
 * lines have their fields copied, not scanned. */
#define TABLE_WRITER_ENTRIES                                                                       \
    .room_per_byte = 0, .keeps_line_ending = 0, .honours_raw = 0, .exact_fields = 1,               \
    .wants_plain = 1, .access = table_writer_access, .w3c = table_writer_w3c,                      \
    .field = table_writer_field, .record = table_writer_record, .unparsed = table_writer_unparsed, \
    .long_start = table_writer_long_start, .long_piece = table_writer_long_piece,                  \
    .long_end = table_writer_long_end

#endif
