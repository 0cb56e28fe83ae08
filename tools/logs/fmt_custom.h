/* fmt_custom.h - the --log-format string as a server's configuration
 * writes it, compiled: an nginx log_format string or whole directive
 * ("log_format main escape=json '{...}' '...';"), an Apache LogFormat
 * string or directive ("LogFormat \"%h ...\" combined"), or a HAProxy
 * log-format string or directive ("log-format \"%ci:%cp [%tr] ...\"",
 * fmt_haproxy.c). The template inherits its server's escaping convention:
 * nginx's escape= parameter (default \xHH, json, none), Apache's backslash
 * escapes, HAProxy's #XX. */
#ifndef PCT_TOOLS_FMT_CUSTOM_H
#define PCT_TOOLS_FMT_CUSTOM_H

#include "fmt_template.h"

/* Compiles text into t and sets t->escaping; returns NULL, or a static
 * message saying why the string does not compile. */
const char *custom_format_compile(struct log_template *t, const char *text);

#endif
