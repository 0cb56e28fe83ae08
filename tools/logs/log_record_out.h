/* log_record_out.h - a line parsed into a record and handed to the run's
 * writer (log_writer.h): the formats other than the combined/common and
 * W3C fast paths, and every format in TSV/CSV, go through here. */
#ifndef PCT_TOOLS_LOG_RECORD_OUT_H
#define PCT_TOOLS_LOG_RECORD_OUT_H

#include <stddef.h>

#include "fmt_access.h"
#include "log_decode.h"
#include "log_formats.h"
#include "log_record.h"

/* Parses line s (LF_AUTO: finds its format) and writes it; 1 if done, 0
 * if it does not parse and nothing was written. */
int record_process(struct worker *w, const char *s, size_t n, enum log_format_id fmt);

/* A line that does not parse as a record the server cut (log_cut.h), of
 * format fmt (LF_AUTO: any): cut is TEMPLATE_CUT_QUOTED or
 * TEMPLATE_CUT_ANYWHERE (the line is known to be cut). 1 if written. */
int record_process_cut(struct worker *w, const char *s, size_t n, enum log_format_id fmt, int cut);

/* The names of the fields of a combined line's record as
 * record_process_access makes it, in order (common: the first 7), then its
 * trailing fields: a writer that sees w->access_record set may find its
 * columns by position. */
#define RECORD_ACCESS_FIELDS 9
extern const struct span record_access_names[RECORD_ACCESS_FIELDS];

/* A combined or common line the fast path parsed (a), as a record; else as
 * record_process. */
int record_process_access(struct worker *w, const char *s, size_t n, const struct access *a,
                          enum log_format_id fmt);

/* A W3C line split into fields, as a record (CloudFront: both encoding
 * layers decoded; TSV/CSV). */
void record_process_w3c(struct worker *w, const char *s, size_t n, const struct span *f, int count,
                        const struct w3c_layout *l);

/* 1 when a combined line (auto) may be HAProxy's option httplog clf: an
 * empty referer and agent ("" ""), the agent as parse_access found it
 * exactly or up to the line's last quote. Its own fields follow: the
 * haproxy_clf template says. */
static inline int access_may_be_haproxy_clf(const struct access *a)
{
    return a->has_ra && a->referer.n == 0 && (a->agent.n == 0 || a->agent.p[0] == '"');
}

/* 1 when a combined or common line (auto) may be Squid's combined: fields
 * follow its agent (a combined line does not end with its '"') or its bytes
 * (a raw '"' in the referer hid the agent), and the last is Squid's
 * %Ss:%Sh. Lines without trailing fields cost one test. */
static inline int access_may_be_squid(const char *s, size_t n, const struct access *a)
{
    return (a->has_ra ? s[n - 1] != '"' : a->bytes.p + a->bytes.n != s + n) &&
           line_ends_squid_tags(s, n);
}

/* 1 when a combined line has fields after its user agent (JSON: written
 * with them, through the record). */
int access_has_trailing(const char *s, size_t n, struct span agent);

#endif
