/* fuzz_logs_files.c - libFuzzer target: whole runs of the log engine
 * (log_session_add_file + log_session_run) on files holding the payload:
 * plain, gzip (zlib) and zstd (libzstd), each when the build reads it (the
 * meson options gzip and zstd; a kind it lacks is skipped, said once on
 * stderr). Options from the input's first bytes as in fuzz_logs
 * (logs_fuzz.h); byte 6 bits 4-7 choose variants:
 *   bit 4  the gzip file in two members (cut after the first line)
 *   bit 5  the zstd file starts with a skippable frame (as pzstd writes)
 *   bit 6  the zstd file in two frames (cut after the first line)
 *   bit 7  one more run with the plain, gzip and zstd files as three inputs
 *          of one session: the output is the header (if any) and then
 *          each file's rows (as its own run gave them), in input order
 * Runs: the plain file with each of byte 3's thread counts and chunk
 * sizes, the gzip and zstd files with others (1-4 threads, small chunks).
 * Every run passes logs_fuzz_check; all give the same status and bytes
 * (same), unless the payload itself is compressed. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef FUZZ_LOGS_GZIP
#include <zlib.h>
#endif
#ifdef FUZZ_LOGS_ZSTD
#include <zstd.h>
#endif

#include "log_session.h"
#include "logs_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];
static char plain_name[300], gzip_name[300], zstd_name[300];

static void remove_dir(void)
{
    unlink(plain_name);
    unlink(gzip_name);
    unlink(zstd_name);
    rmdir(dir);
}

static void dir_init(void)
{
    if (dir[0])
        return;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/pct-fuzz-logs-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        perror("fuzz_logs_files: mkdtemp");
        abort();
    }
    snprintf(plain_name, sizeof plain_name, "%s/access.log", dir);
    snprintf(gzip_name, sizeof gzip_name, "%s/access.log.gz", dir);
    snprintf(zstd_name, sizeof zstd_name, "%s/access.log.zst", dir);
    atexit(remove_dir);
#ifndef FUZZ_LOGS_GZIP
    logs_fuzz_note_once("fuzz_logs_files: this build reads no gzip: gzip files skipped");
#endif
#ifndef FUZZ_LOGS_ZSTD
    logs_fuzz_note_once("fuzz_logs_files: this build reads no zstd: zstd files skipped");
#endif
}

static void write_file(const char *name, const void *p, size_t n)
{
    FILE *f = fopen(name, "wb");
    if (f == NULL || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) {
        perror(name);
        abort();
    }
}

/* Where the first line ends (after its '\n'), or n. */
static size_t first_line(const uint8_t *t, size_t n)
{
    const uint8_t *nl = memchr(t, '\n', n);
    return nl ? (size_t)(nl - t) + 1 : n;
}

#ifdef FUZZ_LOGS_GZIP
/* A gzip member of t[0..n) appended to out. */
static size_t gzip_member(const uint8_t *t, size_t n, uint8_t *out, size_t room, int level)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        abort();
    z.next_in = (Bytef *)(uintptr_t)t;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)room;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        abort();
    size_t len = room - z.avail_out;
    deflateEnd(&z);
    return len;
}

static void write_gzip(const struct logs_fuzz_opts *o, const uint8_t *t, size_t n)
{
    const size_t room = 2 * n + 256;
    uint8_t *out = malloc(room);
    if (out == NULL)
        abort();
    const int level = 1 + (int)(o->feed_seed % 9);
    size_t len;
    if (o->variant & 1) {
        const size_t cut = first_line(t, n);
        len = gzip_member(t, cut, out, room, level);
        len += gzip_member(t + cut, n - cut, out + len, room - len, level);
    } else {
        len = gzip_member(t, n, out, room, level);
    }
    write_file(gzip_name, out, len);
    free(out);
}
#endif

#ifdef FUZZ_LOGS_ZSTD
static size_t zstd_frame(const uint8_t *t, size_t n, uint8_t *out, size_t room, int level)
{
    const size_t len = ZSTD_compress(out, room, t, n, level);
    if (ZSTD_isError(len))
        abort();
    return len;
}

static void write_zstd(const struct logs_fuzz_opts *o, const uint8_t *t, size_t n)
{
    const size_t room = 2 * ZSTD_compressBound(n) + 64;
    uint8_t *out = malloc(room);
    if (out == NULL)
        abort();
    const int level = 1 + (int)(o->feed_seed >> 4 & 3);
    size_t len = 0;
    if (o->variant & 2) {
        /* A skippable frame: magic 0x184D2A5?, 4-byte size, its bytes. */
        static const uint8_t skip[] = {0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 'p', 'c', 't', 0};
        memcpy(out, skip, sizeof skip);
        len = sizeof skip;
    }
    if (o->variant & 4) {
        const size_t cut = first_line(t, n);
        len += zstd_frame(t, cut, out + len, room - len, level);
        len += zstd_frame(t + cut, n - cut, out + len, room - len, level);
    } else {
        len += zstd_frame(t, n, out + len, room - len, level);
    }
    write_file(zstd_name, out, len);
    free(out);
}
#endif

/* The plain file's run against a compressed file's: the same output and
 * status, refusals included (data refused as binary in a plain file is
 * refused inside gzip or zstd too). */
static void compare_compressed(const struct logs_fuzz_opts *o, const char *kind,
                               const struct logs_fuzz_out *plain, const char *what,
                               const struct logs_fuzz_out *c)
{
    logs_fuzz_same(o, kind, "plain file, run 1", plain, what, c);
}

/* One run over files with run k's options (threads and chunk size of k,
 * or of the other run when swap). */
static void run(const struct logs_fuzz_opts *o, int k, const char *const *files, int nfiles,
                struct logs_fuzz_out *out)
{
    struct log_session *s = logs_fuzz_session(o, k, out);
    if (s == NULL) {
        out->status = -100;
        return;
    }
    for (int i = 0; i < nfiles; i++)
        if (log_session_add_file(s, files[i]) != 0)
            abort();
    logs_fuzz_end(s, out, log_session_run(s));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct logs_fuzz_opts o;
    const uint8_t *payload;
    size_t payload_len;
    if (logs_fuzz_options(data, size, &o, &payload, &payload_len) != 0)
        return 0;
    dir_init();
    logs_fuzz_input(data, size);
    size_t n;
    uint8_t *text = logs_fuzz_text(&o, payload, payload_len, &n);
    write_file(plain_name, text, n);
    /* A payload that is itself compressed is read as such from the plain
     * file, so its gzip/zstd copies hold other data. */
    const int self_compressed = logs_fuzz_compressed(text, n);
    const char *files[3] = {plain_name, NULL, NULL};
    int nfiles = 1;

    struct logs_fuzz_out p1, p2;
    const char *plain[1] = {plain_name};
    run(&o, 0, plain, 1, &p1);
    if (p1.status != -100)
        logs_fuzz_check(&o, "plain file, run 1", text, n, &p1);
    run(&o, 1, plain, 1, &p2);
    if (p2.status != -100)
        logs_fuzz_check(&o, "plain file, run 2", text, n, &p2);
    logs_fuzz_same(&o, "same", "plain file, run 1", &p1, "plain file, run 2", &p2);
    logs_fuzz_out_free(&p2);
    if (p1.status == -100 || self_compressed)
        goto out;

    /* Each file's output, for the run over all of them. */
    struct logs_fuzz_out outs[3];
    memset(outs, 0, sizeof outs);
    outs[0] = p1;
    memset(&p1, 0, sizeof p1);
#ifdef FUZZ_LOGS_GZIP
    write_gzip(&o, text, n);
    {
        const char *gz[1] = {gzip_name};
        /* The threads of run 2 with the chunk size of run 1. */
        struct logs_fuzz_opts og = o;
        og.chunk[1] = o.chunk[0];
        run(&og, 1, gz, 1, &outs[nfiles]);
        logs_fuzz_check(&og, "gzip file", text, n, &outs[nfiles]);
        compare_compressed(&og, "same", &outs[0], "gzip file", &outs[nfiles]);
        files[nfiles++] = gzip_name;
    }
#endif
#ifdef FUZZ_LOGS_ZSTD
    write_zstd(&o, text, n);
    {
        const char *zst[1] = {zstd_name};
        /* Threads 1-4 other than run 1's, chunk size of run 2. */
        struct logs_fuzz_opts oz = o;
        oz.threads[1] = 1 + o.threads[0] % 4;
        run(&oz, 1, zst, 1, &outs[nfiles]);
        logs_fuzz_check(&oz, "zstd file", text, n, &outs[nfiles]);
        compare_compressed(&oz, o.variant & 2 ? "zstd-skippable" : "same", &outs[0], "zstd file",
                           &outs[nfiles]);
        files[nfiles++] = zstd_name;
    }
#endif
    if (o.variant & 8) {
        /* Every file as one input of one session: the header once, then
         * each file's rows, in input order; the status of the worst (a
         * fault before unparsed lines with --strict-format). */
        struct logs_fuzz_out want, c;
        memset(&want, 0, sizeof want);
        for (int i = 0; i < nfiles; i++)
            want.cap += outs[i].n;
        want.p = malloc(want.cap + 1);
        if (want.p == NULL)
            abort();
        for (int i = 0; i < nfiles; i++) {
            size_t head = 0;
            if (o.header && outs[i].n) {
                const char *nl = memchr(outs[i].p, '\n', outs[i].n);
                head = nl ? (size_t)(nl - outs[i].p) + 1 : outs[i].n;
            }
            if (i == 0)
                head = 0;
            if (outs[i].n > head) /* p is NULL when there was no output */
                memcpy(want.p + want.n, outs[i].p + head, outs[i].n - head);
            want.n += outs[i].n - head;
            if (outs[i].status == LOG_SESSION_FAULT || want.status == 0)
                want.status = outs[i].status;
        }
        run(&o, 1, files, nfiles, &c);
        logs_fuzz_same(&o, "same", "each file's rows in input order", &want, "the files as inputs",
                       &c);
        logs_fuzz_out_free(&c);
        logs_fuzz_out_free(&want);
    }
    for (int i = 0; i < nfiles; i++)
        logs_fuzz_out_free(&outs[i]);
out:
    logs_fuzz_out_free(&p1);
    free(text);
    return 0;
}
