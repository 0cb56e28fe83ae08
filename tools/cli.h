/* cli.h - what the commands of the pct tool share: exit statuses, fatal
 * errors, whole writes, the --impl option, and the input-is-output check. */
#ifndef PCT_TOOLS_CLI_H
#define PCT_TOOLS_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_SOME_FAILED = 1, /* pct encode/decode/...: some record failed */
    CLI_EXIT_TROUBLE = 2      /* usage, I/O, memory, a fault in the input */
};

/* Prints "prog: what[: detail]" on stderr and exits with CLI_EXIT_TROUBLE. */
_Noreturn void cli_fatal(const char *prog, const char *what, const char *detail);

/* The output of a command, written with write(2), counting the units
 * (lines, records) it has written, so that a write error can say how far
 * the output got: no line is ever lost silently. SIGPIPE is ignored
 * (cli_output_start), so a reader that went away (`pct logs F | head -1`)
 * is a write error like a full disk: one message, then exit status 2:
 *   prog: output closed (broken pipe) after N lines; stopped
 *   prog: write error: No space left on device, after N lines; stopped
 * Buffered (cap > 0: cli_output_put, cli_output_flush) or not
 * (cli_output_write). */
struct cli_output {
    const char *prog;
    const char *unit; /* "line", "record", ... (singular) */
    char delimiter;   /* ends each unit in the output */
    int fd;
    unsigned long long units; /* units written */
    char *buf;
    size_t len, cap;
    unsigned long long pending; /* units in buf */
};

/* Sets o up (buffered with a buffer of cap bytes, or not if cap is 0),
 * ignores SIGPIPE, and makes o the output cli_fatal flushes before it
 * exits (what was made before an error is not lost). */
void cli_output_start(struct cli_output *o, const char *prog, const char *unit, char delimiter,
                      int fd, size_t cap);

/* Writes all n bytes (retrying short writes and EINTR), which end units
 * units; a write error ends the process with the message above. */
void cli_output_write(struct cli_output *o, const char *p, size_t n, unsigned long long units);

/* Buffered: appends n bytes that end units units (writing when full). */
void cli_output_put(struct cli_output *o, const char *p, size_t n, unsigned long long units);

/* Buffered: writes what is held; cli_output_end also frees the buffer. */
void cli_output_flush(struct cli_output *o);
void cli_output_end(struct cli_output *o);

/* The implementations this CPU runs, comma-separated. */
void cli_print_implementations(FILE *stream);

/* --impl NAME: selects that libpct implementation, or exits with a usage
 * error naming the available ones. */
void cli_use_implementation(const char *prog, const char *name);

/* 1 if st (an input's fstat) is the regular file stdout writes to: reading
 * it would read our own output, growing the file without end, so the
 * commands refuse it, as cat(1) does ("input file is output file"). */
int cli_is_output_file(const struct stat *st);

/* Widens fd to 1 MiB if it is a pipe (F_SETPIPE_SZ; as far as pipe-max-size
 * lets an unprivileged process, and nothing if refused): the process at the
 * other end runs further ahead, and a read or write moves a chunk at once
 * instead of 64 KiB slices, with fewer switches between the two processes. */
void cli_widen_pipe(int fd);

#endif
