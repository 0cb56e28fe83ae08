/* flag_names.h - flags as text ("PLUS|STRICT", "0") for the reports of the
 * differential tests and fuzzers. Needs impl.h (internal normalize flag). */
#ifndef PCT_TEST_FLAG_NAMES_H
#define PCT_TEST_FLAG_NAMES_H

#include <stdio.h>

#include "impl.h"

static inline void pct_test_print_flags(FILE *out, unsigned f)
{
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {{PCT_PLUS, "PLUS"},
                 {PCT_STRICT, "STRICT"},
                 {PCT_UTF8, "UTF8"},
                 {PCT_KEEP_ESCAPES, "KEEP_ESCAPES"},
                 {PCT_PERCENT_U, "PERCENT_U"},
                 {PCT_UTF8_REPLACE, "UTF8_REPLACE"},
                 {PCT_INTERNAL_NORMALIZE, "NORMALIZE"}};
    int any = 0;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (f & names[k].bit) {
            fprintf(out, "%s%s", any ? "|" : "", names[k].name);
            any = 1;
        }
    if (!any)
        fprintf(out, "0");
}

#endif /* PCT_TEST_FLAG_NAMES_H */
