/* log_decode.c - decode a log of any size in fixed-size chunks with
 * libpct's streaming decoder.
 *
 *   cc log_decode.c $(pkg-config --cflags --libs libpct)
 *   ./a.out access.log > decoded.log      (or: ... < access.log)
 *
 * Every %HH becomes its byte, whatever the chunk boundaries: an escape cut in
 * two ("%4" | "1") is carried into the next call, so the output is the
 * one-shot pct_decode of the whole input while memory stays constant. */
#include <pct.h>
#include <stdio.h>

#define CHUNK 4096

int main(int argc, char **argv)
{
    FILE *in = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (in == NULL) {
        perror(argv[1]);
        return 2;
    }
    static char src[CHUNK];
    static char dst[CHUNK + PCT_STREAM_CARRY]; /* update writes at most len + carry */

    pct_decoder dec;
    pct_decoder_init(&dec, NULL, 0); /* lenient: a malformed escape is copied */
    size_t n;
    pct_result r = {PCT_OK, 0};
    while (r.status == PCT_OK && (n = fread(src, 1, sizeof src, in)) > 0) {
        r = pct_decoder_update(&dec, src, n, dst);
        if (r.status == PCT_OK)
            fwrite(dst, 1, r.count, stdout);
    }
    if (r.status == PCT_OK) {
        r = pct_decoder_finish(&dec, dst);
        if (r.status == PCT_OK)
            fwrite(dst, 1, r.count, stdout);
    }
    int failed = ferror(in) || r.status != PCT_OK;
    if (r.status != PCT_OK)
        fprintf(stderr, "%s at byte %zu\n", pct_status_string(r.status), r.count);
    if (in != stdin)
        fclose(in);
    return fflush(stdout) != 0 || failed ? 1 : 0;
}
