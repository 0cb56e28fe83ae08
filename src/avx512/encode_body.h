/* avx512/encode_body.h - the AVX-512 percent-encoder, over block.h. It reads
 * like pct_scalar_encode: per 64-byte block (encode_classify),
 *
 *   escaped   bytes of the set (not a space with PCT_PLUS: that is '+'; with
 *             PCT_KEEP_ESCAPES not the bytes of a well-formed escape, which
 *             are copied as they are)
 *   literal   the bytes as written where they are not escaped
 *   then block_encode_store writes each byte, a '%' and two hex digits
 *   where it is escaped.
 *
 * Four blocks are classified at a time: 256 bytes with nothing to escape
 * are stored as they are, else every block is encoded, escapes or not (a
 * branch per block on "any escape?" is a coin toss on text with an escape
 * every few dozen bytes). The last blocks go one at a time. With PCT_UTF8
 * the input is checked as UTF-8 on the way; the first ill-formed block, the
 * end of a partial (streaming) input, and input ending inside a sequence go
 * to the scalar routine for the rest.
 */
#include "impl.h"
#include "simd_shared/handover.h"
#include "avx512/scan.h"
#include "scalar/hex.h"

/* One block's classification: which of its bytes are escaped, and each
 * byte as written where it is not ('+' for a space with PCT_PLUS); with
 * PCT_UTF8 its text checked (returns 1 when it is not UTF-8: the scalar
 * routine takes over at the block). */
typedef struct encode_block {
    pct_block text, literal;
    uint64_t escaped;
    size_t count; /* the input bytes of the block (64 but the last) */
} encode_block;

PCT_BLOCK_INLINE int encode_classify(encode_block *e, const uint8_t *s, size_t left,
                                     pct_block_set in_set, int plus, int check, int keep_escapes,
                                     pct_block *tail, uint64_t *carry, const pct_block_tables *t)
{
    pct_scan b;
    if (keep_escapes)
        scan_block(&b, s, left, t);
    else
        scan_text(&b, s, left);
    e->count = left < 64 ? left : 64;
    e->text = b.text;
    uint64_t escaped = block_in_set(b.text, in_set, t) & b.valid;
    pct_block literal = b.text;
    if (plus) {
        const uint64_t spaces = block_eq(b.text, ' ') & b.valid;
        escaped &= ~spaces;
        literal = block_set_where(literal, spaces, '+');
    }
    if (check) {
        if (block_utf8_errors(b.text, e->count, *tail, t))
            return 1;
        *tail = block_utf8_tail(*tail, b.text, e->count);
    }
    if (keep_escapes) {
        escaped &= ~(b.escapes | digits_of(b.escapes) | *carry);
        *carry = digits_carried(b.escapes);
    }
    e->escaped = escaped;
    e->literal = literal;
    return 0;
}

/* From i, blocks whose every byte is escaped (UTF-8 text with the usual
 * sets), while 128 more input bytes follow them: each one 192 bytes from
 * fixed permutes, with nothing else to track. Returns where the run ends. */
PCT_BLOCK_INLINE size_t encode_dense_run(const uint8_t *src, size_t len, size_t i, uint8_t **out,
                                         pct_block_set in_set, const pct_block_tables *t)
{
    while (len - i >= 64 + 128) {
        const pct_block text = block_load(src + i);
        if (~block_in_set(text, in_set, t) != 0)
            break;
        *out = block_encode_store(*out, text, text, ~0ull, 64, 1, t);
        i += 64;
    }
    return i;
}

/* Blocks classified at a time while 128 more input bytes follow them (then
 * every store may write 64 bytes). */
#define ENCODE_GROUP 4

PCT_BLOCK_INLINE pct_result encode_body(const uint8_t *src, size_t len, uint8_t *dst,
                                        const pct_set *set, unsigned flags, size_t *consumed)
{
    const int final = consumed == NULL;
    const int check = (flags & PCT_UTF8) != 0;
    const int keep_escapes = (flags & PCT_KEEP_ESCAPES) != 0;
    const int plus = (flags & PCT_PLUS) && pct_in_set(set, ' ');
    const pct_block_tables tables = block_tables_load();
    const pct_block_set in_set = block_set_load(set);
    pct_block tail = block_zero(); /* the last 64 input bytes (UTF-8 check) */
    uint64_t carry = 0;            /* digits of a kept escape at the end of a block */
    uint8_t *out = dst;
    size_t i = 0;
    while (len - i >= 64 * ENCODE_GROUP + 128) {
        encode_block e[ENCODE_GROUP];
        uint64_t any = 0;
        int good = 0; /* the blocks before the first that is not UTF-8 */
        for (; good < ENCODE_GROUP; good++) {
            if (encode_classify(&e[good], src + i + 64 * good, len - i - 64 * good, in_set, plus,
                                check, keep_escapes, &tail, &carry, &tables))
                break;
            any |= e[good].escaped;
        }
        if (good == ENCODE_GROUP && any == 0) {
            for (int k = 0; k < ENCODE_GROUP; k++)
                block_store(out + 64 * k, e[k].literal);
            out += 64 * ENCODE_GROUP;
            i += 64 * ENCODE_GROUP;
            continue;
        }
        for (int k = 0; k < good; k++)
            out = block_encode_store(out, e[k].literal, e[k].text, e[k].escaped, 64, 1, &tables);
        i += 64 * (size_t)good;
        if (good < ENCODE_GROUP)
            return pct_encode_handover(src, len, dst, i, out, carry, set, flags, consumed);
        /* escapes only so far: maybe a run of them (no UTF-8 check, kept
         * escapes or '+' for spaces to track in it) */
        if (!check && !keep_escapes && !plus && e[ENCODE_GROUP - 1].escaped == ~0ull)
            i = encode_dense_run(src, len, i, &out, in_set, &tables);
    }
    while (i < len) {
        const size_t left = len - i;
        if (left < 64 + PCT_SCAN_AHEAD && !final)
            break;
        encode_block e;
        if (encode_classify(&e, src + i, left, in_set, plus, check, keep_escapes, &tail, &carry,
                            &tables))
            break;
        /* The output still to come is at least as long as the input: with
         * 128 bytes left, every store of this block has 64 bytes of room. */
        const int roomy = left >= 128;
        if (e.escaped == 0) {
            block_store_any(out, e.literal, e.count, roomy);
            out += e.count;
        } else {
            out = block_encode_store(out, e.literal, e.text, e.escaped, e.count, roomy, &tables);
        }
        i += 64;
    }
    return pct_encode_handover(src, len, dst, i, out, carry, set, flags, consumed);
}
