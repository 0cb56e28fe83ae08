/* fuzz_logs.c - libFuzzer target: the log engine (tools/logs/log_session.h)
 * fed bytes through its push API. The input's first bytes choose the
 * options (logs_fuzz.h: format, writer, decoding, threads, chunk sizes, a
 * --log-format string), the rest is the log. Two runs:
 *   1  fed whole (one log_session_feed), threads and chunk size of byte 3
 *   2  fed in chunks of input-derived sizes (byte 5), the other threads
 *      and chunk size (bytes 3, 4)
 * each through log_session_finish into the callback sink; both outputs
 * pass logs_fuzz_check (lines, sink, json, columns, control, hash) and are
 * the same bytes with the same status (same). */
#include <stdint.h>
#include <stdlib.h>

#include "log_session.h"
#include "logs_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t next(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* Run k: the text fed whole (k 0) or in chunks (k 1). */
static void run(const struct logs_fuzz_opts *o, int k, const uint8_t *t, size_t n,
                struct logs_fuzz_out *out)
{
    struct log_session *s = logs_fuzz_session(o, k, out);
    if (s == NULL) {
        out->status = -100; /* the options were refused: both runs alike */
        return;
    }
    uint32_t x = 0x9e3779b9u ^ (o->feed_seed * 0x01000193u + 1);
    size_t at = 0;
    while (at < n) {
        size_t m = n - at;
        if (k == 1) {
            const uint32_t r = next(&x);
            const size_t most = (size_t)1 << (r % 11); /* 1 .. 1024 */
            m = 1 + (r >> 8) % most;
            if (m > n - at)
                m = n - at;
        }
        if (log_session_feed(s, t + at, m) != 0)
            break; /* the run stopped: finish says why */
        at += m;
    }
    logs_fuzz_end(s, out, log_session_finish(s));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct logs_fuzz_opts o;
    const uint8_t *payload;
    size_t payload_len;
    if (logs_fuzz_options(data, size, &o, &payload, &payload_len) != 0)
        return 0;
    logs_fuzz_input(data, size);
    size_t n;
    uint8_t *text = logs_fuzz_text(&o, payload, payload_len, &n);
    struct logs_fuzz_out a, b;
    run(&o, 0, text, n, &a);
    if (a.status != -100)
        logs_fuzz_check(&o, "run 1 (fed whole)", text, n, &a);
    run(&o, 1, text, n, &b);
    if (b.status != -100)
        logs_fuzz_check(&o, "run 2 (fed in chunks)", text, n, &b);
    logs_fuzz_same(&o, "same", "run 1 (fed whole)", &a, "run 2 (fed in chunks)", &b);
    logs_fuzz_out_free(&a);
    logs_fuzz_out_free(&b);
    free(text);
    return 0;
}
