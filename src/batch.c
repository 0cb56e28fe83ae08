/* batch.c - pct_decode_batch32/64 and pct_encode_batch32/64: many strings,
 * Arrow layout (one data buffer, an offsets array), one call.
 *
 * The whole batch is checked once (flags, pointers, offsets, overlap); then
 * each string goes straight to the implementation's kernel, with no
 * per-string argument checks: for short strings (20-100 bytes) those checks
 * and the public entry point's call cost about as much as the decoding.
 *
 * Lenient decoding (no flag but PCT_PLUS) is also a local operation: each
 * escape becomes one byte wherever it is. Such a batch is decoded as one
 * buffer per run of strings (a string whose last two bytes hold a '%', which
 * the next string's bytes could complete, ends a run), and the
 * output offsets come from a bit mask of escape starts, 64 bytes at a time
 * (SSE2 where it is the baseline), popcounted per string. That keeps the cost
 * per string to a few instructions. */
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "impl.h"

static const pct_result invalid_argument = {PCT_INVALID_ARGUMENT, 0};

#if defined(__GNUC__)
#define BATCH_INLINE static inline __attribute__((always_inline))
#else
#define BATCH_INLINE static inline
#endif

/* offsets[i] of either width, as a signed 64-bit value. */
BATCH_INLINE int64_t offset_at(const void *offsets, int wide, size_t i)
{
    return wide ? ((const int64_t *)offsets)[i] : (int64_t)((const int32_t *)offsets)[i];
}

BATCH_INLINE void set_offset(void *offsets, int wide, size_t i, size_t value)
{
    if (wide)
        ((int64_t *)offsets)[i] = (int64_t)value;
    else
        ((int32_t *)offsets)[i] = (int32_t)value;
}

/* [a, a + alen) and [b, b + blen) share a byte. */
static int overlap(const void *a, size_t alen, const void *b, size_t blen)
{
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return alen != 0 && blen != 0 && x < y + blen && y < x + alen;
}

/* The checks made once per batch; 1 if the arguments are usable. */
static int batch_valid(const char *data, const void *offsets, int wide, size_t n, const char *out,
                       size_t out_size, const void *out_offsets, const pct_result *results)
{
    if (offsets == NULL || out_offsets == NULL || (results == NULL && n != 0) ||
        (out == NULL && out_size != 0))
        return 0;
    const size_t width = wide ? sizeof(int64_t) : sizeof(int32_t);
    if (n >= SIZE_MAX / sizeof(pct_result) || n >= SIZE_MAX / width - 1)
        return 0;
    int64_t prev = offset_at(offsets, wide, 0);
    if (prev < 0)
        return 0;
    const int64_t first = prev;
    for (size_t i = 1; i <= n; i++) {
        const int64_t next = offset_at(offsets, wide, i);
        if (next < prev)
            return 0;
        prev = next;
    }
    const int64_t bytes = prev - first;
    if ((uint64_t)bytes > (uint64_t)(SIZE_MAX / 3))
        return 0;
    if (bytes != 0 && data == NULL)
        return 0;
    if (out_size != 0) {
        const char *in = bytes ? data + first : NULL;
        if (overlap(out, out_size, in, (size_t)bytes) ||
            overlap(out, out_size, offsets, (n + 1) * width) ||
            overlap(out, out_size, out_offsets, (n + 1) * width) ||
            overlap(out, out_size, results, n * sizeof(pct_result)))
            return 0;
    }
    return 1;
}

#if !defined(__SSE2__)
static int is_hex(uint8_t c)
{
    return (uint8_t)((c | 0x20) - 'a') < 6 || (uint8_t)(c - '0') < 10;
}
#endif

#if defined(__SSE2__)
/* 16 bits: which of the 16 bytes at p are hex digits (signed compares:
 * bytes >= 0x80 are negative and fail every range). */
static inline unsigned hex16(const uint8_t *p)
{
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    const __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
    const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                        _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                                         _mm_cmplt_epi8(lower, _mm_set1_epi8('f' + 1)));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(digit, letter));
}
#endif

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define BATCH_AVX2 1
#include <immintrin.h>

#include "cpu.h"

/* 32 bits each: the '%' bytes and the hex digits of the 32 bytes at p. */
__attribute__((target("avx2"))) static inline uint64_t percent32(const uint8_t *p, uint32_t *hex)
{
    const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    const __m256i lower = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
    const __m256i digit = _mm256_and_si256(_mm256_cmpgt_epi8(v, _mm256_set1_epi8('0' - 1)),
                                           _mm256_cmpgt_epi8(_mm256_set1_epi8('9' + 1), v));
    const __m256i letter = _mm256_and_si256(_mm256_cmpgt_epi8(lower, _mm256_set1_epi8('a' - 1)),
                                            _mm256_cmpgt_epi8(_mm256_set1_epi8('f' + 1), lower));
    *hex = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(digit, letter));
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('%')));
}

/* 64 bits each: the '%' bytes and the hex digits of the 64 bytes at p. */
__attribute__((target("avx512f,avx512bw"))) static inline uint64_t percent64(const uint8_t *p,
                                                                             uint64_t *hex)
{
    const __m512i v = _mm512_loadu_si512((const void *)p);
    const __m512i lower = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
    const __mmask64 digit =
        _mm512_cmple_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('0')), _mm512_set1_epi8(9));
    const __mmask64 letter =
        _mm512_cmple_epu8_mask(_mm512_sub_epi8(lower, _mm512_set1_epi8('a')), _mm512_set1_epi8(5));
    *hex = (uint64_t)(digit | letter);
    return (uint64_t)_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('%'));
}
#else
#define BATCH_AVX2 0
#endif

/* Bits set in m: the popcnt instruction in the callers compiled for it
 * (avx2 != 0), else the compiler's routine, skipped for 0. */
BATCH_INLINE size_t popcount64(int avx2, uint64_t m)
{
    if (avx2)
        return (size_t)__builtin_popcountll(m);
    return m ? (size_t)__builtin_popcountll(m) : 0;
}

/* The '%' bytes (returned) and the hex digits (*hex) of the block at offset
 * q of the run, bit k for byte q + k; avx2: 1 when the CPU has AVX2 and the
 * caller is compiled for it, 2 for AVX-512 BW, 0 or 3 (popcnt only) for
 * SSE2 where it is the baseline, else scalar. */
BATCH_INLINE uint64_t block_masks(int avx2, const uint8_t *run, size_t len, size_t q, uint64_t *hex)
{
    const uint8_t *p = run + q;
    size_t n = len - q;
#if BATCH_AVX2 || defined(__SSE2__)
    /* the run's last, partial block: zero-padded (zeros are neither '%' nor
     * hex digits), as the bytes after the run may not be readable */
    uint8_t padded[64];
    if (n < 64) {
        memset(padded, 0, sizeof padded);
        memcpy(padded, p, n);
        p = padded;
    }
    n = 64;
#endif
#if BATCH_AVX2
    if (avx2 == 2)
        return percent64(p, hex);
    if (avx2 == 1) {
        uint32_t h0, h1;
        const uint64_t pct = percent32(p, &h0) | percent32(p + 32, &h1) << 32;
        *hex = (uint64_t)h0 | (uint64_t)h1 << 32;
        return pct;
    }
#else
    (void)avx2;
#endif
#if defined(__SSE2__)
    const __m128i percent = _mm_set1_epi8('%');
    const __m128i *v = (const __m128i *)(const void *)p;
    *hex = (uint64_t)hex16(p) | (uint64_t)hex16(p + 16) << 16 | (uint64_t)hex16(p + 32) << 32 |
           (uint64_t)hex16(p + 48) << 48;
    return (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v), percent)) |
           (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 1), percent))
               << 16 |
           (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 2), percent))
               << 32 |
           (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 3), percent))
               << 48;
#else
    if (n > 64)
        n = 64;
    uint64_t pct = 0, h = 0;
    for (size_t k = 0; k < n; k++) {
        pct |= (uint64_t)(p[k] == '%') << k;
        h |= (uint64_t)is_hex(p[k]) << k;
    }
    *hex = h;
    return pct;
#endif
}

enum {
    RUN_BYTES = 16384,             /* a run of several strings is at most this long */
    RUN_WORDS = RUN_BYTES / 64 + 1 /* its escape-start words, and one of zeros */
};

/* bits[w]: the escape starts of bytes [64w, 64w + 64) of the run (bit k set
 * when byte 64w + k is a '%' followed by two hex digits); before[w]: the
 * escape starts before byte 64w. */
BATCH_INLINE void escape_words(int avx2, const uint8_t *run, size_t len, uint64_t *bits,
                               uint32_t *before)
{
    uint64_t hex[RUN_WORDS + 1];
    const size_t words = (len + 63) / 64;
    for (size_t w = 0; w < words; w++)
        bits[w] = block_masks(avx2, run, len, 64 * w, &hex[w]);
    hex[words] = 0;
    /* an escape start: a '%' and hex digits in the next two bytes, which
     * may be in the next block (none after the run) */
    uint32_t count = 0;
    for (size_t w = 0; w < words; w++) {
        bits[w] &= (hex[w] >> 1 | hex[w + 1] << 63) & (hex[w] >> 2 | hex[w + 1] << 62);
        before[w] = count;
        count += (uint32_t)popcount64(avx2, bits[w]);
    }
    bits[words] = 0;
    before[words] = count;
}

/* Escape starts before offset x (x <= the run's length). */
BATCH_INLINE size_t escapes_before(int avx2, const uint64_t *bits, const uint32_t *before, size_t x)
{
    const uint64_t m = bits[x >> 6] & ((UINT64_C(1) << (x & 63)) - 1);
    return before[x >> 6] + popcount64(avx2, m);
}

/* Results and output offsets of strings [first, last), decoded as one buffer
 * run[0 .. offsets[last] - offsets[first]): string i gives its length less 2
 * per escape that starts at least 2 bytes before its end (one that starts
 * later is not complete within it). Only the run's last string may have a
 * '%' in its last two bytes (else the decoder could have completed that
 * escape with the next string's bytes). *pos advances. */
BATCH_INLINE void run_results_body(int avx2, int wide, const uint8_t *run, const void *offsets,
                                   size_t first, size_t last, void *out_offsets,
                                   pct_result *results, size_t *pos)
{
    uint64_t bits[RUN_WORDS];
    uint32_t before[RUN_WORDS];
    const size_t base = (size_t)offset_at(offsets, wide, first);
    escape_words(avx2, run, (size_t)offset_at(offsets, wide, last) - base, bits, before);
    size_t start = 0, out = *pos;
    for (size_t i = first; i < last; i++) {
        const size_t end = (size_t)offset_at(offsets, wide, i + 1) - base;
        size_t written = end - start;
        if (written > 2)
            written -= 2 * (escapes_before(avx2, bits, before, end - 2) -
                            escapes_before(avx2, bits, before, start));
        results[i].status = PCT_OK;
        results[i].count = written;
        out += written;
        set_offset(out_offsets, wide, i + 1, out);
        start = end;
    }
    *pos = out;
}

static void run_results_base(int wide, const uint8_t *run, const void *offsets, size_t first,
                             size_t last, void *out_offsets, pct_result *results, size_t *pos)
{
    run_results_body(0, wide, run, offsets, first, last, out_offsets, results, pos);
}

#if BATCH_AVX2
/* The same with AVX2 blocks and the popcnt instruction. */
__attribute__((target("avx2,popcnt"))) static void
run_results_avx2(int wide, const uint8_t *run, const void *offsets, size_t first, size_t last,
                 void *out_offsets, pct_result *results, size_t *pos)
{
    run_results_body(1, wide, run, offsets, first, last, out_offsets, results, pos);
}

/* The same with SSE2 blocks and the popcnt instruction (the sse42
 * implementation's CPUs have it). */
__attribute__((target("popcnt"))) static void run_results_popcnt(int wide, const uint8_t *run,
                                                                 const void *offsets, size_t first,
                                                                 size_t last, void *out_offsets,
                                                                 pct_result *results, size_t *pos)
{
    run_results_body(3, wide, run, offsets, first, last, out_offsets, results, pos);
}

/* The same with AVX-512 blocks. */
__attribute__((target("avx2,avx512f,avx512bw,popcnt"))) static void
run_results_avx512(int wide, const uint8_t *run, const void *offsets, size_t first, size_t last,
                   void *out_offsets, pct_result *results, size_t *pos)
{
    run_results_body(2, wide, run, offsets, first, last, out_offsets, results, pos);
}
#endif

/* The lenient decode of a whole batch whose output room is there: one
 * kernel call per run of strings of about RUN_BYTES (so that the counting
 * reads what the decoder just read, from the cache). */
BATCH_INLINE pct_result batch_decode_runs(int wide, const pct_impl *impl, const char *data,
                                          const void *offsets, size_t n, char *out,
                                          void *out_offsets, pct_result *results, unsigned flags)
{
    size_t pos = 0;
    set_offset(out_offsets, wide, 0, 0);
    size_t first = 0;
#if BATCH_AVX2
    /* the counting follows the implementation in use: AVX-512 or AVX2 when
     * it uses them (and the CPU has POPCNT, part of PCT_CPU_SSE42) */
    const uint32_t cpu = pct_cpu_features();
    const int popcnt_avx2 =
        (cpu & (PCT_CPU_AVX2 | PCT_CPU_SSE42)) == (PCT_CPU_AVX2 | PCT_CPU_SSE42);
    void (*const run_results)(int, const uint8_t *, const void *, size_t, size_t, void *,
                              pct_result *, size_t *) =
        popcnt_avx2 && (impl->required & PCT_CPU_AVX512) && (cpu & PCT_CPU_AVX512)
            ? run_results_avx512
        : popcnt_avx2 && (impl->required & (PCT_CPU_AVX2 | PCT_CPU_AVX512)) ? run_results_avx2
        : (impl->required & PCT_CPU_SSE42) && (cpu & PCT_CPU_SSE42)         ? run_results_popcnt
                                                                            : run_results_base;
#else
#define run_results run_results_base
#endif
    while (first < n) {
        size_t last = first;
        const size_t start = (size_t)offset_at(offsets, wide, first);
        size_t end = start;
        /* a run: strings up to RUN_BYTES in all, or one longer string; it
         * ends after a string whose last two bytes hold a '%' */
        while (last < n) {
            const size_t next = (size_t)offset_at(offsets, wide, last + 1);
            if (next - start > RUN_BYTES && last > first)
                break;
            const size_t len = next - end;
            last++;
            end = next;
            if (end - start > RUN_BYTES || (len >= 1 && data[end - 1] == '%') ||
                (len >= 2 && data[end - 2] == '%'))
                break;
        }
        const uint8_t *run = end > start ? (const uint8_t *)data + start : NULL;
        uint8_t *dst = out ? (uint8_t *)out + pos : NULL;
        const size_t before = pos;
        pct_result r = impl->decode(run, end - start, dst, NULL, flags, NULL);
        if (last - first == 1) { /* one string: the decoder's result is its own */
            results[first] = r;
            pos += r.count;
            set_offset(out_offsets, wide, last, pos);
        } else {
            run_results(wide, run, offsets, first, last, out_offsets, results, &pos);
            if (r.status != PCT_OK || r.count != pos - before) {
                /* cannot happen (lenient decoding has no errors, and each
                 * escape is what was counted); never hand out wrong offsets */
                pct_result bad = {PCT_INVALID_ARGUMENT, 0};
                return bad;
            }
        }
        first = last;
    }
    pct_result ok = {PCT_OK, pos};
    return ok;
}

/* The loop over the strings, specialized by the four callers (wide and
 * encode are constants there). */
BATCH_INLINE pct_result batch_run(int encode, int wide, const char *data, const void *offsets,
                                  size_t n, char *out, size_t out_size, void *out_offsets,
                                  pct_result *results, const pct_set *set, unsigned flags)
{
    const pct_impl *impl = pct_active_impl();
    const size_t limit = wide || out_size < (size_t)INT32_MAX ? out_size : (size_t)INT32_MAX;
    const size_t factor = encode || (flags & PCT_UTF8_REPLACE) ? 3 : 1;
    size_t pos = 0;
    int64_t prev = offset_at(offsets, wide, 0);
    if (!encode && set == NULL && !(flags & ~(unsigned)PCT_PLUS) && n != 0 &&
        (uint64_t)(offset_at(offsets, wide, n) - prev) <= (uint64_t)limit)
        return batch_decode_runs(wide, impl, data, offsets, n, out, out_offsets, results, flags);
    set_offset(out_offsets, wide, 0, 0);
    for (size_t i = 0; i < n; i++) {
        const int64_t next = offset_at(offsets, wide, i + 1);
        const size_t len = (size_t)(next - prev);
        const uint8_t *src = len ? (const uint8_t *)data + prev : NULL;
        uint8_t *dst = out ? (uint8_t *)out + pos : NULL;
        const size_t room = limit - pos;
        pct_result r;
        if (len * factor > room && (!encode || impl->encode_length(src, len, set, flags) > room)) {
            r.status = PCT_NO_SPACE;
            r.count = i;
            return r;
        }
        if (encode)
            r = impl->encode(src, len, dst, set, flags, NULL);
        else
            r = impl->decode(src, len, dst, set, flags, NULL);
        results[i] = r;
        if (r.status == PCT_OK)
            pos += r.count;
        set_offset(out_offsets, wide, i + 1, pos);
        prev = next;
    }
    pct_result done = {PCT_OK, pos};
    return done;
}

pct_result pct_decode_batch32(const char *data, const int32_t *offsets, size_t n, char *out,
                              size_t out_size, int32_t *out_offsets, pct_result *results,
                              const pct_set *keep, unsigned flags)
{
    if (!pct_decode_flags_valid(flags) ||
        !batch_valid(data, offsets, 0, n, out, out_size, out_offsets, results))
        return invalid_argument;
    return batch_run(0, 0, data, offsets, n, out, out_size, out_offsets, results, keep, flags);
}

pct_result pct_decode_batch64(const char *data, const int64_t *offsets, size_t n, char *out,
                              size_t out_size, int64_t *out_offsets, pct_result *results,
                              const pct_set *keep, unsigned flags)
{
    if (!pct_decode_flags_valid(flags) ||
        !batch_valid(data, offsets, 1, n, out, out_size, out_offsets, results))
        return invalid_argument;
    return batch_run(0, 1, data, offsets, n, out, out_size, out_offsets, results, keep, flags);
}

pct_result pct_encode_batch32(const char *data, const int32_t *offsets, size_t n, char *out,
                              size_t out_size, int32_t *out_offsets, pct_result *results,
                              const pct_set *set, unsigned flags)
{
    if ((flags & ~(unsigned)PCT_ENCODE_FLAGS) || set == NULL ||
        !batch_valid(data, offsets, 0, n, out, out_size, out_offsets, results))
        return invalid_argument;
    return batch_run(1, 0, data, offsets, n, out, out_size, out_offsets, results, set, flags);
}

pct_result pct_encode_batch64(const char *data, const int64_t *offsets, size_t n, char *out,
                              size_t out_size, int64_t *out_offsets, pct_result *results,
                              const pct_set *set, unsigned flags)
{
    if ((flags & ~(unsigned)PCT_ENCODE_FLAGS) || set == NULL ||
        !batch_valid(data, offsets, 1, n, out, out_size, out_offsets, results))
        return invalid_argument;
    return batch_run(1, 1, data, offsets, n, out, out_size, out_offsets, results, set, flags);
}
