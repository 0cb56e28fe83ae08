/* scalar/validate_utf8.c - the reference of pct_validate_utf8: is a byte
 * string well-formed UTF-8?
 *
 * The rules are scalar/utf8.h's (Unicode Table 3-7), the ones PCT_UTF8 and
 * PCT_UTF8_REPLACE apply to decoded output, so a front end that needs the
 * answer asks the library instead of keeping a copy of them. ASCII goes 8
 * bytes at a time. */
#include <stdint.h>
#include <string.h>

#include "impl.h"
#include "scalar/utf8.h"

#define HIGH_BITS 0x8080808080808080ULL

pct_result pct_scalar_validate_utf8(const uint8_t *s, size_t len)
{
    pct_result result = {PCT_OK, len};
    pct_utf8_state state;
    pct_utf8_reset(&state);
    size_t start = 0; /* first byte of the pending sequence */
    size_t i = 0;
    while (i < len) {
        if (state.needed == 0 && len - i >= 8) {
            uint64_t word;
            memcpy(&word, s + i, 8);
            if ((word & HIGH_BITS) == 0) {
                i += 8;
                continue;
            }
        }
        if (state.needed == 0)
            start = i;
        switch (pct_utf8_step(&state, s[i])) {
        case PCT_UTF8_BAD_BYTE:
        case PCT_UTF8_BROKEN:
            result.status = PCT_INVALID_UTF8;
            result.count = start;
            return result;
        default:
            i++;
        }
    }
    if (state.needed != 0) { /* truncated at the end */
        result.status = PCT_INVALID_UTF8;
        result.count = start;
    }
    return result;
}
