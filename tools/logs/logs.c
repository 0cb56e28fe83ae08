/* logs.c - `pct logs`: decode the request targets (and optionally referers)
 * of web server access logs, line by line, safely and fast.
 *
 * The parts, one file each (an internal library, tools/logs/):
 *   log_options.c     command line and --help
 *   log_input.c       opening and reading an input (read(2)), content type,
 *                     faults: truncated, grown, removed, unreadable files
 *   log_decompress.c  gzip and zstd input
 *   log_pipeline.c    chunks of whole lines, worker threads, in-order
 *                     output, long lines streamed, progress
 *   log_format_registry.c  the formats: one row each (name, aliases,
 *                     description, detection, parser, escaping, template);
 *                     every list of formats is made from it
 *   log_formats.c     the registry's templates compiled (struct log_formats),
 *                     a line's and an input's format found
 *   fmt_access.c      combined/common lines without a template (fast path)
 *   fmt_w3c.c         W3C (IIS) '#Fields:' headers and columns
 *   log_decode.c      decoding a path/query/referer with libpct
 *   log_escape.c      escaping for line output and JSON
 *   log_safe.c        the safety rules every writer follows
 *   log_output.c      each line of a chunk to the run's writer; --stats
 *   log_writer.h      the output modes, one file each: log_write_line.c,
 *                     log_write_json.c, log_write_tsv.c, log_write_csv.c
 *                     (rows: log_tsv.c), chosen in log_writers.c
 *   fmt_template.c    formats as templates: nginx and Apache format strings
 *   fmt_json.c        JSON-lines logs
 *   log_record*.c     a parsed line as named fields, handed to the writer;
 *                     log_field_text.c its fields' text, log_time.c ISO times
 *   log_scan.h/.c     finding the rare bytes that need work, 16 at a time
 *   log_util.c        buffers, spans (errors and writes: tools/cli.c)
 *
 * Safety: every byte that decoding produces goes through an escaping pass, and
 * the text that is not decoded through one for control bytes, so log content
 * cannot forge output: one input line is one output line, and no control
 * character (terminal escapes) reaches the output unescaped.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "log_decode.h"
#include "log_formats.h"
#include "log_options.h"
#include "log_output.h"
#include "log_pipeline.h"
#include "log_util.h"
#include "log_writer.h"
#include "logs.h"

/* Total size of the inputs when all are regular files, else 0 (unknown). */
static uint64_t known_size(char **files, size_t nfiles)
{
    uint64_t total = 0;
    for (size_t i = 0; i < nfiles; i++) {
        struct stat st;
        int known =
            strcmp(files[i], "-") == 0 ? fstat(STDIN_FILENO, &st) == 0 : stat(files[i], &st) == 0;
        if (!known || !S_ISREG(st.st_mode))
            return 0;
        total += (uint64_t)st.st_size;
    }
    return total;
}

int pct_logs_main(int argc, char **argv)
{
    struct log_config cfg;
    char **files = calloc((size_t)argc + 1, sizeof *files);
    if (files == NULL)
        fatal("out of memory", NULL);
    size_t nfiles = 0;
    int status = log_options_parse(argc, argv, &cfg, files, &nfiles);
    if (status >= 0) {
        free(files);
        return status;
    }
    /* Read-only once built: shared by every thread. */
    struct log_ctx ctx;
    log_ctx_init(&ctx, &cfg);
    if (nfiles == 0)
        files[nfiles++] = "-";

    long threads = cfg.threads;
    if (threads == 0) {
        threads = sysconf(_SC_NPROCESSORS_ONLN);
        if (threads < 1)
            threads = 1;
    }

    struct pipeline pl;
    memset(&pl, 0, sizeof pl);
    pl.run.size_known = known_size(files, nfiles);
    pl.run.show_progress =
        cfg.progress == 1 || (cfg.progress < 0 && isatty(STDERR_FILENO) && pl.run.size_known > 0);
    pl.run.start = now_seconds();
    output_start();
    if (cfg.header && ctx.writer->header != NULL) {
        char header[2048];
        write_out(header, ctx.writer->header(&ctx, header, sizeof header), 0);
    }
    pipeline_start(&pl, &ctx, threads > 1 ? (int)threads : 0);
    pipeline_inputs(&pl, files, nfiles);
    pipeline_stop(&pl);
    if (pl.run.show_progress)
        show_progress(&pl, 1);
    if (cfg.stats)
        print_stats(&pl.run.total, pl.run.start);
    log_formats_free((struct log_formats *)cfg.formats);
    free(files);
    if (pl.run.failed)
        return CLI_EXIT_TROUBLE;
    if (cfg.strict && pl.run.total.unparsed > 0) { /* --strict-format */
        fprintf(stderr, "pct logs: %llu line%s did not parse\n",
                (unsigned long long)pl.run.total.unparsed, pl.run.total.unparsed == 1 ? "" : "s");
        return CLI_EXIT_SOME_FAILED;
    }
    return CLI_EXIT_OK;
}
