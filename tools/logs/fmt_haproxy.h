/* fmt_haproxy.h - HAProxy's logs: its log-format strings ("%ci:%cp [%tr]
 * %ft %b/%s ... %{+Q}r", as HAProxy 2.6 documents them) compiled into
 * templates, so that the built-in formats (option httplog, httplog clf,
 * tcplog, httpslog) and a configuration's own log-format read the same way;
 * its lines matched as HAProxy writes them; and the syslog headers they may
 * come with that are not "... prog[pid]: " (RFC 5424, a PRI alone). */
#ifndef PCT_TOOLS_FMT_HAPROXY_H
#define PCT_TOOLS_FMT_HAPROXY_H

#include <stddef.h>

#include "fmt_template.h"

/* 1 when text reads as a HAProxy log-format string: it holds a variable
 * that only HAProxy has (%ci, %ft, %ST, %tr, %hr...), a %{+Q}-style option
 * or a %[sample] expression. */
int haproxy_is_format(const char *text);

/* Compiles a HAProxy log-format string into t (emptied by the caller).
 * Returns NULL or a static message. */
const char *haproxy_compile(struct log_template *t, const char *text);

/* A line from p to e (its syslog prefix, if any, before p) matched
 * against t (haproxy_compile): as template_match_cut, into r. */
int haproxy_match(const struct log_template *t, const char *p, const char *e, struct log_record *r,
                  int cut);

/* The length of a syslog PRI at s ("<134>"), 0 if s does not start with
 * one. */
size_t syslog_pri_length(const char *s, const char *e);

/* The length of an RFC 5424 header at s ("<134>1 2026-11-27T12:28:20Z host
 * app 123 - - ", the spaces after it included), 0 if s does not start with
 * one. *prefix_n: its length without them. */
size_t syslog_5424_header(const char *s, const char *e, size_t *prefix_n);

#endif
