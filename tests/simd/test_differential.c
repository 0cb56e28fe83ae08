/* tests/simd/test_differential.c - every SIMD implementation against the
 * scalar reference, for every operation and flag combination.
 *
 * The scalar implementation is the oracle: status, count (bytes written or
 * error offset), `consumed` in partial mode, and every output byte must be
 * identical. Outputs are also followed by a canary that must survive (dst
 * holds exactly the documented size: pct_encode_length bytes for encode, len
 * for decode). Inputs:
 *   - all 256 byte values at every offset 0..63, alone and as an escape digit;
 *   - every length 0..300 at every alignment 0..63 of biased random text;
 *   - adversarial tails: '%', "%4", "%G1", "%%41", %u..., UTF-8 fragments at
 *     the last positions of 16/32/64-byte blocks and of the input;
 *   - ill-formed UTF-8 at every position of a block, raw and escaped;
 *   - dense escapes, plain text, and random inputs up to 1 MiB;
 *   - UTF-8 sequences, each byte escaped or not, after runs of ASCII blocks
 *     (which a check may skip), at every offset of a block and cut at
 *     every length.
 * Short loops cycle through the (operation, flags, set) combinations; the
 * adversarial inputs run all of them.
 */
#include "harness.h"

#define MAX_LEN (1u << 20)
#define CANARY 64
#define CANARY_BYTE 0xA5

static const pct_impl *impls[TEST_MAX_IMPLS];
static size_t n_impls;
static const pct_impl *scalar;

static uint8_t *ref_out, *out, *in_place;
static size_t checks, failures;

typedef struct outcome {
    pct_result r;
    size_t value;    /* find, encode_length */
    size_t consumed; /* partial mode */
} outcome;

static void report(const pct_impl *impl, const combo *c, const uint8_t *src, size_t len,
                   const outcome *want, const outcome *got, const uint8_t *want_out,
                   const uint8_t *got_out, const char *what)
{
    failures++;
    if (failures > 12)
        return;
    printf("MISMATCH (%s): impl %s, op %s, flags ", what, impl->name, op_names[c->op]);
    print_flags(c->flags);
    printf(", set %s, len %zu\n", combo_set_name(c), len);
    print_hex("input", src, len);
    printf("  scalar: status %d count %zu value %zu consumed %zu\n", (int)want->r.status,
           want->r.count, want->value, want->consumed);
    printf("  %-6s: status %d count %zu value %zu consumed %zu\n", impl->name, (int)got->r.status,
           got->r.count, got->value, got->consumed);
    if (want_out && want->r.status == PCT_OK) {
        print_hex("scalar output", want_out, want->r.count);
        if (got_out)
            print_hex("impl output", got_out, got->r.count < 3 * len ? got->r.count : 3 * len);
    }
}

static size_t out_size(const combo *c, size_t len, const uint8_t *src)
{
    switch (c->op) {
    case OP_ENCODE:
    case OP_ENCODE_PARTIAL:
        return scalar->encode_length(src, len, combo_set(c), c->flags);
    case OP_DECODE:
    case OP_DECODE_PARTIAL:
        return (c->flags & PCT_UTF8_REPLACE) ? 3 * len : len;
    default:
        return 0;
    }
}

/* Runs op on impl; dst (of size) is followed by a canary. */
static outcome run(const pct_impl *impl, const combo *c, const uint8_t *src, size_t len,
                   uint8_t *dst)
{
    outcome o = {{PCT_OK, 0}, 0, 0};
    const pct_set *set = combo_set(c);
    switch (c->op) {
    case OP_FIND:
        o.value = impl->find(src, len, set);
        break;
    case OP_ENCODE_LENGTH:
        o.value = impl->encode_length(src, len, set, c->flags);
        break;
    case OP_ENCODE:
        o.r = impl->encode(src, len, dst, set, c->flags, NULL);
        break;
    case OP_ENCODE_PARTIAL:
        o.consumed = (size_t)-7;
        o.r = impl->encode(src, len, dst, set, c->flags, &o.consumed);
        break;
    case OP_DECODE:
        o.r = impl->decode(src, len, dst, set, c->flags, NULL);
        break;
    case OP_DECODE_PARTIAL:
        o.consumed = (size_t)-7;
        o.r = impl->decode(src, len, dst, set, c->flags, &o.consumed);
        break;
    case OP_DECODE_IN_PLACE:
        if (impl == scalar) { /* the reference decodes into a separate buffer */
            o.r = impl->decode(src, len, dst, set, c->flags, NULL);
        } else {
            if (len)
                memcpy(in_place, src, len);
            memset(in_place + len, CANARY_BYTE, CANARY);
            o.r = impl->decode(in_place, len, in_place, set, c->flags, NULL);
        }
        break;
    case OP_VALIDATE:
        o.r = impl->validate(src, len, set, c->flags);
        break;
    }
    if (o.r.status != PCT_OK)
        o.consumed = 0; /* not defined on error */
    return o;
}

static int canary_intact(const uint8_t *p)
{
    for (size_t k = 0; k < CANARY; k++)
        if (p[k] != CANARY_BYTE)
            return 0;
    return 1;
}

static void check_combo(const combo *c, const uint8_t *src, size_t len)
{
    const size_t size = out_size(c, len, src);
    const outcome want = run(scalar, c, src, len, ref_out);
    for (size_t k = 0; k < n_impls; k++) {
        memset(out + size, CANARY_BYTE, CANARY);
        const outcome got = run(impls[k], c, src, len, out);
        const uint8_t *got_out = c->op == OP_DECODE_IN_PLACE ? in_place : out;
        checks++;
        if (want.r.status != got.r.status || want.r.count != got.r.count ||
            want.value != got.value || want.consumed != got.consumed) {
            report(impls[k], c, src, len, &want, &got, ref_out, got_out, "result");
            continue;
        }
        if (c->op == OP_FIND || c->op == OP_ENCODE_LENGTH || c->op == OP_VALIDATE)
            continue;
        if (want.r.status == PCT_OK && want.r.count && memcmp(ref_out, got_out, want.r.count)) {
            report(impls[k], c, src, len, &want, &got, ref_out, got_out, "output bytes");
            continue;
        }
        const uint8_t *canary = c->op == OP_DECODE_IN_PLACE ? in_place + len : out + size;
        if (!canary_intact(canary))
            report(impls[k], c, src, len, &want, &got, ref_out, got_out,
                   "wrote past the documented dst size");
    }
}

/* Every combination. */
static void check_all(const uint8_t *src, size_t len)
{
    for (size_t k = 0; k < n_combos; k++)
        check_combo(&combos[k], src, len);
}

/* Only the combinations with a UTF-8 check. */
static void check_utf8(const uint8_t *src, size_t len)
{
    for (size_t k = 0; k < n_combos; k++)
        if (combos[k].flags & (PCT_UTF8 | PCT_UTF8_REPLACE))
            check_combo(&combos[k], src, len);
}

/* The decoders with a UTF-8 check (no keep set, or '/'), and the
 * validators with one: what a sequence after runs of ASCII blocks tests. */
static void check_utf8_decode(const uint8_t *src, size_t len)
{
    for (size_t k = 0; k < n_combos; k++) {
        const combo *c = &combos[k];
        const int decode =
            c->op == OP_DECODE || c->op == OP_DECODE_PARTIAL || c->op == OP_DECODE_IN_PLACE;
        if (!(c->flags & (PCT_UTF8 | PCT_UTF8_REPLACE)) ||
            (c->flags & (PCT_PERCENT_U | PCT_INTERNAL_NORMALIZE)))
            continue;
        if ((decode && (c->set == KEEP_NULL || c->set == KEEP_SLASH)) ||
            (c->op == OP_VALIDATE && c->set == 0))
            check_combo(c, src, len);
    }
}

/* ASCII text with ASCII escapes and '+', no stray '%'. */
static size_t gen_ascii_text(uint8_t *out, size_t len)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyz0123456789-._~/=&+";
    size_t i = 0;
    while (i < len) {
        if (i + 3 <= len && rng_below(12) == 0) {
            out[i++] = '%';
            out[i++] = (uint8_t)hex_digit((unsigned)rng_below(8)); /* 00-7F */
            out[i++] = (uint8_t)hex_digit((unsigned)rng_below(16));
        } else {
            out[i++] = (uint8_t)plain[rng_below(sizeof plain - 1)];
        }
    }
    return i;
}

/* A UTF-8 sequence, ill-formed one time in three, each of its bytes escaped
 * or written as it is at random. Returns the input bytes written. */
static size_t gen_mixed_utf8(uint8_t *out)
{
    uint8_t u[4];
    const size_t k = gen_utf8(u, rng_below(3) == 0);
    size_t n = 0;
    for (size_t j = 0; j < k; j++) {
        if (rng_below(2)) {
            out[n++] = '%';
            out[n++] = (uint8_t)hex_digit(u[j] >> 4);
            out[n++] = (uint8_t)hex_digit(u[j]);
        } else {
            out[n++] = u[j];
        }
    }
    return n;
}

/* `rounds` combinations of each operation, taken in turn across calls so
 * that a long series of inputs goes through all of them. */
static size_t cursor[N_OPS];

static void check_some(const uint8_t *src, size_t len, int rounds)
{
    for (int r = 0; r < rounds; r++)
        for (int op = 0; op < N_OPS; op++) {
            const size_t n = op_first[op + 1] - op_first[op];
            check_combo(&combos[op_first[op] + cursor[op]++ % n], src, len);
        }
}

/* 64-byte aligned input buffer; inputs start at an offset within it. */
static uint8_t *inbuf;

static void section(const char *name, clock_t *t)
{
    const clock_t now = clock();
    printf("  %-34s done, %zu checks so far, %zu failures (%.2f s)\n", name, checks, failures,
           (double)(now - *t) / CLOCKS_PER_SEC);
    fflush(stdout);
    *t = now;
}

/* Fills impls with every implementation to compare against scalar (those
 * support/impls.h chooses, less scalar itself), printing which are tested.
 * Returns how many, and the scalar one. */
static size_t simd_impls(const char *test, const pct_impl **impls, const pct_impl **scalar)
{
    const pct_impl *chosen[TEST_MAX_IMPLS];
    char prefix[64];
    size_t n = 0;
    snprintf(prefix, sizeof prefix, "%s: ", test);
    const size_t n_chosen = test_impls(prefix, "PCT_TEST_IMPL", chosen);
    *scalar = test_scalar_impl();
    for (size_t i = 0; i < n_chosen; i++) {
        if (chosen[i] == *scalar)
            continue;
        printf("%s: testing %s against scalar\n", test, chosen[i]->name);
        impls[n++] = chosen[i];
    }
    if (n == 0)
        printf("%s: no SIMD implementation to test on this build/CPU\n", test);
    return n;
}

int main(void)
{
    test_seed("test_differential");
    const int quick = test_quick();
    const int scale = quick ? 10 : 1;
    n_impls = simd_impls("test_differential", impls, &scalar);
    harness_init();
    printf("test_differential: %zu operation x flags x set combinations\n", n_combos);
    if (n_impls == 0) {
        printf("test_differential: nothing to compare: SKIP\n");
        return 77; /* meson's "skipped": nothing was tested, so nothing passed */
    }
    ref_out = malloc(3 * (size_t)MAX_LEN + CANARY);
    out = malloc(3 * (size_t)MAX_LEN + CANARY);
    in_place = malloc(MAX_LEN + CANARY);
    inbuf = aligned_alloc(64, MAX_LEN + 128);
    uint8_t *text = malloc(MAX_LEN);
    if (!ref_out || !out || !in_place || !inbuf || !text) {
        printf("out of memory\n");
        return 1;
    }
    clock_t t = clock();

    /* 1. Every byte value at every offset of a 96-byte input: alone, as the
     * first and as the second digit of an escape. */
    gen_text(text, 128, 0);
    for (size_t off = 0; off<64; off += (size_t)scale> 1 ? 5 : 1) {
        for (int b = 0; b < 256; b++) {
            for (int variant = 0; variant < 3; variant++) {
                uint8_t *src = inbuf + (off & 7);
                memcpy(src, text, 100);
                if (variant == 0) {
                    src[off] = (uint8_t)b;
                } else {
                    src[off] = '%';
                    src[off + 1] = variant == 1 ? (uint8_t)b : (uint8_t)hex_digit(0xA);
                    src[off + 2] = variant == 1 ? (uint8_t)hex_digit(4) : (uint8_t)b;
                }
                check_some(src, 96, 1);
            }
        }
        /* the 256 values in a row, rotated */
        uint8_t *src = inbuf + off;
        for (int b = 0; b < 256; b++)
            src[b] = (uint8_t)(b + off * 4);
        check_some(src, 256, 4);
    }
    section("byte values x offsets", &t);

    /* 2. Every length 0..300 at every alignment 0..63. */
    for (size_t len = 0; len <= 300; len++) {
        for (size_t align = 0; align < 64; align += (size_t)scale) {
            uint8_t *src = inbuf + align;
            if ((len + align) % 4 == 3)
                gen_sparse_text(src, len);
            else
                gen_text(src, len, (int)((len + align) % 4));
            check_some(src, len, 1);
        }
    }
    section("lengths 0..300 x alignments 0..63", &t);

    /* 3. Adversarial tails: each pattern at the last three positions of a
     * 16-, 32- and 64-byte block (and the first two after it), and ending the
     * input at its last three positions; all combinations. */
    static const char *const patterns[] = {
        "%",          "%4",       "%G1",       "%%41",         "%4G",          "%41",
        "%aF",        "%Fa",      "%u",        "%uD83D%uDE00", "%uD83D",       "%u00",
        "%u00E9",     "%U0041",   "+",         "%2B+",         "\xE3\x81",     "%E3%81",
        "%E3%81%82",  "\xF0\x9F", "%F0%9F%98", "\xC3",         "\x80",         "%ED%A0%80",
        "%C0%80",     "%25",      "%%",        "%%%",          "%2f%2F",       "%00",
        "%uDC00%u41", "%7e%7E",   "%4%41",     "%6%41",        "\xED\xA0\x80", "%ff"};
    const size_t n_patterns = sizeof patterns / sizeof patterns[0];
    gen_text(text, 256, 2);
    for (size_t p = 0; p < n_patterns; p++) {
        const size_t plen = strlen(patterns[p]);
        static const size_t blocks[] = {16, 32, 64};
        for (size_t bk = 0; bk < 3; bk++) {
            for (size_t back = 1; back <= 5; back++) {
                /* pattern starting at block - 3 .. block + 1 */
                const size_t at = blocks[bk] + 2 - back;
                const size_t len = blocks[bk] * 2 + 40;
                uint8_t *src = inbuf + (p & 3);
                memcpy(src, text, len);
                memcpy(src + at, patterns[p], plen);
                if (quick)
                    check_some(src, len, 2);
                else
                    check_all(src, len);
            }
        }
        for (size_t total = 16; total <= 96; total += quick ? 40 : 8) {
            for (size_t gap = 0; gap < 3; gap++) {
                if (plen + gap > total)
                    continue;
                uint8_t *src = inbuf + 1;
                memcpy(src, text, total);
                memcpy(src + total - plen - gap, patterns[p], plen);
                if (quick)
                    check_some(src, total, 2);
                else
                    check_all(src, total);
            }
        }
    }
    section("adversarial tails", &t);

    /* 4. Ill-formed UTF-8 at every position of a 64-byte block, in valid
     * UTF-8 text, raw and percent-encoded. */
    static const uint8_t bad[][3] = {{0x80},       {0xC0},       {0xFF},
                                     {0xE3, 0x81}, {0xED, 0xA0}, {0xF4, 0x90}};
    static const size_t bad_len[] = {1, 1, 1, 2, 2, 2};
    for (int escaped = 0; escaped < 2; escaped++) {
        size_t n = 0;
        while (n < 200) { /* valid UTF-8 */
            uint8_t u[4];
            const size_t k = gen_utf8(u, 0);
            for (size_t j = 0; j < k; j++) {
                if (escaped) {
                    text[n++] = '%';
                    text[n++] = (uint8_t)hex_digit(u[j] >> 4);
                    text[n++] = (uint8_t)hex_digit(u[j]);
                } else {
                    text[n++] = u[j];
                }
            }
        }
        for (size_t at = 0; at<70; at += (size_t)scale> 1 ? 7 : 1) {
            for (size_t b = 0; b < sizeof bad_len / sizeof bad_len[0]; b++) {
                uint8_t *src = inbuf + 3;
                memcpy(src, text, 160);
                memcpy(src + at, bad[b], bad_len[b]);
                check_utf8(src, 160);
                check_some(src, 160, 1);
            }
        }
    }
    section("ill-formed UTF-8 at every position", &t);

    /* 5. Well-formed input, so that the UTF-8 checks and validate succeed
     * deep into it: UTF-8 text (raw: encode; encoded for each set: decode,
     * validate), then the same with one byte corrupted. */
    uint8_t *encoded = malloc(3 * 8192);
    if (!encoded) {
        printf("out of memory\n");
        return 1;
    }
    for (int k = 0; k < 240 / scale; k++) {
        const size_t len = k < 200 / scale ? 64 + rng_below(400) : 1000 + rng_below(7000);
        gen_utf8_text(text, len, k % 2);
        const int s = k % N_SETS;
        const unsigned eflags = (k / N_SETS) % 2 ? PCT_PLUS : 0;
        const size_t elen = scalar->encode(text, len, encoded, &sets[s], eflags, NULL).count;
        for (int corrupt = 0; corrupt < 2; corrupt++) {
            if (corrupt) { /* one ill-formed or unescaped byte somewhere */
                static const uint8_t junk[] = {0x80, 0xC0, 0xFF, 0xE3, '%', ' ', 0xF0};
                text[rng_below(len)] = junk[rng_below(sizeof junk)];
                encoded[rng_below(elen)] = junk[rng_below(sizeof junk)];
            }
            uint8_t *src = inbuf + rng_below(64);
            memcpy(src, text, len);
            for (size_t c = op_first[OP_FIND]; c < op_first[OP_DECODE]; c++)
                check_combo(&combos[c], src, len); /* find, encode_length, encode */
            memcpy(src, encoded, elen);
            for (size_t c = op_first[OP_DECODE]; c < op_first[OP_VALIDATE]; c++)
                if (len < 1000 || rng_below(4) == 0)
                    check_combo(&combos[c], src, elen);
            for (size_t c = op_first[OP_VALIDATE]; c < op_first[OP_VALIDATE + 1]; c++)
                if (combos[c].set == s)
                    check_combo(&combos[c], src, elen);
        }
    }
    free(encoded);
    section("well-formed UTF-8 text", &t);

    /* 6. Dense escapes, plain text, mixed, few escapes: medium random inputs. */
    for (int k = 0; k < 400 / scale; k++) {
        const size_t len = 300 + rng_below(4000);
        uint8_t *src = inbuf + rng_below(64);
        if (k % 4 == 3)
            gen_sparse_text(src, len);
        else
            gen_text(src, len, k % 4);
        check_some(src, len, 3);
    }
    section("random inputs up to 4 KiB", &t);

    /* 7. A few large random inputs, up to 1 MiB. */
    for (int k = 0; k < (quick ? 1 : 4); k++) {
        const size_t len = k == 0 ? MAX_LEN : 65536 + rng_below(MAX_LEN - 65536);
        uint8_t *src = inbuf + rng_below(64);
        gen_text(src, len, k % 3);
        check_some(src, len, quick ? 1 : 2);
    }
    section("random inputs up to 1 MiB", &t);

    /* 8. UTF-8 after runs of 0 to 25 ASCII blocks: one to three sequences
     * (escaped, written as they are, or both: a 3-byte one may be an escape,
     * a byte, an escape) starting at every offset around the block after
     * the run, so that they cross its boundaries; the input cut inside them
     * and at random lengths after them. */
    static const size_t runs[] = {0, 1, 4, 5, 16, 17, 18, 25};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        for (size_t at = 0; at<72; at += (size_t)scale> 1 ? 5 : 1) {
            uint8_t *src = inbuf + rng_below(64);
            const size_t start = runs[r] * 64 + at - (at < 8 ? at : 8);
            size_t n = gen_ascii_text(src, start);
            for (size_t k = 1 + rng_below(3); k > 0; k--)
                n += gen_mixed_utf8(src + n);
            const size_t end = n;
            n += gen_ascii_text(src + n, 70);
            check_utf8_decode(src, n);
            for (size_t cut = start + 1; cut <= end; cut++)
                check_utf8_decode(src, cut);
            for (int k = 0; k < 3; k++)
                check_utf8_decode(src, end + 1 + rng_below(69));
        }
    }
    section("UTF-8 after runs of ASCII blocks", &t);

    printf("test_differential: %zu checks, %zu failures: %s\n", checks, failures,
           failures ? "FAILED" : "OK");
    free(text);
    free(inbuf);
    free(in_place);
    free(out);
    free(ref_out);
    return failures ? 1 : 0;
}
