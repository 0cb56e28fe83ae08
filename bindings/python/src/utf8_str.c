/* utf8_str.c - str objects from UTF-8 bytes (see utf8_str.h).
 *
 * CPython's UTF-8 decoder goes a character at a time once it has met a
 * non-ASCII one, and starts over in a wider buffer when it meets a wider
 * one: on 64 KiB of decoded URL text it took several times as long as the
 * percent-decoding. Here one pass finds the widest character and the length
 * (ASCII is copied), the bytes are validated (libpct's validator), and the
 * string is made at its final size and kind and filled: ASCII 16 bytes at
 * a time (up to the first other character of a block) and the other
 * characters one by one. Text that is not
 * valid UTF-8 is CPython's to decode from its first error on (the error
 * handler sees what it would see), except that the valid text before it is
 * decoded here when the handler is "replace", whose output for the rest does
 * not depend on where the decoding started. */
#include "utf8_str.h"

#include <string.h>

#include "pct.h"

#if defined(__SSE2__)
#include <emmintrin.h>

/* The 16 bytes at s widened into out[0..16) (past the first non-ASCII
 * byte, what is written there is overwritten later); returns a mask of
 * their non-ASCII bytes. */
static inline unsigned ascii16_ucs1(Py_UCS1 *out, const unsigned char *s)
{
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
    _mm_storeu_si128((__m128i *)(void *)out, v);
    return (unsigned)_mm_movemask_epi8(v);
}

static inline unsigned ascii16_ucs2(Py_UCS2 *out, const unsigned char *s)
{
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s), z = _mm_setzero_si128();
    _mm_storeu_si128((__m128i *)(void *)out, _mm_unpacklo_epi8(v, z));
    _mm_storeu_si128((__m128i *)(void *)(out + 8), _mm_unpackhi_epi8(v, z));
    return (unsigned)_mm_movemask_epi8(v);
}

static inline unsigned ascii16_ucs4(Py_UCS4 *out, const unsigned char *s)
{
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s), z = _mm_setzero_si128();
    const __m128i lo = _mm_unpacklo_epi8(v, z), hi = _mm_unpackhi_epi8(v, z);
    _mm_storeu_si128((__m128i *)(void *)out, _mm_unpacklo_epi16(lo, z));
    _mm_storeu_si128((__m128i *)(void *)(out + 4), _mm_unpackhi_epi16(lo, z));
    _mm_storeu_si128((__m128i *)(void *)(out + 8), _mm_unpacklo_epi16(hi, z));
    _mm_storeu_si128((__m128i *)(void *)(out + 12), _mm_unpackhi_epi16(hi, z));
    return (unsigned)_mm_movemask_epi8(v);
}
#else
#define ASCII16(T, t)                                                                              \
    static inline unsigned ascii16_##t(T *out, const unsigned char *s)                             \
    {                                                                                              \
        unsigned mask = 0;                                                                         \
        for (int k = 0; k < 16; k++) {                                                             \
            out[k] = s[k];                                                                         \
            mask |= (unsigned)(s[k] >> 7) << k;                                                    \
        }                                                                                          \
        return mask;                                                                               \
    }
ASCII16(Py_UCS1, ucs1)
ASCII16(Py_UCS2, ucs2)
ASCII16(Py_UCS4, ucs4)
#endif

/* Fills out (of type T, room for chars characters) with the characters of
 * the valid UTF-8 s[0..n). ASCII goes 16 bytes at a time, and a block that
 * holds other characters still gives its ASCII bytes before the first of
 * them (URL text has a non-ASCII character every few dozen bytes): the
 * block is widened whole while 16 characters of room remain. */
#define FILL_UTF8(T, t)                                                                            \
    static void fill_##t(T *out, size_t chars, const unsigned char *s, size_t n)                   \
    {                                                                                              \
        T *const end = out + chars;                                                                \
        size_t i = 0;                                                                              \
        while (i < n) {                                                                            \
            if (n - i >= 16 && end - out >= 16) {                                                  \
                const unsigned high = ascii16_##t(out, s + i);                                     \
                if (high == 0) {                                                                   \
                    out += 16;                                                                     \
                    i += 16;                                                                       \
                    continue;                                                                      \
                }                                                                                  \
                const unsigned ascii = (unsigned)__builtin_ctz(high);                              \
                out += ascii;                                                                      \
                i += ascii; /* s[i] starts a non-ASCII character */                                \
            }                                                                                      \
            const unsigned c = s[i];                                                               \
            if (c < 0x80) {                                                                        \
                *out++ = (T)c;                                                                     \
                i += 1;                                                                            \
            } else if (c < 0xE0) {                                                                 \
                *out++ = (T)((c & 0x1F) << 6 | (s[i + 1] & 0x3Fu));                                \
                i += 2;                                                                            \
            } else if (c < 0xF0) {                                                                 \
                *out++ = (T)((c & 0x0F) << 12 | (s[i + 1] & 0x3Fu) << 6 | (s[i + 2] & 0x3Fu));     \
                i += 3;                                                                            \
            } else {                                                                               \
                *out++ = (T)((c & 0x07) << 18 | (s[i + 1] & 0x3Fu) << 12 |                         \
                             (s[i + 2] & 0x3Fu) << 6 | (s[i + 3] & 0x3Fu));                        \
                i += 4;                                                                            \
            }                                                                                      \
        }                                                                                          \
    }
FILL_UTF8(Py_UCS1, ucs1)
FILL_UTF8(Py_UCS2, ucs2)
FILL_UTF8(Py_UCS4, ucs4)

/* The continuation bytes (10xxxxxx) of s[0..n) and (*top) its largest byte. */
static size_t continuation_bytes(const unsigned char *s, size_t n, unsigned char *top)
{
    size_t count = 0, i = 0;
    unsigned char t = 0;
#if defined(__SSE2__)
    __m128i vtop = _mm_setzero_si128();
    while (n - i >= 16) {
        /* per-lane counts of up to 255 blocks, then summed */
        const size_t blocks = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
        __m128i lanes = _mm_setzero_si128();
        for (size_t b = 0; b < blocks; b++, i += 16) {
            const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
            vtop = _mm_max_epu8(vtop, v);
            /* 0x80-0xBF: the signed bytes below -64 */
            lanes = _mm_sub_epi8(lanes, _mm_cmplt_epi8(v, _mm_set1_epi8(-64)));
        }
        const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
        count += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_extract_epi16(sums, 4);
    }
    vtop = _mm_max_epu8(vtop, _mm_srli_si128(vtop, 8));
    vtop = _mm_max_epu8(vtop, _mm_srli_si128(vtop, 4));
    vtop = _mm_max_epu8(vtop, _mm_srli_si128(vtop, 2));
    vtop = _mm_max_epu8(vtop, _mm_srli_si128(vtop, 1));
    t = (unsigned char)_mm_cvtsi128_si32(vtop);
#endif
    for (; i < n; i++) {
        count += (s[i] & 0xC0) == 0x80;
        t = s[i] > t ? s[i] : t;
    }
    *top = t;
    return count;
}

/* The str of valid UTF-8 s[0..n), with `continuation` continuation bytes
 * and `top` its largest byte, followed by the str `rest` (or NULL). */
static PyObject *str_from_valid_utf8(const unsigned char *s, size_t n, size_t continuation,
                                     unsigned char top, PyObject *rest)
{
    /* characters: the bytes that are not continuation bytes; the widest:
     * from the largest byte (a lead byte below 0xC4 starts U+0080-U+00FF,
     * below 0xF0 at most U+FFFF) */
    const size_t chars = n - continuation;
    Py_UCS4 maxchar = top < 0x80 ? 0x7F : top < 0xC4 ? 0xFF : top < 0xF0 ? 0xFFFF : 0x10FFFF;
    Py_ssize_t rest_len = 0;
    if (rest != NULL) {
        rest_len = PyUnicode_GET_LENGTH(rest);
        const Py_UCS4 rest_max = PyUnicode_MAX_CHAR_VALUE(rest);
        maxchar = rest_max > maxchar ? rest_max : maxchar;
    }
    PyObject *str = PyUnicode_New((Py_ssize_t)chars + rest_len, maxchar);
    if (str == NULL)
        return NULL;
    const int kind = PyUnicode_KIND(str);
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        if (maxchar == 0x7F)
            memcpy(PyUnicode_DATA(str), s, n);
        else
            fill_ucs1(PyUnicode_1BYTE_DATA(str), chars, s, n);
        break;
    case PyUnicode_2BYTE_KIND:
        fill_ucs2(PyUnicode_2BYTE_DATA(str), chars, s, n);
        break;
    default:
        fill_ucs4(PyUnicode_4BYTE_DATA(str), chars, s, n);
        break;
    }
    if (rest_len != 0 &&
        PyUnicode_CopyCharacters(str, (Py_ssize_t)chars, rest, 0, rest_len) != rest_len) {
        Py_DECREF(str);
        return NULL;
    }
    return str;
}

/* Below this many bytes CPython's decoder is as fast (measured on 40-byte
 * ASCII; this one's passes cost more than they save there). */
#define SHORT_UTF8 64

PyObject *str_from_utf8(const char *s, size_t n, const char *errors)
{
    if (n < SHORT_UTF8)
        return PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, errors);
    const unsigned char *u = (const unsigned char *)s;
    unsigned char top;
    const size_t continuation = continuation_bytes(u, n, &top);
    if (top < 0x80) /* ASCII: valid, and a copy */
        return str_from_valid_utf8(u, n, 0, top, NULL);
    const pct_result v = pct_validate_utf8(s, n);
    if (v.status == PCT_OK)
        return str_from_valid_utf8(u, n, continuation, top, NULL);
    if (v.status != PCT_INVALID_UTF8 || errors == NULL || strcmp(errors, "replace") != 0)
        return PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, errors);
    PyObject *rest = PyUnicode_DecodeUTF8(s + v.count, (Py_ssize_t)(n - v.count), errors);
    if (rest == NULL)
        return NULL;
    const size_t head_continuation = continuation_bytes(u, v.count, &top);
    PyObject *str = str_from_valid_utf8(u, v.count, head_continuation, top, rest);
    Py_DECREF(rest);
    return str;
}
