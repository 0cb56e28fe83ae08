/* encode_decode.c - one-shot percent-encoding and decoding with libpct.
 *
 *   cc encode_decode.c $(pkg-config --cflags --libs libpct)
 *   ./a.out 'café menu & more'
 *
 * Encodes each argument as a URL query value (the WHATWG form set, space as
 * '+'), decodes it back, and checks the round trip. Exit status 1 if one
 * fails. */
#include <pct.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int round_trip(const char *text)
{
    size_t len = strlen(text);
    /* pct_encode_length gives the exact size; 3 * len would do too. */
    size_t encoded_size = pct_encode_length(text, len, &pct_set_form, PCT_PLUS);
    char *encoded = malloc(encoded_size + 1);
    char *decoded = malloc(len + 1);
    if (encoded == NULL || decoded == NULL) {
        free(encoded);
        free(decoded);
        fputs("out of memory\n", stderr);
        return 0;
    }

    pct_result r = pct_encode(text, len, encoded, &pct_set_form, PCT_PLUS);
    int ok = r.status == PCT_OK && r.count == encoded_size;
    if (ok) {
        encoded[r.count] = '\0';
        /* Decoding never writes more than it reads; STRICT and UTF8 turn bad
         * escapes and bad UTF-8 into errors instead of copying them. */
        r = pct_decode(encoded, encoded_size, decoded, PCT_PLUS | PCT_STRICT | PCT_UTF8);
        ok = r.status == PCT_OK && r.count == len && memcmp(decoded, text, len) == 0;
    }
    if (ok)
        printf("%s -> %s\n", text, encoded);
    else
        fprintf(stderr, "%s: %s at byte %zu\n", text, pct_status_string(r.status), r.count);
    free(encoded);
    free(decoded);
    return ok;
}

int main(int argc, char **argv)
{
    static const char *const samples[] = {"café menu & more", "a+b=c", "100%"};
    int ok = 1;
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            ok &= round_trip(argv[i]);
    } else {
        for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
            ok &= round_trip(samples[i]);
    }
    printf("libpct %s, implementation %s\n", pct_version(), pct_implementation());
    return ok ? 0 : 1;
}
