/* log_record.c - adding and finding the fields of a record. */
#include <string.h>

#include "log_record.h"

int record_add(struct log_record *r, const char *name, struct span v, int kind, int quote)
{
    if (r->n == LOG_RECORD_MAX)
        return 0;
    struct log_field *f = &r->f[r->n++];
    f->name = span_of(name, name + strlen(name));
    f->v = v;
    f->kind = (unsigned char)kind;
    f->quote = (unsigned char)quote;
    f->layers = 0;
    return 1;
}

const struct log_field *record_find(const struct log_record *r, const char *name)
{
    for (int i = 0; i < r->n; i++)
        if (r->f[i].name.n > 0 && span_is(r->f[i].name, name))
            return &r->f[i];
    return NULL;
}
