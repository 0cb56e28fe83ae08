/* stream.c - the streaming decoder and encoder.
 *
 * Both drive an implementation's one-shot routine in partial mode: it
 * consumes all it can decide and leaves a short tail (at most
 * PCT_MAX_UNCONSUMED bytes) whose meaning depends on input not yet seen. That
 * tail is carried to the next call, where it is completed from a small stack
 * buffer holding the carry plus the first bytes of the new chunk. Because the
 * routine makes exactly the decisions it makes in one-shot mode, the output
 * is identical for every way of cutting the input.
 */
#include <string.h>

#include "impl.h"

_Static_assert(PCT_MAX_UNCONSUMED <= PCT_STREAM_CARRY, "the carry must hold any unconsumed tail");

static pct_result latch(pct_stream_state *s, pct_result r, size_t base)
{
    s->status = r.status;
    s->error = base + r.count;
    s->carry_len = 0;
    r.count = s->error;
    return r;
}

static pct_result latched(const pct_stream_state *s)
{
    pct_result r = {s->status, s->error};
    return r;
}

/* An invalid init latches PCT_INVALID_ARGUMENT, so every later call on the
 * state fails the same way instead of running with a bad set or flags. */
static pct_status init(pct_stream_state *s, const pct_set *set, unsigned flags, int valid)
{
    memset(s, 0, sizeof *s);
    s->set = set;
    s->flags = flags;
    s->status = valid ? PCT_OK : PCT_INVALID_ARGUMENT;
    return s->status;
}

static pct_result invalid_argument(pct_stream_state *s)
{
    pct_result r = {PCT_INVALID_ARGUMENT, 0};
    return latch(s, r, 0);
}

static pct_result update(pct_stream_state *s, pct_decode_fn *run, const uint8_t *src, size_t len,
                         uint8_t *dst)
{
    if (s->status != PCT_OK)
        return latched(s);
    /* As in the one-shot calls, a NULL buffer is only allowed with nothing
     * to read or write; the kernels may assume valid pointers. */
    if (len != 0 && (src == NULL || dst == NULL))
        return invalid_argument(s);
    if (len == 0) { /* nothing new: the carry stays as it is */
        pct_result none = {PCT_OK, 0};
        return none;
    }
    size_t written = 0, used;
    if (s->carry_len > 0) {
        /* Complete the carried tail. With a full buffer the routine leaves at
         * most PCT_MAX_UNCONSUMED bytes, fewer than the new bytes taken, so it
         * consumes the whole carry; with a short chunk everything left simply
         * becomes the next carry. */
        uint8_t joined[PCT_STREAM_CARRY + PCT_STREAM_CARRY];
        const size_t take = len < sizeof joined - s->carry_len ? len : sizeof joined - s->carry_len;
        const size_t total = s->carry_len + take;
        memcpy(joined, s->carry, s->carry_len);
        memcpy(joined + s->carry_len, src, take);
        pct_result r = run(joined, total, dst, s->set, s->flags, &used);
        if (r.status != PCT_OK)
            return latch(s, r, s->position);
        written = r.count;
        s->position += used;
        if (used < s->carry_len || take == len) {
            s->carry_len = (unsigned char)(total - used);
            memmove(s->carry, joined + used, s->carry_len);
            pct_result ok = {PCT_OK, written};
            return ok;
        }
        src += used - s->carry_len;
        len -= used - s->carry_len;
        s->carry_len = 0;
    }
    pct_result r = run(src, len, dst + written, s->set, s->flags, &used);
    if (r.status != PCT_OK)
        return latch(s, r, s->position);
    s->position += used;
    s->carry_len = (unsigned char)(len - used);
    memcpy(s->carry, src + used, s->carry_len);
    r.count += written;
    return r;
}

static pct_result finish(pct_stream_state *s, pct_decode_fn *run, uint8_t *dst)
{
    if (s->status != PCT_OK)
        return latched(s);
    if (s->carry_len != 0 && dst == NULL)
        return invalid_argument(s);
    pct_result r = run(s->carry, s->carry_len, dst, s->set, s->flags, NULL);
    if (r.status != PCT_OK)
        return latch(s, r, s->position);
    s->position += s->carry_len;
    s->carry_len = 0;
    return r;
}

pct_status pct_decoder_init(pct_decoder *dec, const pct_set *keep, unsigned flags)
{
    return init(&dec->state, keep, flags, pct_decode_flags_valid(flags));
}

pct_result pct_decoder_update(pct_decoder *dec, const char *src, size_t len, char *dst)
{
    return update(&dec->state, pct_active_impl()->decode, (const uint8_t *)src, len,
                  (uint8_t *)dst);
}

pct_result pct_decoder_finish(pct_decoder *dec, char *dst)
{
    return finish(&dec->state, pct_active_impl()->decode, (uint8_t *)dst);
}

pct_status pct_encoder_init(pct_encoder *enc, const pct_set *set, unsigned flags)
{
    return init(&enc->state, set, flags, !(flags & ~(unsigned)PCT_ENCODE_FLAGS) && set != NULL);
}

pct_result pct_encoder_update(pct_encoder *enc, const char *src, size_t len, char *dst)
{
    return update(&enc->state, pct_active_impl()->encode, (const uint8_t *)src, len,
                  (uint8_t *)dst);
}

pct_result pct_encoder_finish(pct_encoder *enc, char *dst)
{
    return finish(&enc->state, pct_active_impl()->encode, (uint8_t *)dst);
}
