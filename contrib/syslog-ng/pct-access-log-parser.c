/* pct-access-log-parser.c - the parser: each message's ${MESSAGE} (or its
 * template()) is one access-log line, parsed by the log engine
 * (log_session_parse) in the format named or found per line, and its
 * record set as PREFIXNAME pairs (pct-record-values.c). A message that is
 * no line of a known format (or holds a newline: two lines) does not
 * parse: the parser returns FALSE, which `if (parser(...)) {} else {}`
 * routes on, and sets nothing. A last CR is the end of the line.
 *
 * syslog-ng runs a parser on several threads at once, and a log engine
 * session is used by one thread at a time: the parser keeps a pool of
 * sessions, configured alike, and takes one per message. */
#include <string.h>

#include "messages.h"

#include "log_session.h"
#include "pct-access-log-parser.h"
#include "pct-record-values.h"

typedef struct _PctAccessLogParser PctAccessLogParser;

/* A session of the engine and what its record callback needs. */
typedef struct {
    struct log_session *session;
    PctRecordValues values;
    /* the message being parsed */
    LogMessage **pmsg;
    const LogPathOptions *path_options;
    gboolean parsed;
} PctSession;

struct _PctAccessLogParser {
    LogParser super;
    gint format; /* enum log_format_id: LF_AUTO or a format */
    gchar *log_format;
    gchar *prefix;
    gboolean decode_slash;
    gint query; /* enum query_mode */
    gchar *json_key;
    GMutex lock;
    GPtrArray *idle; /* PctSession, configured */
};

gboolean pct_access_log_parser_set_format(LogParser *p, const gchar *name, const gchar **error)
{
    PctAccessLogParser *self = (PctAccessLogParser *)p;
    struct log_options o;
    log_options_init(&o);
    if (log_options_format(&o, name) != 0) {
        *error = "format() takes auto or a format of `pct logs --list-formats`";
        return FALSE;
    }
    self->format = o.cfg.format;
    return TRUE;
}

void pct_access_log_parser_set_log_format(LogParser *p, const gchar *log_format)
{
    PctAccessLogParser *self = (PctAccessLogParser *)p;
    g_free(self->log_format);
    self->log_format = g_strdup(log_format);
}

void pct_access_log_parser_set_prefix(LogParser *p, const gchar *prefix)
{
    PctAccessLogParser *self = (PctAccessLogParser *)p;
    g_free(self->prefix);
    self->prefix = g_strdup(prefix);
}

void pct_access_log_parser_set_decode_slash(LogParser *p, gboolean on)
{
    ((PctAccessLogParser *)p)->decode_slash = on;
}

gboolean pct_access_log_parser_set_query(LogParser *p, const gchar *mode, const gchar **error)
{
    PctAccessLogParser *self = (PctAccessLogParser *)p;
    if (strcmp(mode, "form") == 0)
        self->query = Q_FORM;
    else if (strcmp(mode, "plain") == 0)
        self->query = Q_PLAIN;
    else if (strcmp(mode, "keep") == 0)
        self->query = Q_KEEP;
    else {
        *error = "query() takes form, plain or keep";
        return FALSE;
    }
    return TRUE;
}

void pct_access_log_parser_set_json_key(LogParser *p, const gchar *key)
{
    PctAccessLogParser *self = (PctAccessLogParser *)p;
    g_free(self->json_key);
    self->json_key = g_strdup(key);
}

/* The record callback: the one record of the message's line. */
static int on_records(void *ctx, struct log_values *v, const struct log_session_record *r,
                      size_t count)
{
    PctSession *ps = ctx;
    if (count != 1 || !r->parsed || ps->parsed)
        return 0; /* no line of a known format, or more than one line */
    ps->parsed = TRUE;
    log_msg_make_writable(ps->pmsg, ps->path_options);
    return pct_record_values_set(&ps->values, *ps->pmsg, v, r);
}

static void session_free(PctSession *ps)
{
    log_session_free(ps->session);
    pct_record_values_clear(&ps->values);
    g_free(ps);
}

/* A session configured with the parser's options; NULL and *error (the
 * engine's message) when they are refused. */
static PctSession *session_new(PctAccessLogParser *self, gchar **error)
{
    struct log_options o;
    log_options_init(&o);
    o.cfg.format = self->format;
    o.log_format = self->log_format;
    o.cfg.decode_slash = self->decode_slash;
    o.cfg.query = self->query;
    o.cfg.json_key = self->json_key;
    o.cfg.threads = 1;
    o.cfg.progress = 0;
    PctSession *ps = g_new0(PctSession, 1);
    ps->session = log_session_new();
    if (ps->session == NULL) {
        *error = g_strdup("out of memory");
        g_free(ps);
        return NULL;
    }
    if (log_session_configure(ps->session, &o) != 0 ||
        log_session_records(ps->session, on_records, ps) != 0) {
        *error = g_strdup(log_session_error(ps->session));
        log_session_free(ps->session);
        g_free(ps);
        return NULL;
    }
    pct_record_values_init(&ps->values, self->prefix,
                           self->query == Q_FORM ? PCT_QUERY_BY_NAME : PCT_QUERY_JSON);
    return ps;
}

static PctSession *session_take(PctAccessLogParser *self)
{
    PctSession *ps = NULL;
    g_mutex_lock(&self->lock);
    if (self->idle->len > 0)
        ps = g_ptr_array_remove_index_fast(self->idle, self->idle->len - 1);
    g_mutex_unlock(&self->lock);
    if (ps != NULL)
        return ps;
    gchar *error = NULL;
    ps = session_new(self, &error);
    if (ps == NULL) { /* the options were checked in init: out of memory */
        msg_error("pct-access-log-parser(): cannot start a log engine session",
                  evt_tag_str("error", error));
        g_free(error);
    }
    return ps;
}

static void session_give_back(PctAccessLogParser *self, PctSession *ps)
{
    g_mutex_lock(&self->lock);
    g_ptr_array_add(self->idle, ps);
    g_mutex_unlock(&self->lock);
}

static gboolean process(LogParser *s, LogMessage **pmsg, const LogPathOptions *path_options,
                        const gchar *input, gsize input_len)
{
    PctAccessLogParser *self = (PctAccessLogParser *)s;
    /* A newline makes two lines of one message: not an access-log line. A
     * CR at the end is what is left of a CRLF ending (the log engine's rule:
     * the CR before a line's LF is part of its ending, not of its text). */
    if (memchr(input, '\n', input_len) != NULL)
        return FALSE;
    if (input_len > 0 && input[input_len - 1] == '\r')
        input_len--;
    PctSession *ps = session_take(self);
    if (ps == NULL)
        return FALSE;
    ps->pmsg = pmsg;
    ps->path_options = path_options;
    ps->parsed = FALSE;
    int status = log_session_parse(ps->session, input, input_len);
    gboolean parsed = ps->parsed;
    if (status != 0) {
        /* Out of memory, or the engine stopped the callback: the session
         * is not used again. */
        msg_error("pct-access-log-parser(): the log engine failed",
                  evt_tag_str("error", log_session_error(ps->session)));
        session_free(ps);
        return FALSE;
    }
    session_give_back(self, ps);
    return parsed;
}

static gboolean init(LogPipe *s)
{
    PctAccessLogParser *self = (PctAccessLogParser *)s;
    if (self->format == LF_W3C) {
        msg_error("pct-access-log-parser(): format(w3c) needs its #Fields: header, which a "
                  "message does not carry; name the columns with log-format() instead");
        return FALSE;
    }
    /* The options are checked (and --log-format compiled) once here. */
    gchar *error = NULL;
    PctSession *ps = session_new(self, &error);
    if (ps == NULL) {
        msg_error("pct-access-log-parser(): bad options", evt_tag_str("error", error),
                  log_pipe_location_tag(s));
        g_free(error);
        return FALSE;
    }
    session_give_back(self, ps);
    return log_parser_init_method(s);
}

static gboolean deinit(LogPipe *s)
{
    PctAccessLogParser *self = (PctAccessLogParser *)s;
    g_mutex_lock(&self->lock);
    for (guint i = 0; i < self->idle->len; i++)
        session_free(g_ptr_array_index(self->idle, i));
    g_ptr_array_set_size(self->idle, 0);
    g_mutex_unlock(&self->lock);
    return log_parser_deinit_method(s);
}

static LogPipe *clone(LogPipe *s)
{
    PctAccessLogParser *self = (PctAccessLogParser *)s;
    PctAccessLogParser *c = (PctAccessLogParser *)pct_access_log_parser_new(s->cfg);
    log_parser_set_template(&c->super, log_template_ref(self->super.template));
    c->format = self->format;
    pct_access_log_parser_set_log_format(&c->super, self->log_format);
    pct_access_log_parser_set_prefix(&c->super, self->prefix);
    c->decode_slash = self->decode_slash;
    c->query = self->query;
    pct_access_log_parser_set_json_key(&c->super, self->json_key);
    return &c->super.super;
}

static void free_parser(LogPipe *s)
{
    PctAccessLogParser *self = (PctAccessLogParser *)s;
    deinit(s);
    g_ptr_array_free(self->idle, TRUE);
    g_mutex_clear(&self->lock);
    g_free(self->log_format);
    g_free(self->prefix);
    g_free(self->json_key);
    log_parser_free_method(s);
}

LogParser *pct_access_log_parser_new(GlobalConfig *cfg)
{
    PctAccessLogParser *self = g_new0(PctAccessLogParser, 1);
    log_parser_init_instance(&self->super, cfg);
    self->super.super.init = init;
    self->super.super.deinit = deinit;
    self->super.super.free_fn = free_parser;
    self->super.super.clone = clone;
    self->super.process = process;
    self->format = LF_AUTO;
    self->prefix = g_strdup(".pct.");
    self->query = Q_FORM;
    g_mutex_init(&self->lock);
    self->idle = g_ptr_array_new();
    return &self->super;
}
