/* ngx_http_pct_module - request-path policy for nginx with libpct.
 *
 * With `pct_path on`, the request's path as it arrived (the request line's
 * target, before nginx decodes it) is normalized by pct_normalize_path_v2
 * with the location's policy. A rejection ends the request with
 * pct_path_reject_status (400 by default); otherwise $pct_path holds the
 * normalized path (percent-encoded, hex upper-cased, no query) and
 * $pct_path_report what normalization did ("-" for nothing).
 *
 *   pct_path on | off;                          (off)
 *   pct_path_policy default | nginx | envoy | apache | traefik | strict;
 *   pct_path_encoded_slash | _backslash | _nul | _semicolon | _percent |
 *       _question | _hash | _control  keep | decode | reject;
 *   pct_path_reject_above_root on | off;
 *   pct_path_dot_params off | on | reject;
 *   pct_path_reject_changed on | off;
 *   pct_path_reject_status CODE;                (400)
 *
 * all valid in http, server and location. The check runs first in the
 * location's rewrite phase: after the location is chosen (so its settings
 * apply), before its `rewrite`, `return` and `if`, access control and
 * content (nginx runs the handlers of a phase last-registered first, and a
 * dynamic module registers after the built-in ones). A `return` at server
 * level runs before any location, so before the check. The variables work
 * without `pct_path on` too.
 */
#define PCT_STATIC /* libpct is linked in statically */
#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include "pct.h"

typedef struct {
    ngx_flag_t enable;
    ngx_str_t policy_name;
    ngx_uint_t actions[PCT_PATH_CLASSES]; /* NGX_CONF_UNSET_UINT: the preset's */
    ngx_flag_t reject_above_root;
    ngx_uint_t dot_params; /* 0 off, 1 on, 2 reject */
    ngx_flag_t reject_changed;
    ngx_uint_t reject_status;
    pct_path_policy_v2 policy; /* built when merged */
} ngx_http_pct_loc_conf_t;

/* The result for a request, computed once. */
typedef struct {
    pct_result result;
    ngx_str_t path;
    ngx_str_t report;
} ngx_http_pct_ctx_t;

static ngx_int_t ngx_http_pct_add_variables(ngx_conf_t *cf);
static ngx_int_t ngx_http_pct_init(ngx_conf_t *cf);
static void *ngx_http_pct_create_loc_conf(ngx_conf_t *cf);
static char *ngx_http_pct_merge_loc_conf(ngx_conf_t *cf, void *parent, void *child);

static ngx_conf_enum_t ngx_http_pct_actions[] = {{ngx_string("keep"), PCT_PATH_KEEP},
                                                 {ngx_string("decode"), PCT_PATH_DECODE},
                                                 {ngx_string("reject"), PCT_PATH_REJECT},
                                                 {ngx_null_string, 0}};

static ngx_conf_enum_t ngx_http_pct_dot_params[] = {
    {ngx_string("off"), 0}, {ngx_string("on"), 1}, {ngx_string("reject"), 2}, {ngx_null_string, 0}};

#define NGX_HTTP_PCT_CONF (NGX_HTTP_MAIN_CONF | NGX_HTTP_SRV_CONF | NGX_HTTP_LOC_CONF)
#define NGX_HTTP_PCT_ACTION(name, cls)                                                             \
    {                                                                                              \
        ngx_string(name), NGX_HTTP_PCT_CONF | NGX_CONF_TAKE1, ngx_conf_set_enum_slot,              \
            NGX_HTTP_LOC_CONF_OFFSET,                                                              \
            offsetof(ngx_http_pct_loc_conf_t, actions) + (cls) * sizeof(ngx_uint_t),               \
            ngx_http_pct_actions                                                                   \
    }

static ngx_command_t ngx_http_pct_commands[] = {
    {ngx_string("pct_path"), NGX_HTTP_PCT_CONF | NGX_CONF_FLAG, ngx_conf_set_flag_slot,
     NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_pct_loc_conf_t, enable), NULL},
    {ngx_string("pct_path_policy"), NGX_HTTP_PCT_CONF | NGX_CONF_TAKE1, ngx_conf_set_str_slot,
     NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_pct_loc_conf_t, policy_name), NULL},
    NGX_HTTP_PCT_ACTION("pct_path_encoded_slash", PCT_PATH_CLASS_SLASH),
    NGX_HTTP_PCT_ACTION("pct_path_encoded_backslash", PCT_PATH_CLASS_BACKSLASH),
    NGX_HTTP_PCT_ACTION("pct_path_encoded_nul", PCT_PATH_CLASS_NUL),
    NGX_HTTP_PCT_ACTION("pct_path_encoded_semicolon", PCT_PATH_CLASS_SEMICOLON),
    NGX_HTTP_PCT_ACTION("pct_path_encoded_percent", PCT_PATH_CLASS_PERCENT),
    NGX_HTTP_PCT_ACTION("pct_path_encoded_question", PCT_PATH_CLASS_QUESTION),
    NGX_HTTP_PCT_ACTION("pct_path_encoded_hash", PCT_PATH_CLASS_HASH),
    NGX_HTTP_PCT_ACTION("pct_path_encoded_control", PCT_PATH_CLASS_CONTROL),
    {ngx_string("pct_path_reject_above_root"), NGX_HTTP_PCT_CONF | NGX_CONF_FLAG,
     ngx_conf_set_flag_slot, NGX_HTTP_LOC_CONF_OFFSET,
     offsetof(ngx_http_pct_loc_conf_t, reject_above_root), NULL},
    {ngx_string("pct_path_dot_params"), NGX_HTTP_PCT_CONF | NGX_CONF_TAKE1, ngx_conf_set_enum_slot,
     NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_pct_loc_conf_t, dot_params),
     ngx_http_pct_dot_params},
    {ngx_string("pct_path_reject_changed"), NGX_HTTP_PCT_CONF | NGX_CONF_FLAG,
     ngx_conf_set_flag_slot, NGX_HTTP_LOC_CONF_OFFSET,
     offsetof(ngx_http_pct_loc_conf_t, reject_changed), NULL},
    {ngx_string("pct_path_reject_status"), NGX_HTTP_PCT_CONF | NGX_CONF_TAKE1,
     ngx_conf_set_num_slot, NGX_HTTP_LOC_CONF_OFFSET,
     offsetof(ngx_http_pct_loc_conf_t, reject_status), NULL},
    ngx_null_command};

static ngx_http_module_t ngx_http_pct_module_ctx = {
    ngx_http_pct_add_variables,   /* preconfiguration */
    ngx_http_pct_init,            /* postconfiguration */
    NULL,                         /* create main configuration */
    NULL,                         /* init main configuration */
    NULL,                         /* create server configuration */
    NULL,                         /* merge server configuration */
    ngx_http_pct_create_loc_conf, /* create location configuration */
    ngx_http_pct_merge_loc_conf   /* merge location configuration */
};

ngx_module_t ngx_http_pct_module = {NGX_MODULE_V1,
                                    &ngx_http_pct_module_ctx,
                                    ngx_http_pct_commands,
                                    NGX_HTTP_MODULE,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NGX_MODULE_V1_PADDING};

static void *ngx_http_pct_create_loc_conf(ngx_conf_t *cf)
{
    ngx_http_pct_loc_conf_t *conf = ngx_pcalloc(cf->pool, sizeof(ngx_http_pct_loc_conf_t));
    if (conf == NULL)
        return NULL;
    conf->enable = NGX_CONF_UNSET;
    for (ngx_uint_t c = 0; c < PCT_PATH_CLASSES; c++)
        conf->actions[c] = NGX_CONF_UNSET_UINT;
    conf->reject_above_root = NGX_CONF_UNSET;
    conf->dot_params = NGX_CONF_UNSET_UINT;
    conf->reject_changed = NGX_CONF_UNSET;
    conf->reject_status = NGX_CONF_UNSET_UINT;
    return conf;
}

static char *ngx_http_pct_merge_loc_conf(ngx_conf_t *cf, void *parent, void *child)
{
    ngx_http_pct_loc_conf_t *prev = parent, *conf = child;
    static const char *const class_names[PCT_PATH_CLASSES] = {
        "slash", "backslash", "nul", "semicolon", "percent", "question", "hash", "control"};

    ngx_conf_merge_value(conf->enable, prev->enable, 0);
    ngx_conf_merge_str_value(conf->policy_name, prev->policy_name, "default");
    for (ngx_uint_t c = 0; c < PCT_PATH_CLASSES; c++)
        ngx_conf_merge_uint_value(conf->actions[c], prev->actions[c], NGX_CONF_UNSET_UINT);
    ngx_conf_merge_value(conf->reject_above_root, prev->reject_above_root, NGX_CONF_UNSET);
    ngx_conf_merge_uint_value(conf->dot_params, prev->dot_params, NGX_CONF_UNSET_UINT);
    ngx_conf_merge_value(conf->reject_changed, prev->reject_changed, NGX_CONF_UNSET);
    ngx_conf_merge_uint_value(conf->reject_status, prev->reject_status, NGX_HTTP_BAD_REQUEST);
    if (conf->reject_status < 400 || conf->reject_status > 599) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "pct_path_reject_status must be 400..599");
        return NGX_CONF_ERROR;
    }

    /* The preset, then what this level or one above it changed. */
    char name[32];
    if (conf->policy_name.len >= sizeof name) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "unknown pct_path_policy \"%V\"",
                           &conf->policy_name);
        return NGX_CONF_ERROR;
    }
    ngx_memcpy(name, conf->policy_name.data, conf->policy_name.len);
    name[conf->policy_name.len] = '\0';
    if (pct_path_policy_v2_init(&conf->policy, name) != PCT_OK) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "unknown pct_path_policy \"%V\" (default, nginx, envoy, apache, "
                           "traefik, strict)",
                           &conf->policy_name);
        return NGX_CONF_ERROR;
    }
    /* Controls first: pct_path_encoded_control covers %00 unless
     * pct_path_encoded_nul says otherwise. */
    if (conf->actions[PCT_PATH_CLASS_CONTROL] != NGX_CONF_UNSET_UINT)
        pct_path_policy_v2_set(&conf->policy, PCT_PATH_CLASS_NUL,
                               (pct_path_action)conf->actions[PCT_PATH_CLASS_CONTROL]);
    for (ngx_uint_t k = 0; k < PCT_PATH_CLASSES; k++) {
        const ngx_uint_t c = (k + PCT_PATH_CLASS_CONTROL) % PCT_PATH_CLASSES;
        if (conf->actions[c] == NGX_CONF_UNSET_UINT)
            continue;
        if (pct_path_policy_v2_set(&conf->policy, (pct_path_class)c,
                                   (pct_path_action)conf->actions[c]) != PCT_OK) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "pct_path_encoded_%s: a decoded byte would end the path; "
                               "use keep or reject",
                               class_names[c]);
            return NGX_CONF_ERROR;
        }
    }
    if (conf->reject_above_root == 1)
        conf->policy.options |= PCT_PATH_REJECT_ABOVE_ROOT;
    else if (conf->reject_above_root == 0)
        conf->policy.options &= ~(uint32_t)PCT_PATH_REJECT_ABOVE_ROOT;
    if (conf->dot_params != NGX_CONF_UNSET_UINT) {
        conf->policy.options &= ~(uint32_t)(PCT_PATH_DOT_PARAMS | PCT_PATH_REJECT_DOT_PARAMS);
        if (conf->dot_params == 1)
            conf->policy.options |= PCT_PATH_DOT_PARAMS;
        else if (conf->dot_params == 2)
            conf->policy.options |= PCT_PATH_REJECT_DOT_PARAMS;
    }
    if (conf->reject_changed == 1)
        conf->policy.options |= PCT_PATH_REJECT_CHANGED;
    else if (conf->reject_changed == 0)
        conf->policy.options &= ~(uint32_t)PCT_PATH_REJECT_CHANGED;
    return NGX_CONF_OK;
}

/* Normalizes the request's path once (per request) with the location's
 * policy. */
static ngx_http_pct_ctx_t *ngx_http_pct_result(ngx_http_request_t *r)
{
    ngx_http_pct_ctx_t *ctx = ngx_http_get_module_ctx(r, ngx_http_pct_module);
    if (ctx != NULL)
        return ctx;
    ngx_http_pct_loc_conf_t *conf = ngx_http_get_module_loc_conf(r, ngx_http_pct_module);
    ctx = ngx_pcalloc(r->pool, sizeof(ngx_http_pct_ctx_t));
    if (ctx == NULL)
        return NULL;
    const ngx_str_t *target = &r->main->unparsed_uri;
    u_char *out = ngx_pnalloc(r->pool, target->len + 1);
    const size_t report_size = pct_path_report_format(~0u, NULL, 0) + 1;
    u_char *report = ngx_pnalloc(r->pool, report_size);
    if (out == NULL || report == NULL)
        return NULL;
    pct_path_report what;
    ctx->result = pct_normalize_path_v2((const char *)target->data, target->len, (char *)out,
                                        &conf->policy, &what);
    if (ctx->result.status == PCT_OK) {
        /* The path ends at the first '?' or '#': the normalized path holds
         * neither (their escapes are never decoded). */
        size_t n = 0;
        while (n < ctx->result.count && out[n] != '?' && out[n] != '#')
            n++;
        ctx->path.data = out;
        ctx->path.len = n;
        if (what.changes == 0) {
            report[0] = '-';
            ctx->report.len = 1;
        } else {
            ctx->report.len = pct_path_report_format(what.changes, (char *)report, report_size);
        }
        ctx->report.data = report;
    }
    ngx_http_set_ctx(r, ctx, ngx_http_pct_module);
    return ctx;
}

static ngx_int_t ngx_http_pct_handler(ngx_http_request_t *r)
{
    ngx_http_pct_loc_conf_t *conf = ngx_http_get_module_loc_conf(r, ngx_http_pct_module);
    if (!conf->enable || r != r->main)
        return NGX_DECLINED;
    ngx_http_pct_ctx_t *ctx = ngx_http_pct_result(r);
    if (ctx == NULL)
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    if (ctx->result.status == PCT_OK)
        return NGX_DECLINED;
    ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                  "pct_path: request path rejected: %s at byte %uz",
                  pct_status_string(ctx->result.status), ctx->result.count);
    return (ngx_int_t)conf->reject_status;
}

static ngx_int_t ngx_http_pct_variable(ngx_http_request_t *r, ngx_http_variable_value_t *v,
                                       uintptr_t data)
{
    ngx_http_pct_ctx_t *ctx = ngx_http_pct_result(r);
    if (ctx == NULL)
        return NGX_ERROR;
    if (ctx->result.status != PCT_OK) {
        v->not_found = 1;
        return NGX_OK;
    }
    const ngx_str_t *s = data ? &ctx->report : &ctx->path;
    v->data = s->data;
    v->len = s->len;
    v->valid = 1;
    v->no_cacheable = 0;
    v->not_found = 0;
    return NGX_OK;
}

static ngx_int_t ngx_http_pct_add_variables(ngx_conf_t *cf)
{
    static ngx_str_t names[2] = {ngx_string("pct_path"), ngx_string("pct_path_report")};
    for (uintptr_t k = 0; k < 2; k++) {
        ngx_http_variable_t *var = ngx_http_add_variable(cf, &names[k], NGX_HTTP_VAR_NOCACHEABLE);
        if (var == NULL)
            return NGX_ERROR;
        var->get_handler = ngx_http_pct_variable;
        var->data = k;
    }
    return NGX_OK;
}

static ngx_int_t ngx_http_pct_init(ngx_conf_t *cf)
{
    ngx_http_core_main_conf_t *cmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_core_module);
    ngx_http_handler_pt *h = ngx_array_push(&cmcf->phases[NGX_HTTP_REWRITE_PHASE].handlers);
    if (h == NULL)
        return NGX_ERROR;
    *h = ngx_http_pct_handler;
    return NGX_OK;
}
