/* ngx_http_pct_module - request-path policy for nginx with libpct.
 *
 * The invariant: nginx routes a request on the path it forwards. The path
 * the module lets through ($pct_path) is the request's path normalized by
 * pct_normalize_path_v2 with the policy in force, and the location that
 * handles the request is the one that path selects when nginx parses it
 * as a request (ngx_http_parse_complex_uri, with the server's
 * merge_slashes): the $uri it routes on.
 *
 *   server-rewrite phase (first handler: before the server's `rewrite`,
 *       `set`, `return`, before a location is chosen): with the server's
 *       policy, a path it refuses ends the request (pct_path_reject_status);
 *       otherwise, when nginx would route the normalized path as another
 *       $uri than the raw one, $uri becomes that one, so the location is
 *       chosen on what will be forwarded.
 *   rewrite phase (first handler: before the location's `rewrite`,
 *       `return`, `if`, access control and content): with the location's
 *       policy, a path it refuses ends the request; a normalized path that
 *       nginx routes as another $uri sends the request to the location that
 *       $uri selects (as `rewrite ... last` would, internal locations
 *       excluded), where that location's check runs in turn. So a
 *       location's policy may refuse more, never route around another
 *       location's rules.
 *
 * The check is on where `pct_path on`, and, where pct_path is not set, in a
 * configuration that reads $pct_path or $pct_path_report anywhere (reading
 * them means relying on the policy). Variables are read after the checks,
 * so they never see a refused path. Where the check is off (`pct_path off`)
 * no policy is in force: $pct_path is $uri escaped as proxy_pass forwards
 * it and $pct_path_report is "off" - never the raw target, never empty.
 *
 * What is normalized is the request target as the client sent it while
 * nginx still routes on it (or the path a location's policy sent the
 * request on with); once configuration changed $uri (`rewrite`,
 * `error_page`, `try_files`, an internal redirect), $uri itself, escaped as
 * proxy_pass forwards it, and such a $uri is refused, not routed again,
 * when its normalization would route elsewhere.
 *
 *   pct_path on | off;
 *   pct_path_policy default | nginx | envoy | apache | traefik | strict;
 *   pct_path_encoded_slash | _backslash | _nul | _semicolon | _percent |
 *       _question | _hash | _control  keep | decode | reject;
 *       (decode: not for _nul, _control, _question, _hash)
 *   pct_path_reject_above_root on | off;
 *   pct_path_dot_params off | on | reject;
 *   pct_path_reject_changed on | off;
 *   pct_path_reject_status CODE;                (400)
 *
 * all valid in http, server and location, each checked where it is written.
 */
#define PCT_STATIC /* libpct is linked in statically */
#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include "pct.h"

#define NGX_HTTP_PCT_UNSET_ACTION 0xFF

typedef struct {
    ngx_flag_t enable;
    ngx_str_t policy_name;
    u_char actions[PCT_PATH_CLASSES]; /* pct_path_action, or UNSET: the preset's */
    ngx_flag_t reject_above_root;
    ngx_uint_t dot_params; /* 0 off, 1 on, 2 reject */
    ngx_flag_t reject_changed;
    ngx_uint_t reject_status;
    /* Built when merged; shared with the level above when equal, so that a
     * request normalized at server level is not normalized again in a
     * location that inherits the same policy. */
    pct_path_policy_v2 *policy;
} ngx_http_pct_loc_conf_t;

/* One normalization: of which source, under which policy, and its result. */
typedef struct {
    const pct_path_policy_v2 *policy;
    const u_char *source; /* identity of what was normalized */
    pct_result result;
    ngx_str_t path;   /* the normalized path (PCT_OK) */
    ngx_str_t report; /* pct_path_report_format, or "-" */
    uint32_t changes; /* pct_path_report.changes */
    ngx_str_t route;  /* the path as nginx parses it: the $uri it selects */
    unsigned from_raw : 1;
    unsigned route_invalid : 1;
} ngx_http_pct_entry_t;

/* How many times a location's policy may send a request to another
 * location. */
#define NGX_HTTP_PCT_MAX_REROUTES 8

/* Per (main) request. */
typedef struct {
    /* What the policies normalize: the target as sent, or the path a
     * location's policy sent the request on with; and the $uri it stands
     * for (nginx's parse, or the module's route). */
    ngx_str_t raw;
    ngx_str_t parsed_raw;    /* $uri as nginx parses raw */
    ngx_str_t routed;        /* the $uri that raw stands for */
    uint32_t handed_changes; /* what made raw of the target as sent */
    ngx_http_pct_entry_t last;
    ngx_uint_t reroutes;
    ngx_str_t rerouted[NGX_HTTP_PCT_MAX_REROUTES]; /* the $uri of each */
} ngx_http_pct_ctx_t;

typedef struct {
    /* $pct_path or $pct_path_report is read somewhere: where pct_path is
     * not set, the check is on. */
    ngx_flag_t variables_read;
} ngx_http_pct_main_conf_t;

/* '?' and '#': where a target's path ends. Set once at configuration. */
static pct_set ngx_http_pct_query;

static ngx_int_t ngx_http_pct_add_variables(ngx_conf_t *cf);
static ngx_int_t ngx_http_pct_init(ngx_conf_t *cf);
static void *ngx_http_pct_create_main_conf(ngx_conf_t *cf);
static void *ngx_http_pct_create_loc_conf(ngx_conf_t *cf);
static char *ngx_http_pct_merge_loc_conf(ngx_conf_t *cf, void *parent, void *child);
static char *ngx_http_pct_set_policy(ngx_conf_t *cf, ngx_command_t *cmd, void *conf);
static char *ngx_http_pct_set_action(ngx_conf_t *cf, ngx_command_t *cmd, void *conf);
static char *ngx_http_pct_set_dot_params(ngx_conf_t *cf, ngx_command_t *cmd, void *conf);
static char *ngx_http_pct_set_status(ngx_conf_t *cf, ngx_command_t *cmd, void *conf);

#define NGX_HTTP_PCT_CONF (NGX_HTTP_MAIN_CONF | NGX_HTTP_SRV_CONF | NGX_HTTP_LOC_CONF)
#define NGX_HTTP_PCT_ACTION(name, cls)                                                             \
    {                                                                                              \
        ngx_string(name), NGX_HTTP_PCT_CONF | NGX_CONF_TAKE1, ngx_http_pct_set_action,             \
            NGX_HTTP_LOC_CONF_OFFSET, (cls), NULL                                                  \
    }

static ngx_command_t ngx_http_pct_commands[] = {
    {ngx_string("pct_path"), NGX_HTTP_PCT_CONF | NGX_CONF_FLAG, ngx_conf_set_flag_slot,
     NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_pct_loc_conf_t, enable), NULL},
    {ngx_string("pct_path_policy"), NGX_HTTP_PCT_CONF | NGX_CONF_TAKE1, ngx_http_pct_set_policy,
     NGX_HTTP_LOC_CONF_OFFSET, 0, NULL},
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
    {ngx_string("pct_path_dot_params"), NGX_HTTP_PCT_CONF | NGX_CONF_TAKE1,
     ngx_http_pct_set_dot_params, NGX_HTTP_LOC_CONF_OFFSET, 0, NULL},
    {ngx_string("pct_path_reject_changed"), NGX_HTTP_PCT_CONF | NGX_CONF_FLAG,
     ngx_conf_set_flag_slot, NGX_HTTP_LOC_CONF_OFFSET,
     offsetof(ngx_http_pct_loc_conf_t, reject_changed), NULL},
    {ngx_string("pct_path_reject_status"), NGX_HTTP_PCT_CONF | NGX_CONF_TAKE1,
     ngx_http_pct_set_status, NGX_HTTP_LOC_CONF_OFFSET, 0, NULL},
    ngx_null_command};

static ngx_http_module_t ngx_http_pct_module_ctx = {
    ngx_http_pct_add_variables,    /* preconfiguration */
    ngx_http_pct_init,             /* postconfiguration */
    ngx_http_pct_create_main_conf, /* create main configuration */
    NULL,                          /* init main configuration */
    NULL,                          /* create server configuration */
    NULL,                          /* merge server configuration */
    ngx_http_pct_create_loc_conf,  /* create location configuration */
    ngx_http_pct_merge_loc_conf    /* merge location configuration */
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

/* ---- Configuration ------------------------------------------------------- */

static void *ngx_http_pct_create_main_conf(ngx_conf_t *cf)
{
    return ngx_pcalloc(cf->pool, sizeof(ngx_http_pct_main_conf_t));
}

static void *ngx_http_pct_create_loc_conf(ngx_conf_t *cf)
{
    ngx_http_pct_loc_conf_t *conf = ngx_pcalloc(cf->pool, sizeof(ngx_http_pct_loc_conf_t));
    if (conf == NULL)
        return NULL;
    conf->enable = NGX_CONF_UNSET;
    ngx_memset(conf->actions, NGX_HTTP_PCT_UNSET_ACTION, sizeof conf->actions);
    conf->reject_above_root = NGX_CONF_UNSET;
    conf->dot_params = NGX_CONF_UNSET_UINT;
    conf->reject_changed = NGX_CONF_UNSET;
    conf->reject_status = NGX_CONF_UNSET_UINT;
    return conf;
}

/* Errors name the directive and the valid values; ngx_conf_log_error adds
 * the file and line of the directive. */
static char *ngx_http_pct_invalid(ngx_conf_t *cf, ngx_command_t *cmd, const char *why)
{
    ngx_str_t *value = cf->args->elts;
    ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "invalid value \"%V\" in \"%V\" directive, %s",
                       &value[1], &cmd->name, why);
    return NGX_CONF_ERROR;
}

/* The index of value[1] in names (NULL-terminated), or -1. */
static ngx_int_t ngx_http_pct_lookup(ngx_conf_t *cf, const char *const *names)
{
    ngx_str_t *value = cf->args->elts;
    for (ngx_int_t k = 0; names[k]; k++)
        if (value[1].len == ngx_strlen(names[k]) &&
            ngx_strncmp(value[1].data, names[k], value[1].len) == 0)
            return k;
    return -1;
}

static char *ngx_http_pct_set_policy(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    static const char *const names[] = {"default", "nginx",  "envoy", "apache",
                                        "traefik", "strict", NULL};
    ngx_http_pct_loc_conf_t *lc = conf;
    if (lc->policy_name.data)
        return "is duplicate";
    if (ngx_http_pct_lookup(cf, names) < 0)
        return ngx_http_pct_invalid(cf, cmd,
                                    "it must be default, nginx, envoy, apache, traefik or strict");
    lc->policy_name = ((ngx_str_t *)cf->args->elts)[1];
    return NGX_CONF_OK;
}

static char *ngx_http_pct_set_action(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    static const char *const names[] = {"keep", "decode", "reject", NULL};
    ngx_http_pct_loc_conf_t *lc = conf;
    const pct_path_class cls = (pct_path_class)cmd->offset;
    if (lc->actions[cls] != NGX_HTTP_PCT_UNSET_ACTION)
        return "is duplicate";
    const ngx_int_t action = ngx_http_pct_lookup(cf, names);
    if (action < 0)
        return ngx_http_pct_invalid(cf, cmd, "it must be keep, decode or reject");
    if (action == PCT_PATH_DECODE) {
        if (cls == PCT_PATH_CLASS_QUESTION || cls == PCT_PATH_CLASS_HASH)
            return ngx_http_pct_invalid(
                cf, cmd, "a decoded byte would end the path: it must be keep or reject");
        if (cls == PCT_PATH_CLASS_NUL || cls == PCT_PATH_CLASS_CONTROL)
            return ngx_http_pct_invalid(cf, cmd,
                                        "a decoded control byte could split the request "
                                        "forwarded: it must be keep or reject");
    }
    /* The library must agree (it refuses decoded controls too). */
    pct_path_policy_v2 probe;
    pct_path_policy_v2_init(&probe, NULL);
    if (pct_path_policy_v2_set(&probe, cls, (pct_path_action)action) != PCT_OK)
        return ngx_http_pct_invalid(cf, cmd, "the library refuses this action for this class");
    lc->actions[cls] = (u_char)action;
    return NGX_CONF_OK;
}

static char *ngx_http_pct_set_dot_params(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    static const char *const names[] = {"off", "on", "reject", NULL};
    ngx_http_pct_loc_conf_t *lc = conf;
    if (lc->dot_params != NGX_CONF_UNSET_UINT)
        return "is duplicate";
    const ngx_int_t k = ngx_http_pct_lookup(cf, names);
    if (k < 0)
        return ngx_http_pct_invalid(cf, cmd, "it must be off, on or reject");
    lc->dot_params = (ngx_uint_t)k;
    return NGX_CONF_OK;
}

static char *ngx_http_pct_set_status(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_pct_loc_conf_t *lc = conf;
    if (lc->reject_status != NGX_CONF_UNSET_UINT)
        return "is duplicate";
    ngx_str_t *value = cf->args->elts;
    const ngx_int_t n = ngx_atoi(value[1].data, value[1].len);
    if (n < 400 || n > 599)
        return ngx_http_pct_invalid(cf, cmd, "it must be a status from 400 to 599");
    lc->reject_status = (ngx_uint_t)n;
    return NGX_CONF_OK;
}

/* Every value was checked by its directive, so merging cannot fail on one. */
static char *ngx_http_pct_merge_loc_conf(ngx_conf_t *cf, void *parent, void *child)
{
    ngx_http_pct_loc_conf_t *prev = parent, *conf = child;

    ngx_conf_merge_value(conf->enable, prev->enable, NGX_CONF_UNSET); /* unset: see is_on */
    ngx_conf_merge_str_value(conf->policy_name, prev->policy_name, "default");
    for (ngx_uint_t c = 0; c < PCT_PATH_CLASSES; c++)
        if (conf->actions[c] == NGX_HTTP_PCT_UNSET_ACTION)
            conf->actions[c] = prev->actions[c];
    ngx_conf_merge_value(conf->reject_above_root, prev->reject_above_root, NGX_CONF_UNSET);
    ngx_conf_merge_uint_value(conf->dot_params, prev->dot_params, NGX_CONF_UNSET_UINT);
    ngx_conf_merge_value(conf->reject_changed, prev->reject_changed, NGX_CONF_UNSET);
    ngx_conf_merge_uint_value(conf->reject_status, prev->reject_status, NGX_HTTP_BAD_REQUEST);

    /* The preset, then what this level or one above it changed. */
    pct_path_policy_v2 policy;
    char name[16];
    ngx_cpystrn((u_char *)name, conf->policy_name.data,
                ngx_min(conf->policy_name.len + 1, sizeof name));
    pct_path_policy_v2_init(&policy, name);
    /* Controls first: pct_path_encoded_control covers %00 unless
     * pct_path_encoded_nul says otherwise. */
    if (conf->actions[PCT_PATH_CLASS_CONTROL] != NGX_HTTP_PCT_UNSET_ACTION)
        pct_path_policy_v2_set(&policy, PCT_PATH_CLASS_NUL,
                               (pct_path_action)conf->actions[PCT_PATH_CLASS_CONTROL]);
    for (ngx_uint_t k = 0; k < PCT_PATH_CLASSES; k++) {
        const ngx_uint_t c = (k + PCT_PATH_CLASS_CONTROL) % PCT_PATH_CLASSES;
        if (conf->actions[c] != NGX_HTTP_PCT_UNSET_ACTION)
            pct_path_policy_v2_set(&policy, (pct_path_class)c, (pct_path_action)conf->actions[c]);
    }
    if (conf->reject_above_root == 1)
        policy.options |= PCT_PATH_REJECT_ABOVE_ROOT;
    else if (conf->reject_above_root == 0)
        policy.options &= ~(uint32_t)PCT_PATH_REJECT_ABOVE_ROOT;
    if (conf->dot_params != NGX_CONF_UNSET_UINT) {
        policy.options &= ~(uint32_t)(PCT_PATH_DOT_PARAMS | PCT_PATH_REJECT_DOT_PARAMS);
        if (conf->dot_params == 1)
            policy.options |= PCT_PATH_DOT_PARAMS;
        else if (conf->dot_params == 2)
            policy.options |= PCT_PATH_REJECT_DOT_PARAMS;
    }
    if (conf->reject_changed == 1)
        policy.options |= PCT_PATH_REJECT_CHANGED;
    else if (conf->reject_changed == 0)
        policy.options &= ~(uint32_t)PCT_PATH_REJECT_CHANGED;

    if (prev->policy && ngx_memcmp(prev->policy, &policy, sizeof policy) == 0) {
        conf->policy = prev->policy;
        return NGX_CONF_OK;
    }
    conf->policy = ngx_palloc(cf->pool, sizeof policy);
    if (conf->policy == NULL)
        return NGX_CONF_ERROR;
    *conf->policy = policy;
    return NGX_CONF_OK;
}

/* ---- Normalizing and routing --------------------------------------------- */

/* The changes after which nginx parses the normalized path exactly as the raw
 * one: nginx decodes every escape, so a decoded unreserved byte or the case
 * of a hex digit cannot move the request. Anything else (dots, slashes, '\',
 * DECODE actions) is parsed again. */
#define NGX_HTTP_PCT_SAME_ROUTE                                                                    \
    (PCT_PATH_DID_DECODE_UNRESERVED | PCT_PATH_DID_UPPERCASE_HEX | PCT_PATH_DID_SEE_PARAMS)

/* The $uri nginx would route path on: its own request-line parser (decoding,
 * dot segments, merge_slashes) run on a copy. NGX_DECLINED if nginx would
 * refuse the path (400). */
static ngx_int_t ngx_http_pct_parse_route(ngx_http_request_t *r, const ngx_str_t *path,
                                          ngx_str_t *route)
{
    ngx_http_core_srv_conf_t *cscf = ngx_http_get_module_srv_conf(r, ngx_http_core_module);
    /* The parser reads one byte past the end (in a request, the line feed). */
    u_char *in = ngx_pnalloc(r->pool, path->len + 1);
    u_char *out = ngx_pnalloc(r->pool, path->len + 1);
    if (in == NULL || out == NULL)
        return NGX_ERROR;
    ngx_memcpy(in, path->data, path->len);
    in[path->len] = LF;

    /* The parser works on the request's fields: save them, parse, restore. */
    u_char *uri_start = r->uri_start, *uri_end = r->uri_end, *args_start = r->args_start;
    u_char *uri_ext = r->uri_ext;
    ngx_str_t uri = r->uri, exten = r->exten, args = r->args;
    const unsigned quoted = r->quoted_uri, plus = r->plus_in_uri, empty = r->empty_path_in_uri;

    r->uri_start = in;
    r->uri_end = in + path->len;
    r->uri.data = out;
    r->empty_path_in_uri = 0;
    const ngx_int_t rc = ngx_http_parse_complex_uri(r, cscf->merge_slashes);
    route->data = out;
    route->len = r->uri.len;

    r->uri_start = uri_start;
    r->uri_end = uri_end;
    r->args_start = args_start;
    r->uri_ext = uri_ext;
    r->uri = uri;
    r->exten = exten;
    r->args = args;
    r->quoted_uri = quoted;
    r->plus_in_uri = plus;
    r->empty_path_in_uri = empty;
    return rc == NGX_OK ? NGX_OK : NGX_DECLINED;
}

/* $uri escaped as proxy_pass forwards it (without a copy when nothing
 * needs escaping): what a policy normalizes once configuration changed $uri,
 * and $pct_path where no policy is in force. */
static ngx_int_t ngx_http_pct_escaped_uri(ngx_http_request_t *r, ngx_str_t *out)
{
    const uintptr_t n = ngx_escape_uri(NULL, r->uri.data, r->uri.len, NGX_ESCAPE_URI);
    out->data = n ? ngx_pnalloc(r->pool, r->uri.len + 2 * n) : r->uri.data;
    if (out->data == NULL)
        return NGX_ERROR;
    if (n)
        ngx_escape_uri(out->data, r->uri.data, r->uri.len, NGX_ESCAPE_URI);
    out->len = r->uri.len + 2 * n;
    return NGX_OK;
}

static ngx_http_pct_ctx_t *ngx_http_pct_ctx(ngx_http_request_t *r)
{
    ngx_http_pct_ctx_t *ctx = ngx_http_get_module_ctx(r, ngx_http_pct_module);
    if (ctx != NULL)
        return ctx;
    ctx = ngx_pcalloc(r->pool, sizeof(ngx_http_pct_ctx_t));
    if (ctx == NULL)
        return NULL;
    /* A rewrite or an internal redirect sets internal and clears
     * valid_unparsed_uri: the raw target no longer says where nginx routes. */
    if (!r->internal && r->valid_unparsed_uri) {
        ctx->raw = r->unparsed_uri;
        ctx->parsed_raw = r->uri;
        ctx->routed = r->uri;
    }
    ngx_http_set_ctx(r, ctx, ngx_http_pct_module);
    return ctx;
}

/* The normalization of the request's path under policy: the raw target
 * while $uri is the one it stands for, else $uri escaped as proxy_pass
 * forwards it. Computed once per (policy, source). */
static ngx_http_pct_entry_t *ngx_http_pct_normalize(ngx_http_request_t *r,
                                                    const pct_path_policy_v2 *policy)
{
    ngx_http_pct_ctx_t *ctx = ngx_http_pct_ctx(r);
    if (ctx == NULL)
        return NULL;
    const int from_raw =
        ctx->raw.data != NULL && r->uri.data == ctx->routed.data && r->uri.len == ctx->routed.len;
    const u_char *source_id = from_raw ? ctx->raw.data : r->uri.data;
    ngx_http_pct_entry_t *e = &ctx->last;
    if (e->policy == policy && e->source == source_id)
        return e;

    ngx_str_t source = ctx->raw;
    if (!from_raw && ngx_http_pct_escaped_uri(r, &source) != NGX_OK)
        return NULL;
    ngx_memzero(e, sizeof *e);
    u_char *out = ngx_pnalloc(r->pool, source.len + 1);
    if (out == NULL)
        return NULL;
    pct_path_report what;
    e->result =
        pct_normalize_path_v2((const char *)source.data, source.len, (char *)out, policy, &what);
    /* From a path a location's policy handed on: what that policy changed
     * counts as changed here too. */
    const uint32_t changes = what.changes | (from_raw ? ctx->handed_changes : 0);
    if (e->result.status == PCT_OK && (policy->options & PCT_PATH_REJECT_CHANGED) &&
        (changes & ~(uint32_t)PCT_PATH_DID_SEE_PARAMS)) {
        e->result.status = PCT_REJECTED_PATH;
        e->result.count = 0;
    }
    e->changes = what.changes;
    if (e->result.status == PCT_OK) {
        /* The output is the normalized path, then the source from its first
         * '?' or '#' on, as it is. */
        const size_t end = pct_find((const char *)source.data, source.len, &ngx_http_pct_query);
        e->path.data = out;
        e->path.len = e->result.count - (source.len - end);
        if (changes == 0) {
            ngx_str_set(&e->report, "-");
        } else {
            const size_t size = pct_path_report_format(changes, NULL, 0) + 1;
            e->report.data = ngx_pnalloc(r->pool, size);
            if (e->report.data == NULL)
                return NULL;
            e->report.len = pct_path_report_format(changes, (char *)e->report.data, size);
        }
        if (from_raw && (what.changes & ~(uint32_t)NGX_HTTP_PCT_SAME_ROUTE) == 0) {
            e->route = ctx->parsed_raw;
        } else {
            const ngx_int_t rc = ngx_http_pct_parse_route(r, &e->path, &e->route);
            if (rc == NGX_ERROR)
                return NULL;
            e->route_invalid = rc != NGX_OK;
        }
    }
    e->policy = policy;
    e->source = source_id;
    e->from_raw = from_raw;
    return e;
}

static int ngx_http_pct_same(const ngx_str_t *a, const ngx_str_t *b)
{
    return a->len == b->len && (a->data == b->data || ngx_memcmp(a->data, b->data, a->len) == 0);
}

/* Whether the check runs where conf is in force. */
static int ngx_http_pct_is_on(ngx_http_request_t *r, const ngx_http_pct_loc_conf_t *conf)
{
    if (conf->enable != NGX_CONF_UNSET)
        return conf->enable == 1;
    const ngx_http_pct_main_conf_t *mcf = ngx_http_get_module_main_conf(r, ngx_http_pct_module);
    return mcf->variables_read != 0;
}

/* The reject status for e if the policy or nginx refuses it, else 0. */
static ngx_int_t ngx_http_pct_refused(ngx_http_request_t *r, const ngx_http_pct_loc_conf_t *conf,
                                      const ngx_http_pct_entry_t *e)
{
    if (e->result.status != PCT_OK) {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "pct_path: request path rejected: %s at byte %uz",
                      pct_status_string(e->result.status), e->result.count);
        return (ngx_int_t)conf->reject_status;
    }
    if (e->route_invalid) {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "pct_path: request path rejected: nginx refuses the normalized path \"%V\"",
                      &e->path);
        return (ngx_int_t)conf->reject_status;
    }
    return 0;
}

/* A $uri that configuration set (`rewrite`, `error_page`, `try_files`, a
 * named location) is not routed again: if its normalization would route
 * elsewhere, the request is refused. */
static ngx_int_t ngx_http_pct_refuse_configured(ngx_http_request_t *r,
                                                const ngx_http_pct_loc_conf_t *conf,
                                                const ngx_http_pct_entry_t *e)
{
    ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                  "pct_path: request path rejected: $uri \"%V\", set by the configuration, "
                  "is normalized to \"%V\", routed as \"%V\"",
                  &r->uri, &e->path, &e->route);
    return (ngx_int_t)conf->reject_status;
}

/* The check of both phases, with the policy in force where r is: the
 * status to answer, NGX_DECLINED to go on, or NGX_AGAIN when the normalized
 * path (*entry) routes elsewhere than $uri. */
static ngx_int_t ngx_http_pct_check(ngx_http_request_t *r, ngx_http_pct_entry_t **entry)
{
    ngx_http_pct_loc_conf_t *conf = ngx_http_get_module_loc_conf(r, ngx_http_pct_module);
    if (r != r->main || !ngx_http_pct_is_on(r, conf))
        return NGX_DECLINED;
    ngx_http_pct_entry_t *e = ngx_http_pct_normalize(r, conf->policy);
    if (e == NULL)
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    const ngx_int_t refused = ngx_http_pct_refused(r, conf, e);
    if (refused)
        return refused;
    if (ngx_http_pct_same(&e->route, &r->uri))
        return NGX_DECLINED;
    if (r->internal)
        return ngx_http_pct_refuse_configured(r, conf, e);
    *entry = e;
    return NGX_AGAIN;
}

/* Routes r on route. Like a rewrite, a plain proxy_pass then forwards $uri
 * escaped, not the raw target; unlike one, internal locations stay closed. */
static void ngx_http_pct_set_uri(ngx_http_request_t *r, const ngx_str_t *route)
{
    r->uri = *route;
    r->valid_unparsed_uri = 0;
    r->quoted_uri = 1;
    ngx_http_set_exten(r);
}

/* Server rewrite phase: the server's policy, and the location found on
 * what it forwards. */
static ngx_int_t ngx_http_pct_server_handler(ngx_http_request_t *r)
{
    ngx_http_pct_entry_t *e = NULL;
    const ngx_int_t rc = ngx_http_pct_check(r, &e);
    if (rc != NGX_AGAIN)
        return rc;
    /* Locations still check the raw target (or the old $uri) with their
     * policies: the entry stands for the new $uri. */
    ngx_http_pct_ctx_t *ctx = ngx_http_get_module_ctx(r, ngx_http_pct_module);
    ngx_http_pct_set_uri(r, &e->route);
    if (e->from_raw)
        ctx->routed = r->uri;
    else
        e->source = r->uri.data;
    return NGX_DECLINED;
}

/* Rewrite phase: the location's policy; if nginx routes what it forwards
 * elsewhere, the location found there. */
static ngx_int_t ngx_http_pct_location_handler(ngx_http_request_t *r)
{
    ngx_http_pct_entry_t *e = NULL;
    const ngx_int_t rc = ngx_http_pct_check(r, &e);
    if (rc != NGX_AGAIN)
        return rc;

    /* Find the location again, as nginx does after `rewrite ... last`,
     * handing on the path this policy forwards: the location found checks
     * that path with its own policy. Bounded: policies of locations that
     * send the request to each other end in the reject status. */
    ngx_http_pct_loc_conf_t *conf = ngx_http_get_module_loc_conf(r, ngx_http_pct_module);
    ngx_http_pct_ctx_t *ctx = ngx_http_get_module_ctx(r, ngx_http_pct_module);
    ngx_http_core_main_conf_t *cmcf = ngx_http_get_module_main_conf(r, ngx_http_core_module);
    /* The find-config phase comes right before the rewrite phase's
     * handlers, whose checker steps to the next handler on NGX_DECLINED. */
    const ngx_uint_t find_config = cmcf->phase_engine.location_rewrite_index - 1;
    int cycle = ctx->reroutes == NGX_HTTP_PCT_MAX_REROUTES ||
                cmcf->phase_engine.handlers[find_config].checker != ngx_http_core_find_config_phase;
    for (ngx_uint_t k = 0; k < ctx->reroutes && !cycle; k++)
        cycle = ngx_http_pct_same(&ctx->rerouted[k], &e->route);
    if (cycle || --r->uri_changes == 0) {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "pct_path: request path rejected: \"%V\" is routed as \"%V\", where "
                      "the policies of the locations found route it in a cycle",
                      &e->path, &e->route);
        return (ngx_int_t)conf->reject_status;
    }
    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "pct_path: \"%V\" is routed as \"%V\": finding the location again", &e->path,
                   &e->route);
    ctx->rerouted[ctx->reroutes++] = e->route;
    ngx_http_pct_set_uri(r, &e->route);
    ctx->raw = e->path;
    ctx->handed_changes |= e->changes;
    ctx->parsed_raw = e->route;
    ctx->routed = e->route;
    e->policy = NULL; /* its source is no longer raw */
    ngx_http_core_srv_conf_t *cscf = ngx_http_get_module_srv_conf(r, ngx_http_core_module);
    r->loc_conf = cscf->ctx->loc_conf;
    r->phase_handler = find_config - 1;
    return NGX_DECLINED;
}

static ngx_int_t ngx_http_pct_variable(ngx_http_request_t *r, ngx_http_variable_value_t *v,
                                       uintptr_t data)
{
    /* A subrequest (auth_request, SSI) sees what the main request forwards. */
    ngx_http_request_t *m = r->main;
    ngx_http_pct_loc_conf_t *conf = ngx_http_get_module_loc_conf(m, ngx_http_pct_module);
    ngx_str_t value;
    ngx_http_pct_entry_t *e = NULL;
    if (ngx_http_pct_is_on(m, conf)) {
        e = ngx_http_pct_normalize(m, conf->policy);
        if (e == NULL)
            return NGX_ERROR;
        /* Refused only if configuration changed $uri after the checks (a
         * location's `rewrite ... break`): then no normalized path stands
         * for it, and $uri is what nginx routes on. */
        if (e->result.status != PCT_OK || e->route_invalid ||
            !ngx_http_pct_same(&e->route, &m->uri)) {
            ngx_log_error(NGX_LOG_INFO, m->connection->log, 0,
                          "pct_path: $uri \"%V\" changed by the configuration has no normalized "
                          "path: $pct_path is $uri",
                          &m->uri);
            e = NULL;
        }
    }
    if (e != NULL) {
        value = data ? e->report : e->path;
    } else if (data) {
        ngx_str_set(&value, "off");
    } else if (ngx_http_pct_escaped_uri(m, &value) != NGX_OK) {
        return NGX_ERROR;
    }
    v->data = value.data;
    v->len = value.len;
    v->valid = 1;
    v->no_cacheable = 0;
    v->not_found = 0;
    return NGX_OK;
}

static ngx_int_t ngx_http_pct_add_variables(ngx_conf_t *cf)
{
    ngx_memzero(&ngx_http_pct_query, sizeof ngx_http_pct_query);
    pct_set_add_chars(&ngx_http_pct_query, "?#");
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

/* A dynamic module registers after the built-in ones, and nginx runs the
 * handlers of a phase last-registered first: both checks run first in their
 * phase. */
static ngx_int_t ngx_http_pct_init(ngx_conf_t *cf)
{
    ngx_http_core_main_conf_t *cmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_core_module);
    ngx_http_pct_main_conf_t *mcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_pct_module);
    /* The variables the configuration reads were indexed while it was
     * parsed. */
    ngx_http_variable_t *indexed = cmcf->variables.elts;
    for (ngx_uint_t k = 0; k < cmcf->variables.nelts; k++)
        if ((indexed[k].name.len == 8 && ngx_strncmp(indexed[k].name.data, "pct_path", 8) == 0) ||
            (indexed[k].name.len == 15 &&
             ngx_strncmp(indexed[k].name.data, "pct_path_report", 15) == 0))
            mcf->variables_read = 1;

    ngx_http_handler_pt *h = ngx_array_push(&cmcf->phases[NGX_HTTP_SERVER_REWRITE_PHASE].handlers);
    if (h == NULL)
        return NGX_ERROR;
    *h = ngx_http_pct_server_handler;
    h = ngx_array_push(&cmcf->phases[NGX_HTTP_REWRITE_PHASE].handlers);
    if (h == NULL)
        return NGX_ERROR;
    *h = ngx_http_pct_location_handler;
    return NGX_OK;
}
