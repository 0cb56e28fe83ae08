/* impl.h - the contract every implementation (scalar, sse42, avx2, neon, ...)
 * fulfils, and the table the dispatcher chooses from.
 *
 * An implementation provides whole operations, not just inner loops, so that
 * a SIMD one can keep its hot loop in registers and fall back to the scalar
 * routines only for the bytes it does not handle itself. The public entry
 * points (api.c) check arguments and flags once; implementations may assume
 * valid arguments.
 */
#ifndef PCT_IMPL_H
#define PCT_IMPL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "pct.h"

/* Internal decode flag: normalize mode (escapes kept by `keep` are re-written
 * with upper-case hex, and the stray-'%' rule of pct_normalize applies). */
#define PCT_INTERNAL_NORMALIZE (1u << 16)

/* The flags each operation takes (checked by api.c). */
#define PCT_ENCODE_FLAGS (PCT_PLUS | PCT_KEEP_ESCAPES | PCT_UTF8)
#define PCT_DECODE_FLAGS (PCT_PLUS | PCT_STRICT | PCT_UTF8 | PCT_UTF8_REPLACE | PCT_PERCENT_U)
#define PCT_NORMALIZE_FLAGS (PCT_STRICT)
#define PCT_VALIDATE_FLAGS (PCT_PLUS | PCT_STRICT | PCT_UTF8 | PCT_PERCENT_U)

/* The decode flags one call may take: known bits, and not both PCT_UTF8 and
 * PCT_UTF8_REPLACE (report or replace, not both). */
static inline int pct_decode_flags_valid(unsigned flags)
{
    return !(flags & ~(unsigned)PCT_DECODE_FLAGS) &&
           (flags & (PCT_UTF8 | PCT_UTF8_REPLACE)) != (PCT_UTF8 | PCT_UTF8_REPLACE);
}

/* The longest input tail a partial (streaming) call may leave unconsumed:
 * "%uD83D%uDE0" (11 bytes) under PCT_PERCENT_U, or the escapes of a 3-byte
 * UTF-8 prefix plus a partial escape ("%F0%9F%98%9", 11 bytes). */
#define PCT_MAX_UNCONSUMED 11

/* Offset of the first byte of src in set, or len. */
typedef size_t pct_find_fn(const uint8_t *src, size_t len, const pct_set *set);

/* pct_find_all: bit i % 64 of bits[i / 64] is src[i] in set; the last
 * word's bits past len are 0. */
typedef void pct_find_all_fn(const uint8_t *src, size_t len, const pct_set *set, uint64_t *bits);

/* The most bytes of strings one pct_batch_offsets call takes: a chunk of
 * a lenient batch decode (batch.c), small enough that its bytes are still in
 * the cache after the decoder's pass over them. */
#define PCT_BATCH_CHUNK 16384

/* pct_batch_offsets: the output sizes of the lenient decode of n >= 1
 * strings laid end to end at src, taking each '%' for an escape within its
 * string (2 bytes fewer each). offsets[0..n] (int32_t, or int64_t if wide)
 * are their bounds in the batch, offsets[0] at src, offsets[n] - offsets[0]
 * <= PCT_BATCH_CHUNK. Writes results[i] = {PCT_OK, size of string i} and
 * out_offsets[i + 1] = out0 + the sizes of strings 0..i (same width;
 * out_offsets[0] is left alone), and returns 0; or returns 1, with those
 * left meaningless, if a '%' is in the last two bytes of a string (where
 * the decoder could complete an escape with the next string's bytes).
 * A '%' that starts no escape can make the sums "negative": they are taken
 * modulo 2^64 whatever the width of size_t (uint64_t, never size_t, so
 * that a 32-bit build writes what a 64-bit one does), stored as int64_t, or
 * as their low 32 bits (int32_t); results[i].count is the difference of
 * two sums, modulo SIZE_MAX + 1. pct_batch_sum_store writes one. */
typedef int pct_batch_offsets_fn(const uint8_t *src, const void *offsets, int wide, size_t n,
                                 size_t out0, void *out_offsets, pct_result *results);

/* out_offsets[i] = sum, wrapped to the offsets' width as pct_batch_offsets_fn
 * says. */
static inline void pct_batch_sum_store(void *out_offsets, int wide, size_t i, uint64_t sum)
{
    if (wide)
        ((int64_t *)out_offsets)[i] = (int64_t)sum;
    else
        ((int32_t *)out_offsets)[i] = (int32_t)(uint32_t)sum;
}

/* pct_batch_decode: the lenient decode (flags 0 or PCT_PLUS) of the same
 * chunk as one buffer into dst (*decoded: the decoder's result, as
 * pct_decode_fn returns it) and what pct_batch_offsets gives for it, in one
 * pass over the bytes: the decoder's '%' masks are the offsets' map. */
typedef int pct_batch_decode_fn(const uint8_t *src, const void *offsets, int wide, size_t n,
                                uint8_t *dst, unsigned flags, pct_result *decoded, size_t out0,
                                void *out_offsets, pct_result *results);

/* Exact output length of encode (flags: PCT_PLUS, PCT_KEEP_ESCAPES matter). */
typedef size_t pct_encode_length_fn(const uint8_t *src, size_t len, const pct_set *set,
                                    unsigned flags);

/* Encode and decode share one shape. With consumed == NULL the input is
 * complete (one-shot). With consumed != NULL the call may stop before a tail
 * whose result depends on bytes not yet seen (at most PCT_MAX_UNCONSUMED
 * bytes), stores how many input bytes it consumed, and returns the bytes
 * written for those. Error offsets are relative to src. In partial mode the
 * routine may write output for bytes it then holds back (beyond the count it
 * returns, within the documented dst size): callers that decode in place must
 * not use partial mode on the same buffer.
 * decode: keep may be NULL; flags PCT_DECODE_FLAGS | PCT_INTERNAL_NORMALIZE. */
typedef pct_result pct_encode_fn(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *set,
                                 unsigned flags, size_t *consumed);
typedef pct_result pct_decode_fn(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *keep,
                                 unsigned flags, size_t *consumed);

typedef pct_result pct_validate_fn(const uint8_t *src, size_t len, const pct_set *set,
                                   unsigned flags);

/* pct_validate_utf8: {PCT_OK, len} or {PCT_INVALID_UTF8, offset}. */
typedef pct_result pct_validate_utf8_fn(const uint8_t *src, size_t len);

typedef struct pct_impl {
    const char *name;
    uint32_t required; /* PCT_CPU_* bits the CPU must have (cpu.h) */
    pct_find_fn *find;
    pct_encode_length_fn *encode_length;
    pct_encode_fn *encode;
    pct_decode_fn *decode;
    pct_validate_fn *validate;
    /* Optional: NULL where the implementation leaves it to the scalar
     * routine (api.c routes it). */
    pct_validate_utf8_fn *validate_utf8;
    pct_find_all_fn *find_all;
    /* Never NULL: pct_scalar_batch_offsets where the implementation has
     * none of its own. */
    pct_batch_offsets_fn *batch_offsets;
    /* Optional: NULL where decode, then batch_offsets, is the way. */
    pct_batch_decode_fn *batch_decode;
} pct_impl;

/* Declares the operations of an implementation, named pct_<isa>_<operation>
 * (each ISA's kernels.h). */
#define PCT_DECLARE_KERNELS(isa)                                                                   \
    pct_find_fn pct_##isa##_find;                                                                  \
    pct_encode_length_fn pct_##isa##_encode_length;                                                \
    pct_encode_fn pct_##isa##_encode;                                                              \
    pct_decode_fn pct_##isa##_decode;                                                              \
    pct_validate_fn pct_##isa##_validate

/* Defines `symbol`, the descriptor of the implementation `display_name`
 * whose operations are pct_<isa>_<operation> (each ISA's impl.c);
 * validate_utf8, find_all and batch_decode may be NULL, batch_offsets may
 * not. */
#define PCT_IMPL_DESCRIPTOR(symbol, isa, display_name, required_features, validate_utf8_fn,        \
                            find_all_fn, batch_offsets_fn, batch_decode_fn)                        \
    const pct_impl symbol = {                                                                      \
        .name = display_name,                                                                      \
        .required = required_features,                                                             \
        .find = pct_##isa##_find,                                                                  \
        .encode_length = pct_##isa##_encode_length,                                                \
        .encode = pct_##isa##_encode,                                                              \
        .decode = pct_##isa##_decode,                                                              \
        .validate = pct_##isa##_validate,                                                          \
        .validate_utf8 = validate_utf8_fn,                                                         \
        .find_all = find_all_fn,                                                                   \
        .batch_offsets = batch_offsets_fn,                                                         \
        .batch_decode = batch_decode_fn,                                                           \
    }

/* The scalar reference: simple, complete, the oracle of every other one. */
pct_find_fn pct_scalar_find;
pct_find_all_fn pct_scalar_find_all;
pct_batch_offsets_fn pct_scalar_batch_offsets;
pct_encode_length_fn pct_scalar_encode_length;
pct_encode_fn pct_scalar_encode;
pct_decode_fn pct_scalar_decode;
pct_validate_fn pct_scalar_validate;
pct_validate_utf8_fn pct_scalar_validate_utf8;

/* The SIMD implementations are pct_<isa>_impl, each defined in
 * src/<isa>/impl.c; dispatch.c declares those that src/meson.build built. */

/* The implementation in use, once chosen (NULL before the first call). */
extern _Atomic(const pct_impl *) pct_chosen_impl;
/* Chooses it (first call; thread-safe) and returns it. */
const pct_impl *pct_choose_impl(void);

/* The implementation in use: one load in the calls' hot path, inline (a
 * call into dispatch.c cost a few ns per short call). */
static inline const pct_impl *pct_active_impl(void)
{
    const pct_impl *impl = atomic_load_explicit(&pct_chosen_impl, memory_order_acquire);
    return impl ? impl : pct_choose_impl();
}
/* Every implementation compiled in, best first, whether or not the CPU runs
 * it; NULL-terminated. */
extern const pct_impl *const pct_impl_table[];
/* The compiled-in implementation of that name that this CPU runs, or NULL. */
const pct_impl *pct_impl_by_name(const char *name);

#endif /* PCT_IMPL_H */
