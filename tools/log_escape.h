/* log_escape.h - the escaping that keeps decoded log content from forging
 * output: one input line stays one output line, and no control character
 * reaches a terminal. */
#ifndef PCT_TOOLS_LOG_ESCAPE_H
#define PCT_TOOLS_LOG_ESCAPE_H

#include <stddef.h>

#include "log_scan.h"

/* 1 where a byte needs an escape. */
struct log_escape {
    unsigned char line[256];           /* line output: controls, '"', '\\' */
    unsigned char json[256];           /* inside a JSON string */
    unsigned char spaced[256];         /* line plus ' ' (whitespace-separated formats) */
    int bytes;                         /* --bytes: 0xC2 0x80-0x9F is not a C1 control */
    struct log_scan scan, scan_spaced; /* line[] and spaced[], to scan fast */
};

void log_escape_init(struct log_escape *e, int bytes);

/* Writes src escaped at o for line output (json == 0; spaced: ' ' too) or
 * inside a JSON string, and returns the end of what it wrote. o needs room
 * for 6 bytes per input byte. */
char *log_escape(const struct log_escape *e, char *o, const char *src, size_t n, int json,
                 int spaced);

#endif
