/* api.c - the public one-shot entry points: argument and flag checks, then
 * the implementation in use. */
#include <stdint.h>

#include "impl.h"

static const pct_result invalid_argument = {PCT_INVALID_ARGUMENT, 0};

/* A NULL pointer is only allowed with a zero length. */
static int valid_buffer(const void *p, size_t len)
{
    return p != NULL || len == 0;
}

const char *pct_version(void)
{
    return PCT_VERSION_STRING;
}

const char *pct_status_string(pct_status status)
{
    switch (status) {
    case PCT_OK:
        return "ok";
    case PCT_INVALID_ESCAPE:
        return "invalid escape";
    case PCT_INVALID_UTF8:
        return "invalid UTF-8";
    case PCT_UNESCAPED_BYTE:
        return "byte must be percent-encoded";
    case PCT_INVALID_ARGUMENT:
        return "invalid argument";
    case PCT_REJECTED_BYTE:
        return "escaped byte rejected by the path policy";
    case PCT_REJECTED_PATH:
        return "path rejected by the path policy";
    case PCT_NO_SPACE:
        return "output buffer too small";
    }
    return "unknown status";
}

size_t pct_encode_length(const char *src, size_t len, const pct_set *set, unsigned flags)
{
    if (set == NULL || !valid_buffer(src, len))
        return len; /* nothing is escaped */
    return pct_active_impl()->encode_length((const uint8_t *)src, len, set, flags);
}

pct_result pct_encode(const char *src, size_t len, char *dst, const pct_set *set, unsigned flags)
{
    if ((flags & ~(unsigned)PCT_ENCODE_FLAGS) || set == NULL || !valid_buffer(src, len) ||
        !valid_buffer(dst, len) || len > SIZE_MAX / 3)
        return invalid_argument;
    return pct_active_impl()->encode((const uint8_t *)src, len, (uint8_t *)dst, set, flags, NULL);
}

pct_result pct_decode(const char *src, size_t len, char *dst, unsigned flags)
{
    return pct_decode_except(src, len, dst, NULL, flags);
}

/* PCT_UTF8_REPLACE may write more than it reads: dst must not overlap src. */
static int overlaps(const char *src, size_t len, const char *dst, size_t dst_len)
{
    const uintptr_t s = (uintptr_t)src, d = (uintptr_t)dst;
    return len != 0 && s < d + dst_len && d < s + len;
}

pct_result pct_decode_except(const char *src, size_t len, char *dst, const pct_set *keep,
                             unsigned flags)
{
    if (!pct_decode_flags_valid(flags) || !valid_buffer(src, len) || !valid_buffer(dst, len))
        return invalid_argument;
    if ((flags & PCT_UTF8_REPLACE) && (len > SIZE_MAX / 3 || overlaps(src, len, dst, 3 * len)))
        return invalid_argument;
    return pct_active_impl()->decode((const uint8_t *)src, len, (uint8_t *)dst, keep, flags, NULL);
}

pct_result pct_normalize(const char *src, size_t len, char *dst, unsigned flags)
{
    if ((flags & ~(unsigned)PCT_NORMALIZE_FLAGS) || !valid_buffer(src, len) ||
        !valid_buffer(dst, len))
        return invalid_argument;
    /* Every escape of a byte outside the unreserved set stays (upper-cased). */
    return pct_active_impl()->decode((const uint8_t *)src, len, (uint8_t *)dst, &pct_set_rfc3986,
                                     flags | PCT_INTERNAL_NORMALIZE, NULL);
}

pct_result pct_validate_utf8(const char *src, size_t len)
{
    if (!valid_buffer(src, len))
        return invalid_argument;
    pct_validate_utf8_fn *validate_utf8 = pct_active_impl()->validate_utf8;
    if (validate_utf8 == NULL)
        validate_utf8 = pct_scalar_validate_utf8;
    return validate_utf8((const uint8_t *)src, len);
}

pct_result pct_validate(const char *src, size_t len, const pct_set *set, unsigned flags)
{
    if ((flags & ~(unsigned)PCT_VALIDATE_FLAGS) || set == NULL || !valid_buffer(src, len))
        return invalid_argument;
    return pct_active_impl()->validate((const uint8_t *)src, len, set, flags);
}

size_t pct_find(const char *src, size_t len, const pct_set *set)
{
    if (set == NULL || !valid_buffer(src, len))
        return len;
    return pct_active_impl()->find((const uint8_t *)src, len, set);
}

void pct_find_all(const char *src, size_t len, const pct_set *set, uint64_t *bits)
{
    if (set == NULL || bits == NULL || src == NULL || len == 0)
        return;
    pct_find_all_fn *find_all = pct_active_impl()->find_all;
    if (find_all == NULL)
        find_all = pct_scalar_find_all;
    find_all((const uint8_t *)src, len, set, bits);
}
