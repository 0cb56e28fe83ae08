/* fmt_custom.c - the --log-format string, as it is written in an nginx or
 * Apache configuration, compiled with its server's escaping convention
 * (see fmt_custom.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_custom.h"
#include "log_cut.h"
#include "log_format_registry.h"

/* The longest format string a directive unwraps to. */
#define CUSTOM_TEXT_MAX 16384

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* 1 if p starts with word and then a space (or the end). */
static int starts_word(const char *p, const char *word)
{
    size_t n = strlen(word);
    return strncmp(p, word, n) == 0 && (p[n] == '\0' || isspace((unsigned char)p[n]));
}

/* The end of the bare word at p. */
static const char *word_end(const char *p)
{
    while (*p != '\0' && !isspace((unsigned char)*p) && *p != ';')
        p++;
    return p;
}

/* nginx's configuration strings after "log_format NAME [escape=X]": quoted
 * ('...' or "...") or bare, one after the other up to ';', joined; inside,
 * \" \' \\ \t \r \n are what nginx's parser makes of them. */
static const char *nginx_strings(const char *p, char *out, size_t cap)
{
    size_t n = 0;
    for (p = skip_space(p); *p != '\0' && *p != ';'; p = skip_space(p)) {
        const char quote = *p == '"' || *p == '\'' ? *p : 0;
        p += quote != 0;
        while (*p != '\0' &&
               (quote != 0 ? *p != quote : !isspace((unsigned char)*p) && *p != ';')) {
            char c = *p++;
            if (c == '\\' && *p != '\0' && strchr("\"'\\trn", *p) != NULL) {
                c = *p == 't' ? '\t' : *p == 'r' ? '\r' : *p == 'n' ? '\n' : *p;
                p++;
            }
            if (n + 1 >= cap)
                return "the format is too long";
            out[n++] = c;
        }
        if (quote != 0 && *p++ != quote)
            return "a quoted string of the log_format directive has no closing quote";
    }
    if (*p == ';' && *skip_space(p + 1) != '\0')
        return "text after the log_format directive's ';'";
    out[n] = '\0';
    return n > 0 ? NULL : "the log_format directive has no format string";
}

/* The format string of "LogFormat \"...\" [nickname]" (its backslashes
 * kept: the Apache syntax reads \" \t \n as httpd does). */
static const char *apache_string(const char *p, char *out, size_t cap)
{
    p = skip_space(p);
    const char quote = *p == '"' || *p == '\'' ? *p : 0;
    if (quote == 0)
        return "LogFormat takes a quoted format string";
    const char *s = ++p;
    while (*p != '\0' && *p != quote)
        p += p[0] == '\\' && p[1] != '\0' ? 2 : 1;
    if (*p != quote)
        return "LogFormat's format string has no closing quote";
    if ((size_t)(p - s) + 1 > cap)
        return "the format is too long";
    memcpy(out, s, (size_t)(p - s));
    out[p - s] = '\0';
    p = skip_space(word_end(skip_space(p + 1))); /* a nickname */
    return *p == '\0' ? NULL : "text after LogFormat's format string and nickname";
}

/* The format string of HAProxy's "log-format \"...\"" (its backslashes
 * kept: the HAProxy syntax reads \" and "\ " as haproxy.cfg does), or of
 * "log-format %ci\ ..." unquoted. */
static const char *haproxy_string(const char *p, char *out, size_t cap)
{
    p = skip_space(p);
    const char *s = p + (*p == '"'), *q = s;
    while (*q != '\0' && (*p == '"' ? *q != '"' : !isspace((unsigned char)*q)))
        q += q[0] == '\\' && q[1] != '\0' ? 2 : 1;
    if (*p == '"' && *q != '"')
        return "log-format's format string has no closing quote";
    if ((size_t)(q - s) + 1 > cap)
        return "the format is too long";
    memcpy(out, s, (size_t)(q - s));
    out[q - s] = '\0';
    return *skip_space(q + (*p == '"')) == '\0' ? NULL : "text after log-format's format string";
}

/* The next shell word at *pp (POSIX sh quoting: '...' literal, "..." with
 * \" \\ \$ \` escapes, a bare backslash escapes the next byte) into out;
 * *pp moves past it. NULL, or an error. */
static const char *shell_word(const char **pp, char *out, size_t cap)
{
    const char *p = skip_space(*pp);
    size_t n = 0;
    char quote = 0;
    while (*p != '\0' && (quote != 0 || !isspace((unsigned char)*p))) {
        char c = *p++;
        if (quote == 0 && (c == '\'' || c == '"')) {
            quote = c;
            continue;
        }
        if (c == quote) {
            quote = 0;
            continue;
        }
        if (c == '\\' && *p != '\0' && quote != '\'' &&
            (quote == 0 || strchr("\"\\$`", *p) != NULL))
            c = *p++;
        if (n + 1 >= cap)
            return "the format is too long";
        out[n++] = c;
    }
    if (quote != 0)
        return "a quoted word of the varnishncsa command has no closing quote";
    out[n] = '\0';
    *pp = p;
    return NULL;
}

/* The format string of a varnishncsa command line ("varnishncsa -n DIR -F
 * '...'", as in a unit file): its -F argument, the last one if several (as
 * varnishncsa's getopt leaves it). */
static const char *varnishncsa_string(const char *p, char *out, size_t cap)
{
    char *word = malloc(cap);
    if (word == NULL)
        return "out of memory";
    const char *error = "the varnishncsa command has no -F format";
    while (*skip_space(p) != '\0') {
        const char *e = shell_word(&p, word, cap);
        if (e != NULL) {
            error = e;
            break;
        }
        if (strcmp(word, "-f") == 0) {
            error = "varnishncsa -f FILE: give the format itself with -F";
            break;
        }
        if (strncmp(word, "-F", 2) != 0)
            continue;
        if (word[2] != '\0') { /* -F'...': the format joined to the option */
            memmove(out, word + 2, strlen(word + 2) + 1);
        } else if ((e = shell_word(&p, out, cap)) != NULL) {
            error = e;
            break;
        }
        error = out[0] != '\0' ? NULL : "varnishncsa's -F format is empty";
    }
    free(word);
    return error;
}

/* 1 if text is '{' ... '}' (spaces around). */
static int json_shaped(const char *text)
{
    const char *p = skip_space(text), *e = p + strlen(p);
    while (e > p && isspace((unsigned char)e[-1]))
        e--;
    return e - p >= 2 && p[0] == '{' && e[-1] == '}';
}

static const char *compile(struct log_template *t, const char *text, char *unwrapped)
{
    const char *p = skip_space(text), *error;
    enum template_syntax syntax;
    enum log_escaping escaping;
    int url_cut = 0;
    if (starts_word(p, "varnishncsa")) {
        error = varnishncsa_string(p + strlen("varnishncsa"), unwrapped, CUSTOM_TEXT_MAX);
        if (error != NULL)
            return error;
        text = unwrapped;
        syntax = SYNTAX_APACHE; /* varnishncsa's format letters are Apache's */
        escaping = LOG_ESC_BACKSLASH;
        url_cut = LOG_VARNISH_URL_CUT;
    } else if (starts_word(p, "log-format")) {
        if ((error = haproxy_string(p + strlen("log-format"), unwrapped, CUSTOM_TEXT_MAX)) != NULL)
            return error;
        text = unwrapped;
        syntax = SYNTAX_HAPROXY;
        escaping = LOG_ESC_HAPROXY;
    } else if (starts_word(p, "LogFormat")) {
        if ((error = apache_string(p + strlen("LogFormat"), unwrapped, CUSTOM_TEXT_MAX)) != NULL)
            return error;
        text = unwrapped;
        syntax = SYNTAX_APACHE;
        escaping = LOG_ESC_BACKSLASH;
    } else {
        int directive = starts_word(p, "log_format");
        if (directive) { /* log_format NAME */
            p = skip_space(p + strlen("log_format"));
            if (*p == '\'' || *p == '"' || *p == '\0' || *p == ';')
                return "log_format takes a name before its format string";
            p = skip_space(word_end(p));
        }
        escaping = LOG_ESC_NGINX;
        int option = strncmp(p, "escape=", 7) == 0;
        if (option) {
            const char *v = p + 7, *e = word_end(v);
            size_t n = (size_t)(e - v);
            if (n == 7 && memcmp(v, "default", 7) == 0)
                escaping = LOG_ESC_NGINX;
            else if (n == 4 && memcmp(v, "json", 4) == 0)
                escaping = LOG_ESC_JSON;
            else if (n == 4 && memcmp(v, "none", 4) == 0)
                escaping = LOG_ESC_NONE;
            else
                return "escape= takes default, json or none (as nginx's log_format)";
            p = skip_space(e);
        }
        if (directive || (option && (*p == '\'' || *p == '"'))) {
            if ((error = nginx_strings(p, unwrapped, CUSTOM_TEXT_MAX)) != NULL)
                return error;
            text = unwrapped;
        } else if (option) {
            text = p;
        }
        syntax = directive || option ? SYNTAX_NGINX : template_guess_syntax(text);
        /* A format shaped as a JSON object is nginx's escape=json one (with
         * escape=default its '"' would be \x22, which JSON does not have):
         * read so when escape= is not given; the JSON escapes undo \xHH
         * too, so either reads right. */
        if (!option && syntax == SYNTAX_NGINX && json_shaped(text))
            escaping = LOG_ESC_JSON;
        if (syntax == SYNTAX_HAPROXY)
            escaping = LOG_ESC_HAPROXY;
        else if (syntax != SYNTAX_NGINX)
            escaping = LOG_ESC_BACKSLASH;
    }
    if ((error = template_compile(t, text, syntax)) != NULL)
        return error;
    t->escaping = (unsigned char)escaping;
    t->url_cut = url_cut;
    return NULL;
}

const char *custom_format_compile(struct log_template *t, const char *text)
{
    /* the text a directive unwraps to (the template copies what it keeps) */
    char *unwrapped = malloc(CUSTOM_TEXT_MAX);
    if (unwrapped == NULL)
        return "out of memory";
    const char *error = compile(t, text, unwrapped);
    free(unwrapped);
    return error;
}
