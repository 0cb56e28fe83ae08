/* log_safe.c - the safety rules the writers share (log_safe.h). */
#include <string.h>

#include "log_safe.h"

void log_safe_hash_guard(struct worker *w, size_t start)
{
    char *o = w->out->data + start;
    if (w->out->len > start && *o == '#') {
        memmove(o + 3, o + 1, w->out->len - start - 1);
        memcpy(o, "%23", 3);
        w->out->len += 2;
    }
}
