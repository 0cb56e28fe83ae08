/* log_format_registry.h - every log format `pct logs` knows, one row each:
 * its name and aliases, a one-line description, how auto detection finds
 * it, its parser (a template or a parser of its own), the escaping
 * convention of its text, and its fields. Every list of formats is made
 * from this table: --list-formats, --help, the --stats counts, and through
 * --list-formats the bash completion, the Python package and the tests that
 * check the man page. Adding a format is an id below (before LF_CUSTOM) and
 * its row in log_format_registry.c (a template, usually); a format no
 * template can describe adds its parser, fmt_NAME.c, and a LOG_PARSER_. */
#ifndef PCT_TOOLS_LOG_FORMAT_REGISTRY_H
#define PCT_TOOLS_LOG_FORMAT_REGISTRY_H

#include <stdio.h>

/* The formats, in table order. The first three have fast paths of their
 * own (fmt_access.c, fmt_w3c.c); every later one is parsed into a record
 * (log_format_via_record). */
enum log_format_id {
    LF_AUTO = -2,  /* not a format: found per input (W3C by its '#') and per line */
    LF_FIELD = -1, /* not a format: --field N, whitespace-separated fields */
    LF_COMBINED,
    LF_COMMON,
    LF_W3C,
    LF_CLOUDFRONT,
    LF_VHOST_COMBINED,
    LF_XFF_COMBINED,
    LF_ENVOY,
    LF_HAPROXY,
    LF_HAPROXY_CLF,
    LF_HAPROXY_TCP,
    LF_HAPROXY_HTTPS,
    LF_ALB,
    LF_ELB,
    LF_SQUID,
    LF_SQUID_COMBINED,
    LF_TRAEFIK,
    LF_JSON,
    LF_CUSTOM, /* --log-format */
    LF_COUNT
};

/* Which code reads a line of the format. */
enum log_parser {
    LOG_PARSER_ACCESS,   /* combined/common: fmt_access.c, and the row's template for records */
    LOG_PARSER_W3C,      /* fmt_w3c.c: columns named by '#Fields:' headers */
    LOG_PARSER_TEMPLATE, /* fmt_template.c: the row's template */
    LOG_PARSER_HAPROXY,  /* fmt_haproxy.c: the row's template is a HAProxy log-format string */
    LOG_PARSER_JSON,     /* fmt_json.c: one JSON object per line */
    LOG_PARSER_CUSTOM    /* fmt_template.c: the --log-format template */
};

/* How auto detection (--format auto) finds the format. */
enum log_detect {
    LOG_DETECT_NAMED,   /* never: only when named (--log-format) */
    LOG_DETECT_HEADER,  /* an input whose first byte is '#' (a W3C directive) */
    LOG_DETECT_LINE,    /* each line, by rank; the next line tries it first */
    LOG_DETECT_LINE_NEW /* each line, by rank, never tried first: it takes lines
                           of a format ranked before it (common takes combined's) */
};

/* The escaping convention of the log's own text: which escapes a field
 * holds before any URL decoding, undone once (log_unescape.h says which
 * fields, and why each server's is what it is). */
enum log_escaping {
    LOG_ESC_NONE,      /* none (Squid, nginx escape=none) */
    LOG_ESC_BACKSLASH, /* Apache, lighttpd, Varnish: \" \\ \xhh \t \n \r \b \v \f;
                          nginx's default output is a subset of it */
    LOG_ESC_PERCENT,   /* every field percent-encoded once more (CloudFront) */
    LOG_ESC_JSON,      /* JSON string escapes: \" \\ \/ \b \f \n \r \t \uXXXX */
    LOG_ESC_NGINX,     /* nginx escape=default: \xHH (and \" \\) */
    LOG_ESC_HAPROXY,   /* HAProxy: #XX in the request line and captured headers */
    LOG_ESC_W3C        /* IIS: '+' for a space in text fields (not in URLs) */
};

struct log_format_def {
    const char *name;
    const char *aliases;     /* other names --format takes, comma-separated; NULL: none */
    const char *description; /* one line */
    enum log_parser parser;
    enum log_detect detect;
    unsigned char rank;   /* LOG_DETECT_LINE*: the order lines are tried in (1 first) */
    unsigned char syslog; /* a line may start with a syslog prefix */
    enum log_escaping escaping;
    const char *template_text; /* nginx syntax, ${name:k} giving a kind; NULL: no template */
    const char *fields;        /* the fields when there is no template */
};

/* The row of format id (0 <= id < LF_COUNT), or NULL. */
const struct log_format_def *log_format_def(int id);

/* The name of format id; "unparsed" for any other id. */
const char *log_format_name(int id);

/* The id of a format name or alias that --format takes, or -1. */
int log_format_by_name(const char *name);

/* 1 when the lines of format id are parsed into a record only: no fast
 * path of its own (combined, common and W3C have one). */
static inline int log_format_via_record(int id)
{
    return id > LF_W3C;
}

/* --list-formats: one format a line, "NAME<TAB>ALIASES<TAB>DESCRIPTION",
 * aliases comma-separated (empty when none). The formats --format takes. */
void log_formats_list(FILE *out);

/* --help's list of the formats --format takes, indented by indent spaces. */
void log_formats_help(FILE *out, int indent);

#endif
