/* fuzz_encode.c - libFuzzer target: find, encode_length and encode, every
 * implementation against scalar (layout of the input: fuzz.h).
 *
 * With the set of byte 1 and the flags of byte 0 (PCT_ENCODE_FLAGS):
 *   find           same offset everywhere, and the offset a plain loop finds
 *   encode_length  same length everywhere
 *   encode         one-shot into exactly encode_length bytes: status,
 *                  count/offset, output bytes; on success count equals
 *                  encode_length; PCT_INVALID_UTF8 only with PCT_UTF8
 *   encode(part)   partial mode: the same plus consumed; at most
 *                  PCT_MAX_UNCONSUMED bytes left; output a prefix of the
 *                  one-shot output
 *   stream         pct_encoder with a chunking from byte 3 gives the one-shot
 *                  result
 *   round trip     when the set holds '%' (and '+' under PCT_PLUS), without
 *                  PCT_KEEP_ESCAPES: decode(encode(x)) == x with every
 *                  implementation, and validate(encode(x), set) succeeds with
 *                  count len(x); with PCT_KEEP_ESCAPES (no PCT_PLUS):
 *                  decode(encode(x)) == decode(x)
 */
#include "fuzz.h"

static void check_find(const fuzz_input *in)
{
    fuzz_run runs[TEST_MAX_IMPLS];
    memset(runs, 0, sizeof runs);
    for (size_t i = 0; i < fuzz_n_impls; i++) {
        runs[i].consumed = SIZE_MAX;
        runs[i].value = fuzz_impls[i]->find(in->src, in->len, &in->set);
    }
    fuzz_compare("find", 0, runs, fuzz_n_impls, 0);
    size_t k = 0;
    while (k < in->len && !pct_set_contains(&in->set, in->src[k]))
        k++;
    if (runs[0].value != k)
        fuzz_fail(0, "find: scalar says %zu, the first byte in the set is at %zu", runs[0].value,
                  k);
}

/* The streaming encoder through the public API, with impl active. */
static void check_stream(const pct_impl *impl, const fuzz_input *in, unsigned flags,
                         const pct_result expect, const uint8_t *expect_out)
{
    if (pct_use_implementation(impl->name) != 0)
        fuzz_fail(flags, "pct_use_implementation(\"%s\") failed", impl->name);
    pct_encoder enc;
    if (pct_encoder_init(&enc, &in->set, flags) != PCT_OK)
        fuzz_fail(flags, "pct_encoder_init rejected valid flags");
    uint8_t *all = fuzz_alloc(3 * in->len + 3 * PCT_STREAM_CARRY);
    size_t total = 0, pos = 0;
    pct_result r = {PCT_OK, 0};
    fuzz_chunker ch;
    fuzz_chunker_init(&ch, in->chunk_seed);
    int chunks = 0;
    while (r.status == PCT_OK && (pos < in->len || chunks == 0)) {
        const size_t n = fuzz_chunk(&ch, in->len - pos);
        const size_t cap = 3 * (n + PCT_STREAM_CARRY);
        uint8_t *dst = fuzz_alloc(cap);
        uint8_t *chunk = fuzz_alloc(n);
        if (n)
            memcpy(chunk, in->src + pos, n);
        r = pct_encoder_update(&enc, (const char *)chunk, n, (char *)dst);
        if (r.status == PCT_OK) {
            if (r.count > cap || total + r.count > 3 * in->len)
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
        uint8_t *dst = fuzz_alloc(3 * PCT_STREAM_CARRY);
        r = pct_encoder_finish(&enc, (char *)dst);
        if (r.status == PCT_OK) {
            if (r.count > 3 * PCT_STREAM_CARRY || total + r.count > 3 * in->len)
                fuzz_fail(flags, "[%s] stream: finish wrote %zu bytes", impl->name, r.count);
            memcpy(all + total, dst, r.count);
            total += r.count;
        }
        free(dst);
    }
    if (r.status != PCT_OK) {
        uint8_t dst[3 * PCT_STREAM_CARRY];
        const pct_result again = pct_encoder_update(&enc, "a", 1, (char *)dst);
        const pct_result end = pct_encoder_finish(&enc, (char *)dst);
        if (again.status != r.status || again.count != r.count || end.status != r.status ||
            end.count != r.count)
            fuzz_fail(flags, "[%s] stream: error %d at %zu not repeated (%d at %zu, %d at %zu)",
                      impl->name, (int)r.status, r.count, (int)again.status, again.count,
                      (int)end.status, end.count);
    }
    const int same = r.status == expect.status &&
                     (r.status == PCT_OK ? total == expect.count &&
                                               (total == 0 || memcmp(all, expect_out, total) == 0)
                                         : r.count == expect.count);
    if (!same) {
        fprintf(stderr,
                "\n==== libpct fuzz: [%s] streaming encode (%d chunks) differs from one-shot "
                "scalar\n  stream: status=%d count=%zu\n",
                impl->name, chunks, (int)r.status, r.status == PCT_OK ? total : r.count);
        if (r.status == PCT_OK)
            fuzz_hex("stream output", all, total);
        fprintf(stderr, "  one-shot: status=%d count=%zu\n", (int)expect.status, expect.count);
        if (expect.status == PCT_OK)
            fuzz_hex("one-shot output", expect_out, expect.count);
        fuzz_fail(flags, "streaming encode differs from one-shot");
    }
    free(all);
}

/* decode(enc) with every implementation must give want. */
static void check_decodes_to(const char *what, unsigned flags, const uint8_t *enc, size_t enc_len,
                             unsigned dflags, const uint8_t *want, size_t want_len)
{
    uint8_t *src = fuzz_alloc(enc_len);
    if (enc_len)
        memcpy(src, enc, enc_len);
    for (size_t i = 0; i < fuzz_n_impls; i++) {
        uint8_t *out = fuzz_alloc(enc_len);
        const pct_result r = fuzz_impls[i]->decode(src, enc_len, out, NULL, dflags, NULL);
        if (r.status != PCT_OK || r.count != want_len ||
            (want_len && memcmp(out, want, want_len) != 0)) {
            fuzz_hex("encoded", src, enc_len);
            if (r.status == PCT_OK)
                fuzz_hex("decoded", out, r.count);
            fuzz_hex("expected", want, want_len);
            fuzz_fail(flags, "[%s] %s: decode gives status %d count %zu", fuzz_impls[i]->name, what,
                      (int)r.status, r.count);
        }
        free(out);
    }
    free(src);
}

static void check_round_trip(const fuzz_input *in, unsigned flags, const uint8_t *enc,
                             size_t enc_len)
{
    if (!pct_set_contains(&in->set, '%'))
        return;
    if (!(flags & PCT_KEEP_ESCAPES)) {
        if ((flags & PCT_PLUS) && !pct_set_contains(&in->set, '+'))
            return;
        check_decodes_to("round trip", flags, enc, enc_len, flags & PCT_PLUS, in->src, in->len);
        uint8_t *src = fuzz_alloc(enc_len);
        if (enc_len)
            memcpy(src, enc, enc_len);
        for (size_t i = 0; i < fuzz_n_impls; i++) {
            const pct_result r = fuzz_impls[i]->validate(src, enc_len, &in->set, flags & PCT_PLUS);
            if (r.status != PCT_OK || r.count != in->len) {
                fuzz_hex("encoded", src, enc_len);
                fuzz_fail(flags, "[%s] validate(encode(x), set): status %d count %zu",
                          fuzz_impls[i]->name, (int)r.status, r.count);
            }
        }
        free(src);
    } else if (!(flags & PCT_PLUS)) {
        /* Escapes kept as they are decode as they would have. */
        uint8_t *dec = fuzz_alloc(in->len);
        const pct_result d = fuzz_impls[0]->decode(in->src, in->len, dec, NULL, 0, NULL);
        if (d.status != PCT_OK)
            fuzz_fail(flags, "lenient decode failed: status %d at %zu", (int)d.status, d.count);
        check_decodes_to("decode(encode(x, KEEP_ESCAPES)) == decode(x)", flags, enc, enc_len, 0,
                         dec, d.count);
        free(dec);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    fuzz_init_impls();
    fuzz_parse(&in, data, size);
    const unsigned flags = in.flags & PCT_ENCODE_FLAGS;
    const size_t n = fuzz_n_impls;

    check_find(&in);

    fuzz_run lens[TEST_MAX_IMPLS];
    memset(lens, 0, sizeof lens);
    for (size_t i = 0; i < n; i++) {
        lens[i].consumed = SIZE_MAX;
        lens[i].value = fuzz_impls[i]->encode_length(in.src, in.len, &in.set, flags);
    }
    fuzz_compare("encode_length", flags, lens, n, 0);
    const size_t enc_len = lens[0].value;
    if (enc_len < in.len || enc_len > 3 * in.len)
        fuzz_fail(flags, "encode_length %zu out of [len, 3*len] (len %zu)", enc_len, in.len);

    fuzz_run one[TEST_MAX_IMPLS], part[TEST_MAX_IMPLS];
    uint8_t *one_out[TEST_MAX_IMPLS], *part_out[TEST_MAX_IMPLS];
    for (size_t i = 0; i < n; i++) {
        one_out[i] = fuzz_alloc(enc_len); /* exactly the documented size */
        one[i].r = fuzz_impls[i]->encode(in.src, in.len, one_out[i], &in.set, flags, NULL);
        one[i].consumed = SIZE_MAX;
        one[i].out = one_out[i];
        one[i].out_len = one[i].r.status == PCT_OK ? one[i].r.count : 0;
        one[i].value = 0;
    }
    fuzz_compare("encode", flags, one, n, 1);
    if (one[0].r.status == PCT_OK && one[0].r.count != enc_len)
        fuzz_fail(flags, "encode wrote %zu bytes, encode_length said %zu", one[0].r.count, enc_len);
    if (one[0].r.status != PCT_OK &&
        !(one[0].r.status == PCT_INVALID_UTF8 && (flags & PCT_UTF8) && one[0].r.count < in.len))
        fuzz_fail(flags, "encode: unexpected status %d at %zu", (int)one[0].r.status,
                  one[0].r.count);

    for (size_t i = 0; i < n; i++) {
        size_t consumed = SIZE_MAX - 1;
        part_out[i] = fuzz_alloc(3 * in.len);
        part[i].r = fuzz_impls[i]->encode(in.src, in.len, part_out[i], &in.set, flags, &consumed);
        part[i].consumed = part[i].r.status == PCT_OK ? consumed : SIZE_MAX;
        part[i].out = part_out[i];
        part[i].out_len = part[i].r.status == PCT_OK ? part[i].r.count : 0;
        part[i].value = 0;
    }
    fuzz_compare("encode(partial)", flags, part, n, 1);
    if (part[0].r.status == PCT_OK) {
        if (part[0].consumed > in.len || in.len - part[0].consumed > PCT_MAX_UNCONSUMED)
            fuzz_fail(flags, "encode(partial) consumed %zu of %zu bytes", part[0].consumed, in.len);
        if (one[0].r.status == PCT_OK &&
            (part[0].r.count > one[0].r.count ||
             (part[0].r.count && memcmp(part_out[0], one_out[0], part[0].r.count) != 0)))
            fuzz_fail(flags, "encode(partial) output is not a prefix of the one-shot output");
    } else if (one[0].r.status == PCT_OK) {
        fuzz_fail(flags, "encode(partial) fails (status %d), one-shot succeeds",
                  (int)part[0].r.status);
    }

    for (size_t i = 0; i < n; i++)
        check_stream(fuzz_impls[i], &in, flags, one[0].r, one_out[0]);

    if (one[0].r.status == PCT_OK)
        check_round_trip(&in, flags, one_out[0], one[0].r.count);

    for (size_t i = 0; i < n; i++) {
        free(one_out[i]);
        free(part_out[i]);
    }
    fuzz_release(&in);
    return 0;
}
