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
};

struct log_template {
    int count;  /* items; the last one may be a literal alone */
    int syslog; /* a syslog prefix ("... prog[pid]: ") may come first */
    struct template_item item[TEMPLATE_MAX_ITEMS];
    /* enum log_escaping of its lines: its server's (log_unescape.h) */
    unsigned char escaping;
};

enum template_syntax {
    SYNTAX_NGINX,
    SYNTAX_APACHE
};

/* Compiles text; returns NULL and sets *error (a static message) when it
 * cannot, e.g. two fields with no text between them. */
const char *template_compile(struct log_template *t, const char *text, enum template_syntax syntax);

/* nginx when the string holds '$' and no '%' directive, else Apache. */
enum template_syntax template_guess_syntax(const char *text);

/* Fills r from line s (n bytes) if it matches; 1 if it does. Text after the
 * template (space-separated) becomes trailing fields: key=value ones named
 * by their key, others unnamed. */
int template_match(const struct log_template *t, const char *s, size_t n, struct log_record *r);

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
