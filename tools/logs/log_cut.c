/* log_cut.c - telling the records a server cut (see log_cut.h). */
#include <stdlib.h>
#include <string.h>

#include "fmt_access.h"
#include "log_cut.h"
#include "log_field_text.h"
#include "log_unescape.h"

/* 1 if p is "HTTP/1.1" or "HTTP/1.0" cut short (the last bytes a server
 * read of a request line), any case. */
static int protocol_cut_short(struct span p)
{
    static const char whole[] = "http/1.";
    if (p.n >= sizeof whole)
        return 0;
    for (size_t i = 0; i < p.n; i++)
        if ((p.p[i] | (p.p[i] >= 'A' && p.p[i] <= 'Z' ? 0x20 : 0)) != whole[i])
            return 0;
    return 1;
}

int request_cut_check(struct span request, int too_long)
{
    struct request_parts q;
    if (!request_split(request, &q))
        return 0;
    const struct span target = q.target;
    if (too_long) {
        if (q.protocol.n == 0) /* not reached, or "HTTP/1." cut */
            return 1;
        return protocol_cut_short(q.protocol);
    }
    if (target.n > LOG_VARNISH_URL_CUT) {
        size_t origin = origin_length(target);
        return origin > 0 && target.n - origin == LOG_VARNISH_URL_CUT;
    }
    return 0;
}

struct span request_cut_protocol_off(struct span request)
{
    const char *e = request.p + request.n, *word = e;
    while (word > request.p && word[-1] != ' ' && word[-1] != '\t')
        word--;
    const size_t len = (size_t)(e - word);
    static const char http[] = "http"; /* "HTTP/" and more: a protocol already */
    if (len == 0 || len >= sizeof http || word == request.p)
        return request;
    for (size_t i = 0; i < len; i++)
        if ((word[i] | (word[i] >= 'A' && word[i] <= 'Z' ? 0x20 : 0)) != http[i])
            return request;
    const char *end = word;
    while (end > request.p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    struct span method, target, rest = span_of(request.p, end);
    return split_request(rest, &method, &target) && target.n > 0 ? rest : request;
}

void record_mark_cut(struct log_record *r)
{
    struct log_field *request = NULL;
    const struct log_field *status = NULL;
    for (int i = 0; i < r->n && (request == NULL || status == NULL); i++) {
        struct log_field *f = &r->f[i];
        if (request == NULL && f->kind == K_REQUEST)
            request = f;
        else if (status == NULL && span_is(f->name, "status"))
            status = f;
    }
    if (request != NULL &&
        request_was_cut(request->v, status != NULL ? status->v : span_of("", ""))) {
        r->truncated = 1;
        request->v = request_cut_protocol_off(request->v);
    }
}

void record_mark_url_cut(struct log_record *r, size_t cut, enum log_escaping esc)
{
    for (int i = 0; i < r->n; i++) {
        const struct log_field *f = &r->f[i];
        if (f->kind != K_URL)
            continue;
        /* escapes only shorten: a field shorter than cut is not cut */
        if (f->v.n < cut || origin_length(f->v) > 0)
            return;
        size_t n = f->v.n;
        if (log_unescape_wanted(esc, f->v.p, f->v.n)) {
            char *text = malloc(2 * f->v.n + 4);
            if (text == NULL)
                return; /* not flagged, as a URL that was not cut */
            n = log_unescape(esc, f->v.p, f->v.n, text);
            free(text);
        }
        r->truncated = n == cut;
        return;
    }
}
