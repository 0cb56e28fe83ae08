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
    /* A word at a time, each byte's bit or-ed in without a branch. */
    for (size_t i = 0; i < len; i += 64) {
        const size_t n = len - i < 64 ? len - i : 64;
        uint64_t m = 0;
        for (size_t k = 0; k < n; k++)
            m |= (uint64_t)pct_in_set(set, src[i + k]) << k;
        bits[i / 64] = m;
    }
}
