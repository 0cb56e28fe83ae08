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

/* Writes all n bytes to fd (retrying short writes and EINTR); a write error
 * is fatal ("prog: write error: ..."). */
void cli_write_all(const char *prog, int fd, const char *p, size_t n);

/* The implementations this CPU runs, comma-separated. */
void cli_print_implementations(FILE *stream);

/* --impl NAME: selects that libpct implementation, or exits with a usage
 * error naming the available ones. */
void cli_use_implementation(const char *prog, const char *name);

/* 1 if st (an input's fstat) is the regular file stdout writes to: reading
 * it would read our own output, growing the file without end, so the
 * commands refuse it, as cat(1) does ("input file is output file"). */
int cli_is_output_file(const struct stat *st);

#endif
