/* logs_fuzz.h - what the log engine's fuzz targets (fuzz_logs.c,
 * fuzz_logs_files.c) share: the options a run takes from the input's first
 * bytes, a session that collects its output, and the checks of that output.
 *
 * Input layout (LOGS_FUZZ_HEADER bytes, then the payload; missing bytes read
 * as 0):
 *   byte 0  format: auto, every name of the format registry
 *           (log_format_name), the aliases it takes, or --field N
 *   byte 1  writer (bits 0-1: line, json, tsv, csv), bit 2 --raw, bit 3
 *           --header, bits 4-5 --query form/plain/keep/form, bit 6
 *           --decode-slash, bit 7 --bytes (not with --json)
 *   byte 2  bit 0 --percent-u, bit 1 --referer, bit 2 --raw-spaces, bit 3
 *           --strict-format, bits 4-6 --fields (TSV/CSV: 0 the default, else
 *           one of fields_lists), bit 7 a --log-format string from the input
 *   byte 3  threads of the first run (bits 0-1: 1-4) and of the second
 *           (bits 2-3); chunk size of the first run (bits 4-7: chunk_sizes)
 *   byte 4  chunk size of the second run (bits 0-3); bits 4-5 --max-line
 *           (default, 4K, 5K, 8K); bits 6-7 the first line made long (when
 *           --max-line is set): 0 no, 1 exactly max-line bytes, 2 one more,
 *           3 more than twice as long
 *   byte 5  seed of the chunking the second run is fed in
 *   byte 6  N of --field N (bits 0-2: 1-8); bit 3: the second run uses the
 *           scalar libpct implementation (else the best this CPU runs, as
 *           the first run does); bits 4-7 variants (fuzz_logs: bit 4 one
 *           more run through the record callback, bit 5 the lines given to
 *           log_session_parse; fuzz_logs_files: its header)
 *   byte 7  bits 0-5 the --log-format string's length (0-63): that many
 *           bytes follow the header (cut at a NUL) when byte 2 bit 7 is set;
 *           bit 6 --csv-safe (CSV)
 *
 * The checks (logs_fuzz_check) on a run's output:
 *   lines      one output line per input line (+1 for --header): an input
 *              line ends at '\n' (a '\r' before it is part of the line); a
 *              last line without '\n' is a line; a run of LOGS_FUZZ_HOLE or
 *              more NULs is a hole taken out of the text first (the
 *              engine's NUL_HOLE: what a crash leaves); a squid entry cut
 *              at 8,191 bytes and a NUL (log_cut.h) may end a line at its
 *              NUL (one more output line); every output line
 *              ends in '\n'. When the run reports a fault (refused input), no
 *              more lines than that. Compressed payloads (gzip/zstd
 *              magic) are not counted.
 *   sink       each output call holds whole lines, as many as it says (a
 *              line longer than --max-line may be cut between calls)
 *   json       --json: each line one strict JSON object (json_strict.h: no
 *              repeated member name, valid UTF-8, no raw control)
 *   columns    TSV: the same number of tabs in every line of a run; CSV:
 *              RFC 4180 rows (quoted cells with "" inside, no '"' in an
 *              unquoted one), the same number of cells in every row
 *   csv-safe   --csv-safe: no cell's text starts with = + - @, a tab or a CR
 *   control    no byte 0x00-0x1F (but '\n' ending a line, '\t' in line
 *              output and as the TSV separator, and in line and JSON output
 *              the CR of a CR LF that ended the input line: the line's ending
 *              is kept, JSON reads it as a space), no 0x7F, no UTF-8 C1
 *              (C2 80-C2 9F) in the output; not checked for line output
 *              with --raw (undecoded text is then written as it is)
 *   hash       line output: a line starts with '#' only when its input line
 *              does (a decoded '#' would pass for a W3C directive)
 *   same       two runs with other threads, chunk sizes and chunkings (or
 *              files: plain, gzip, zstd) give the same status and bytes
 *              (named for triage: same-long when a line is longer than
 *              --max-line, same-fault when only one of them reports a
 *              fault, zstd-skippable for a zstd file that starts with a
 *              skippable frame)
 *   records    (fuzz_logs) the record callback, values: see fuzz_logs.c
 *
 * On a violation the options (as a `pct logs` command line, plus the
 * in-process settings), the input in hex and the outputs are printed and
 * abort() runs, so libFuzzer keeps the input.
 * $PCT_FUZZ_LOGS_LAX=json,control,... makes those checks report only (the
 * first of each kind is printed), for triage while a known defect is open.
 */
#ifndef PCT_TESTS_FUZZ_LOGS_FUZZ_H
#define PCT_TESTS_FUZZ_LOGS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#define LOGS_FUZZ_HEADER 8
#define LOGS_FUZZ_MAX_ARGS 40
#define LOGS_FUZZ_HOLE 64 /* NULs in a row that the engine takes out as a hole */
/* A squid entry cut: its first 8,191 bytes, then a NUL (tools/logs/log_cut.h). */
#define LOGS_FUZZ_SQUID_CUT 8191

struct logs_fuzz_opts {
    const char *argv[LOGS_FUZZ_MAX_ARGS]; /* "pct", "logs", options... */
    int argc;
    char log_format[64]; /* --log-format's value */
    char field_n[4], max_line_text[8];
    int writer; /* 0 line, 1 json, 2 tsv, 3 csv */
    int raw, header, bytes, csv_safe;
    int threads[2];
    const char *impl[2]; /* libpct implementation of each run */
    size_t chunk[2];
    unsigned feed_seed;
    size_t max_line;  /* 0: the default */
    int long_line;    /* byte 4 bits 6-7 */
    unsigned variant; /* byte 6 bits 4-7 (fuzz_logs_files) */
    int custom;       /* --log-format given */
    int auto_format;  /* --format auto (found per file by a run, per line by parse) */
};

/* A run's output as the callback sink received it. */
struct logs_fuzz_out {
    char *p;
    size_t n, cap;
    uint64_t lines; /* the sum of the sink's line counts */
    int bad_count;  /* a call's count was not its newlines */
    int cut;        /* a call did not end with a newline */
    int refused;    /* a message said "... data, not a text log" */
    int status;
    char error[256];
};

/* The options of data's header; the payload follows at *payload. Returns 0,
 * or -1 when the input is too short to choose any option. */
int logs_fuzz_options(const uint8_t *data, size_t size, struct logs_fuzz_opts *o,
                      const uint8_t **payload, size_t *payload_len);

/* The payload as the engine gets it: with the first line made long when
 * o->long_line says so (malloc'ed, *n its length). */
uint8_t *logs_fuzz_text(const struct logs_fuzz_opts *o, const uint8_t *p, size_t len, size_t *n);

/* t[0..n) starts with the magic of gzip, zstd or a zstd skippable frame:
 * the engine reads it decompressed. */
int logs_fuzz_compressed(const uint8_t *t, size_t n);

/* For a line (len bytes before its '\n', a CR too): 0 if it is no squid
 * cut, 1 if its NUL ends it (nothing after it), 2 if the engine may split
 * it there (when its start parses as a squid entry). */
size_t logs_fuzz_squid_cut(const struct logs_fuzz_opts *o, const uint8_t *line, size_t len);

/* t[0..n) as the engine's text: holes (runs of LOGS_FUZZ_HOLE or more NULs)
 * taken out; malloc'ed, *m its length. */
uint8_t *logs_fuzz_without_holes(const uint8_t *t, size_t n, size_t *m);

/* A configured session of o with run k's threads and chunk size (0 or 1),
 * output into out; NULL when the options are refused (a --log-format that
 * does not compile). */
struct log_session *logs_fuzz_session(const struct logs_fuzz_opts *o, int k,
                                      struct logs_fuzz_out *out);
/* The same with the table writer `table` ('b': cells, log_cells.h) instead
 * of the options' writer, and no header; 0: the options' own. */
struct log_session *logs_fuzz_session_table(const struct logs_fuzz_opts *o, int k,
                                            struct logs_fuzz_out *out, int table);
/* The cells of a run (logs_fuzz_session_table 'b') are the TSV writer's
 * rows of the same run cell for cell (logs_fuzz_cells.c); header: the TSV
 * run wrote one. */
void logs_fuzz_cells_same(const struct logs_fuzz_opts *o, const struct logs_fuzz_out *tsv,
                          const struct logs_fuzz_out *cells, int header);
/* Frees the session, keeping its status and error in out. */
void logs_fuzz_end(struct log_session *s, struct logs_fuzz_out *out, int status);
/* Appends p[0..n) to out's bytes (what the output callback does, without
 * counting lines). */
void logs_fuzz_out_append(struct logs_fuzz_out *out, const char *p, size_t n);

/* The checks above on one run of text[0..n) (the uncompressed payload);
 * what names the run in a report. */
void logs_fuzz_check(const struct logs_fuzz_opts *o, const char *what, const uint8_t *text,
                     size_t n, const struct logs_fuzz_out *out);
/* b has a's status and bytes; else a violation of kind ("same", or a
 * narrower kind for a variant of the input). */
void logs_fuzz_same(const struct logs_fuzz_opts *o, const char *kind, const char *what_a,
                    const struct logs_fuzz_out *a, const char *what_b,
                    const struct logs_fuzz_out *b);

/* The input being run, for reports (the target sets it first). */
void logs_fuzz_input(const uint8_t *data, size_t size);
/* A check of kind failed: report (and abort unless the kind is lax). */
void logs_fuzz_violation(const struct logs_fuzz_opts *o, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prints a line on stderr once per process (key: the message). */
void logs_fuzz_note_once(const char *message);

void logs_fuzz_out_free(struct logs_fuzz_out *out);

#endif
