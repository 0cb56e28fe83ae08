/* tests/simd/test_guard_pages.c - no implementation reads or writes outside
 * the buffers it is given.
 *
 * Inputs are placed flush against an inaccessible (PROT_NONE) page, once
 * ending right before the page after them and once starting right after the
 * page before them, so that any over-read or under-read faults at once, in
 * optimised builds too. Outputs get exactly their documented size (encode:
 * pct_encode_length bytes; decode: len, or 3 * len with PCT_UTF8_REPLACE;
 * in place: the input itself) and are placed the same way. Every
 * implementation this CPU runs, the scalar one included, every operation and
 * flag combination, every length 0..300 and a few large ones. A fault is
 * reported with what was running, then the test fails.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <signal.h>
#include <unistd.h>

#include "../support/guard.h"
#include "harness.h"

static const pct_impl *impls[TEST_MAX_IMPLS];
static size_t n_impls;
static const pct_impl *scalar;

/* What is running, for the fault handler. */
static const char *volatile running_impl = "";
static volatile int running_op, running_at_end;
static volatile size_t running_len;
static const combo *volatile running_combo;

static void on_fault(int sig)
{
    char msg[256];
    const combo *c = running_combo;
    const int n = snprintf(msg, sizeof msg,
                           "FAULT (signal %d): impl %s, op %s, flags 0x%x, set %s, len %zu, "
                           "buffers %s a guard page\n",
                           sig, running_impl, op_names[running_op], c ? c->flags : 0u,
                           c ? combo_set_name(c) : "?", running_len,
                           running_at_end ? "ending at" : "starting after");
    if (n > 0)
        (void)!write(1, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
    _exit(1);
}

static guarded in_region, out_region;
static size_t calls;

static void run_combo(const pct_impl *impl, const combo *c, const uint8_t *text, size_t len,
                      int at_end)
{
    const pct_set *set = combo_set(c);
    uint8_t *src = guarded_place(&in_region, len, at_end);
    if (len)
        memcpy(src, text, len);
    running_impl = impl->name;
    running_op = c->op;
    running_combo = c;
    running_len = len;
    running_at_end = at_end;
    size_t size = 0, used;
    switch (c->op) {
    case OP_ENCODE:
    case OP_ENCODE_PARTIAL:
        size = scalar->encode_length(src, len, set, c->flags);
        break;
    case OP_DECODE:
    case OP_DECODE_PARTIAL:
        size = (c->flags & PCT_UTF8_REPLACE) ? 3 * len : len;
        break;
    default:
        break;
    }
    uint8_t *dst = guarded_place(&out_region, size, at_end);
    volatile size_t sink = 0;
    switch (c->op) {
    case OP_FIND:
        sink = impl->find(src, len, set);
        break;
    case OP_ENCODE_LENGTH:
        sink = impl->encode_length(src, len, set, c->flags);
        break;
    case OP_ENCODE:
        sink = impl->encode(src, len, dst, set, c->flags, NULL).count;
        break;
    case OP_ENCODE_PARTIAL:
        sink = impl->encode(src, len, dst, set, c->flags, &used).count;
        break;
    case OP_DECODE:
        sink = impl->decode(src, len, dst, set, c->flags, NULL).count;
        break;
    case OP_DECODE_PARTIAL:
        sink = impl->decode(src, len, dst, set, c->flags, &used).count;
        break;
    case OP_DECODE_IN_PLACE:
        sink = impl->decode(src, len, src, set, c->flags, NULL).count;
        break;
    case OP_VALIDATE:
        sink = impl->validate(src, len, set, c->flags).count;
        break;
    }
    (void)sink;
    calls++;
}

/* Endings that make kernels look ahead: a '%' or an escape cut short, %u,
 * UTF-8 cut short. */
static const char *const endings[] = {"",  "%",      "%4",     "%41",      "%u",
                                      "+", "%uD83D", "%E3%81", "\xE3\x81", "%%"};

static void run_all(const uint8_t *text, size_t len, size_t combo_step, size_t *start)
{
    for (int at_end = 0; at_end < 2; at_end++)
        for (size_t k = 0; k < n_impls; k++)
            for (size_t c = (*start)++ % combo_step; c < n_combos; c += combo_step)
                run_combo(impls[k], &combos[c], text, len, at_end);
}

int main(void)
{
    test_seed("test_guard_pages");
    const int quick = test_quick();
    /* every implementation chosen, scalar included: the reference must not
     * over-read either */
    n_impls = test_impls("test_guard_pages: ", "PCT_TEST_IMPL", impls);
    scalar = test_scalar_impl();
    if (n_impls == 0) {
        printf("test_guard_pages: no implementation selected: SKIP\n");
        return 77; /* meson's "skipped": nothing was tested, so nothing passed */
    }
    harness_init();
    signal(SIGSEGV, on_fault);
    signal(SIGBUS, on_fault);

    const size_t big[] = {4096, 4096 + 61, 65536 + 13};
    const size_t max_len = 65536 + 13;
    in_region = guarded_alloc(max_len);
    out_region = guarded_alloc(3 * max_len);
    uint8_t *text = malloc(max_len);
    if (!text)
        return 1;

    /* Every length 0..300, every combination (quick: a tenth of them). */
    const size_t step = quick ? 10 : 1;
    size_t start = 0;
    uint8_t *raw = malloc(max_len);
    if (!raw)
        return 1;
    for (size_t len = 0; len <= 300; len++) {
        /* Random text (mostly rejected early by the UTF-8 checks and
         * validate), well-formed UTF-8 text, such text percent-encoded
         * (accepted to the end), and plain text with a few escapes, in turn. */
        if (len % 4 == 0) {
            gen_text(text, len, (int)(len / 4 % 3));
        } else if (len % 4 == 1) {
            gen_utf8_text(text, len, (int)(len / 4 % 2));
        } else if (len % 4 == 3) {
            gen_sparse_text(text, len);
        } else {
            gen_utf8_text(raw, len, 1);
            uint8_t *encoded = malloc(3 * len + 1);
            if (!encoded)
                return 1;
            const pct_result r = scalar->encode(raw, len, encoded, &pct_set_component, 0, NULL);
            memcpy(text, encoded, len); /* its first len bytes */
            (void)r;
            free(encoded);
        }
        const char *end = endings[len % (sizeof endings / sizeof endings[0])];
        const size_t n = strlen(end);
        if (n <= len)
            memcpy(text + len - n, end, n);
        run_all(text, len, step, &start);
    }
    /* A few large inputs. */
    for (size_t b = 0; b < sizeof big / sizeof big[0]; b++) {
        gen_text(text, big[b], (int)b);
        run_all(text, big[b], quick ? 40 : 4, &start);
    }
    printf("test_guard_pages: %zu calls on %zu implementations, no fault: OK\n", calls, n_impls);
    free(raw);
    free(text);
    return 0;
}
