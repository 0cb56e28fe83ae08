/* tests/simd/harness.h - what the SIMD tests share:
 * the sets, the operation x flags combinations and the input generators (the
 * PRNG, guard pages and the choice of implementations are tests/support's).
 *
 * Environment (tests/support/knobs.h): PCT_TEST_SEED=n reproduces a run,
 * PCT_TEST_QUICK=1 shrinks the loops about 10x (sanitizers, qemu),
 * PCT_TEST_IMPL=name tests that implementation only.
 */
#ifndef PCT_TESTS_SIMD_HARNESS_H
#define PCT_TESTS_SIMD_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../flag_names.h"
#include "../support/impls.h"
#include "../support/prng.h"

/* ------------------------------------------------------------------------ */
/* Sets                                                                      */
/* ------------------------------------------------------------------------ */

#define N_SETS 13
static pct_set sets[N_SETS];
static const char *set_names[N_SETS];

static void add_name(int k, const char *name, const pct_set *s)
{
    set_names[k] = name;
    sets[k] = *s;
}

static void harness_sets(void)
{
    pct_set s;
    add_name(0, "component", &pct_set_component);
    add_name(1, "query", &pct_set_query);
    add_name(2, "path", &pct_set_path);
    add_name(3, "form", &pct_set_form);
    add_name(4, "rfc3986", &pct_set_rfc3986);
    add_name(5, "uri", &pct_set_uri);
    add_name(6, "c0_control", &pct_set_c0_control);
    pct_set_clear(&s);
    add_name(7, "empty", &s);
    pct_set_fill(&s);
    add_name(8, "full", &s);
    for (int b = 0; b < 32; b++) /* any user-built set */
        s.bits[b] = (uint8_t)rng_next();
    add_name(9, "random", &s);
    pct_set_clear(&s); /* the bytes that make escapes: '%', hex digits, '+', ' ', 'u' */
    pct_set_add_chars(&s, "%0123456789abcdefABCDEF+ u");
    add_name(10, "escape-bytes", &s);
    pct_set_clear(&s); /* ASCII only: no byte >= 0x80 */
    for (int b = 0; b < 16; b++)
        s.bits[b] = (uint8_t)rng_next();
    add_name(11, "random-ascii", &s);
    pct_set_clear(&s); /* only bytes >= 0x80 (some of them) */
    for (int b = 16; b < 32; b++)
        s.bits[b] = (uint8_t)(rng_next() | 0x11);
    add_name(12, "random-high", &s);
}

/* Keep sets for decode (index into sets, or -1 for NULL). */
static pct_set keep_slash, keep_uri;

static void harness_keeps(void)
{
    pct_set_clear(&keep_slash);
    pct_set_add_chars(&keep_slash, "/");
    pct_set_clear(&keep_uri); /* JavaScript decodeURI */
    pct_set_add_chars(&keep_uri, "#$&+,/:;=?@");
}

/* ------------------------------------------------------------------------ */
/* Operations x flags                                                        */
/* ------------------------------------------------------------------------ */

enum {
    OP_FIND,
    OP_ENCODE_LENGTH,
    OP_ENCODE,
    OP_ENCODE_PARTIAL,
    OP_DECODE,
    OP_DECODE_PARTIAL,
    OP_DECODE_IN_PLACE,
    OP_VALIDATE,
    N_OPS
};

static const char *const op_names[N_OPS] = {
    "find",   "encode_length",   "encode",           "encode(partial)",
    "decode", "decode(partial)", "decode(in place)", "validate",
};

/* keep codes for decode */
enum {
    KEEP_NULL = -1,
    KEEP_SLASH = -2,
    KEEP_URI = -3,
    KEEP_NORMALIZE = -4
};

typedef struct combo {
    int op;
    unsigned flags;
    int set; /* index into sets; for decode a KEEP_* code or an index */
} combo;

#define MAX_COMBOS 2048
static combo combos[MAX_COMBOS];
static size_t n_combos;
/* The combos of each operation: combos[op_first[op] .. op_first[op + 1]). */
static size_t op_first[N_OPS + 1];

static void add_combo(int op, unsigned flags, int set)
{
    if (n_combos < MAX_COMBOS) {
        combo c = {op, flags, set};
        combos[n_combos++] = c;
    }
}

static const pct_set *combo_set(const combo *c)
{
    switch (c->set) {
    case KEEP_NULL:
        return NULL;
    case KEEP_SLASH:
        return &keep_slash;
    case KEEP_URI:
        return &keep_uri;
    case KEEP_NORMALIZE:
        return &pct_set_rfc3986; /* what pct_normalize passes */
    default:
        return &sets[c->set];
    }
}

static const char *combo_set_name(const combo *c)
{
    switch (c->set) {
    case KEEP_NULL:
        return "keep=NULL";
    case KEEP_SLASH:
        return "keep=/";
    case KEEP_URI:
        return "keep=decodeURI";
    case KEEP_NORMALIZE:
        return "normalize";
    default:
        return set_names[c->set];
    }
}

static void harness_combos(void)
{
    static const int keeps[] = {KEEP_NULL, KEEP_SLASH, KEEP_URI, 9, 8};
    for (int op = 0; op < N_OPS; op++) {
        op_first[op] = n_combos;
        for (int s = 0; s < N_SETS; s++) {
            unsigned all = 0;
            if (op == OP_FIND) {
                add_combo(op, 0, s);
                continue;
            }
            if (op == OP_ENCODE_LENGTH || op == OP_ENCODE || op == OP_ENCODE_PARTIAL)
                all = PCT_ENCODE_FLAGS;
            else if (op == OP_VALIDATE)
                all = PCT_VALIDATE_FLAGS;
            else
                break;                  /* decode: by keep set below */
            if (op == OP_ENCODE_LENGTH) /* only PCT_PLUS and PCT_KEEP_ESCAPES matter */
                all = PCT_PLUS | PCT_KEEP_ESCAPES;
            for (unsigned f = 0; f <= all; f++)
                if ((f & ~all) == 0)
                    add_combo(op, f, s);
        }
        if (op == OP_DECODE || op == OP_DECODE_PARTIAL || op == OP_DECODE_IN_PLACE) {
            for (size_t k = 0; k < sizeof keeps / sizeof keeps[0]; k++)
                for (unsigned f = 0; f <= PCT_DECODE_FLAGS; f++) {
                    if (f & ~(unsigned)PCT_DECODE_FLAGS)
                        continue;
                    if ((f & PCT_UTF8) && (f & PCT_UTF8_REPLACE))
                        continue; /* rejected by the API */
                    if (op == OP_DECODE_IN_PLACE && (f & PCT_UTF8_REPLACE))
                        continue; /* must not overlap */
                    add_combo(op, f, keeps[k]);
                }
            add_combo(op, PCT_INTERNAL_NORMALIZE, KEEP_NORMALIZE);
            add_combo(op, PCT_INTERNAL_NORMALIZE | PCT_STRICT, KEEP_NORMALIZE);
        }
    }
    op_first[N_OPS] = n_combos;
}

static void harness_init(void)
{
    harness_sets();
    harness_keeps();
    harness_combos();
}

static inline void print_flags(unsigned f)
{
    pct_test_print_flags(stdout, f);
}

static inline void print_hex(const char *label, const uint8_t *p, size_t n)
{
    const size_t shown = n > 400 ? 400 : n;
    printf("  %s (%zu bytes):", label, n);
    for (size_t k = 0; k < shown; k++)
        printf("%s%02x", k % 32 ? " " : "\n    ", p[k]);
    if (shown < n)
        printf("\n    ... (%zu more)", n - shown);
    printf("\n");
}

/* ------------------------------------------------------------------------ */
/* Input generators                                                          */
/* ------------------------------------------------------------------------ */

static const char hex_upper[] = "0123456789ABCDEF";
static const char hex_lower[] = "0123456789abcdef";

static char hex_digit(unsigned v)
{
    return (rng_next() & 1) ? hex_upper[v & 15] : hex_lower[v & 15];
}

/* A random UTF-8 sequence (valid unless bad), returns its length. */
static size_t gen_utf8(uint8_t *out, int bad)
{
    uint32_t cp;
    switch (rng_below(4)) {
    case 0:
        cp = 0x80 + (uint32_t)rng_below(0x800 - 0x80);
        break;
    case 1:
        cp = 0x3040 + (uint32_t)rng_below(0x9FFF - 0x3040); /* kana and CJK */
        break;
    case 2:
        cp = 0x10000 + (uint32_t)rng_below(0x110000 - 0x10000);
        break;
    default:
        cp = 0x800 + (uint32_t)rng_below(0xD800 - 0x800);
        break;
    }
    size_t n;
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | cp >> 6);
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 | cp >> 12);
        out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        out[0] = (uint8_t)(0xF0 | cp >> 18);
        out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        out[3] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 4;
    }
    if (bad) {
        static const uint8_t ill[][4] = {{0xC0, 0x80},
                                         {0xED, 0xA0, 0x80},
                                         {0xF4, 0x90, 0x80, 0x80},
                                         {0xE0, 0x80, 0x80},
                                         {0xFF},
                                         {0x80},
                                         {0xF5},
                                         {0xC2}};
        static const size_t ill_len[] = {2, 3, 4, 3, 1, 1, 1, 1};
        const size_t k = rng_below(10);
        if (k < 8) {
            memcpy(out, ill[k], ill_len[k]);
            return ill_len[k];
        }
        return k == 8 ? n - 1 : 1; /* truncated sequence: a lead and too few continuations */
    }
    return n;
}

/* Appends at most room bytes of one random token; returns how many. */
static size_t gen_token(uint8_t *out, size_t room, int profile)
{
    uint8_t t[32];
    size_t n = 0;
    static const char plain[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~";
    static const char reserved[] = "/?#[]@!$&'()*+,;=: \"<>`{}|\\^";
    size_t r = rng_below(100);
    if (profile == 1 && r < 60) /* dense: escaped UTF-8 */
        r = 40;
    if (profile == 2 && r < 70) /* plain text */
        r = 0;
    if (r < 25) {
        t[n++] = (uint8_t)plain[rng_below(sizeof plain - 1)];
    } else if (r < 30) {
        t[n++] = '%';
    } else if (r < 42) {
        t[n++] = '%';
        t[n++] = (uint8_t)hex_digit((unsigned)rng_below(16));
        t[n++] = (uint8_t)hex_digit((unsigned)rng_below(16));
    } else if (r < 52) { /* an escaped UTF-8 sequence, sometimes ill-formed */
        uint8_t u[4];
        const size_t k = gen_utf8(u, rng_below(8) == 0);
        for (size_t j = 0; j < k; j++) {
            t[n++] = '%';
            t[n++] = (uint8_t)hex_digit(u[j] >> 4);
            t[n++] = (uint8_t)hex_digit(u[j]);
        }
    } else if (r < 55) {
        t[n++] = '%';
        t[n++] = (uint8_t)hex_digit((unsigned)rng_below(16));
    } else if (r < 59) { /* %uXXXX, surrogates included */
        static const unsigned units[] = {0xD83D, 0xDE00, 0xD800, 0xDFFF, 0x00E9, 0x002F, 0x0041};
        const unsigned u =
            rng_below(2) ? units[rng_below(sizeof units / sizeof units[0])] : (unsigned)rng_next();
        t[n++] = '%';
        t[n++] = (uint8_t)(rng_below(8) ? 'u' : 'U');
        for (int s = 12; s >= 0; s -= 4)
            t[n++] = (uint8_t)hex_digit((u >> s) & 15);
    } else if (r < 63) {
        t[n++] = '+';
    } else if (r < 66) {
        t[n++] = ' ';
    } else if (r < 74) { /* raw UTF-8 */
        n += gen_utf8(t, rng_below(10) == 0);
    } else if (r < 77) {
        t[n++] = (uint8_t)(0x80 + rng_below(128));
    } else if (r < 78) {
        t[n++] = 0;
    } else if (r < 84) {
        t[n++] = (uint8_t)hex_digit((unsigned)rng_below(16));
    } else if (r < 86) {
        t[n++] = 'u';
    } else if (r < 94) {
        t[n++] = (uint8_t)reserved[rng_below(sizeof reserved - 1)];
    } else {
        t[n++] = (uint8_t)rng_next(); /* any byte */
    }
    if (n > room)
        n = room;
    memcpy(out, t, n);
    return n;
}

/* Random text biased toward the bytes that matter: profile 0 mixed, 1 dense
 * escapes, 2 mostly plain. */
static void gen_text(uint8_t *out, size_t len, int profile)
{
    size_t i = 0;
    while (i < len)
        i += gen_token(out + i, len - i, profile);
}

/* Well-formed UTF-8 text: ASCII words, spaces and punctuation mixed with
 * 2-, 3- and 4-byte characters (dense: mostly characters). */
static inline void gen_utf8_text(uint8_t *out, size_t len, int dense)
{
    static const char ascii[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                "-._~ /?&=+%#:@!$'()*,;";
    size_t i = 0;
    while (i < len) {
        if ((size_t)rng_below(100) < (dense ? 15u : 80u)) {
            out[i++] = (uint8_t)ascii[rng_below(sizeof ascii - 1)];
            continue;
        }
        uint8_t u[4];
        const size_t n = gen_utf8(u, 0);
        if (i + n > len) {
            out[i++] = 'a';
            continue;
        }
        memcpy(out + i, u, n);
        i += n;
    }
}

/* Plain text with an escape (or a '+', or a stray '%') every 20 bytes or so:
 * what the kernels' few-escapes paths take. */
static inline void gen_sparse_text(uint8_t *out, size_t len)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyz0123456789-._~/=&";
    for (size_t i = 0; i < len; i++)
        out[i] = (uint8_t)plain[rng_below(sizeof plain - 1)];
    for (size_t i = rng_below(20); i + 3 <= len; i += 1 + rng_below(40)) {
        const size_t r = rng_below(8);
        out[i] = r == 0 ? '+' : '%';
        if (r > 1) {
            out[i + 1] = (uint8_t)hex_digit((unsigned)rng_below(16));
            out[i + 2] = (uint8_t)hex_digit((unsigned)rng_below(16));
        }
    }
}

#endif /* PCT_TESTS_SIMD_HARNESS_H */
