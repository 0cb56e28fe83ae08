/* log_records.c - a chunk's records kept, then handed to the record
 * callback in input order (see log_records.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log_formats.h"
#include "log_records.h"

void log_records_clear(struct log_record_batch *b)
{
    b->count = 0;
    b->nfields = 0;
    b->names.len = 0;
}

void log_records_free(struct log_record_batch *b)
{
    free(b->recs);
    free(b->fields);
    free(b->names.data);
    free(b->pub);
    free(b->pub_fields);
    memset(b, 0, sizeof *b);
}

void log_records_collect(struct log_record_batch *b, const char *s, size_t n,
                         const struct log_record *r, int directive)
{
    if (b->count == b->cap) {
        /* The size is set once the memory is there: out of memory jumps
         * out of xrealloc (log_oom.h), and the batch is used again. */
        size_t cap = b->cap > 0 ? 2 * b->cap : 256;
        b->recs = xrealloc(b->recs, cap * sizeof *b->recs);
        b->cap = cap;
    }
    struct collected *c = &b->recs[b->count++];
    c->format = r != NULL ? r->format : directive ? COLLECTED_DIRECTIVE : COLLECTED_UNPARSED;
    c->long_line = 0;
    c->truncated = r != NULL && r->truncated;
    c->s = s;
    c->n = n;
    c->first = b->nfields;
    c->count = r != NULL ? (size_t)r->n : 0;
    if (c->count == 0)
        return;
    if (b->fields_cap - b->nfields < c->count) {
        size_t cap = b->fields_cap;
        while (cap - b->nfields < c->count)
            cap = cap > 0 ? 2 * cap : 1024;
        b->fields = xrealloc(b->fields, cap * sizeof *b->fields);
        b->fields_cap = cap;
    }
    /* Every name is copied: some live in the record (JSON keys "a.b"),
     * W3C's in the layout, which the next #Fields: line changes. So is a
     * value made in the record (a JSON line's time_iso): the record is the
     * next line's by delivery time. */
    for (int i = 0; i < r->n; i++) {
        struct collected_field *f = &b->fields[b->nfields++];
        f->f = r->f[i];
        f->name_at = SIZE_MAX;
        f->value_at = SIZE_MAX;
        const struct span name = r->f[i].name;
        if (name.n > 0) {
            buf_reserve(&b->names, name.n);
            f->name_at = b->names.len;
            memcpy(b->names.data + b->names.len, name.p, name.n);
            b->names.len += name.n;
        }
        const struct span v = r->f[i].v;
        if (v.n > 0 && v.p >= r->names && v.p < r->names + sizeof r->names) {
            buf_reserve(&b->names, v.n);
            f->value_at = b->names.len;
            memcpy(b->names.data + b->names.len, v.p, v.n);
            b->names.len += v.n;
        }
    }
}

/* The public kinds are the engine's. */
_Static_assert((int)LOG_KIND_TEXT == (int)K_TEXT && (int)LOG_KIND_NUMBER == (int)K_NUMBER &&
                   (int)LOG_KIND_TIME == (int)K_TIME && (int)LOG_KIND_REQUEST == (int)K_REQUEST &&
                   (int)LOG_KIND_URL == (int)K_URL && (int)LOG_KIND_PATH == (int)K_PATH &&
                   (int)LOG_KIND_QUERY == (int)K_QUERY && (int)LOG_KIND_REFERER == (int)K_REFERER &&
                   (int)LOG_KIND_LIST == (int)K_LIST && (int)LOG_KIND_LITERAL == (int)K_LITERAL,
               "enum log_value_kind follows enum field_kind");

#define DELIVER_BATCH 256

int log_records_deliver(struct log_record_batch *b, const struct log_record_sink *k, uint64_t input,
                        uint64_t first_line)
{
    /* Names (and values) copied into b->names point there now that it no
     * longer moves. */
    for (size_t i = 0; i < b->nfields; i++) {
        if (b->fields[i].name_at != SIZE_MAX)
            b->fields[i].f.name.p = b->names.data + b->fields[i].name_at;
        if (b->fields[i].value_at != SIZE_MAX)
            b->fields[i].f.v.p = b->names.data + b->fields[i].value_at;
    }
    for (size_t at = 0; at < b->count;) {
        size_t count = b->count - at < DELIVER_BATCH ? b->count - at : DELIVER_BATCH;
        size_t nfields = 0;
        for (size_t i = at; i < at + count; i++)
            nfields += b->recs[i].count;
        if (b->pub_cap < count) {
            b->pub = xrealloc(b->pub, DELIVER_BATCH * sizeof *b->pub);
            b->pub_cap = DELIVER_BATCH;
        }
        if (b->pub_fields_cap < nfields) {
            b->pub_fields = xrealloc(b->pub_fields, nfields * sizeof *b->pub_fields);
            b->pub_fields_cap = nfields;
        }
        size_t nf = 0;
        for (size_t i = 0; i < count; i++) {
            const struct collected *c = &b->recs[at + i];
            struct log_session_record *p = &b->pub[i];
            p->format = c->format == COLLECTED_DIRECTIVE  ? "directive"
                        : c->format == COLLECTED_UNPARSED ? "unparsed"
                                                          : log_format_name(c->format);
            p->input = input;
            p->line = first_line + at + i;
            p->parsed = c->format >= 0;
            p->long_line = c->long_line;
            p->truncated = c->truncated;
            p->text = c->s;
            p->text_len = c->n;
            p->nfields = c->count;
            /* No field in any record of the batch: pub_fields may be NULL. */
            p->fields = c->count > 0 ? b->pub_fields + nf : NULL;
            for (size_t j = 0; j < c->count; j++) {
                const struct log_field *f = &b->fields[c->first + j].f;
                struct log_session_field *q = &b->pub_fields[nf++];
                q->name = f->name.n > 0 ? f->name.p : "";
                q->name_len = f->name.n;
                q->kind = f->kind;
                q->raw = f->v.p;
                q->raw_len = f->v.n;
                q->engine = f;
            }
        }
        int status = k->fn(k->ctx, k->values, b->pub, count);
        if (status != 0)
            return status;
        at += count;
    }
    return 0;
}
