/* log_input.h - one input of `pct logs`: a file or stdin, read with read(2)
 * (never mapped: a file truncated under us cannot kill the process), its
 * content type detected from its first bytes (plain text, gzip, zstd with
 * or without skippable frames; other compressed or binary data, known by
 * its full magic number or by many control bytes, is refused), and every
 * fault reported with the file's name: a read error, a file that shrank,
 * grew or was removed while being read.
 *
 * Runs of NUL_HOLE or more NUL bytes (the hole a crash or a copytruncate
 * leaves in a log) are not text: they are taken out of what is read, each
 * run reported with its offset and length, and the input then counts as
 * damaged (the exit status says so) while every line around them is
 * processed. Fewer NULs are text, escaped on output like other control
 * bytes. */
#ifndef PCT_TOOLS_LOG_INPUT_H
#define PCT_TOOLS_LOG_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "log_util.h"

/* NULs in a row that make a hole, not text. */
#define NUL_HOLE 64

struct log_decompressor;
struct log_prefetch;

struct log_input {
    const char *name; /* in messages */
    int fd;
    int is_stdin;
    int regular;           /* a regular file: read to its end, never wait */
    int live;              /* a pipe or terminal of plain text: lines as they come */
    uint64_t start;        /* file offset at open (stdin may be past 0) */
    uint64_t offset;       /* file offset reached */
    uint64_t size_at_open; /* regular files */
    struct buf head;       /* the first bytes, read to detect the content type */
    size_t head_pos;       /* how much of head has been handed out */
    int eof;
    int failed; /* a fault was reported */
    struct log_decompressor *dec;
    struct buf *notes;           /* messages held here instead of printed */
    struct log_prefetch *pre;    /* read from a thread that reads ahead */
    unsigned long nlink_at_open; /* 0: already unlinked (read via /proc/self/fd/N) */
    /* Holes taken out of the text (see log_input.c, drop_holes). */
    uint64_t text_pos;          /* bytes of text (NULs included) decided so far */
    uint64_t nul_start;         /* where the current hole started, in text_pos terms */
    int in_nul;                 /* in a hole */
    size_t nul_held;            /* NULs at the end of the last read: text or hole? */
    uint64_t nul_runs;          /* holes seen (reported, or counted past a limit) */
    uint64_t nul_unreported[2]; /* holes and bytes past that limit, said at close */
    char small[2 * NUL_HOLE];   /* small reads go through it */
    size_t small_pos, small_len;
    int ranged;     /* log_input_set_range: nothing is read at or past limit */
    uint64_t limit; /* then: the file offset where the range's lines end */
};

/* Opens name ("-": stdin) and detects its content type. Returns 0, or -1
 * when it cannot be read (reported; nothing to close). notes: NULL, or
 * where its messages are held (a thread reading ahead, see log_prefetch.h)
 * instead of printed. */
int log_input_open(struct log_input *in, const char *name, struct buf *notes);
/* The same for an open fd (read from its offset, as stdin; not closed),
 * called name in messages. */
int log_input_open_fd(struct log_input *in, int fd, const char *name, struct buf *notes);

/* Makes an open regular file of plain text the lines of the byte range
 * [start, end) of it (file offsets): the lines that start in the range (a
 * line starts at offset 0 and after each newline), each read to its end,
 * however far past end it runs. For any cut points 0 = c0 < c1 < ... < cn
 * = size, the ranges [c_i, c_i+1) hold every line of the file once, in
 * order. end past the file's end is its end; start >= end: no line. The
 * content type is the file's (its first bytes, as log_input_open found it):
 * compressed data, a pipe or a terminal are refused (reported; the input
 * is closed). Call right after the open. Returns 0, or -1 (reported, the
 * input closed, as a failed open). Reads only around start and end (and
 * the head the open read). */
int log_input_set_range(struct log_input *in, uint64_t start, uint64_t end);

/* Reads up to n bytes of text (decompressed if need be) into dst. Returns
 * the count, or 0 at the end of the input or after a fault (reported, and
 * in->failed set). */
size_t log_input_read(struct log_input *in, char *dst, size_t n);

/* 1 if a read would return at once (data or end); for live inputs only. */
int log_input_ready(const struct log_input *in);

/* Checks the file did not change size or go away while it was read,
 * releases it, and returns 0, or -1 if a fault was reported. */
int log_input_close(struct log_input *in);

/* Prints "pct logs: NAME: message" on stderr and marks the input failed. */
void log_input_fault(struct log_input *in, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The same, for what is worth saying but is no fault. */
void log_input_note(const struct log_input *in, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Reads up to n bytes of a regular file at offset at, with pread(2):
 * fewer only at the file's end. Neither the file offset nor in changes, so
 * threads may call it at once. Returns the count, or -1 with errno set
 * (not reported: see log_input_read_failed). */
ssize_t log_input_pread(const struct log_input *in, void *dst, size_t n, uint64_t at);

/* Reports a read error (errno err) at file offset at and marks the input
 * failed. */
void log_input_read_failed(struct log_input *in, uint64_t at, int err);

/* The name of the compressed or binary format whose full magic number p
 * starts with ("gzip", "zstd", "bzip2", "xz", "ELF executable", ...), or
 * NULL. n: the bytes known (a magic longer than n is not matched). */
const char *log_input_magic(const unsigned char *p, size_t n);

/* Reads a regular file of plain text on in order from offset (where
 * reading it with log_input_pread stopped). */
void log_input_continue_at(struct log_input *in, uint64_t offset);

/* 1 if the first bytes of p[0..n) (as many as a plain input is judged by)
 * are binary data rather than text: many control bytes, NULs aside. */
int log_input_looks_binary(const char *p, size_t n);

/* Low level, for the decompressors: reads up to n raw bytes of the file.
 * Returns the count, 0 at its end, or -1 after a read error (reported). */
ssize_t log_input_read_raw(struct log_input *in, void *dst, size_t n);

#endif
