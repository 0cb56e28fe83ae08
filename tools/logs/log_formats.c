/* log_formats.c - the formats known by name, most of them templates (see
 * fmt_template.h), and the order in which a line's format is looked for.
 * Field names are shared across formats (remote, time, method, path, query,
 * status, bytes, referer, agent) so --fields and JSON keys mean the same
 * thing whatever the log. */
#include <string.h>

#include "fmt_json.h"
#include "fmt_template.h"
#include "log_formats.h"

struct format_def {
    const char *name;
    const char *alias;
    const char *text; /* template; NULL: a parser of its own */
    enum template_syntax syntax;
    int syslog; /* may start with a syslog prefix */
    int layers; /* CloudFront encodes every field once more */
};

/* clang-format off */
static const struct format_def defs[LF_COUNT] = {
    [LF_COMBINED] = {"combined", "nginx",
        "$remote_addr ${ident} $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
        "\"$http_referer\" \"$http_user_agent\"", SYNTAX_NGINX, 0, 0},
    [LF_COMMON] = {"common", "clf",
        "$remote_addr ${ident} $remote_user [$time_local] \"$request\" $status $body_bytes_sent",
        SYNTAX_NGINX, 0, 0},
    [LF_W3C] = {"w3c", "iis", NULL, SYNTAX_NGINX, 0, 0},
    [LF_CLOUDFRONT] = {"cloudfront", NULL,
        "${date:T}\t${time:T}\t${edge_location}\t${bytes:n}\t${remote}\t${method}\t${host}\t"
        "${path:p}\t${status:n}\t${referer:R}\t${agent}\t${query:q}\t${cookie}\t"
        "${edge_result_type}\t${edge_request_id}\t${host_header}\t${scheme}\t"
        "${bytes_received:n}\t${time_taken:n}\t${forwarded_for:l}\t${ssl_protocol}\t"
        "${ssl_cipher}\t${edge_response_result_type}\t${protocol}\t${fle_status}\t"
        "${fle_encrypted_fields}\t${remote_port:n}\t${time_to_first_byte:n}\t"
        "${edge_detailed_result_type}\t${content_type}\t${content_length:n}\t${range_start:n}\t"
        "${range_end:n}", SYNTAX_NGINX, 0, 1},
    [LF_VHOST_COMBINED] = {"vhost_combined", "vhost",
        "%v:%p %h %l %u %t \"%r\" %>s %O \"%{Referer}i\" \"%{User-Agent}i\"", SYNTAX_APACHE, 0, 0},
    [LF_XFF_COMBINED] = {"xff_combined", "xff",
        "${remote:l} ${ident} $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
        "\"$http_referer\" \"$http_user_agent\"", SYNTAX_NGINX, 0, 0},
    [LF_ENVOY] = {"envoy", NULL,
        "[${time:T}] \"${method} ${url:u} ${protocol}\" ${status:n} ${response_flags} "
        "${bytes_received:n} ${bytes:n} ${duration:n} ${upstream_service_time:n} "
        "\"${forwarded_for:l}\" \"${agent}\" \"${request_id}\" \"${authority}\" \"${upstream_host}\"",
        SYNTAX_NGINX, 0, 0},
    [LF_HAPROXY] = {"haproxy", NULL,
        "${remote} [${time:T}] ${frontend} ${backend} ${timers} ${status:n} ${bytes:n} "
        "${request_cookie} ${response_cookie} ${termination_state} ${conns} ${queues} "
        "${captured_headers:l}\"$request\"", SYNTAX_NGINX, 1, 0},
    [LF_ALB] = {"alb", NULL,
        "${type} ${time:T} ${elb} ${remote} ${target} ${request_processing_time:n} "
        "${target_processing_time:n} ${response_processing_time:n} ${status:n} "
        "${target_status_code:n} ${bytes_received:n} ${bytes:n} \"$request\" \"${agent}\" "
        "${ssl_cipher} ${ssl_protocol} ${target_group_arn} \"${trace_id}\" \"${domain_name}\" "
        "\"${chosen_cert_arn}\" ${matched_rule_priority} ${request_creation_time:T} "
        "\"${actions_executed}\" \"${redirect_url}\" \"${error_reason}\" \"${target_list}\" "
        "\"${target_status_code_list}\" \"${classification}\" \"${classification_reason}\"",
        SYNTAX_NGINX, 0, 0},
    [LF_ELB] = {"elb", NULL,
        "${time:T} ${elb} ${remote} ${backend} ${request_processing_time:n} "
        "${backend_processing_time:n} ${response_processing_time:n} ${status:n} "
        "${backend_status_code:n} ${bytes_received:n} ${bytes:n} \"$request\" \"${agent}\" "
        "${ssl_cipher} ${ssl_protocol}", SYNTAX_NGINX, 0, 0},
    [LF_SQUID] = {"squid", NULL,
        "${time:T} ${duration:n} ${remote} ${cache_result}/${status:n} ${bytes:n} ${method} ${url:u} ${user} "
        "${hierarchy} ${content_type}", SYNTAX_NGINX, 0, 0},
    [LF_TRAEFIK] = {"traefik", NULL,
        "$remote_addr ${ident} $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
        "\"$http_referer\" \"$http_user_agent\" ${request_count:n} \"${router}\" "
        "\"${server_url}\" ${duration}", SYNTAX_NGINX, 0, 0},
    [LF_JSON] = {"json", "caddy", NULL, SYNTAX_NGINX, 0, 0},
    [LF_CUSTOM] = {"custom", NULL, NULL, SYNTAX_NGINX, 0, 0},
};
/* clang-format on */

/* Auto: the order formats are tried in (after the combined/common fast
 * path, or for every line in TSV/CSV): combined before the formats that
 * would take its lines too (X-Forwarded-For), Squid's ten bare fields last. */
static const int detect_order[] = {
    LF_COMBINED, LF_COMMON, LF_VHOST_COMBINED, LF_XFF_COMBINED, LF_ENVOY, LF_HAPROXY,
    LF_ALB,      LF_ELB,    LF_CLOUDFRONT,     LF_JSON,         LF_SQUID};

const char *log_formats_init(struct log_templates *ft, const char *custom)
{
    struct log_template *templates = ft->t;
    ft->have_custom = 0;
    for (int i = 0; i < LF_COUNT; i++) {
        if (defs[i].text == NULL)
            continue;
        if (template_compile(&templates[i], defs[i].text, defs[i].syntax) != NULL)
            return "internal error: a built-in format does not compile";
        templates[i].syslog = defs[i].syslog;
        for (int k = 0; k < templates[i].count; k++)
            templates[i].item[k].layers = (unsigned char)defs[i].layers;
        if (defs[i].layers)
            for (int k = 0; k < templates[i].count; k++)
                templates[i].item[k].quote = FQ_TAB;
    }
    if (custom == NULL)
        return NULL;
    ft->have_custom = 1;
    return template_compile(&templates[LF_CUSTOM], custom, template_guess_syntax(custom));
}

const char *log_format_name(int id)
{
    return id >= 0 && id < LF_COUNT ? defs[id].name : "unparsed";
}

int log_format_by_name(const char *name)
{
    for (int i = 0; i < LF_COUNT; i++)
        if (i != LF_CUSTOM && (strcmp(defs[i].name, name) == 0 ||
                               (defs[i].alias != NULL && strcmp(defs[i].alias, name) == 0)))
            return i;
    return -1;
}

int record_parse(const struct log_templates *ft, int id, const char *s, size_t n,
                 struct log_record *r, const struct log_config *cfg)
{
    r->n = 0;
    r->names_len = 0;
    r->format = id;
    if (id == LF_JSON)
        return json_line_parse(s, n, r, cfg->json_key);
    if (id == LF_CUSTOM && !ft->have_custom)
        return 0;
    if (defs[id].text == NULL && id != LF_CUSTOM)
        return 0;
    return template_match(&ft->t[id], s, n, r);
}

int record_detect(const struct log_templates *ft, int *last_plus1, const char *s, size_t n,
                  struct log_record *r, const struct log_config *cfg)
{
    /* Lines of one file: one format, tried first. Not common and
     * xff_combined: they take combined lines too, which must stay combined. */
    int last = *last_plus1 - 1;
    if (last >= 0 && record_parse(ft, last, s, n, r, cfg))
        return 1;
    for (size_t i = 0; i < sizeof detect_order / sizeof *detect_order; i++) {
        int id = detect_order[i];
        if (id != last && record_parse(ft, id, s, n, r, cfg)) {
            *last_plus1 = id == LF_COMMON || id == LF_XFF_COMBINED ? 0 : id + 1;
            return 1;
        }
    }
    return 0;
}

static const struct {
    const char *w3c, *name;
    int kind;
} w3c_names[] = {
    {"date", "date", K_TIME},
    {"time", "time", K_TIME},
    {"c-ip", "remote", K_TEXT},
    {"cs-username", "user", K_TEXT},
    {"cs-method", "method", K_TEXT},
    {"cs-uri-stem", "path", K_PATH},
    {"cs-uri-query", "query", K_QUERY},
    {"sc-status", "status", K_NUMBER},
    {"sc-bytes", "bytes", K_NUMBER},
    {"cs-bytes", "bytes_received", K_NUMBER},
    {"time-taken", "time_taken", K_NUMBER},
    {"cs(Referer)", "referer", K_REFERER},
    {"cs(User-Agent)", "agent", K_TEXT},
    {"cs(Cookie)", "cookie", K_TEXT},
    {"cs(Host)", "host", K_TEXT},
    {"cs-host", "host", K_TEXT},
    {"s-ip", "server_ip", K_TEXT},
    {"s-port", "port", K_NUMBER},
    {"c-port", "remote_port", K_NUMBER},
    {"cs-protocol", "scheme", K_TEXT},
    {"cs-protocol-version", "protocol", K_TEXT},
    {"cs-version", "protocol", K_TEXT},
    {"x-edge-location", "edge_location", K_TEXT},
    {"x-forwarded-for", "forwarded_for", K_LIST},
    {"sc-substatus", "substatus", K_NUMBER},
    {"sc-win32-status", "win32_status", K_NUMBER},
};

const char *w3c_field_name(const char *w3c, int *kind)
{
    for (size_t i = 0; i < sizeof w3c_names / sizeof *w3c_names; i++)
        if (strcmp(w3c_names[i].w3c, w3c) == 0) {
            *kind = w3c_names[i].kind;
            return w3c_names[i].name;
        }
    *kind = K_TEXT;
    return w3c;
}
