/* log_formats.h - the formats `pct logs` knows by name, and finding the
 * format of a line that the combined/common fast path does not take. */
#ifndef PCT_TOOLS_LOG_FORMATS_H
#define PCT_TOOLS_LOG_FORMATS_H

#include <stddef.h>

#include "log_options.h"
#include "log_record.h"

enum log_format_id {
    LF_COMBINED,
    LF_COMMON,
    LF_W3C,
    LF_CLOUDFRONT,
    LF_VHOST_COMBINED,
    LF_XFF_COMBINED,
    LF_ENVOY,
    LF_HAPROXY,
    LF_ALB,
    LF_ELB,
    LF_SQUID,
    LF_TRAEFIK,
    LF_JSON,
    LF_CUSTOM, /* --log-format */
    LF_COUNT
};

/* Compiles the built-in templates and, when given, the --log-format string
 * (NULL: none). Returns NULL or a message saying what is wrong with it.
 * Called once, before any thread starts. */
const char *log_formats_init(const char *custom);

const char *log_format_name(int id);
/* The id of a format name (aliases too), or -1. */
int log_format_by_name(const char *name);

/* Parses line s as format id into r; 1 if it is one. */
int record_parse(int id, const char *s, size_t n, struct log_record *r,
                 const struct log_config *cfg);

/* Finds the format of a line (not W3C: that needs its header), trying the
 * one that matched last first; 1 if one matches. */
int record_detect(const char *s, size_t n, struct log_record *r, const struct log_config *cfg);

/* A W3C field name (c-ip, cs-uri-stem, x-edge-location...) as a record
 * field: its name and kind. */
const char *w3c_field_name(const char *w3c, int *kind);

#endif
