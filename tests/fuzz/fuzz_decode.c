/* fuzz_decode.c - libFuzzer target: decode, decode_except and normalize,
 * every implementation against scalar (layout of the input: fuzz.h).
 *
 * Per implementation, with the flags of byte 0 (PCT_DECODE_FLAGS; bit 0x40
 * picks which of PCT_UTF8 / PCT_UTF8_REPLACE survives when both are set) and
 * the keep set of byte 2:
 *   decode        one-shot: status, count/offset, output bytes
 *   decode(part)  partial mode (consumed != NULL): the same, plus consumed;
 *                 at most PCT_MAX_UNCONSUMED bytes left, and when the one-shot
 *                 call succeeds its output is a prefix of the one-shot output
 *   in place      dst == src gives what out-of-place gives
 *   stream        pct_decoder with a chunking from byte 3 gives the one-shot
 *                 result (status, offset from the start, bytes); after an
 *                 error every later call repeats it
 *   normalize     (keep = rfc3986, PCT_INTERNAL_NORMALIZE, PCT_STRICT from
 *                 byte 0) one-shot, partial, in place; never longer than the
 *                 input, idempotent (normalize(normalize(x)) == normalize(x))
 */
#include "fuzz.h"

/* One-shot or partial decode with one implementation. out: cap bytes. */
static fuzz_run run_decode(const pct_impl *impl, const fuzz_input *in, const pct_set *keep,
                           unsigned flags, uint8_t *out, int partial)
{
    fuzz_run run;
    size_t consumed = SIZE_MAX - 1;
    run.r = impl->decode(in->src, in->len, out, keep, flags, partial ? &consumed : NULL);
    run.consumed = partial && run.r.status == PCT_OK ? consumed : SIZE_MAX;
    run.out = out;
    run.out_len = run.r.status == PCT_OK ? run.r.count : 0;
    run.value = 0;
    return run;
}

static void check_partial(const char *op, const fuzz_input *in, unsigned flags,
                          const fuzz_run *one_shot, const fuzz_run *partial)
{
    if (partial->r.status != PCT_OK) {
        if (one_shot->r.status == PCT_OK)
            fuzz_fail(flags, "%s: partial mode fails (status %d at %zu), one-shot succeeds", op,
                      (int)partial->r.status, partial->r.count);
        return;
    }
    if (partial->consumed > in->len || in->len - partial->consumed > PCT_MAX_UNCONSUMED)
        fuzz_fail(flags, "%s: partial mode consumed %zu of %zu bytes (at most %d may be left)", op,
                  partial->consumed, in->len, PCT_MAX_UNCONSUMED);
    if (one_shot->r.status == PCT_OK &&
        (partial->r.count > one_shot->r.count ||
         (partial->r.count && memcmp(partial->out, one_shot->out, partial->r.count) != 0)))
        fuzz_fail(flags, "%s: partial output (%zu bytes) is not a prefix of the one-shot output",
                  op, partial->r.count);
}

/* The streaming decoder through the public API, with impl active. */
static void check_stream(const pct_impl *impl, const fuzz_input *in, unsigned flags,
                         const fuzz_run *expect)
{
    const size_t mult = (flags & PCT_UTF8_REPLACE) ? 3 : 1;
    if (pct_use_implementation(impl->name) != 0)
        fuzz_fail(flags, "pct_use_implementation(\"%s\") failed", impl->name);
    pct_decoder dec;
    if (pct_decoder_init(&dec, in->keep_ptr, flags) != PCT_OK)
        fuzz_fail(flags, "pct_decoder_init rejected valid flags");
    uint8_t *all = fuzz_alloc(mult * in->len + PCT_STREAM_CARRY * mult);
    size_t total = 0, pos = 0;
    pct_result r = {PCT_OK, 0};
    fuzz_chunker ch;
    fuzz_chunker_init(&ch, in->chunk_seed);
    int chunks = 0;
    while (r.status == PCT_OK && (pos < in->len || chunks == 0)) {
        const size_t n = fuzz_chunk(&ch, in->len - pos);
        const size_t cap = mult * (n + PCT_STREAM_CARRY);
        uint8_t *dst = fuzz_alloc(cap);
        uint8_t *chunk = fuzz_alloc(n); /* exactly sized: over-reads show */
        if (n)
            memcpy(chunk, in->src + pos, n);
        r = pct_decoder_update(&dec, (const char *)chunk, n, (char *)dst);
        if (r.status == PCT_OK) {
            if (r.count > cap || total + r.count > mult * in->len)
                fuzz_fail(flags, "[%s] stream: update wrote %zu bytes (chunk %zu)", impl->name,
                          r.count, n);
            memcpy(all + total, dst, r.count);
            total += r.count;
        }
        free(chunk);
        free(dst);
        pos += n;
        chunks++;
    }
    if (r.status == PCT_OK) {
        uint8_t *dst = fuzz_alloc(mult * PCT_STREAM_CARRY);
        r = pct_decoder_finish(&dec, (char *)dst);
        if (r.status == PCT_OK) {
            if (r.count > mult * PCT_STREAM_CARRY || total + r.count > mult * in->len)
                fuzz_fail(flags, "[%s] stream: finish wrote %zu bytes", impl->name, r.count);
            memcpy(all + total, dst, r.count);
            total += r.count;
        }
        free(dst);
    }
    if (r.status != PCT_OK) {
        /* The error is latched. */
        uint8_t dst[PCT_STREAM_CARRY * 3];
        const pct_result again = pct_decoder_update(&dec, "%", 1, (char *)dst);
        const pct_result end = pct_decoder_finish(&dec, (char *)dst);
        if (again.status != r.status || again.count != r.count || end.status != r.status ||
            end.count != r.count)
            fuzz_fail(flags, "[%s] stream: error %d at %zu not repeated (%d at %zu, %d at %zu)",
                      impl->name, (int)r.status, r.count, (int)again.status, again.count,
                      (int)end.status, end.count);
    }
    const int same = r.status == expect->r.status &&
                     (r.status == PCT_OK ? total == expect->r.count &&
                                               (total == 0 || memcmp(all, expect->out, total) == 0)
                                         : r.count == expect->r.count);
    if (!same) {
        fprintf(stderr,
                "\n==== libpct fuzz: [%s] streaming decode (%d chunks) differs from one-shot "
                "scalar\n  stream: status=%d count=%zu\n",
                impl->name, chunks, (int)r.status, r.status == PCT_OK ? total : r.count);
        if (r.status == PCT_OK)
            fuzz_hex("stream output", all, total);
        fprintf(stderr, "  one-shot: status=%d count=%zu\n", (int)expect->r.status,
                expect->r.count);
        if (expect->r.status == PCT_OK)
            fuzz_hex("one-shot output", expect->out, expect->r.count);
        fuzz_fail(flags, "streaming decode differs from one-shot");
    }
    free(all);
}

/* decode or normalize (keep, flags), every implementation. */
static void check_decode(const char *op, const fuzz_input *in, const pct_set *keep, unsigned flags,
                         int stream)
{
    const size_t n = fuzz_n_impls;
    const size_t cap = (flags & PCT_UTF8_REPLACE) ? 3 * in->len : in->len;
    fuzz_run one[TEST_MAX_IMPLS], part[TEST_MAX_IMPLS];
    uint8_t *one_out[TEST_MAX_IMPLS], *part_out[TEST_MAX_IMPLS];
    char name[64];

    for (size_t i = 0; i < n; i++) {
        one_out[i] = fuzz_alloc(cap);
        one[i] = run_decode(fuzz_impls[i], in, keep, flags, one_out[i], 0);
    }
    fuzz_compare(op, flags, one, n, 1);

    for (size_t i = 0; i < n; i++) {
        part_out[i] = fuzz_alloc(cap);
        part[i] = run_decode(fuzz_impls[i], in, keep, flags, part_out[i], 1);
    }
    snprintf(name, sizeof name, "%s(partial)", op);
    fuzz_compare(name, flags, part, n, 1);
    check_partial(name, in, flags, &one[0], &part[0]);

    if (!(flags & PCT_UTF8_REPLACE)) {
        /* In place: dst == src. */
        for (size_t i = 0; i < n; i++) {
            uint8_t *buf = fuzz_alloc(in->len);
            if (in->len)
                memcpy(buf, in->src, in->len);
            const pct_result r = fuzz_impls[i]->decode(buf, in->len, buf, keep, flags, NULL);
            if (r.status != one[i].r.status || r.count != one[i].r.count ||
                (r.status == PCT_OK && r.count && memcmp(buf, one_out[i], r.count) != 0)) {
                fprintf(stderr, "\n==== libpct fuzz: [%s] %s in place: status=%d count=%zu\n",
                        fuzz_impls[i]->name, op, (int)r.status, r.count);
                if (r.status == PCT_OK)
                    fuzz_hex("in-place output", buf, r.count);
                fuzz_print_run("out of place", &one[i], 1);
                fuzz_fail(flags, "%s: in-place result differs from out-of-place", op);
            }
            free(buf);
        }
    }

    if (flags & PCT_INTERNAL_NORMALIZE) {
        for (size_t i = 0; i < n; i++) {
            if (one[i].r.status != PCT_OK)
                continue;
            const size_t m = one[i].r.count;
            if (m > in->len)
                fuzz_fail(flags, "[%s] normalize: output (%zu) longer than input (%zu)",
                          fuzz_impls[i]->name, m, in->len);
            /* Idempotent: a second pass over the output changes nothing. */
            uint8_t *src2 = fuzz_alloc(m), *out2 = fuzz_alloc(m);
            if (m)
                memcpy(src2, one_out[i], m);
            const pct_result r = fuzz_impls[i]->decode(src2, m, out2, keep, flags, NULL);
            if (r.status != PCT_OK || r.count != m || (m && memcmp(out2, src2, m) != 0)) {
                fuzz_hex("first pass", src2, m);
                if (r.status == PCT_OK)
                    fuzz_hex("second pass", out2, r.count);
                fuzz_fail(flags, "[%s] normalize is not idempotent (second pass: status %d, %zu)",
                          fuzz_impls[i]->name, (int)r.status, r.count);
            }
            free(src2);
            free(out2);
        }
    }

    if (stream) {
        for (size_t i = 0; i < n; i++)
            check_stream(fuzz_impls[i], in, flags, &one[0]);
    }

    for (size_t i = 0; i < n; i++) {
        free(one_out[i]);
        free(part_out[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    fuzz_init_impls();
    fuzz_parse(&in, data, size);

    unsigned flags = in.flags & PCT_DECODE_FLAGS;
    if ((flags & PCT_UTF8) && (flags & PCT_UTF8_REPLACE))
        flags &= (in.flags & 0x40) ? ~(unsigned)PCT_UTF8 : ~(unsigned)PCT_UTF8_REPLACE;
    check_decode("decode", &in, in.keep_ptr, flags, 1);
    check_decode("normalize", &in, &pct_set_rfc3986,
                 PCT_INTERNAL_NORMALIZE | (in.flags & PCT_STRICT), 0);

    fuzz_release(&in);
    return 0;
}
