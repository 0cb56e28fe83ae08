/* header_abi.h - sizes and offsets of pct.h's types, filled in by each
 * language's translation unit and compared by test_header.c. */
#ifndef PCT_TEST_HEADER_ABI_H
#define PCT_TEST_HEADER_ABI_H

#define HEADER_ABI_N 14
#define HEADER_ABI_FILL(out)                                                                       \
    do {                                                                                           \
        (out)[0] = sizeof(pct_set);                                                                \
        (out)[1] = sizeof(pct_result);                                                             \
        (out)[2] = offsetof(pct_result, count);                                                    \
        (out)[3] = sizeof(pct_status);                                                             \
        (out)[4] = sizeof(pct_decoder);                                                            \
        (out)[5] = offsetof(pct_stream_state, carry);                                              \
        (out)[6] = offsetof(pct_stream_state, error);                                              \
        (out)[7] = sizeof(pct_encoder);                                                            \
        (out)[8] = sizeof(pct_stream_state);                                                       \
        (out)[9] = offsetof(pct_stream_state, status);                                             \
        (out)[10] = (size_t)PCT_UTF8_REPLACE;                                                      \
        (out)[11] = (size_t)PCT_STREAM_CARRY;                                                      \
        (out)[12] = (size_t)PCT_VERSION_NUMBER;                                                    \
        (out)[13] = (size_t)PCT_INVALID_ARGUMENT;                                                  \
    } while (0)

#endif
