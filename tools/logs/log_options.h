/* log_options.h - the settings of `pct logs` and its command line. */
#ifndef PCT_TOOLS_LOG_OPTIONS_H
#define PCT_TOOLS_LOG_OPTIONS_H

#include <stddef.h>

#include "log_format_registry.h"

#define LOG_DEFAULT_CHUNK ((size_t)256 << 10) /* in L2 with its output: 2-3% faster than 512K */
#define LOG_MIN_CHUNK ((size_t)64 << 10)      /* the command line's least --chunk-size */
#define LOG_DEFAULT_MAX_LINE ((size_t)4 << 20)
#define LOG_MAX_THREADS 256
#define LOG_MAX_FIELDS 64 /* --field N (W3C columns: fmt_w3c.h) */

enum query_mode {
    Q_FORM,
    Q_PLAIN,
    Q_KEEP
};

struct log_formats;

struct log_config {
    enum log_format_id format; /* a format, LF_AUTO or LF_FIELD (--field N) */
    size_t field;
    int decode_slash;
    enum query_mode query;
    int referer;
    int json;
    int bytes;
    int percent_u;
    int stats;
    int raw;      /* --raw: undecoded text is written as it is */
    int progress; /* -1: auto */
    long threads; /* 0: all cores */
    size_t chunk;
    size_t max_line;      /* longer lines are streamed through undecoded */
    const char *json_key; /* --json-key: where JSON lines hold the URL */
    int table;            /* --tsv: 't', --csv: 'c', cells (log_cells.h): 'b', else 0 */
    int header;           /* --header: TSV/CSV column names first */
    int strict;           /* --strict-format: unparsed lines make exit status 1 */
    int raw_spaces;       /* --raw-spaces: decoded spaces not escaped (formats.c) */
    int csv_safe;         /* --csv-safe: "'" before a CSV cell a spreadsheet runs */

    /* The formats compiled (log_formats_new); the caller frees them. */
    const struct log_formats *formats;
};

struct log_options;

/* Parses argv (the word "logs" is skipped) into o (log_session.h) and
 * files (room for argc names). Returns -1 to go on, else the exit status
 * (--help printed: 0). Usage errors exit with status 2: this is the CLI's;
 * the options are checked by log_session_configure. */
int log_options_parse(int argc, char **argv, struct log_options *o, char **files, size_t *nfiles);

#endif
