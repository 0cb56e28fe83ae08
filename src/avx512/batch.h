/* avx512/batch.h - pct_batch_offsets for AVX-512 (avx512/find.c), and the
 * offsets of pct_batch_decode (avx512/batch_decode.c), 8 strings at a time.
 *
 * The chunk's map: masks[w], the '%' of bytes 64w..64w+63 (bit k for byte
 * 64w + k), and aux[w], the count of '%' before byte 64w, shifted left by
 * 2, with bit 1 set if byte 64w - 1 is a '%' and bit 0 if byte 64w - 1 or
 * 64w - 2 is one (so that bit k of masks[w] << 1 | masks[w] << 2 |
 * (aux[w] & 3) says that a string ending at 64w + k has a '%' in its last
 * two bytes). Built in two passes: the masks (or the decoder keeps them),
 * then the counts 8 words at a time.
 *
 * The strings' ends are sorted, so 8 of them up to ~1000 bytes long fall
 * within 16 words of the map, which two loads and a vpermt2q give each of
 * them; only wider spans take a gather (about 15 cycles for 8 words on
 * Zen 5, measured: with one per 8 strings, the offsets took a third longer).
 */
#ifndef PCT_AVX512_BATCH_H
#define PCT_AVX512_BATCH_H

#include <immintrin.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "impl.h"
#include "avx512/block.h"

enum {
    BATCH_WORDS = PCT_BATCH_CHUNK / 64 + 1, /* a chunk's, and the one its end may be in */
    BATCH_WINDOW = 16,                      /* the words 8 strings may take from */
    BATCH_ARRAY = (BATCH_WORDS + 7) / 8 * 8 + BATCH_WINDOW /* whole groups of 8, and a window */
};

typedef struct batch_map {
    alignas(64) uint64_t masks[BATCH_ARRAY];
    alignas(64) uint64_t aux[BATCH_ARRAY];
} batch_map;

/* The map of a chunk of len <= PCT_BATCH_CHUNK bytes whose masks are
 * written: its words past the chunk (whole groups and a window) zeroed,
 * its counts. */
PCT_BLOCK_INLINE void batch_map_count(batch_map *m, size_t len)
{
    const size_t w = (len + 63) / 64;
    const size_t groups = w / 8 + 1; /* one word at least past the chunk */
    memset(m->masks + w, 0, (8 * groups + BATCH_WINDOW - w) * sizeof(uint64_t));

    const __m512i zero = _mm512_setzero_si512(), last_lane = _mm512_set1_epi64(7);
    __m512i carry = zero, prev = zero; /* the '%' before the group; its words before */
    for (size_t g = 0; g < groups; g++) {
        const __m512i bits = _mm512_load_si512((const void *)(m->masks + 8 * g));
        const __m512i before_bits = _mm512_alignr_epi64(bits, prev, 7); /* of word w - 1 */
        prev = bits;
        const __m512i count = _mm512_popcnt_epi64(bits);
        /* inclusive sums over the lanes; the carry's chain is one add */
        __m512i sum = _mm512_add_epi64(count, _mm512_alignr_epi64(count, zero, 7));
        sum = _mm512_add_epi64(sum, _mm512_alignr_epi64(sum, zero, 6));
        sum = _mm512_add_epi64(sum, _mm512_alignr_epi64(sum, zero, 4));
        const __m512i before = _mm512_add_epi64(_mm512_sub_epi64(sum, count), carry);
        const __m512i aux = _mm512_ternarylogic_epi64(_mm512_slli_epi64(before, 2),
                                                      _mm512_srli_epi64(before_bits, 62),
                                                      _mm512_srli_epi64(before_bits, 63), 0xFE);
        _mm512_store_si512((void *)(m->aux + 8 * g), aux);
        carry = _mm512_add_epi64(carry, _mm512_permutexvar_epi64(last_lane, sum));
    }
    memset(m->aux + 8 * groups, 0, BATCH_WINDOW * sizeof(uint64_t));
}

/* The masks of src[0..len), len <= PCT_BATCH_CHUNK. */
PCT_BLOCK_INLINE void batch_map_masks(batch_map *m, const uint8_t *src, size_t len)
{
    const size_t whole = len / 64;
    for (size_t w = 0; w < whole; w++)
        m->masks[w] = block_eq(block_load(src + 64 * w), '%');
    if (len % 64)
        m->masks[whole] = block_eq(block_load_n(src + 64 * whole, len % 64), '%');
}

/* The strings' sizes and output offsets from the map, 8 at a time where a
 * pct_result is {status, padding, 64-bit count} (4 results in a vector),
 * then one at a time. */
PCT_BLOCK_INLINE int batch_strings(int wide, const batch_map *m, const void *offsets, size_t n,
                                   size_t out0, void *out_offsets, pct_result *results)
{
    const int32_t *o32 = (const int32_t *)offsets;
    const int64_t *o64 = (const int64_t *)offsets;
    const int64_t base = wide ? o64[0] : o32[0];
    const int vector_results = sizeof(pct_result) == 16 && offsetof(pct_result, count) == 8 &&
                               sizeof(size_t) == 8 && PCT_OK == 0;
    const __m512i basev = _mm512_set1_epi64(base), out0v = _mm512_set1_epi64((long long)out0);
    const __m512i ones = _mm512_set1_epi64(-1), low6 = _mm512_set1_epi64(63);
    const __m512i one = _mm512_set1_epi64(1), three = _mm512_set1_epi64(3);
    /* results i..i+3 and i+4..i+7 as {0, size} pairs (status PCT_OK, 0) */
    const __m512i pairs_lo = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11);
    const __m512i pairs_hi = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
    const __m512i zero = _mm512_setzero_si512();
    __m512i crossing = zero, prev = out0v;
    size_t i = 0;
    for (; vector_results && n - i >= 8; i += 8) {
        const __m512i in_end =
            wide ? _mm512_loadu_si512((const void *)(o64 + i + 1))
                 : _mm512_cvtepi32_epi64(_mm256_loadu_si256((const __m256i *)(o32 + i + 1)));
        const __m512i end = _mm512_sub_epi64(in_end, basev);
        const __m512i w = _mm512_srli_epi64(end, 6), k = _mm512_and_si512(end, low6);
        const size_t first = (size_t)((wide ? o64[i + 1] : o32[i + 1]) - base) >> 6;
        const size_t last = (size_t)((wide ? o64[i + 8] : o32[i + 8]) - base) >> 6;
        __m512i bits, aux;
        if (last - first < BATCH_WINDOW) {
            const __m512i at = _mm512_sub_epi64(w, _mm512_set1_epi64((long long)first));
            bits =
                _mm512_permutex2var_epi64(_mm512_loadu_si512((const void *)(m->masks + first)), at,
                                          _mm512_loadu_si512((const void *)(m->masks + first + 8)));
            aux = _mm512_permutex2var_epi64(_mm512_loadu_si512((const void *)(m->aux + first)), at,
                                            _mm512_loadu_si512((const void *)(m->aux + first + 8)));
        } else {
            bits = _mm512_i64gather_epi64(w, (const void *)m->masks, 8);
            aux = _mm512_i64gather_epi64(w, (const void *)m->aux, 8);
        }
        const __m512i within = _mm512_andnot_si512(_mm512_sllv_epi64(ones, k), bits);
        const __m512i count =
            _mm512_add_epi64(_mm512_srli_epi64(aux, 2), _mm512_popcnt_epi64(within));
        const __m512i out =
            _mm512_sub_epi64(_mm512_add_epi64(out0v, end), _mm512_add_epi64(count, count));
        const __m512i near =
            _mm512_ternarylogic_epi64(_mm512_slli_epi64(bits, 1), _mm512_slli_epi64(bits, 2),
                                      _mm512_and_si512(aux, three), 0xFE);
        crossing = _mm512_or_si512(crossing, _mm512_srlv_epi64(near, k));
        const __m512i sizes = _mm512_sub_epi64(out, _mm512_alignr_epi64(out, prev, 7));
        prev = out;
        _mm512_storeu_si512((void *)(results + i),
                            _mm512_permutex2var_epi64(zero, pairs_lo, sizes));
        _mm512_storeu_si512((void *)(results + i + 4),
                            _mm512_permutex2var_epi64(zero, pairs_hi, sizes));
        if (wide)
            _mm512_storeu_si512((void *)((int64_t *)out_offsets + i + 1), out);
        else
            _mm256_storeu_si256((__m256i *)(void *)((int32_t *)out_offsets + i + 1),
                                _mm512_cvtepi64_epi32(out));
    }
    uint64_t crossed = _mm512_test_epi64_mask(crossing, one);
    uint64_t prev_lanes[8];
    _mm512_storeu_si512((void *)prev_lanes, prev);
    uint64_t before = prev_lanes[7]; /* the sums modulo 2^64 (impl.h) */
    for (; i < n; i++) {
        const size_t end = (size_t)((wide ? o64[i + 1] : o32[i + 1]) - base);
        const size_t w = end >> 6, k = end & 63;
        const uint64_t bits = m->masks[w], aux = m->aux[w];
        const size_t count =
            (size_t)(aux >> 2) + (size_t)__builtin_popcountll(bits & ((UINT64_C(1) << k) - 1));
        const uint64_t out = (uint64_t)out0 + end - 2 * (uint64_t)count;
        crossed |= (bits << 1 | bits << 2 | (aux & 3)) >> k & 1;
        results[i].status = PCT_OK;
        results[i].count = (size_t)(out - before);
        pct_batch_sum_store(out_offsets, wide, i + 1, out);
        before = out;
    }
    return crossed != 0;
}

#include "simd_shared/batch_entry.h"

#endif /* PCT_AVX512_BATCH_H */
