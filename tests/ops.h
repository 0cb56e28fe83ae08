/* ops.h - run one libpct operation on a literal input with exactly-sized,
 * malloc'd buffers (so ASan sees overflows) and check status, count and
 * bytes. Decode and normalize are also run in place (dst == src), and every
 * expectation is also checked against the reference model (ref.h), so a
 * wrong model cannot hide behind the vectors. */
#ifndef PCT_TEST_OPS_H
#define PCT_TEST_OPS_H

#include "check.h"
#include "pct.h"
#include "ref.h"

/* A string literal as (pointer, length), NUL bytes included. */
#define S(lit) (lit), (sizeof(lit) - 1)

static inline const char *flag_str(unsigned flags)
{
    static char buf[8][96];
    static unsigned n;
    char *b = buf[n++ % 8];
    b[0] = 0;
    if (flags & PCT_PLUS)
        strcat(b, "|PLUS");
    if (flags & PCT_STRICT)
        strcat(b, "|STRICT");
    if (flags & PCT_UTF8)
        strcat(b, "|UTF8");
    if (flags & PCT_KEEP_ESCAPES)
        strcat(b, "|KEEP_ESCAPES");
    if (flags & PCT_PERCENT_U)
        strcat(b, "|PERCENT_U");
    if (flags & PCT_UTF8_REPLACE)
        strcat(b, "|UTF8_REPLACE");
    if (flags & ~63u)
        sprintf(b + strlen(b), "|0x%X", flags & ~63u);
    return b[0] ? b + 1 : "0";
}

static inline int ref_matches(ref_result m, pct_result r)
{
    return (m.r.status == r.status && m.r.count == r.count) ||
           (m.alt_ok && m.alt.status == r.status && m.alt.count == r.count);
}

/* pct_decode / pct_decode_except, expecting {st, count} and on PCT_OK the
 * bytes exp. alt (status != PCT_OK) is a second acceptable error. */
static inline void expect_decode_at(const char *file, int line, const char *src, size_t len,
                                    const pct_set *keep, unsigned flags, pct_result want,
                                    pct_result alt, const char *exp, size_t exp_len)
{
    int replace = (flags & PCT_UTF8_REPLACE) != 0;
    size_t cap = replace ? 3 * len : len;
    char *in = xdup(src, len), *dst = (char *)xmalloc(cap), *model = (char *)xmalloc(3 * len);
    pct_result r;
    ref_result m;
    int ok;

    check_input(src, len, "decode%s flags=%s", keep ? "_except" : "", flag_str(flags));
    r = keep ? pct_decode_except(in, len, dst, keep, flags) : pct_decode(in, len, dst, flags);
    if (alt.status != PCT_OK)
        ok = check_result2(r, want, alt, file, line);
    else
        ok = check_result(r, want.status, want.count, file, line);
    if (ok && r.status == PCT_OK)
        check_mem(exp, exp_len, dst, r.count, file, line);
    CHECK(mem_cmp(in, src, len) == 0); /* the input is const */
    if (!keep) {                       /* pct_decode_except(keep = NULL) is pct_decode */
        pct_result r2 = pct_decode_except(in, len, dst, NULL, flags);
        if (check_result(r2, r.status, r.count, file, line) && r2.status == PCT_OK)
            check_mem(exp, exp_len, dst, r2.count, file, line);
    }
    if (!replace) { /* in place */
        pct_result r3;
        mem_cpy(in, src, len);
        r3 = keep ? pct_decode_except(in, len, in, keep, flags) : pct_decode(in, len, in, flags);
        if (check_result(r3, r.status, r.count, file, line) && r3.status == PCT_OK &&
            want.status == PCT_OK)
            check_mem(exp, exp_len, in, r3.count, file, line);
    }
    /* the reference model agrees with the vector (a test self-check) */
    m = ref_decode(src, len, keep, flags, model);
    check_msg(
        want.status == m.r.status && want.count == m.r.count &&
            (want.status != PCT_OK || (exp_len == m.r.count && mem_cmp(exp, model, exp_len) == 0)),
        file, line, "reference model disagrees with this vector (test bug)");
    free(in);
    free(dst);
    free(model);
}

#define EXPECT_DECODE(src, keep, flags, exp)                                                       \
    expect_decode_at(__FILE__, __LINE__, S(src), (keep), (flags),                                  \
                     ref_res(PCT_OK, sizeof(exp) - 1), ref_res(PCT_OK, 0), S(exp))
#define EXPECT_DECODE_ERR(src, keep, flags, st, at)                                                \
    expect_decode_at(__FILE__, __LINE__, S(src), (keep), (flags), ref_res((st), (at)),             \
                     ref_res(PCT_OK, 0), NULL, 0)
/* either error is acceptable (the model's alternative) */
#define EXPECT_DECODE_ERR2(src, keep, flags, st, at, st2, at2)                                     \
    expect_decode_at(__FILE__, __LINE__, S(src), (keep), (flags), ref_res((st), (at)),             \
                     ref_res((st2), (at2)), NULL, 0)

static inline void expect_encode_at(const char *file, int line, const char *src, size_t len,
                                    const pct_set *set, unsigned flags, pct_status st, size_t count,
                                    const char *exp, size_t exp_len)
{
    size_t cap = 3 * len;
    char *in = xdup(src, len), *dst, *model = (char *)xmalloc(3 * len);
    pct_result r, m;
    check_input(src, len, "encode flags=%s", flag_str(flags));
    if (st == PCT_OK) {
        size_t l = pct_encode_length(in, len, set, flags);
        check_eq_u(l, exp_len, file, line, "pct_encode_length", "expected length");
        if (l <= cap)
            cap = l; /* exactly the documented size */
    }
    dst = (char *)xmalloc(cap);
    r = pct_encode(in, len, dst, set, flags);
    if (check_result(r, st, count, file, line) && st == PCT_OK)
        check_mem(exp, exp_len, dst, r.count, file, line);
    m = ref_encode(src, len, set, flags, model);
    check_msg(m.status == st && m.count == count &&
                  (st != PCT_OK || mem_cmp(model, exp, exp_len) == 0),
              file, line, "reference model disagrees with this vector (test bug)");
    free(in);
    free(dst);
    free(model);
}

#define EXPECT_ENCODE(src, set, flags, exp)                                                        \
    expect_encode_at(__FILE__, __LINE__, S(src), (set), (flags), PCT_OK, sizeof(exp) - 1, S(exp))
#define EXPECT_ENCODE_ERR(src, set, flags, st, at)                                                 \
    expect_encode_at(__FILE__, __LINE__, S(src), (set), (flags), (st), (at), NULL, 0)

static inline void expect_normalize_at(const char *file, int line, const char *src, size_t len,
                                       unsigned flags, pct_status st, size_t count, const char *exp,
                                       size_t exp_len)
{
    char *in = xdup(src, len), *dst = (char *)xmalloc(len), *model = (char *)xmalloc(len);
    pct_result r, m;
    check_input(src, len, "normalize flags=%s", flag_str(flags));
    r = pct_normalize(in, len, dst, flags);
    if (check_result(r, st, count, file, line) && st == PCT_OK) {
        if (check_mem(exp, exp_len, dst, r.count, file, line)) {
            /* idempotent */
            char *again = (char *)xmalloc(r.count);
            pct_result r2 = pct_normalize(dst, r.count, again, flags);
            if (check_result(r2, PCT_OK, r.count, file, line))
                check_mem(exp, exp_len, again, r2.count, file, line);
            free(again);
        }
    }
    mem_cpy(in, src, len); /* in place */
    r = pct_normalize(in, len, in, flags);
    if (check_result(r, st, count, file, line) && st == PCT_OK)
        check_mem(exp, exp_len, in, r.count, file, line);
    m = ref_normalize(src, len, flags, model);
    check_msg(m.status == st && m.count == count &&
                  (st != PCT_OK || mem_cmp(model, exp, exp_len) == 0),
              file, line, "reference model disagrees with this vector (test bug)");
    free(in);
    free(dst);
    free(model);
}

#define EXPECT_NORMALIZE(src, flags, exp)                                                          \
    expect_normalize_at(__FILE__, __LINE__, S(src), (flags), PCT_OK, sizeof(exp) - 1, S(exp))
#define EXPECT_NORMALIZE_ERR(src, flags, st, at)                                                   \
    expect_normalize_at(__FILE__, __LINE__, S(src), (flags), (st), (at), NULL, 0)

static inline void expect_validate_at(const char *file, int line, const char *src, size_t len,
                                      const pct_set *set, unsigned flags, pct_result want,
                                      pct_result alt)
{
    char *in = xdup(src, len);
    pct_result r;
    ref_result m;
    check_input(src, len, "validate flags=%s", flag_str(flags));
    r = pct_validate(in, len, set, flags);
    if (alt.status != PCT_OK)
        check_result2(r, want, alt, file, line);
    else
        check_result(r, want.status, want.count, file, line);
    m = ref_validate(src, len, set, flags);
    check_msg(m.r.status == want.status && m.r.count == want.count, file, line,
              "reference model disagrees with this vector (test bug)");
    free(in);
}

/* count: PCT_OK -> decoded length, else the offset */
#define EXPECT_VALIDATE(src, set, flags, st, count)                                                \
    expect_validate_at(__FILE__, __LINE__, S(src), (set), (flags), ref_res((st), (count)),         \
                       ref_res(PCT_OK, 0))
#define EXPECT_VALIDATE2(src, set, flags, st, count, st2, count2)                                  \
    expect_validate_at(__FILE__, __LINE__, S(src), (set), (flags), ref_res((st), (count)),         \
                       ref_res((st2), (count2)))

#endif /* PCT_TEST_OPS_H */
