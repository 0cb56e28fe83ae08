/* log_field_text.h - a record field's text on its way out: its format's
 * log escapes undone (log_unescape.h), CloudFront's own encoding layer
 * decoded, then percent-decoded (or only UTF-8-repaired) into bytes that
 * the writers escape for their output. Spans returned live in the worker's
 * fmt_buf until the next call that writes the same buffer. */
#ifndef PCT_TOOLS_LOG_FIELD_TEXT_H
#define PCT_TOOLS_LOG_FIELD_TEXT_H

#include <stddef.h>

#include "fmt_access.h"
#include "log_decode.h"
#include "log_record.h"

/* A field's text as the program that wrote it meant it: log escapes undone,
 * CloudFront's layer decoded (in fmt_buf[0] and [1]). */
struct span field_text(struct worker *w, const struct log_field *f, struct span t);

/* Decodes t (escapes of bytes in keep stay; keep_all: only UTF-8 repaired)
 * into bytes ready for escaping (in fmt_buf[2], or t itself). */
struct span decode_bytes(struct worker *w, struct span t, const pct_set *keep, unsigned flags);

/* The keep set of a path: '/' unless --decode-slash. */
const pct_set *path_keep(const struct worker *w);
/* The flags of a query: '+' is a space unless --query plain. */
unsigned query_flags(const struct worker *w);

/* How field f serves as its record's request: REQUEST_LINE a request line
 * (its parts in *q), 3 a URL (a target in one of HTTP's forms), 2 a request
 * field that is not a request line or a URL field that is not a target
 * (its text is kept, as "request" or under its name, with no path), 1 a
 * URL field of "-" or nothing, 0 not a request field (or unnamed). The highest
 * wins, the first of equals (so a request line ends the search): one rule
 * for every writer and the records (an nginx format with both $request and
 * $request_uri takes the request line, which has method and protocol). */
enum {
    REQUEST_LINE = 4
};
static inline int request_rank(const struct log_field *f, struct request_parts *q)
{
    if (f->name.n == 0)
        return 0;
    if (f->kind == K_REQUEST)
        return request_split_esc(f->v, f->esc, q) ? REQUEST_LINE : 2;
    if (f->kind == K_URL)
        return f->v.n == 0 || field_dash(f, f->v) ? 1 : request_target_form(f->v, f->esc) ? 3 : 2;
    return 0;
}

/* The scheme and authority of an absolute URL ("http://host:80"), 0 for a
 * target that starts with its path. */
size_t origin_length(struct span u);

#endif
