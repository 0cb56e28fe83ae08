/* scalar/find.c - the reference classifier: the first byte of src in set,
 * where every byte of set is, and the batch decode's output sizes from the
 * '%' of each string. */
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

int pct_scalar_batch_offsets(const uint8_t *src, const void *offsets, int wide, size_t n,
                             size_t out0, void *out_offsets, pct_result *results)
{
    const int32_t *o32 = (const int32_t *)offsets;
    const int64_t *o64 = (const int64_t *)offsets;
    const int64_t base = wide ? o64[0] : o32[0];
    size_t start = 0;
    uint64_t out = out0; /* modulo 2^64 (impl.h) */
    int crossing = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t end = (size_t)((wide ? o64[i + 1] : o32[i + 1]) - base);
        size_t percents = 0;
        for (size_t k = start; k < end; k++) /* vectorized by the compiler */
            percents += src[k] == '%';
        crossing |=
            (end - start >= 1 && src[end - 1] == '%') | (end - start >= 2 && src[end - 2] == '%');
        const uint64_t next = out + end - start - 2 * (uint64_t)percents;
        results[i].status = PCT_OK;
        results[i].count = (size_t)(next - out);
        pct_batch_sum_store(out_offsets, wide, i + 1, next);
        out = next;
        start = end;
    }
    return crossing;
}
