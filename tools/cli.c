/* cli.c - what the commands of the pct tool share. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pct.h"

_Noreturn void cli_fatal(const char *prog, const char *what, const char *detail)
{
    if (detail != NULL)
        fprintf(stderr, "%s: %s: %s\n", prog, what, detail);
    else
        fprintf(stderr, "%s: %s\n", prog, what);
    exit(CLI_EXIT_TROUBLE);
}

void cli_write_all(const char *prog, int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t got = write(fd, p, n);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            cli_fatal(prog, "write error", strerror(errno));
        }
        p += got;
        n -= (size_t)got;
    }
}

void cli_print_implementations(FILE *stream)
{
    for (size_t i = 0; pct_implementation_name(i) != NULL; i++)
        fprintf(stream, "%s%s", i > 0 ? ", " : "", pct_implementation_name(i));
}

void cli_use_implementation(const char *prog, const char *name)
{
    if (pct_use_implementation(name) == 0)
        return;
    fprintf(stderr, "%s: unknown or unavailable implementation '%s' (available: ", prog, name);
    cli_print_implementations(stderr);
    fputs(")\n", stderr);
    exit(CLI_EXIT_TROUBLE);
}

int cli_is_output_file(const struct stat *st)
{
    struct stat out;
    if (fstat(STDOUT_FILENO, &out) != 0 || !S_ISREG(out.st_mode) || !S_ISREG(st->st_mode))
        return 0;
    return out.st_dev == st->st_dev && out.st_ino == st->st_ino;
}
