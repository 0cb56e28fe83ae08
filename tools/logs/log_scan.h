/* log_scan.h - finding the first byte of a small byte class, 16 bytes per
 * step with SSE2 (baseline on x86-64, so no ISA flags), else a table loop.
 * Most pieces of a log line need no work at all: this is how we find out. */
#ifndef PCT_TOOLS_LOG_SCAN_H
#define PCT_TOOLS_LOG_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define LOG_SCAN_SSE2 1
#endif

#define LOG_SCAN_BYTES 6

/* The class: bytes below `below`, bytes >= 0x80 if high, and up to
 * LOG_SCAN_BYTES given bytes. table[] says the same, byte by byte. */
struct log_scan {
    unsigned char table[256];
    unsigned char below;
    int high;
    unsigned char bytes[LOG_SCAN_BYTES]; /* unused slots repeat bytes[0] */
    int count;                           /* bytes given */
    /* below - 1 (with high: below, compared as signed bytes, which takes
     * the bytes >= 0x80 too), then bytes[], each repeated 16 times: loading
     * a ready vector is one instruction, broadcasting a byte (SSE2) four. */
    unsigned char vec[1 + LOG_SCAN_BYTES][16];
};

/* bytes: a NUL-terminated list (at most LOG_SCAN_BYTES, at least one).
 * With high, below is at most 0x7f. */
void log_scan_init(struct log_scan *s, unsigned char below, int high, const char *bytes);

#ifdef LOG_SCAN_SSE2
/* Bit k set: byte k of v is in the class. */
static inline unsigned log_scan_mask_v(const struct log_scan *s, __m128i v)
{
    const __m128i *vec = (const __m128i *)(const void *)s->vec;
    __m128i hit = s->high ? _mm_cmplt_epi8(v, _mm_loadu_si128(vec))
                          : _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_loadu_si128(vec)), v);
    /* As many comparisons as bytes given (the tests are the same at every
     * step of a scan: predicted). */
    hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_loadu_si128(vec + 1)));
    for (int k = 2; k <= LOG_SCAN_BYTES; k++)
        if (k <= s->count)
            hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_loadu_si128(vec + k)));
    return (unsigned)_mm_movemask_epi8(hit);
}

static inline unsigned log_scan_mask(const struct log_scan *s, const char *p)
{
    return log_scan_mask_v(s, _mm_loadu_si128((const __m128i *)(const void *)p));
}
#endif

/* Offset of the first byte of src[i..n) in the class, or n. */
static inline size_t log_scan_find(const struct log_scan *s, const char *src, size_t i, size_t n)
{
#ifdef LOG_SCAN_SSE2
    for (; n - i >= 16; i += 16) {
        unsigned m = log_scan_mask(s, src + i);
        if (m != 0)
            return i + (size_t)__builtin_ctz(m);
    }
    if (i < n && n >= 16) { /* the last 16 bytes, minus those already seen */
        unsigned m = log_scan_mask(s, src + n - 16) >> (16 - (n - i));
        return m != 0 ? i + (size_t)__builtin_ctz(m) : n;
    }
#endif
    while (i < n && !s->table[(unsigned char)src[i]])
        i++;
    return i;
}

/* Copies src[0..n) to dst up to the first byte in the class, and returns
 * its offset (n if none): the scan and the copy in one pass, 16 bytes at a
 * time (dst has room for n bytes; what lies past the offset returned is
 * scratch). */
static inline size_t log_scan_copy(const struct log_scan *s, char *dst, const char *src, size_t n)
{
    size_t i = 0;
#ifdef LOG_SCAN_SSE2
    for (; n - i >= 16; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        unsigned m = log_scan_mask_v(s, v);
        _mm_storeu_si128((__m128i *)(void *)(dst + i), v);
        if (m != 0)
            return i + (size_t)__builtin_ctz(m);
    }
    if (i < n && n >= 16) { /* the last 16 bytes, minus those already seen */
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + n - 16));
        unsigned m = log_scan_mask_v(s, v) >> (16 - (n - i));
        _mm_storeu_si128((__m128i *)(void *)(dst + n - 16), v);
        return m != 0 ? i + (size_t)__builtin_ctz(m) : n;
    }
#endif
    for (; i < n && !s->table[(unsigned char)src[i]]; i++)
        dst[i] = src[i];
    return i;
}

/* The same, for src followed by at least 16 readable bytes (a chunk's
 * lines, see read_lines): the last bytes are scanned and copied 16 at a
 * time too, whatever n (dst has room for n + 16 bytes). */
static inline size_t log_scan_copy_padded(const struct log_scan *s, char *dst, const char *src,
                                          size_t n)
{
#ifdef LOG_SCAN_SSE2
    for (size_t i = 0; i < n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        unsigned m = log_scan_mask_v(s, v);
        _mm_storeu_si128((__m128i *)(void *)(dst + i), v);
        if (n - i < 16)
            m &= (1u << (n - i)) - 1;
        if (m != 0)
            return i + (size_t)__builtin_ctz(m);
    }
    return n;
#else
    return log_scan_copy(s, dst, src, n);
#endif
}

#ifdef LOG_SCAN_SSE2
/* Bit k of *a: p[k] == ca, of *b: p[k] == cb, for the 64 bytes at p. */
static inline void log_byte_masks64(const char *p, char ca, char cb, uint64_t *a, uint64_t *b)
{
    const __m128i va = _mm_set1_epi8(ca), vb = _mm_set1_epi8(cb);
    uint64_t ma = 0, mb = 0;
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        ma |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, va)) << (16 * k);
        mb |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vb)) << (16 * k);
    }
    *a = ma;
    *b = mb;
}

/* For the 16 bytes at p: bit k of *spaces, p[k] == ' '; of *dashes, p[k]
 * == '-'; of *other, p[k] is neither a digit nor '-'. */
static inline void log_number_masks16(const char *p, unsigned *spaces, unsigned *dashes,
                                      unsigned *other)
{
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    const __m128i t = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    const __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(9)), t);
    const __m128i dash = _mm_cmpeq_epi8(v, _mm_set1_epi8('-'));
    const __m128i ok = _mm_or_si128(digit, dash);
    *spaces = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
    *dashes = (unsigned)_mm_movemask_epi8(dash);
    *other = ~(unsigned)_mm_movemask_epi8(ok) & 0xFFFFu;
}
#endif

/* Copies src[0..n) to dst 16 bytes at a time, for src followed by at
 * least 16 readable bytes (a chunk's lines) and dst with room for n + 16:
 * the short fields of a line, without a call to memcpy. */
static inline void log_copy_padded(char *dst, const char *src, size_t n)
{
#ifdef LOG_SCAN_SSE2
    for (size_t i = 0; i < n; i += 16)
        _mm_storeu_si128((__m128i *)(void *)(dst + i),
                         _mm_loadu_si128((const __m128i *)(const void *)(src + i)));
#else
    memcpy(dst, src, n);
#endif
}

/* The first c in [p, e), or NULL. For the short distances within a line:
 * inline, so cheaper than a call to memchr. */
static inline const char *log_find_byte(const char *p, const char *e, char c)
{
#ifdef LOG_SCAN_SSE2
    const char *start = p;
    const __m128i cv = _mm_set1_epi8(c);
    for (; e - p >= 16; p += 16) {
        unsigned m = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), cv));
        if (m != 0)
            return p + __builtin_ctz(m);
    }
    if (p < e && e - start >= 16) { /* the last 16 bytes, minus those already seen */
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
                         _mm_loadu_si128((const __m128i *)(const void *)(e - 16)), cv)) >>
                     (16 - (e - p));
        return m != 0 ? p + __builtin_ctz(m) : NULL;
    }
#endif
    for (; p < e; p++)
        if (*p == c)
            return p;
    return NULL;
}

#endif
