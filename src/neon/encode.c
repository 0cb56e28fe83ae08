/* neon/encode.c - NEON percent-encoder (pct_encode, pct_encode_length, and
 * the streaming encoder's core).
 *
 * Sixteen input bytes c at a time. The lanes to escape are the bytes in the
 * set (neon/neon.h); with PCT_KEEP_ESCAPES minus the '%' and digits of every
 * well-formed %HH, which are copied as is. Three planes hold what a lane can
 * become:
 *
 *     literal = c ('%' in escaped lanes)    high = hex[c >> 4]    low = hex[c & 15]
 *
 *   no lane escaped      the literal plane is stored whole             16 bytes out
 *   every lane escaped   vst3q_u8 interleaves the planes: %HH%HH...    48 bytes out
 *   mixed                four groups of four lanes; expand_group[m], m the
 *                        group's escaped lanes, lists the plane bytes the group
 *                        writes (one vqtbl3q_u8 over the three planes), then
 *                        one 16-byte store each                         16-48 bytes out
 *
 * PCT_PLUS: ' ' leaves (a copy of) the set and the literal plane turns it into
 * '+'. PCT_UTF8: ASCII needs no check, so ASCII blocks are encoded here; a
 * block with a byte >= 0x80 goes to the scalar encoder for a stretch. Inputs
 * shorter than a block, and the tail, go to the scalar encoder too (in
 * partial mode when the caller asked for it).
 */
#include <string.h>

#include "neon/neon.h"
#include "scalar/hex.h"

static const uint8_t hex_digits[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                       '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};

/* expand_group[m]: the vqtbl3q_u8 indices that expand lanes 0-3, bit k of m
 * set when lane k is escaped. Plane bytes are numbered literal 0-15, high
 * 16-31, low 32-47: an escaped lane k gives k, 16 + k, 32 + k ('%', digits),
 * a literal lane gives k. Group g (lanes 4g to 4g + 3) adds 4g to every index.
 * The unused entries write bytes that the next store overwrites. */
static const uint8_t expand_group[16][16] = {
    {0, 1, 2, 3},                                 /* .... (lane 0 first) */
    {0, 16, 32, 1, 2, 3},                         /* %... */
    {0, 1, 17, 33, 2, 3},                         /* .%.. */
    {0, 16, 32, 1, 17, 33, 2, 3},                 /* %%.. */
    {0, 1, 2, 18, 34, 3},                         /* ..%. */
    {0, 16, 32, 1, 2, 18, 34, 3},                 /* %.%. */
    {0, 1, 17, 33, 2, 18, 34, 3},                 /* .%%. */
    {0, 16, 32, 1, 17, 33, 2, 18, 34, 3},         /* %%%. */
    {0, 1, 2, 3, 19, 35},                         /* ...% */
    {0, 16, 32, 1, 2, 3, 19, 35},                 /* %..% */
    {0, 1, 17, 33, 2, 3, 19, 35},                 /* .%.% */
    {0, 16, 32, 1, 17, 33, 2, 3, 19, 35},         /* %%.% */
    {0, 1, 2, 18, 34, 3, 19, 35},                 /* ..%% */
    {0, 16, 32, 1, 2, 18, 34, 3, 19, 35},         /* %.%% */
    {0, 1, 17, 33, 2, 18, 34, 3, 19, 35},         /* .%%% */
    {0, 16, 32, 1, 17, 33, 2, 18, 34, 3, 19, 35}, /* %%%% */
};

/* Bytes a group writes: 4, plus 2 for each escaped lane. */
static const uint8_t group_length[16] = {4, 6, 6, 8, 6, 8, 8, 10, 6, 8, 8, 10, 8, 10, 10, 12};

/* A mixed block's stores reach up to this many bytes past its output (the
 * last group writes 16 bytes for as few as 4). */
#define OVERSTORE 12

/* PCT_UTF8: bytes the scalar encoder takes from a non-ASCII block on. In
 * partial mode it stops at a boundary between UTF-8 sequences, where blocks
 * can resume; a longer stretch amortises the call over multi-byte text. */
#define UTF8_STRETCH 64

/* What the block loop knows about the call. */
typedef struct block_encoder {
    uint8x16x2_t set;  /* the set; without ' ' when ' ' becomes '+' */
    int plus;          /* PCT_PLUS and ' ' in the set: ' ' is written as '+' */
    int keep_escapes;  /* PCT_KEEP_ESCAPES */
    size_t reads;      /* bytes a block reads: 16, or 18 to see the digits of an
                          escape starting in lane 14 or 15 */
    uint8x16_t starts; /* PCT_KEEP_ESCAPES: escape starts of the previous block */
} block_encoder;

static void block_encoder_init(block_encoder *e, const pct_set *set, unsigned flags)
{
    pct_set copy = *set;
    e->plus = (flags & PCT_PLUS) && pct_in_set(set, ' ');
    if (e->plus)
        copy.bits[' ' >> 3] &= (uint8_t) ~(1u << (' ' & 7));
    e->set = pct_neon_load_set(&copy);
    e->keep_escapes = (flags & PCT_KEEP_ESCAPES) != 0;
    e->reads = e->keep_escapes ? 18 : 16;
    e->starts = vdupq_n_u8(0);
}

/* 0xFF in the lanes of the block at src (c: its 16 bytes) written as %HH. */
static inline uint8x16_t escaped_lanes(block_encoder *e, const uint8_t *src, uint8x16_t c)
{
    uint8x16_t escaped = pct_neon_in_set(e->set, c);
    if (e->keep_escapes) {
        /* An escape in the input is copied, '%' and digits, also the digits
         * of one that started in the previous block. */
        const uint8x16_t starts = pct_neon_escape_starts(c, vld1q_u8(src + 1), vld1q_u8(src + 2));
        const uint8x16_t copied = vorrq_u8(starts, pct_neon_escape_digits(e->starts, starts));
        escaped = vbicq_u8(escaped, copied);
        e->starts = starts;
    }
    return escaped;
}

/* Before the scalar encoder takes over at src[*i]: the digits of an escape
 * that started in the last block are copied as is, so that the scalar
 * encoder starts between tokens, as it does in a one-shot run. */
static void finish_escape(block_encoder *e, const uint8_t *src, size_t *i, uint8_t *dst, size_t *o)
{
    for (size_t n = pct_neon_digits_after(e->starts); n > 0; n--)
        dst[(*o)++] = src[(*i)++];
    e->starts = vdupq_n_u8(0);
}

static size_t add_saturated(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

size_t pct_neon_encode_length(const uint8_t *src, size_t len, const pct_set *set, unsigned flags)
{
    block_encoder e;
    block_encoder_init(&e, set, flags);
    size_t i = 0, escaped = 0;
    /* len - i >= e.reads: every load of a block stays inside src. */
    while (len - i >= e.reads) {
        /* Per-lane counters (an escaped lane is 0xFF, -1), summed before
         * any can pass 255. */
        uint8x16_t count = vdupq_n_u8(0);
        for (unsigned n = 0; n < 255 && len - i >= e.reads; n++, i += 16)
            count = vsubq_u8(count, escaped_lanes(&e, src + i, vld1q_u8(src + i)));
        escaped += vaddlvq_u8(count);
    }
    /* Digits of an escape left open are copied: one byte each. */
    i += pct_neon_digits_after(e.starts);
    const size_t head = add_saturated(i, add_saturated(escaped, escaped));
    return add_saturated(head, pct_scalar_encode_length(src + i, len - i, set, flags));
}

/* Writes a mixed block (escaped: one bit per lane) and returns its length;
 * the stores reach OVERSTORE bytes further. */
static inline size_t expand_mixed(uint8_t *dst, uint8x16x3_t planes, unsigned escaped)
{
    size_t o = 0;
    for (unsigned g = 0; g < 4; g++) {
        const unsigned m = (escaped >> (4 * g)) & 15;
        const uint8x16_t index = vaddq_u8(vld1q_u8(expand_group[m]), vdupq_n_u8((uint8_t)(4 * g)));
        vst1q_u8(dst + o, vqtbl3q_u8(planes, index));
        o += group_length[m];
    }
    return o;
}

pct_result pct_neon_encode(const uint8_t *src, size_t len, uint8_t *dst, const pct_set *set,
                           unsigned flags, size_t *consumed)
{
    block_encoder e;
    block_encoder_init(&e, set, flags);
    if (len < e.reads)
        return pct_scalar_encode(src, len, dst, set, flags, consumed);
    const int utf8 = (flags & PCT_UTF8) != 0;
    const uint8x16_t digits = vld1q_u8(hex_digits);
    size_t i = 0, o = 0;
    /* len - i >= e.reads: every load of a block stays inside src. */
    while (len - i >= e.reads) {
        const uint8x16_t c = vld1q_u8(src + i);
        if (utf8 && vmaxvq_u8(c) >= 0x80) {
            finish_escape(&e, src, &i, dst, &o);
            if (len - i <= UTF8_STRETCH)
                break; /* the tail below takes the rest */
            size_t used;
            pct_result r = pct_scalar_encode(src + i, UTF8_STRETCH, dst + o, set, flags, &used);
            if (r.status != PCT_OK) {
                r.count += i;
                return r;
            }
            i += used;
            o += r.count;
            continue;
        }
        const uint8x16_t escaped = escaped_lanes(&e, src + i, c);
        const uint64_t any = pct_neon_nibbles(escaped);
        uint8x16x3_t planes;
        planes.val[0] = e.plus ? vbslq_u8(vceqq_u8(c, vdupq_n_u8(' ')), vdupq_n_u8('+'), c) : c;
        if (any == 0) {
            vst1q_u8(dst + o, planes.val[0]);
            o += 16;
            i += 16;
            continue;
        }
        planes.val[0] = vbslq_u8(escaped, vdupq_n_u8('%'), planes.val[0]);
        planes.val[1] = vqtbl1q_u8(digits, vshrq_n_u8(c, 4));
        planes.val[2] = vqtbl1q_u8(digits, vandq_u8(c, vdupq_n_u8(15)));
        if (any == UINT64_MAX) {
            vst3q_u8(dst + o, planes);
            o += 48;
        } else if (len - i - 16 >= OVERSTORE + PCT_MAX_UNCONSUMED) {
            /* Each of the input bytes after this block writes at least one
             * byte, and a partial call leaves at most PCT_MAX_UNCONSUMED of
             * them: the overstore lands in output still to be written. */
            o += expand_mixed(dst + o, planes, pct_neon_bits(escaped));
        } else {
            uint8_t staged[48 + OVERSTORE];
            const size_t n = expand_mixed(staged, planes, pct_neon_bits(escaped));
            memcpy(dst + o, staged, n);
            o += n;
        }
        i += 16;
    }
    finish_escape(&e, src, &i, dst, &o);
    size_t used = 0;
    pct_result r =
        pct_scalar_encode(src + i, len - i, dst + o, set, flags, consumed ? &used : NULL);
    if (r.status != PCT_OK) {
        r.count += i;
        return r;
    }
    if (consumed)
        *consumed = i + used;
    r.count += o;
    return r;
}
