/* scalar/find.c - the reference classifier: first byte of src in set. */
#include "impl.h"
#include "scalar/hex.h"

size_t pct_scalar_find(const uint8_t *src, size_t len, const pct_set *set)
{
    size_t i = 0;
    while (i < len && !pct_in_set(set, src[i]))
        i++;
    return i;
}
