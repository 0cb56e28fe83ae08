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

static int valid_action(pct_path_action a);

/* The bytes no action may decode into a path: '?' and '#' would end it for
 * the next hop, a control byte would reach it raw (%0D%0A is request
 * splitting, %00 truncation). */
static int never_decoded(unsigned b)
{
    return b == '?' || b == '#' || b < 0x20 || b == 0x7F;
}

/* ---- v2 policies ---------------------------------------------------------- */

#define PATH_OPTIONS_V2                                                                            \
    (PATH_OPTIONS | PCT_PATH_REJECT_ABOVE_ROOT | PCT_PATH_DOT_PARAMS |                             \
     PCT_PATH_REJECT_DOT_PARAMS | PCT_PATH_REJECT_CHANGED)

static int is_unreserved(uint8_t b)
{
    return !pct_in_set(&pct_set_rfc3986, b);
}

/* The bytes of a class. */
static int in_class(pct_path_class c, unsigned b)
{
    switch (c) {
    case PCT_PATH_CLASS_SLASH:
        return b == '/';
    case PCT_PATH_CLASS_BACKSLASH:
        return b == '\\';
    case PCT_PATH_CLASS_NUL:
        return b == 0;
    case PCT_PATH_CLASS_SEMICOLON:
        return b == ';';
    case PCT_PATH_CLASS_PERCENT:
        return b == '%';
    case PCT_PATH_CLASS_QUESTION:
        return b == '?';
    case PCT_PATH_CLASS_HASH:
        return b == '#';
    case PCT_PATH_CLASS_CONTROL:
        return (b >= 1 && b < 0x20) || b == 0x7F;
    default:
        return 0;
    }
}

/* The v2 policy that a v1 policy means. */
static void policy_from_v1(pct_path_policy_v2 *p, const pct_path_policy *v1)
{
    p->size = sizeof *p;
    p->options = v1->options;
    for (unsigned b = 0; b < 256; b++)
        p->action[b] = (uint8_t)(is_unreserved((uint8_t)b) ? PCT_PATH_DECODE : PCT_PATH_KEEP);
    p->action['/'] = (uint8_t)v1->encoded_slash;
    p->action['\\'] = (uint8_t)v1->encoded_backslash;
    p->action['%'] = (uint8_t)v1->encoded_percent;
    for (unsigned b = 0; b < 0x20; b++)
        p->action[b] = (uint8_t)v1->encoded_control;
    p->action[0x7F] = (uint8_t)v1->encoded_control;
}

pct_status pct_path_policy_v2_set(pct_path_policy_v2 *policy, pct_path_class cls,
                                  pct_path_action action)
{
    if (policy == NULL || (unsigned)cls >= PCT_PATH_CLASSES || !valid_action(action) ||
        (action == PCT_PATH_DECODE &&
         (cls == PCT_PATH_CLASS_QUESTION || cls == PCT_PATH_CLASS_HASH ||
          cls == PCT_PATH_CLASS_NUL || cls == PCT_PATH_CLASS_CONTROL)))
        return PCT_INVALID_ARGUMENT;
    for (unsigned b = 0; b < 256; b++)
        if (in_class(cls, b))
            policy->action[b] = (uint8_t)action;
    return PCT_OK;
}

pct_status pct_path_policy_v2_init(pct_path_policy_v2 *policy, const char *name)
{
    if (policy == NULL)
        return PCT_INVALID_ARGUMENT;
    policy_from_v1(policy, &pct_path_policy_default);
    if (name == NULL)
        return PCT_OK;
    const pct_path_policy *v1 = pct_path_policy_by_name(name);
    if (v1) {
        policy_from_v1(policy, v1);
        return PCT_OK;
    }
    const int strict = strcmp(name, "strict") == 0;
    if (!strict && strcmp(name, "traefik") != 0)
        return PCT_INVALID_ARGUMENT;
    for (unsigned c = 0; c < PCT_PATH_CLASSES; c++)
        if (strict || c != PCT_PATH_CLASS_CONTROL)
            pct_path_policy_v2_set(policy, (pct_path_class)c, PCT_PATH_REJECT);
    policy->options = PCT_PATH_MERGE_SLASHES;
    if (strict) {
        policy->options |= PCT_PATH_BACKSLASH | PCT_PATH_UTF8 | PCT_PATH_STRICT |
                           PCT_PATH_REJECT_ABOVE_ROOT | PCT_PATH_REJECT_DOT_PARAMS;
    } else {
        policy->action[0x7F] = PCT_PATH_KEEP;
        for (unsigned b = 1; b < 0x20; b++)
            policy->action[b] = PCT_PATH_KEEP;
    }
    return PCT_OK;
}

static int valid_policy_v2(const pct_path_policy_v2 *p)
{
    if (p->size < sizeof *p || (p->options & ~(unsigned)PATH_OPTIONS_V2))
        return 0;
    for (unsigned b = 0; b < 256; b++) {
        const pct_path_action a = (pct_path_action)p->action[b];
        if (!valid_action(a) || (a == PCT_PATH_KEEP && is_unreserved((uint8_t)b)) ||
            (a == PCT_PATH_DECODE && never_decoded(b)))
            return 0;
    }
    return 1;
}

size_t pct_path_report_format(uint32_t changes, char *buf, size_t size)
{
    static const char *const names[] = {"decode-unreserved", "decode",       "uppercase-hex",
                                        "remove-dots",       "encoded-dots", "clamp-at-root",
                                        "merge-slashes",     "backslash",    "params"};
    size_t n = 0;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (!(changes & (1u << k)))
            continue;
        for (const char *c = n ? "," : ""; *c; c++, n++)
            if (n + 1 < size)
                buf[n] = *c;
        for (const char *c = names[k]; *c; c++, n++)
            if (n + 1 < size)
                buf[n] = *c;
    }
    if (size)
        buf[n < size ? n : size - 1] = 0;
    return n;
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
    const pct_path_policy_v2 *policy;
    unsigned options;
    pct_utf8_state utf8;
    size_t sequence; /* input offset where the pending UTF-8 sequence starts */
    size_t stray;    /* output offset of the last '%' that starts no escape, or SIZE_MAX */
    pct_path_report report;
} path_state;

/* Notes a change (a PCT_PATH_DID_* bit) at input offset at. */
static void did(path_state *s, uint32_t what, size_t at)
{
    s->report.changes |= what;
    if (at < s->report.first_change)
        s->report.first_change = at;
}

/* Length of the separator token at src[i] (i < end), or 0. */
static size_t separator_at(const path_state *s, size_t i)
{
    const uint8_t c = s->src[i];
    if (c == '/' || (c == '\\' && (s->options & PCT_PATH_BACKSLASH)))
        return 1;
    if (c == '%') {
        const int v = pct_escape_value(s->src, s->end, i);
        if ((v == '/' && s->policy->action['/'] == PCT_PATH_DECODE) ||
            (v == '\\' && s->policy->action['\\'] == PCT_PATH_DECODE &&
             (s->options & PCT_PATH_BACKSLASH)))
            return 3;
    }
    return 0;
}

/* PCT_PATH_UTF8: feeds the byte a token at input offset at stands for.
 * Returns 0, or -1 with *error set. */
static int utf8_feed(path_state *s, uint8_t b, size_t at, size_t *error)
{
    if (!(s->options & PCT_PATH_UTF8))
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
        if (s->options & PCT_PATH_STRICT) {
            /* The lowest offset: a pending sequence is broken by this '%'. */
            if ((s->options & PCT_PATH_UTF8) && s->utf8.needed != 0) {
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
    pct_path_action action = (pct_path_action)s->policy->action[b];
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
        if (b == '%' && (s->options & PCT_PATH_STRICT))
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
        did(s, is_unreserved(b) ? PCT_PATH_DID_DECODE_UNRESERVED : PCT_PATH_DID_DECODE, at);
    } else {
        const uint8_t high = pct_hex_digit((unsigned)v >> 4), low = pct_hex_digit((unsigned)v);
        if (s->src[at + 1] != high || s->src[at + 2] != low)
            did(s, PCT_PATH_DID_UPPERCASE_HEX, at);
        s->dst[s->out] = '%';
        s->dst[s->out + 1] = high;
        s->dst[s->out + 2] = low;
        s->out += 3;
    }
    *i = at + 3;
    return PCT_OK;
}

/* Consumes the separator at src[*i] (and, with PCT_PATH_MERGE_SLASHES, the
 * ones right after it); notes what is not one literal '/'. */
static pct_status skip_separators(path_state *s, size_t *i, size_t *error)
{
    size_t n = separator_at(s, *i);
    for (int first = 1;; first = 0) {
        /* A separator stands for '/' or '\': ASCII, only a UTF-8 breaker. */
        if (utf8_feed(s, '/', *i, error))
            return PCT_INVALID_UTF8;
        if (!first)
            did(s, PCT_PATH_DID_MERGE_SLASHES, *i);
        if (n == 3)
            did(s, PCT_PATH_DID_DECODE, *i);
        else if (s->src[*i] == '\\')
            did(s, PCT_PATH_DID_BACKSLASH, *i);
        *i += n;
        if (!(s->options & PCT_PATH_MERGE_SLASHES) || *i >= s->end)
            return PCT_OK;
        n = separator_at(s, *i);
        if (n == 0)
            return PCT_OK;
    }
}

/* 1 or 2 if the segment seg[0..n) (output bytes) is "." or "..", with
 * PCT_PATH_DOT_PARAMS (or REJECT_DOT_PARAMS) also before a ';'; else 0.
 * *params: it has parameters. */
static int dot_segment(const uint8_t *seg, size_t n, unsigned options, int *params)
{
    const uint8_t *semicolon = n ? memchr(seg, ';', n) : NULL;
    *params = semicolon != NULL;
    if (semicolon && (options & (PCT_PATH_DOT_PARAMS | PCT_PATH_REJECT_DOT_PARAMS)))
        n = (size_t)(semicolon - seg);
    if (n == 1 && seg[0] == '.')
        return 1;
    if (n == 2 && seg[0] == '.' && seg[1] == '.')
        return 2;
    return 0;
}

static pct_result normalize(const char *src, size_t len, char *dst,
                            const pct_path_policy_v2 *policy, pct_path_report *report)
{
    path_state s;
    s.src = (const uint8_t *)src;
    s.dst = (uint8_t *)dst;
    s.out = 0;
    s.policy = policy;
    s.options = policy->options;
    pct_utf8_reset(&s.utf8);
    s.sequence = 0;
    s.report.changes = 0;
    s.report.first_change = len;
    s.end = len ? pct_active_impl()->find(s.src, len, &query_or_fragment) : 0;

    size_t i = 0, error = 0;
    pct_status status = PCT_OK;
    const int backslash = (s.options & PCT_PATH_BACKSLASH) != 0;
    const int check_utf8 = (s.options & PCT_PATH_UTF8) != 0;
    /* bare: the next segment has no separator before it (the start of a
     * relative path, or what follows a dropped leading "./" or "../"). */
    int bare = s.end == 0 || separator_at(&s, 0) == 0;
    while (len && (i < s.end || bare)) {
        const size_t token_out = s.out, token_in = i;
        if (!bare) {
            if ((status = skip_separators(&s, &i, &error)) != PCT_OK)
                goto fail;
            s.dst[s.out++] = '/';
        }
        const size_t segment_out = s.out, segment_in = i;
        int escapes = 0; /* the segment has a '%' (read before dst == src overwrites it) */
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
            escapes |= c == '%';
            if ((status = segment_token(&s, &i, &error)) != PCT_OK)
                goto fail;
        }
        const size_t n = s.out - segment_out;
        int params;
        const int dots = dot_segment(s.dst + segment_out, n, s.options, &params);
        const int last = i >= s.end;
        if (params)
            s.report.changes |= PCT_PATH_DID_SEE_PARAMS;
        if (dots && params && (s.options & PCT_PATH_REJECT_DOT_PARAMS)) {
            status = PCT_REJECTED_PATH;
            error = segment_in;
            goto fail;
        }
        if (!dots) {
            bare = 0;
            if (last)
                break;
            continue;
        }
        did(&s, PCT_PATH_DID_REMOVE_DOTS, token_in);
        if (escapes)
            did(&s, PCT_PATH_DID_SEE_ENCODED_DOTS, token_in);
        s.out = token_out;
        if (bare) {
            /* 5.2.4 A and D: a leading "./" or "../" (or a lone "." or
             * "..") is dropped, separator included. */
            if (last)
                break;
            if ((status = skip_separators(&s, &i, &error)) != PCT_OK)
                goto fail;
            continue; /* still bare */
        }
        if (dots == 2) {      /* 5.2.4 C: remove the last output segment and its '/' */
            if (s.out == 0) { /* nothing above: the root */
                if (s.options & PCT_PATH_REJECT_ABOVE_ROOT) {
                    status = PCT_REJECTED_PATH;
                    error = segment_in;
                    goto fail;
                }
                did(&s, PCT_PATH_DID_CLAMP_AT_ROOT, token_in);
            }
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
    if (check_utf8 && s.utf8.needed != 0) {
        status = PCT_INVALID_UTF8;
        error = s.sequence;
        goto fail;
    }
    if ((s.options & PCT_PATH_REJECT_CHANGED) && (s.report.changes & ~PCT_PATH_DID_SEE_PARAMS)) {
        status = PCT_REJECTED_PATH;
        error = s.report.first_change;
        goto fail;
    }
    if (report)
        *report = s.report;
    /* The query and fragment, as they are (out <= end: memmove). */
    if (len > s.end)
        memmove(s.dst + s.out, s.src + s.end, len - s.end);
    return result(PCT_OK, s.out + (len - s.end));
fail:
    if (report && status == PCT_REJECTED_PATH)
        *report = s.report;
    return result(status, error);
}

pct_result pct_normalize_path(const char *src, size_t len, char *dst, const pct_path_policy *policy)
{
    if ((src == NULL && len != 0) || (dst == NULL && len != 0))
        return result(PCT_INVALID_ARGUMENT, 0);
    if (policy == NULL)
        policy = &pct_path_policy_default;
    if (!valid_action(policy->encoded_slash) || !valid_action(policy->encoded_backslash) ||
        !valid_action(policy->encoded_control) || policy->encoded_control == PCT_PATH_DECODE ||
        !valid_action(policy->encoded_percent) || (policy->options & ~(unsigned)PATH_OPTIONS))
        return result(PCT_INVALID_ARGUMENT, 0);
    pct_path_policy_v2 v2;
    policy_from_v1(&v2, policy);
    return normalize(src, len, dst, &v2, NULL);
}

pct_result pct_normalize_path_v2(const char *src, size_t len, char *dst,
                                 const pct_path_policy_v2 *policy, pct_path_report *report)
{
    if ((src == NULL && len != 0) || (dst == NULL && len != 0))
        return result(PCT_INVALID_ARGUMENT, 0);
    pct_path_policy_v2 preset;
    if (policy == NULL) {
        pct_path_policy_v2_init(&preset, NULL);
        policy = &preset;
    }
    if (!valid_policy_v2(policy))
        return result(PCT_INVALID_ARGUMENT, 0);
    return normalize(src, len, dst, policy, report);
}
