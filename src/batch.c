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
 * buffer per chunk of strings (at most PCT_BATCH_CHUNK, 16 KiB), and the
 * output offsets come from the chunk's '%' bytes, read from the cache right
 * after by the implementation's batch_offsets (impl.h; a dispatched kernel
 * operation, so that its masks, popcounts and offsets loop use the ISA's
 * instructions, which this file, built for the baseline, may not): string i
 * ends, in the output, 2 bytes before its input end per '%' before that.
 * That holds when every '%' starts an escape (the decoder's byte count says
 * whether it did) and none is in the last two bytes of a string (where the
 * decoder could complete it with the next string's bytes; batch_offsets
 * says whether one is): nearly always. An implementation whose decoder can
 * keep its '%' masks does both in one call (batch_decode), and the bytes
 * are compared with '%' once. Otherwise the chunk is counted again
 * here from the escape starts themselves (the '%' and hex-digit masks of
 * the implementation's find_all, combined), and, if an escape does run into
 * the next string, decoded again in pieces that end there. */
#include <stdint.h>

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

/* Bits set in m: the popcnt instruction where the build targets it, else
 * the bit-sliced sum (no call into the compiler's runtime, no branch). */
BATCH_INLINE size_t popcount64(uint64_t m)
{
#if defined(__POPCNT__)
    return (size_t)__builtin_popcountll(m);
#else
    m -= m >> 1 & UINT64_C(0x5555555555555555);
    m = (m & UINT64_C(0x3333333333333333)) + (m >> 2 & UINT64_C(0x3333333333333333));
    m = (m + (m >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (size_t)(m * UINT64_C(0x0101010101010101) >> 56);
#endif
}

/* The sets the chunks are classified with, by the implementation's
 * find_all: '%' (0x25), and the hex digits 0-9 (0x30-0x39), A-F
 * (0x41-0x46), a-f (0x61-0x66); bit (b & 7) of bits[b >> 3] is byte b. */
static const pct_set percent_set = {{[0x25 >> 3] = 1u << (0x25 & 7)}};
static const pct_set hex_set = {
    {[0x30 >> 3] = 0xFF, [0x38 >> 3] = 0x03, [0x40 >> 3] = 0x7E, [0x60 >> 3] = 0x7E}};

enum {
    CHUNK_BYTES = PCT_BATCH_CHUNK,     /* a chunk of several strings is at most this long */
    CHUNK_WORDS = CHUNK_BYTES / 64 + 1 /* its words, and the one its end may fall in */
};

/* The escape starts of a chunk (a '%' followed by two hex digits), for the
 * exact recount. bits[w] bit k: byte 64w + k is one; before[w]: how many
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
BATCH_INLINE void map_word(escape_map *map, size_t w, uint64_t b, uint64_t prev, uint32_t *count)
{
    map->bits[w] = b;
    map->before[w] = *count;
    map->ends[w] = b << 1 | b << 2 | prev >> 63 | prev >> 62;
    *count += (uint32_t)popcount64(b);
}

/* The map of a chunk's escape starts, classified by the implementation's
 * find_all (which writes no bit past len). */
static void chunk_words(pct_find_all_fn *find_all, const uint8_t *chunk, size_t len,
                        escape_map *map)
{
    uint64_t hex[CHUNK_WORDS];
    const size_t words = (len + 63) / 64;
    uint32_t count = 0;
    uint64_t prev = 0;
    find_all(chunk, len, &percent_set, map->bits);
    /* an escape start: a '%' and hex digits in the next two bytes, which
     * may be in the next word (none after the chunk) */
    find_all(chunk, len, &hex_set, hex);
    hex[words] = 0;
    for (size_t w = 0; w < words; w++)
        map->bits[w] &= (hex[w] >> 1 | hex[w + 1] << 63) & (hex[w] >> 2 | hex[w + 1] << 62);
    for (size_t w = 0; w < words; w++) {
        const uint64_t b = map->bits[w];
        map_word(map, w, b, prev, &count);
        prev = b;
    }
    map_word(map, words, 0, prev, &count);
}

/* Bits of the map before offset x (x <= the chunk's length). */
BATCH_INLINE size_t escapes_before(const escape_map *map, size_t x)
{
    const uint64_t m = map->bits[x >> 6] & ((UINT64_C(1) << (x & 63)) - 1);
    return map->before[x >> 6] + popcount64(m);
}

/* Results and output offsets of strings [first, last), output from *pos on,
 * taking each bit of the map for an escape within its string: then string i
 * ends, in the output, at its end less 2 bytes per bit before that. One
 * popcount per string, no branch. Returns 1 if a bit is in the last two
 * bytes of a string, where an escape could run into the next string (then
 * what was written is to be redone), else 0; *pos advances. */
BATCH_INLINE int chunk_offsets_body(int wide, const escape_map *map, const void *offsets,
                                    size_t first, size_t last, void *out_offsets,
                                    pct_result *results, size_t *pos)
{
    const size_t base = (size_t)offset_at(offsets, wide, first);
    const uint64_t out0 = *pos;
    uint64_t prev = out0, crossing = 0; /* the sums modulo 2^64, as impl.h's kernels */
    for (size_t i = first; i < last; i++) {
        const size_t end = (size_t)offset_at(offsets, wide, i + 1) - base;
        crossing |= map->ends[end >> 6] >> (end & 63);
        const uint64_t out = out0 + end - 2 * (uint64_t)escapes_before(map, end);
        results[i].status = PCT_OK;
        results[i].count = (size_t)(out - prev);
        pct_batch_sum_store(out_offsets, wide, i + 1, out);
        prev = out;
    }
    *pos = (size_t)prev;
    return (int)(crossing & 1);
}

/* chunk_offsets_body for either offset width. */
static int chunk_offsets(int wide, const escape_map *map, const void *offsets, size_t first,
                         size_t last, void *out_offsets, pct_result *results, size_t *pos)
{
    return wide ? chunk_offsets_body(1, map, offsets, first, last, out_offsets, results, pos)
                : chunk_offsets_body(0, map, offsets, first, last, out_offsets, results, pos);
}

/* The map of strings [first, last) (the chunk of len bytes) and their
 * results and output offsets; returns chunk_offsets_body's answer. */
static int chunk_results(pct_find_all_fn *find_all, int wide, const uint8_t *chunk, size_t len,
                         const void *offsets, size_t first, size_t last, void *out_offsets,
                         pct_result *results, size_t *pos, escape_map *map)
{
    chunk_words(find_all, chunk, len, map);
    return chunk_offsets(wide, map, offsets, first, last, out_offsets, results, pos);
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
        const size_t at_start = escapes_before(map, start), inside = escapes_before(map, whole);
        results[i].status = PCT_OK;
        results[i].count = end - start - 2 * (inside - at_start);
        o += results[i].count;
        set_offset(out_offsets, wide, i + 1, o);
        if (escapes_before(map, end) != inside || i + 1 == last) {
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

/* String i ends within CHUNK_BYTES of start. */
BATCH_INLINE int chunk_fits(const void *offsets, int wide, size_t i, int64_t start)
{
    return (uint64_t)(offset_at(offsets, wide, i) - start) <= CHUNK_BYTES;
}

/* The most strings from first on (first + 1 at least) that fit in
 * CHUNK_BYTES, returned as the index past them. Offsets do not decrease, so
 * a search: first at first + guess (the previous chunk's count, nearly
 * always close), then in steps that double, then halve. That reads offsets
 * near the chunk's end, which the chunk's offsets pass reads next; a binary
 * search over the whole array read offsets far apart, each a cache miss
 * (3-4% of the batch's time, measured). */
BATCH_INLINE size_t chunk_last_body(int wide, const void *offsets, size_t first, size_t n,
                                    size_t guess)
{
    const int64_t start = offset_at(offsets, wide, first);
    size_t last = first + 1, above = n + 1; /* last fits, above does not (or is past n) */
    const size_t probe = guess < n - first ? first + guess : n;
    if (probe > last && chunk_fits(offsets, wide, probe, start)) {
        last = probe;
        for (size_t step = 1; step <= n - last; step *= 2) {
            if (!chunk_fits(offsets, wide, last + step, start)) {
                above = last + step;
                break;
            }
            last += step;
        }
    } else if (probe > last) {
        above = probe;
        for (size_t step = 1; above - last > step; step *= 2) {
            if (chunk_fits(offsets, wide, above - step, start)) {
                last = above - step;
                break;
            }
            above -= step;
        }
    }
    while (above - last > 1) {
        const size_t mid = last + (above - last) / 2;
        if (chunk_fits(offsets, wide, mid, start))
            last = mid;
        else
            above = mid;
    }
    return last;
}

static size_t chunk_last(const void *offsets, int wide, size_t first, size_t n, size_t guess)
{
    return wide ? chunk_last_body(1, offsets, first, n, guess)
                : chunk_last_body(0, offsets, first, n, guess);
}

/* &offsets[i], of either width. */
BATCH_INLINE const void *offsets_from(const void *offsets, int wide, size_t i)
{
    return wide ? (const void *)((const int64_t *)offsets + i)
                : (const void *)((const int32_t *)offsets + i);
}

BATCH_INLINE void *out_offsets_from(void *out_offsets, int wide, size_t i)
{
    return wide ? (void *)((int64_t *)out_offsets + i) : (void *)((int32_t *)out_offsets + i);
}

/* The lenient decode of a whole batch whose output room is there, chunk by
 * chunk of about CHUNK_BYTES (so that the counting reads what the decoder
 * just read, from the cache): one decode call and one batch_offsets call
 * per chunk, unless a '%' starts no escape or may cross a string end in
 * it. */
BATCH_INLINE pct_result batch_decode_chunks(int wide, const pct_impl *impl, const char *data,
                                            const void *offsets, size_t n, char *out,
                                            void *out_offsets, pct_result *results, unsigned flags)
{
    static const pct_result mismatch = {PCT_INVALID_ARGUMENT, 0};
    pct_find_all_fn *const find_all = impl->find_all ? impl->find_all : pct_scalar_find_all;
    escape_map map;
    size_t pos = 0, first = 0, guess = 1;
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
        const size_t last = chunk_last(offsets, wide, first, n, guess);
        guess = last - first;
        const size_t len = (size_t)offset_at(offsets, wide, last) - start;
        const size_t before = pos;
        /* the chunk as one buffer first (then the counting reads it from
         * the cache), taking every '%' for an escape: nearly always so;
         * both at once where the implementation can */
        pct_result r;
        int crossing;
        if (impl->batch_decode) {
            crossing = impl->batch_decode(
                chunk, offsets_from(offsets, wide, first), wide, last - first, dst, flags, &r,
                before, out_offsets_from(out_offsets, wide, first), results + first);
        } else {
            r = impl->decode(chunk, len, dst, NULL, flags, NULL);
            crossing = impl->batch_offsets(
                chunk, offsets_from(offsets, wide, first), wide, last - first, before,
                out_offsets_from(out_offsets, wide, first), results + first);
        }
        pos = crossing ? before : (size_t)offset_at(out_offsets, wide, last);
        if (crossing || r.count != pos - before) { /* the escapes exactly */
            pos = before;
            crossing = chunk_results(find_all, wide, chunk, len, offsets, first, last, out_offsets,
                                     results, &pos, &map);
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
