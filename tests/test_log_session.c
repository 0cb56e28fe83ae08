/* test_log_session.c - the log engine driven in-process through
 * log_session.h: bytes fed in random chunkings give the output of a run over
 * a file holding them (1, 2 and 3 threads, small chunks, a line longer than
 * --max-line); an fd sink and a callback sink give the same bytes, in whole
 * lines; the record callback's values (a decoded path, status as an
 * integer, a time in nanoseconds, null for "-"); errors come back as
 * messages (bad options, a failing callback) and the process goes on; two
 * sessions with different options run at once on two threads and give
 * what each gives alone; byte ranges cut at random offsets give the whole
 * file's output; lines parsed a few at a time (log_session_parse) give the
 * records of a run; ISO 8601 times converted with the memo of the line
 * before (log_iso_ns_memo) are what log_value_iso_ns makes of them.
 *
 * PCT_TEST_SEED=N (or PCT_SEED=N) replays a run; PCT_TEST_QUICK=1 does fewer
 * chunkings. */
#define _GNU_SOURCE /* memfd_create */

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "log_oom.h" /* log_oom_fail_at */
#include "log_session.h"
#include "log_time.h" /* log_iso_ns_memo */

struct out {
    char *p;
    size_t n, cap;
    uint64_t lines;
    int calls, cut; /* cut: a call that did not end with a newline */
    int fail_after; /* > 0: fail the call after this many */
};

static int collect(void *ctx, const char *p, size_t n, uint64_t lines)
{
    struct out *o = ctx;
    if (o->fail_after > 0 && o->calls >= o->fail_after)
        return 7;
    o->calls++;
    if (n > 0 && p[n - 1] != '\n' && lines > 0)
        o->cut++;
    if (o->n + n > o->cap) {
        o->cap = (o->n + n) * 2 + 4096;
        o->p = realloc(o->p, o->cap);
        if (o->p == NULL)
            abort();
    }
    memcpy(o->p + o->n, p, n);
    o->n += n;
    o->lines += lines;
    return 0;
}

static void quiet(void *ctx, const char *line)
{
    (void)ctx;
    (void)line;
}

static struct log_session *session(const struct log_options *o)
{
    struct log_session *s = log_session_new();
    if (s == NULL)
        abort();
    if (log_session_configure(s, o) != 0) {
        fprintf(stderr, "configure: %s\n", log_session_error(s));
        abort();
    }
    log_session_messages(s, quiet, NULL);
    return s;
}

/* A file in memory holding data: its fd. */
static int memory_file(const char *data, size_t n)
{
    int fd = memfd_create("log", 0);
    if (fd < 0 || write(fd, data, n) != (ssize_t)n || lseek(fd, 0, SEEK_SET) != 0)
        abort();
    return fd;
}

/* The output of a run over data as a file. */
static int run_file(const struct log_options *o, const char *data, size_t n, struct out *out)
{
    struct log_session *s = session(o);
    int fd = memory_file(data, n);
    log_session_output_callback(s, collect, out);
    log_session_add_fd(s, fd, "data");
    int status = log_session_run(s);
    log_session_free(s);
    close(fd);
    return status;
}

/* The output of data fed in random pieces (sizes up to max). */
static int run_fed(const struct log_options *o, const char *data, size_t n, size_t max,
                   struct out *out)
{
    struct log_session *s = session(o);
    log_session_output_callback(s, collect, out);
    for (size_t at = 0; at < n;) {
        size_t k = 1 + rng_below(max);
        if (k > n - at)
            k = n - at;
        if (log_session_feed(s, data + at, k) != 0)
            break;
        at += k;
    }
    int status = log_session_finish(s);
    log_session_free(s);
    return status;
}

#ifndef LONG_LINE
#define LONG_LINE 9000
#endif
static char *log_text(size_t lines, size_t *len)
{
    size_t cap = lines * 300 + 20000, n = 0;
    char *p = malloc(cap);
    for (size_t i = 0; i < lines; i++) {
        if (i == lines / 2) { /* a line longer than --max-line (4K) */
            n += (size_t)sprintf(p + n, "1.2.3.4 - - [14/Mar/2026:06:00:00 +0000] \"GET /");
            for (int k = 0; k < LONG_LINE; k++)
                p[n++] = "a%2F\xc3\xa9"[k % 6];
            n += (size_t)sprintf(p + n, " HTTP/1.1\" 200 1 \"-\" \"ua\"\n");
            continue;
        }
        switch (rng_below(6)) {
        case 0: /* a line that does not parse, with a control byte */
            n += (size_t)sprintf(p + n, "garbage \x1b[31m line %zu\n", i);
            break;
        case 1: /* CRLF */
            n += (size_t)sprintf(p + n,
                                 "10.0.0.%zu - - [14/Mar/2026:06:00:%02zu +0000] \"GET "
                                 "/caf%%C3%%A9/%zu?q=a+b%%26c HTTP/1.1\" 404 - \"-\" \"ua\"\r\n",
                                 i % 250, i % 60, i);
            break;
        default:
            n += (size_t)sprintf(p + n,
                                 "192.0.2.%zu - - [14/Mar/2026:06:00:%02zu +0100] \"GET "
                                 "/p%zu/%%E2%%82%%AC%%0A%%2F?x=%zu HTTP/1.1\" 200 %zu "
                                 "\"http://r/%%41\" \"agent %zu\"\n",
                                 i % 250, i % 60, i, i, i * 7, i);
        }
    }
    /* The last line without its newline, cut inside a UTF-8 character. */
    n += (size_t)sprintf(p + n, "1.2.3.4 - - [14/Mar/2026:06:00:00 +0000] \"GET /end\xc3");
    *len = n;
    return p;
}

static void test_feed(void)
{
    size_t n;
    char *data = log_text(3000, &n);
    struct log_options o;
    log_options_init(&o);
    o.cfg.chunk = 4096; /* many chunks */
    const char *modes[] = {"line", "json", "tsv"};
    for (int m = 0; m < 3; m++) {
        o.cfg.json = m == 1;
        o.cfg.table = m == 2 ? 't' : 0;
        o.cfg.max_line = 4096; /* the 9000-byte line is passed through, in every mode */
        struct out want = {0};
        o.cfg.threads = 1;
        CHECK_EQ(run_file(&o, data, n, &want), 0);
        CHECK(want.lines == 3001);
        CHECK(want.n > 0 && want.p[want.n - 1] == '\n');
        for (long threads = 1; threads <= 3; threads++) {
            o.cfg.threads = threads;
            struct out file = {0};
            CHECK_EQ(run_file(&o, data, n, &file), 0);
            CHECK_MSG(file.n == want.n && memcmp(file.p, want.p, want.n) == 0,
                      "%s, %ld threads: the file's output depends on the thread count", modes[m],
                      threads);
            free(file.p);
            unsigned rounds = test_quick() ? 1 : 4;
            for (unsigned r = 0; r < rounds; r++) {
                size_t max = r == 0 ? 7 : r == 1 ? 300 : r == 2 ? 70000 : 1 << 20;
                struct out fed = {0};
                CHECK_EQ(run_fed(&o, data, n, max, &fed), 0);
                CHECK_MSG(fed.n == want.n && memcmp(fed.p, want.p, want.n) == 0,
                          "%s, %ld threads, pieces up to %zu: fed output differs (%zu bytes, "
                          "want %zu)",
                          modes[m], threads, max, fed.n, want.n);
                CHECK_EQ(fed.cut, 0);
                free(fed.p);
            }
        }
        free(want.p);
    }
    /* Less than the 64 KiB held back, and nothing at all. */
    o.cfg.json = 0;
    o.cfg.table = 0;
    struct out a = {0}, b = {0}, c = {0};
    CHECK_EQ(run_file(&o, data, 5000, &a), 0);
    CHECK_EQ(run_fed(&o, data, 5000, 100, &b), 0);
    CHECK(a.n == b.n && memcmp(a.p, b.p, a.n) == 0);
    CHECK_EQ(run_fed(&o, data, 0, 1, &c), 0);
    CHECK_EQ(c.n, 0);
    free(a.p);
    free(b.p);
    free(c.p);
    free(data);
}

static void test_fd_sink(void)
{
    size_t n;
    char *data = log_text(500, &n);
    struct log_options o;
    log_options_init(&o);
    o.cfg.threads = 2;
    o.cfg.chunk = 8192;
    o.cfg.max_line = 4096;
    struct out want = {0};
    CHECK_EQ(run_file(&o, data, n, &want), 0);
    CHECK_EQ(want.cut, 0);
    struct log_session *s = session(&o);
    int in = memory_file(data, n), out = memfd_create("out", 0);
    CHECK_EQ(log_session_output_fd(s, out), 0);
    log_session_add_fd(s, in, "data");
    CHECK_EQ(log_session_run(s), 0);
    struct log_session_counts counts;
    log_session_counts(s, &counts);
    CHECK_EQ(counts.lines, 501);
    CHECK_EQ(counts.long_lines, 1);
    CHECK_EQ(counts.formats[LF_COMBINED] + counts.unparsed, 501);
    log_session_free(s);
    off_t size = lseek(out, 0, SEEK_END);
    char *got = malloc((size_t)size + 1);
    CHECK(pread(out, got, (size_t)size, 0) == size);
    CHECK_MEM(want.p, want.n, got, (size_t)size);
    /* A closed fd is refused with a message. */
    s = log_session_new();
    CHECK_EQ(log_session_output_fd(s, 1000), -1);
    CHECK(strstr(log_session_error(s), "fd 1000 is not open") != NULL);
    log_session_free(s);
    free(got);
    free(want.p);
    free(data);
    close(in);
    close(out);
}

struct seen {
    int records, checked;
    char path[64], query[64], agent[64];
    int64_t status, bytes, ns;
    int bytes_null, referer_null, unparsed;
    uint64_t line;
};

static int on_records(void *ctx, struct log_values *v, const struct log_session_record *r,
                      size_t count)
{
    struct seen *seen = ctx;
    for (size_t i = 0; i < count; i++) {
        seen->records++;
        if (!r[i].parsed) {
            seen->unparsed++;
            continue;
        }
        if (r[i].line != 2)
            continue;
        seen->line = r[i].line;
        seen->checked = strcmp(r[i].format, "combined") == 0;
        const char *p;
        size_t k;
        if (log_value_part(v, &r[i], LOG_PART_PATH, &p, &k) && k < sizeof seen->path)
            memcpy(seen->path, p, k);
        if (log_value_part(v, &r[i], LOG_PART_QUERY, &p, &k) && k < sizeof seen->query)
            memcpy(seen->query, p, k);
        if (log_value_text(v, &r[i], log_record_field(&r[i], "agent"), &p, &k) &&
            k < sizeof seen->agent)
            memcpy(seen->agent, p, k);
        log_value_int(v, &r[i], log_record_field(&r[i], "status"), &seen->status);
        seen->bytes_null = !log_value_int(v, &r[i], log_record_field(&r[i], "bytes"), &seen->bytes);
        seen->referer_null = !log_value_text(v, &r[i], log_record_field(&r[i], "referer"), &p, &k);
        log_value_time(v, &r[i], log_record_field(&r[i], "time"), &seen->ns);
    }
    return 0;
}

static void test_records(void)
{
    const char data[] =
        "not a log line\n"
        "192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /caf%C3%A9/a%2Fb%20c?q=a+b%26c&d=%3D "
        "HTTP/1.1\" 404 - \"-\" \"Mozilla \\\"x\\\"\"\n"
        "192.0.2.1 - - [99/Feb/2026:99:99:99 +9999] \"GET / HTTP/1.1\" 200 5 \"-\" \"ua\"\n";
    struct log_options o;
    log_options_init(&o);
    for (long threads = 1; threads <= 2; threads++) {
        o.cfg.threads = threads;
        struct log_session *s = session(&o);
        struct seen seen;
        memset(&seen, 0, sizeof seen);
        log_session_records(s, on_records, &seen);
        CHECK_EQ(log_session_feed(s, data, sizeof data - 1), 0);
        CHECK_EQ(log_session_finish(s), 0);
        log_session_free(s);
        CHECK_EQ(seen.records, 3);
        CHECK_EQ(seen.unparsed, 1);
        CHECK_EQ(seen.line, 2);
        CHECK(seen.checked);
        CHECK_STR("/café/a%2Fb c", seen.path);    /* %2F kept: the engine's rule */
        CHECK_STR("q=a b%26c&d=%3D", seen.query); /* form: + a space, %26 %3D kept */
        CHECK_STR("Mozilla \"x\"", seen.agent);   /* the log's escapes undone */
        CHECK_EQ(seen.status, 404);
        CHECK(seen.bytes_null);   /* "-" */
        CHECK(seen.referer_null); /* "-" */
        /* 2000-10-10 20:55:36 UTC */
        CHECK_EQ((unsigned long long)seen.ns, 971211336ull * 1000000000ull);
    }
    /* An invalid time is null. */
    struct log_options d;
    log_options_init(&d);
    d.cfg.decode_slash = 1;
    struct log_session *s = session(&d);
    struct seen seen;
    memset(&seen, 0, sizeof seen);
    seen.ns = -1;
    log_session_records(s, on_records, &seen);
    CHECK_EQ(log_session_feed(s, data, sizeof data - 1), 0);
    CHECK_EQ(log_session_finish(s), 0);
    CHECK_STR("/café/a/b c", seen.path); /* --decode-slash */
    log_session_free(s);
}

/* Records a server cut (log_cut.h): the flag in the record and as the
 * member "truncated": true of its JSON events; a squid entry cut at its NUL
 * is a line of its own, numbered as one. */
struct cut_seen {
    int records, truncated[8], member[8];
    uint64_t line[8];
    int key; /* the last event was the key "truncated" */
};

static int on_cut_json(void *ctx, int event, const char *p, size_t n)
{
    struct cut_seen *c = ctx;
    int *member = &c->member[c->records];
    if (c->key && event == LOG_JSON_LITERAL && n == 4 && memcmp(p, "true", 4) == 0)
        (*member)++;
    c->key = event == LOG_JSON_KEY && n == 9 && memcmp(p, "truncated", 9) == 0;
    return 0;
}

static int on_cut(void *ctx, struct log_values *v, const struct log_session_record *r, size_t count)
{
    struct cut_seen *c = ctx;
    for (size_t i = 0; i < count && c->records < 8; i++) {
        c->truncated[c->records] = r[i].truncated;
        c->line[c->records] = r[i].line;
        c->key = 0;
        log_record_json(v, &r[i], on_cut_json, c);
        c->records++;
    }
    return 0;
}

static void test_cut_records(void)
{
    /* a combined line cut in its agent, a whole one, a 414 request line,
     * then a squid entry cut at 8,191 bytes with the next one after its NUL */
    static char data[20000];
    size_t n = 0;
    n += (size_t)sprintf(data + n, "%s",
                         "192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /a HTTP/1.1\" 200 5 "
                         "\"-\" \"Mozilla (X11\n"
                         "192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /b HTTP/1.1\" 200 5 "
                         "\"-\" \"ua\"\n"
                         "192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /cccc\" 414 0 \"-\" "
                         "\"-\"\n");
    const char *head = "1764244800.123     27 192.0.2.3 TCP_MISS/200 5120 GET http://o.example/";
    const size_t start = n;
    n += (size_t)sprintf(data + n, "%s", head);
    while (n - start < 8191)
        data[n++] = 'a';
    data[n++] = '\0';
    n +=
        (size_t)sprintf(data + n, "%s",
                        "1764244801.000     27 192.0.2.3 TCP_MISS/404 10 GET http://o.example/next "
                        "- HIER_DIRECT/203.0.113.5 text/plain\n");
    for (long threads = 1; threads <= 2; threads++) {
        struct log_options o;
        log_options_init(&o);
        o.cfg.threads = threads;
        struct log_session *s = session(&o);
        struct cut_seen c;
        memset(&c, 0, sizeof c);
        log_session_records(s, on_cut, &c);
        CHECK_EQ(log_session_feed(s, data, n), 0);
        CHECK_EQ(log_session_finish(s), 0);
        log_session_free(s);
        CHECK_EQ(c.records, 5);
        const int want[5] = {1, 0, 1, 1, 0};
        for (int i = 0; i < 5; i++) {
            CHECK_EQ(c.truncated[i], want[i]);
            CHECK_EQ(c.member[i], want[i]); /* "truncated": true once, or absent */
            CHECK_EQ((unsigned long long)c.line[i], (unsigned long long)i + 1);
        }
    }
}

struct numbering {
    uint64_t records, bad, next_line, input;
};

/* Lines numbered from 1 in each input, in order, none missing. */
static int on_number(void *ctx, struct log_values *v, const struct log_session_record *r,
                     size_t count)
{
    (void)v;
    struct numbering *n = ctx;
    for (size_t i = 0; i < count; i++) {
        if (r[i].input != n->input) {
            n->bad += r[i].input != n->input + 1 || r[i].line != 1;
            n->input = r[i].input;
        } else {
            n->bad += r[i].line != n->next_line;
        }
        n->next_line = r[i].line + 1;
        n->records++;
    }
    return 0;
}

static void test_record_order(void)
{
    size_t n;
    char *data = log_text(3000, &n);
    struct log_options o;
    log_options_init(&o);
    o.cfg.chunk = 4096;
    for (long threads = 1; threads <= 3; threads++) {
        o.cfg.threads = threads;
        struct log_session *s = session(&o);
        struct numbering seen = {0, 0, 1, 0};
        log_session_records(s, on_number, &seen);
        int a = memory_file(data, n), b = memory_file(data, n);
        log_session_add_fd(s, a, "a");
        log_session_add_fd(s, b, "b");
        CHECK_EQ(log_session_run(s), 0);
        CHECK_EQ(seen.records, 2 * 3001);
        CHECK_EQ(seen.input, 1);
        CHECK_EQ(seen.bad, 0);
        log_session_free(s);
        close(a);
        close(b);
    }
    free(data);
}

struct w3c_seen {
    int records, ok2, ok4;
    int64_t ns;
};

/* W3C: the names of a record outlive the #Fields: line that gave them. */
static int on_w3c(void *ctx, struct log_values *v, const struct log_session_record *r, size_t count)
{
    struct w3c_seen *seen = ctx;
    for (size_t i = 0; i < count; i++) {
        seen->records++;
        const char *p;
        size_t k;
        if (r[i].line == 2) {
            seen->ok2 = r[i].parsed && strcmp(r[i].format, "w3c") == 0 && r[i].nfields == 5 &&
                        log_record_field(&r[i], "status") != NULL &&
                        log_record_field(&r[i], "x-first") != NULL &&
                        log_value_text(v, &r[i], log_record_field(&r[i], "path"), &p, &k) &&
                        k == 4 && memcmp(p, "/a b", 4) == 0 &&
                        log_value_time(v, &r[i], log_record_field(&r[i], "time"), &seen->ns);
        }
        if (r[i].line == 4) {
            seen->ok4 = r[i].parsed && log_record_field(&r[i], "status") == NULL &&
                        log_record_field(&r[i], "x-other") != NULL &&
                        log_value_part(v, &r[i], LOG_PART_PATH, &p, &k) && k == 4 &&
                        memcmp(p, "/c\xc3\xa9", 4) == 0 && /* %u00e9 decoded in W3C */
                        log_value_part(v, &r[i], LOG_PART_QUERY, &p, &k) && k == 3 &&
                        memcmp(p, "x=1", 3) == 0;
        }
    }
    return 0;
}

static void test_w3c_records(void)
{
    const char data[] = "#Fields: date time cs-uri-stem sc-status x-first\n"
                        "2026-03-14 06:00:00 /a%20b 200 1\n"
                        "#Fields: date time cs-uri-stem cs-uri-query x-other\n"
                        "2026-03-14 06:00:01 /c%u00e9 x=1 2\n";
    struct log_options o;
    log_options_init(&o);
    o.cfg.format = LF_W3C;
    struct log_session *s = session(&o);
    struct w3c_seen seen;
    memset(&seen, 0, sizeof seen);
    log_session_records(s, on_w3c, &seen);
    log_session_feed(s, data, sizeof data - 1);
    CHECK_EQ(log_session_finish(s), 0);
    CHECK_EQ(seen.records, 4);
    CHECK(seen.ok2);
    CHECK(seen.ok4);
    CHECK_EQ((unsigned long long)seen.ns, 1773468000ull * 1000000000ull);
    log_session_free(s);
}

static int times_invalid;
static int on_time(void *ctx, struct log_values *v, const struct log_session_record *r,
                   size_t count)
{
    (void)ctx;
    for (size_t i = 0; i < count; i++) {
        int64_t ns;
        if (r[i].parsed && !log_value_time(v, &r[i], log_record_field(&r[i], "time"), &ns))
            times_invalid++;
    }
    return 0;
}

static void test_invalid_time(void)
{
    const char data[] = "192.0.2.1 - - [99/Feb/2026:99:99:99 +9999] \"GET / HTTP/1.1\" 200 5 "
                        "\"-\" \"ua\"\n"
                        "192.0.2.1 - - [29/Feb/2025:10:00:00 +0000] \"GET / HTTP/1.1\" 200 5 "
                        "\"-\" \"ua\"\n"
                        "192.0.2.1 - - [29/Feb/2024:10:00:00 +0000] \"GET / HTTP/1.1\" 200 5 "
                        "\"-\" \"ua\"\n";
    struct log_options o;
    log_options_init(&o);
    struct log_session *s = session(&o);
    log_session_records(s, on_time, NULL);
    log_session_feed(s, data, sizeof data - 1);
    CHECK_EQ(log_session_finish(s), 0);
    CHECK_EQ(times_invalid, 2); /* day 99; 2025 is no leap year; 2024 is */
    log_session_free(s);
}

static void test_errors(void)
{
    struct log_options o;
    log_options_init(&o);
    o.cfg.json = 1;
    o.cfg.table = 'c';
    struct log_session *s = log_session_new();
    CHECK_EQ(log_session_configure(s, &o), -1);
    CHECK_STR("pct logs: --json cannot be combined with --tsv or --csv", log_session_error(s));
    log_options_init(&o);
    o.log_format = "$a$b";
    CHECK_EQ(log_session_configure(s, &o), -1);
    CHECK(strncmp(log_session_error(s), "pct logs: --log-format: ", 24) == 0);
    /* No output: an error, not a crash. */
    log_options_init(&o);
    CHECK_EQ(log_session_configure(s, &o), 0);
    log_session_add_file(s, "/nonexistent");
    CHECK_EQ(log_session_run(s), -1);
    CHECK(strstr(log_session_error(s), "no output") != NULL);
    log_session_free(s);
    /* A callback that fails stops the run; the lines before it are out. */
    size_t n;
    char *data = log_text(3000, &n);
    for (long threads = 1; threads <= 2; threads++) {
        o.cfg.threads = threads;
        o.cfg.chunk = 4096;
        s = session(&o);
        struct out out = {0};
        out.fail_after = 3;
        log_session_output_callback(s, collect, &out);
        int fd = memory_file(data, n);
        log_session_add_fd(s, fd, "data");
        CHECK_EQ(log_session_run(s), -1);
        CHECK_MSG(strstr(log_session_error(s), "output callback failed (7)") != NULL, "%s",
                  log_session_error(s));
        CHECK_EQ(out.calls, 3);
        CHECK_EQ(out.cut, 0);
        log_session_free(s);
        close(fd);
        free(out.p);
        /* Fed: feed says the run stopped. */
        s = session(&o);
        struct out fed = {0};
        fed.fail_after = 1;
        log_session_output_callback(s, collect, &fed);
        /* Fed on after the run stopped (more than the socket holds): feed
         * fails. */
        int status = 0;
        for (int round = 0; round < 64 && status == 0; round++)
            for (size_t at = 0; at < n && status == 0; at += 1000)
                status = log_session_feed(s, data + at, n - at < 1000 ? n - at : 1000);
        CHECK_EQ(status, -1);
        CHECK_MSG(strstr(log_session_error(s), "output callback failed") != NULL, "%s",
                  log_session_error(s));
        CHECK_EQ(log_session_finish(s), -1);
        CHECK(strstr(log_session_error(s), "output callback failed") != NULL);
        log_session_free(s);
        free(fed.p);
    }
    /* A missing file: a fault, said, and the run goes on. */
    log_options_init(&o);
    s = session(&o);
    struct out out = {0};
    log_session_output_callback(s, collect, &out);
    log_session_add_file(s, "/nonexistent/x");
    int fd = memory_file(data, 1000);
    log_session_add_fd(s, fd, "data");
    CHECK_EQ(log_session_run(s), LOG_SESSION_FAULT);
    CHECK(out.n > 0);
    log_session_free(s);
    close(fd);
    free(out.p);
    free(data);
}

struct parallel {
    const struct log_options *o;
    const char *data;
    size_t n;
    struct out out;
    int status;
};

static void *parallel_run(void *arg)
{
    struct parallel *p = arg;
    p->status = 0;
    for (int i = 0; i < 20 && p->status == 0; i++) {
        struct out o = {0};
        p->status = run_file(p->o, p->data, p->n, &o);
        if (i == 0)
            p->out = o;
        else if (o.n != p->out.n || memcmp(o.p, p->out.p, o.n) != 0)
            p->status = 99;
        if (i > 0)
            free(o.p);
    }
    return NULL;
}

static void test_parallel(void)
{
    size_t n;
    char *data = log_text(2000, &n);
    /* Different options in each: the --fields table, a custom format (its
     * template), the format found last. */
    struct log_options a, b;
    log_options_init(&a);
    a.cfg.table = 'c';
    a.fields = "status,path,agent";
    a.cfg.threads = 2;
    log_options_init(&b);
    b.cfg.json = 1;
    b.log_format = "$remote_addr - $remote_user [$time_local] \"$request\" $status";
    b.cfg.threads = 2;
    struct out alone_a = {0}, alone_b = {0};
    CHECK_EQ(run_file(&a, data, n, &alone_a), 0);
    CHECK_EQ(run_file(&b, data, n, &alone_b), 0);
    CHECK(alone_a.n > 0 && alone_b.n > 0);
    struct parallel pa = {&a, data, n, {0}, 0}, pb = {&b, data, n, {0}, 0};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, parallel_run, &pa);
    pthread_create(&tb, NULL, parallel_run, &pb);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK_EQ(pa.status, 0);
    CHECK_EQ(pb.status, 0);
    CHECK_MEM(alone_a.p, alone_a.n, pa.out.p, pa.out.n);
    CHECK_MEM(alone_b.p, alone_b.n, pb.out.p, pb.out.n);
    free(alone_a.p);
    free(alone_b.p);
    free(pa.out.p);
    free(pb.out.p);
    free(data);
}

struct said {
    int count, wide;
    char last[512];
};

static void on_message(void *ctx, const char *line)
{
    struct said *said = ctx;
    said->count++;
    said->wide += strstr(line, "'#Fields:' header of 300 columns") != NULL;
    snprintf(said->last, sizeof said->last, "%s", line);
}

/* A '#Fields:' header too wide to be used is reported through the message
 * callback (once, with its byte offset), read in order or in blocks by two
 * threads (the header in the middle of a file of several blocks). */
static void test_w3c_too_wide(void)
{
    size_t cap = 1 << 20, n = 0;
    char *data = malloc(cap);
    n += (size_t)sprintf(data + n, "#Fields: date time cs-uri-stem sc-status\n");
    for (int i = 0; n < 400000; i++)
        n += (size_t)sprintf(data + n, "2026-03-14 06:00:00 /a%%20b%d 200\n", i);
    size_t at = n;
    n += (size_t)sprintf(data + n, "#Fields:");
    for (int i = 0; i < 300; i++)
        n += (size_t)sprintf(data + n, " x-c%d", i);
    n += (size_t)sprintf(data + n, "\n2026-03-14 06:00:00 /z 200\n");
    char want[64];
    snprintf(want, sizeof want, "pct logs: data: byte %zu: ", at);
    for (long threads = 1; threads <= 2; threads++) {
        struct log_options o;
        log_options_init(&o);
        o.cfg.threads = threads;
        o.cfg.chunk = 64 << 10;
        struct log_session *s = session(&o);
        struct said said = {0};
        struct out out = {0};
        log_session_messages(s, on_message, &said);
        log_session_output_callback(s, collect, &out);
        int fd = memory_file(data, n);
        log_session_add_fd(s, fd, "data");
        CHECK_EQ(log_session_run(s), LOG_SESSION_FAULT);
        CHECK_EQ(said.count, 1);
        CHECK_EQ(said.wide, 1);
        CHECK_MSG(strncmp(said.last, want, strlen(want)) == 0, "%ld threads: \"%s\"", threads,
                  said.last);
        log_session_free(s);
        close(fd);
        free(out.p);
    }
    free(data);
}

/* Records as lines: each record's text and a newline, through collect. */
static int records_as_lines(void *ctx, struct log_values *v, const struct log_session_record *r,
                            size_t count)
{
    (void)v;
    for (size_t i = 0; i < count; i++) {
        collect(ctx, r[i].text, r[i].text_len, 0);
        collect(ctx, "\n", 1, 1);
    }
    return 0;
}

/* A record's members (log_record_json) as text, one event a line. */
static int event_as_line(void *ctx, int event, const char *p, size_t n)
{
    char tag[2] = {(char)('0' + event), ' '};
    collect(ctx, tag, 2, 0);
    if (n > 0) /* (a null or a list's end has no text, maybe no pointer) */
        collect(ctx, p, n, 0);
    collect(ctx, "\n", 1, 0);
    return 0;
}

/* Records as their number, format and members, through collect. */
static int records_as_members(void *ctx, struct log_values *v, const struct log_session_record *r,
                              size_t count)
{
    for (size_t i = 0; i < count; i++) {
        char head[96];
        int k =
            snprintf(head, sizeof head, "#%llu %s\n", (unsigned long long)r[i].line, r[i].format);
        collect(ctx, head, (size_t)k, 0);
        if (log_record_json(v, &r[i], event_as_line, ctx) != 0)
            return 1;
        collect(ctx, "\n", 1, 1);
    }
    return 0;
}

/* log_session_parse: the lines given a few at a time (1 to 4 per call,
 * the last of a call with or without its line ending) give the records a run
 * over the same lines as a file gives, numbered on; a session that parses
 * does not run, and one with no record callback does not parse. */
static void test_parse(void)
{
    size_t n;
    char *data = log_text(400, &n);
    struct log_options o;
    log_options_init(&o);
    o.cfg.threads = 1;
    struct out want = {0}, got = {0};
    struct log_session *s = session(&o);
    int fd = memory_file(data, n);
    log_session_records(s, records_as_members, &want);
    log_session_add_fd(s, fd, "data");
    CHECK_EQ(log_session_run(s), 0);
    log_session_free(s);
    close(fd);

    s = session(&o);
    log_session_records(s, records_as_members, &got);
    int calls = 0, failed = 0;
    for (size_t at = 0; at < n;) {
        size_t end = at;
        for (unsigned k = 1 + rng_below(4); k > 0 && end < n; k--) {
            const char *nl = memchr(data + end, '\n', n - end);
            end = nl != NULL ? (size_t)(nl - data) + 1 : n;
        }
        /* a call's last line ending ("\n", "\r\n") left out, half of the time */
        size_t len = end - at;
        if (end < n && rng_below(2) == 0) {
            len--;
            if (len > 0 && data[at + len - 1] == '\r')
                len--;
        }
        failed += log_session_parse(s, data + at, len) != 0;
        calls++;
        at = end;
    }
    CHECK_EQ(failed, 0);
    CHECK(calls > 100);
    CHECK_MSG(got.n == want.n && memcmp(got.p, want.p, want.n) == 0,
              "parsed %zu bytes of records, a run %zu", got.n, want.n);
    CHECK_EQ(got.lines, want.lines);
    struct log_session_counts c;
    log_session_counts(s, &c);
    CHECK_EQ(c.lines, want.lines);
    CHECK(log_session_run(s) != 0); /* it parses: no run */
    log_session_free(s);

    s = session(&o);
    log_session_output_callback(s, collect, &got);
    CHECK(log_session_parse(s, data, 10) != 0);
    CHECK(strstr(log_session_error(s), "log_session_records") != NULL);
    log_session_free(s);
    free(want.p);
    free(got.p);
    free(data);
}

/* One run with the n-th allocation failing (0: none): its status, its
 * error in err. fed: the bytes fed in pieces, else a file. records: the
 * records' texts as output. */
static int run_failing(const struct log_options *o, const char *data, size_t n, int fed,
                       int records, int named, long nth, struct out *out, char err[256])
{
    struct log_session *s = session(o);
    if (records)
        log_session_records(s, records_as_lines, out);
    else
        log_session_output_callback(s, collect, out);
    int fd = -1, status;
    log_oom_fail_at(nth);
    if (fed) {
        for (size_t at = 0; at < n; at += 50000)
            if (log_session_feed(s, data + at, n - at < 50000 ? n - at : 50000) != 0)
                break;
        status = log_session_finish(s);
    } else {
        fd = memory_file(data, n);
        if (named) { /* twice by name: the second opened ahead (threads > 1) */
            char name[64];
            snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
            log_session_add_file(s, name);
            log_session_add_file(s, name);
        } else {
            log_session_add_fd(s, fd, "data");
        }
        status = log_session_run(s);
    }
    log_oom_fail_at(0);
    snprintf(err, 256, "%s", log_session_error(s));
    log_session_free(s);
    if (fd >= 0)
        close(fd);
    return status;
}

/* Out of memory anywhere in a run (the n-th allocation failing, for every
 * n until runs no longer fail) is the run's error: -1 and "out of memory",
 * the output a prefix of whole lines of the full output; or the run
 * succeeds with the full output. Leaks show under ASan. */
static void test_out_of_memory(void)
{
    size_t n;
    char *data = log_text(4000, &n);
    static const struct {
        int json, table, fed, records, long_line, named;
        long threads;
    } runs[] = {{0, 0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 2},   {1, 0, 0, 0, 0, 0, 1},
                {1, 0, 0, 0, 0, 0, 2}, {0, 't', 0, 0, 0, 0, 1}, {0, 't', 0, 0, 0, 0, 2},
                {0, 0, 1, 0, 0, 0, 1}, {1, 0, 1, 0, 0, 0, 2},   {0, 0, 0, 1, 0, 0, 1},
                {0, 0, 0, 1, 0, 0, 2}, {0, 0, 0, 0, 1, 0, 1},   {1, 0, 0, 0, 1, 0, 1},
                {0, 0, 0, 0, 0, 1, 2}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        struct log_options o;
        log_options_init(&o);
        o.cfg.json = runs[r].json;
        o.cfg.table = runs[r].table;
        o.cfg.threads = runs[r].threads;
        o.cfg.chunk = 64 << 10; /* several chunks: process_file with 2 threads */
        if (runs[r].long_line)
            o.cfg.max_line = 4096; /* log_text's long line is streamed */
        struct out want = {0};
        char err[256];
        CHECK_EQ(
            run_failing(&o, data, n, runs[r].fed, runs[r].records, runs[r].named, 0, &want, err),
            0);
        CHECK(want.lines == (runs[r].named ? 8002u : 4001u));
        int failed = 0, succeeded = 0;
        for (long nth = 1; nth < 400 && succeeded < 3; nth++) {
            struct out got = {0};
            int status = run_failing(&o, data, n, runs[r].fed, runs[r].records, runs[r].named, nth,
                                     &got, err);
            if (status == 0) {
                succeeded++;
                CHECK_MSG(got.n == want.n && memcmp(got.p, want.p, want.n) == 0,
                          "run %zu, allocation %ld failing: a success with other output", r, nth);
            } else {
                failed++;
                succeeded = 0;
                CHECK_MSG(status == -1 && strstr(err, "pct logs: out of memory") == err,
                          "run %zu, allocation %ld failing: %d \"%s\"", r, nth, status, err);
                /* A streamed long line is ended where the run stopped (as
                 * an interrupt ends it): whole lines before it. */
                size_t same = got.n;
                if (runs[r].long_line && got.n > 0)
                    for (same = got.n - 1; same > 0 && got.p[same - 1] != '\n'; same--)
                        ;
                CHECK_MSG(got.n <= want.n + (got.n - same) &&
                              (same == 0 || memcmp(got.p, want.p, same) == 0) &&
                              (got.n == 0 || got.p[got.n - 1] == '\n') && got.cut == 0,
                          "run %zu, allocation %ld failing: not a prefix of whole lines", r, nth);
            }
            free(got.p);
        }
        CHECK_MSG(failed > 0 && succeeded == 3, "run %zu: %d failed runs", r, failed);
        free(want.p);
    }
    free(data);
}

/* A run over the byte range [start, end) of data as a file. */
static int run_range(const struct log_options *o, int fd, uint64_t start, uint64_t end,
                     struct out *out)
{
    struct log_session *s = session(o);
    log_session_output_callback(s, collect, out);
    CHECK_EQ(log_session_set_range(s, start, end), 0);
    log_session_add_fd(s, fd, "data");
    int status = log_session_run(s);
    log_session_free(s);
    return status;
}

static int first_line_number(void *ctx, struct log_values *v, const struct log_session_record *r,
                             size_t count)
{
    (void)v;
    uint64_t *first = ctx;
    if (*first == 0 && count > 0)
        *first = r[0].line;
    return 0;
}

/* Byte ranges cut at random offsets give, one after the other, the whole
 * file's output (1-3 threads, small chunks: the threads' blocks; the line
 * longer than --max-line, CRLF, the last line without a newline); record
 * line numbers count from the range's first line; a range of a fed input,
 * of two inputs, or start > end is refused. */
static void test_ranges(void)
{
    size_t n;
    char *data = log_text(3000, &n);
    int fd = memory_file(data, n);
    struct log_options o;
    log_options_init(&o);
    o.cfg.chunk = 4096;
    o.cfg.max_line = 4096;
    o.cfg.json = 1;
    struct out whole = {0};
    o.cfg.threads = 1;
    CHECK_EQ(run_file(&o, data, n, &whole), 0);
    unsigned rounds = test_quick() ? 2 : 6;
    for (unsigned r = 0; r < rounds; r++) {
        o.cfg.threads = 1 + (long)(r % 3);
        uint64_t cuts[12];
        size_t ncuts = 1 + rng_below(10);
        cuts[0] = 0;
        for (size_t i = 1; i < ncuts; i++) { /* sorted, not all distinct */
            cuts[i] = cuts[i - 1] + rng_below((uint32_t)(2 * n / ncuts));
            const char *nl = cuts[i] < n ? memchr(data + cuts[i], '\n', n - cuts[i]) : NULL;
            if (nl != NULL && rng_below(2)) /* on a line's first byte, or on its newline */
                cuts[i] = (uint64_t)(nl - data) + rng_below(2);
        }
        cuts[ncuts] = n + rng_below(3); /* past the end is its end */
        struct out got = {0};
        int status = 0;
        for (size_t i = 0; i < ncuts; i++) {
            uint64_t a = cuts[i], b = cuts[i + 1] < a ? a : cuts[i + 1];
            status |= run_range(&o, fd, a, b, &got);
        }
        CHECK_EQ(status, 0);
        CHECK_MSG(got.n == whole.n && memcmp(got.p, whole.p, whole.n) == 0,
                  "round %u, %zu ranges, %ld threads: %zu bytes, want %zu", r, ncuts, o.cfg.threads,
                  got.n, whole.n);
        CHECK_EQ(got.lines, whole.lines);
        free(got.p);
    }
    /* Record line numbers: from 1 in the range. */
    const char *second = memchr(data, '\n', n);
    uint64_t first = 0;
    struct log_session *s = session(&o);
    log_session_records(s, first_line_number, &first);
    CHECK_EQ(log_session_set_range(s, (uint64_t)(second - data) + 1, n), 0);
    log_session_add_fd(s, fd, "data");
    CHECK_EQ(log_session_run(s), 0);
    CHECK_EQ(first, 1);
    log_session_free(s);
    /* Refused. */
    s = session(&o);
    CHECK_EQ(log_session_set_range(s, 5, 3), -1);
    CHECK(strstr(log_session_error(s), "START <= END") != NULL);
    log_session_free(s);
    struct out none = {0};
    s = session(&o);
    log_session_output_callback(s, collect, &none);
    CHECK_EQ(log_session_set_range(s, 0, 10), 0);
    log_session_add_fd(s, fd, "data");
    log_session_add_fd(s, fd, "data");
    CHECK_EQ(log_session_run(s), -1);
    CHECK(strstr(log_session_error(s), "one input") != NULL);
    log_session_free(s);
    s = session(&o);
    log_session_output_callback(s, collect, &none);
    CHECK_EQ(log_session_set_range(s, 0, 10), 0);
    CHECK_EQ(log_session_feed(s, data, 100), 0);
    CHECK_EQ(log_session_finish(s), LOG_SESSION_FAULT); /* a socket, not a file */
    CHECK_EQ(log_session_set_range(s, 0, 10), -1);      /* after the run */
    log_session_free(s);
    CHECK_EQ(none.n, 0);
    close(fd);
    free(whole.p);
    free(data);
}

/* log_iso_ns_memo on runs of times sharing a date, fraction and zone (as
 * a log's lines do), partly invalid (hour 24, minute 60, second 60, a
 * letter, a year past int64 nanoseconds): each is what log_value_iso_ns
 * gives, valid or not, whatever came before. */
static void test_iso_ns_memo(void)
{
    static const char *const zones[] = {"Z", "+01:00", "-07:30", "+00:00", "", "+24:00"};
    static const char *const fracs[] = {"", ".5", ".123456789", ".1234567891", "."};
    static const char *const years[] = {"2026", "1970", "2262", "1677", "0000", "9999"};
    struct log_iso_memo memo = {0};
    char date[16], text[64];
    int agree = 1, valid = 0;
    for (int i = 0; i < 200000 && agree; i++) {
        if (i == 0 || rng_chance(3)) /* a new date, fraction and zone */
            snprintf(date, sizeof date, "%s-%02u-%02u", years[rng_below(6)],
                     (unsigned)rng_below(14), (unsigned)rng_below(32));
        const char *frac = fracs[i % 97 == 0 ? rng_below(5) : 0];
        const char *zone = zones[(i / 50) % 6];
        snprintf(text, sizeof text, "%sT%02u:%02u:%02u%s%s", date, (unsigned)rng_below(25),
                 (unsigned)rng_below(61), (unsigned)rng_below(61), frac, zone);
        if (rng_chance(1))
            text[11 + rng_below(8)] = 'x';
        const size_t n = strlen(text);
        int64_t want = 0, got = 0;
        const int ok = log_value_iso_ns(text, n, &want);
        const int memo_ok = log_iso_ns_memo(&memo, text, n, &got);
        valid += ok;
        agree = ok == memo_ok && (!ok || want == got);
        if (!agree)
            fprintf(stderr, "iso memo: %s: %d %lld, memo %d %lld\n", text, ok, (long long)want,
                    memo_ok, (long long)got);
    }
    CHECK(agree);
    CHECK(valid > 10000); /* the runs hold valid times too */
}

int main(void)
{
    if (getenv("PCT_SEED") != NULL && getenv("PCT_TEST_SEED") == NULL)
        setenv("PCT_TEST_SEED", getenv("PCT_SEED"), 1);
    test_seed("test_log_session");
    test_feed();
    test_fd_sink();
    test_records();
    test_cut_records();
    test_invalid_time();
    test_w3c_records();
    test_record_order();
    test_errors();
    test_parallel();
    test_out_of_memory();
    test_w3c_too_wide();
    test_ranges();
    test_parse();
    test_iso_ns_memo();
    return check_done();
}
