/* log_time.h - access log times as ISO 8601, for JSON output. */
#ifndef PCT_TOOLS_LOG_TIME_H
#define PCT_TOOLS_LOG_TIME_H

#include <stddef.h>
#include <stdint.h>

#include "log_util.h"

#define LOG_ISO_MAX 48

/* Writes t as ISO 8601 at out (room for LOG_ISO_MAX bytes) and returns its
 * length, or 0 when t is none of: 10/Oct/2000:13:55:36 -0700 (Apache,
 * nginx; HAProxy's has milliseconds and no zone), ISO 8601 already, a
 * Unix time with decimals (Squid, nginx $msec). date: a W3C date that goes
 * with a time of day t (UTC), or an empty span. */
size_t log_time_iso(struct span date, struct span t, char *out);

/* The last Apache/nginx time converted, for log_time_iso_memo (zeroed:
 * none yet). */
struct log_time_memo {
    char clf[26];
    char iso[25];
    int set;
};

/* log_time_iso, faster on a log's lines: most share their date and zone
 * with the line before, and then only the time of day is checked. */
size_t log_time_iso_memo(struct log_time_memo *m, struct span date, struct span t, char *out);

/* The last ISO 8601 text log_iso_ns_memo converted (zeroed: none yet). */
struct log_iso_memo {
    char text[LOG_ISO_MAX];
    size_t n;         /* 0: none */
    int64_t day_secs; /* its seconds since the epoch less its time of day */
    int64_t frac;     /* its nanoseconds */
};

/* log_value_iso_ns (log_session.h), faster on a log's lines: when the date,
 * fraction and zone are those of the text before, only the time of day is
 * read. */
int log_iso_ns_memo(struct log_iso_memo *m, const char *t, size_t n, int64_t *ns);

#endif
