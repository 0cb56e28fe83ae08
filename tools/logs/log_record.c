/* log_record.c - finding the fields of a record. */
#include <string.h>

#include "log_record.h"

const struct log_field *record_find_span(const struct log_record *r, struct span name)
{
    if (name.n == 0)
        return NULL;
    /* Names are short and few: the length and the first byte rule out
     * nearly every other field without a call to memcmp. */
    for (int i = 0; i < r->n; i++) {
        const struct span f = r->f[i].name;
        if (f.n == name.n && f.p[0] == name.p[0] && memcmp(f.p, name.p, name.n) == 0)
            return &r->f[i];
    }
    return NULL;
}

const struct log_field *record_find(const struct log_record *r, const char *name)
{
    return record_find_span(r, span_of(name, name + strlen(name)));
}
