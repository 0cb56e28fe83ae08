/* fuzz_validate.c - libFuzzer target: validate, every implementation against
 * scalar (layout of the input: fuzz.h).
 *
 * With the set of byte 1 and the flags of byte 0 (PCT_VALIDATE_FLAGS):
 *   validate   same status and count/offset everywhere
 *   vs decode  on PCT_OK, decode (keep NULL, same flags) succeeds and writes
 *              exactly count bytes, with every implementation; with the empty
 *              set, validate and decode agree on status and count/offset
 *   vs find    no byte of the set in the input: never PCT_UNESCAPED_BYTE;
 *              PCT_UNESCAPED_BYTE at k: src[k] is in the set
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    fuzz_init_impls();
    fuzz_parse(&in, data, size);
    const unsigned flags = in.flags & PCT_VALIDATE_FLAGS;
    const size_t n = fuzz_n_impls;

    fuzz_run runs[TEST_MAX_IMPLS];
    memset(runs, 0, sizeof runs);
    for (size_t i = 0; i < n; i++) {
        runs[i].r = fuzz_impls[i]->validate(in.src, in.len, &in.set, flags);
        runs[i].consumed = SIZE_MAX;
    }
    fuzz_compare("validate", flags, runs, n, 1);
    const pct_result v = runs[0].r;

    const size_t first = fuzz_impls[0]->find(in.src, in.len, &in.set);
    if (v.status == PCT_UNESCAPED_BYTE &&
        (first == in.len || v.count >= in.len || !pct_set_contains(&in.set, in.src[v.count])))
        fuzz_fail(flags, "validate: PCT_UNESCAPED_BYTE at %zu, but that byte is not in the set",
                  v.count);
    if (v.status != PCT_OK && v.status != PCT_UNESCAPED_BYTE && v.status != PCT_INVALID_ESCAPE &&
        v.status != PCT_INVALID_UTF8)
        fuzz_fail(flags, "validate: unexpected status %d", (int)v.status);

    const int empty_set = in.set_sel == 11;
    if (v.status == PCT_OK || empty_set) {
        for (size_t i = 0; i < n; i++) {
            uint8_t *out = fuzz_alloc(in.len);
            const pct_result d = fuzz_impls[i]->decode(in.src, in.len, out, NULL, flags, NULL);
            const int ok = v.status == PCT_OK ? d.status == PCT_OK && d.count == v.count
                                              : d.status == v.status && d.count == v.count;
            if (!ok)
                fuzz_fail(flags,
                          "[%s] validate gives status %d count %zu, decode status %d count %zu",
                          fuzz_impls[i]->name, (int)v.status, v.count, (int)d.status, d.count);
            free(out);
        }
    }

    fuzz_release(&in);
    return 0;
}
