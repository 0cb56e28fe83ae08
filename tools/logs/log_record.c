/* log_record.c - finding the fields of a record. */
#include <string.h>

#include "log_record.h"

const struct log_field *record_find(const struct log_record *r, const char *name)
{
    const size_t n = strlen(name);
    for (int i = 0; i < r->n; i++)
        if (r->f[i].name.n == n && n > 0 && memcmp(r->f[i].name.p, name, n) == 0)
            return &r->f[i];
    return NULL;
}
