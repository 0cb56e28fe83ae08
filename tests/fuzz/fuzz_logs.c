/* fuzz_logs.c - libFuzzer target: the log engine (tools/logs/log_session.h)
 * fed bytes through its push API. The input's first bytes choose the
 * options (logs_fuzz.h: format, writer, decoding, threads, chunk sizes, a
 * --log-format string), the rest is the log. Two runs:
 *   1  fed whole (one log_session_feed), threads and chunk size of byte 3
 *   2  fed in chunks of input-derived sizes (byte 5), the other threads
 *      and chunk size (bytes 3, 4)
 * each through log_session_finish into the callback sink; both outputs
 * pass logs_fuzz_check (lines, sink, json, columns, control, hash) and are
 * the same bytes with the same status (same). With byte 6 bit 4, a third
 * run with run 1's options hands records to a callback instead (records):
 * one per input line, numbered from 1, its text the line's (without the
 * newline, or CR LF); the value functions run on every field and request part and
 * give UTF-8 unless --bytes (values). With the TSV writer, run 1 again with
 * the cells writer gives its rows cell for cell (cells, logs_fuzz_cells.c).
 * With byte 6 bit 5, the lines handed to log_session_parse a few at a time
 * give the records of a run (parse: run_parse). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_strict.h"
#include "log_session.h"
#include "logs_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t next(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* What the record callback saw, against the text fed. */
struct records {
    const struct logs_fuzz_opts *o;
    const uint8_t *text;
    size_t n, at; /* where the next record's line starts */
    uint64_t count;
    int compressed; /* the lines are those of the decompressed text */
};

/* A value given by a value function: valid UTF-8 unless --bytes. */
static void check_value(struct records *rs, const struct log_session_record *r, const char *what,
                        int which, const char *p, size_t n)
{
    const size_t bad = json_strict_utf8_end(p, n);
    if (rs->o->bytes || bad == n)
        return;
    fprintf(stderr, "\n  the value:");
    for (size_t i = 0; i < n && i < 256; i++)
        fprintf(stderr, " %02x", (unsigned char)p[i]);
    logs_fuzz_violation(rs->o, "values",
                        "record of line %llu: %s %d is not UTF-8 at byte %zu (%zu bytes)",
                        (unsigned long long)r->line, what, which, bad, n);
}

/* Each record is the next input line: its number, its text (without the
 * newline; a line longer than --max-line: its first max-line bytes); every
 * value function runs on every field and part. */
static int on_records(void *ctx, struct log_values *v, const struct log_session_record *r,
                      size_t count)
{
    struct records *rs = ctx;
    for (size_t i = 0; i < count; i++, r++) {
        rs->count++;
        if (r->input != 0 || r->line != rs->count)
            logs_fuzz_violation(rs->o, "records", "record %llu: input %llu line %llu",
                                (unsigned long long)rs->count, (unsigned long long)r->input,
                                (unsigned long long)r->line);
        if (!rs->compressed && rs->at < rs->n) {
            const uint8_t *line = rs->text + rs->at;
            const uint8_t *nl = memchr(line, '\n', rs->n - rs->at);
            size_t len = nl != NULL ? (size_t)(nl - line) : rs->n - rs->at;
            const size_t cut = r->long_line || r->text_len != LOGS_FUZZ_SQUID_CUT
                                   ? 0
                                   : logs_fuzz_squid_cut(rs->o, line, len);
            rs->at += cut == 2 ? LOGS_FUZZ_SQUID_CUT + 1 : len + (nl != NULL);
            /* The CR of a CR LF belongs to the line's end, as in line output
             * (log_session.h says "CR kept": the engine does not). */
            if (nl != NULL && len > 0 && line[len - 1] == '\r')
                len--;
            if (cut != 0) /* a squid entry cut: its NUL ends it (log_cut.h) */
                len = LOGS_FUZZ_SQUID_CUT;
            const int same = r->long_line ? r->text_len <= len && r->text_len <= rs->o->max_line
                                          : r->text_len == len;
            if (!same || (r->text_len && memcmp(r->text, line, r->text_len) != 0))
                logs_fuzz_violation(rs->o, "records",
                                    "record %llu: text of %zu bytes (long %d), the line has %zu",
                                    (unsigned long long)rs->count, r->text_len, r->long_line, len);
        }
        const char *p;
        size_t n;
        for (size_t f = 0; f < r->nfields; f++) {
            const struct log_session_field *fl = &r->fields[f];
            if (log_value_text(v, r, fl, &p, &n))
                check_value(rs, r, "field", (int)f, p, n);
            int64_t x;
            (void)log_value_int(v, r, fl, &x);
            (void)log_value_time(v, r, fl, &x);
            if (log_record_field(r, "path") == NULL && fl->name_len == 4 &&
                memcmp(fl->name, "path", 4) == 0)
                logs_fuzz_violation(rs->o, "records", "log_record_field misses \"path\"");
        }
        for (int part = LOG_PART_METHOD; part <= LOG_PART_ORIGIN; part++)
            if (log_value_part(v, r, part, &p, &n))
                check_value(rs, r, "request part (enum log_part)", part, p, n);
    }
    return 0;
}

/* Run 1's options through the record callback: one record per line of
 * t[0..n), the text fed without its holes. */
static void run_records(const struct logs_fuzz_opts *o, const uint8_t *fed, size_t fed_len,
                        const uint8_t *t, size_t n, int status)
{
    struct logs_fuzz_out out;
    struct log_session *s = logs_fuzz_session(o, 0, &out);
    if (s == NULL)
        return;
    struct records rs = {o, t, n, 0, 0, logs_fuzz_compressed(fed, fed_len)};
    if (log_session_records(s, on_records, &rs) != 0)
        logs_fuzz_violation(o, "options", "record callback refused: %s", log_session_error(s));
    const int feed_ok = log_session_feed(s, fed, fed_len);
    logs_fuzz_end(s, &out, log_session_finish(s));
    uint64_t lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += t[i] == '\n';
    lines += n > 0 && t[n - 1] != '\n';
    /* A line split at a squid cut's NUL gives two records (log_cut.h). */
    uint64_t splits = 0;
    for (size_t at = 0; at < n;) {
        const uint8_t *nl = memchr(t + at, '\n', n - at);
        const size_t len = nl != NULL ? (size_t)(nl - t) - at : n - at;
        splits += logs_fuzz_squid_cut(o, t + at, len) == 2;
        at += len + 1;
    }
    if (feed_ok == 0 && out.status == status && (status == 0 || status == 1) && !rs.compressed &&
        (rs.count < lines || rs.count > lines + splits))
        logs_fuzz_violation(o, "records", "%llu input lines gave %llu records",
                            (unsigned long long)lines, (unsigned long long)rs.count);
    if (out.status != status && !(status == 1 || out.status == 1))
        logs_fuzz_violation(o, "records", "status %d with records, %d with output (%s)", out.status,
                            status, out.error);
    logs_fuzz_out_free(&out);
}

/* Records as text (parse variant), into a struct logs_fuzz_out: each
 * one's line number, format and members as log_record_json gives them, an
 * event a line. */
static int member_event(void *ctx, int event, const char *p, size_t n)
{
    const char tag[2] = {(char)('0' + event), ' '};
    logs_fuzz_out_append(ctx, tag, 2);
    logs_fuzz_out_append(ctx, p, p != NULL ? n : 0); /* a null or a list's end: no text */
    logs_fuzz_out_append(ctx, "\n", 1);
    return 0;
}

static int records_as_members(void *ctx, struct log_values *v, const struct log_session_record *r,
                              size_t count)
{
    for (size_t i = 0; i < count; i++) {
        char head[96];
        const int k =
            snprintf(head, sizeof head, "#%llu %s\n", (unsigned long long)r[i].line, r[i].format);
        logs_fuzz_out_append(ctx, head, (size_t)k);
        if (log_record_json(v, &r[i], member_event, ctx) != 0)
            return 1;
    }
    return 0;
}

/* The parse variant: the lines of t[0..n) handed to log_session_parse 1 to
 * 4 at a time give the records a run fed the same text gives (as
 * test_log_session.c test_parse does on its own lines). The text is one
 * without holes or compression: what a syslog message holds. Compared
 * where log_session.h says they agree: a format given (auto is found per
 * file by a run, per line by parse), no line over --max-line (a run cuts
 * it, parse takes what it is given), a text the run took as a text log. */
static void run_parse(const struct logs_fuzz_opts *o, const uint8_t *t, size_t n)
{
    struct logs_fuzz_out run_out, parse_out, want = {0}, got = {0};
    struct log_session *s = logs_fuzz_session(o, 0, &run_out);
    if (s == NULL)
        return;
    log_session_records(s, records_as_members, &want);
    const int fed = log_session_feed(s, t, n);
    logs_fuzz_end(s, &run_out, log_session_finish(s));
    s = logs_fuzz_session(o, 0, &parse_out);
    if (s == NULL)
        abort(); /* the options were taken a moment ago */
    log_session_records(s, records_as_members, &got);
    uint32_t x = 0x85ebca6bu ^ (o->feed_seed * 0x01000193u + 1);
    int failed = 0;
    for (size_t at = 0; at < n && !failed;) {
        size_t end = at;
        for (uint32_t k = 1 + next(&x) % 4; k > 0 && end < n; k--) {
            const uint8_t *nl = memchr(t + end, '\n', n - end);
            end = nl != NULL ? (size_t)(nl - t) + 1 : n;
        }
        failed = log_session_parse(s, (const char *)t + at, end - at) != 0;
        at = end;
    }
    if (failed)
        logs_fuzz_violation(o, "parse", "log_session_parse failed: %s", log_session_error(s));
    logs_fuzz_end(s, &parse_out, 0);
    int long_line = 0;
    for (size_t at = 0; at < n && !long_line;) {
        const uint8_t *nl = memchr(t + at, '\n', n - at);
        const size_t len = nl != NULL ? (size_t)(nl - t) - at : n - at;
        long_line = len > (o->max_line ? o->max_line : LOG_DEFAULT_MAX_LINE);
        at += len + 1;
    }
    /* A run that refused its input (binary data, not a text log) or failed
     * has no records to compare. */
    const int run_ok = fed == 0 && (run_out.status == 0 || run_out.status == 1) && !run_out.refused;
    if (run_ok && !o->auto_format && !long_line &&
        (got.n != want.n || (want.n > 0 && memcmp(got.p, want.p, want.n) != 0))) {
        size_t i = 0;
        while (i < got.n && i < want.n && got.p[i] == want.p[i])
            i++;
        const size_t from = i > 200 ? i - 200 : 0;
        const int want_n = want.n > from ? (int)(want.n - from < 400 ? want.n - from : 400) : 0;
        const int got_n = got.n > from ? (int)(got.n - from < 400 ? got.n - from : 400) : 0;
        logs_fuzz_violation(o, "parse",
                            "records of a run (%zu bytes) and of log_session_parse (%zu bytes) "
                            "differ at byte %zu:\n  run:   %.*s\n  parse: %.*s",
                            want.n, got.n, i, want_n, want_n ? want.p + from : "", got_n,
                            got_n ? got.p + from : "");
    }
    logs_fuzz_out_free(&run_out);
    logs_fuzz_out_free(&parse_out);
    logs_fuzz_out_free(&want);
    logs_fuzz_out_free(&got);
}

/* Run k: the text fed whole (k 0) or in chunks (k 1), written by the
 * options' writer (table 0) or the table writer `table`. */
static void run(const struct logs_fuzz_opts *o, int k, const uint8_t *t, size_t n,
                struct logs_fuzz_out *out, int table)
{
    struct log_session *s = logs_fuzz_session_table(o, k, out, table);
    if (s == NULL) {
        out->status = -100; /* the options were refused: both runs alike */
        return;
    }
    uint32_t x = 0x9e3779b9u ^ (o->feed_seed * 0x01000193u + 1);
    size_t at = 0;
    while (at < n) {
        size_t m = n - at;
        if (k == 1) {
            const uint32_t r = next(&x);
            const size_t most = (size_t)1 << (r % 11); /* 1 .. 1024 */
            m = 1 + (r >> 8) % most;
            if (m > n - at)
                m = n - at;
        }
        if (log_session_feed(s, t + at, m) != 0)
            break; /* the run stopped: finish says why */
        at += m;
    }
    logs_fuzz_end(s, out, log_session_finish(s));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct logs_fuzz_opts o;
    const uint8_t *payload;
    size_t payload_len;
    if (logs_fuzz_options(data, size, &o, &payload, &payload_len) != 0)
        return 0;
    logs_fuzz_input(data, size);
    size_t n;
    uint8_t *text = logs_fuzz_text(&o, payload, payload_len, &n);
    struct logs_fuzz_out a, b;
    run(&o, 0, text, n, &a, 0);
    if (a.status != -100)
        logs_fuzz_check(&o, "run 1 (fed whole)", text, n, &a);
    run(&o, 1, text, n, &b, 0);
    if (b.status != -100)
        logs_fuzz_check(&o, "run 2 (fed in chunks)", text, n, &b);
    logs_fuzz_same(&o, "same", "run 1 (fed whole)", &a, "run 2 (fed in chunks)", &b);
    if (o.writer == 2 && a.status != -100) {
        /* the same rows as cells (read_frame's writer, log_cells.h) */
        struct logs_fuzz_out c;
        run(&o, 0, text, n, &c, 'b');
        if (c.status == a.status && (a.status == 0 || a.status == 1))
            logs_fuzz_cells_same(&o, &a, &c, o.header);
        logs_fuzz_out_free(&c);
    }
    if (o.variant & 3) {
        size_t m;
        uint8_t *t = logs_fuzz_without_holes(text, n, &m);
        if (o.variant & 1)
            run_records(&o, text, n, t, m, a.status);
        if ((o.variant & 2) && !logs_fuzz_compressed(text, n))
            run_parse(&o, t, m);
        free(t);
    }
    logs_fuzz_out_free(&a);
    logs_fuzz_out_free(&b);
    free(text);
    return 0;
}
