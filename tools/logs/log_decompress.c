/* log_decompress.c - gzip and zstd input for `pct logs`.
 *
 * gzip: ISA-L's igzip when the build found it (the fastest inflate on
 * x86-64), else zlib. Every member of a multi-member file is read (logrotate
 * and `cat a.gz b.gz` make them). zstd: libzstd, every frame. Truncated or
 * corrupt data ends the input with a message saying where; what was decoded
 * before has been handed out. */
#include <limits.h>
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
#include <zstd.h>
#endif

#define IN_BYTES ((size_t)256 << 10)

struct log_decompressor {
    enum log_compression type;
    unsigned char *in;
    size_t in_len, in_pos;
    int in_eof;
    uint64_t member_in; /* compressed bytes of the current member or frame consumed */
    int in_member;      /* inside a member or frame: its end has not been seen */
    int done;
#if defined(PCT_LOGS_ISAL)
    struct inflate_state gz;
#elif defined(PCT_LOGS_ZLIB)
    z_stream gz;
#endif
#if defined(PCT_LOGS_ZSTD)
    ZSTD_DStream *zs;
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

static size_t stop(struct log_input *in, struct log_decompressor *d, const char *what)
{
    d->done = 1;
    if (what != NULL)
        log_input_fault(in,
                        "%s %s at compressed byte %llu: everything decoded before it was written",
                        type_name(d->type), what,
                        (unsigned long long)(in->offset - in->start - (d->in_len - d->in_pos)));
    return 0;
}

/* One step of the decompressor on what is in d->in: how many bytes it
 * consumed and wrote; *member_end set when a member or frame ended; returns
 * 0, or -1 on corrupt data. */
static int step(struct log_decompressor *d, char *dst, size_t n, size_t *used, size_t *made,
                int *member_end)
{
    const unsigned char *src = d->in + d->in_pos;
    size_t avail = d->in_len - d->in_pos;
    *member_end = 0;
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
        if (ret != ISAL_DECOMP_OK && ret != ISAL_END_INPUT && ret != ISAL_OUT_OVERFLOW)
            return -1;
        *member_end = d->gz.block_state == ISAL_BLOCK_FINISH;
#else
        int ret = inflate(&d->gz, Z_NO_FLUSH);
        if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
            return -1;
        *member_end = ret == Z_STREAM_END;
#endif
        *used = avail - d->gz.avail_in;
        *made = n - d->gz.avail_out;
        return 0;
    }
#endif
#if defined(PCT_LOGS_ZSTD)
    ZSTD_inBuffer ib = {src, avail, 0};
    ZSTD_outBuffer ob = {dst, n, 0};
    size_t ret = ZSTD_decompressStream(d->zs, &ob, &ib);
    if (ZSTD_isError(ret))
        return -1;
    *member_end = ret == 0;
    *used = ib.pos;
    *made = ob.pos;
    return 0;
#else /* not reached: log_decompress_start refused the input */
    (void)src, (void)avail, (void)dst, (void)n, (void)used, (void)made;
    return -1;
#endif
}

size_t log_decompress_read(struct log_input *in, char *dst, size_t n)
{
    struct log_decompressor *d = in->dec;
    while (!d->done) {
        if (!refill(in, d)) {
            if (in->failed) /* a read error, reported */
                return stop(in, d, NULL);
            return stop(in, d, d->in_member ? "data truncated" : NULL);
        }
        if (!d->in_member && d->type == LOG_GZIP && d->in[d->in_pos] != 0x1f)
            return stop(in, d, "file has trailing data that is not gzip");
        size_t used, made;
        int member_end;
        if (step(d, dst, n, &used, &made, &member_end) != 0)
            return stop(in, d, "data corrupt");
        d->in_pos += used;
        d->in_member = !member_end;
        if (made > 0)
            return made;
        if (used == 0 && !member_end && d->in_pos < d->in_len)
            return stop(in, d, "data corrupt"); /* no progress */
    }
    return 0;
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
