/* log_session.h - the log engine of `pct logs` as a library: one object
 * that owns a run (options, inputs, the pipeline, the output, counts,
 * errors). No process globals: sessions are independent, and several may run
 * at the same time in one process, on different threads, with different
 * options. Nothing here exits: every error is returned, with a message in
 * the CLI's style ("pct logs: NAME: ..."); what is printed is asked for:
 * the messages about inputs go to the message callback, --stats to
 * log_session_print_stats, and the progress bar (cfg.progress: 1, or -1 and
 * stderr a terminal and the input size known) to stderr: in-process, set
 * cfg.progress = 0. Out of memory while a buffer grows (in the decoding
 * loops too) stops the run like a failed output: -1, "pct logs: out of
 * memory, after N lines; stopped", the whole lines before it written, the
 * threads joined (log_oom.h); a file opened ahead by a thread of its own
 * (threads > 1, a file added by name) that runs out of memory there is
 * opened again in its turn.
 *
 * Use:
 *   struct log_options o;
 *   log_options_init(&o);                      the CLI's defaults
 *   o.cfg.json = 1;                            then any field of cfg
 *   struct log_session *s = log_session_new(); NULL: out of memory
 *   if (log_session_configure(s, &o) != 0)     checks the options
 *       puts(log_session_error(s));
 *   log_session_output_fd(s, 1);               or _output_callback, _records
 *   log_session_add_file(s, "access.log");     then run, or:
 *   log_session_feed(s, bytes, n); ...         any chunking, then
 *   log_session_finish(s);
 *   log_session_free(s);
 *
 * A session runs once: either its inputs (log_session_run) or the bytes
 * fed to it (log_session_feed ... log_session_finish). Calls on one
 * session come from one thread at a time (log_session_interrupt excepted). */
#ifndef PCT_TOOLS_LOG_SESSION_H
#define PCT_TOOLS_LOG_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "log_options.h" /* struct log_config */

struct log_session;

/* Every option of a run: struct log_config (the fields that the engine's
 * code reads as cfg->...) and the two that are text to compile. */
struct log_options {
    struct log_config cfg;
    const char *log_format; /* --log-format, or NULL; sets cfg.format (LF_CUSTOM) */
    const char *fields;     /* --fields (TSV/CSV columns), or NULL: the default */
    /* --byte-range START:END when has_byte_range: log_session_set_range. */
    int has_byte_range;
    uint64_t byte_range_start, byte_range_end;
};

/* The defaults of `pct logs` (auto format, chunk 256K, max line 4M, ...). */
void log_options_init(struct log_options *o);

/* --format NAME: a format's name or alias, or "auto". Returns 0, or -1
 * when the name is unknown. */
int log_options_format(struct log_options *o, const char *name);
/* --field N: field N (1..) of a whitespace-separated line is the URL.
 * Returns 0, or -1 when N is out of range. */
int log_options_field(struct log_options *o, size_t n);

/* A new session, not configured yet; NULL when out of memory. */
struct log_session *log_session_new(void);
/* Frees the session; a run that was fed and not finished is abandoned. */
void log_session_free(struct log_session *s);

/* Checks and takes the options (the strings are copied). Returns 0, or -1
 * with log_session_error saying what is wrong (the CLI's usage messages,
 * e.g. "--json cannot be combined with --tsv or --csv"). Before any input. */
int log_session_configure(struct log_session *s, const struct log_options *o);

/* The last error, "" if none: one line, no newline, already prefixed
 * "pct logs: " as the CLI prints it. Valid until the next call on s. */
const char *log_session_error(const struct log_session *s);

/* ------------------------------------------------------------------ output
 * Output is written in input order, whole lines only: every call of a sink
 * ends on a line's end (a line longer than --max-line may be split over
 * several calls; the last ends it). One sink per session; default: none (an
 * error at run time). */

/* To fd (write(2), short writes and EINTR retried). A write error stops
 * the run: "pct logs: write error: ..., after N lines; stopped" or
 * "output closed (broken pipe) after N lines; stopped". SIGPIPE is the
 * caller's to ignore (the CLI does). Returns -1 if fd is not open. */
int log_session_output_fd(struct log_session *s, int fd);

/* To a function: p[0..n) holds whole lines, lines of them ending in it.
 * A non-zero return stops the run with the error "pct logs: output
 * callback failed (N), after M lines; stopped". p is valid during the call
 * only. Called on the thread that runs the session, or (threads > 1) on one
 * of its worker threads, never two calls at once, always in input order. */
typedef int (*log_write_fn)(void *ctx, const char *p, size_t n, uint64_t lines);
int log_session_output_callback(struct log_session *s, log_write_fn fn, void *ctx);

/* ----------------------------------------------------------------- records
 * Instead of text, parsed records: every input line is one record, in input
 * order, delivered in batches. The output options (json, table, raw, header)
 * do not apply; the decoding options (decode_slash, query, bytes,
 * percent_u, format, log_format, json_key) do. */

enum log_value_kind { /* = enum field_kind of log_record.h */
    LOG_KIND_TEXT,
    LOG_KIND_NUMBER,
    LOG_KIND_TIME,
    LOG_KIND_REQUEST, /* "METHOD target PROTOCOL" */
    LOG_KIND_URL,
    LOG_KIND_PATH,
    LOG_KIND_QUERY,
    LOG_KIND_REFERER,
    LOG_KIND_LIST,
    LOG_KIND_LITERAL /* a JSON line's number, true or false, as written */
};

struct log_session_field {
    const char *name; /* not NUL-terminated; "" (0): an unnamed trailing field */
    size_t name_len;
    int kind;        /* enum log_value_kind */
    const char *raw; /* the text as written in the line (log escapes and all) */
    size_t raw_len;
    const void *engine; /* the engine's field (for the value functions) */
};

struct log_session_record {
    const char *format; /* "combined", "w3c", ..., "unparsed", "directive" (W3C #...) */
    uint64_t input;     /* which input, from 0 (the order they were added) */
    uint64_t line;      /* the line's number in its input, from 1 (a byte range: in it) */
    int parsed;         /* 0: the line did not parse (format "unparsed"), or a directive */
    int long_line;      /* 1: longer than --max-line: text is its first max_line bytes */
    const char *text;   /* the line, without its newline (nor the CR of a CRLF) */
    size_t text_len;
    size_t nfields;
    const struct log_session_field *fields;
    int truncated; /* 1: the server cut the line; its fields are what it has (log_cut.h) */
};

/* What the value functions decode with (the session's options, scratch
 * buffers); valid during the callback only. */
struct log_values;

/* Called with count records (count >= 1). Every pointer in them, and v, is
 * valid during the call only: copy what is kept. A non-zero return stops
 * the run with the error "pct logs: record callback failed (N), after M
 * lines; stopped". Called like log_write_fn (one at a time, input order). */
typedef int (*log_record_fn)(void *ctx, struct log_values *v, const struct log_session_record *r,
                             size_t count);
int log_session_records(struct log_session *s, log_record_fn fn, void *ctx);

/* The first field of r named name, or NULL. */
const struct log_session_field *log_record_field(const struct log_session_record *r,
                                                 const char *name);

/* A field's text as the engine decodes it for output (the TSV writer's
 * rules, without the escaping): log escapes undone (\" \xHH, JSON), then by
 * kind: a path percent-decoded (%2F kept unless decode_slash; %uXXXX in
 * W3C or with percent_u), a query per the query mode (%26 %3D %23 kept), a
 * referer decoded with cfg.referer; any other text (a request, a URL) only
 * UTF-8-repaired (U+FFFD, unless cfg.bytes). r: f's record. *p stays valid
 * until the next value call with the same v (or the callback's return).
 * Returns 1, or 0 when the field is absent (f NULL), "-" or empty (null). */
int log_value_text(struct log_values *v, const struct log_session_record *r,
                   const struct log_session_field *f, const char **p, size_t *n);

/* The parts of the request a record holds (its request field, or a URL
 * field), decoded as above; a field of that name (W3C's path, query) comes
 * first. Returns 1, or 0 (null) when the record has none. */
enum log_part {
    LOG_PART_METHOD,
    LOG_PART_PATH,
    LOG_PART_QUERY, /* without its '?' */
    LOG_PART_PROTOCOL,
    LOG_PART_ORIGIN /* "http://host:80" of an absolute URL */
};
int log_value_part(struct log_values *v, const struct log_session_record *r, int part,
                   const char **p, size_t *n);

/* An integer field (status, bytes...): 1 and *out, or 0 when absent, "-"
 * or not a decimal integer that fits int64 (null). */
int log_value_int(struct log_values *v, const struct log_session_record *r,
                  const struct log_session_field *f, int64_t *out);
/* The text of an integer field (TSV's cell) as log_value_int reads it: 1 and
 * *out, or 0 when it is not a decimal integer that fits int64. */
int log_value_int_text(const char *text, size_t n, int64_t *out);

/* A time field as nanoseconds since the epoch, UTC: 1 and *ns, or 0 when
 * absent or not a valid time (null). r: the record (a W3C time goes with its
 * date field). Times without a zone are UTC. */
int log_value_time(struct log_values *v, const struct log_session_record *r,
                   const struct log_session_field *f, int64_t *ns);
/* The ISO 8601 text of a NAME_iso value (TSV --fields time_iso, JSON) as
 * log_value_time gives it: 1 and *ns, or 0 when it is no valid time. */
int log_value_iso_ns(const char *text, size_t n, int64_t *ns);

/* A record as `pct logs --json` writes it: its members in order, as calls
 * of fn (the same keys, decoding and nulls as the JSON text, so that a
 * consumer builds the very same objects without JSON in between):
 * LOG_JSON_KEY a member's name; then its value: LOG_JSON_STRING (UTF-8
 * text, repaired), LOG_JSON_NULL, LOG_JSON_LITERAL (a number, true or false
 * as JSON text), or LOG_JSON_LIST ... LOG_JSON_END around values (a query
 * is a list of [name, value] lists). A line that did not parse is
 * {"unparsed": line}, a W3C directive {"directive": line}. p is valid
 * during the call only. fn returns 0 to go on; its non-zero return stops
 * the walk and is returned (else 0). Call from the record callback. */
enum log_json_event {
    LOG_JSON_KEY,
    LOG_JSON_STRING,
    LOG_JSON_NULL,
    LOG_JSON_LITERAL,
    LOG_JSON_LIST,
    LOG_JSON_END
};
typedef int (*log_json_fn)(void *ctx, int event, const char *p, size_t n);
int log_record_json(struct log_values *v, const struct log_session_record *r, log_json_fn fn,
                    void *ctx);

/* ------------------------------------------------------------------ inputs */

/* Adds a file by name ("-": stdin), read when the session runs; the name
 * is copied. Returns 0, or -1 out of memory. */
int log_session_add_file(struct log_session *s, const char *name);
/* Adds an open fd (not closed by the session), named name in messages. */
int log_session_add_fd(struct log_session *s, int fd, const char *name);

/* A byte range [start, end) of the session's one input (file offsets),
 * for splitting a big file between workers: the run reads the lines that
 * START in the range, each to its end. A line starts at offset 0 and after
 * every newline (the bytes after a last newline, if any, are a last line
 * without one). So the range begins at 0 when start is 0, else just after
 * the first newline at or after byte start - 1 (a cut point on a line's
 * first byte keeps that line), and ends with the line that holds byte end
 * - 1, read to its newline (or the file's end) however long it is. For any
 * cut points 0 = c0 < c1 < ... < cn = size, the runs over [c_i, c_i+1)
 * together write every line of the file exactly once, in order: their
 * outputs concatenated are the whole file's output (cfg.header: each
 * writes the header; give it to the first range only). end past the file's
 * end is its end; start == end (or start at or past the end): no line.
 * Besides the range, only the file's first 64 KiB (its content type) and
 * the bytes from start - 1 to the first newline are read (pread): never
 * the file from 0 to start.
 * The input must be one regular file of plain text (named, "-" or an fd);
 * the content type is judged from the file's first bytes as for the whole
 * file, and a compressed file, a pipe or a terminal is an input fault
 * ("pct logs: NAME: is compressed: a byte range needs a plain file"; run:
 * LOG_SESSION_FAULT). The format (auto) is found from the range's own
 * lines, and a W3C range knows only the #Fields: lines in it: give the
 * format (and split W3C logs at their directives). Counts and record line
 * numbers are the range's: line 1 is the range's first line (the lines
 * before it are not read, so their number is not known).
 * Returns 0, or -1 when start > end or the session has run. Before the
 * run; log_options.has_byte_range does the same through configure. */
int log_session_set_range(struct log_session *s, uint64_t start, uint64_t end);

/* Runs over the inputs added, in order. Returns 0; 1 when lines did not
 * parse with cfg.strict (the error says how many); LOG_SESSION_FAULT when
 * an input had a fault (a read error, a file that shrank...: said through
 * the messages, the other inputs still read); -1 on an error that stopped
 * the run (the output failed, the record callback returned non-zero, out
 * of memory: log_session_error); 128 + the signal when interrupted
 * (log_session_interrupt; error "pct logs: interrupted (SIGINT)"). */
#define LOG_SESSION_FAULT (-2)
int log_session_run(struct log_session *s);

/* The push API, for in-process producers and fuzz targets: bytes as they
 * come, in any chunking, then finish. The result is the same as a run over
 * a file holding the same bytes (content type detected from the same first
 * 64 KiB, gzip and zstd too), whatever the chunking and the thread count.
 * The first 64 KiB are held; then the run starts on a thread of the
 * session's own (the sink and the record callback are then called there),
 * reading the rest through a socket as it is fed; a smaller input runs in
 * finish, on the calling thread. Feed returns 0, or -1 when the run has
 * stopped (log_session_error says why); finish returns as log_session_run
 * does. Feed blocks while the run is behind (the sink is slow). */
int log_session_feed(struct log_session *s, const void *bytes, size_t n);
int log_session_finish(struct log_session *s);

/* Lines one call at a time, for a processor that has a message in hand
 * (a syslog parser): p[0..n) is one line or more (a last line needs no
 * newline), parsed and decoded on the calling thread and handed to the
 * record callback (log_session_records) before the call returns, one record
 * per line, numbered on from the lines of earlier calls. The format is
 * cfg.format's (auto: found per line, never W3C; W3C: the columns of the
 * last '#Fields:' line the session parsed). Call it as often as wanted;
 * such a session neither runs inputs nor is fed. Returns 0, or -1 (not
 * configured, no record callback, the callback returned non-zero, out of
 * memory: log_session_error). The counts add up as for a run. */
int log_session_parse(struct log_session *s, const char *p, size_t n);

/* Stops a run at the next line boundary: the output ends on a whole line
 * (a line longer than --max-line being streamed is ended there), and the
 * run returns 128 + sig (130: SIGINT, 143: SIGTERM), error "pct logs:
 * interrupted (SIGINT)". An idle pipe is looked at every 0.1 s. Lock-free
 * and async-signal-safe: for a SIGINT/SIGTERM handler, or another thread. */
void log_session_interrupt(struct log_session *s, int sig);

/* ---------------------------------------------------------------- messages
 * Notes and faults about inputs ("pct logs: NAME: file shrank while being
 * read", a long line...) go to fn, one line at a time without its newline
 * (default: stderr). File names in every message are escaped
 * (log_quote_name in log_util.h): a name cannot forge a message line. */
typedef void (*log_message_fn)(void *ctx, const char *line);
void log_session_messages(struct log_session *s, log_message_fn fn, void *ctx);

/* ------------------------------------------------------------------ counts */
struct log_session_counts {
    uint64_t lines, bytes, escaped_lines, malformed, invalid_utf8, unparsed, long_lines;
    uint64_t formats[LF_COUNT]; /* lines parsed, per format id (log_format_name) */
    uint64_t truncated;         /* records the server cut (log_cut.h) */
};
void log_session_counts(const struct log_session *s, struct log_session_counts *c);
/* --stats: the report the CLI prints, on stderr. */
void log_session_print_stats(const struct log_session *s);

#endif
