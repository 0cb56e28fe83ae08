/* path.c - pct_normalize_path: the request-target path normalization a proxy
 * routes, caches and authorizes on (policy per class of escaped byte, dot
 * segments of RFC 3986 5.2.4 in their escaped spellings too, merged
 * slashes). See pct.h for the contract.
 *
 * One pass, left to right, one segment at a time. Every token writes at most
 * as many bytes as it reads, so the output never runs ahead of the input and
 * dst == src works; removing a dot segment only moves the output back. The
 * only '/' bytes in the output are separators, which is what makes "remove
 * the last segment" a backwards scan for '/'.
 */
#include <stdint.h>
#include <string.h>

#include "impl.h"
#include "scalar/escape.h"
#include "scalar/hex.h"
#include "scalar/utf8.h"

#define PATH_OPTIONS (PCT_PATH_MERGE_SLASHES | PCT_PATH_BACKSLASH | PCT_PATH_UTF8 | PCT_PATH_STRICT)

const pct_path_policy pct_path_policy_default = {PCT_PATH_KEEP, PCT_PATH_KEEP, PCT_PATH_REJECT,
                                                 PCT_PATH_KEEP,
                                                 PCT_PATH_MERGE_SLASHES | PCT_PATH_BACKSLASH};
const pct_path_policy pct_path_policy_nginx = {PCT_PATH_DECODE, PCT_PATH_DECODE, PCT_PATH_REJECT,
                                               PCT_PATH_DECODE, PCT_PATH_MERGE_SLASHES};
const pct_path_policy pct_path_policy_envoy = {PCT_PATH_KEEP, PCT_PATH_KEEP, PCT_PATH_KEEP,
                                               PCT_PATH_KEEP,
                                               PCT_PATH_MERGE_SLASHES | PCT_PATH_BACKSLASH};
const pct_path_policy pct_path_policy_apache = {PCT_PATH_KEEP, PCT_PATH_DECODE, PCT_PATH_REJECT,
                                                PCT_PATH_DECODE, PCT_PATH_MERGE_SLASHES};

const pct_path_policy *pct_path_policy_by_name(const char *name)
{
    static const struct {
        const char *name;
        const pct_path_policy *policy;
    } presets[] = {{"default", &pct_path_policy_default},
                   {"nginx", &pct_path_policy_nginx},
                   {"envoy", &pct_path_policy_envoy},
                   {"apache", &pct_path_policy_apache}};
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strcmp(presets[i].name, name) == 0)
            return presets[i].policy;
    return NULL;
}

/* '#' and '?': where the path ends. */
static const pct_set query_or_fragment = {{0,
                                           0,
                                           0,
                                           0,
                                           1u << ('#' & 7),
                                           0,
                                           0,
                                           1u << ('?' & 7),
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0,
                                           0}};

static pct_result result(pct_status status, size_t count)
{
    pct_result r = {status, count};
    return r;
}

static int valid_action(pct_path_action a)
{
    return a == PCT_PATH_KEEP || a == PCT_PATH_DECODE || a == PCT_PATH_REJECT;
}

typedef struct path_state {
    const uint8_t *src;
    size_t end; /* the path is src[0..end) */
    uint8_t *dst;
    size_t out;
    const pct_path_policy *policy;
    pct_utf8_state utf8;
    size_t sequence; /* input offset where the pending UTF-8 sequence starts */
    size_t stray;    /* output offset of the last '%' that starts no escape, or SIZE_MAX */
} path_state;

/* Length of the separator token at src[i] (i < end), or 0. */
static size_t separator_at(const path_state *s, size_t i)
{
    const uint8_t c = s->src[i];
    const pct_path_policy *p = s->policy;
    if (c == '/' || (c == '\\' && (p->options & PCT_PATH_BACKSLASH)))
        return 1;
    if (c == '%') {
        const int v = pct_escape_value(s->src, s->end, i);
        if ((v == '/' && p->encoded_slash == PCT_PATH_DECODE) ||
            (v == '\\' && p->encoded_backslash == PCT_PATH_DECODE &&
             (p->options & PCT_PATH_BACKSLASH)))
            return 3;
    }
    return 0;
}

/* PCT_PATH_UTF8: feeds the byte a token at input offset at stands for.
 * Returns 0, or -1 with *error set. */
static int utf8_feed(path_state *s, uint8_t b, size_t at, size_t *error)
{
    if (!(s->policy->options & PCT_PATH_UTF8))
        return 0;
    const int starts = s->utf8.needed == 0;
    switch (pct_utf8_step(&s->utf8, b)) {
    case PCT_UTF8_MORE:
        if (starts)
            s->sequence = at;
        return 0;
    case PCT_UTF8_DONE:
        return 0;
    case PCT_UTF8_BAD_BYTE:
        *error = at;
        return -1;
    default: /* PCT_UTF8_BROKEN */
        *error = s->sequence;
        return -1;
    }
}

/* The action for an escape of byte b. */
static pct_path_action action_for(const pct_path_policy *p, uint8_t b)
{
    if (b == '/')
        return p->encoded_slash;
    if (b == '\\')
        return p->encoded_backslash;
    if (b < 0x20 || b == 0x7F)
        return p->encoded_control;
    if (b == '%')
        return p->encoded_percent;
    return pct_in_set(&pct_set_rfc3986, b) ? PCT_PATH_KEEP : PCT_PATH_DECODE;
}

/* Processes the non-separator token at src[*i]; returns PCT_OK or an error
 * with its offset in *error. */
static pct_status segment_token(path_state *s, size_t *i, size_t *error)
{
    const size_t at = *i;
    const uint8_t c = s->src[at];
    if (c != '%') {
        if (utf8_feed(s, c, at, error))
            return PCT_INVALID_UTF8;
        s->dst[s->out++] = c;
        *i = at + 1;
        return PCT_OK;
    }
    const int v = pct_escape_value(s->src, s->end, at);
    if (v < 0) {
        if (s->policy->options & PCT_PATH_STRICT) {
            /* The lowest offset: a pending sequence is broken by this '%'. */
            if ((s->policy->options & PCT_PATH_UTF8) && s->utf8.needed != 0) {
                *error = s->sequence;
                return PCT_INVALID_UTF8;
            }
            *error = at;
            return PCT_INVALID_ESCAPE;
        }
        if (utf8_feed(s, '%', at, error))
            return PCT_INVALID_UTF8;
        s->stray = s->out;
        s->dst[s->out++] = '%';
        *i = at + 1;
        return PCT_OK;
    }
    const uint8_t b = (uint8_t)v;
    if (utf8_feed(s, b, at, error))
        return PCT_INVALID_UTF8;
    pct_path_action action = action_for(s->policy, b);
    if (action == PCT_PATH_REJECT) {
        *error = at;
        return PCT_REJECTED_BYTE;
    }
    if (action == PCT_PATH_DECODE) {
        /* A decoded '%' must not start an escape with the bytes after it,
         * and a decoded hex digit must not complete one with a '%' before
         * it: either would be decoded by the next hop (or a second pass). */
        /* (PCT_PATH_STRICT: a decoded '%' would start an escape or be an
         * error, so %25 is never decoded.) */
        if (b == '%' && (s->policy->options & PCT_PATH_STRICT))
            action = PCT_PATH_KEEP;
        else if (b == '%' && s->end - at >= 5 && pct_is_hex(s->src[at + 3]) &&
                 pct_is_hex(s->src[at + 4]))
            action = PCT_PATH_KEEP;
        else if (pct_is_hex(b) && s->stray != SIZE_MAX && s->out - s->stray <= 2)
            action = PCT_PATH_KEEP;
    }
    if (action == PCT_PATH_DECODE) {
        if (b == '%')
            s->stray = s->out;
        s->dst[s->out++] = b;
    } else {
        s->dst[s->out] = '%';
        s->dst[s->out + 1] = pct_hex_digit((unsigned)v >> 4);
        s->dst[s->out + 2] = pct_hex_digit((unsigned)v);
        s->out += 3;
    }
    *i = at + 3;
    return PCT_OK;
}

/* Consumes the separator at src[*i] (and, with PCT_PATH_MERGE_SLASHES, the
 * ones right after it). */
static pct_status skip_separators(path_state *s, size_t *i, size_t *error)
{
    size_t n = separator_at(s, *i);
    for (;;) {
        /* A separator stands for '/' or '\': ASCII, only a UTF-8 breaker. */
        if (utf8_feed(s, '/', *i, error))
            return PCT_INVALID_UTF8;
        *i += n;
        if (!(s->policy->options & PCT_PATH_MERGE_SLASHES) || *i >= s->end)
            return PCT_OK;
        n = separator_at(s, *i);
        if (n == 0)
            return PCT_OK;
    }
}

pct_result pct_normalize_path(const char *src, size_t len, char *dst, const pct_path_policy *policy)
{
    if ((src == NULL && len != 0) || (dst == NULL && len != 0))
        return result(PCT_INVALID_ARGUMENT, 0);
    if (policy == NULL)
        policy = &pct_path_policy_default;
    if (!valid_action(policy->encoded_slash) || !valid_action(policy->encoded_backslash) ||
        !valid_action(policy->encoded_control) || !valid_action(policy->encoded_percent) ||
        (policy->options & ~(unsigned)PATH_OPTIONS))
        return result(PCT_INVALID_ARGUMENT, 0);
    if (len == 0)
        return result(PCT_OK, 0);

    path_state s;
    s.src = (const uint8_t *)src;
    s.dst = (uint8_t *)dst;
    s.out = 0;
    s.policy = policy;
    pct_utf8_reset(&s.utf8);
    s.sequence = 0;
    s.end = pct_active_impl()->find(s.src, len, &query_or_fragment);

    size_t i = 0, error = 0;
    pct_status status;
    const int backslash = (policy->options & PCT_PATH_BACKSLASH) != 0;
    const int check_utf8 = (policy->options & PCT_PATH_UTF8) != 0;
    /* bare: the next segment has no separator before it (the start of a
     * relative path, or what follows a dropped leading "./" or "../"). */
    int bare = s.end == 0 || separator_at(&s, 0) == 0;
    while (i < s.end || bare) {
        const size_t token_out = s.out;
        if (!bare) {
            if ((status = skip_separators(&s, &i, &error)) != PCT_OK)
                return result(status, error);
            s.dst[s.out++] = '/';
        }
        const size_t segment_out = s.out;
        s.stray = SIZE_MAX;
        while (i < s.end) {
            const uint8_t c = s.src[i];
            if (c == '/' || (c == '\\' && backslash))
                break;
            if (c != '%' && !check_utf8) { /* the common case: a plain byte */
                s.dst[s.out++] = c;
                i++;
                continue;
            }
            if (c == '%' && separator_at(&s, i) != 0)
                break;
            if ((status = segment_token(&s, &i, &error)) != PCT_OK)
                return result(status, error);
        }
        const size_t n = s.out - segment_out;
        const uint8_t *seg = s.dst + segment_out;
        const int dots = (n == 1 && seg[0] == '.') ? 1 : (n == 2 && seg[0] == '.' && seg[1] == '.');
        const int last = i >= s.end;
        if (!dots) {
            bare = 0;
            if (last)
                break;
            continue;
        }
        s.out = token_out;
        if (bare) {
            /* 5.2.4 A and D: a leading "./" or "../" (or a lone "." or
             * "..") is dropped, separator included. */
            if (last)
                break;
            if ((status = skip_separators(&s, &i, &error)) != PCT_OK)
                return result(status, error);
            continue; /* still bare */
        }
        if (n == 2) { /* 5.2.4 C: remove the last output segment and its '/' */
            while (s.out > 0 && s.dst[s.out - 1] != '/')
                s.out--;
            if (s.out > 0)
                s.out--;
        }
        if (last) { /* "/." or "/.." at the end leaves a '/' */
            s.dst[s.out++] = '/';
            break;
        }
    }
    if ((policy->options & PCT_PATH_UTF8) && s.utf8.needed != 0)
        return result(PCT_INVALID_UTF8, s.sequence);
    /* The query and fragment, as they are (out <= end: memmove). */
    if (len > s.end)
        memmove(s.dst + s.out, s.src + s.end, len - s.end);
    return result(PCT_OK, s.out + (len - s.end));
}
