/* generic/find_body.h - pct_find, pct_find_all, pct_encode_length and
 * pct_batch_offsets (generic/batch_body.h) of the generic family
 * (SSE4.2, AVX2, NEON), over the ISA's vec.h (included first):
 * avx512/find_body.h's loops, one classification per 64-byte block. The
 * last bytes are read as the 64 ending at the input's end (those seen
 * already masked off), or from a zero-padded copy when the input is
 * shorter than a block, or when escapes are looked for (their digits are
 * read 2 bytes ahead).
 */
#include "impl.h"
#include "generic/vec_ops.h"

/* The bytes of the 64 at s that are in the set. */
PCT_VEC_INLINE uint64_t generic_block_in_set(const uint8_t *s, const pct_vec_set *set,
                                             const pct_vec_tables *t)
{
    uint64_t m = 0;
    for (int k = 0; k < PCT_VECS; k++)
        m |= vec_block_bits(vec_mask(vec_in_set(vec_load(s + k * PCT_VEC_W), set, t)), k);
    return m;
}

/* The bytes of src[0..n) in the set, 16 <= n < 64: whole vectors from the
 * start, the last one ending at src + n (on AVX2 below 32 bytes, the first
 * 16 and the last 16 in the two lanes of one vector). */
PCT_VEC_INLINE uint64_t generic_short_in_set(const uint8_t *src, size_t n, const pct_vec_set *set,
                                             const pct_vec_tables *t)
{
    if (PCT_VEC_W > 16 && n < PCT_VEC_W) {
        const uint32_t m = vec_mask(vec_in_set(vec_load_lanes(src, n - 16), set, t));
        return (m & 0xFFFF) | (uint64_t)(m >> 16) << (n - 16);
    }
    uint64_t m = 0;
    size_t k = 0;
    for (; k + PCT_VEC_W < n; k += PCT_VEC_W)
        m |= (uint64_t)vec_mask(vec_in_set(vec_load(src + k), set, t)) << k;
    return m | (uint64_t)vec_mask(vec_in_set(vec_load(src + n - PCT_VEC_W), set, t))
                   << (n - PCT_VEC_W);
}

/* The bytes of src[i..len) in the set, bit 0 for byte i, when the whole
 * blocks before i are done (len - i < 64, len >= 16): the 64 bytes ending
 * at src + len with those checked already shifted out, or, below 64, the
 * whole input (then i == 0). */
PCT_VEC_INLINE uint64_t generic_tail_in_set(const uint8_t *src, size_t len, size_t i,
                                            const pct_vec_set *set, const pct_vec_tables *t)
{
    return len >= 64 ? generic_block_in_set(src + len - 64, set, t) >> (64 - (len - i))
                     : generic_short_in_set(src, len, set, t);
}

/* The '%' of the 64 bytes at s that start an escape (66 bytes are read). */
PCT_VEC_INLINE uint64_t generic_block_escapes(const uint8_t *s, const pct_vec_tables *t)
{
    uint64_t m = 0;
    for (int k = 0; k < PCT_VECS; k++)
        m |= vec_block_bits(vec_mask(vec_escapes_at(s + k * PCT_VEC_W, t)), k);
    return m;
}

PCT_VEC_INLINE size_t generic_find_body(const uint8_t *src, size_t len, const pct_set *set)
{
    const pct_vec_tables tables = vec_tables_load();
    const pct_vec_set in_set = vec_set_load(set);
    size_t i = 0;
    for (; len - i >= 64; i += 64) {
        const uint64_t found = generic_block_in_set(src + i, &in_set, &tables);
        if (found)
            return i + (size_t)__builtin_ctzll(found);
    }
    if (i == len)
        return len;
    const uint64_t found = generic_tail_in_set(src, len, i, &in_set, &tables);
    return found ? i + (size_t)__builtin_ctzll(found) : len;
}

/* Where the bytes of the set are, a word per 64-byte block; the last
 * block's bits as in generic_find_body (len >= 16), those past len 0. */
PCT_VEC_INLINE void generic_find_all_body(const uint8_t *src, size_t len, const pct_set *set,
                                          uint64_t *bits)
{
    const pct_vec_tables tables = vec_tables_load();
    const pct_vec_set in_set = vec_set_load(set);
    size_t i = 0;
    for (; len - i >= 64; i += 64)
        bits[i / 64] = generic_block_in_set(src + i, &in_set, &tables);
    if (i < len)
        bits[i / 64] = generic_tail_in_set(src, len, i, &in_set, &tables);
}

/* The '%' of the 64 bytes at s (generic/batch_body.h). */
PCT_VEC_INLINE uint64_t batch_percent_block(const uint8_t *s)
{
    return generic_percents(s);
}

#include "generic/batch_body.h"

/* Exact length of the encoding: every byte of the set takes 3 bytes, but a
 * space with PCT_PLUS (one '+') and, with PCT_KEEP_ESCAPES, a well-formed
 * escape (kept as it is, digits included). */
PCT_VEC_INLINE size_t generic_encode_length_body(const uint8_t *src, size_t len, const pct_set *set,
                                                 unsigned flags)
{
    const int keep_escapes = (flags & PCT_KEEP_ESCAPES) != 0;
    pct_set escaped_set = *set;
    if (flags & PCT_PLUS)
        escaped_set.bits[' ' >> 3] &= (uint8_t) ~(1u << (' ' & 7));
    const pct_vec_tables tables = vec_tables_load();
    const pct_vec_set in_set = vec_set_load(&escaped_set);
    size_t escaped = 0, i = 0;
    if (!keep_escapes) {
        for (; len - i >= 64; i += 64)
            escaped +=
                (size_t)__builtin_popcountll(generic_block_in_set(src + i, &in_set, &tables));
        if (i < len) /* len >= 16 */
            escaped +=
                (size_t)__builtin_popcountll(generic_tail_in_set(src, len, i, &in_set, &tables));
        return len + 2 * escaped;
    }
    /* The escapes' digits are read 2 bytes ahead: the last bytes (fewer than
     * 66) from a zero-padded copy. */
    uint64_t carry = 0;
    for (; len - i >= 64 + 2; i += 64) {
        const uint64_t escapes = generic_block_escapes(src + i, &tables);
        escaped += (size_t)__builtin_popcountll(generic_block_in_set(src + i, &in_set, &tables) &
                                                ~(escapes | generic_digits_of(escapes) | carry));
        carry = generic_digits_carried(escapes);
    }
    if (i < len) {
        uint8_t pad[128 + 2 * PCT_VEC_W];
        const size_t left = len - i;
        generic_pad_copy(pad, sizeof pad, src + i, left);
        for (size_t k = 0; k < left; k += 64) {
            const uint64_t escapes = generic_block_escapes(pad + k, &tables);
            escaped += (size_t)__builtin_popcountll(
                generic_block_in_set(pad + k, &in_set, &tables) & vec_low_bits(left - k) &
                ~(escapes | generic_digits_of(escapes) | carry));
            carry = generic_digits_carried(escapes);
        }
    }
    return len + 2 * escaped;
}

/* Defines pct_<isa>_find, pct_<isa>_find_all, pct_<isa>_encode_length and
 * pct_<isa>_batch_offsets. Below 16 bytes the scalar loop is done before
 * the tables would be loaded. */
#define PCT_GENERIC_DEFINE_FIND(isa)                                                               \
    size_t pct_##isa##_find(const uint8_t *src, size_t len, const pct_set *set)                    \
    {                                                                                              \
        if (len < 16)                                                                              \
            return pct_scalar_find(src, len, set);                                                 \
        return generic_find_body(src, len, set);                                                   \
    }                                                                                              \
    void pct_##isa##_find_all(const uint8_t *src, size_t len, const pct_set *set, uint64_t *bits)  \
    {                                                                                              \
        if (len < 16)                                                                              \
            pct_scalar_find_all(src, len, set, bits);                                              \
        else                                                                                       \
            generic_find_all_body(src, len, set, bits);                                            \
    }                                                                                              \
    size_t pct_##isa##_encode_length(const uint8_t *src, size_t len, const pct_set *set,           \
                                     unsigned flags)                                               \
    {                                                                                              \
        /* The scalar routine saturates at SIZE_MAX. */                                            \
        if (len < 16 || len > SIZE_MAX / 3)                                                        \
            return pct_scalar_encode_length(src, len, set, flags);                                 \
        if (flags & PCT_KEEP_ESCAPES)                                                              \
            return generic_encode_length_body(src, len, set, flags);                               \
        return generic_encode_length_body(src, len, set, flags & PCT_PLUS);                        \
    }                                                                                              \
    int pct_##isa##_batch_offsets(const uint8_t *src, const void *offsets, int wide, size_t n,     \
                                  size_t out0, void *out_offsets, pct_result *results)             \
    {                                                                                              \
        return batch_offsets_body(src, offsets, wide, n, out0, out_offsets, results);              \
    }
