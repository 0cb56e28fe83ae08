/* avx512/scan.h - the first step of every kernel body: one 64-byte block
 * loaded and its escapes found. Included after the ISA's block.h. */
#ifndef PCT_AVX512_SCAN_H
#define PCT_AVX512_SCAN_H

#include "scalar/utf8.h"

/* The bytes a block reads beyond its 64: the digits of an escape at its end. */
#define PCT_SCAN_AHEAD 2

typedef struct pct_scan {
    pct_block text;    /* the 64 bytes at s (zeros past the end of the input) */
    pct_block next;    /* the bytes at s + 1 */
    pct_block bytes;   /* at each escape's '%': the byte it stands for */
    uint64_t valid;    /* the bytes that are input */
    uint64_t percents; /* '%' */
    uint64_t escapes;  /* '%' followed by two hex digits */
} pct_scan;

/* Finds the escapes of the block whose bytes at s, s + 1 and s + 2 are in
 * text, next and b2. */
PCT_BLOCK_INLINE void scan_escapes(pct_scan *b, pct_block b2, const pct_block_tables *t)
{
    b->percents = block_eq(b->text, '%');
    const pct_block hi = block_hex_values(b->next, t), lo = block_hex_values(b2, t);
    b->escapes = b->percents & ~block_not_hex2(b->next, hi, b2, lo);
    b->bytes = block_escaped_bytes(hi, lo);
}

/* Scans the full block at s: 64 + PCT_SCAN_AHEAD bytes are input. */
PCT_BLOCK_INLINE void scan_full_block(pct_scan *b, const uint8_t *s, const pct_block_tables *t)
{
    b->valid = ~0ull;
    b->text = block_load(s);
    b->next = block_load(s + 1);
    scan_escapes(b, block_load(s + 2), t);
}

/* Scans the block at s, with `left` input bytes from s on: a full block
 * when there are 64 + PCT_SCAN_AHEAD, else a partial one (masked loads, that
 * read nothing past the end). */
PCT_BLOCK_INLINE void scan_block(pct_scan *b, const uint8_t *s, size_t left,
                                 const pct_block_tables *t)
{
    if (left >= 64 + PCT_SCAN_AHEAD) {
        scan_full_block(b, s, t);
        return;
    }
    b->valid = left < 64 ? block_low_bits(left) : ~0ull;
    b->text = block_load_n(s, left < 64 ? left : 64);
    b->next = block_load_n(s + 1, left - 1 < 64 ? left - 1 : 64);
    scan_escapes(b, block_load_n(s + 2, left < 2 ? 0 : left - 2 < 64 ? left - 2 : 64), t);
}

/* Only the text of the block at s (and which bytes are input): what the
 * kernels that need no escapes read. */
PCT_BLOCK_INLINE void scan_text(pct_scan *b, const uint8_t *s, size_t left)
{
    b->valid = left >= 64 ? ~0ull : block_low_bits(left);
    b->text = left >= 64 ? block_load(s) : block_load_n(s, left);
}

/* Stores the last 64 bytes written (a UTF-8 check's tail) to last, and
 * returns how many of them at the end form an unfinished sequence. Most
 * tails end in a finished one, which a compare tells without the store
 * (whose bytes, loaded one at a time, wait for it: no forwarding). */
PCT_BLOCK_INLINE size_t tail_unfinished(pct_block tail, uint8_t last[64])
{
    if (!block_utf8_unfinished(tail))
        return 0;
    block_store(last, tail);
    return pct_utf8_unfinished(last, 64);
}

/* The digits of the escapes in mask m that fall in the next block. */
PCT_BLOCK_INLINE uint64_t digits_carried(uint64_t m)
{
    return (m >> 62) | (m >> 63);
}

/* The digits of the escapes in m within the block. */
PCT_BLOCK_INLINE uint64_t digits_of(uint64_t m)
{
    return (m << 1) | (m << 2);
}

#endif /* PCT_AVX512_SCAN_H */
