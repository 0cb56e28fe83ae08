/* simd_shared/handover.c - the scalar hand-over of every SIMD decoder (see
 * simd_shared/handover.h). Baseline code: no ISA flags. */
#include "simd_shared/handover.h"

#include <string.h>

/* Input offset of the first held byte: output byte number count - k of the
 * block that wrote it, i.e. the position of that set bit of its keep mask
 * (the '%' of an escape, or a literal byte). */
size_t pct_decode_held_start(const pct_decode_point *p)
{
    const pct_decode_block *b = &p->blocks[0];
    size_t k = p->held_len;
    if (k > b->count) { /* it started in the block before */
        k -= b->count;
        b = &p->blocks[1];
    }
    uint64_t keep = b->keep;
    for (size_t skip = b->count - k; skip > 0; skip--)
        keep &= keep - 1;
    return b->at + (size_t)__builtin_ctzll(keep);
}

/* pct_normalize keeps an escaped hex digit encoded when it follows a stray
 * '%' by at most two output bytes (scalar/decode.c). The kernel does not see
 * that '%', so it resumes only where none is that close to the end. A kept
 * escape ends in two digits, so a '%' among the last two output bytes is a
 * stray one. */
static int stray_percent_at_end(const uint8_t *out, size_t n)
{
    return n < 2 || out[n - 1] == '%' || out[n - 2] == '%';
}

static int done(pct_result *r, pct_status status, size_t count)
{
    r->status = status;
    r->count = count;
    return 1;
}

int pct_decode_handover(const uint8_t *src, size_t len, uint8_t *dst, pct_decode_point *p,
                        const pct_set *keep, unsigned flags, size_t *consumed, size_t window,
                        pct_result *r)
{
    const int final = consumed == NULL;
    const size_t rest = len - p->at;
    if (p->held_len == 0 && rest <= window) {
        /* The rest, straight into dst: in place is fine, the scalar routine's
         * output never runs ahead of its input. */
        *r = pct_scalar_decode(src + p->at, rest, p->out, keep, flags, consumed);
        if (r->status != PCT_OK)
            return done(r, r->status, r->count + p->at);
        if (!final)
            *consumed += p->at;
        return done(r, PCT_OK, (size_t)(p->out - dst) + r->count);
    }
    /* A window through buffers: the held bytes go first, decoded again as the
     * literal bytes they are (a byte >= 0x80 decodes to itself), so the
     * scalar routine sees the whole sequence. The buffers also keep dst from
     * being written past what is returned (partial mode may write ahead) and,
     * in place, from overwriting input that is read again. */
    uint8_t in[3 + PCT_WINDOW_MAX];
    uint8_t buffer[3 * (3 + PCT_WINDOW_MAX)];
    size_t n = rest < window ? rest : window;
    if (n > PCT_WINDOW_MAX)
        n = PCT_WINDOW_MAX;
    const int last = final && n == rest;
    memcpy(in, p->held, p->held_len);
    memcpy(in + p->held_len, src + p->at, n);
    size_t used;
    const pct_result w =
        pct_scalar_decode(in, p->held_len + n, buffer, keep, flags, last ? NULL : &used);
    if (w.status != PCT_OK) {
        const size_t at =
            w.count < p->held_len ? pct_decode_held_start(p) : p->at + (w.count - p->held_len);
        return done(r, w.status, at);
    }
    if (!last && n < rest && (flags & PCT_INTERNAL_NORMALIZE) &&
        stray_percent_at_end(buffer, w.count)) {
        /* Again with a wider window (normalize holds no UTF-8 bytes, so past
         * the buffers' size the rest goes straight to the scalar routine). */
        const size_t wider = window >= PCT_WINDOW_MAX ? SIZE_MAX : 2 * window;
        return pct_decode_handover(src, len, dst, p, keep, flags, consumed, wider, r);
    }
    if (!last && used < p->held_len) {
        /* The sequence is still unfinished. A window of PCT_WINDOW_MIN bytes
         * always decides it, so this is the end of partial input: it is
         * carried from its first byte. */
        *consumed = pct_decode_held_start(p);
        return done(r, PCT_OK, (size_t)(p->out - dst));
    }
    memcpy(p->out, buffer, w.count);
    p->out += w.count;
    if (last)
        return done(r, PCT_OK, (size_t)(p->out - dst));
    p->at += used - p->held_len;
    p->held_len = 0;
    if (n == rest) { /* partial input, all of it seen */
        *consumed = p->at;
        return done(r, PCT_OK, (size_t)(p->out - dst));
    }
    return 0;
}
