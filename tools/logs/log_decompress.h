/* log_decompress.h - gzip (every member) and zstd input for `pct logs`,
 * with the fastest library the build found: ISA-L's igzip or zlib for gzip,
 * libzstd for zstd. Without one, such input is refused with a message. */
#ifndef PCT_TOOLS_LOG_DECOMPRESS_H
#define PCT_TOOLS_LOG_DECOMPRESS_H

#include <stddef.h>

#include "log_input.h"

enum log_compression {
    LOG_GZIP,
    LOG_ZSTD
};

/* Sets in up to decompress (its head holds the first bytes). Returns 0, or
 * -1 after reporting that this format cannot be read. */
int log_decompress_start(struct log_input *in, enum log_compression type);

/* Up to n decompressed bytes. 0 at the end, or after a fault (reported:
 * truncated or corrupt data, with the position where it broke). */
size_t log_decompress_read(struct log_input *in, char *dst, size_t n);

void log_decompress_end(struct log_input *in);

#endif
