/* log_record_out.h - writing a parsed record: the line with its URLs
 * decoded in place, a JSON object with every field, or a TSV/CSV row of
 * chosen fields. The formats other than the combined/common fast path,
 * and every format in TSV/CSV, go through here. */
#ifndef PCT_TOOLS_LOG_RECORD_OUT_H
#define PCT_TOOLS_LOG_RECORD_OUT_H

#include <stddef.h>

#include "log_decode.h"
#include "log_formats.h"
#include "log_record.h"

/* Parses line s (LF_AUTO: finds its format) and writes it; 1 if done, 0
 * if it does not parse and nothing was written. */
int record_process(struct worker *w, const char *s, size_t n, enum log_format_id fmt);

/* A W3C line split into fields, as a record (CloudFront: both encoding
 * layers decoded; TSV/CSV). */
void record_process_w3c(struct worker *w, const char *s, size_t n, const struct span *f, int count,
                        const struct w3c_layout *l);

/* 1 when a combined line has fields after its user agent (JSON: written
 * with them, through the record). */
int access_has_trailing(const char *s, size_t n, struct span agent);

#endif
