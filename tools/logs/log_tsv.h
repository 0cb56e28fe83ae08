/* log_tsv.h - a record as a TSV or CSV row of the fields --fields names:
 * decoded, one row per line, a line that does not parse as a row that
 * says so. */
#ifndef PCT_TOOLS_LOG_TSV_H
#define PCT_TOOLS_LOG_TSV_H

#include <stddef.h>

#include "log_decode.h"
#include "log_record.h"

/* --fields: a comma-separated list checked and kept (NULL: the default).
 * Returns NULL or what is wrong. Called once, before the threads start. */
const char *table_fields_set(const char *list);
/* The header row (with its newline) into out; returns its length. */
size_t table_header(char *out, size_t cap, int csv);

/* The row of r (no newline). */
void table_record(struct worker *w, const char *s, size_t n, const struct log_record *r);
/* The row of a line that does not parse, or of a W3C directive:
 * "unparsed" or "directive", the line; the other fields missing. */
void table_unparsed(struct worker *w, const char *s, size_t n, int directive);

#endif
