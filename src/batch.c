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
 * buffer per chunk of strings (16 KiB), and the output offsets come from a
 * bit mask of the chunk's '%' bytes read from the cache right after: string
 * i ends, in the output, 2 bytes before its input end per '%' before that,
 * one popcount per string. That holds when every '%' starts an escape (the
 * decoder's byte count says whether it did) and none is in the last two
 * bytes of a string (where the decoder could complete it with the next
 * string's bytes): nearly always. Otherwise the chunk is counted again with
 * the escape starts themselves, and, if an escape does run into the next
 * string, decoded again in pieces that end there. */
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

/* 1 if offsets[i + 1] < offsets[i] for some i < n. No early exit: the
 * compiler vectorizes it. */
static int offsets_decrease(const void *offsets, int wide, size_t n)
{
    int bad = 0;
    if (wide) {
        const int64_t *o = (const int64_t *)offsets;
        for (size_t i = 0; i < n; i++)
            bad |= o[i + 1] < o[i];
    } else {
        const int32_t *o = (const int32_t *)offsets;
        for (size_t i = 0; i < n; i++)
            bad |= o[i + 1] < o[i];
    }
    return bad;
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
    const int64_t first = offset_at(offsets, wide, 0);
    if (first < 0 || offsets_decrease(offsets, wide, n))
        return 0;
    const int64_t bytes = offset_at(offsets, wide, n) - first;
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

/* 32 bits: the '%' bytes of the 32 bytes at p; and their hex digits in *hex
 * unless hex is NULL (a constant where this is inlined). */
__attribute__((target("avx2"))) static inline uint64_t percent32(const uint8_t *p, uint32_t *hex)
{
    const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    if (hex) {
        const __m256i lower = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
        const __m256i digit = _mm256_and_si256(_mm256_cmpgt_epi8(v, _mm256_set1_epi8('0' - 1)),
                                               _mm256_cmpgt_epi8(_mm256_set1_epi8('9' + 1), v));
        const __m256i letter =
            _mm256_and_si256(_mm256_cmpgt_epi8(lower, _mm256_set1_epi8('a' - 1)),
                             _mm256_cmpgt_epi8(_mm256_set1_epi8('f' + 1), lower));
        *hex = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(digit, letter));
    }
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('%')));
}

/* The same for 64 bytes. */
__attribute__((target("avx512f,avx512bw"))) static inline uint64_t percent64(const uint8_t *p,
                                                                             uint64_t *hex)
{
    const __m512i v = _mm512_loadu_si512((const void *)p);
    if (hex) {
        const __m512i lower = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
        const __mmask64 digit =
            _mm512_cmple_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('0')), _mm512_set1_epi8(9));
        const __mmask64 letter = _mm512_cmple_epu8_mask(
            _mm512_sub_epi8(lower, _mm512_set1_epi8('a')), _mm512_set1_epi8(5));
        *hex = (uint64_t)(digit | letter);
    }
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

/* The '%' bytes (returned) and, unless hex is NULL, the hex digits (*hex) of
 * the 64 bytes at p, bit k for byte k; avx2: 1 when the CPU has AVX2 and the
 * caller is compiled for it, 2 for AVX-512 BW, 0 or 3 (popcnt only) for
 * SSE2 where it is the baseline, else scalar. */
BATCH_INLINE uint64_t block_masks(int avx2, const uint8_t *p, uint64_t *hex)
{
#if BATCH_AVX2
    if (avx2 == 2)
        return percent64(p, hex);
    if (avx2 == 1) {
        uint32_t h0, h1;
        const uint64_t pct = percent32(p, hex ? &h0 : NULL) | percent32(p + 32, hex ? &h1 : NULL)
                                                                  << 32;
        if (hex)
            *hex = (uint64_t)h0 | (uint64_t)h1 << 32;
        return pct;
    }
#else
    (void)avx2;
#endif
#if defined(__SSE2__)
    const __m128i percent = _mm_set1_epi8('%');
    const __m128i *v = (const __m128i *)(const void *)p;
    if (hex)
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
    uint64_t pct = 0, h = 0;
    for (size_t k = 0; k < 64; k++) {
        pct |= (uint64_t)(p[k] == '%') << k;
        h |= (uint64_t)is_hex(p[k]) << k;
    }
    if (hex)
        *hex = h;
    return pct;
#endif
}

enum {
    CHUNK_BYTES = 16384,               /* a chunk of several strings is at most this long */
    CHUNK_WORDS = CHUNK_BYTES / 64 + 1 /* its words, and the one its end may fall in */
};

/* The '%' bytes of a chunk, or (exact) its escape starts (a '%' followed by
 * two hex digits). bits[w] bit k: byte 64w + k is one; before[w]: how many
 * are before byte 64w; ends[w] bit k: byte 64w + k - 1 or 64w + k - 2 is one,
 * that is, one would run past a string ending at 64w + k. Past the chunk,
 * bits are 0. */
typedef struct escape_map {
    uint64_t bits[CHUNK_WORDS];
    uint64_t ends[CHUNK_WORDS];
    uint32_t before[CHUNK_WORDS];
} escape_map;

/* Word w of the map is b: its count before and its end bits (prev: word
 * w - 1; *count: the bits before word w, then before word w + 1). */
BATCH_INLINE void map_word(int avx2, escape_map *map, size_t w, uint64_t b, uint64_t prev,
                           uint32_t *count)
{
    map->bits[w] = b;
    map->before[w] = *count;
    map->ends[w] = b << 1 | b << 2 | prev >> 63 | prev >> 62;
    *count += (uint32_t)popcount64(avx2, b);
}

BATCH_INLINE void chunk_words_body(int avx2, int exact, const uint8_t *chunk, size_t len,
                                   escape_map *map)
{
    uint64_t hex[CHUNK_WORDS];
    const size_t full = len / 64, words = (len + 63) / 64;
    uint32_t count = 0;
    uint64_t prev = 0;
    /* '%' bytes: the map in one pass */
    for (size_t w = 0; w < full; w++) {
        const uint64_t b = block_masks(avx2, chunk + 64 * w, exact ? &hex[w] : NULL);
        if (!exact)
            map_word(avx2, map, w, b, prev, &count);
        else
            map->bits[w] = b;
        prev = b;
    }
    if (full < words) {
        /* the last, partial block: zero-padded (zeros are neither '%' nor
         * hex digits), as the bytes after the chunk may not be readable */
        uint8_t padded[64];
        memset(padded, 0, sizeof padded);
        memcpy(padded, chunk + 64 * full, len - 64 * full);
        const uint64_t b = block_masks(avx2, padded, exact ? &hex[full] : NULL);
        if (!exact)
            map_word(avx2, map, full, b, prev, &count);
        else
            map->bits[full] = b;
        prev = b;
    }
    if (exact) {
        /* an escape start: a '%' and hex digits in the next two bytes,
         * which may be in the next block (none after the chunk) */
        hex[words] = 0;
        prev = 0;
        for (size_t w = 0; w < words; w++) {
            const uint64_t b =
                map->bits[w] & (hex[w] >> 1 | hex[w + 1] << 63) & (hex[w] >> 2 | hex[w + 1] << 62);
            map_word(avx2, map, w, b, prev, &count);
            prev = b;
        }
    }
    map_word(avx2, map, words, 0, prev, &count);
}

/* Bits of the map before offset x (x <= the chunk's length). */
BATCH_INLINE size_t escapes_before(int popcnt, const escape_map *map, size_t x)
{
    const uint64_t m = map->bits[x >> 6] & ((UINT64_C(1) << (x & 63)) - 1);
    return map->before[x >> 6] + popcount64(popcnt, m);
}

/* Results and output offsets of strings [first, last), output from *pos on,
 * taking each bit of the map for an escape within its string: then string i
 * ends, in the output, at its end less 2 bytes per bit before that. One
 * popcount per string, no branch. Returns 1 if a bit is in the last two
 * bytes of a string, where an escape could run into the next string (then
 * what was written is to be redone), else 0; *pos advances. */
BATCH_INLINE int chunk_offsets_body(int popcnt, int wide, const escape_map *map,
                                    const void *offsets, size_t first, size_t last,
                                    void *out_offsets, pct_result *results, size_t *pos)
{
    const size_t base = (size_t)offset_at(offsets, wide, first), out0 = *pos;
    size_t prev = out0;
    uint64_t crossing = 0;
    for (size_t i = first; i < last; i++) {
        const size_t end = (size_t)offset_at(offsets, wide, i + 1) - base;
        crossing |= map->ends[end >> 6] >> (end & 63);
        const size_t out = out0 + end - 2 * escapes_before(popcnt, map, end);
        results[i].status = PCT_OK;
        results[i].count = out - prev;
        set_offset(out_offsets, wide, i + 1, out);
        prev = out;
    }
    *pos = prev;
    return (int)(crossing & 1);
}

/* The map of a chunk's '%' bytes (exact == 0) or escape starts, by the
 * block code of an implementation. */
typedef void chunk_words_fn(int exact, const uint8_t *chunk, size_t len, escape_map *map);
/* chunk_offsets_body for either offset width. */
typedef int chunk_offsets_fn(int wide, const escape_map *map, const void *offsets, size_t first,
                             size_t last, void *out_offsets, pct_result *results, size_t *pos);

#define CHUNK_WORDS_FN(name, avx2, attributes)                                                     \
    attributes static void name(int exact, const uint8_t *chunk, size_t len, escape_map *map)      \
    {                                                                                              \
        if (exact)                                                                                 \
            chunk_words_body(avx2, 1, chunk, len, map);                                            \
        else                                                                                       \
            chunk_words_body(avx2, 0, chunk, len, map);                                            \
    }
#define CHUNK_OFFSETS_FN(name, popcnt, attributes)                                                 \
    attributes static int name(int wide, const escape_map *map, const void *offsets, size_t first, \
                               size_t last, void *out_offsets, pct_result *results, size_t *pos)   \
    {                                                                                              \
        return wide ? chunk_offsets_body(popcnt, 1, map, offsets, first, last, out_offsets,        \
                                         results, pos)                                             \
                    : chunk_offsets_body(popcnt, 0, map, offsets, first, last, out_offsets,        \
                                         results, pos);                                            \
    }
#define NO_ATTRIBUTES

CHUNK_WORDS_FN(chunk_words_base, 0, NO_ATTRIBUTES)
CHUNK_OFFSETS_FN(chunk_offsets_base, 0, NO_ATTRIBUTES)
#if BATCH_AVX2
/* SSE2 blocks and the popcnt instruction (the sse42 implementation's CPUs
 * have it); AVX2 blocks; AVX-512 blocks. The offsets are computed apart from
 * the AVX-512 blocks: compiled for AVX-512, the compiler does the masking of
 * general registers in mask registers, which is slower. */
CHUNK_WORDS_FN(chunk_words_popcnt, 3, __attribute__((target("popcnt"))))
CHUNK_WORDS_FN(chunk_words_avx2, 1, __attribute__((target("avx2,popcnt"))))
CHUNK_WORDS_FN(chunk_words_avx512, 2, __attribute__((target("avx2,avx512f,avx512bw,popcnt"))))
CHUNK_OFFSETS_FN(chunk_offsets_popcnt, 1, __attribute__((target("popcnt"))))
CHUNK_OFFSETS_FN(chunk_offsets_bmi2, 1, __attribute__((target("popcnt,bmi,bmi2"))))
#endif

typedef struct chunk_counter {
    chunk_words_fn *words;
    chunk_offsets_fn *offsets;
} chunk_counter;

/* The counting that follows the implementation in use: AVX-512 or AVX2
 * blocks when it uses them (its CPUs have POPCNT, part of PCT_CPU_SSE42, and
 * BMI2, part of PCT_CPU_AVX2). */
static chunk_counter chunk_counter_for(const pct_impl *impl)
{
    chunk_counter c = {chunk_words_base, chunk_offsets_base};
#if BATCH_AVX2
    const uint32_t cpu = pct_cpu_features();
    const uint32_t avx2 = PCT_CPU_AVX2 | PCT_CPU_SSE42;
    if ((impl->required & PCT_CPU_AVX512) && (cpu & PCT_CPU_AVX512) && (cpu & avx2) == avx2) {
        c.words = chunk_words_avx512;
        c.offsets = chunk_offsets_bmi2;
    } else if ((impl->required & (PCT_CPU_AVX2 | PCT_CPU_AVX512)) && (cpu & avx2) == avx2) {
        c.words = chunk_words_avx2;
        c.offsets = chunk_offsets_bmi2;
    } else if ((impl->required & PCT_CPU_SSE42) && (cpu & PCT_CPU_SSE42)) {
        c.words = chunk_words_popcnt;
        c.offsets = chunk_offsets_popcnt;
    }
#else
    (void)impl;
#endif
    return c;
}

/* The map of strings [first, last) (the chunk of len bytes) and their
 * results and output offsets; returns chunk_offsets_body's answer. */
static int chunk_results(const chunk_counter *counter, int exact, int wide, const uint8_t *chunk,
                         size_t len, const void *offsets, size_t first, size_t last,
                         void *out_offsets, pct_result *results, size_t *pos, escape_map *map)
{
    counter->words(exact, chunk, len, map);
    return counter->offsets(wide, map, offsets, first, last, out_offsets, results, pos);
}

/* The chunk [first, last) again, when an escape may cross from one string
 * into the next: each string's escapes counted between its own ends, and one
 * kernel call per piece of the chunk that ends with such a string (so that
 * the decoder does not complete the escape with the next string's bytes).
 * Returns 0, or 1 if a decoder's count differs from what was counted. */
static int chunk_decode_split(const pct_impl *impl, int wide, const uint8_t *chunk,
                              const void *offsets, size_t first, size_t last, uint8_t *out,
                              void *out_offsets, pct_result *results, size_t *pos,
                              const escape_map *map, unsigned flags)
{
    const size_t base = (size_t)offset_at(offsets, wide, first);
    size_t from = first, from_out = *pos, o = *pos;
    for (size_t i = first; i < last; i++) {
        const size_t start = (size_t)offset_at(offsets, wide, i) - base;
        const size_t end = (size_t)offset_at(offsets, wide, i + 1) - base;
        const size_t whole = end - start >= 2 ? end - 2 : start; /* escapes complete within */
        const size_t at_start = escapes_before(0, map, start),
                     inside = escapes_before(0, map, whole);
        results[i].status = PCT_OK;
        results[i].count = end - start - 2 * (inside - at_start);
        o += results[i].count;
        set_offset(out_offsets, wide, i + 1, o);
        if (escapes_before(0, map, end) != inside || i + 1 == last) {
            const size_t a = (size_t)offset_at(offsets, wide, from) - base;
            const pct_result r =
                impl->decode(chunk + a, end - a, out ? out + from_out : NULL, NULL, flags, NULL);
            if (r.status != PCT_OK || r.count != o - from_out)
                return 1;
            from = i + 1;
            from_out = o;
        }
    }
    *pos = o;
    return 0;
}

/* The lenient decode of a whole batch whose output room is there, chunk by
 * chunk of about CHUNK_BYTES (so that the counting reads what the decoder
 * just read, from the cache): one kernel call per chunk, unless an escape
 * crosses a string end in it, and the outputs' sizes counted from the
 * escape starts. */
BATCH_INLINE pct_result batch_decode_chunks(int wide, const pct_impl *impl, const char *data,
                                            const void *offsets, size_t n, char *out,
                                            void *out_offsets, pct_result *results, unsigned flags)
{
    static const pct_result mismatch = {PCT_INVALID_ARGUMENT, 0};
    const chunk_counter counter = chunk_counter_for(impl);
    escape_map map;
    size_t pos = 0, first = 0;
    set_offset(out_offsets, wide, 0, 0);
    while (first < n) {
        const size_t start = (size_t)offset_at(offsets, wide, first);
        uint8_t *const dst = out ? (uint8_t *)out + pos : NULL;
        const uint8_t *const chunk = data ? (const uint8_t *)data + start : NULL;
        if ((size_t)offset_at(offsets, wide, first + 1) - start > CHUNK_BYTES) {
            /* one long string: the decoder's result is its own */
            const size_t len = (size_t)offset_at(offsets, wide, first + 1) - start;
            results[first] = impl->decode(chunk, len, dst, NULL, flags, NULL);
            pos += results[first].count;
            set_offset(out_offsets, wide, first + 1, pos);
            first++;
            continue;
        }
        /* the most strings from first on within CHUNK_BYTES (offsets do
         * not decrease: a binary search) */
        size_t last = first + 1, above = n + 1;
        while (above - last > 1) {
            const size_t mid = last + (above - last) / 2;
            if ((size_t)offset_at(offsets, wide, mid) - start <= CHUNK_BYTES)
                last = mid;
            else
                above = mid;
        }
        const size_t len = (size_t)offset_at(offsets, wide, last) - start;
        const size_t before = pos;
        /* the chunk as one buffer first (then the counting reads it from
         * the cache), taking every '%' for an escape: nearly always so */
        const pct_result r = impl->decode(chunk, len, dst, NULL, flags, NULL);
        int crossing = chunk_results(&counter, 0, wide, chunk, len, offsets, first, last,
                                     out_offsets, results, &pos, &map);
        if (crossing || r.count != pos - before) { /* the escapes exactly */
            pos = before;
            crossing = chunk_results(&counter, 1, wide, chunk, len, offsets, first, last,
                                     out_offsets, results, &pos, &map);
        }
        if (crossing) { /* an escape runs into the next string: again, in pieces */
            pos = before;
            if (chunk_decode_split(impl, wide, chunk, offsets, first, last,
                                   out ? (uint8_t *)out : NULL, out_offsets, results, &pos, &map,
                                   flags))
                return mismatch; /* cannot happen: never hand out wrong offsets */
        } else if (r.status != PCT_OK || r.count != pos - before) {
            /* cannot happen (lenient decoding has no errors, and each escape
             * is what was counted); never hand out wrong offsets */
            return mismatch;
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
        return batch_decode_chunks(wide, impl, data, offsets, n, out, out_offsets, results, flags);
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
