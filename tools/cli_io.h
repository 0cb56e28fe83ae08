/* cli_io.h - I/O checks shared by the commands of the pct tool. */
#ifndef PCT_TOOLS_CLI_IO_H
#define PCT_TOOLS_CLI_IO_H

#include <sys/stat.h>

/* 1 if st (an input's fstat) is the regular file stdout writes to: reading
 * it would read our own output, growing the file without end, so the
 * commands refuse it, as cat(1) does ("input file is output file"). */
int cli_is_output_file(const struct stat *st);

#endif
