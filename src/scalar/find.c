/* scalar/find.c - the reference classifier: the first byte of src in set,
 * and where every byte of set is. */
#include "impl.h"
#include "scalar/hex.h"

size_t pct_scalar_find(const uint8_t *src, size_t len, const pct_set *set)
{
    size_t i = 0;
    while (i < len && !pct_in_set(set, src[i]))
        i++;
    return i;
}

void pct_scalar_find_all(const uint8_t *src, size_t len, const pct_set *set, uint64_t *bits)
{
    for (size_t w = 0; w < (len + 63) / 64; w++)
        bits[w] = 0;
    for (size_t i = 0; i < len; i++)
        if (pct_in_set(set, src[i]))
            bits[i / 64] |= (uint64_t)1 << (i % 64);
}
