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
 *
 * That byte loop is the reference (pct_path_normalize_reference). The calls
 * run the same driver with the fast path below: the bytes that need no token
 * logic, most of a path, are copied as runs between the stops that the
 * implementation's find_all finds. The tests hold it to the reference.
 */
#include <stdint.h>
#include <string.h>

#include "impl.h"
#include "path.h"
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

/* ---- v2 policies ---------------------------------------------------------- */

#define PATH_OPTIONS_V2                                                                            \
    (PATH_OPTIONS | PCT_PATH_REJECT_ABOVE_ROOT | PCT_PATH_DOT_PARAMS |                             \
     PCT_PATH_REJECT_DOT_PARAMS | PCT_PATH_REJECT_CHANGED)

/* The actions an escape of a byte may not have: KEEP for the RFC 3986
 * unreserved bytes (ALPHA DIGIT - . _ ~, the bytes not in pct_set_rfc3986),
 * which are always decoded or rejected; DECODE for '?' and '#' (they would
 * end the path for the next hop) and for the controls (a control byte would
 * reach it raw: %0D%0A is request splitting, %00 truncation). A table built
 * at compile time, so that the checks of a policy's 256 actions, on every
 * call, vectorize. */
enum {
    REFUSES_KEEP = 1,
    REFUSES_DECODE = 2
};
#define UNRESERVED(b)                                                                              \
    (((b) >= 'a' && (b) <= 'z') || ((b) >= 'A' && (b) <= 'Z') || ((b) >= '0' && (b) <= '9') ||     \
     (b) == '-' || (b) == '.' || (b) == '_' || (b) == '~')
#define NEVER_DECODED(b) ((b) < 0x20 || (b) == 0x7F || (b) == '?' || (b) == '#')
#define REFUSED(b) ((UNRESERVED(b) ? REFUSES_KEEP : 0) | (NEVER_DECODED(b) ? REFUSES_DECODE : 0))
#define REFUSED_4(b) REFUSED(b), REFUSED((b) + 1), REFUSED((b) + 2), REFUSED((b) + 3)
#define REFUSED_16(b) REFUSED_4(b), REFUSED_4((b) + 4), REFUSED_4((b) + 8), REFUSED_4((b) + 12)
#define REFUSED_64(b)                                                                              \
    REFUSED_16(b), REFUSED_16((b) + 16), REFUSED_16((b) + 32), REFUSED_16((b) + 48)
static const uint8_t refused[256] = {REFUSED_64(0), REFUSED_64(64), REFUSED_64(128),
                                     REFUSED_64(192)};

static int is_unreserved(uint8_t b)
{
    return refused[b] & REFUSES_KEEP;
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

void pct_path_policy_from_v1(pct_path_policy_v2 *p, const pct_path_policy *v1)
{
    p->size = sizeof *p;
    p->options = v1->options;
    for (unsigned b = 0; b < 256; b++)
        p->action[b] = (uint8_t)(is_unreserved(b) ? PCT_PATH_DECODE : PCT_PATH_KEEP);
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
    pct_path_policy_from_v1(policy, &pct_path_policy_default);
    if (name == NULL)
        return PCT_OK;
    const pct_path_policy *v1 = pct_path_policy_by_name(name);
    if (v1) {
        pct_path_policy_from_v1(policy, v1);
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
    /* Without branches, so that it vectorizes. */
    uint8_t bad = 0;
    for (unsigned b = 0; b < 256; b++) {
        const uint8_t a = p->action[b];
        bad |= (uint8_t)((a > PCT_PATH_REJECT) |
                         (refused[b] & ((a == PCT_PATH_KEEP ? REFUSES_KEEP : 0) |
                                        (a == PCT_PATH_DECODE ? REFUSES_DECODE : 0))));
    }
    return !bad;
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

/* Is an escape of v (-1: no escape) a separator? */
static int separator_escape(const path_state *s, int v)
{
    return (v == '/' && s->policy->action['/'] == PCT_PATH_DECODE) ||
           (v == '\\' && s->policy->action['\\'] == PCT_PATH_DECODE &&
            (s->options & PCT_PATH_BACKSLASH));
}

/* Length of the separator token at src[i] (i < end), or 0. */
static size_t separator_at(const path_state *s, size_t i)
{
    const uint8_t c = s->src[i];
    if (c == '/' || (c == '\\' && (s->options & PCT_PATH_BACKSLASH)))
        return 1;
    if (c == '%' && separator_escape(s, pct_escape_value(s->src, s->end, i)))
        return 3;
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

/* Processes the '%' at src[*i] that is no separator, the escape of v (-1:
 * none); returns PCT_OK or an error with its offset in *error. */
static pct_status escape_token(path_state *s, size_t *i, int v, size_t *error)
{
    const size_t at = *i;
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

/* Processes the non-separator token at src[*i]; returns PCT_OK or an error
 * with its offset in *error. */
static pct_status segment_token(path_state *s, size_t *i, size_t *error)
{
    const size_t at = *i;
    const uint8_t c = s->src[at];
    if (c == '%')
        return escape_token(s, i, pct_escape_value(s->src, s->end, at), error);
    if (utf8_feed(s, c, at, error))
        return PCT_INVALID_UTF8;
    s->dst[s->out++] = c;
    *i = at + 1;
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

/* Offset of the first ';' of seg[0..n), or n. A loop, not memchr: the
 * segments looked at are a few bytes, shorter than the call. */
static size_t find_semicolon(const uint8_t *seg, size_t n)
{
    size_t k = 0;
    while (k < n && seg[k] != ';')
        k++;
    return k;
}

/* 1 or 2 if the segment seg[0..n) (output bytes) is "." or "..", with
 * PCT_PATH_DOT_PARAMS (or REJECT_DOT_PARAMS) also before a ';'; else 0.
 * *params: it has parameters. */
static int dot_segment(const uint8_t *seg, size_t n, unsigned options, int *params)
{
    const size_t semicolon = find_semicolon(seg, n);
    *params = semicolon < n;
    if (options & (PCT_PATH_DOT_PARAMS | PCT_PATH_REJECT_DOT_PARAMS))
        n = semicolon;
    if (n == 1 && seg[0] == '.')
        return 1;
    if (n == 2 && seg[0] == '.' && seg[1] == '.')
        return 2;
    return 0;
}

/* Could the segment whose output so far is seg[0..n) still be "." or ".."
 * (with the dot-params options, before a ';')? */
static int may_be_dots(const uint8_t *seg, size_t n, unsigned options)
{
    const int params = (options & (PCT_PATH_DOT_PARAMS | PCT_PATH_REJECT_DOT_PARAMS)) != 0;
    for (size_t k = 0; k < n; k++) {
        if (k < 2 && seg[k] == '.')
            continue;
        return params && k >= 1 && seg[k] == ';';
    }
    return 1;
}

/* ---- The fast path ----------------------------------------------------------
 * Most of a path needs none of the token logic: its bytes are copied as they
 * are. The bytes that may need it are found by the implementation's
 * find_all, one SIMD classification per block, and the runs between them are
 * copied whole. They are the stops:
 *   '%', '\' (PCT_PATH_BACKSLASH), ';' (when a report wants
 *   PCT_PATH_DID_SEE_PARAMS), the bytes >= 0x80 (PCT_PATH_UTF8: they are
 *   checked, by the UTF-8 validator where they are whole sequences), and a
 *   '/' or '.' followed by '/', '.' or one of those.
 * A '/' followed by any other byte starts a segment that cannot be a dot
 * segment and is no merged or decoded separator, so nothing happens there.
 * A stop '/' (and a separator escape) goes to the token logic for its
 * separators and the start of its segment; once that segment cannot be a dot
 * segment any more, the runs take over again. (A '.' stop is for the '/'
 * before it; inside a segment it is copied.) */

/* A map of the stops of src[base..base + size), refilled as the scan passes
 * its end: the input at and after the scan is never overwritten (the output
 * never runs ahead), so in place the map stays true. */
enum {
    STOP_MAP_BYTES = 1024,
    STOP_MAP_WORDS = STOP_MAP_BYTES / 64
};

/* The stop sets, by options: '/' '.' '%' always, '\' with
 * PCT_PATH_BACKSLASH, ';' when tracked, 0x80-0xFF with PCT_PATH_UTF8 (set
 * bit b & 7 of byte b >> 3). Constant, not built per call: a set written
 * byte by byte and then loaded whole by the kernel stalls on store
 * forwarding. */
#define STOP_SET(backslash, semicolon, utf8)                                                       \
    {                                                                                              \
        {                                                                                          \
            ['%' >> 3] = 1u << ('%' & 7), ['/' >> 3] = SLASH_AND_DOT,                              \
                    [';' >> 3] = (semicolon) ? 1u << (';' & 7) : 0,                                \
                    ['\\' >> 3] = (backslash) ? 1u << ('\\' & 7) : 0,                              \
                    [0x80 >> 3] = NON_ASCII(utf8)                                                  \
        }                                                                                          \
    }
#define SLASH_AND_DOT (1u << ('/' & 7) | 1u << ('.' & 7)) /* (one byte of the set) */
#define ALL_IF(on) ((on) ? 0xFF : 0)
#define FOUR(x) x, x, x, x
#define NON_ASCII(on) FOUR(ALL_IF(on)), FOUR(ALL_IF(on)), FOUR(ALL_IF(on)), FOUR(ALL_IF(on))
/* indexed by backslash | semicolon << 1 | utf8 << 2 */
static const pct_set stop_sets[8] = {STOP_SET(0, 0, 0), STOP_SET(1, 0, 0), STOP_SET(0, 1, 0),
                                     STOP_SET(1, 1, 0), STOP_SET(0, 0, 1), STOP_SET(1, 0, 1),
                                     STOP_SET(0, 1, 1), STOP_SET(1, 1, 1)};
static const pct_set slash_or_dot = {{['/' >> 3] = SLASH_AND_DOT}};

typedef struct stop_map {
    const pct_set *stops;
    pct_find_all_fn *find_all;
    const uint8_t *src;
    size_t end; /* of the path */
    size_t base, size;
    uint64_t bits[STOP_MAP_WORDS];
} stop_map;

static void stop_map_init(stop_map *m, const path_state *s, int semicolons)
{
    const int backslash = (s->options & PCT_PATH_BACKSLASH) != 0;
    const int utf8 = (s->options & PCT_PATH_UTF8) != 0;
    m->stops = &stop_sets[backslash | semicolons << 1 | utf8 << 2];
    m->find_all = pct_active_impl()->find_all;
    if (m->find_all == NULL)
        m->find_all = pct_scalar_find_all;
    m->src = s->src;
    m->end = s->end;
    m->base = 0;
    m->size = 0;
}

/* Maps src[base..base + size): a byte of `stops` other than '/' and '.', or
 * a '/' or '.' before one of `stops`. The byte after the window is not
 * looked at: a '/' or '.' last in it is a stop. */
static void stop_map_fill(stop_map *m, size_t base)
{
    uint64_t lead[STOP_MAP_WORDS];
    m->base = base;
    m->size = m->end - base < STOP_MAP_BYTES ? m->end - base : STOP_MAP_BYTES;
    m->find_all(m->src + base, m->size, m->stops, m->bits);
    m->find_all(m->src + base, m->size, &slash_or_dot, lead);
    const size_t words = (m->size + 63) / 64;
    const unsigned tail = (unsigned)(m->size % 64);
    for (size_t w = 0; w < words; w++) {
        const uint64_t next = w + 1 < words ? m->bits[w + 1] : ~(uint64_t)0;
        uint64_t any = m->bits[w];
        if (w + 1 == words && tail)
            any |= (uint64_t)1 << tail; /* the byte after the window */
        const uint64_t before_stop = (any >> 1) | (next << 63);
        m->bits[w] = (m->bits[w] & ~lead[w]) | (lead[w] & before_stop);
    }
}

/* Offset of the first stop at or after i, or the end of the path. */
static size_t next_stop(stop_map *m, size_t i)
{
    while (i < m->end) {
        if (i - m->base >= m->size)
            stop_map_fill(m, i);
        const size_t r = i - m->base;
        const uint64_t word = m->bits[r / 64] >> (r % 64);
        if (word)
            return i + (size_t)__builtin_ctzll(word);
        i = m->base + (r | 63) + 1;
    }
    return m->end;
}

/* memmove of n bytes to dst <= src: every load before the stores that could
 * overwrite it, so short runs need no call. */
static void copy_run(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n > 16 && n <= 32) {
        uint8_t head[16], tail[16];
        memcpy(head, src, 16);
        memcpy(tail, src + n - 16, 16);
        memcpy(dst, head, 16);
        memcpy(dst + n - 16, tail, 16);
    } else if (n >= 8 && n <= 16) {
        uint64_t head, tail;
        memcpy(&head, src, 8);
        memcpy(&tail, src + n - 8, 8);
        memcpy(dst, &head, 8);
        memcpy(dst + n - 8, &tail, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t head, tail;
        memcpy(&head, src, 4);
        memcpy(&tail, src + n - 4, 4);
        memcpy(dst, &head, 4);
        memcpy(dst + n - 4, &tail, 4);
    } else if (n < 4) {
        for (size_t k = 0; k < n; k++)
            dst[k] = src[k];
    } else {
        memmove(dst, src, n);
    }
}

/* The escape of v at src[at] inside a segment, if it is a common one:
 * KEEP (hex upper-cased), or DECODE of a byte that no rule of escape_token
 * keeps escaped and that is no separator, so that the bytes written and the
 * change noted are all there is to it. Written without branches between the
 * two, which follow each other at random in real paths: the three bytes of
 * the escape are always written (in place they are the escape's own, read
 * already) and the output advances by 1 or 3. Returns 0 for any other escape,
 * which escape_token takes. */
static int common_escape(path_state *s, size_t at, int v)
{
    /* (Under PCT_PATH_UTF8 an ASCII byte between sequences is all that
     * leaves the UTF-8 state as it is.) */
    if (v < 0 || ((s->options & PCT_PATH_UTF8) && (v >= 0x80 || s->utf8.needed != 0)))
        return 0;
    const uint8_t b = (uint8_t)v;
    const unsigned action = s->policy->action[b];
    const int decode = action == PCT_PATH_DECODE;
    if (action == PCT_PATH_REJECT ||
        (decode && (b == '%' || pct_is_hex(b) || b == '/' || b == '\\')))
        return 0;
    const uint8_t high = pct_hex_digit(b >> 4), low = pct_hex_digit(b);
    const int recased = s->src[at + 1] != high || s->src[at + 2] != low;
    s->dst[s->out] = decode ? b : '%';
    s->dst[s->out + 1] = high;
    s->dst[s->out + 2] = low;
    s->out += decode ? 1 : 3;
    const uint32_t change =
        decode    ? (is_unreserved(b) ? PCT_PATH_DID_DECODE_UNRESERVED : PCT_PATH_DID_DECODE)
        : recased ? PCT_PATH_DID_UPPERCASE_HEX
                  : 0;
    s->report.changes |= change | (decode && b == ';' ? PCT_PATH_DID_SEE_PARAMS : 0);
    if (change && at < s->report.first_change)
        s->report.first_change = at;
    return 1;
}

/* Under PCT_PATH_UTF8, between sequences: the literal non-ASCII bytes from
 * src[at] are checked by the implementation's UTF-8 validator, and the
 * well-formed sequences they start with are copied. Returns where that
 * stops: where the token logic takes over (an ill-formed sequence, whose
 * offset it reports, or one that an escape or an ASCII byte ends). */
static size_t copy_utf8_run(path_state *s, size_t at)
{
    size_t end = at;
    while (end < s->end && s->src[end] >= 0x80)
        end++;
    pct_validate_utf8_fn *validate = pct_active_impl()->validate_utf8;
    if (validate == NULL)
        validate = pct_scalar_validate_utf8;
    const pct_result r = validate(s->src + at, end - at);
    const size_t n = r.status == PCT_OK ? end - at : r.count;
    if (s->dst + s->out != s->src + at)
        copy_run(s->dst + s->out, s->src + at, n);
    s->out += n;
    return at + n;
}

/* From src[*i], at a separator or inside a segment that cannot be a dot
 * segment: copies runs and takes the stops inside segments through the token
 * logic, up to the next separator that needs it (*i there) or the end. */
static pct_status scan_runs(path_state *s, stop_map *map, size_t *i, size_t *error)
{
    const int backslash = (s->options & PCT_PATH_BACKSLASH) != 0;
    const int check_utf8 = (s->options & PCT_PATH_UTF8) != 0;
    while (*i < s->end) {
        size_t at = *i;
        /* In a UTF-8 sequence every byte goes to the token logic. */
        if (!(check_utf8 && s->utf8.needed != 0)) {
            at = next_stop(map, at);
            if (s->dst + s->out != s->src + *i)
                copy_run(s->dst + s->out, s->src + *i, at - *i);
            s->out += at - *i;
            *i = at;
            if (at >= s->end)
                break;
        }
        const uint8_t c = s->src[at];
        if (c == '/' || (c == '\\' && backslash))
            return PCT_OK;
        if (c >= 0x80 && check_utf8 && s->utf8.needed == 0) {
            const size_t next = copy_utf8_run(s, at);
            if (next > at) {
                *i = next;
                continue;
            }
        }
        const size_t written = s->out;
        pct_status status;
        if (c == '%') { /* parsed once: it may be a separator */
            const int v = pct_escape_value(s->src, s->end, at);
            if (common_escape(s, at, v)) {
                *i = at + 3;
                continue;
            }
            if (separator_escape(s, v))
                return PCT_OK;
            status = escape_token(s, i, v, error);
        } else {
            status = segment_token(s, i, error);
        }
        if (status != PCT_OK)
            return status;
        /* a literal ';' or a decoded %3B (a kept escape writes 3 bytes) */
        if (s->out == written + 1 && s->dst[written] == ';')
            s->report.changes |= PCT_PATH_DID_SEE_PARAMS;
    }
    return PCT_OK;
}

/* ---- The driver ------------------------------------------------------------ */

/* The segment at src[*i] up to a separator or the end of the path, one token
 * at a time. *escapes: it has a '%'. With runs (the fast path), it stops as
 * soon as the segment cannot be a dot segment (*may_be_dot_segment 0), to
 * let scan_runs do the rest. */
static pct_status scan_segment(path_state *s, size_t *i, size_t *error, int *escapes, int runs,
                               int *may_be_dot_segment)
{
    const int backslash = (s->options & PCT_PATH_BACKSLASH) != 0;
    const int check_utf8 = (s->options & PCT_PATH_UTF8) != 0;
    const size_t segment_out = s->out;
    *may_be_dot_segment = 1;
    while (*i < s->end) {
        const uint8_t c = s->src[*i];
        if (c == '/' || (c == '\\' && backslash))
            break;
        if (c != '%' && !check_utf8 && !runs) { /* a plain byte */
            s->dst[s->out++] = c;
            (*i)++;
            continue;
        }
        if (c == '%' && separator_at(s, *i) != 0)
            break;
        *escapes |= c == '%'; /* (read before dst == src overwrites it) */
        const pct_status status = segment_token(s, i, error);
        if (status != PCT_OK)
            return status;
        if (runs && !may_be_dots(s->dst + segment_out, s->out - segment_out, s->options)) {
            *may_be_dot_segment = 0;
            break;
        }
    }
    return PCT_OK;
}

/* pct_normalize_path_v2 on checked arguments; map NULL: one token at a time
 * (the reference), else with the runs of the fast path. */
static pct_result normalize_path(const char *src, size_t len, char *dst,
                                 const pct_path_policy_v2 *policy, pct_path_report *report,
                                 stop_map *map)
{
    path_state s;
    s.src = (const uint8_t *)src;
    s.dst = (uint8_t *)dst;
    s.out = 0;
    s.policy = policy;
    s.options = policy->options;
    pct_utf8_reset(&s.utf8);
    s.sequence = 0;
    s.stray = SIZE_MAX;
    s.report.changes = 0;
    s.report.first_change = len;
    s.end = len ? pct_active_impl()->find(s.src, len, &query_or_fragment) : 0;
    /* A ';' matters for PCT_PATH_DID_SEE_PARAMS, which only a report shows
     * (for the dot-params options dot_segment looks itself). */
    if (map)
        stop_map_init(map, &s, report != NULL);

    size_t i = 0, error = 0;
    pct_status status = PCT_OK;
    /* bare: the next segment has no separator before it (the start of a
     * relative path, or what follows a dropped leading "./" or "../"). */
    int bare = s.end == 0 || separator_at(&s, 0) == 0;
    while (len && (i < s.end || bare)) {
        if (map && !bare) {
            if ((status = scan_runs(&s, map, &i, &error)) != PCT_OK)
                goto fail;
            if (i >= s.end)
                break;
        }
        const size_t token_out = s.out, token_in = i;
        if (!bare) {
            if ((status = skip_separators(&s, &i, &error)) != PCT_OK)
                goto fail;
            s.dst[s.out++] = '/';
        }
        const size_t segment_out = s.out, segment_in = i;
        int escapes = 0, may_be_dot_segment;
        s.stray = SIZE_MAX;
        status = scan_segment(&s, &i, &error, &escapes, map != NULL, &may_be_dot_segment);
        if (status != PCT_OK)
            goto fail;
        const size_t n = s.out - segment_out;
        const int last = i >= s.end;
        if (!may_be_dot_segment) { /* the runs do the rest of it */
            if (report && find_semicolon(s.dst + segment_out, n) < n)
                s.report.changes |= PCT_PATH_DID_SEE_PARAMS;
            bare = 0;
            if (last)
                break;
            continue;
        }
        int params;
        const int dots = dot_segment(s.dst + segment_out, n, s.options, &params);
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
        /* A literal '%' the segment wrote is gone with it: the hex digits
         * decoded next must not be kept for it (the fast path's runs go on
         * into the next segment without the reset of scan_segment). */
        s.stray = SIZE_MAX;
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
    if ((s.options & PCT_PATH_UTF8) && s.utf8.needed != 0) {
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

pct_result pct_path_normalize_reference(const char *src, size_t len, char *dst,
                                        const pct_path_policy_v2 *policy, pct_path_report *report)
{
    return normalize_path(src, len, dst, policy, report, NULL);
}

static pct_result normalize(const char *src, size_t len, char *dst,
                            const pct_path_policy_v2 *policy, pct_path_report *report)
{
    stop_map map;
    return normalize_path(src, len, dst, policy, report, &map);
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
    pct_path_policy_from_v1(&v2, policy);
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
