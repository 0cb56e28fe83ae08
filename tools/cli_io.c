/* cli_io.c - I/O checks shared by the commands of the pct tool. */
#define _POSIX_C_SOURCE 200809L

#include <unistd.h>

#include "cli_io.h"

int cli_is_output_file(const struct stat *st)
{
    struct stat out;
    if (fstat(STDOUT_FILENO, &out) != 0 || !S_ISREG(out.st_mode) || !S_ISREG(st->st_mode))
        return 0;
    return out.st_dev == st->st_dev && out.st_ino == st->st_ino;
}
