/* pct-parser-grammar.c - the configuration syntax of
 *   pct-access-log-parser(format(auto|NAME) log-format("...") prefix(".pct.")
 *                         decode-slash(no) query(form|plain|keep)
 *                         json-key("...") template("$MSG"))
 * read from syslog-ng's lexer by hand: the grammar is one flat list of
 * options, which needs no bison (syslog-ng-dev ships the grammar merge
 * tools, but Debian's bison would be one more build dependency). */
#include <string.h>

#include "cfg-grammar.h"
#include "cfg-parser.h"
#include "template/templates.h"

#include "pct-access-log-parser.h"

/* Token numbers of this module's words, past the main grammar's. */
enum {
    KW_PCT_ACCESS_LOG_PARSER = 20001,
    KW_PCT_FORMAT,
    KW_PCT_LOG_FORMAT,
    KW_PCT_PREFIX,
    KW_PCT_DECODE_SLASH,
    KW_PCT_QUERY,
    KW_PCT_JSON_KEY,
    KW_PCT_TEMPLATE
};

static CfgLexerKeyword keywords[] = {
    {"pct_access_log_parser", KW_PCT_ACCESS_LOG_PARSER, KWS_NORMAL, NULL},
    {"format", KW_PCT_FORMAT, KWS_NORMAL, NULL},
    {"log_format", KW_PCT_LOG_FORMAT, KWS_NORMAL, NULL},
    {"prefix", KW_PCT_PREFIX, KWS_NORMAL, NULL},
    {"decode_slash", KW_PCT_DECODE_SLASH, KWS_NORMAL, NULL},
    {"query", KW_PCT_QUERY, KWS_NORMAL, NULL},
    {"json_key", KW_PCT_JSON_KEY, KWS_NORMAL, NULL},
    {"template", KW_PCT_TEMPLATE, KWS_NORMAL, NULL},
    {NULL, 0, KWS_NORMAL, NULL},
};

typedef struct {
    CfgLexer *lexer;
    CFG_STYPE value;
    CFG_LTYPE where;
    gboolean has_value; /* value holds a string to free */
} Reader;

static gint next(Reader *r)
{
    if (r->has_value)
        cfg_lexer_free_token(&r->value);
    memset(&r->value, 0, sizeof r->value);
    gint token = cfg_lexer_lex(r->lexer, &r->value, &r->where);
    r->has_value = r->value.type == LL_STRING || r->value.type == LL_IDENTIFIER;
    return token;
}

static gint fail(Reader *r, const gchar *message)
{
    report_syntax_error(r->lexer, &r->where, cfg_lexer_get_context_description(r->lexer), message,
                        FALSE);
    if (r->has_value)
        cfg_lexer_free_token(&r->value);
    r->has_value = FALSE;
    return 1;
}

/* An option's value: "(" a string or word ")"; a copy of its text, or
 * NULL when it is not there. */
static gchar *read_word(Reader *r)
{
    if (next(r) != '(')
        return NULL;
    gint token = next(r);
    const gchar *text = NULL;
    if (token == LL_STRING || token == LL_IDENTIFIER)
        text = r->value.cptr;
    else if (token == KW_YES || token == KW_NO)
        text = token == KW_YES ? "yes" : "no";
    if (text == NULL) /* (a word that is a keyword of syslog-ng: quote it) */
        return NULL;
    gchar *copy = g_strdup(text);
    if (next(r) != ')') {
        g_free(copy);
        return NULL;
    }
    return copy;
}

static gboolean yes_no(const gchar *text, gboolean *on)
{
    if (strcmp(text, "yes") == 0 || strcmp(text, "1") == 0)
        *on = TRUE;
    else if (strcmp(text, "no") == 0 || strcmp(text, "0") == 0)
        *on = FALSE;
    else
        return FALSE;
    return TRUE;
}

static void cleanup(gpointer instance)
{
    log_pipe_unref((LogPipe *)instance);
}

static gint parse(CfgLexer *lexer, gpointer *instance, gpointer arg)
{
    Reader r = {.lexer = lexer};
    if (next(&r) != LL_CONTEXT_PARSER || next(&r) != KW_PCT_ACCESS_LOG_PARSER)
        return fail(&r, "expected pct-access-log-parser");
    if (next(&r) != '(')
        return fail(&r, "expected '(' after pct-access-log-parser");
    LogParser *p = pct_access_log_parser_new(configuration);
    *instance = p;
    for (;;) {
        gint option = next(&r);
        if (option == ')')
            break;
        const gchar *error = NULL;
        gboolean on;
        if (option == KW_PCT_DECODE_SLASH) {
            if (next(&r) != '(')
                return fail(&r, "decode-slash() takes yes or no");
            gint token = next(&r);
            if (token == LL_NUMBER)
                on = r.value.num != 0;
            else if (token == KW_YES || token == KW_NO)
                on = token == KW_YES;
            else if (!(token == LL_IDENTIFIER && yes_no(r.value.cptr, &on)))
                return fail(&r, "decode-slash() takes yes or no");
            if (next(&r) != ')')
                return fail(&r, "expected ')'");
            pct_access_log_parser_set_decode_slash(p, on);
            continue;
        }
        if (option != KW_PCT_FORMAT && option != KW_PCT_LOG_FORMAT && option != KW_PCT_PREFIX &&
            option != KW_PCT_QUERY && option != KW_PCT_JSON_KEY && option != KW_PCT_TEMPLATE)
            return fail(&r, "unknown option of pct-access-log-parser(): it takes format(), "
                            "log-format(), prefix(), decode-slash(), query(), json-key(), "
                            "template()");
        gchar *text = read_word(&r);
        if (text == NULL)
            return fail(&r, "the option takes one string: NAME(\"...\")");
        switch (option) {
        case KW_PCT_FORMAT:
            if (!pct_access_log_parser_set_format(p, text, &error)) {
                g_free(text);
                return fail(&r, error);
            }
            break;
        case KW_PCT_LOG_FORMAT:
            pct_access_log_parser_set_log_format(p, text);
            break;
        case KW_PCT_PREFIX:
            pct_access_log_parser_set_prefix(p, text);
            break;
        case KW_PCT_QUERY:
            if (!pct_access_log_parser_set_query(p, text, &error)) {
                g_free(text);
                return fail(&r, error);
            }
            break;
        case KW_PCT_JSON_KEY:
            pct_access_log_parser_set_json_key(p, text);
            break;
        case KW_PCT_TEMPLATE: {
            LogTemplate *t = log_template_new(configuration, NULL);
            GError *gerror = NULL;
            if (!log_template_compile(t, text, &gerror)) {
                gint status = fail(&r, gerror->message);
                g_clear_error(&gerror);
                log_template_unref(t);
                g_free(text);
                return status;
            }
            log_parser_set_template(p, t);
            break;
        }
        }
        g_free(text);
    }
    if (r.has_value)
        cfg_lexer_free_token(&r.value);
    return 0;
}

CfgParser pct_access_log_parser_parser = {
    .context = LL_CONTEXT_PARSER,
    .name = "pct-access-log-parser",
    .keywords = keywords,
    .parse = parse,
    .cleanup = cleanup,
};
