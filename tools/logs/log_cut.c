/* log_cut.c - telling the records a server cut (see log_cut.h). */
#include <string.h>

#include "fmt_access.h"
#include "log_cut.h"
#include "log_field_text.h"

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

void record_mark_cut(struct log_record *r)
{
    const struct log_field *request = NULL, *status = NULL;
    for (int i = 0; i < r->n && (request == NULL || status == NULL); i++) {
        const struct log_field *f = &r->f[i];
        if (request == NULL && f->kind == K_REQUEST)
            request = f;
        else if (status == NULL && span_is(f->name, "status"))
            status = f;
    }
    if (request != NULL &&
        request_was_cut(request->v, status != NULL ? status->v : span_of("", "")))
        r->truncated = 1;
}
