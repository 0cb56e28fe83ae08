/* log_formats.h - the formats `pct logs` knows by name, and finding the
 * format of a line that the combined/common fast path does not take. */
#ifndef PCT_TOOLS_LOG_FORMATS_H
#define PCT_TOOLS_LOG_FORMATS_H

#include <stddef.h>

#include "log_options.h"
#include "fmt_template.h"
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

/* The compiled templates of a session (log_ctx.templates): read-only once
 * the threads start. */
struct log_templates {
    struct log_template t[LF_COUNT];
    int have_custom;
};

/* Compiles the built-in templates and, when given, the --log-format string
 * (NULL: none; it must outlive ft) into ft. Returns NULL or a message
 * saying what is wrong with it. */
const char *log_formats_init(struct log_templates *ft, const char *custom);

const char *log_format_name(int id);
/* The id of a format name (aliases too), or -1. */
int log_format_by_name(const char *name);

/* Parses line s as format id into r; 1 if it is one. */
int record_parse(const struct log_templates *ft, int id, const char *s, size_t n,
                 struct log_record *r, const struct log_config *cfg);

/* Finds the format of a line (not W3C: that needs its header), trying the
 * one that matched last first (*last_plus1: its id + 1, 0: none; a
 * worker's); 1 if one matches. */
int record_detect(const struct log_templates *ft, int *last_plus1, const char *s, size_t n,
                  struct log_record *r, const struct log_config *cfg);

/* A W3C field name (c-ip, cs-uri-stem, x-edge-location...) as a record
 * field: its name and kind. */
const char *w3c_field_name(const char *w3c, int *kind);

#endif
