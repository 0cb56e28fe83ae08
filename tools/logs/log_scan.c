/* log_scan.c - building the byte classes of log_scan.h. */
#include <string.h>

#include "log_scan.h"

void log_scan_init(struct log_scan *s, unsigned char below, int high, const char *bytes)
{
    size_t count = strlen(bytes);
    memset(s, 0, sizeof *s);
    s->below = below;
    s->high = high;
    s->count = (int)(count < LOG_SCAN_BYTES ? count : LOG_SCAN_BYTES);
    for (int c = 0; c < 256; c++)
        s->table[c] = (unsigned char)(c < below || (high && c >= 0x80));
    for (size_t k = 0; k < LOG_SCAN_BYTES; k++) {
        s->bytes[k] = (unsigned char)bytes[k < count ? k : 0];
        s->table[s->bytes[k]] = 1;
        memset(s->vec[1 + k], s->bytes[k], 16);
    }
    /* Signed, below (at most 0x7f) takes every byte >= 0x80 with those
     * below it: one comparison. Unsigned, the minimum of a byte and
     * below - 1 is the byte itself when it is below. */
    memset(s->vec[0], high ? below : below - 1, 16);
}
