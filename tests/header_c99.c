/* header_c99.c - pct.h compiled as C99 with -pedantic-errors (see
 * test_header.c): it must be clean, and its types must have the same layout
 * as in C11 and C++. */
#include <stddef.h>
#include <string.h>

#include "pct.h"

#include "header_abi.h"

int header_c99_roundtrip(void)
{
    char enc[16], dec[16];
    pct_result r = pct_encode("a b/\xC3\xA9", 6, enc, &pct_set_component, PCT_UTF8);
    if (r.status != PCT_OK || r.count != 14 || memcmp(enc, "a%20b%2F%C3%A9", 14) != 0)
        return 0;
    r = pct_decode(enc, r.count, dec, PCT_STRICT | PCT_UTF8);
    return r.status == PCT_OK && r.count == 6 && memcmp(dec, "a b/\xC3\xA9", 6) == 0 &&
           pct_set_contains(pct_set_by_name("uri-component"), '%') == 1;
}

void header_c99_layout(size_t out[HEADER_ABI_N])
{
    HEADER_ABI_FILL(out);
}
