/* logs.h - `pct logs`: decode the URLs in web server access logs.
 *
 * The command parses its own options; tools/pct.c hands it the whole command
 * line once it has seen that the command is `logs`.
 */
#ifndef PCT_TOOLS_LOGS_H
#define PCT_TOOLS_LOGS_H

/* Runs `pct logs` with the program's argc/argv (the word "logs" among them is
 * skipped) and returns the exit status: 0 success, 2 usage or I/O error. */
int pct_logs_main(int argc, char **argv);

/* The compressed input this build reads, for `pct --version`: e.g.
 * "gzip (ISA-L), zstd (libzstd)", or "none". */
const char *pct_logs_compression(void);

/* One line for `pct --help`'s command list. */
#define PCT_LOGS_SUMMARY "decode the URLs in web server logs (see pct logs --help)"

#endif
