/* avx512/decode_body.h - the percent-decoder of the SIMD implementations,
 * written once over the 64-byte block primitives of an ISA's block.h (which
 * the including decode.c includes first). It reads like
 * pct_scalar_decode (scalar/decode.c), a block instead of a byte at a time:
 *
 *   for each 64-byte block at i (2 more bytes are read: the digits of an
 *   escape at its end):
 *     percents   '%' bytes
 *     escapes    '%' followed by two hex digits (those of a byte in the keep
 *                set stay as written: `kept`)
 *     stray      the other '%': decoded as themselves, unless a flag needs
 *                the scalar routine for them (PCT_STRICT, %u, normalize)
 *     output     every byte but the digits of the escapes (and those that
 *                the previous block's last escape carried into this one)
 *     the escapes' bytes replace their '%', the output bytes are packed and
 *     stored, and with PCT_UTF8/PCT_UTF8_REPLACE checked as UTF-8 first.
 *
 * Every block runs the same instructions whatever its content: no branch
 * depends on the text except the rare hand-over to the scalar routine
 * (simd_shared/handover.c). The last block is a partial one (masked loads and
 * stores), so no input is too short for the kernel.
 *
 * One exception, cheap and predictable on real text: after a block that was
 * escapes only (all-escaped UTF-8, as CJK paths are), an ISA with
 * block_decode_dense decodes 192 bytes = 64 escapes at a time, with no
 * compaction, while they stay so. Text with literal bytes in every block
 * never enters it; a run that ends costs one failed attempt.
 *
 * A batch of strings decoded as one buffer (avx512/batch_decode.c) keeps
 * each block's '%' mask (percent_words[i / 64]): its strings' output sizes
 * are counted from them, so the bytes are compared with '%' once.
 *
 * In place (dst == src): a block's output starts no later than its input
 * and is no longer, and all its input is loaded before it is stored.
 */
#include "impl.h"
#include "simd_shared/handover.h"
#include "avx512/scan.h"
#include "scalar/hex.h"

/* Where the scalar routine takes over after the block at i: the next token,
 * after the escape whose digits the last block carried into this one. A
 * kept escape's carried digits are written here, as they are (upper-cased by
 * normalize), from the input, which is intact from i on. The bytes written
 * of an unfinished UTF-8 sequence are handed over as "held" bytes, decoded
 * again in front of the input that follows them: the input before i is never
 * read again (in place, full-block stores have overwritten it). */
PCT_BLOCK_INLINE void decode_stop(pct_decode_point *p, const uint8_t *src, size_t i, uint64_t carry,
                                  uint64_t kept_carry, pct_block tail, unsigned flags)
{
    p->at = i + (size_t)__builtin_popcountll(carry | kept_carry);
    for (size_t k = i; k < i + (size_t)__builtin_popcountll(kept_carry); k++)
        *p->out++ = (flags & PCT_INTERNAL_NORMALIZE)
                        ? pct_hex_digit((unsigned)pct_hex_value(src[k]))
                        : src[k];
    p->held_len = 0;
    if (flags & (PCT_UTF8 | PCT_UTF8_REPLACE)) {
        uint8_t last[64];
        p->held_len = tail_unfinished(tail, last);
        p->out -= p->held_len;
        for (size_t k = 0; k < p->held_len; k++)
            p->held[k] = p->out[k];
    }
}

#ifdef PCT_BLOCK_DENSE
/* Decodes the runs of escapes from the token at `at`, 192 input bytes = 64
 * escapes = 64 output bytes at a time, while they last (and, with a UTF-8
 * check, stay well-formed: the blocks find an error and hand over). Returns
 * where it stopped. Its own function, so that the main loop's registers are
 * not spent on its tables. In place, each output is stored after its input
 * is loaded, and is no longer. */
typedef struct pct_dense_end {
    size_t at;      /* input offset reached */
    uint8_t *out;   /* output reached */
    pct_block tail; /* UTF-8 check: the last 64 output bytes */
} pct_dense_end;

__attribute__((noinline)) static pct_dense_end
decode_dense(const uint8_t *src, size_t at, size_t len, uint8_t *out, pct_block tail, int check)
{
    const pct_block_tables tables = block_tables_load();
    pct_block bytes;
    while (at + 192 <= len && block_decode_dense(src + at, &bytes, &tables)) {
        if (check) {
            if (block_utf8_errors(bytes, 64, tail, &tables))
                break;
            tail = bytes;
        }
        block_store(out, bytes);
        out += 64;
        at += 192;
    }
    return (pct_dense_end){at, out, tail};
}
#endif

/* Remembers a block that wrote output (the last two are kept, the last one
 * first: simd_shared/handover.h). In the caller's registers, not in its
 * pct_decode_point, which lives in memory (its address goes to the
 * hand-over): the copy of one block's record over the other's was a load
 * from the stores of the block before, which did not forward. */
PCT_BLOCK_INLINE void decode_written(pct_decode_block written[2], size_t at, uint64_t keep,
                                     size_t count)
{
    written[1] = written[0];
    written[0] = (pct_decode_block){at, keep, count};
}

/* Decodes the block at i (full: 64 + PCT_SCAN_AHEAD input bytes from i;
 * else the last, partial one). Returns 1 when the scalar routine must take
 * over at i instead (nothing of the block is written), else 0 with the
 * block's output written and the carries and UTF-8 state updated; *n: the
 * bytes written; *percents_out (unless NULL): the block's '%' mask.
 *
 * The UTF-8 state: *tail, the last 64 output bytes (zeros stand for ASCII
 * ones); *ascii_run (with ascii_runs), how many blocks in a row before this
 * one were ASCII; `written`, the last two blocks checked. After an ASCII
 * block no sequence is pending, so an ASCII block after it cannot be
 * ill-formed. Skipping the check of such blocks is a branch on the text,
 * which text mixing ASCII and UTF-8 block by block would mispredict half
 * the time: they are skipped only in a run of PCT_ASCII_RUN blocks, where
 * the branch goes one way (query text has runs of a few ASCII blocks, whose
 * ends a run of 4 mispredicted: 7.9 GB/s there instead of 8.6). */
#define PCT_ASCII_RUN 16
PCT_BLOCK_INLINE int decode_block(const uint8_t *src, size_t len, size_t i, int full,
                                  const pct_set *keep, unsigned flags,
                                  const pct_block_tables *tables, pct_block_set kept_set,
                                  uint8_t **out, uint64_t *carry, uint64_t *kept_carry,
                                  pct_block *tail, int ascii_runs, size_t *ascii_run,
                                  pct_decode_block written[2], size_t *n, uint64_t *percents_out)
{
    const int check = (flags & (PCT_UTF8 | PCT_UTF8_REPLACE)) != 0;
    const int normalize = (flags & PCT_INTERNAL_NORMALIZE) != 0;
    pct_scan b;
    if (full)
        scan_full_block(&b, src + i, tables);
    else
        scan_block(&b, src + i, len - i, tables);
    if (percents_out)
        *percents_out = b.percents;
    uint64_t escapes = b.escapes;
    const pct_block bytes = b.bytes;
    uint64_t kept = 0;
    if (keep) {
        kept = escapes & block_in_set(bytes, kept_set, tables);
        escapes &= ~kept;
    }
    const uint64_t stray = b.percents & ~(escapes | kept);
    if (stray && ((flags & PCT_STRICT) || normalize ||
                  ((flags & PCT_PERCENT_U) && (stray & block_eq(b.next, 'u')))))
        return 1;
    pct_block text = (flags & PCT_PLUS) ? block_replace(b.text, '+', ' ') : b.text;
    if (normalize)
        text = block_upper_hex(text, digits_of(kept) | *kept_carry);
    const uint64_t output = ~(digits_of(escapes) | *carry) & b.valid;
    const pct_block decoded = block_select(escapes, bytes, text); /* digits: ASCII */
    const pct_block packed = block_compact(decoded, output);
    *n = (size_t)__builtin_popcountll(output);
    if (check) {
        /* The run first: a branch taken one way in and out of runs (one on
         * the block's ASCII-ness alone, mixed text mispredicts). */
        if (ascii_runs && *ascii_run >= PCT_ASCII_RUN && block_high(decoded) == 0) {
            *tail = block_zero();
        } else {
            if (block_utf8_errors(packed, *n, *tail, tables))
                return 1;
            *tail = block_utf8_tail(*tail, packed, *n);
            decode_written(written, i, output, *n);
            if (ascii_runs) { /* no branch: mixed text would mispredict it */
                const size_t ascii = block_high(decoded) == 0;
                *ascii_run = (*ascii_run + 1) & (0 - ascii);
            }
        }
    }
    /* A block with 64 input bytes has 64 bytes of room: its output starts
     * no later than its input, which dst has room for. */
    block_store_any(*out, packed, *n, full || b.valid == ~0ull);
    *out += *n;
    *carry = digits_carried(escapes);
    *kept_carry = digits_carried(kept);
    return 0;
}

/* long_input: do what pays only on long inputs, for its per-block tests:
 * try block_decode_dense after a block of escapes only, and skip the UTF-8
 * check in runs of ASCII blocks (a run takes PCT_ASCII_RUN blocks to
 * start). percent_words: NULL, or where each block's '%' mask goes (a word
 * per 64 bytes of src); only with long_input 0 and no flag that can hand
 * over to the scalar routine (0 or PCT_PLUS, no keep), so that every block
 * starts at a multiple of 64. */
PCT_BLOCK_INLINE pct_result decode_body(const uint8_t *src, size_t len, uint8_t *dst,
                                        const pct_set *keep, unsigned flags, size_t *consumed,
                                        int long_input, uint64_t *percent_words)
{
    const int final = consumed == NULL;
    const int check = (flags & (PCT_UTF8 | PCT_UTF8_REPLACE)) != 0;
    const pct_block_set kept_set = keep ? block_set_load(keep) : block_zero();
    const pct_block_tables tables = block_tables_load();
    pct_decode_point p = {0, dst, {0, 0, 0}, 0, {{0, 0, 0}, {0, 0, 0}}};
    uint8_t *out = dst;            /* p.out, in a register between hand-overs */
    pct_block tail = block_zero(); /* UTF-8: the last output bytes */
    size_t ascii_run = 0;          /* UTF-8: ASCII blocks before this one */
    pct_decode_block written[2] = {{0, 0, 0}, {0, 0, 0}}; /* UTF-8: p.blocks */
    uint64_t carry = 0;      /* digits of the last block's last escape */
    uint64_t kept_carry = 0; /* the same, of a kept escape */
    size_t i = 0, window = PCT_WINDOW_MIN, n;
    pct_result r;
#ifndef PCT_BLOCK_DENSE
    (void)long_input;
#else
    const int dense_ok = long_input && keep == NULL && !(flags & PCT_INTERNAL_NORMALIZE);
#endif
    while (i < len) {
        /* Full blocks, with plain loads and stores: the loop is short, and
         * its length here is its speed. */
        while (len - i >= 64 + PCT_SCAN_AHEAD) {
            if (decode_block(src, len, i, 1, keep, flags, &tables, kept_set, &out, &carry,
                             &kept_carry, &tail, long_input, &ascii_run, written, &n,
                             percent_words ? percent_words + i / 64 : NULL))
                goto hand_over;
            i += 64;
            window = PCT_WINDOW_MIN;
#ifdef PCT_BLOCK_DENSE
            if (__builtin_expect(dense_ok && n <= 22, 0)) {
                /* Maybe escapes only: try runs of them from the next token on
                 * (after the digits carried into block i). */
                const size_t at = i + (size_t)__builtin_popcountll(carry);
                const pct_dense_end end = decode_dense(src, at, len, out, tail, check);
                if (end.at != at) {
                    i = end.at;
                    out = end.out;
                    carry = 0;
                    if (check) { /* its last 128 input bytes: 42 escapes */
                        tail = end.tail;
                        ascii_run = 0;
                        decode_written(written, i - 128, PCT_THIRDS_1, 21);
                        decode_written(written, i - 64, PCT_THIRDS_2, 21);
                    }
                }
            }
#endif
        }
        if (!final)
            break; /* the scalar routine decides what the next bytes may change */
        /* The last bytes: partial blocks, masked loads and stores. */
        while (i < len) {
            if (decode_block(src, len, i, 0, keep, flags, &tables, kept_set, &out, &carry,
                             &kept_carry, &tail, long_input, &ascii_run, written, &n,
                             percent_words ? percent_words + i / 64 : NULL))
                goto hand_over;
            i += 64;
            window = PCT_WINDOW_MIN;
        }
        break;
    hand_over:
        p.out = out;
        p.blocks[0] = written[0];
        p.blocks[1] = written[1];
        decode_stop(&p, src, i, carry, kept_carry, tail, flags);
        if (pct_decode_handover(src, len, dst, &p, keep, flags, consumed, window, &r))
            return r;
        out = p.out;
        i = p.at;
        carry = kept_carry = 0;
        tail = block_zero();
        ascii_run = 0;
        if (window < PCT_WINDOW_MAX)
            window *= 2;
    }
    p.out = out;
    p.blocks[0] = written[0];
    p.blocks[1] = written[1];
    if (final) {
        /* Every block is decoded; a sequence may still be unfinished. */
        if (!check)
            return (pct_result){PCT_OK, (size_t)(out - dst)};
        decode_stop(&p, src, len, 0, 0, tail, flags);
        if (p.held_len == 0)
            return (pct_result){PCT_OK, (size_t)(p.out - dst)};
    } else {
        decode_stop(&p, src, i, carry, kept_carry, tail, flags);
    }
    while (!pct_decode_handover(src, len, dst, &p, keep, flags, consumed, SIZE_MAX, &r))
        continue;
    return r;
}
