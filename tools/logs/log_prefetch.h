/* log_prefetch.h - compressed inputs decompressed ahead, one thread per
 * file, so that several .gz/.zst files (logrotate's access.log.*.gz) are
 * decompressed in parallel while the output stays in command-line order.
 *
 * A prefetch opens its file on its own thread. Plain text is handed back
 * as it was opened (reading it is no work worth a thread). Compressed input
 * is decompressed into a ring of PREFETCH_BYTES: when the ring is full the
 * thread waits until the file is due, so memory stays bounded
 * (PREFETCH_BYTES per file in flight), whatever the files' sizes. When the
 * file is due its thread stops: the reader takes the ring, then the input
 * itself, and decompresses the rest straight into its chunks (no copy
 * through the ring for the file being written). The file's messages
 * (unreadable, truncated, corrupt, changed while read) are held while its
 * thread reads and printed when its turn comes, after everything decoded
 * before the fault has been handed out: stderr reads as in a serial run. */
#ifndef PCT_TOOLS_LOG_PREFETCH_H
#define PCT_TOOLS_LOG_PREFETCH_H

#include <stddef.h>

#include "log_input.h"

/* Decompressed bytes a file may run ahead of its reader. */
#define PREFETCH_BYTES ((size_t)2 << 20)

struct log_prefetch;

/* 1 if name is worth a prefetch: a regular file (not stdin, not a pipe). */
int log_prefetch_eligible(const char *name);

/* Starts the thread that opens name and reads it ahead; its messages are
 * added to notes_to (NULL: printed on stderr) when it is taken or closed.
 * NULL when out of memory or threads: then the input is opened as usual. */
struct log_prefetch *log_prefetch_start(const char *name, struct buf *notes_to);

/* Waits until the file is open and sets in up to read it (its messages so
 * far printed). Returns 0, -1 if it could not be opened (reported), or 1
 * when memory ran out opening it ahead: the caller opens it (nothing was
 * said, nothing is held). The prefetch is then owned by in (or freed). */
int log_prefetch_take(struct log_prefetch *p, struct log_input *in);

/* For log_input_read and log_input_close of an input set up by
 * log_prefetch_take. */
size_t log_prefetch_read(struct log_input *in, char *dst, size_t n);
int log_prefetch_close(struct log_input *in);

#endif
