/* logs_fuzz.c - options, sessions and output checks of the log engine's
 * fuzz targets (logs_fuzz.h). */
#include "logs_fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_strict.h"
#include "log_format_registry.h"
#include "log_formats.h"
#include "log_options.h"
#include "log_session.h"
#include "pct.h"

/* A UBSan finding must end the run (libFuzzer then keeps the input). */
__attribute__((visibility("default"), used)) const char *__ubsan_default_options(void);
__attribute__((visibility("default"), used)) const char *__ubsan_default_options(void)
{
    return "halt_on_error=1:print_stacktrace=1";
}

/* ------------------------------------------------------------------ options */

/* "auto", every format of the registry by name and by each alias (as
 * --list-formats gives them), then "field" (--field N). */
static char alias_text[LF_COUNT][64];
static const char *format_names[4 * LF_COUNT + 2];
static int n_formats;

static void formats_init(void)
{
    if (n_formats)
        return;
    const char *wrong = json_strict_self_test();
    if (wrong != NULL) {
        fprintf(stderr, "json_strict: wrong verdict on %s\n", wrong);
        abort();
    }
    format_names[n_formats++] = "auto";
    for (int id = 0; id < LF_CUSTOM; id++)
        format_names[n_formats++] = log_format_name(id);
    for (int id = 0; id < LF_CUSTOM; id++) {
        const struct log_format_def *d = log_format_def(id);
        if (d == NULL || d->aliases == NULL)
            continue;
        snprintf(alias_text[id], sizeof alias_text[id], "%s", d->aliases);
        for (char *a = strtok(alias_text[id], ","); a != NULL && n_formats < 4 * LF_COUNT;
             a = strtok(NULL, ","))
            format_names[n_formats++] = a;
    }
    format_names[n_formats++] = "field";
}

/* --fields lists for TSV/CSV (byte 2 bits 4-6; 0 is the default). */
static const char *const fields_lists[8] = {NULL,
                                            "line",
                                            "format,path,query,line",
                                            "time,time_iso,remote,status,bytes",
                                            "method,path,protocol,origin,query,referer",
                                            "agent,extra,vhost,c-ip,cs-uri-stem,nothing",
                                            "path,path,query,query",
                                            "date,time,request,url,status_iso"};

static const size_t chunk_sizes[16] = {1,   2,    3,    7,     16,    31,     64,       100,
                                       256, 1000, 4096, 16384, 65536, 262144, 1u << 20, 5};
static const size_t max_lines[4] = {0, 4096, 5120, 8192};

int logs_fuzz_options(const uint8_t *data, size_t size, struct logs_fuzz_opts *o,
                      const uint8_t **payload, size_t *payload_len)
{
    formats_init();
    uint8_t h[LOGS_FUZZ_HEADER] = {0};
    if (size == 0)
        return -1;
    memcpy(h, data, size < LOGS_FUZZ_HEADER ? size : LOGS_FUZZ_HEADER);
    size_t used = size < LOGS_FUZZ_HEADER ? size : LOGS_FUZZ_HEADER;
    memset(o, 0, sizeof *o);
    o->argv[o->argc++] = "pct";
    o->argv[o->argc++] = "logs";
    o->argv[o->argc++] = "--no-progress";
    const char *format = format_names[h[0] % n_formats];
    o->writer = h[1] & 3;
    o->raw = h[1] >> 2 & 1;
    o->header = o->writer >= 2 && (h[1] >> 3 & 1);
    if (strcmp(format, "field") == 0 && o->writer >= 2)
        format = "auto"; /* --field N has no TSV/CSV columns */
    if (strcmp(format, "field") == 0) {
        snprintf(o->field_n, sizeof o->field_n, "%u", 1u + h[6] % 8);
        o->argv[o->argc++] = "--field";
        o->argv[o->argc++] = o->field_n;
    } else {
        o->argv[o->argc++] = "--format";
        o->argv[o->argc++] = format;
        o->auto_format = strcmp(format, "auto") == 0;
    }
    static const char *const writers[4] = {NULL, "--json", "--tsv", "--csv"};
    if (writers[o->writer] != NULL)
        o->argv[o->argc++] = writers[o->writer];
    if (o->raw)
        o->argv[o->argc++] = "--raw";
    if (o->header)
        o->argv[o->argc++] = "--header";
    static const char *const queries[4] = {"form", "plain", "keep", "form"};
    o->argv[o->argc++] = "--query";
    o->argv[o->argc++] = queries[h[1] >> 4 & 3];
    if (h[1] & 0x40)
        o->argv[o->argc++] = "--decode-slash";
    o->bytes = (h[1] & 0x80) && o->writer != 1;
    if (o->bytes)
        o->argv[o->argc++] = "--bytes";
    if (h[2] & 1)
        o->argv[o->argc++] = "--percent-u";
    if (h[2] & 2)
        o->argv[o->argc++] = "--referer";
    if (h[2] & 4)
        o->argv[o->argc++] = "--raw-spaces";
    if (h[2] & 8)
        o->argv[o->argc++] = "--strict-format";
    const char *fields = fields_lists[h[2] >> 4 & 7];
    if (fields != NULL && o->writer >= 2) {
        o->argv[o->argc++] = "--fields";
        o->argv[o->argc++] = fields;
    }
    o->threads[0] = 1 + (h[3] & 3);
    o->threads[1] = 1 + (h[3] >> 2 & 3);
    o->chunk[0] = chunk_sizes[h[3] >> 4];
    o->chunk[1] = chunk_sizes[h[4] & 15];
    o->max_line = max_lines[h[4] >> 4 & 3];
    if (o->max_line) {
        snprintf(o->max_line_text, sizeof o->max_line_text, "%zuK", o->max_line >> 10);
        o->argv[o->argc++] = "--max-line";
        o->argv[o->argc++] = o->max_line_text;
        o->long_line = h[4] >> 6;
    }
    o->impl[0] = pct_implementation_name(0);
    o->impl[1] = h[6] & 8 ? "scalar" : o->impl[0];
    o->feed_seed = h[5];
    o->variant = h[6] >> 4;
    o->csv_safe = o->writer == 3 && (h[7] & 0x40);
    if (o->csv_safe)
        o->argv[o->argc++] = "--csv-safe";
    if (h[2] & 0x80) {
        size_t len = h[7] % 64;
        if (len > size - used)
            len = size - used;
        memcpy(o->log_format, data + used, len);
        o->log_format[len] = '\0'; /* cut at a NUL: argv holds C strings */
        used += len;
        o->custom = 1;
        o->argv[o->argc++] = "--log-format";
        o->argv[o->argc++] = o->log_format;
    }
    *payload = data + used;
    *payload_len = size - used;
    return 0;
}

uint8_t *logs_fuzz_text(const struct logs_fuzz_opts *o, const uint8_t *p, size_t len, size_t *n)
{
    size_t first = 0;
    while (first < len && p[first] != '\n')
        first++;
    size_t want = 0;
    if (o->long_line == 1)
        want = o->max_line;
    else if (o->long_line == 2)
        want = o->max_line + 1;
    else if (o->long_line == 3)
        want = 2 * o->max_line + 17;
    if (want <= first)
        want = first;
    uint8_t *t = malloc(want + (len - first) + 1);
    if (t == NULL)
        abort();
    /* The first line's bytes repeated up to want ("x" when it is empty). */
    for (size_t i = 0; i < want; i++)
        t[i] = first ? p[i % first] : 'x';
    if (len > first)
        memcpy(t + want, p + first, len - first);
    *n = want + (len - first);
    return t;
}

uint8_t *logs_fuzz_without_holes(const uint8_t *t, size_t n, size_t *m)
{
    uint8_t *o = malloc(n + 1);
    if (o == NULL)
        abort();
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        size_t run = 0;
        while (i + run < n && t[i + run] == 0)
            run++;
        if (run >= LOGS_FUZZ_HOLE) {
            i += run;
            continue;
        }
        if (run == 0)
            run = 1;
        memcpy(o + k, t + i, run);
        k += run;
        i += run;
    }
    *m = k;
    return o;
}

/* ----------------------------------------------------------------- sessions */

static const uint8_t *cur_data;
static size_t cur_size;

void logs_fuzz_input(const uint8_t *data, size_t size)
{
    cur_data = data;
    cur_size = size;
}

static void print_options(const struct logs_fuzz_opts *o)
{
    fprintf(stderr, "  options:");
    for (int i = 1; i < o->argc; i++) {
        fputc(' ', stderr);
        for (const char *c = o->argv[i]; *c; c++)
            fprintf(stderr, (unsigned char)*c < 0x21 || (unsigned char)*c > 0x7e ? "\\x%02x" : "%c",
                    (unsigned char)*c);
    }
    fprintf(
        stderr,
        "\n  in-process: run 1 threads %d chunk %zu impl %s (fed whole); run 2 threads %d chunk "
        "%zu impl %s (fed in chunks, seed %u); long first line %d; variant %u\n",
        o->threads[0], o->chunk[0], o->impl[0], o->threads[1], o->chunk[1], o->impl[1],
        o->feed_seed, o->long_line, o->variant);
}

static void print_hex(const char *what, const void *p, size_t n, size_t limit)
{
    const uint8_t *b = p;
    fprintf(stderr, "  %s (%zu bytes):", what, n);
    for (size_t i = 0; i < n && i < limit; i++)
        fprintf(stderr, "%s%02x", i % 32 ? "" : "\n    ", b[i]);
    fprintf(stderr, "%s\n", n > limit ? "\n    ..." : "");
}

static int kind_lax(const char *kind)
{
    const char *lax = getenv("PCT_FUZZ_LOGS_LAX");
    if (lax == NULL)
        return 0;
    size_t k = strlen(kind);
    for (const char *p = lax; (p = strstr(p, kind)) != NULL; p += k)
        if ((p == lax || p[-1] == ',') && (p[k] == '\0' || p[k] == ','))
            return 1;
    return 0;
}

void logs_fuzz_note_once(const char *message)
{
    static char seen[64][96];
    static int n;
    for (int i = 0; i < n; i++)
        if (strncmp(seen[i], message, sizeof seen[i] - 1) == 0)
            return;
    if (n < 64)
        snprintf(seen[n++], sizeof seen[0], "%s", message);
    fprintf(stderr, "%s\n", message);
}

/* A lax kind is reported once per case: the kind, the writer and what
 * lax_case says (the control byte, ...). */
static char lax_case[32];

void logs_fuzz_violation(const struct logs_fuzz_opts *o, const char *kind, const char *fmt, ...)
{
    static char reported[64][64];
    static int n_reported;
    const int lax = kind_lax(kind);
    if (lax) {
        char key[64];
        snprintf(key, sizeof key, "%s/%d/%d/%s", kind, o->writer, o->raw, lax_case);
        lax_case[0] = '\0';
        for (int i = 0; i < n_reported; i++)
            if (strcmp(reported[i], key) == 0)
                return;
        if (n_reported < 64)
            snprintf(reported[n_reported++], sizeof reported[0], "%s", key);
    }
    va_list ap;
    fprintf(stderr, "\n==== pct logs fuzz: %s: ", lax ? "REPORTED (lax)" : "INVARIANT FAILED");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " [%s]\n", kind);
    print_options(o);
    print_hex("input", cur_data, cur_size, 4096);
    if (!lax)
        abort();
}

void logs_fuzz_out_append(struct logs_fuzz_out *out, const char *p, size_t n)
{
    if (out->n + n > out->cap) {
        size_t cap = out->cap ? out->cap : 4096;
        while (cap < out->n + n)
            cap *= 2;
        char *q = realloc(out->p, cap);
        if (q == NULL)
            abort();
        out->p = q;
        out->cap = cap;
    }
    if (n)
        memcpy(out->p + out->n, p, n);
    out->n += n;
}

static int collect(void *ctx, const char *p, size_t n, uint64_t lines)
{
    struct logs_fuzz_out *out = ctx;
    uint64_t newlines = 0;
    for (size_t i = 0; i < n; i++)
        newlines += p[i] == '\n';
    /* A wrong count is reported after the run (logs_fuzz_check). */
    if (newlines != lines)
        out->bad_count = 1;
    if (n > 0 && p[n - 1] != '\n')
        out->cut = 1;
    out->lines += lines;
    logs_fuzz_out_append(out, p, n);
    return 0;
}

/* Messages are not printed; one kind is noted (see fuzz_logs_files.c). */
static void on_message(void *ctx, const char *line)
{
    struct logs_fuzz_out *out = ctx;
    if (strstr(line, " data, not a text log") != NULL)
        out->refused = 1;
}

struct log_session *logs_fuzz_session(const struct logs_fuzz_opts *o, int k,
                                      struct logs_fuzz_out *out)
{
    return logs_fuzz_session_table(o, k, out, 0);
}

struct log_session *logs_fuzz_session_table(const struct logs_fuzz_opts *o, int k,
                                            struct logs_fuzz_out *out, int table)
{
    struct log_options opts;
    char *argv[LOGS_FUZZ_MAX_ARGS + 1];
    char *files[LOGS_FUZZ_MAX_ARGS + 1];
    size_t nfiles = 0;
    memcpy(argv, o->argv, (size_t)o->argc * sizeof *argv);
    argv[o->argc] = NULL;
    if (log_options_parse(o->argc, argv, &opts, files, &nfiles) != -1 || nfiles != 0)
        logs_fuzz_violation(o, "options", "the command line does not parse");
    /* The implementation is the process's: set for this run, the best
     * again at logs_fuzz_end (runs never overlap). */
    if (pct_use_implementation(o->impl[k]) != 0)
        logs_fuzz_violation(o, "options", "pct_use_implementation(%s) failed", o->impl[k]);
    opts.cfg.threads = o->threads[k];
    opts.cfg.chunk = o->chunk[k];
    if (table != 0) {
        opts.cfg.table = table;
        opts.cfg.header = 0;
    }
    memset(out, 0, sizeof *out);
    struct log_session *s = log_session_new();
    if (s == NULL)
        abort();
    log_session_messages(s, on_message, out);
    if (log_session_configure(s, &opts) != 0) {
        /* Only a --log-format string may be refused. */
        if (!o->custom)
            logs_fuzz_violation(o, "options", "options refused: %s", log_session_error(s));
        log_session_free(s);
        pct_use_implementation(pct_implementation_name(0));
        return NULL;
    }
    if (log_session_output_callback(s, collect, out) != 0)
        logs_fuzz_violation(o, "options", "output callback refused: %s", log_session_error(s));
    return s;
}

void logs_fuzz_end(struct log_session *s, struct logs_fuzz_out *out, int status)
{
    out->status = status;
    snprintf(out->error, sizeof out->error, "%s", log_session_error(s));
    log_session_free(s);
    pct_use_implementation(pct_implementation_name(0));
}

void logs_fuzz_out_free(struct logs_fuzz_out *out)
{
    free(out->p);
    memset(out, 0, sizeof *out);
}

/* ------------------------------------------------------------------- checks */

int logs_fuzz_compressed(const uint8_t *t, size_t n)
{
    return (n >= 2 && t[0] == 0x1f && t[1] == 0x8b) ||
           (n >= 4 && t[0] == 0x28 && t[1] == 0xb5 && t[2] == 0x2f && t[3] == 0xfd) ||
           (n >= 4 && (t[0] & 0xf0) == 0x50 && t[1] == 0x2a && t[2] == 0x4d && t[3] == 0x18);
}

/* CSV cells of line s[0..n) (RFC 4180), or -1 with *bad the offset; with
 * safe (--csv-safe), *unsafe the offset of the first cell whose text starts
 * with a formula's first byte, or SIZE_MAX. */
static long csv_cells(const char *s, size_t n, size_t *bad, int safe, size_t *unsafe)
{
    long cells = 1;
    size_t i = 0;
    *unsafe = SIZE_MAX;
    for (;;) {
        const size_t text = i < n && s[i] == '"' ? i + 1 : i;
        if (safe && *unsafe == SIZE_MAX && text < n && strchr("=+-@\t\r", s[text]) != NULL)
            *unsafe = text;
        if (i < n && s[i] == '"') {
            for (i++;; i++) {
                if (i >= n) {
                    *bad = i;
                    return -1;
                }
                if (s[i] == '"') {
                    if (i + 1 < n && s[i + 1] == '"') {
                        i++;
                        continue;
                    }
                    i++;
                    break;
                }
            }
            if (i < n && s[i] != ',') {
                *bad = i;
                return -1;
            }
        } else {
            while (i < n && s[i] != ',') {
                if (s[i] == '"') {
                    *bad = i;
                    return -1;
                }
                i++;
            }
        }
        if (i >= n)
            return cells;
        i++; /* ',' */
        cells++;
    }
}

static void check_text(const struct logs_fuzz_opts *o, const char *what, const uint8_t *text,
                       size_t n, const struct logs_fuzz_out *out);

size_t logs_fuzz_squid_cut(const struct logs_fuzz_opts *o, const uint8_t *line, size_t len)
{
    const size_t max_line = o->max_line ? o->max_line : (size_t)4 << 20;
    if (len > max_line || len <= LOGS_FUZZ_SQUID_CUT || line[LOGS_FUZZ_SQUID_CUT] != 0)
        return 0;
    if (line[len - 1] == '\r')
        len--; /* the CR of a CR LF is the line's end */
    return len > LOGS_FUZZ_SQUID_CUT + 1 ? 2 : 1;
}

/* The lines of text[0..n) the engine may split at a squid cut's NUL. */
static uint64_t squid_splits(const struct logs_fuzz_opts *o, const uint8_t *text, size_t n)
{
    uint64_t k = 0;
    for (size_t at = 0; at < n;) {
        const uint8_t *nl = memchr(text + at, '\n', n - at);
        const size_t len = nl != NULL ? (size_t)(nl - text) - at : n - at;
        k += logs_fuzz_squid_cut(o, text + at, len) == 2;
        at += len + 1;
    }
    return k;
}

void logs_fuzz_check(const struct logs_fuzz_opts *o, const char *what, const uint8_t *text,
                     size_t n, const struct logs_fuzz_out *out)
{
    size_t m;
    uint8_t *t = logs_fuzz_without_holes(text, n, &m);
    check_text(o, what, t, m, out);
    free(t);
}

static void check_text(const struct logs_fuzz_opts *o, const char *what, const uint8_t *text,
                       size_t n, const struct logs_fuzz_out *out)
{
    const char *p = out->p;
    const size_t len = out->n;
    if (out->bad_count)
        logs_fuzz_violation(o, "sink", "%s: an output call's line count is not its newlines", what);
    if (out->cut && o->long_line < 2)
        logs_fuzz_violation(o, "sink", "%s: an output call ends inside a line", what);
    if (len > 0 && p[len - 1] != '\n')
        logs_fuzz_violation(o, "lines", "%s: the output does not end with a newline", what);
    uint64_t out_lines = 0;
    for (size_t i = 0; i < len; i++)
        out_lines += p[i] == '\n';
    if (!out->bad_count && out->lines != out_lines)
        logs_fuzz_violation(o, "sink", "%s: the sink was told %llu lines, got %llu", what,
                            (unsigned long long)out->lines, (unsigned long long)out_lines);
    /* Input lines, and where each starts. */
    uint64_t in_lines = 0;
    for (size_t i = 0; i < n; i++)
        in_lines += text[i] == '\n';
    in_lines += n > 0 && text[n - 1] != '\n';
    const int counted = !logs_fuzz_compressed(text, n);
    const uint64_t header = o->header ? 1 : 0;
    const int whole = out->status == 0 || out->status == 1;
    /* A squid entry cut at its NUL ends a line there when it parses as one
     * (tools/logs/log_cut.h): such a line may give two. */
    const uint64_t splits = counted ? squid_splits(o, text, n) : 0;
    if (counted && whole &&
        (out_lines < in_lines + header || out_lines > in_lines + header + splits))
        logs_fuzz_violation(o, "lines", "%s: %llu input lines gave %llu output lines (status %d)",
                            what, (unsigned long long)in_lines, (unsigned long long)out_lines,
                            out->status);
    /* Output lines are those of the input lines, one each (none split). */
    const int mapped = counted && out_lines <= in_lines + header;
    if (counted && !whole && out_lines > in_lines + header + splits)
        logs_fuzz_violation(
            o, "lines", "%s: %llu input lines gave %llu output lines (status %d: %s)", what,
            (unsigned long long)in_lines, (unsigned long long)out_lines, out->status, out->error);
    /* Line by line. */
    long columns = -1;
    size_t in_at = 0;
    uint64_t line_no = 0;
    for (size_t start = 0; start < len; line_no++) {
        const char *e = memchr(p + start, '\n', len - start);
        const size_t end = (size_t)(e - p), k = end - start;
        const char *s = p + start;
        const int is_header = o->header && line_no == 0;
        /* The input line this one is written for. */
        const int in_start_hash = in_at < n && text[in_at] == '#';
        int in_crlf = 0; /* the input line ends in CR LF */
        if (!is_header) {
            const uint8_t *nl = in_at < n ? memchr(text + in_at, '\n', n - in_at) : NULL;
            in_crlf = nl != NULL && nl > text + in_at && nl[-1] == '\r';
            in_at = nl ? (size_t)(nl - text) + 1 : n;
        }
        if (o->writer == 0 && !is_header && mapped && whole && k > 0 && s[0] == '#' &&
            !in_start_hash)
            logs_fuzz_violation(o, "hash",
                                "%s: output line %llu starts with '#', its input line does not",
                                what, (unsigned long long)line_no + 1);
        if (o->writer == 1) {
            size_t at;
            const char *why = json_strict_object(s, k, &at);
            if (why != NULL) {
                const int dup = strstr(why, "repeated") != NULL;
                logs_fuzz_violation(
                    o, dup ? "json-keys" : "json", "%s: output line %llu: %s at byte %zu: %.*s",
                    what, (unsigned long long)line_no + 1, why, at, (int)(k < 300 ? k : 300), s);
            }
        }
        if (o->writer >= 2) {
            long c = 0;
            size_t bad = 0;
            if (o->writer == 2) {
                c = 1;
                for (size_t i = 0; i < k; i++)
                    c += s[i] == '\t';
            } else {
                size_t unsafe;
                c = csv_cells(s, k, &bad, o->csv_safe && !is_header, &unsafe);
                if (c < 0)
                    logs_fuzz_violation(
                        o, "columns", "%s: output line %llu: not an RFC 4180 row at byte %zu: %.*s",
                        what, (unsigned long long)line_no + 1, bad, (int)(k < 300 ? k : 300), s);
                if (unsafe != SIZE_MAX)
                    logs_fuzz_violation(
                        o, "csv-safe",
                        "%s: output line %llu: a cell starts with '%c' at byte %zu: %.*s", what,
                        (unsigned long long)line_no + 1, s[unsafe], unsafe,
                        (int)(k < 300 ? k : 300), s);
            }
            if (c >= 0 && columns >= 0 && c != columns)
                logs_fuzz_violation(
                    o, "columns", "%s: output line %llu has %ld columns, the first %ld: %.*s", what,
                    (unsigned long long)line_no + 1, c, columns, (int)(k < 300 ? k : 300), s);
            if (columns < 0)
                columns = c;
        }
        if (!(o->writer == 0 && o->raw)) {
            const int tab_ok = o->writer == 0 || o->writer == 2;
            for (size_t i = 0; i < k; i++) {
                const unsigned char c = (unsigned char)s[i];
                const int c1 = c == 0xc2 && i + 1 < k && (unsigned char)s[i + 1] >= 0x80 &&
                               (unsigned char)s[i + 1] <= 0x9f;
                /* Line and JSON output keep a CR LF ending (of its input
                 * line, or of any line when the lines cannot be matched);
                 * TSV/CSV rows end in LF. */
                const int crlf_ok =
                    o->writer <= 1 && i + 1 == k && c == '\r' && (in_crlf || !mapped || !whole);
                if ((c < 0x20 && !(c == '\t' && tab_ok) && !crlf_ok) || c == 0x7f || c1) {
                    snprintf(lax_case, sizeof lax_case, "%02x", c1 ? (unsigned char)s[i + 1] : c);
                    logs_fuzz_violation(
                        o, "control",
                        "%s: output line %llu: raw control byte %02x%s at byte %zu: %.*s", what,
                        (unsigned long long)line_no + 1, c, c1 ? " (UTF-8 C1)" : "", i,
                        (int)(k < 300 ? k : 300), s);
                    break;
                }
            }
        }
        start = end + 1;
    }
}

void logs_fuzz_same(const struct logs_fuzz_opts *o, const char *kind, const char *what_a,
                    const struct logs_fuzz_out *a, const char *what_b,
                    const struct logs_fuzz_out *b)
{
    if (a->status == b->status && a->n == b->n && (a->n == 0 || memcmp(a->p, b->p, a->n) == 0))
        return;
    size_t k = 0;
    while (k < a->n && k < b->n && a->p[k] == b->p[k])
        k++;
    fprintf(stderr, "\n  %s: status %d (%s), %zu bytes\n  %s: status %d (%s), %zu bytes\n", what_a,
            a->status, a->error, a->n, what_b, b->status, b->error, b->n);
    size_t from = k > 80 ? k - 80 : 0;
    fprintf(stderr, "  first difference at byte %zu; from %zu:\n  %s: %.*s\n  %s: %.*s\n", k, from,
            what_a, (int)((a->n - from) < 240 ? a->n - from : 240), a->p ? a->p + from : "", what_b,
            (int)((b->n - from) < 240 ? b->n - from : 240), b->p ? b->p + from : "");
    /* A line longer than --max-line takes other paths through the engine:
     * its own kind, to tell (and triage) those apart. */
    if (strcmp(kind, "same") == 0 && o->long_line >= 2)
        kind = "same-long";
    else if (strcmp(kind, "same") == 0 &&
             (a->status == LOG_SESSION_FAULT) != (b->status == LOG_SESSION_FAULT))
        kind = "same-fault"; /* one run refused its input, the other not */
    logs_fuzz_violation(o, kind, "%s and %s differ", what_a, what_b);
}
