/* log_escape.c - output escaping for line mode (Apache's convention: \" \\
 * \n \r \t \xHH) and for JSON strings (\" \\ \n \r \t \u00HH). */
#include <stdint.h>
#include <string.h>

#include "log_escape.h"

static const char hex_digits[] = "0123456789abcdef";

/* prefix, then c as two lower-case hex digits. */
static char *put_hex(char *o, const char *prefix, unsigned char c)
{
    size_t n = strlen(prefix);
    memcpy(o, prefix, n);
    o[n] = hex_digits[c >> 4];
    o[n + 1] = hex_digits[c & 15];
    return o + n + 2;
}

void log_escape_init(struct log_escape *e)
{
    /* Controls and DEL; U+0080-U+009F (C2 80-C2 9F) are C1 controls (8-bit
     * CSI and friends), escaped with --bytes too: a terminal reads them. */
    log_scan_init(&e->scan[ESC_LINE], 0x20, 0, "\"\\\x7f\xc2");
    log_scan_init(&e->scan[ESC_SPACED], 0x20, 0, "\"\\\x7f\xc2 ");
    e->scan[ESC_JSON] = e->scan[ESC_LINE];
    log_scan_init(&e->scan[ESC_CONTROLS], 0x20, 0, "\x7f\xc2");
    e->scan[ESC_JSON_TEXT] = e->scan[ESC_CONTROLS];
}

char *log_escape_at(const struct log_escape *e, char *o, const char *src, size_t n, size_t *i,
                    enum log_escape_mode mode)
{
    (void)e; /* the rules are the same for every escaper */
    int json = mode == ESC_JSON || mode == ESC_JSON_TEXT;
    unsigned char c = (unsigned char)src[(*i)++];
    if (c == 0xC2) { /* U+0080-U+009F: C1 controls (8-bit CSI...) */
        if (*i < n && (unsigned char)src[*i] >= 0x80 && (unsigned char)src[*i] <= 0x9F) {
            unsigned char d = (unsigned char)src[(*i)++];
            return json ? put_hex(o, "\\u00", d) : put_hex(put_hex(o, "\\x", c), "\\x", d);
        }
        *o++ = (char)c;
        return o;
    }
    if (c == '\t' && mode == ESC_CONTROLS) { /* a field separator in some logs */
        *o++ = (char)c;
        return o;
    }
    if (c < 0x20 && mode == ESC_JSON_TEXT) { /* JSON whitespace: none is in a string */
        *o++ = c == '\t' ? '\t' : ' ';
        return o;
    }
    *o++ = '\\';
    switch (c) {
    case '"':
    case '\\':
        *o++ = (char)c;
        break;
    case '\n':
        *o++ = 'n';
        break;
    case '\r':
        *o++ = 'r';
        break;
    case '\t':
        *o++ = 't';
        break;
    default:
        o = put_hex(o - 1, json ? "\\u00" : "\\x", c);
    }
    return o;
}

char *log_escape(const struct log_escape *e, char *o, const char *src, size_t n,
                 enum log_escape_mode mode)
{
    const struct log_scan *scan = &e->scan[mode];
    /* Most text needs no escape: it is copied as it is scanned (16 bytes
     * at a time, the last ones too), one pass instead of a scan and a
     * copy. From the first byte that may need work, the loop below. */
    size_t i = log_scan_copy(scan, o, src, n);
    o += i;
    while (i < n) {
        size_t j = log_scan_find(scan, src, i, n);
        memcpy(o, src + i, j - i);
        o += j - i;
        if (j == n)
            break;
        i = j;
        o = log_escape_at(e, o, src, n, &i, mode);
    }
    return o;
}

char *log_escape_padded(const struct log_escape *e, char *o, const char *src, size_t n,
                        enum log_escape_mode mode)
{
    const struct log_scan *scan = &e->scan[mode];
    size_t i = 0;
    for (;;) {
        /* Up to the next byte of the class, copied as it is found. */
        size_t j = i + log_scan_copy_padded(scan, o, src + i, n - i);
        o += j - i;
        if (j == n)
            return o;
        i = j;
        o = log_escape_at(e, o, src, n, &i, mode);
    }
}
