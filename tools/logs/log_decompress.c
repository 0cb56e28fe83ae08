/* log_decompress.c - gzip and zstd input for `pct logs`.
 *
 * gzip: ISA-L's igzip when the build found it (the fastest inflate on
 * x86-64), else zlib. Every member of a multi-member file is read (logrotate
 * and `cat a.gz b.gz` make them). zstd: libzstd, every frame, skippable
 * frames (pzstd writes one before each frame) skipped.
 *
 * Truncated or corrupt data ends the input with a message that says where
 * (the compressed byte where the damage was found: the gzip trailer whose
 * checksum does not match, the zstd block or checksum that fails) and how
 * many lines were handed out before it, the last one cut short if the
 * damage came in its middle (it is written as it is, and the message says
 * so). Everything decoded before the damage is handed out, as zcat and
 * zstdcat write it: zstd is fed one block at a time, so that a damaged
 * block loses only itself, whatever the size of the reads, and the output
 * is the same with any --threads. Decompressed data that is itself
 * compressed (`gzip | gzip`) or binary is refused, as a plain file is. */
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log_decompress.h"
#include "logs.h"

#if defined(PCT_LOGS_ISAL)
#include <isa-l/igzip_lib.h>
#elif defined(PCT_LOGS_ZLIB)
#include <zlib.h>
#endif
#if defined(PCT_LOGS_ZSTD)
/* ZSTD_nextSrcSizeToDecompress: stable since libzstd 1.0, exported by the
 * shared library, but declared among the static-only functions. */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define IN_BYTES ((size_t)256 << 10)

struct log_decompressor {
    enum log_compression type;
    unsigned char *in;
    size_t in_len, in_pos;
    int in_eof;
    int in_member; /* inside a member or frame: its end has not been seen */
    int done;
    uint64_t consumed; /* compressed bytes consumed (of the whole input) */
    uint64_t lines;    /* newlines handed out */
    int partial;       /* the last byte handed out is not a newline */
    int inner_checked; /* the decompressed data's first bytes were looked at */
    const char *error; /* damage found after bytes still to hand out */
    uint64_t error_at;
#if defined(PCT_LOGS_ISAL)
    struct inflate_state gz;
#elif defined(PCT_LOGS_ZLIB)
    z_stream gz;
#endif
#if defined(PCT_LOGS_ZSTD)
    ZSTD_DStream *zs;
    int zs_pending; /* dst was filled: libzstd may hold more of a block */
#endif
};

const char *pct_logs_compression(void) /* logs.h */
{
#if defined(PCT_LOGS_ISAL)
#define GZIP_SUPPORT "gzip (ISA-L)"
#elif defined(PCT_LOGS_ZLIB)
#define GZIP_SUPPORT "gzip (zlib)"
#endif
#if defined(PCT_LOGS_ZSTD) && defined(GZIP_SUPPORT)
    return GZIP_SUPPORT ", zstd (libzstd)";
#elif defined(PCT_LOGS_ZSTD)
    return "zstd (libzstd)";
#elif defined(GZIP_SUPPORT)
    return GZIP_SUPPORT;
#else
    return "none";
#endif
}

static const char *type_name(enum log_compression type)
{
    return type == LOG_GZIP ? "gzip" : "zstd";
}

int log_decompress_start(struct log_input *in, enum log_compression type)
{
    int supported = 0;
#if defined(PCT_LOGS_ISAL) || defined(PCT_LOGS_ZLIB)
    supported |= type == LOG_GZIP;
#endif
#if defined(PCT_LOGS_ZSTD)
    supported |= type == LOG_ZSTD;
#endif
    if (!supported) {
        log_input_fault(in, "%s data: this pct was built without %s support: not read",
                        type_name(type), type_name(type));
        return -1;
    }
    struct log_decompressor *d = calloc(1, sizeof *d);
    unsigned char *buf = malloc(IN_BYTES);
    if (d == NULL || buf == NULL) {
        free(d);
        free(buf);
        log_input_fault(in, "out of memory: not read");
        return -1;
    }
    d->type = type;
    d->in = buf;
    /* The head read to detect the type is the start of the compressed data. */
    memcpy(d->in, in->head.data, in->head.len);
    d->in_len = in->head.len;
    in->head_pos = in->head.len;
    d->in_eof = in->eof;
    in->dec = d;
#if defined(PCT_LOGS_ISAL)
    if (type == LOG_GZIP) {
        isal_inflate_init(&d->gz);
        d->gz.crc_flag = ISAL_GZIP;
    }
#elif defined(PCT_LOGS_ZLIB)
    if (type == LOG_GZIP && inflateInit2(&d->gz, 15 + 16) != Z_OK) {
        log_input_fault(in, "out of memory: not read");
        return -1; /* log_input_close frees d */
    }
#endif
#if defined(PCT_LOGS_ZSTD)
    if (type == LOG_ZSTD && (d->zs = ZSTD_createDStream()) == NULL) {
        log_input_fault(in, "out of memory: not read");
        return -1; /* log_input_close frees d */
    }
#endif
    return 0;
}

/* Makes compressed bytes available; 0 when there are none left. */
static int refill(struct log_input *in, struct log_decompressor *d)
{
    if (d->in_pos < d->in_len)
        return 1;
    if (d->in_eof)
        return 0;
    ssize_t got = log_input_read_raw(in, d->in, IN_BYTES);
    d->in_pos = 0;
    d->in_len = got > 0 ? (size_t)got : 0;
    if (got <= 0)
        d->in_eof = 1;
    return got > 0;
}

/* Newlines in p[0..n): 64 bytes a step, counted in byte lanes (at most 4
 * a step), summed every 63 steps. */
static uint64_t count_newlines(const char *p, size_t n)
{
    uint64_t count = 0;
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (i + 64 <= n) {
        __m128i acc = zero;
        size_t steps = (n - i) / 64;
        if (steps > 63)
            steps = 63;
        for (size_t k = 0; k < steps; k++, i += 64) {
            const __m128i *v = (const __m128i *)(const void *)(p + i);
            __m128i a = _mm_cmpeq_epi8(_mm_loadu_si128(v), nl);
            __m128i b = _mm_cmpeq_epi8(_mm_loadu_si128(v + 1), nl);
            __m128i c = _mm_cmpeq_epi8(_mm_loadu_si128(v + 2), nl);
            __m128i d = _mm_cmpeq_epi8(_mm_loadu_si128(v + 3), nl);
            acc = _mm_sub_epi8(acc, _mm_add_epi8(_mm_add_epi8(a, b), _mm_add_epi8(c, d)));
        }
        __m128i sums = _mm_sad_epu8(acc, zero);
        count += (uint64_t)_mm_cvtsi128_si32(sums) +
                 (uint64_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
#endif
    for (; i < n; i++)
        count += p[i] == '\n';
    return count;
}

static size_t stop(struct log_input *in, struct log_decompressor *d, const char *what, uint64_t at)
{
    d->done = 1;
    if (what == NULL)
        return 0;
    unsigned long long lines = d->lines + (uint64_t)d->partial;
    log_input_fault(in, "%s %s at compressed byte %llu: the %llu line%s before it %s written%s",
                    type_name(d->type), what, (unsigned long long)at, lines, lines == 1 ? "" : "s",
                    lines == 1 ? "was" : "were",
                    d->partial ? ", the last one cut short where the data broke" : "");
    return 0;
}

/* One step of the decompressor on what is in d->in: how many bytes it
 * consumed and wrote (also when it fails: what came before the damage);
 * *member_end set when a member or frame ended; returns 0, or -1 on
 * corrupt data, with *what and *at (the compressed byte, from the step's
 * first) saying what and where. */
static int step(struct log_decompressor *d, char *dst, size_t n, size_t *used, size_t *made,
                int *member_end, const char **what, size_t *at)
{
    const unsigned char *src = d->in + d->in_pos;
    size_t avail = d->in_len - d->in_pos;
    *member_end = 0;
    *what = "data corrupt";
#if defined(PCT_LOGS_ISAL) || defined(PCT_LOGS_ZLIB)
    if (d->type == LOG_GZIP) {
        if (n > UINT_MAX)
            n = UINT_MAX;
        if (!d->in_member) { /* the next member */
#if defined(PCT_LOGS_ISAL)
            isal_inflate_reset(&d->gz);
            d->gz.crc_flag = ISAL_GZIP;
#else
            inflateReset(&d->gz);
#endif
        }
        d->gz.next_in = (void *)(uintptr_t)src;
        d->gz.avail_in = (unsigned)avail;
        d->gz.next_out = (void *)dst;
        d->gz.avail_out = (unsigned)n;
#if defined(PCT_LOGS_ISAL)
        int ret = isal_inflate(&d->gz);
        int failed = ret != ISAL_DECOMP_OK && ret != ISAL_END_INPUT && ret != ISAL_OUT_OVERFLOW;
        int bad_check = ret == ISAL_INCORRECT_CHECKSUM;
        *member_end = !failed && d->gz.block_state == ISAL_BLOCK_FINISH;
#else
        int ret = inflate(&d->gz, Z_NO_FLUSH);
        int failed = ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR;
        int bad_check = failed && d->gz.msg != NULL &&
                        (strcmp(d->gz.msg, "incorrect data check") == 0 ||
                         strcmp(d->gz.msg, "incorrect length check") == 0);
        *member_end = ret == Z_STREAM_END;
#endif
        *used = avail - d->gz.avail_in;
        *made = n - d->gz.avail_out;
        *at = *used;
        if (bad_check) {
            /* The 8-byte trailer (CRC-32, length) was read: it starts 8
             * bytes before where the decoder stopped. */
            *what = "data corrupt: checksum mismatch (the member's data or its trailer is damaged)";
            *at = *used >= 8 ? *used - 8 : 0;
        }
        return failed ? -1 : 0;
    }
#endif
#if defined(PCT_LOGS_ZSTD)
    /* One unit at a time (a frame header, a block, a checksum): a unit
     * that fails loses only its own output (libzstd does not say how much
     * it wrote in a call that fails), and is where the damage is. A frame
     * starts with its header alone, so that libzstd never decodes a whole
     * frame in one call. Output a block left inside libzstd (dst was full)
     * is taken out before the next unit goes in. */
    for (;;) {
        size_t give = avail;
        if (d->zs_pending) {
            give = 0;
        } else {
            size_t need = ZSTD_nextSrcSizeToDecompress(d->zs);
            if (!d->in_member)
                need = 18; /* ZSTD_FRAMEHEADERSIZE_MAX: the header, and no more */
            if (need > 0 && need < give)
                give = need;
        }
        ZSTD_inBuffer ib = {src, give, 0};
        ZSTD_outBuffer ob = {dst, n, 0};
        size_t ret = ZSTD_decompressStream(d->zs, &ob, &ib);
        *at = 0;
        if (ZSTD_isError(ret)) {
            if (ZSTD_getErrorCode(ret) == ZSTD_error_checksum_wrong) {
                /* libzstd takes the last block and the checksum after it
                 * in one call: the checksum is the call's last 4 bytes. */
                *what =
                    "data corrupt: checksum mismatch (the frame's data or its checksum is damaged)";
                *at = give >= 4 ? give - 4 : 0;
            }
            *used = 0;
            *made = 0;
            return -1;
        }
        int flushed_only = d->zs_pending;
        d->zs_pending = ob.pos == n;
        if (flushed_only && ob.pos == 0 && ret != 0)
            continue; /* nothing was held: now the next unit */
        *used = ib.pos;
        *made = ob.pos;
        *member_end = ret == 0;
        return 0;
    }
#else /* not reached: log_decompress_start refused the input */
    (void)src, (void)avail, (void)dst, (void)n, (void)used, (void)made, (void)at;
    return -1;
#endif
}

/* Bytes handed out: counted. Returns n. */
static size_t hand_out(struct log_input *in, struct log_decompressor *d, const char *dst, size_t n)
{
    (void)in;
    d->lines += count_newlines(dst, n);
    d->partial = dst[n - 1] != '\n';
    return n;
}

/* Up to n decompressed bytes (log_decompress_read, before the first look). */
static size_t decode_some(struct log_input *in, struct log_decompressor *d, char *dst, size_t n)
{
    while (!d->done) {
        if (d->error != NULL)
            return stop(in, d, d->error, d->error_at);
        if (!refill(in, d)) {
            if (in->failed) /* a read error, reported */
                return stop(in, d, NULL, 0);
            return stop(in, d, d->in_member ? "data truncated" : NULL, d->consumed);
        }
        if (!d->in_member && d->type == LOG_GZIP && d->in[d->in_pos] != 0x1f)
            return stop(in, d, "file has trailing data that is not gzip", d->consumed);
        /* Set by step (0 and NULL where a build has no decompressor). */
        size_t used = 0, made = 0, at = 0;
        int member_end = 0;
        const char *what = NULL;
        int status = step(d, dst, n, &used, &made, &member_end, &what, &at);
        uint64_t before = d->consumed;
        d->in_pos += used;
        d->consumed += used;
        if (status != 0) {
            /* What was decoded before the damage goes out first. */
            d->error = what;
            d->error_at = before + at;
            if (made > 0)
                return hand_out(in, d, dst, made);
            continue;
        }
        d->in_member = !member_end;
        if (made > 0)
            return hand_out(in, d, dst, made);
        if (used == 0 && !member_end && d->in_pos < d->in_len)
            return stop(in, d, "data corrupt", d->consumed); /* no progress */
    }
    return 0;
}

/* The first bytes looked at: as many as a plain input's type is told by. */
#define FIRST_LOOK ((size_t)64 << 10)

size_t log_decompress_read(struct log_input *in, char *dst, size_t n)
{
    struct log_decompressor *d = in->dec;
    if (d->inner_checked)
        return decode_some(in, d, dst, n);
    /* The first bytes, as many as a plain file's head (or all there is),
     * are judged as that head is: the same data is refused (compressed
     * again, or binary) whether it comes compressed or not. */
    d->inner_checked = 1;
    size_t want = n < FIRST_LOOK ? n : FIRST_LOOK, got = 0;
    while (got < want) {
        size_t k = decode_some(in, d, dst + got, n - got);
        if (k == 0)
            break;
        got += k;
    }
    const char *inner = log_input_magic((const unsigned char *)dst, got);
    if (inner == NULL && log_input_looks_binary(dst, got))
        inner = "binary";
    if (inner != NULL && !in->failed) {
        d->done = 1;
        log_input_fault(in, "%s data holding %s data, not a text log: not read", type_name(d->type),
                        inner);
        return 0;
    }
    return got;
}

void log_decompress_end(struct log_input *in)
{
    struct log_decompressor *d = in->dec;
    if (d == NULL)
        return;
#if defined(PCT_LOGS_ZLIB) && !defined(PCT_LOGS_ISAL)
    if (d->type == LOG_GZIP)
        inflateEnd(&d->gz);
#endif
#if defined(PCT_LOGS_ZSTD)
    if (d->zs != NULL)
        ZSTD_freeDStream(d->zs);
#endif
    free(d->in);
    free(d);
    in->dec = NULL;
}
