/* logs.c - `pct logs`: decode the request targets (and optionally referers)
 * of web server access logs, line by line, safely and fast.
 *
 * The parts, one file each (an internal library, tools/logs/):
 *   logs.c            the command: argv -> options -> session -> exit status
 *   log_options.c     command line and --help
 *   log_session.c     the engine as an object (log_session.h): options,
 *                     inputs, output to an fd, a function or records
 *   log_records.c     records for the record callback; log_values.c their
 *                     values (text, integers, times); log_values_json.c a
 *                     record as --json's members, as calls (Python's dicts)
 *   log_record_walk.h the one walk of a record's JSON object (keys, order,
 *                     duplicates, value kinds), for --json and those calls
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
 *                     log_write_json.c, log_write_tsv.c, log_write_csv.c,
 *                     log_write_cells.c (TSV's rows as cells, log_cells.h,
 *                     for pct.logs.read_frame; rows: log_tsv.c), chosen in
 *                     log_writers.c
 *   fmt_template.c    formats as templates: nginx and Apache format strings
 *   fmt_haproxy.c     HAProxy log-format strings as templates (the haproxy
 *                     rows are HAProxy's own), its lines, syslog headers
 *   fmt_custom.c      --log-format as a configuration writes it (nginx's
 *                     log_format ... escape=, Apache's LogFormat,
 *                     HAProxy's log-format, varnishncsa -F)
 *   log_unescape.c    each format's own escaping (registry row) undone once
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

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "log_options.h"
#include "log_session.h"
#include "logs.h"

/* The session a SIGINT or SIGTERM stops (at a line's end, so that the
 * output ends with a whole line). The CLI's only globals. */
static struct log_session *volatile interruptible;

static void on_signal(int sig)
{
    static volatile sig_atomic_t signalled;
    struct log_session *s = interruptible;
    if (signalled || s == NULL) {
        /* A second one (the output blocked on a reader that does not
         * read): no longer waited for. */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    signalled = 1;
    log_session_interrupt(s, sig);
}

static int trouble(const char *message)
{
    fprintf(stderr, "%s\n", message);
    return CLI_EXIT_TROUBLE;
}

int pct_logs_main(int argc, char **argv)
{
    struct log_options o;
    char **files = calloc((size_t)argc + 1, sizeof *files);
    if (files == NULL)
        return trouble("pct logs: out of memory");
    size_t nfiles = 0;
    int status = log_options_parse(argc, argv, &o, files, &nfiles);
    if (status >= 0) {
        free(files);
        return status;
    }
    struct log_session *s = log_session_new();
    if (s == NULL) {
        free(files);
        return trouble("pct logs: out of memory");
    }
    if (log_session_configure(s, &o) != 0) {
        fprintf(stderr, "%s\nTry 'pct logs --help'.\n", log_session_error(s));
        status = CLI_EXIT_TROUBLE;
        goto done;
    }
    /* Before any input is opened: with stdout closed, the first file
     * opened would take its fd. */
    if (log_session_output_fd(s, STDOUT_FILENO) != 0) {
        status = trouble(log_session_error(s));
        goto done;
    }
    /* A reader that goes away is a write error like a full disk. */
    signal(SIGPIPE, SIG_IGN);
    cli_widen_pipe(STDOUT_FILENO);
    if (nfiles == 0)
        files[nfiles++] = "-";
    for (size_t i = 0; i < nfiles; i++)
        if (log_session_add_file(s, files[i]) != 0) {
            status = trouble(log_session_error(s));
            goto done;
        }
    struct sigaction act, old_int, old_term;
    memset(&act, 0, sizeof act);
    act.sa_handler = on_signal;
    sigemptyset(&act.sa_mask);
    act.sa_flags = SA_RESTART;
    interruptible = s;
    sigaction(SIGINT, &act, &old_int);
    sigaction(SIGTERM, &act, &old_term);
    int result = log_session_run(s);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    interruptible = NULL;
    if (o.cfg.stats)
        log_session_print_stats(s);
    if (result == 0) {
        status = CLI_EXIT_OK;
    } else if (result == 1) { /* --strict-format */
        fprintf(stderr, "%s\n", log_session_error(s));
        status = CLI_EXIT_SOME_FAILED;
    } else if (result == LOG_SESSION_FAULT) { /* said as it happened */
        status = CLI_EXIT_TROUBLE;
    } else {
        fprintf(stderr, "%s\n", log_session_error(s));
        status = result > 128 ? result : CLI_EXIT_TROUBLE; /* 130: SIGINT, 143: SIGTERM */
    }
done:
    log_session_free(s);
    free(files);
    return status;
}
