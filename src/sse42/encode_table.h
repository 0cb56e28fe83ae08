/* sse42/encode_table.h - the shuffles that compact encoded tokens, shared by
 * the SSE4.2 and AVX2 encoders (sse42/encode.c explains the encoder). */
#ifndef PCT_SSE42_ENCODE_TABLE_H
#define PCT_SSE42_ENCODE_TABLE_H

#include <stdint.h>

/* A mixed block: every byte c becomes a 4-byte token [c, H, L, '%'] (four
 * tokens per vector, by two rounds of unpacking), and a group of four tokens
 * is compacted by one shuffle chosen by its four mask bits: byte 0 of a token
 * not escaped, bytes 3, 1, 2 ("%HH") of an escaped one.
 *
 *   mask (token 3..0)   output                      bytes
 *   0000                c0 c1 c2 c3                 4
 *   0001                %H0L0 c1 c2 c3              6
 *   0110                c0 %H1L1 %H2L2 c3           8
 *   1111                %H0L0 %H1L1 %H2L2 %H3L3     12
 *
 * The 16-byte store of a group writes past its 4 + 2 * popcount bytes; the
 * next group overwrites that (and the encoder's SLACK bounds the last one). */
// clang-format off
#define Z -128
static const int8_t group_shuffle[16][16] = {
    {0, 4, 8, 12,                         Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z}, /* 0000 */
    {3, 1, 2, 4, 8, 12,                   Z, Z, Z, Z, Z, Z, Z, Z, Z, Z},       /* 0001 */
    {0, 7, 5, 6, 8, 12,                   Z, Z, Z, Z, Z, Z, Z, Z, Z, Z},       /* 0010 */
    {3, 1, 2, 7, 5, 6, 8, 12,             Z, Z, Z, Z, Z, Z, Z, Z},             /* 0011 */
    {0, 4, 11, 9, 10, 12,                 Z, Z, Z, Z, Z, Z, Z, Z, Z, Z},       /* 0100 */
    {3, 1, 2, 4, 11, 9, 10, 12,           Z, Z, Z, Z, Z, Z, Z, Z},             /* 0101 */
    {0, 7, 5, 6, 11, 9, 10, 12,           Z, Z, Z, Z, Z, Z, Z, Z},             /* 0110 */
    {3, 1, 2, 7, 5, 6, 11, 9, 10, 12,     Z, Z, Z, Z, Z, Z},                   /* 0111 */
    {0, 4, 8, 15, 13, 14,                 Z, Z, Z, Z, Z, Z, Z, Z, Z, Z},       /* 1000 */
    {3, 1, 2, 4, 8, 15, 13, 14,           Z, Z, Z, Z, Z, Z, Z, Z},             /* 1001 */
    {0, 7, 5, 6, 8, 15, 13, 14,           Z, Z, Z, Z, Z, Z, Z, Z},             /* 1010 */
    {3, 1, 2, 7, 5, 6, 8, 15, 13, 14,     Z, Z, Z, Z, Z, Z},                   /* 1011 */
    {0, 4, 11, 9, 10, 15, 13, 14,         Z, Z, Z, Z, Z, Z, Z, Z},             /* 1100 */
    {3, 1, 2, 4, 11, 9, 10, 15, 13, 14,   Z, Z, Z, Z, Z, Z},                   /* 1101 */
    {0, 7, 5, 6, 11, 9, 10, 15, 13, 14,   Z, Z, Z, Z, Z, Z},                   /* 1110 */
    {3, 1, 2, 7, 5, 6, 11, 9, 10, 15, 13, 14, Z, Z, Z, Z},                     /* 1111 */
};
// clang-format on
#undef Z

/* A block with only a few bytes to escape is written run by run instead
 * (encode_sparse): each run of bytes kept as they are by one 16- or 32-byte
 * store (overlapping the next), each escape by one 4-byte store from this
 * table: "%HH" of byte b, as the bytes '%', H, L, 0 of a little-endian word
 * (x86); the 0 is overwritten by what follows. */
#define PCT_HEX_CHAR(n) ((n) < 10 ? '0' + (n) : 'A' + (n)-10)
#define PCT_PERCENT_HEX(b)                                                                         \
    ((uint32_t)'%' | (uint32_t)PCT_HEX_CHAR((b) >> 4) << 8 | (uint32_t)PCT_HEX_CHAR((b)&15) << 16)
#define PCT_PH4(b)                                                                                 \
    PCT_PERCENT_HEX(b), PCT_PERCENT_HEX(b + 1), PCT_PERCENT_HEX(b + 2), PCT_PERCENT_HEX(b + 3)
#define PCT_PH16(b) PCT_PH4(b), PCT_PH4(b + 4), PCT_PH4(b + 8), PCT_PH4(b + 12)
#define PCT_PH64(b) PCT_PH16(b), PCT_PH16(b + 16), PCT_PH16(b + 32), PCT_PH16(b + 48)
static const uint32_t percent_hex[256] = {PCT_PH64(0), PCT_PH64(64), PCT_PH64(128), PCT_PH64(192)};
#undef PCT_PH64
#undef PCT_PH16
#undef PCT_PH4
#undef PCT_PERCENT_HEX
#undef PCT_HEX_CHAR

#endif /* PCT_SSE42_ENCODE_TABLE_H */
