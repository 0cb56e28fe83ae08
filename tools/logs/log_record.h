/* log_record.h - a parsed log line of any format as a generic record: named
 * fields, each a span of the line with a kind that says how it is decoded
 * and written. Formats fill records (fmt_*.c); writers read them
 * (log_record_out.c), so a new format is a parser and nothing else. */
#ifndef PCT_TOOLS_LOG_RECORD_H
#define PCT_TOOLS_LOG_RECORD_H

#include <stddef.h>
#include <string.h>

#include "log_format_registry.h"
#include "log_util.h"

/* What a field holds: how it is decoded and written. */
enum field_kind {
    K_TEXT,    /* a string, not decoded in line output */
    K_NUMBER,  /* a JSON number when it is one */
    K_TIME,    /* a time as written; JSON adds NAME_iso (ISO 8601) */
    K_REQUEST, /* "METHOD target PROTOCOL": method, path, query, protocol */
    K_URL,     /* a request target or absolute URL: path and query decoded */
    K_PATH,    /* a path alone (W3C cs-uri-stem) */
    K_QUERY,   /* a query alone (W3C cs-uri-query) */
    K_REFERER, /* a URL decoded only with --referer */
    K_LIST,    /* text that may hold spaces (an X-Forwarded-For list) */
    K_LITERAL  /* a JSON line's number, true or false: as written in JSON, else text */
};

/* How the field is written in the line: what must be escaped when decoded
 * text is put back, and which log-level escapes its text holds. */
enum field_quote {
    FQ_BARE,   /* ended by a space: a decoded space is escaped */
    FQ_QUOTED, /* inside "..." (its escapes: the format's, log_unescape.h) */
    FQ_TAB,    /* tab-separated (CloudFront): a decoded tab is escaped */
    FQ_JSON    /* a JSON string's contents: JSON escapes */
};

struct log_field {
    struct span name; /* empty: an unnamed trailing field ("extra") */
    struct span v;    /* the text as written in the line */
    unsigned char kind, quote;
    unsigned char layers; /* extra percent-encoding layers (CloudFront: 1) */
    unsigned char esc;    /* enum log_escaping of its text, set for the record's
                             format before a writer sees it (log_unescape.h) */
};

/* Fields of a record: a W3C line's columns fit (fmt_w3c.h); a line of
 * more fields (trailing ones, JSON members) does not parse. */
#define LOG_RECORD_MAX 254

struct log_record {
    int format; /* enum log_format_id */
    int n;
    struct log_field f[LOG_RECORD_MAX];
    size_t names_len;
    char names[4096]; /* names built while parsing (JSON keys "a.b") */
    /* The server cut the line (log_cut.h): the fields are what is there,
     * the last one possibly partial, the ones after it absent. */
    unsigned char truncated;
};

/* Adds a field named by a C string; 0 when the record is full. Inline, so
 * that the length of a literal name is a constant: every line adds ~10. */
static inline int record_add(struct log_record *r, const char *name, struct span v, int kind,
                             int quote)
{
    if (r->n == LOG_RECORD_MAX)
        return 0;
    struct log_field *f = &r->f[r->n++];
    f->name = span_of(name, name + strlen(name));
    f->v = v;
    f->kind = (unsigned char)kind;
    f->quote = (unsigned char)quote;
    f->layers = 0;
    f->esc = 0;
    return 1;
}
/* 1 if t (f's text, or a part of it) is a log's "-": no value. In a JSON
 * string (a JSON line's, or a JSON-shaped format's: nginx escape=json) "-"
 * is data; a JSON line's null is a "-" that is not a string. */
static inline int field_dash(const struct log_field *f, struct span t)
{
    return t.n == 1 && t.p[0] == '-' && f->quote != FQ_JSON && f->esc != LOG_ESC_JSON;
}

/* The first field named name, or NULL. */
const struct log_field *record_find(const struct log_record *r, const char *name);

#endif
