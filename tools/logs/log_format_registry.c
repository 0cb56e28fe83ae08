/* log_format_registry.c - the table of formats (see log_format_registry.h)
 * and the lists made from it. Field names are shared across formats
 * (remote, time, method, path, query, status, bytes, referer, agent) so
 * --fields and JSON keys mean the same thing whatever the log. */
#include <string.h>

#include "log_format_registry.h"

#define ACCESS_HEAD "$remote_addr ${ident} $remote_user [$time_local] \"$request\" $status "
#define COMBINED ACCESS_HEAD "$body_bytes_sent \"$http_referer\" \"$http_user_agent\""
#define HAPROXY_HTTP                                                                               \
    "%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq " \
    "%hr %hs %{+Q}r"

/* clang-format off */
static const struct log_format_def registry[LF_COUNT] = {
    [LF_COMBINED] = {"combined", "nginx",
        "Apache/nginx combined log format; trailing fields kept",
        LOG_PARSER_ACCESS, LOG_DETECT_LINE, 1, 0, LOG_ESC_BACKSLASH, COMBINED, NULL},
    [LF_COMMON] = {"common", "clf",
        "Common Log Format (no referer, agent); trailing fields kept",
        LOG_PARSER_ACCESS, LOG_DETECT_LINE_NEW, 2, 0, LOG_ESC_BACKSLASH,
        ACCESS_HEAD "$body_bytes_sent", NULL},
    [LF_W3C] = {"w3c", "iis",
        "W3C extended (IIS): '#Fields:' headers, may change midway; %uXXXX decoded",
        LOG_PARSER_W3C, LOG_DETECT_HEADER, 0, 0, LOG_ESC_W3C, NULL,
        "the columns a '#Fields:' header names (c-ip is remote, cs-uri-stem path...)"},
    [LF_CLOUDFRONT] = {"cloudfront", NULL,
        "AWS CloudFront (tab-separated W3C): both encoding layers decoded, once each",
        LOG_PARSER_TEMPLATE, LOG_DETECT_LINE, 12, 0, LOG_ESC_PERCENT,
        "${date:T}\t${time:T}\t${edge_location}\t${bytes:n}\t${remote}\t${method}\t${host}\t"
        "${path:p}\t${status:n}\t${referer:R}\t${agent}\t${query:q}\t${cookie}\t"
        "${edge_result_type}\t${edge_request_id}\t${host_header}\t${scheme}\t"
        "${bytes_received:n}\t${time_taken:n}\t${forwarded_for:l}\t${ssl_protocol}\t"
        "${ssl_cipher}\t${edge_response_result_type}\t${protocol}\t${fle_status}\t"
        "${fle_encrypted_fields}\t${remote_port:n}\t${time_to_first_byte:n}\t"
        "${edge_detailed_result_type}\t${content_type}\t${content_length:n}\t${range_start:n}\t"
        "${range_end:n}", NULL},
    [LF_VHOST_COMBINED] = {"vhost_combined", "vhost",
        "Apache vhost_combined: host:port, then a combined line",
        LOG_PARSER_TEMPLATE, LOG_DETECT_LINE, 3, 0, LOG_ESC_BACKSLASH,
        "${vhost}:${port:n} " COMBINED, NULL},
    [LF_XFF_COMBINED] = {"xff_combined", "xff",
        "combined with a leading X-Forwarded-For list",
        LOG_PARSER_TEMPLATE, LOG_DETECT_LINE_NEW, 4, 0, LOG_ESC_BACKSLASH,
        "${remote:l} ${ident} $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
        "\"$http_referer\" \"$http_user_agent\"", NULL},
    [LF_ENVOY] = {"envoy", NULL,
        "Envoy's default access log",
        LOG_PARSER_TEMPLATE, LOG_DETECT_LINE, 5, 0, LOG_ESC_BACKSLASH,
        "[${time:T}] \"${method} ${url:u} ${protocol}\" ${status:n} ${response_flags} "
        "${bytes_received:n} ${bytes:n} ${duration:n} ${upstream_service_time:n} "
        "\"${forwarded_for:l}\" \"${agent}\" \"${request_id}\" \"${authority}\" \"${upstream_host}\"",
        NULL},
    /* HAProxy 2.6's own formats, as its src/log.c spells them, with or
     * without a syslog prefix (RFC 3164, RFC 5424; none: stdout raw). Their
     * lines end with their last field (an httpslog line is no httplog line
     * with trailing fields), and a line cut inside its request is taken by
     * the first of them: httplog */
    [LF_HAPROXY] = {"haproxy", NULL,
        "HAProxy option httplog; captured headers, syslog prefix or none",
        LOG_PARSER_HAPROXY, LOG_DETECT_LINE, 6, 1, LOG_ESC_HAPROXY,
        HAPROXY_HTTP, NULL},
    [LF_HAPROXY_CLF] = {"haproxy_clf", NULL,
        "HAProxy option httplog clf, syslog prefix or none",
        LOG_PARSER_HAPROXY, LOG_DETECT_LINE, 9, 1, LOG_ESC_HAPROXY,
        "%{+Q}o %{-Q}ci - - [%trg] %r %ST %B \"\" \"\" %cp %ms %ft %b %s %TR %Tw %Tc %Tr %Ta "
        "%tsc %ac %fc %bc %sc %rc %sq %bq %CC %CS %hrl %hsl", NULL},
    [LF_HAPROXY_TCP] = {"haproxy_tcp", NULL,
        "HAProxy option tcplog, syslog prefix or none",
        LOG_PARSER_HAPROXY, LOG_DETECT_LINE, 8, 1, LOG_ESC_HAPROXY,
        "%ci:%cp [%t] %ft %b/%s %Tw/%Tc/%Tt %B %ts %ac/%fc/%bc/%sc/%rc %sq/%bq", NULL},
    [LF_HAPROXY_HTTPS] = {"haproxy_https", NULL,
        "HAProxy option httpslog: httplog and the TLS fields, syslog prefix or none",
        LOG_PARSER_HAPROXY, LOG_DETECT_LINE, 7, 1, LOG_ESC_HAPROXY,
        HAPROXY_HTTP " %[fc_err]/%[ssl_fc_err,hex]/%[ssl_c_err]/%[ssl_c_ca_err]/"
        "%[ssl_fc_is_resumed] %[ssl_fc_sni]/%sslv/%sslc", NULL},
    [LF_ALB] = {"alb", NULL,
        "AWS Application Load Balancer: absolute URLs, path and query decoded",
        LOG_PARSER_TEMPLATE, LOG_DETECT_LINE, 10, 0, LOG_ESC_BACKSLASH,
        "${type} ${time:T} ${elb} ${remote} ${target} ${request_processing_time:n} "
        "${target_processing_time:n} ${response_processing_time:n} ${status:n} "
        "${target_status_code:n} ${bytes_received:n} ${bytes:n} \"$request\" \"${agent}\" "
        "${ssl_cipher} ${ssl_protocol} ${target_group_arn} \"${trace_id}\" \"${domain_name}\" "
        "\"${chosen_cert_arn}\" ${matched_rule_priority} ${request_creation_time:T} "
        "\"${actions_executed}\" \"${redirect_url}\" \"${error_reason}\" \"${target_list}\" "
        "\"${target_status_code_list}\" \"${classification}\" \"${classification_reason}\"",
        NULL},
    [LF_ELB] = {"elb", NULL,
        "AWS Classic Load Balancer: absolute URLs, path and query decoded",
        LOG_PARSER_TEMPLATE, LOG_DETECT_LINE, 11, 0, LOG_ESC_BACKSLASH,
        "${time:T} ${elb} ${remote} ${backend} ${request_processing_time:n} "
        "${backend_processing_time:n} ${response_processing_time:n} ${status:n} "
        "${backend_status_code:n} ${bytes_received:n} ${bytes:n} \"$request\" \"${agent}\" "
        "${ssl_cipher} ${ssl_protocol}", NULL},
    [LF_SQUID] = {"squid", NULL,
        "Squid native access log",
        /* last: any ten bare fields could be Squid's */
        LOG_PARSER_TEMPLATE, LOG_DETECT_LINE, 14, 0, LOG_ESC_NONE,
        "${time:T} ${duration:n} ${remote} ${cache_result}/${status:n} ${bytes:n} ${method} "
        "${url:u} ${user} ${hierarchy} ${content_type}", NULL},
    /* Squid's built-in `combined` logformat: quotes and backslashes in its
     * quoted fields are written as they are, so a '"' inside one is data
     * when what follows it is not the rest of the line (fmt_template.c); the
     * line ends with %Ss:%Sh (TCP_MISS:HIER_DIRECT). A combined line ending
     * so is taken as this (fmt_access.h's line_ends_squid_tags). */
    [LF_SQUID_COMBINED] = {"squid_combined", NULL,
        "Squid's combined logformat: quotes, backslashes as written; %Ss:%Sh last",
        LOG_PARSER_TEMPLATE, LOG_DETECT_LINE, 15, 0, LOG_ESC_NONE,
        COMBINED " ${cache_result}:${hierarchy}", NULL},
    [LF_TRAEFIK] = {"traefik", NULL,
        "Traefik's common log format: combined and three fields more",
        /* not tried per line: combined takes its lines, as trailing fields */
        LOG_PARSER_TEMPLATE, LOG_DETECT_NAMED, 0, 0, LOG_ESC_BACKSLASH,
        COMBINED " ${request_count:n} \"${router}\" \"${server_url}\" ${duration}", NULL},
    [LF_JSON] = {"json", "caddy",
        "JSON lines (Caddy, Traefik, nginx escape=json): the URL at --json-key or a usual key",
        LOG_PARSER_JSON, LOG_DETECT_LINE, 13, 0, LOG_ESC_JSON, NULL,
        "every member, by its dotted key path (request.uri)"},
    [LF_CUSTOM] = {"custom", NULL,
        "--log-format STRING: an nginx log_format or Apache LogFormat string",
        LOG_PARSER_CUSTOM, LOG_DETECT_NAMED, 0, 0, LOG_ESC_BACKSLASH, NULL,
        "the format string's variables"},
};
/* clang-format on */

const struct log_format_def *log_format_def(int id)
{
    return id >= 0 && id < LF_COUNT ? &registry[id] : NULL;
}

const char *log_format_name(int id)
{
    return id >= 0 && id < LF_COUNT ? registry[id].name : "unparsed";
}

/* 1 if name is one of the comma-separated names in list. */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p != NULL && *p != '\0';) {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        if (len == n && memcmp(p, name, n) == 0)
            return 1;
        p = comma != NULL ? comma + 1 : NULL;
    }
    return 0;
}

/* Formats named with --format: all but the --log-format one. */
static int selectable(int id)
{
    return registry[id].parser != LOG_PARSER_CUSTOM;
}

int log_format_by_name(const char *name)
{
    for (int i = 0; i < LF_COUNT; i++)
        if (selectable(i) &&
            (strcmp(registry[i].name, name) == 0 || in_list(registry[i].aliases, name)))
            return i;
    return -1;
}

void log_formats_list(FILE *out)
{
    for (int i = 0; i < LF_COUNT; i++)
        if (selectable(i))
            fprintf(out, "%s\t%s\t%s\n", registry[i].name,
                    registry[i].aliases != NULL ? registry[i].aliases : "",
                    registry[i].description);
}

void log_formats_help(FILE *out, int indent)
{
    enum {
        NAME_WIDTH = 24,
        WIDTH = 79
    };
    for (int i = 0; i < LF_COUNT; i++) {
        if (!selectable(i))
            continue;
        const struct log_format_def *d = &registry[i];
        char name[64];
        snprintf(name, sizeof name, "%s%s%s%s", d->name, d->aliases != NULL ? " (" : "",
                 d->aliases != NULL ? d->aliases : "", d->aliases != NULL ? ")" : "");
        fprintf(out, "%*s%-*s", indent, "", NAME_WIDTH, name);
        /* the description in words, wrapped under itself */
        int column = indent + NAME_WIDTH;
        const int start = column;
        for (const char *p = d->description; *p != '\0';) {
            size_t word = strcspn(p, " ");
            if (column > start && column + 1 + (int)word > WIDTH) {
                fprintf(out, "\n%*s", start, "");
                column = start;
            }
            if (column > start) {
                fputc(' ', out);
                column++;
            }
            fwrite(p, 1, word, out);
            column += (int)word;
            p += word;
            while (*p == ' ')
                p++;
        }
        fputc('\n', out);
    }
}
