/* fmt_template.h - formats written as templates: literal text between
 * named fields. nginx `log_format` strings ($var, ${var}) and Apache
 * `LogFormat` strings (%h, %>s, %{Header}i ...) compile to one; the
 * built-in formats are templates too. A line matches when every literal is
 * found in order and every field holds what its kind allows. */
#ifndef PCT_TOOLS_FMT_TEMPLATE_H
#define PCT_TOOLS_FMT_TEMPLATE_H

#include <stddef.h>

#include "log_record.h"

#define TEMPLATE_MAX_ITEMS 64

struct template_item {
    char lit[96];        /* literal text before the field (NUL-terminated) */
    char name[40];       /* the field's name; empty after the last field */
    unsigned char kind;  /* enum field_kind */
    unsigned char quote; /* enum field_quote: inside "..." or not */
    unsigned char layers;
    unsigned char may_be_empty;
    unsigned char hap;           /* enum template_haproxy: how a HAProxy field is read */
    unsigned char lit_n, name_n; /* their lengths */
};

/* How a field of a HAProxy log-format is read (fmt_haproxy.c): bits. */
enum template_haproxy {
    HAP_PLAIN_QUOTE = 1, /* a quoted field ends at the first '"' (a '"' of its text is #22) */
    HAP_OPTIONAL = 2,    /* written only when headers are captured: may be absent, with the
                            separator before it (%hr, %hs, %hrl, %hsl) */
    HAP_BLOCK = 4,       /* "{v1|v2}": one field per value, NAME_1, NAME_2... (%hr, %hs) */
    HAP_LIST = 8,        /* "v1" "v2"...: one field per quoted value (%hrl, %hsl) */
    HAP_ADDRESS = 16,    /* an address (%ci): its characters only, and it ends at the last
                            match of the text after it (%ci:%cp, IPv6) */
    HAP_PLUS = 32,       /* a number that may start with '+' (option logasap) */
    HAP_QMARK = 64       /* a query written with its '?' (%HQ) */
};

struct log_template {
    int count;   /* items; the last one may be a literal alone */
    int syslog;  /* a syslog prefix ("... prog[pid]: ") may come first */
    int haproxy; /* compiled from a HAProxy log-format: matched by fmt_haproxy.c */
    int exact;   /* nothing after the last field: no trailing fields */
    int can_cut; /* HAProxy: a cut line (template_match_cut) may end inside item cut_from
                    or a later one (HAProxy cuts at its length limit, 1024 bytes by
                    default) */
    int cut_from;
    /* varnishncsa (`varnishncsa -F`): its URLs are cut at this many bytes
       (LOG_VARNISH_URL_CUT), and a URL field (%U%q) that long was cut; 0
       for other servers, which do not cut URLs */
    int url_cut;
    struct template_item item[TEMPLATE_MAX_ITEMS];
    /* enum log_escaping of its lines: its server's (log_unescape.h) */
    unsigned char escaping;
};

enum template_syntax {
    SYNTAX_NGINX,
    SYNTAX_APACHE,
    SYNTAX_HAPROXY
};

/* Compiles text; returns NULL and sets *error (a static message) when it
 * cannot, e.g. two fields with no text between them. */
const char *template_compile(struct log_template *t, const char *text, enum template_syntax syntax);

/* nginx when the string holds '$' and no '%' directive; HAProxy when it
 * holds a variable only HAProxy has (%ci, %ft, %ST, %{+Q}, %[...]); else
 * Apache. */
enum template_syntax template_guess_syntax(const char *text);

/* Fills r from line s (n bytes) if it matches; 1 if it does. Text after the
 * template (space-separated) becomes trailing fields: key=value ones named
 * by their key, others unnamed. */
int template_match(const struct log_template *t, const char *s, size_t n, struct log_record *r);

/* For a compiler of another syntax (fmt_haproxy.c): c added to the literal
 * before the next field; a field ended (its name n bytes); the item being
 * built. NULL or an error message. */
const char *template_add_literal(struct log_template *t, char c);
const char *template_add_field(struct log_template *t, const char *name, size_t n, int kind);

/* For a matcher of another syntax: 1 if v is a value item it allows (a
 * number for K_NUMBER...). */
int template_field_fits(const struct template_item *it, struct span v);

/* template_match for a line the server may have cut (log_cut.h): with
 * TEMPLATE_CUT_QUOTED a line that ends inside a quoted field (no closing
 * quote) after at least one whole field matches, that field holding what
 * is there; with TEMPLATE_CUT_ANYWHERE (the line is known to be cut) a bare
 * field may be the one cut too. The fields after the cut are absent and
 * r->truncated is set. TEMPLATE_WHOLE: template_match. */
enum {
    TEMPLATE_WHOLE,
    TEMPLATE_CUT_QUOTED,
    TEMPLATE_CUT_ANYWHERE
};
int template_match_cut(const struct log_template *t, const char *s, size_t n, struct log_record *r,
                       int cut);

/* The fields of [p, e) after a format's own (see template_match); 0 when
 * the record is full. */
int template_add_trailing(struct log_record *r, const char *p, const char *e);

#endif
