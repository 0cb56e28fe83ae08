/* pct-template-functions.c - libpct as syslog-ng template functions:
 *   $(pct-decode [--plus] [--strict] [--percent-u] [--utf8-replace]
 *                [--keep CHARS] VALUE...)
 *   $(pct-encode SET [--plus] [--keep-escapes] [--safe CHARS]
 *                [--unsafe CHARS] VALUE...)
 *   $(pct-normalize-path POLICY VALUE...)
 * SET is a set of `pct encode --set` (component, path, query, form, ...),
 * POLICY a preset of `pct path --policy` (default, nginx, envoy, apache,
 * traefik, strict). The options are read once, when the template is
 * compiled; each VALUE is done on its own and the results are
 * concatenated. A VALUE libpct refuses (an invalid escape with --strict, a
 * path the policy rejects) gives nothing: the result is empty for it, and
 * a debug message says why. */
#include <string.h>

#include "messages.h"
#include "template/simple-function.h"

#include "pct.h"

typedef struct {
    TFSimpleFuncState super;
    unsigned flags;
    pct_set set;  /* pct-encode: the set with --safe/--unsafe */
    pct_set keep; /* pct-decode: --keep */
    gboolean has_keep;
    pct_path_policy_v2 policy; /* pct-normalize-path */
} PctFuncState;

static gboolean refuse(GError **error, const gchar *function, const gchar *what)
{
    g_set_error(error, LOG_TEMPLATE_ERROR, LOG_TEMPLATE_ERROR_COMPILE, "$(%s): %s", function, what);
    return FALSE;
}

/* Reads the options at argv[*i]...; FALSE for one the function does not take. */
static gboolean read_options(PctFuncState *state, const gchar *function, gint argc, gchar *argv[],
                             gint *i, GError **error)
{
    const gboolean decode = strcmp(function, "pct-decode") == 0;
    while (*i < argc && strncmp(argv[*i], "--", 2) == 0) {
        const gchar *o = argv[(*i)++];
        const gboolean takes_chars =
            strcmp(o, "--keep") == 0 || strcmp(o, "--safe") == 0 || strcmp(o, "--unsafe") == 0;
        if (takes_chars && *i >= argc)
            return refuse(error, function, "an option that takes CHARS has none");
        if (decode && strcmp(o, "--plus") == 0)
            state->flags |= PCT_PLUS;
        else if (decode && strcmp(o, "--strict") == 0)
            state->flags |= PCT_STRICT;
        else if (decode && strcmp(o, "--percent-u") == 0)
            state->flags |= PCT_PERCENT_U;
        else if (decode && strcmp(o, "--utf8-replace") == 0)
            state->flags |= PCT_UTF8_REPLACE;
        else if (decode && strcmp(o, "--keep") == 0) {
            pct_set_add_chars(&state->keep, argv[(*i)++]);
            state->has_keep = TRUE;
        } else if (!decode && strcmp(o, "--plus") == 0)
            state->flags |= PCT_PLUS;
        else if (!decode && strcmp(o, "--keep-escapes") == 0)
            state->flags |= PCT_KEEP_ESCAPES;
        else if (!decode && strcmp(o, "--safe") == 0)
            pct_set_remove_chars(&state->set, argv[(*i)++]);
        else if (!decode && strcmp(o, "--unsafe") == 0)
            pct_set_add_chars(&state->set, argv[(*i)++]);
        else
            return refuse(error, function, "unknown option (see the module's README section)");
    }
    return TRUE;
}

static gboolean prepare(LogTemplateFunction *self, gpointer s, LogTemplate *parent, gint argc,
                        gchar *argv[], GError **error)
{
    PctFuncState *state = (PctFuncState *)s;
    const gchar *function = argv[0];
    gint i = 1;
    pct_set_clear(&state->keep);
    if (strcmp(function, "pct-encode") == 0) {
        const pct_set *set = i < argc ? pct_set_by_name(argv[i]) : NULL;
        if (set == NULL)
            return refuse(error, function,
                          "the first argument is a set (component, path, "
                          "query, form, ...: pct encode --help)");
        state->set = *set;
        i++;
    } else if (strcmp(function, "pct-normalize-path") == 0) {
        if (i >= argc || pct_path_policy_v2_init(&state->policy, argv[i]) != PCT_OK)
            return refuse(error, function,
                          "the first argument is a policy: default, nginx, "
                          "envoy, apache, traefik or strict");
        i++;
    }
    if (strcmp(function, "pct-normalize-path") != 0 &&
        !read_options(state, function, argc, argv, &i, error))
        return FALSE;
    if (i >= argc)
        return refuse(error, function, "no value");
    /* The values are argv[i...]: tf_simple_func_prepare takes them after a
     * name. */
    argv[i - 1] = argv[0];
    return tf_simple_func_prepare(self, s, parent, argc - (i - 1), argv + (i - 1), error);
}

static void say_refused(const gchar *function, pct_result r)
{
    msg_debug("pct template function refused a value", evt_tag_str("function", function),
              evt_tag_str("status", pct_status_string(r.status)),
              evt_tag_long("offset", (glong)r.count));
}

/* Room for n more bytes at the end of result; where they go. */
static gchar *grow(GString *result, gsize n, gsize *at)
{
    *at = result->len;
    g_string_set_size(result, result->len + n);
    return result->str + *at;
}

static void call_decode(LogTemplateFunction *self, gpointer s, const LogTemplateInvokeArgs *args,
                        GString *result, LogMessageValueType *type)
{
    PctFuncState *state = (PctFuncState *)s;
    *type = LM_VT_STRING;
    const gsize factor = state->flags & PCT_UTF8_REPLACE ? 3 : 1;
    for (gint i = 0; i < state->super.argc; i++) {
        const GString *v = args->argv[i];
        gsize at;
        gchar *out = grow(result, factor * v->len, &at);
        pct_result r = pct_decode_except(v->str, v->len, out, state->has_keep ? &state->keep : NULL,
                                         state->flags);
        g_string_truncate(result, at + (r.status == PCT_OK ? r.count : 0));
        if (r.status != PCT_OK)
            say_refused("pct-decode", r);
    }
}

static void call_encode(LogTemplateFunction *self, gpointer s, const LogTemplateInvokeArgs *args,
                        GString *result, LogMessageValueType *type)
{
    PctFuncState *state = (PctFuncState *)s;
    *type = LM_VT_STRING;
    for (gint i = 0; i < state->super.argc; i++) {
        const GString *v = args->argv[i];
        gsize at;
        gchar *out =
            grow(result, pct_encode_length(v->str, v->len, &state->set, state->flags), &at);
        pct_result r = pct_encode(v->str, v->len, out, &state->set, state->flags);
        g_string_truncate(result, at + (r.status == PCT_OK ? r.count : 0));
        if (r.status != PCT_OK)
            say_refused("pct-encode", r);
    }
}

static void call_normalize_path(LogTemplateFunction *self, gpointer s,
                                const LogTemplateInvokeArgs *args, GString *result,
                                LogMessageValueType *type)
{
    PctFuncState *state = (PctFuncState *)s;
    *type = LM_VT_STRING;
    for (gint i = 0; i < state->super.argc; i++) {
        const GString *v = args->argv[i];
        gsize at;
        gchar *out = grow(result, v->len, &at);
        pct_result r = pct_normalize_path_v2(v->str, v->len, out, &state->policy, NULL);
        g_string_truncate(result, at + (r.status == PCT_OK ? r.count : 0));
        if (r.status != PCT_OK)
            say_refused("pct-normalize-path", r);
    }
}

TEMPLATE_FUNCTION(PctFuncState, tf_pct_decode, prepare, tf_simple_func_eval, call_decode,
                  tf_simple_func_free_state, NULL);
TEMPLATE_FUNCTION(PctFuncState, tf_pct_encode, prepare, tf_simple_func_eval, call_encode,
                  tf_simple_func_free_state, NULL);
TEMPLATE_FUNCTION(PctFuncState, tf_pct_normalize_path, prepare, tf_simple_func_eval,
                  call_normalize_path, tf_simple_func_free_state, NULL);
