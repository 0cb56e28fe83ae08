/* simd_shared/tables.h - the read-only tables of the SIMD kernels, defined once
 * (simd_shared/tables.c) and loaded into registers by each ISA's block.h. */
#ifndef PCT_SIMD_SHARED_TABLES_H
#define PCT_SIMD_SHARED_TABLES_H

#include <stdint.h>

/* Hex digits by their low 6 bits, for one 64-entry permute: '0'-'9' (0x30-
 * 0x39), 'A'-'F' (0x01-0x06) and 'a'-'f' (0x21-0x26) do not collide. Each
 * entry holds the digit's value in bits 0-3 and the top three bits of the
 * byte it stands for in bits 5-7; every other entry has bit 4 set. So a
 * byte c is a hex digit exactly when (entry ^ (c & 0xE0)) & 0xF0 == 0. */
extern const uint8_t pct_hex_entry_table[64];

/* Upper-case hex digits, "0123456789ABCDEF". */
extern const uint8_t pct_hex_digit_table[16];

/* 0, 1, ..., 127: index vectors for the byte permutes (a load at offset k
 * gives k, k + 1, ...). */
extern const uint8_t pct_index_table[128];

/* Encoding a 64-byte block into 192 output slots, three per byte (slot 3j
 * the byte j as written or '%', 3j + 1 and 3j + 2 its hex digits), held in
 * three 64-byte registers: pct_encode_triplet_index[r][p] is, for slot
 * 64r + p, the byte j = (64r + p) / 3 it comes from, + 64 for the high digit
 * (the second table of a two-table permute). */
extern const uint8_t pct_encode_triplet_index[3][64];
/* 0x80 at the digit slots of register r (slots 64r + p, (64r + p) % 3 != 0),
 * 0 at its byte slots. */
extern const uint8_t pct_encode_triplet_digits[3][64];

/* 192 bytes of 64 escapes in a row (or their 192 encoded bytes) are three
 * 64-byte blocks whose '%' fall on every third byte, from byte 0, 2 and 1:
 * PCT_THIRDS_<r> marks them in block r. */
#define PCT_THIRDS_0 0x9249249249249249ull
#define PCT_THIRDS_1 0x4924924924924924ull
#define PCT_THIRDS_2 0x2492492492492492ull

/* Decoding 192 bytes that are 64 escapes (avx512/decode_body.h, dense
 * runs): entry j is the offset of escape j's high digit (3j + 1) or low
 * digit (3j + 2) in those 192 bytes. */
extern const uint8_t pct_dense_high_index[64];
extern const uint8_t pct_dense_low_index[64];

/* 1 << (k & 7) for k = 0..63: the bit of a byte within its set byte. */
extern const uint8_t pct_bit_of_table[64];

/* UTF-8 validation, after the lookup algorithm of Keiser and Lemire
 * ("Validating UTF-8 in less than one instruction per byte", 2021).
 *
 * Every ill-formed UTF-8 sequence shows in some pair of adjacent bytes
 * (prev1, cur), except a missing or extra continuation byte two or three
 * bytes after a lead, which the "must be a continuation" check below finds.
 * Each error class is a product of three nibble conditions, so three 16-byte
 * lookups ANDed together flag them, one bit per class:
 *
 *   bit  class         prev1 high   prev1 low     cur high
 *   0    too short     C-F          any           0-7, C-F   lead, no continuation
 *   1    too long      0-7          any           8-B        continuation after ASCII
 *   2    overlong 2    C            0-1           8-B        C0, C1
 *   3    overlong 3    E            0             8-9        E0 80-9F
 *   4    surrogate     E            D             A-B        ED A0-BF
 *   5    overlong 4,   F            0, 5-F        8          F0 80-8F, F5-FF 80-8F
 *        too large
 *   6    too large     F            4-F           9-B        F4 90-BF, F5-FF 90-BF
 *   7    two conts     8-B          any           8-B        continuation after continuation
 *
 *   PREV1_HIGH[h]:  02 x8 (0-7)  80 x4 (8-B)  05 (C)  01 (D)  19 (E)  61 (F)
 *   PREV1_LOW[l]:   AF 87 83 83 C3 E3 E3 E3 E3 E3 E3 E3 E3 F3 E3 E3
 *   CUR_HIGH[h]:    01 x8 (0-7)  AE (8)  CE (9)  D6 (A)  D6 (B)  01 x4 (C-F)
 *
 * Bit 7 is right exactly when cur is the second or third continuation of a
 * sequence, i.e. prev2 >= E0 or prev3 >= F0: XOR with that expectation
 * leaves a non-zero byte at every error. (prev2 - 0x60 and prev3 - 0x70,
 * saturated, have bit 7 set exactly then.) The tables were checked against a
 * strict decoder on every string of up to two bytes and all strings of three
 * to five bytes over the boundary values of each class.
 *
 * The check alone does not see a sequence cut off at the end of the data:
 * the kernels look at the last bytes for that. */
extern const uint8_t pct_utf8_prev_high[16];
extern const uint8_t pct_utf8_prev_low[16];
extern const uint8_t pct_utf8_cur_high[16];
/* The same as 64-entry tables, for a 64-entry permute (AVX-512 vpermb, which
 * reads the low 6 bits of an index): a high nibble's by the byte shifted
 * right by 2 (entry k: nibble k / 4), the low nibble's by the byte itself
 * (entry k: nibble k % 16). */
extern const uint8_t pct_utf8_prev_high_64[64];
extern const uint8_t pct_utf8_prev_low_64[64];
extern const uint8_t pct_utf8_cur_high_64[64];

/* Compaction by tables (the SIMD implementations without a compress
 * instruction): for the 8-bit mask k of the bytes of an 8-byte group that
 * stay, pct_compact_8[k] is the shuffle that moves them to the front, in
 * order (0x80, which a shuffle turns into 0, after them). For example
 * k = 1111 1001 (an escape at 0: its digits 1 and 2 go) gives 0 3 4 5 6 7. */
extern const uint8_t pct_compact_8[256][8];

/* Hex digits by nibble lookups (16-entry shuffles): a byte is a hex digit
 * exactly when pct_hex_class_low[its low nibble] & pct_hex_class_high[its
 * high nibble] is not 0 (bit 0: a digit 0-9, high nibble 3; bit 1: a letter
 * A-F or a-f, high nibble 4 or 6, low nibble 1-6). A byte >= 0x80 looks up 0
 * in a shuffle by itself. */
extern const uint8_t pct_hex_class_low[16];
extern const uint8_t pct_hex_class_high[16];

/* Expansion by tables (the encoder of the SIMD implementations without an
 * expand instruction): each byte c of four becomes a 4-byte token
 * [c, H, L, '%'], and pct_encode_group[m] is the shuffle of the 16 bytes of
 * four tokens that keeps byte 0 of a token whose bit in the 4-bit mask m is
 * clear, and bytes 3, 1, 2 ("%HL") of one whose bit is set, in order
 * (0x80 after them): 4 + 2 * popcount(m) bytes. */
extern const uint8_t pct_encode_group[16][16];

#endif /* PCT_SIMD_SHARED_TABLES_H */
