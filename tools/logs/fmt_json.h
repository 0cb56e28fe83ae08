/* fmt_json.h - JSON-lines access logs (Caddy, Traefik, nginx with
 * escape=json): each member a field named by its key path ("request.uri"),
 * the URL at a key the user names or at one of the usual keys. */
#ifndef PCT_TOOLS_FMT_JSON_H
#define PCT_TOOLS_FMT_JSON_H

#include <stddef.h>

#include "log_record.h"

/* Fills r from a JSON object on one line; 1 if it is one and holds the URL
 * (at key, a dotted path; NULL: the usual keys). */
int json_line_parse(const char *s, size_t n, struct log_record *r, const char *key);

/* The field of a JSON line that holds what the other formats call name
 * (remote, time, method, status, bytes, referer, agent), or NULL. */
const struct log_field *json_line_field(const struct log_record *r, const char *name);

#endif
